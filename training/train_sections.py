#!/usr/bin/env python3
"""Train the learned section decision and measure it by site-grouped cross-validation.

Every multi-page site of big9 (both years), cleanportal and dragnet (sites with >= 2
pages) is learned from all its pages, unsupervised (``newsstemmer.learn`` with
``section_model=False``: the hand rules' roles), then every section and free path of
its article layouts becomes a *unit* (``newsstemmer.combine.sections``) with its
features and a label from the gold: the weighted share of its text found in the gold
of its pages (>= 0.5: article text).  For each of K folds (``folds.py``: no site in two
folds, a Big9 site one group across years) a LightGBM model is trained on the units of
the other folds' sites and decides the held-out sites' units; their pages are then
extracted with the decided layouts, as ``newsstemmer`` extracts them.  Figures are
``cv.py``'s (dev beside the mean over folds), for the hand rules (``rules``), the
model (``model``) and the gold-label oracle of the same units (``oracle``: the
ceiling of a decision per unit).  ``-o FILE`` trains on every site and writes the
model (what newsstemmer ships as ``newsstemmer/models/sections.json``).

``--subsets 3,5,10`` also trains on layouts learned from runs of k pages of each site
(up to ``--windows`` disjoint runs per k, pages by id), as a crawl's first round and
``rules --learn`` see a site; ``log_pattern_pages`` tells the model how many pages a
layout was learned from.  After the whole-site tables, the fold models are also scored
on layouts learned from each held-out site's first k pages (``--fewpages``, the protocol
of ``fewpages.py``: the other pages extracted with the region fallback).

    python training/train_sections.py [--data-file /tmp/sections.pkl] [--folds 5] [--seed 0]
        [--threshold 0.3] [--subsets 3,5,10 --subsets-file /tmp/subsets.pkl] [--fewpages 3,5,10]
        [--no-cv] [--per-fold] [-o newsstemmer/models/sections.json]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

if __name__ == "__main__" and not __package__:  # run as a file: import from the checkout's root
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from benchmarks.shared import (Entry, cached, add_data_option, data_dir, figures, grouped_folds, load_manifest, page_id, prediction,
                               print_tables, set_entries, site_groups)
from training.train_region import bagged
from training.trees_export import from_lightgbm

from newsstemmer import ExtractOptions, Page, extract_with_patterns
from newsstemmer.evaluation import evaluate
from newsstemmer.trees import TreeModel
from newsstemmer.combine.sections import (
    SECTION_FEATURES,
    decide_sections,
    decide_site,
    main_units,
    page_evidence,
    section_units,
    unit_features,
    unit_labels,
    unit_signals,
)
from newsstemmer.combine.learn import learn
from newsstemmer import LearnOptions
from newsstemmer.layout.patterns import SitePatterns

SETS = ("big9", "cleanportal", "dragnet")
#: The datasets whose sites train the section model (and the page-choice model).
TRAIN_DATASETS = ("big9-05", "big9-09", "cleanportal", "dragnet")
#: The datasets whose sites get units (and page-choice records): the training ones, and
#: cttf's site-eras, evaluated under CV (cv.py's layout methods) without training.
UNIT_DATASETS = TRAIN_DATASETS + ("cttf",)
# as cv.py's layout: the layouts alone (the per-page choice is measured by train_pagechoice.py)
OPTIONS = ExtractOptions(fallback="pagerank", page_choice=False)


def training_sites(entries: list[Entry],
                   datasets: tuple[str, ...] = TRAIN_DATASETS) -> dict[tuple[str, str], list[Entry]]:
    """The sites (>= 2 pages) of ``datasets``, each as its pages."""
    sites: dict[tuple[str, str], list[Entry]] = {}
    for e in entries:
        if e.dataset in datasets:
            sites.setdefault((e.dataset, e.site), []).append(e)
    return {k: v for k, v in sorted(sites.items()) if len(v) >= 2}


def read_pages(es: list[Entry]) -> list[Page]:
    return [Page(e.html(), url=e.url, source=f"{e.site}/{e.id}") for e in es]


def site_record(es: list[Entry], per_layout: int | None = None) -> dict:
    """One site learned unsupervised: its layouts, units (keys, features, labels, weights)."""
    pages = read_pages(es)
    site = learn(pages, LearnOptions(section_model=False))
    units, matched = section_units(site, pages)
    ev = page_evidence(site, pages, matched, per_layout=per_layout)
    X = unit_features(units, matched, ev)
    y = unit_labels(units, {n: es[n].gold() for n in matched})
    w = np.array([sum(b.weight for _, b in u.occurrences) for u in units], dtype=np.float64)
    return {"ids": [page_id(e) for e in es], "site": site.to_dict(), "keys": [u.key for u in units],
            "X": X, "y": y, "w": w, "S": unit_signals(units, matched, ev)}


def subset_windows(es: list[Entry], k: int, windows: int) -> list[list[Entry]]:
    """Up to ``windows`` disjoint runs of ``k`` pages of a site (pages sorted by id), as a
    crawl's first learning round or ``rules --learn`` learns from a few pages."""
    ordered = sorted(es, key=lambda e: e.id)
    return [ordered[i:i + k] for i in range(0, len(ordered) - k + 1, k)][:windows]


