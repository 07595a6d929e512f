#!/usr/bin/env python3
"""Time and size of the HTML report of a 100-page site (issue #15 target: < 2 s, < 5 MB).

By default the pages are the demo site's (all its layouts: articles, sections, index
pages, English and Japanese), ``--pages`` of them picked evenly, written to a
temporary folder; their pattern file is learned once.  Then:

a) in this process, ``build_site_report`` + ``render_site_report`` + ``write_html``
   from the page files (read and decoded as the command does), best and median of
   ``--runs``;
b) the whole command, ``python -m newsstemmer report PATTERNS PAGES -o FILE``, in a
   fresh process (start-up, imports, reading included), median of ``--runs``;

and the report's size.  ``--dir DIR`` times the pages of another folder instead
(learned the same way), e.g. a dataset site.  No data set is needed otherwise.

    python benchmarks/report.py [--pages 100] [--runs 5] [--dir DIR] [--keep DIR]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))  # benchmark this checkout, whatever is installed

TARGET_SECONDS = 2.0
TARGET_BYTES = 5_000_000


def write_demo(folder: Path, n: int) -> list[Path]:
    """``n`` demo pages spread over the whole site, written under ``folder``."""
    from newsstemmer.demo import build_site

    site = build_site()
    paths = sorted(site.pages)
    step = max(1, len(paths) // n)
    chosen = paths[::step][:n]
    files = []
    for k, path in enumerate(chosen):
        target = folder / f"page-{k:03d}.html"
        target.write_bytes(site.pages[path].body)
        files.append(target)
    return files


def build_once(patterns: Path, files: list[Path], out: Path) -> float:
    """One report as the command makes it, inside this process; its wall time."""
    from newsstemmer.io.files import PageFile, read_page
    from newsstemmer.io.linkinfo import page_from_file
    from newsstemmer.layout.patterns import SitePatterns
    from newsstemmer.report import build_site_report, render_site_report, write_html

    t0 = time.perf_counter()
    site = SitePatterns.load(patterns)
    pages = (page_from_file(pf, read_page(pf)) for pf in (PageFile(str(f), str(f)) for f in files))
    write_html(out, render_site_report(build_site_report(site, pages, patterns_source=str(patterns))))
    return time.perf_counter() - t0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pages", type=int, default=100, help="demo pages in the site (default 100)")
    ap.add_argument("--runs", type=int, default=5, help="timed runs of each kind (default 5)")
    ap.add_argument("--dir", help="time the HTML pages of this folder instead of the demo's")
    ap.add_argument("--keep", help="work in this folder and keep it (report.html included)")
    args = ap.parse_args(argv)

    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="ns-report-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        if args.dir:
            files = sorted(p for p in Path(args.dir).rglob("*") if p.suffix.lower() in (".html", ".htm"))
            source = args.dir
        else:
            (work / "pages").mkdir(exist_ok=True)
            files = write_demo(work / "pages", args.pages)
            source = f"demo site, {len(files)} pages"
        if not files:
            sys.exit(f"error: no HTML pages in {args.dir}")
        env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
        patterns = work / "patterns.json"
        learn = [sys.executable, "-m", "newsstemmer", "learn", "-q", "-o", str(patterns), *map(str, files)]
        subprocess.run(learn, check=True, env=env)

        out = work / "report.html"
        inside = [build_once(patterns, files, out) for _ in range(args.runs)]
        command = [sys.executable, "-m", "newsstemmer", "report", "-q", str(patterns), *map(str, files), "-o", str(out)]
        whole = []
        for _ in range(args.runs):
            t0 = time.perf_counter()
            subprocess.run(command, check=True, env=env)
            whole.append(time.perf_counter() - t0)
        size = out.stat().st_size

        from newsstemmer.layout.patterns import SitePatterns

        layouts = len(SitePatterns.load(patterns).patterns)
        print(f"pages: {len(files)} ({source}); layouts: {layouts}")
        print(f"a) in process: best {min(inside):.2f} s, median {statistics.median(inside):.2f} s")
        print(f"b) whole command: median {statistics.median(whole):.2f} s (min {min(whole):.2f}, max {max(whole):.2f})")
        print(f"report size: {size:,} bytes ({size / 1e6:.2f} MB)")
        ok = statistics.median(whole) < TARGET_SECONDS and size < TARGET_BYTES
        print(f"target (< {TARGET_SECONDS:g} s and < {TARGET_BYTES / 1e6:g} MB): {'met' if ok else 'NOT met'}")
        return 0
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
