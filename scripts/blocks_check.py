"""Check that every dataset page's typed blocks give its body (issue #25).

For each page of the evaluation data, extracts it with the single-page methods
(``region``, ``pagerank``) and, per site, with the default chain over the site's
learned layouts, and counts the articles whose typed blocks in the default
convention do not give exactly the body's lines (the article then falls back on one
paragraph per line: ``Article.typed`` is False), by method.  Prints the counts and the
kinds of blocks found; exits 1 when any body with a method's structure disagrees.

    python scripts/blocks_check.py [--data DIR] [--datasets a,b] [--max-sites N] [--no-layouts]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from shared import by_site, data_dir, load_manifest  # noqa: E402

import newsstemmer  # noqa: E402
from newsstemmer import Page, learn  # noqa: E402
from newsstemmer.single import extract_single  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data")
    ap.add_argument("--datasets")
    ap.add_argument("--max-sites", type=int, default=0)
    ap.add_argument("--no-layouts", action="store_true")
    args = ap.parse_args()
    root = data_dir(args.data)
    entries = load_manifest(root)
    datasets = args.datasets.split(",") if args.datasets else sorted({e.dataset for e in entries})
    pages = Counter()
    plain = Counter()
    kinds = Counter()
    failed: list[str] = []
    t0 = time.perf_counter()
    for ds in datasets:
        for i, (site, group) in enumerate(sorted(by_site(entries, ds).items())):
            if args.max_sites and i >= args.max_sites:
                break
            htmls = [e.html() for e in group]
            for e, h in zip(group, htmls):
                for method in ("region", "pagerank"):
                    a = extract_single(Page(h, url=e.url, source=e.id), method)
                    pages[method] += 1
                    if a.body and not a.typed:
                        plain[method] += 1
                        failed.append(f"{method} {ds}/{site}/{e.id}")
                    kinds.update(f"{b.kind}{'' if b.is_body() else ' (out)'}" for b in a.blocks)
            if args.no_layouts:
                continue
            site_patterns = learn([Page(h, url=e.url, source=e.id) for e, h in zip(group, htmls)])
            for e, h in zip(group, htmls):
                a = newsstemmer.extract(h, site_patterns, url=e.url)
                key = "chain " + (a.method or "none").split("+")[-1].split("-")[0]
                pages[key] += 1
                if a.body and not a.typed:
                    plain[key] += 1
                    failed.append(f"{key} {ds}/{site}/{e.id}")
        print(f"{ds}: {sum(pages.values())} extractions, {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    for method, n in sorted(pages.items()):
        print(f"{method:>16}: {n:5d} pages, {plain[method]:4d} with plain blocks")
    print("block kinds:", ", ".join(f"{k} {n}" for k, n in kinds.most_common()))
    for name in failed[:20]:
        print("plain:", name)
    return 1 if any(plain.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