def build_subsets(entries: list[Entry], ks: tuple[int, ...], windows: int,
                  per_layout: int | None = None) -> dict[tuple, dict]:
    """Units of layouts learned from ``k`` pages of each training site, for every k."""
    out = {}
    sites = training_sites(entries)
    for n, (key, es) in enumerate(sites.items(), 1):
        print(f"[subsets {n}/{len(sites)}] {key[0]}/{key[1]} ({len(es)} pages)", file=sys.stderr, flush=True)
        for k in ks:
            for w, part in enumerate(subset_windows(es, k, windows)):
                out[(*key, k, w)] = site_record(part, per_layout)
    return out


def load_subsets(entries: list[Entry], data_file: str | None, ks: tuple[int, ...], windows: int,
                 per_layout: int | None = None) -> dict:
    """The subset units (:func:`build_subsets`): from ``data_file`` if this code built it
    with these settings, else built and written there (empty when ``ks`` is)."""
    if not ks:
        return {}
    return cached(data_file, lambda: build_subsets(entries, ks, windows, per_layout), "subset units",
                  {"ks": list(ks), "windows": windows, "per_layout": per_layout})


def subset_sizes(args: argparse.Namespace) -> tuple[int, ...]:
    return tuple(int(k) for k in args.subsets.split(",") if k.strip())


def build(entries: list[Entry], per_layout: int | None = None) -> dict[tuple, dict]:
    """The units of every site of :data:`UNIT_DATASETS` (:func:`site_record`)."""
    out = {}
    sites = training_sites(entries, UNIT_DATASETS)
    for k, (key, es) in enumerate(sites.items(), 1):
        print(f"[{k}/{len(sites)}] {key[0]}/{key[1]} ({len(es)} pages)", file=sys.stderr, flush=True)
        out[key] = site_record(es, per_layout)
    return out


def extract_site(es: list[Entry], rec: dict, main: np.ndarray | None) -> dict[tuple, tuple[str, str]]:
    """The site's pages extracted with its layouts, the units decided by ``main`` (None: as learned)."""
    pages = read_pages(es)
    site = SitePatterns.from_dict(rec["site"])
    if main is not None:
        units, _ = section_units(site, pages)
        if [u.key for u in units] != rec["keys"]:
            raise RuntimeError(f"{es[0].site}: the units differ from the recorded ones")
        decide_sections(units, main)
    out = {}
    for e, page in zip(es, pages):
        art = extract_with_patterns(page, site, OPTIONS)
        out[page_id(e)] = (prediction(art.title, art.body, e.gold_has_title), e.gold())
    return out


