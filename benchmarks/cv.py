#!/usr/bin/env python3
"""Site-grouped cross-validation of today's methods: dev figures beside CV figures.

Issue #12's protocol.  The pages of all datasets are dealt into K folds of whole
site groups (``folds.py``: no site in two folds; a Big9 site is one group across
2005 and 2009).  For each method and evaluation set it prints the dev figure
(every page, as ``quality.py`` / ``single_page.py`` / ``crf_eval.py`` compute it)
beside the K-fold figure: the mean over folds of the held-out fold's pooled
shingle F1 (P, R), with the lowest and highest fold.

Methods:

- ``layout``: each site learned from all its pages (``newsstemmer.learn``, the
  default: the hand rules' roles, then the learned section decision), every page
  extracted with ``extract_with_patterns`` and the PageRank fallback
  (``quality.run_site``).  Dev: the shipped section model.  CV: per fold a section
  model trained as ``train_sections.py`` trains it, without the held-out fold's
  sites (``--sections-data FILE`` reuses the units it wrote; otherwise about 2 min
  more).  Judged on big9 (both years), cleanportal and dragnet sites with >= 5 pages,
  and on cttf (``LAYOUT_SINGLE_SETS``: ~25 pages per site-era, one site-era one group;
  its sites get section units and page-choice records but train neither model).
- ``layout-choice``: what ``newsstemmer`` does by default: ``layout`` with the learned
  per-page choice of region's body (``ExtractOptions.page_choice``) and region for
  unmatched pages.  Dev: the shipped models.  CV: ``train_pagechoice.py``'s records
  (per fold the section model, the region models and the choice model trained without
  the fold's sites; ``--choice-data FILE`` reuses the records it wrote, otherwise about
  2 min more with ``--sections-data`` / ``--region-data`` given).
- ``layout-rules``: the same with the unsupervised Webstemmer roles alone
  (``LearnOptions(section_model=False)``); nothing is trained across folds: its
  CV figure is its figure on each fold's held-out sites.
- ``pagerank``: DOM PageRank on each page alone (``single_page.run``), nothing
  trained.  Judged on readability, chaos and dragnet's single-page sites.
- ``region``: the learned region extractor (``RegionExtractor``), each page alone.
  Dev: the shipped models.  CV: for every fold the two models trained as
  ``train_region.py`` trains them (its defaults) on every page outside the fold
  (all datasets, each page alone), from the rows ``region_data.py`` computes
  (``--region-data FILE`` reuses a file it wrote; otherwise about 70 s more).
- ``crf``: ``CRFExtractor`` at its defaults, each page alone.  Dev: the shipped
  model.  CV: for every fold a model trained as ``train_crf.py`` trains it
  (self-labelled pages of the big9, cleanportal and dragnet sites with >= 2
  pages) but without the sites of the held-out fold, applied to that fold's
  pages.  Judged on the same sets as ``pagerank``.

- ``trafilatura``: the peer (trafilatura at its defaults, installed for the benchmark only:
  the package never depends on it), each page alone; nothing trained.

Set ``chaos-multi``: the chaos sites with 2-6 pages (24 sites, 61 pages of 2017),
modern layouts learned from few pages; not a default set.  No section or page-choice
model is trained on these sites, so ``layout`` and ``layout-choice`` give their dev
figure alone there (``layout-rules`` its per-fold figures as everywhere).

``--cross`` also runs the single-page methods on the multi-page sets (where the
shipped CRF's dev figure is in-sample: those sites trained it).

    python benchmarks/cv.py [--folds 5] [--seed 0] [--methods layout,layout-choice,layout-rules,pagerank,region,crf]
                            [--datasets big9,cleanportal,dragnet,readability,chaos,dragnet-single]
                            [--cross] [--merge-hosts] [--per-fold] [--cache DIR] [--region-data FILE]
                            [--sections-data FILE] [--choice-data FILE] [--dev] [--convention news|own|both]
                            [--json FILE] [--pages FILE] [--data DIR]

``--convention own`` scores every set in its own convention (``shared.conventions``: the
article's typed blocks cut to the kinds the set's gold keeps, e.g. readability's captions and
code, cttf's byline and dateline, fundus-recent's standfirst), ``both`` adds those rows
("METHOD (own convention)") under the plain ones; the default, ``news``, prints the plain
default-body figures alone.  region's fold models give typed blocks, so its own-convention
rows have CV figures; those of layout, layout-choice and crf give text, not blocks: their
own-convention rows carry the dev figure alone.

``--dev`` (region and pagerank): the dev figures alone, nothing trained per fold.  Every
table has a near-empty column: pages scoring F1 < 0.2 whose gold has > 50 words
(``shared.scoring.near_empty``); sets whose pages declare their language (fundus-recent)
get per-language dev figures under their table.  The sets of today's pages
(``fundus-recent``, ``misinfo``, ``cttf``, ``wcxb-dev-articles``: wcxb-dev's article pages)
are single-page sets, not default ones; cttf is also a layout set.  ``region`` under CV also gets per-language figures
of the held-out pages.  ``--pages FILE`` writes every page's dev and CV F1 of ``region``,
``pagerank`` and ``trafilatura`` (JSON lines), e.g. to count region's near-empty pages where
trafilatura scores above 0.5.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

if __name__ == "__main__" and not __package__:  # run as a file: import from the checkout's root
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from benchmarks.shared.conventions import CONVENTION_CHOICES, own_pair
from benchmarks.shared.scoring import by_language
from benchmarks.shared import (DEFAULT_SETS, LAYOUT_SINGLE_SETS, SETS, SINGLE_SETS, UNTRAINED_LAYOUT_SETS, Entry,
                               add_data_option, data_dir, figures, grouped_folds, load_manifest, page_id, prediction, print_tables,
                               set_entries, site_groups)

METHODS = ("layout", "layout-choice", "layout-rules", "pagerank", "region", "crf", "trafilatura")

# --- per-page predictions, one (prediction, gold) pair per page --------------------------------


def layout_pairs(pages: list[Entry], options=None, extract=None, own: dict | None = None) -> dict[tuple, tuple[str, str]]:
    """quality.py's transductive run: learn each site from all its pages (with
    ``options``: LearnOptions), extract them (with ``extract``: ExtractOptions; default
    the layouts alone, PageRank for unmatched pages, no per-page choice).  ``own``: filled
    with the pairs in each set's own convention."""
    from benchmarks import quality
    from benchmarks.quality import run_site

    from newsstemmer import ExtractOptions

    quality.OPTIONS = extract or ExtractOptions(fallback="pagerank", page_choice=False)
    sites: dict[tuple[str, str], list[Entry]] = {}
    for e in pages:
        sites.setdefault((e.dataset, e.site), []).append(e)
    out = {}
    for k, ((ds, site), es) in enumerate(sorted(sites.items()), 1):
        print(f"[layout {k}/{len(sites)}] {ds}/{site} ({len(es)} pages)", file=sys.stderr, flush=True)
        run = run_site(es, options)
        for e, pair, own_one in zip(es, run["pairs"], run["own_pairs"]):
            out[page_id(e)] = pair
            if own is not None:
                own[page_id(e)] = own_one
    return out


