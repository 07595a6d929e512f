#!/usr/bin/env python3
"""The ``newsstemmer extract`` command, whole process, against a bare lxml script.

200 article pages of one layout (the demo site's ``standard`` articles) are written to a
temporary folder and their pattern file is learned once (``newsstemmer learn``).  Then,
interleaved, several runs of

a) ``python -m newsstemmer extract -p P.json DIR > /dev/null`` (a fresh process; its
   default workers, one per core; and again with ``-j 1``), and
b) a fresh ``python -c`` process that reads the same files, parses each with
   ``lxml.html.document_fromstring`` and calls ``text_content()``;

the medians and the ratio a/b are printed (issue target: a/b <= 3).  The processes
use compiled bytecode kept in the work folder, as an installed package does
(``--no-bytecode-cache``: none, every process compiles newsstemmer's sources).  Also printed: the
start-up alone (``python -m newsstemmer --version`` and a bare ``python -c pass``), and
extraction inside one process (read the bytes, decode, ``page_url``, ``Page``,
``extract_with_patterns``, JSON line; best of ``--repeat``) in pages/s (target >= 300).
No data set is needed.

    python benchmarks/extract_cli.py [--pages 200] [--runs 7] [--repeat 3] [--keep DIR]
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import resource
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

#: The baseline: what reading and parsing the pages costs with nothing else.
BARE_LXML = """
import os, sys
import lxml.html
folder = sys.argv[1]
chars = 0
for name in sorted(os.listdir(folder)):
    if name.endswith(".html"):
        with open(os.path.join(folder, name), "rb") as fh:
            chars += len(lxml.html.document_fromstring(fh.read()).text_content())
"""


def write_pages(folder: Path, n: int, seed: int) -> int:
    """Write ``n`` demo articles of the ``standard`` layout to ``folder``; return their bytes."""
    from newsstemmer.demo.site import build_site

    wanted = n
    articles = int(n / 0.55) + 20  # about 60% of the demo's articles are "standard"
    while True:
        site = build_site(seed, articles)
        pages = [p for p in site.articles() if p.layout == "standard"]
        if len(pages) >= wanted:
            break
        articles *= 2
    folder.mkdir(parents=True, exist_ok=True)
    total = 0
    for k, page in enumerate(pages[:wanted]):
        (folder / f"article-{k:04d}.html").write_bytes(page.body)
        total += len(page.body)
    return total


#: CPU seconds (user + system) of every subprocess run, by command label (see :func:`run`).
CPU: dict[str, list[float]] = {}


def run(cmd: list[str], env: dict[str, str], label: str = "") -> float:
    """Wall time of one subprocess, stdout to /dev/null; stop on failure.  With ``label``,
    its CPU time (its own and its children's: the worker processes) goes to ``CPU``."""
    ru0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    dt = time.perf_counter() - t0
    ru1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"error: {' '.join(cmd)} exited {done.returncode}:\n{done.stderr.decode(errors='replace')}")
    if label:
        CPU.setdefault(label, []).append(ru1.ru_utime - ru0.ru_utime + ru1.ru_stime - ru0.ru_stime)
    return dt


