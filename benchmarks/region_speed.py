#!/usr/bin/env python3
"""Speed of the learned region extractor against DOM PageRank alone, in one process.

Every page of the chosen sets is decoded once; then, alternating, each method
extracts all of them from the decoded HTML (parse included, as ``single_page.py``
times PageRank), ``--repeat`` times each, garbage collector off while timing.
Reported: the best pages/s of each and their ratio (the machine's load cancels out
of the ratio far better than out of either figure), and the region extractor's
added cost per page by step (the reading of hidden content and the near-empty check of
issue 23 included).

    python benchmarks/region_speed.py [--datasets readability,chaos,dragnet-single] [--repeat 5]
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path

if __name__ == "__main__" and not __package__:  # run as a file: import from the checkout's root
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from benchmarks.shared import data_dir, load_manifest, set_entries

from newsstemmer.single.region.cleaning import cleaning_candidates, cleaning_features
from newsstemmer.single.region.candidates import RegionView, region_candidates, region_features
from newsstemmer.dom.parse import parse_html
from newsstemmer.single.region.extractor import RegionExtractor
from newsstemmer.single.region.fallback import BODY_CAP, near_empty_alternative, word_chars
from newsstemmer.single.region.reveal import revealed
from newsstemmer.single.pagerank import pagerank_analysis, pagerank_extract, region_cleaning, region_paragraphs


def steps(ex: RegionExtractor, pages: list[tuple[str, str | None]]) -> dict[str, float]:
    """Milliseconds per page of each step of the region extractor."""
    t: dict[str, float] = {}

    def lap(name: str, t0: float) -> float:
        now = time.perf_counter()
        t[name] = t.get(name, 0.0) + now - t0
        return now

    for html, url in pages:
        t0 = time.perf_counter()
        tree = parse_html(html)
        t0 = lap("parse", t0)
        tree, _ = revealed(tree)
        t0 = lap("reveal (hidden content)", t0)
        an = pagerank_analysis(tree, url, text=False)
        t0 = lap("PageRank analysis", t0)
        if an.main < 0:
            continue
        view = RegionView.of(an)
        t0 = lap("arrays over the page's nodes", t0)
        cands = region_candidates(view)
        X = region_features(view, cands)
        t0 = lap("region candidates + features", t0)
        region = an.main
        if len(cands) > 1:
            scores = ex.region.raw(X)
            k = int(scores.argmax())
            if scores[k] - scores[cands.index(an.main)] > ex.region_margin:
                region = cands[k]
        t0 = lap("region trees", t0)
        skip = region_cleaning(an, region)
        J = cleaning_candidates(view, region, skip)
        Xc = cleaning_features(view, region, J)
        t0 = lap("cleaning candidates + features", t0)
        if len(J):
            ex.clean.raw(Xc)
        t0 = lap("cleaning trees", t0)
        lines = region_paragraphs(an, region, skip)
        t0 = lap("text", t0)
        near_empty_alternative(an, word_chars("\n".join(ex.guarded(an, lines)), BODY_CAP))
        lap("guard + near-empty check", t0)
    return {k: v / len(pages) * 1000 for k, v in t.items()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default=None)
    ap.add_argument("--datasets", default="readability,chaos,dragnet-single")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args(argv)
    entries = load_manifest(data_dir(args.data))
    pages = []
    for name in args.datasets.split(","):
        for e in set_entries(entries, name):
            try:
                pages.append((e.html(), e.url))
            except Exception:  # (undecodable: not timed)
                pass
    ex = RegionExtractor()
    best = {"pagerank": 0.0, "region": 0.0}
    runs = {"pagerank": lambda h, u: pagerank_extract(h, u), "region": ex.extract}
    for h, u in pages[:20]:  # warm caches (role and hint memos) for both
        pagerank_extract(h, u)
        ex.extract(h, u)
    for _ in range(args.repeat):
        for name, fn in runs.items():
            gc.collect()
            gc.disable()
            t0 = time.perf_counter()
            for h, u in pages:
                fn(h, u)
            elapsed = time.perf_counter() - t0
            gc.enable()
            best[name] = max(best[name], len(pages) / elapsed)
    print(f"{len(pages)} pages ({args.datasets}), best of {args.repeat}, one process:")
    print(f"  PageRank alone   {best['pagerank']:6.1f} pages/s")
    print(f"  region extractor {best['region']:6.1f} pages/s   ratio {best['region'] / best['pagerank']:.2f}")
    print("region extractor, ms per page by step:")
    for name, ms in steps(ex, pages).items():
        print(f"  {ms:6.2f}  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