def choice_fold_pairs(entries: list[Entry], folds: list[list[Entry]], args) -> list[dict[tuple, tuple[str, str]]]:
    """Per fold: train_pagechoice.py's choice (gated, as the library decides) with every
    model trained without the fold's sites."""
    from training import train_pagechoice as tp

    pargs = tp.build_parser().parse_args([])
    pargs.data_file, pargs.sections_data, pargs.region_data = args.choice_data, args.sections_data, args.region_data
    records = tp.load_records(entries, folds, pargs)
    tp.featurize(records, set())
    return [tp.choices([r for r in records if r["fold"] == k], tp.train([r for r in records if r["fold"] != k], pargs),
                       pargs.threshold, True) for k in range(len(folds))]


def pagerank_pairs(pages: list[Entry], own: dict | None = None) -> dict[tuple, tuple[str, str]]:
    """single_page.py's run at the default PageRankOptions (``own``: filled with the pairs in
    each set's own convention; PageRank gives no blocks, so its body's lines are paragraphs)."""
    from benchmarks.single_page import run

    from newsstemmer.single.pagerank import PageRankOptions

    result = run(pages, PageRankOptions())
    if own is not None:
        for e, (title, body), (_, gold) in zip(pages, result["extracted"], result["pairs"]):
            own[page_id(e)] = own_pair(e, title, body, gold)
    return {page_id(e): pair for e, pair in zip(pages, result["pairs"])}


