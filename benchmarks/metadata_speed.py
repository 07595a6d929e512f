#!/usr/bin/env python3
"""What article metadata costs next to extraction with layouts, as ratios in one process.

The demo site's pages (seed 7, 120 articles, its index pages too) are learned once with
:func:`newsstemmer.learn`; then, on fresh :class:`~newsstemmer.Page` objects whose tree is
already parsed (the crawl and the CLI parse once), on the article pages, page by page
(each page's time the smallest of ``--repeat``):

a) ``extract_with_patterns`` without metadata (``ExtractOptions(metadata=False)``),
b) ``article_metadata(page.tree, page.url, html=page.html)`` alone,
c) ``extract_with_patterns`` with metadata (the default),
d) the chain's metadata step alone, timed inside c) (where the page's tree is fresh in
   the cache from the extraction that just walked it).

Printed: ms per page of each, b/a, d/a and (c-a)/a (issue #24 target: metadata and page
type together <= 0.15 of extraction with layouts).  No data set is needed.

    python benchmarks/metadata_speed.py [--repeat 7] [--articles 120]
    python benchmarks/metadata_speed.py --dataset cttf [--data DIR] [--repeat 3]

``--dataset`` measures on a set's real pages instead (each site's layouts learned from
its own pages; cttf: 20 sites of ~25 pages), where pages are larger than the demo's.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path
from typing import Callable

if __name__ == "__main__" and not __package__:  # run as a file: import from the checkout's root
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from benchmarks.shared import add_data_option
from newsstemmer import Page, SitePatterns, learn
from newsstemmer import Article
from newsstemmer.combine import extract as combine_extract
from newsstemmer.combine.extract import ExtractOptions, add_metadata, extract_with_patterns
from newsstemmer.demo.site import build_site
from newsstemmer.metadata import article_metadata

BASE = "http://demo.test"
TARGET = 0.15


def per_page_best(repeat: int, pages: list[tuple[str, str]], fns: dict[str, Callable[[Page], object]]) -> dict[str, float]:
    """Each measure's total over the pages, every page's time the smallest of ``repeat``.

    The measures run one after the other on each page (each on a fresh ``Page`` whose
    tree is parsed before timing), so that a burst of load on a shared machine hits them
    alike and the per-page minimum drops it.  A measure that returns a float gives its
    own time (a step timed inside a larger call).
    """
    best = {name: [float("inf")] * len(pages) for name in fns}
    for _ in range(repeat):
        gc.collect()
        gc.disable()
        try:
            for i, (url, html) in enumerate(pages):
                for name, fn in fns.items():
                    page = Page(html, url=url)
                    _ = page.tree
                    t0 = time.perf_counter()
                    own = fn(page)
                    took = own if isinstance(own, float) else time.perf_counter() - t0
                    if took < best[name][i]:
                        best[name][i] = took
        finally:
            gc.enable()
    return {name: sum(times) for name, times in best.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--articles", type=int, default=120)
    parser.add_argument("--dataset", help="a set of ../shared/datasets (e.g. cttf) instead of the demo")
    add_data_option(parser)
    args = parser.parse_args()
    if args.dataset:
        articles, by_url = _dataset_pages(args.dataset, args.data)
        what = f"{args.dataset} pages"
    else:
        site = build_site(7, args.articles)
        every = [(BASE + p.path, p.decoded) for p in site if p.kind in ("article", "index")]
        learned = learn([Page(html, url=url) for url, html in every])
        articles = [(BASE + p.path, p.decoded) for p in site.articles()]
        by_url = {url: learned for url, _ in articles}
        what = "demo articles"
    off = ExtractOptions(fallback="region", metadata=False)
    on = ExtractOptions(fallback="region")
    inside: list[float] = []  # the chain's own metadata step, timed where it runs

    def timed_step(article: Article, page: Page) -> Article:
        t0 = time.perf_counter()
        try:
            return add_metadata(article, page)
        finally:
            inside.append(time.perf_counter() - t0)

    def chain_with_metadata(page: Page) -> float:
        inside.clear()
        combine_extract.add_metadata = timed_step
        try:
            extract_with_patterns(page, by_url[page.url], on)
        finally:
            combine_extract.add_metadata = add_metadata
        return sum(inside)

    timings = per_page_best(args.repeat, articles, {
        "extract": lambda p: extract_with_patterns(p, by_url[p.url], off),
        "metadata": lambda p: article_metadata(p.tree, p.url, html=p.html),
        "extract+metadata": lambda p: extract_with_patterns(p, by_url[p.url], on),
        "metadata step in the chain": chain_with_metadata,
    })
    n = len(articles)
    for name, took in timings.items():
        print(f"{name}: {1000 * took / n:.3f} ms/page")
    alone = timings["metadata"] / timings["extract"]
    step = timings["metadata step in the chain"] / timings["extract"]
    difference = (timings["extract+metadata"] - timings["extract"]) / timings["extract"]
    print(f"metadata / extraction with layouts: {alone:.3f} alone, {step:.3f} as the chain's step "
          f"({difference:.3f} from the chain's times with and without it; {n} {what}; "
          f"target for metadata and page type together <= {TARGET})")
    return 0


def _dataset_pages(dataset: str, data: str | None) -> tuple[list[tuple[str, str]], dict[str, SitePatterns]]:
    """A set's pages (URL, HTML) and, per URL, the layouts learned from its site's pages."""
    from collections import defaultdict

    from benchmarks.shared import data_dir, load_manifest

    by_site: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for e in load_manifest(data_dir(data)):
        if e.dataset == dataset:
            by_site[e.site].append((e.url, e.html()))
    pages: list[tuple[str, str]] = []
    by_url: dict[str, SitePatterns] = {}
    for site, rows in sorted(by_site.items()):
        rows = list(dict(rows).items())  # (one page per URL)
        learned = learn([Page(html, url=url) for url, html in rows], site=site)
        pages.extend(rows)
        by_url.update({url: learned for url, _ in rows})
    return pages, by_url


if __name__ == "__main__":
    sys.exit(main())
