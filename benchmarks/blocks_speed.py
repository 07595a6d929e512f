#!/usr/bin/env python3
"""Speed of the segmenter alone: bare lxml parse vs ``page_blocks`` (which parses too).

For every big9-05 page, time ``parse_html``, ``page_blocks`` on the HTML and
``page_blocks`` on the parsed tree (the walk alone, as extraction runs it on
``Page.tree``), best of N runs per page, GC off while timing, one process, and
report the totals and their ratios.  The ratio is the segmenter's share of
``benchmarks/speed.py`` part b (extract/parse).

    python benchmarks/blocks_speed.py [--repeat 5] [--dataset big9-05] [--data DIR]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

if __name__ == "__main__" and not __package__:  # run as a file: import from the checkout's root
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from benchmarks.shared import by_site, add_data_option, data_dir, load_manifest

from newsstemmer.layout.blocks import page_blocks
from newsstemmer.dom.parse import parse_html
from benchmarks.speed import best_of


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_data_option(ap)
    ap.add_argument("--dataset", default="big9-05", help="dataset of the manifest to time (default big9-05)")
    ap.add_argument("--repeat", type=int, default=5, help="timed runs per page; the best counts")
    args = ap.parse_args(argv)
    if args.repeat < 1:
        ap.error("--repeat must be positive")

    entries = load_manifest(data_dir(args.data))
    docs = [e.html() for es in by_site(entries, args.dataset).values() for e in es]
    if not docs:
        sys.exit(f"error: no pages of dataset {args.dataset!r}")
    t0 = time.perf_counter()
    parse_t = sum(best_of(args.repeat, lambda: parse_html(html)) for html in docs)
    blocks_t = sum(best_of(args.repeat, lambda: page_blocks(html)) for html in docs)
    trees = [parse_html(html) for html in docs]
    walk_t = sum(best_of(args.repeat, lambda: page_blocks(tree)) for tree in trees)
    elapsed = time.perf_counter() - t0
    print(f"{args.dataset}: {len(docs)} pages, best of {args.repeat} per page ({elapsed:.1f}s)")
    print(f"parse_html  total {1000 * parse_t:8.1f} ms  ({1000 * parse_t / len(docs):.2f} ms/page)")
    print(f"page_blocks total {1000 * blocks_t:8.1f} ms  ({1000 * blocks_t / len(docs):.2f} ms/page)")
    print(f"page_blocks on the tree total {1000 * walk_t:8.1f} ms  ({1000 * walk_t / len(docs):.2f} ms/page)")
    print(f"page_blocks/parse = {blocks_t / parse_t:.2f}; the walk alone/parse = {walk_t / parse_t:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