def region_pairs(pages: list[Entry], own: dict | None = None) -> dict[tuple, tuple[str, str]]:
    """The shipped region extractor on each page alone, as ``extract_single`` runs it (an
    unreadable page predicts nothing); ``own``: filled with the pairs in each set's own
    convention (the article's blocks)."""
    from newsstemmer import Page
    from newsstemmer.single import extract_single

    out = {}
    for e in pages:
        title, article = "", None
        try:
            article = extract_single(Page(e.html(), url=e.url), "region")
            title = article.title
        except Exception as exc:  # scored as empty, and shown
            print(f"{e.dataset}/{e.site}/{e.id}: {type(exc).__name__}: {exc}", file=sys.stderr)
        gold = e.gold()
        out[page_id(e)] = (prediction(title, article.body if article else "", e.gold_has_title), gold)
        if own is not None:
            own[page_id(e)] = own_pair(e, title, article if article else "", gold)
    return out


def region_fold_pairs(root: Path, entries: list[Entry], folds: list[list[Entry]], pages: list[Entry],
                      data_file: str | None, merge_hosts: bool,
                      own: list[dict] | None = None) -> list[dict[tuple, tuple[str, str]]]:
    """Per fold: the region models trained (train_region.py's defaults) without the fold's
    groups (``own``: gets each fold's pairs in each set's own convention)."""
    from training.train_region import fold_pairs, region_rows

    return fold_pairs(region_rows(entries, data_file), entries, folds, pages, merge_hosts=merge_hosts, own=own)


def trafilatura_pairs(pages: list[Entry], own: dict | None = None) -> dict[tuple, tuple[str, str]]:
    """trafilatura at its defaults on each page alone (a peer, for the benchmark only: the
    package never depends on it), title added where the gold has it (``own``: filled with
    the same text read as paragraphs: its text output has no kinds to keep)."""
    import trafilatura

    out = {}
    for e in pages:
        title = body = ""
        try:
            html = e.html()
            body = trafilatura.extract(html, url=e.url) or ""
            if e.gold_has_title:
                meta = trafilatura.extract_metadata(html, default_url=e.url)
                title = (meta.title if meta else "") or ""
        except Exception as exc:  # scored as empty, and shown
            print(f"{e.dataset}/{e.site}/{e.id}: {type(exc).__name__}: {exc}", file=sys.stderr)
        out[page_id(e)] = (prediction(title, body, e.gold_has_title), e.gold())
        if own is not None:
            own[page_id(e)] = own_pair(e, title, body, out[page_id(e)][1])
    return out


def page_scores(method: str, sets: dict[str, list[Entry]], dev: dict, per_fold: list[dict] | None,
                texts: bool = False) -> list[dict]:
    """Per page of every set: its dev and held-out (CV) F1, precision and recall, and the
    gold's word count; ``texts``: the held-out prediction too (the dev one where no fold
    predicted the page), to read what was lost."""
    from newsstemmer.evaluation import shingle_prf, tokens

    def scores(pair, key):
        p, r = shingle_prf(*pair)
        f = round(2 * p * r / (p + r), 4) if p and r else 0.0
        return {key: f, f"{key}_p": None if p is None else round(p, 4), f"{key}_r": round(r, 4)}

    held = {pid: pair for fold in per_fold or [] for pid, pair in fold.items()}
    out = []
    for name, pages in sets.items():
        for e in pages:
            pid = page_id(e)
            row = {"method": method, "set": name, "page": "/".join(pid), "lang": e.html_lang,
                   "gold_words": len(tokens(dev[pid][1]))}
            row.update(scores(dev[pid], "dev"))
            if pid in held:
                row.update(scores(held[pid], "cv"))
            if texts:
                row["predicted"] = (held.get(pid) or dev[pid])[0]
            out.append(row)
    return out


