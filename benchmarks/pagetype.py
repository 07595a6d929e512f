#!/usr/bin/env python3
"""Page types: site-grouped CV figures of the article-or-not model, and what typing costs.

Figures (the development data): wcxb-dev accuracy, article vs not, and its confusion
by labelled kind; per set, the share of article pages typed non-article (issue #24
targets: accuracy >= 0.97, <= 1 % on every multi-page set).  Each page is scored twice:
``CV`` by a model trained as ``training/train_pagetype.py`` trains it but without the
page's fold of sites (5 site-grouped folds), ``dev`` by the shipped model (trained on
every page: its fit, not a measure of new sites).  Under CV, the operating points: per
threshold, wcxb-dev accuracy beside the article pages each other set loses.  The kinds of wcxb-dev's non-articles
under the same CV: the kind model's against the plain rules'.  Then the kinds the
shipped models give the wcxb-dev pages they type non-article, beside their labels.

``--speed`` (no data needed): on the demo site's articles, learned with
:func:`newsstemmer.learn`, the time of ``extract_with_patterns`` without page type and
metadata, of the page type alone (:func:`newsstemmer.pagetype.page_type` on a parsed
page), and their ratio (target: page type <= ~0.05 of extraction with layouts).

    python benchmarks/pagetype.py [--data-file /tmp/pagetype.pkl] [--speed [--repeat 7]]
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

if __name__ == "__main__" and not __package__:  # run as a file: import from the checkout's root
    sys.path[0] = str(Path(__file__).resolve().parents[1])

import numpy as np

from benchmarks.shared import cached, data_dir, load_manifest, page_id
from training.train_pagetype import build, cross_validate, cross_validate_kinds, operating_points, report, report_kinds

from newsstemmer.pagetype import FEATURES, THRESHOLD, shared_model
from newsstemmer.pagetype.kinds import non_article_kind

BASE = "http://demo.test"


def figures(args: argparse.Namespace) -> None:
    entries = load_manifest(data_dir(args.data))
    rows = cached(args.data_file, lambda: build(entries), "page-type rows")
    X = np.array([r["x"] for r in rows], dtype=float)
    print("== CV (5 site-grouped folds) ==")
    cv = cross_validate(rows, entries)
    report(rows, cv, THRESHOLD)
    operating_points(rows, cv)
    report_kinds(rows, cross_validate_kinds(rows, entries), {page_id(e): e.url for e in entries})
    print("\n== dev (the shipped model, trained on these pages) ==")
    dev = shared_model().predict(X)
    report(rows, dev, THRESHOLD)
    print("\nkinds the shipped model gives the wcxb-dev pages it types non-article (rows: label):")
    kinds: dict[str, Counter[str]] = defaultdict(Counter)
    for r, p, x in zip(rows, dev, X):
        if r["dataset"] == "wcxb-dev" and p < THRESHOLD:
            kinds[r["kind"]][non_article_kind(dict(zip(FEATURES, x)), "", _NoFacts(), x[None, :])] += 1
    for label, c in sorted(kinds.items()):
        print(f"  {label:14} " + ", ".join(f"{k} {n}" for k, n in c.most_common()))


class _NoFacts:
    """Stands for a page's facts where only the features are kept (no title to read)."""

    title = None


def speed(repeat: int) -> None:
    from newsstemmer import Page, learn
    from newsstemmer.combine.extract import ExtractOptions, extract_with_patterns
    from newsstemmer.demo.site import build_site
    from newsstemmer.pagetype import page_type

    site = build_site(7, 120)
    every = [(BASE + p.path, p.decoded) for p in site if p.kind in ("article", "index")]
    patterns = learn([Page(html, url=url) for url, html in every])
    off = ExtractOptions(fallback="region", metadata=False, page_type=False)
    fns = {"extract": lambda p: extract_with_patterns(p, patterns, off), "page type": lambda p: page_type(p)}
    best = {name: [float("inf")] * len(every) for name in fns}
    shared_model()  # (loaded once per process, before timing)
    for _ in range(repeat):
        gc.collect()
        gc.disable()
        try:
            for i, (url, html) in enumerate(every):
                for name, fn in fns.items():
                    page = Page(html, url=url)
                    _ = page.tree
                    t0 = time.perf_counter()
                    fn(page)
                    best[name][i] = min(best[name][i], time.perf_counter() - t0)
        finally:
            gc.enable()
    n = len(every)
    took = {name: sum(t) for name, t in best.items()}
    for name, t in took.items():
        print(f"{name}: {1000 * t / n:.3f} ms/page")
    print(f"page type / extraction with layouts: {took['page type'] / took['extract']:.3f} "
          f"({n} demo pages: articles and index pages)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", help="datasets folder (default: $NEWSSTEMMER_DATASETS or ../shared/datasets)")
    ap.add_argument("--data-file", help="keep the page rows in this pickle (rebuilt when the code changed)")
    ap.add_argument("--speed", action="store_true", help="time page typing against extraction (no data needed)")
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args(argv)
    if args.speed:
        speed(args.repeat)
    else:
        figures(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
