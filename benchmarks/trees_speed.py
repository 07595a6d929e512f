#!/usr/bin/env python3
"""Speed of the tree models alone: the compiled walk (``newsstemmer._trees``) against numpy's,
on the rows a single page gives them, with a check that both give the same bits.

Every page of the chosen sets is analysed once as the region extractor does (parse, hidden
content, PageRank, region candidates, cleaning candidates); the feature rows of the shipped
region and cleaning models are kept. Then, in turns, ``TreeModel.raw`` by the compiled walk
and by numpy's (``_leaf_values_numpy`` summed the same way) runs over all of them,
``--repeat`` times, garbage collector off, in CPU time; reported is the least of each per
page and their ratio. Every call's sums are compared bit for bit first (exit 1 if one
differs).

    python benchmarks/trees_speed.py [--datasets readability,chaos,dragnet-single] [--repeat 5]
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path

if __name__ == "__main__" and not __package__:  # run as a file: import from the checkout's root
    sys.path[0] = str(Path(__file__).resolve().parents[1])

import numpy as np

from benchmarks.shared import add_data_option, data_dir, load_manifest, set_entries

from newsstemmer import trees
from newsstemmer.dom.parse import parse_html
from newsstemmer.single.pagerank import pagerank_analysis, region_cleaning
from newsstemmer.single.region.candidates import RegionView, region_candidates, region_features
from newsstemmer.single.region.cleaning import cleaning_candidates, cleaning_features
from newsstemmer.single.region.extractor import RegionExtractor
from newsstemmer.single.region.reveal import revealed
from newsstemmer.trees import TreeModel


def model_rows(ex: RegionExtractor, htmls: list[tuple[str, str | None]]
               ) -> tuple[int, list[tuple[TreeModel, np.ndarray]]]:
    """The pages analysed and the (model, rows) of each call the region extractor makes on them."""
    calls, pages = [], 0
    for html, url in htmls:
        tree, _ = revealed(parse_html(html))
        an = pagerank_analysis(tree, url, text=False)
        if an.main < 0:
            continue
        pages += 1
        view = RegionView.of(an)
        cands = region_candidates(view)
        if len(cands) > 1:
            calls.append((ex.region, region_features(view, cands)))
        J = cleaning_candidates(view, an.main, region_cleaning(an, an.main))
        if len(J):
            calls.append((ex.clean, cleaning_features(view, an.main, J)))
    return pages, calls


def _numpy_raw(model: TreeModel, X: np.ndarray) -> np.ndarray:
    return model._leaf_values_numpy(X).sum(axis=1)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_data_option(ap)
    ap.add_argument("--datasets", default="readability,chaos,dragnet-single")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args(argv)
    if trees.TREE_EVALUATOR != "compiled":
        print("the compiled tree walk is not built here (or NEWSSTEMMER_PURE_PYTHON is set): nothing to compare")
        return 1
    entries = load_manifest(data_dir(args.data))
    htmls = []
    for name in args.datasets.split(","):
        for e in set_entries(entries, name):
            try:
                htmls.append((e.html(), e.url))
            except Exception:  # (undecodable: not timed)
                pass
    pages, calls = model_rows(RegionExtractor(), htmls)
    differ = sum(_numpy_raw(m, X).view(np.int64).tolist() != m.raw(X).view(np.int64).tolist() for m, X in calls)
    runs = {"numpy": _numpy_raw, "compiled": TreeModel.raw}
    best = dict.fromkeys(runs, float("inf"))
    for r in range(args.repeat):
        for name in (list(runs) if r % 2 == 0 else list(runs)[::-1]):
            gc.disable()
            t0 = time.process_time()
            for model, X in calls:
                runs[name](model, X)
            best[name] = min(best[name], time.process_time() - t0)
            gc.enable()
    rows = sum(len(X) for _, X in calls)
    print(f"{pages} pages ({args.datasets}): {len(calls)} model calls, {rows / max(1, len(calls)):.1f} rows a call; "
          f"least CPU of {args.repeat}, the walks in turn:")
    for name, spent in best.items():
        print(f"  {name:8s} {spent / max(1, pages) * 1000:6.3f} ms a page")
    print(f"  compiled/numpy CPU {best['compiled'] / best['numpy']:.3f}; sums that differ: {differ} of {len(calls)}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