def crf_pairs(extractor, pages: list[Entry], own: dict | None = None) -> dict[tuple, tuple[str, str]]:
    """crf_eval.py's run: each page alone; an undecodable or failing page predicts nothing
    (``own``: filled with the pairs in each set's own convention; the CRF gives no blocks)."""
    out = {}
    for e in pages:
        title = body = ""
        try:
            title, body = extractor.extract(e.html())
        except Exception as exc:  # scored as empty, and shown
            print(f"{e.dataset}/{e.site}/{e.id}: {type(exc).__name__}: {exc}", file=sys.stderr)
        out[page_id(e)] = (prediction(title, body, e.gold_has_title), e.gold())
        if own is not None:
            own[page_id(e)] = own_pair(e, title, body, out[page_id(e)][1])
    return out


def crf_fold_pairs(
    root: Path, entries: list[Entry], folds: list[list[Entry]], pages: list[Entry], merge_hosts: bool, cache: Path | None
) -> tuple[list[dict[tuple, tuple[str, str]]], dict]:
    """Per fold: a CRF trained as train_crf.py does, without the fold's groups, on the fold's pages."""
    from training.train_crf import load_training

    from newsstemmer.single.crf import DEFAULT_SPLIT_TAGS, DEFAULT_TRAIN_PARAMS, CRFExtractor, train

    t0 = time.perf_counter()
    data = load_training(root, DEFAULT_SPLIT_TAGS, cache, verbose=False)
    t_label = time.perf_counter() - t0
    group_of = dict(zip((page_id(e) for e in entries), site_groups(entries, merge_hosts)))
    wanted = {page_id(e) for e in pages}
    out: list[dict] = []
    info = {"label_s": round(t_label, 1), "train_s": [], "training_pages": []}
    with tempfile.TemporaryDirectory() as tmp:
        for k, fold in enumerate(folds):
            held = {group_of[page_id(e)] for e in fold}
            rest = [tp for rows in data.values() for e, _, tp in rows
                    if tp is not None and group_of[page_id(e)] not in held]
            t1 = time.perf_counter()
            path = train(rest, Path(tmp) / f"fold{k}.zip", DEFAULT_TRAIN_PARAMS, DEFAULT_SPLIT_TAGS)
            info["train_s"].append(round(time.perf_counter() - t1, 1))
            info["training_pages"].append(len(rest))
            print(f"[crf fold {k}] trained on {len(rest)} pages ({info['train_s'][-1]}s)", file=sys.stderr, flush=True)
            ex = CRFExtractor(path)
            out.append(crf_pairs(ex, [e for e in fold if page_id(e) in wanted]))
    return out, info


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_data_option(ap)
    ap.add_argument("--folds", type=int, default=5, metavar="K", help="number of folds (default 5)")
    ap.add_argument("--seed", type=int, default=0, help="orders groups of equal size when dealing folds")
    ap.add_argument("--datasets", default=",".join(DEFAULT_SETS),
                    help=f"evaluation sets, comma-separated (known: {', '.join(SETS)})")
    ap.add_argument("--methods", default=",".join(METHODS), help=f"comma-separated, of {', '.join(METHODS)}")
    ap.add_argument("--cross", action="store_true", help="single-page methods on the multi-page sets too")
    ap.add_argument("--merge-hosts", action="store_true",
                    help="one group for sites of different datasets sharing a host (folds.py)")
    ap.add_argument("--per-fold", action="store_true", help="print every fold's F1")
    ap.add_argument("--cache", metavar="DIR", help="crf: keep the training sites' learned layouts here")
    ap.add_argument("--sections-data", metavar="FILE",
                    help="layout: the units train_sections.py wrote (default: computed, ~2 min)")
    ap.add_argument("--region-data", metavar="FILE", help="region: the rows region_data.py wrote (default: computed)")
    ap.add_argument("--choice-data", metavar="FILE",
                    help="layout-choice: the per-page records train_pagechoice.py wrote (written if missing)")
    ap.add_argument("--dev", action="store_true",
                    help="dev figures only (the shipped models on every page; nothing trained per fold)")
    ap.add_argument("--convention", choices=CONVENTION_CHOICES, default="news",
                    help="news (default): the plain body; own: each set in its own convention "
                         "(shared.conventions); both: the two side by side")
    ap.add_argument("--json", metavar="FILE", help="write every figure as JSON")
    ap.add_argument("--pages", metavar="FILE",
                    help="region, pagerank, trafilatura: write every page's dev and CV F1, precision "
                         "and recall (JSON lines)")
    ap.add_argument("--page-texts", action="store_true",
                    help="with --pages: each row also holds the page's predicted text (held-out "
                         "where CV ran), to read what was lost against the gold")
    args = ap.parse_args(argv)

    names = [n.strip() for n in args.datasets.split(",") if n.strip()]
    methods = [m.strip() for m in args.methods.split(",") if m.strip()]
    for n in names:
        if n not in SETS:
            ap.error(f"unknown evaluation set {n!r}; known: {', '.join(SETS)}")
    for m in methods:
        if m not in METHODS:
            ap.error(f"unknown method {m!r}; known: {', '.join(METHODS)}")
    root = data_dir(args.data)
    cache = Path(args.cache) if args.cache else None
    if cache:
        cache.mkdir(parents=True, exist_ok=True)
    entries = load_manifest(root)
    folds = grouped_folds(entries, args.folds, args.seed, args.merge_hosts)
    all_sets = {n: set_entries(entries, n) for n in names}

    def sets_for(method: str) -> dict[str, list[Entry]]:
        if method.startswith("layout"):
            return {n: es for n, es in all_sets.items() if n not in SINGLE_SETS or n in LAYOUT_SINGLE_SETS}
        if args.cross:
            return all_sets
        return {n: es for n, es in all_sets.items() if n in SINGLE_SETS}

    def union(sets: dict[str, list[Entry]]) -> list[Entry]:
        seen, out = set(), []
        for es in sets.values():
            for e in es:
                if page_id(e) not in seen:
                    seen.add(page_id(e))
                    out.append(e)
        return out

    results: dict[str, dict] = {}
    timing: dict[str, float] = {}
    extra: dict[str, dict] = {}
    page_rows: list[dict] = []
    t_start = time.perf_counter()
    for method in methods:
        sets = sets_for(method)
        if not sets:
            continue
        pages = union(sets)
        t0 = time.perf_counter()
        own: dict | None = {} if args.convention != "news" else None
        own_folds: list[dict] | None = None  # region: each fold's own-convention pairs
        if method == "layout":
            from training.train_sections import fold_pairs as section_fold_pairs, load_data

            untrained = {page_id(e) for n in UNTRAINED_LAYOUT_SETS if n in sets for e in sets[n]}
            trained = [e for e in pages if page_id(e) not in untrained]
            results[method] = figures(layout_pairs(pages, own=own), sets, folds,
                                      section_fold_pairs(load_data(entries, args.sections_data), entries, folds, trained),
                                      UNTRAINED_LAYOUT_SETS)
        elif method == "layout-choice":
            from newsstemmer import ExtractOptions

            dev = layout_pairs(pages, extract=ExtractOptions(fallback="region"), own=own)
            results[method] = figures(dev, sets, folds, choice_fold_pairs(entries, folds, args), UNTRAINED_LAYOUT_SETS)
        elif method == "layout-rules":
            from newsstemmer import LearnOptions

            results[method] = figures(layout_pairs(pages, LearnOptions(section_model=False), own=own), sets, folds)
        elif method == "pagerank":
            dev = pagerank_pairs(pages, own)
            results[method] = figures(dev, sets, folds, dev_only=frozenset(sets) if args.dev else frozenset())
            page_rows += page_scores(method, sets, dev, None, args.page_texts)
        elif method == "region":
            dev = region_pairs(pages, own)
            if own is not None and not args.dev:
                own_folds = []
            per_fold = None if args.dev else region_fold_pairs(root, entries, folds, pages, args.region_data,
                                                               args.merge_hosts, own_folds)
            results[method] = figures(dev, sets, folds, per_fold, dev_only=frozenset(sets) if args.dev else frozenset())
            if per_fold:
                held = {pid: pair for fold in per_fold for pid, pair in fold.items()}
                for name, r in results[method].items():
                    r["cv_languages"] = by_language(held, sets[name])
            page_rows += page_scores(method, sets, dev, per_fold, args.page_texts)
        elif method == "trafilatura":
            dev = trafilatura_pairs(pages, own)
            results[method] = figures(dev, sets, folds)
            page_rows += page_scores(method, sets, dev, None, args.page_texts)
        else:
            from newsstemmer.single.crf import CRFExtractor

            dev = crf_pairs(CRFExtractor(), pages, own)
            per_fold, info = crf_fold_pairs(root, entries, folds, pages, args.merge_hosts, cache)
            results[method] = figures(dev, sets, folds, per_fold)
            extra["crf"] = info
        if own is not None:
            # Own convention: region's fold models give typed blocks (their own-convention
            # CV rows); the fold models of layout, layout-choice and crf give text, so their
            # own-convention rows have the dev figure alone; the untrained methods' CV
            # figure is their figure on each held-out fold.
            dev_alone = method in ("layout", "layout-choice", "crf") or (args.dev and method in ("pagerank", "region"))
            results[f"{method} (own convention)"] = figures(own, sets, folds, own_folds,
                                                            dev_only=frozenset(sets) if dev_alone else frozenset())
            if args.convention == "own":
                del results[method]
        timing[method] = round(time.perf_counter() - t0, 1)
        print(f"{method}: {timing[method]}s", file=sys.stderr, flush=True)
    elapsed = time.perf_counter() - t_start

    grouping = "groups merged across datasets by host" if args.merge_hosts else "dataset/site groups, Big9 years merged"
    print(f"## Dev and {args.folds}-fold site-grouped CV figures (seed {args.seed}; {grouping})")
    print("\nShingle F1 / P / R. Dev: every page of the set pooled. CV: mean over folds of the held-out")
    print("fold's pooled figures (F1 range across folds in brackets). layout-rules and pagerank train")
    print("nothing across sites; the CV figures of layout (its section model), region and crf come from")
    print("models trained without the held-out fold's sites.")
    print_tables(results, args.folds, args.per_fold)
    for method, by_set in results.items():
        for name, r in by_set.items():
            if r.get("cv_languages"):
                cells = ", ".join(f"{lang} ({v['pages']}): {v['f1']:.3f} / {v['near_empty']}"
                                  for lang, v in r["cv_languages"].items())
                print(f"\n{name}, {method}, CV per language (held-out pages pooled; pages: F1 / near-empty): {cells}")
    print(f"\nruntime: {elapsed:.0f}s (" + ", ".join(f"{m} {s:.0f}s" for m, s in timing.items()) + ")")

    if args.pages:
        Path(args.pages).write_text("".join(json.dumps(r) + "\n" for r in page_rows), encoding="utf-8")
        print(f"{len(page_rows)} page scores written to {args.pages}", file=sys.stderr)
    if args.json:
        out = {"data": str(root), "folds": args.folds, "seed": args.seed, "merge_hosts": args.merge_hosts,
               "results": results, "seconds": timing, "crf": extra.get("crf")}
        Path(args.json).write_text(json.dumps(out, indent=1), encoding="utf-8")
        print(f"figures written to {args.json}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