def trained_on(records: list[dict]) -> list[dict]:
    """The site records that train the model: those of :data:`TRAIN_DATASETS` (cttf's
    units are there to be decided and scored, not learned from)."""
    return [r for r in records if r["ids"][0][0] in TRAIN_DATASETS]


def fold_models(data: dict, subsets: dict, entries: list[Entry], folds: list[list[Entry]],
                args: argparse.Namespace) -> list[TreeModel]:
    """Per fold, a model trained on the units (whole sites and ``subsets``) of the sites
    outside the fold."""
    groups = dict(zip((page_id(e) for e in entries), site_groups(entries)))
    records = trained_on(list(data.values()) + list(subsets.values()))
    record_group = [groups[r["ids"][0]] for r in records]
    models = []
    for fold in folds:
        held = {groups[page_id(e)] for e in fold}
        rest = [r for r, g in zip(records, record_group) if g not in held]
        models.append(train(np.vstack([r["X"] for r in rest]), np.concatenate([r["y"] for r in rest]),
                            np.concatenate([r["w"] for r in rest]), args))
    return models


def fold_pairs(data: dict, entries: list[Entry], folds: list[list[Entry]], pages: list[Entry],
               args: argparse.Namespace | None = None, variant: str = "model",
               subsets: dict | None = None) -> list[dict]:
    """Per fold, the held-out sites' pages among ``pages`` extracted with their layouts
    decided by ``variant``: ``model`` (trained on the other folds' sites: their whole-site
    units and ``subsets``' units), ``oracle`` (the gold labels) or ``rules`` (as learned)."""
    args = args or build_parser().parse_args([])
    by_id = {page_id(e): e for e in entries}
    groups = dict(zip((page_id(e) for e in entries), site_groups(entries)))
    site_group = {key: groups[rec["ids"][0]] for key, rec in data.items()}
    wanted = {page_id(e) for e in pages}
    role_main = SECTION_FEATURES.index("role_main")
    models = fold_models(data, subsets or {}, entries, folds, args) if variant == "model" else None
    out = []
    for k, fold in enumerate(folds):
        held = {groups[page_id(e)] for e in fold}
        model = models[k] if models is not None else None
        pairs: dict = {}
        for key, rec in data.items():
            if site_group[key] not in held or not any(i in wanted for i in rec["ids"]):
                continue
            es = [by_id[i] for i in rec["ids"]]
            hand = rec["X"][:, role_main] > 0
            if variant == "rules":
                main = None
            elif variant == "oracle":
                main = np.where(np.isnan(rec["y"]), hand, rec["y"] >= 0.5)
            else:
                main = main_units(model, rec["X"], rec["S"] if args.box_rules else None)
            pairs.update({i: pair for i, pair in extract_site(es, rec, main).items() if i in wanted})
        out.append(pairs)
        print(f"[sections {variant} fold {k}] {len(pairs)} pages", file=sys.stderr, flush=True)
    return out


def load_data(entries: list[Entry], data_file: str | None, per_layout: int | None = None) -> dict:
    """The units of every training site: from ``data_file`` if this code and these models
    built it with the same ``per_layout`` (``benchmarks.shared.cached``), else built (about a minute;
    page evidence on ``per_layout`` pages per layout) and written there."""
    return cached(data_file, lambda: build(entries, per_layout), "section units", {"per_layout": per_layout})