def in_process(folder: Path, patterns: Path, repeat: int) -> tuple[float, int]:
    """Best time of extracting every page as the command does, inside this process."""
    from newsstemmer.combine.extract import extract_with_patterns
    from newsstemmer.dom.decoding import decode_file
    from newsstemmer import ExtractOptions
    from newsstemmer.layout.patterns import SitePatterns
    from newsstemmer.page import Page

    try:
        from newsstemmer.io.files import page_url
    except ImportError:  # before the CLI split
        from newsstemmer.cli import page_url

    site = SitePatterns.load(patterns)
    options = ExtractOptions(fallback="pagerank")
    files = sorted(str(p) for p in folder.glob("*.html"))
    best = float("inf")
    matched = 0
    for _ in range(repeat):
        gc.collect()
        gc.disable()
        try:
            t0 = time.perf_counter()
            matched = 0
            for path in files:
                text = decode_file(path).text
                article = extract_with_patterns(Page(html=text, url=page_url(text), source=path), site, options)
                json.dumps(article.to_json_dict(), ensure_ascii=False)
                matched += article.matched
            best = min(best, time.perf_counter() - t0)
        finally:
            gc.enable()
    return best, matched


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pages", type=int, default=200, help="article pages to write (default 200)")
    ap.add_argument("--runs", type=int, default=7, help="interleaved runs of each process (default 7)")
    ap.add_argument("--repeat", type=int, default=3, help="in-process passes; the best counts (default 3)")
    ap.add_argument("--seed", type=int, default=7, help="demo site seed (default 7)")
    ap.add_argument("--keep", metavar="DIR", help="write pages and patterns here and keep them")
    ap.add_argument("--no-bytecode-cache", action="store_true",
                    help="run the processes with PYTHONDONTWRITEBYTECODE=1 (no .pyc: every start compiles)")
    args = ap.parse_args(argv)
    if args.pages < 1 or args.runs < 1 or args.repeat < 1:
        ap.error("--pages, --runs and --repeat must be positive")

    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="extract-cli-"))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO_ROOT), os.environ.get("PYTHONPATH")])))
    if args.no_bytecode_cache:
        env["PYTHONDONTWRITEBYTECODE"] = "1"  # every process compiles newsstemmer's sources again
        cache = "none (sources compiled by every process)"
    else:
        # As an installed package has it: bytecode compiled once (kept in the work folder,
        # so the checkout gets no __pycache__).
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(work / "pycache")
        cache = f"cached ({env['PYTHONPYCACHEPREFIX']})"
    cli = [sys.executable, "-m", "newsstemmer"]
    try:
        pages, patterns = work / "pages", work / "patterns.json"
        size = write_pages(pages, args.pages, args.seed)
        t_learn = run([*cli, "learn", "-q", "-o", str(patterns), str(pages)], env)
        n_patterns = len(json.loads(patterns.read_text(encoding="utf-8")).get("patterns", []))
        print(f"{args.pages} pages of one layout ({size / args.pages / 1024:.1f} KiB each) in {pages}")
        print(f"learn: {t_learn:.2f} s (whole process), {n_patterns} pattern(s); bytecode: {cache}")

        extract = [*cli, "extract", "-p", str(patterns), str(pages)]
        extract_one = [*cli, "extract", "-j", "1", "-p", str(patterns), str(pages)]
        bare = [sys.executable, "-c", BARE_LXML, str(pages)]
        version = [*cli, "--version"]
        empty = [sys.executable, "-c", "pass"]
        times: dict[str, list[float]] = {"extract": [], "extract_one": [], "lxml": [], "version": [], "python": []}
        run(extract, env)  # warm the file cache and the bytecode
        run(bare, env)
        for _ in range(args.runs):
            times["extract"].append(run(extract, env, "extract"))
            times["extract_one"].append(run(extract_one, env, "extract_one"))
            times["lxml"].append(run(bare, env, "lxml"))
            times["version"].append(run(version, env, "version"))
            times["python"].append(run(empty, env, "python"))
        med = {k: statistics.median(v) for k, v in times.items()}

        print(f"\nwhole processes, median of {args.runs} interleaved runs (min-max):")
        labels = {
            "extract": "a) newsstemmer extract -p P DIR",
            "extract_one": "a1) the same, -j 1 (one process)",
            "lxml": "b) python -c: read + lxml parse + text_content",
            "version": "   newsstemmer --version (start-up)",
            "python": "   python -c pass",
        }
        cpu = {k: statistics.median(v) for k, v in CPU.items()}
        for key, label in labels.items():
            v = times[key]
            print(f"  {label:<48} {1000 * med[key]:7.0f} ms  ({1000 * min(v):.0f}-{1000 * max(v):.0f}); "
                  f"CPU {1000 * cpu[key]:.0f} ms")
        print(f"  ratio a/b = {med['extract'] / med['lxml']:.2f}   (target <= 3); "
              f"a1/b = {med['extract_one'] / med['lxml']:.2f}")
        print(f"  CPU (user + system, workers included, medians): a/b = {cpu['extract'] / cpu['lxml']:.2f}, "
              f"a1/b = {cpu['extract_one'] / cpu['lxml']:.2f}; load average {os.getloadavg()[0]:.2f} (1 min) at the end")
        print(f"  start-up share of a: {med['version'] / med['extract']:.0%}; "
              f"a minus start-up = {1000 * (med['extract'] - med['version']):.0f} ms "
              f"({1000 * (med['extract'] - med['version']) / args.pages:.2f} ms/page)")

        best, matched = in_process(pages, patterns, args.repeat)
        print(f"\nin one process (decode + page_url + extract_with_patterns + JSON), best of {args.repeat}:")
        print(f"  {1000 * best:.0f} ms for {args.pages} pages = {args.pages / best:.0f} pages/s "
              f"({1000 * best / args.pages:.2f} ms/page; {matched} matched)   (target >= 300)")
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
