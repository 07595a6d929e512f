#!/usr/bin/env python3
"""Speed of DOM PageRank's graph (``build_graph``) against another checkout's, and whether they agree.

The costliest step of a single page is the graph's walk (issue 23, benchmarks README "Where
the single page's time goes"); a change to it is tried here first, in about a minute, before
the whole-page A/B (``region_speed.py --base``) and ``scripts/same_output.py``:

    python benchmarks/graph_speed.py --base CHECKOUT [--datasets readability,chaos,dragnet-single] [--repeat 5]

Every page is decoded, parsed and its hidden content revealed once (this checkout's code);
then both codes build the graph of the same tree with their default options, taking turns
page by page, in CPU time (``time.process_time``), the least of ``--repeat`` a page, garbage
collector off. Reported: CPU ms a page of each, their ratio, and the pages whose graphs
differ (any of parent, u, elements — the same element objects —, chars, link chars, roles,
hidden elements or subtree sizes): a change meant to leave output as it is must show 0.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import sys
import time
from pathlib import Path

if __name__ == "__main__" and not __package__:  # run as a file: import from the checkout's root
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from benchmarks.shared import base_package, add_data_option, data_dir, load_manifest, set_entries

from newsstemmer.dom.decoding import decode_html
from newsstemmer.dom.parse import parse_html
from newsstemmer.single import domgraph
from newsstemmer.single.region.reveal import revealed
from newsstemmer.single.signals.page_signals import page_signals

#: The graph's fields, compared one by one (``elements`` by identity).
FIELDS = ("parent", "u", "elements", "chars", "link_chars", "roles", "hidden", "size")


def graph_difference(a, b) -> str | None:
    """The first field in which two graphs of one tree differ (None when they are the same)."""
    for name in FIELDS:
        x, y = getattr(a, name), getattr(b, name)
        if name == "elements":
            if len(x) != len(y) or any(p is not q for p, q in zip(x, y)):
                return name
        elif x != y:
            return name
    return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_data_option(ap)
    ap.add_argument("--datasets", default="readability,chaos,dragnet-single")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--base", required=True, help="a checkout of the code to compare with")
    args = ap.parse_args(argv)
    base = importlib.import_module(base_package(args.base).__name__ + ".single.domgraph")
    codes = {"base": (base.build_graph, base.PageRankOptions()),
             "this": (domgraph.build_graph, domgraph.PageRankOptions())}
    entries = load_manifest(data_dir(args.data))
    trees = []
    for name in args.datasets.split(","):
        for e in set_entries(entries, name) if name else ():
            try:
                root, _ = revealed(parse_html(decode_html(e.raw()).text))
            except Exception:  # (undecodable or unparsable: not timed)
                continue
            body = root.find("body")
            trees.append((root if body is None else body, page_signals(root)))
    differ: dict[str, int] = {}
    for body, sig in trees:  # (also warms the role memos of both)
        found = graph_difference(*(build(body, opts, sig) for build, opts in codes.values()))
        if found:
            differ[found] = differ.get(found, 0) + 1
    clock, names = time.process_time, list(codes)
    total = dict.fromkeys(names, 0.0)
    for k, (body, sig) in enumerate(trees):
        best = dict.fromkeys(names, float("inf"))
        for r in range(args.repeat):
            for name in (names if (k + r) % 2 == 0 else names[::-1]):
                build, opts = codes[name]
                gc.disable()
                t0 = clock()
                build(body, opts, sig)
                spent = clock() - t0
                gc.enable()
                best[name] = min(best[name], spent)
        for name in names:
            total[name] += best[name]
    pages = max(1, len(trees))
    print(f"{len(trees)} pages ({args.datasets}), the graph of each built by both codes in turn, "
          f"least CPU of {args.repeat} a page:")
    for name in names:
        print(f"  {name}  {total[name] / pages * 1000:6.3f} ms a page")
    print(f"  this/base CPU {total['this'] / max(total['base'], 1e-12):.3f}")
    print(f"  pages whose graphs differ: {sum(differ.values())}"
          + (f" (first differing field: {differ})" if differ else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