def train(X: np.ndarray, y: np.ndarray, w: np.ndarray, args: argparse.Namespace) -> TreeModel:
    import lightgbm as lgb

    ok = ~np.isnan(y)
    labels = (y[ok] >= 0.5).astype(np.float64)
    weights = np.log1p(w[ok]) if args.weighting == "log" else (np.sqrt(w[ok]) if args.weighting == "sqrt" else None)
    params = {
        "objective": "binary",
        "learning_rate": args.lr,
        "num_leaves": args.leaves,
        "max_depth": args.depth,
        "min_data_in_leaf": args.min_leaf,
        "feature_fraction": 0.8,
        "bagging_fraction": 0.8,
        "bagging_freq": 1,
        "lambda_l2": 1.0,
        "seed": 0,
        "deterministic": True,
        "num_threads": 1,
        "verbose": -1,
    }
    params["seed"] = args.model_seed

    def dataset():
        return lgb.Dataset(X[ok], labels, weight=weights, feature_name=list(SECTION_FEATURES))

    model = from_lightgbm(bagged(params, dataset, args.rounds, args.bags), SECTION_FEATURES, kind="sections")
    model.info.update(threshold=args.threshold, mode=args.mode, region=True, rounds=args.rounds,
                      trained_on=int(ok.sum()))
    if args.bags > 1:
        model.info.update(bags=args.bags)
    return model


def per_layout(args: argparse.Namespace) -> int | None:
    return args.evidence_pages or None


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_data_option(ap)
    ap.add_argument("--data-file", help="cache of the units (written if missing)")
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threshold", type=float, default=0.3, help="P(article) under which a unit is not main")
    ap.add_argument("--rounds", type=int, default=100)
    ap.add_argument("--bags", type=int, default=3,
                    help="boosters trained with seeds model-seed + 0, 1000, ..., averaged (one seed's model "
                         "moves a borderline unit's P by +-0.08)")
    ap.add_argument("--model-seed", type=int, default=0, help="LightGBM's seed (bagging, feature sampling)")
    ap.add_argument("--lr", type=float, default=0.05)
    ap.add_argument("--leaves", type=int, default=15)
    ap.add_argument("--depth", type=int, default=5)
    ap.add_argument("--min-leaf", type=int, default=10)
    ap.add_argument("--weighting", default="log", choices=("log", "sqrt", "none"))
    ap.add_argument("--mode", default="demote", choices=("both", "demote"),
                    help="demote: the model may only take MAIN away from units the rules made main")
    ap.add_argument("--no-box-rules", dest="box_rules", action="store_false",
                    help="the model alone, without the story-card and bio rules (decision/boxes.py)")
    ap.add_argument("--variants", default="rules,model,oracle", help="of rules, model, oracle")
    ap.add_argument("--evidence-pages", type=int, default=0,
                    help="pages per layout given page evidence (region, names) when building the units "
                         "(default 0: every page; learning samples EVIDENCE_PAGES per layout)")
    ap.add_argument("--subsets", default="",
                    help="also train on layouts learned from k pages of each site, for these k "
                         "(comma-separated, e.g. 3,5,10; default empty: whole sites only, the shipped "
                         "recipe; the subsets were tried in session 7 and gave no gain, see NOTES.md)")
    ap.add_argument("--windows", type=int, default=3, help="disjoint runs of k pages per site and k")
    ap.add_argument("--subsets-file", help="cache of the subset units (written if missing)")
    ap.add_argument("--fewpages", default="3,5,10",
                    help="CV of layouts learned from a held-out site's first k pages (fewpages.py's "
                         "protocol) for these k; empty: none")
    ap.add_argument("--no-cv", action="store_true")
    ap.add_argument("--per-fold", action="store_true")
    ap.add_argument("-o", "--output", help="train on every site and write the model here")
    return ap


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    root = data_dir(args.data)
    entries = load_manifest(root)
    t0 = time.perf_counter()
    data = load_data(entries, args.data_file, per_layout(args))
    subsets = load_subsets(entries, args.subsets_file, subset_sizes(args), args.windows, per_layout(args))
    print(f"units of {len(data)} sites and {len(subsets)} subsets in {time.perf_counter() - t0:.0f}s",
          file=sys.stderr)
    if args.output:
        records = trained_on(list(data.values()) + list(subsets.values()))
        X = np.vstack([r["X"] for r in records])
        y = np.concatenate([r["y"] for r in records])
        w = np.concatenate([r["w"] for r in records])
        model = train(X, y, w, args)
        if subsets:
            model.info.update(subsets=list(subset_sizes(args)), windows=args.windows)
        Path(args.output).write_text(model.to_json(), encoding="utf-8")
        print(f"model written to {args.output} ({Path(args.output).stat().st_size} bytes)", file=sys.stderr)
    if args.no_cv:
        return 0
    folds = grouped_folds(entries, args.folds, args.seed)
    sets = {n: set_entries(entries, n) for n in SETS}
    pages = [e for es in sets.values() for e in es]
    results: dict[str, dict] = {}
    for variant in [v.strip() for v in args.variants.split(",") if v.strip()]:
        per_fold = fold_pairs(data, entries, folds, pages, args, variant, subsets)
        pooled: dict = {}
        for pairs in per_fold:
            pooled.update(pairs)
        # (dev column: the folds' predictions pooled; cv.py gives the shipped model's dev figure)
        results[variant] = figures(pooled, sets, folds, per_fold)
    print_tables(results, args.folds, args.per_fold)
    ks = tuple(int(k) for k in args.fewpages.split(",") if k.strip())
    if ks:
        few_page_cv(entries, folds, ks, fold_models(data, subsets, entries, folds, args))
    return 0


