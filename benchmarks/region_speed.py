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
    python benchmarks/region_speed.py --base CHECKOUT [--repeat 3]

``--base`` compares the default single-page extraction with another checkout's (its
package imported beside this one, as ``formats_speed.py --base`` does): every page's
bytes are decoded and extracted (``extract_single`` of a fresh ``Page``: decoding and
parse included), the two codes taking turns page by page, in CPU time
(``time.process_time``), the least of ``--repeat`` a page, garbage collector off; the
figure that counts on a shared machine is the CPU ratio.

``--base CHECKOUT --once`` times each page's first extraction only (no warming run, no
repeat): the memos of class, id and style values then hold what the pages before it left,
as in a crawl that sees each page once, so a memo miss (an id of the page's own) is paid
as it is there; the best-of-``--repeat`` figure above pays it only on its first run.  (The
first page warms both codes and is not timed.)
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

import newsstemmer

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


def _extractors(checkout: str) -> dict:
    """``{"base": f, "this": f}``: decode and extract one page (``f(raw, url)``) by the default
    single-page method with the code of ``checkout`` and with this one."""
    runs = {}
    for name, pkg in (("base", base_package(checkout)), ("this", newsstemmer)):
        single = importlib.import_module(pkg.__name__ + ".single")
        decode = importlib.import_module(pkg.__name__ + ".dom.decoding").decode_html
        runs[name] = lambda raw, url, pkg=pkg, single=single, decode=decode: single.extract_single(
            pkg.Page(decode(raw).text, url=url))
    return runs


def against_base(checkout: str, raws: list[tuple[bytes, str | None]], repeat: int) -> dict[str, float]:
    """CPU seconds a page (the least of ``repeat``, page by page) of decoding and extracting
    each page by the default single-page method, for the code of ``checkout`` ("base")
    and this one ("this"), the two taking turns; pages either cannot extract are left out."""
    runs = _extractors(checkout)
    pages = []
    for raw, url in raws:
        try:
            for run in runs.values():  # (also warms the models and memos)
                run(raw, url)
        except Exception:  # (undecodable or unparsable: not timed)
            continue
        pages.append((raw, url))
    clock, names = time.process_time, list(runs)
    total = dict.fromkeys(names, 0.0)
    for k, (raw, url) in enumerate(pages):
        best = dict.fromkeys(names, float("inf"))
        for r in range(repeat):
            for name in (names if (k + r) % 2 == 0 else names[::-1]):
                gc.disable()
                t0 = clock()
                runs[name](raw, url)
                spent = clock() - t0
                gc.enable()
                best[name] = min(best[name], spent)
        for name in names:
            total[name] += best[name]
    return {name: spent / max(1, len(pages)) for name, spent in total.items()} | {"pages": float(len(pages))}


def first_visits(checkout: str, raws: list[tuple[bytes, str | None]]) -> dict[str, float]:
    """CPU seconds a page of each page's first extraction by the default single-page method,
    for the code of ``checkout`` ("base") and this one ("this"), in turns, each page once
    (``--once``); a page either code cannot extract is left out of both sums, and the first
    page, which warms both (the models are loaded on the first call), is not timed."""
    runs = _extractors(checkout)
    for run in runs.values():  # (the models loaded: the first page warms both codes, untimed)
        try:
            run(*raws[0])
        except Exception:
            pass
    clock, names = time.process_time, list(runs)
    total = dict.fromkeys(names, 0.0)
    pages = 0
    for k, (raw, url) in enumerate(raws[1:]):
        spent = {}
        for name in (names if k % 2 == 0 else names[::-1]):
            gc.disable()
            t0 = clock()
            try:
                runs[name](raw, url)
            except Exception:  # (undecodable or unparsable: not timed)
                spent[name] = None
            else:
                spent[name] = clock() - t0
            finally:
                gc.enable()
        if None not in spent.values():
            pages += 1
            for name in names:
                total[name] += spent[name]
    return {name: spent / max(1, pages) for name, spent in total.items()} | {"pages": float(pages)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_data_option(ap)
    ap.add_argument("--datasets", default="readability,chaos,dragnet-single")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--base", default=None, help="a checkout of the code to compare with (see the module doc)")
    ap.add_argument("--once", action="store_true", help="with --base: each page's first extraction only (see the module doc)")
    args = ap.parse_args(argv)
    if args.once and not args.base:
        ap.error("--once compares with --base")
    entries = load_manifest(data_dir(args.data))
    if args.base:
        raws = [(e.raw(), e.url) for name in args.datasets.split(",") if name for e in set_entries(entries, name)]
        if args.once:
            cost = first_visits(args.base, raws)
            how = "each page's first extraction (CPU), the codes in turn"
        else:
            cost = against_base(args.base, raws, args.repeat)
            how = f"least CPU of {args.repeat} a page, the codes in turn"
        print(f"{int(cost['pages'])} pages ({args.datasets}), bytes decoded and extracted by the default single-page "
              f"method, {how}:")
        for name in ("base", "this"):
            print(f"  {name}  {cost[name] * 1000:6.2f} ms a page   {1 / cost[name]:6.1f} pages/s of CPU")
        print(f"  this/base CPU {cost['this'] / cost['base']:.3f}")
        return 0
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