#: The sets of fewpages.py's protocol (and of the few-page CV below).
FEW_PAGE_SETS = ("big9-05", "big9-09", "cleanportal", "dragnet")


def few_page_sites(entries: list[Entry], sets: tuple[str, ...]) -> dict[tuple[str, str], list[Entry]]:
    """The pages of each site of ``sets``, sorted by id."""
    groups: dict[tuple[str, str], list[Entry]] = {}
    for e in entries:
        if e.dataset in sets:
            groups.setdefault((e.dataset, e.site), []).append(e)
    return {key: sorted(es, key=lambda e: e.id) for key, es in sorted(groups.items())}


def few_page_pairs(es: list[Entry], htmls: list[str], k: int, model: TreeModel | None,
                   use_model: bool) -> list[tuple[str, str]]:
    """(prediction, gold) of the site's pages after the first ``k``, learned from those ``k``
    (the hand rules' roles, then ``model`` or the shipped section model when ``use_model``)."""
    pages = [Page(h, url=e.url) for e, h in zip(es, htmls)]
    try:
        site = learn(pages[:k], LearnOptions(section_model=use_model and model is None))
        if use_model and model is not None:
            decide_site(site, pages[:k], model=model)
    except Exception:  # a site no layout can be learned from: every page goes to region
        site = None
    out = []
    for e, p in zip(es[k:], pages[k:]):
        a = extract_with_patterns(p, site, ExtractOptions(fallback="region")) if site else None
        out.append((prediction(a.title, a.body, e.gold_has_title) if a else "", e.gold()))
    return out


def few_page_cv(entries: list[Entry], folds: list[list[Entry]], ks: tuple[int, ...],
                models: list[TreeModel]) -> None:
    """fewpages.py's protocol on the held-out sites of each fold: learn from a site's first
    k pages (hand rules, then the fold's model), extract its other pages with the region
    fallback; F1 pooled over the folds, per dataset."""
    groups = dict(zip((page_id(e) for e in entries), site_groups(entries)))
    sites = few_page_sites(entries, FEW_PAGE_SETS)
    htmls: dict = {}
    for k in ks:
        res: dict[str, dict[str, list]] = {"rules": {}, "model": {}}
        for f, fold in enumerate(folds):
            held = {groups[page_id(e)] for e in fold}
            for key, es in sites.items():
                if len(es) < k + 2 or groups[page_id(es[0])] not in held:
                    continue
                if key not in htmls:
                    htmls[key] = [e.html() for e in es]
                for variant in res:
                    res[variant].setdefault(key[0], []).extend(
                        few_page_pairs(es, htmls[key], k, models[f], variant == "model"))
        for variant, by_set in res.items():
            figs = {d: f"{evaluate(v).f1:.3f} ({len(v)})" for d, v in by_set.items()}
            print(f"few pages CV k={k} {variant}: {figs}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
