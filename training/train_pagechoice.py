#!/usr/bin/env python3
"""Train the per-page choice between a layout's article and region's, by site-grouped CV.

Every multi-page site of big9 (both years), cleanportal, dragnet and cttf (sites with
>= 2 pages, as ``train_sections.py``'s UNIT_DATASETS; a cttf site-era is one group) is
learned from all its pages.  For each of K folds (``folds.py``, the folds of ``cv.py``)
a section model (``train_sections.py``) and the region models (``train_region.py``'s
defaults) are trained without the fold's sites; the fold's sites' layouts are decided by
that section model, and every page gets the layout's article (``extract_with_layouts``)
and the fold's region article, with the features of :mod:`newsstemmer.combine.pagechoice`
(the layout's agreement with region measured on the section decision's evidence sample,
as ``learn`` does).  Pages no layout matches get region's article (the library's default
fallback).

The choice model (LightGBM, plain numpy trees at run time) is then trained per fold on
the other folds' pages of ``--train-sets`` (default :data:`TRAIN_SETS`; label: region's
body scores higher than the layout's; weight: the difference) and applied to the fold's
pages, gated as the library gates it
(:func:`~newsstemmer.combine.pagechoice_gate.needs_region`: a short text on layouts where
the choice took region's body on a page of their learning-time evidence sample).
Printed: ``layout`` (the layout's article, region for unmatched pages), ``choice``
(gated, as the library decides), ``choice-all`` (no gate), ``choice-edges`` (gated, but
region's body may also replace a layout body it merely extends: without
``extends_only``), ``oracle`` (the better of the two per page), dev beside CV, and per
set the matched pages where the gate runs region.  ``-o FILE`` trains on every page of the training sets
and writes the model (``newsstemmer/models/pagechoice.json``).

    python training/train_pagechoice.py [--data-file /tmp/pagechoice.pkl]
        [--sections-data /tmp/sections.pkl] [--region-data FILE] [--threshold 0.5]
        [--per-fold] [--train-sets big9-05,...]
        [-o newsstemmer/models/pagechoice.json [--no-cv]]
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
from training.trees_export import from_lightgbm

from newsstemmer.trees import TreeModel
from newsstemmer.combine.pagechoice_gate import SHORT_BODY, layout_text
from newsstemmer.combine.pagechoice import (PAGE_FEATURES, choose_body, extends_only, layout_agreement, line_roles,
                                             page_features, pairs_by_layout, without_known)
from newsstemmer.combine.sections import decide_sections, evidence_sample, main_units, section_units
from newsstemmer.evaluation import shingle_prf
from newsstemmer.layout.blocks import blocks_of
from newsstemmer.layout.matching import LayoutExtractOptions, extract_with_layouts
from newsstemmer.layout.patterns import SitePatterns

SETS = ("big9", "cleanportal", "dragnet", "cttf")
#: The datasets whose pages train the choice model by default (``--train-sets``); the
#: records hold cttf's pages too (train_sections.py's UNIT_DATASETS), scored under CV.
TRAIN_SETS = ("big9-05", "big9-09", "cleanportal", "dragnet")


def f1(pred: str, gold: str) -> float:
    p, r = shingle_prf(pred, gold)
    return 2 * p * r / (p + r) if p and r else 0.0


def region_extractors(entries: list[Entry], folds: list[list[Entry]], region_data: str | None) -> list:
    """Per fold, a RegionExtractor trained as train_region.py trains it, without the fold's groups."""
    from training.train_region import fold_extractors

    return fold_extractors(entries, folds, region_data)


def site_pages(es: list[Entry], rec: dict, main: np.ndarray, region) -> list[dict]:
    """The pages of one held-out site: layout and region articles, features, F1s."""
    from training.train_sections import read_pages

    pages = read_pages(es)
    site = SitePatterns.from_dict(rec["site"])
    units, matched = section_units(site, pages)
    decide_sections(units, main)
    site.match_cache = None
    arts = [extract_with_layouts(p, site, LayoutExtractOptions()) for p in pages]
    regions = []
    for p in pages:
        try:
            regions.append(region.extract(p.tree, p.url))
        except Exception:  # an unreadable page: nothing
            regions.append(("", ""))
    # The layouts' agreement with region on the section decision's evidence sample.
    sample = [n for n in evidence_sample(matched) if arts[n].matched]
    agree = layout_agreement(pairs_by_layout([arts[n].pattern for n in sample], [layout_text(arts[n]) for n in sample],
                                             [regions[n][1] for n in sample]))
    out = []
    in_sample = set(sample)
    for n, (e, p, art, (rtitle, rbody)) in enumerate(zip(es, pages, arts, regions)):
        gold = e.gold()
        pw = blocks_of(p, site.block_options()).total_weight
        rec_p = {"id": page_id(e), "matched": art.matched, "gold": gold, "has_title": e.gold_has_title,
                 "pattern": art.pattern, "sampled": False}
        rec_p["region"] = prediction(rtitle, rbody, e.gold_has_title)
        if art.matched:
            rec_p["layout"] = prediction(art.title, art.body, e.gold_has_title)
            # region's body with the layout's title (the layout finds titles well)
            rec_p["region_lt"] = prediction(art.title, rbody, e.gold_has_title)
            # what the features are made of, kept so that they can be made anew from the records
            rec_p["raw"] = (layout_text(art), rbody, art.score, art.method, agree.get(art.pattern), pw,
                            line_roles(p, site, art))
            rec_p["x"] = page_features(*rec_p["raw"])
            rec_p["lbody"] = art.body
            rec_p["sampled"] = n in in_sample
        else:
            rec_p["layout"] = rec_p["region_lt"] = rec_p["region"]
            rec_p["x"] = None
        rec_p["f1_layout"] = f1(rec_p["layout"], gold)
        rec_p["f1_region"] = f1(rec_p["region_lt"], gold)
        out.append(rec_p)
    return out


def build(entries: list[Entry], folds: list[list[Entry]], sections_data: str | None,
          region_data: str | None) -> list[dict]:
    """Every training site's pages, each decided and extracted by its fold's models."""
    from training import train_sections as ts

    data = ts.load_data(entries, sections_data)
    sargs = ts.build_parser().parse_args([])
    regions = region_extractors(entries, folds, region_data)
    groups = dict(zip((page_id(e) for e in entries), site_groups(entries)))
    by_id = {page_id(e): e for e in entries}
    site_group = {key: groups[rec["ids"][0]] for key, rec in data.items()}
    out = []
    for k, fold in enumerate(folds):
        held = {groups[page_id(e)] for e in fold}
        rest = ts.trained_on([r for key, r in data.items() if site_group[key] not in held])
        model = ts.train(np.vstack([r["X"] for r in rest]), np.concatenate([r["y"] for r in rest]),
                         np.concatenate([r["w"] for r in rest]), sargs)
        for key, rec in data.items():
            if site_group[key] not in held:
                continue
            main = main_units(model, rec["X"], rec["S"] if sargs.box_rules else None)
            for r in site_pages([by_id[i] for i in rec["ids"]], rec, main, regions[k]):
                r["fold"] = k
                out.append(r)
        print(f"[fold {k}] {len(out)} pages", file=sys.stderr, flush=True)
    return out


def featurize(records: list[dict], drop: set[str], strip: frozenset[str] = frozenset()) -> None:
    """Every matched page's feature row made anew from its kept inputs; the features
    named in ``drop`` are blanked (NaN: the trees cannot split on them).  ``strip``: the
    roles of the page's lines left out of region's body (``without_known``)."""
    cols = [PAGE_FEATURES.index(n) for n in drop]
    for r in records:
        if r.get("raw") is not None:
            r["x"] = page_features(*r["raw"])
            r["x"][cols] = np.nan
            if strip:
                r.setdefault("region_lt0", r["region_lt"])
                r["region_lt"] = without_known(r["region_lt0"], r["raw"][6], strip)
                r["f1_region"] = f1(r["region_lt"], r["gold"])


def train(records: list[dict], args: argparse.Namespace) -> TreeModel:
    import lightgbm as lgb

    sets = train_sets(args)
    rows = [r for r in records if r["x"] is not None and r["id"][0] in sets]
    X = np.vstack([r["x"] for r in rows])
    diff = np.array([r["f1_region"] - r["f1_layout"] for r in rows])
    y = (diff > 0).astype(np.float64)
    # The figures pool shingles over pages: a page counts by its size (the gold's tokens).
    size = np.array([len(r["gold"].split()) for r in rows], dtype=np.float64)
    w = (np.abs(diff) + args.base_weight) * (np.sqrt(size) if args.size_weight == "sqrt" else
                                            (size if args.size_weight == "linear" else 1.0))
    params = {"objective": "binary", "learning_rate": args.lr, "num_leaves": args.leaves, "max_depth": args.depth,
              "min_data_in_leaf": args.min_leaf, "lambda_l2": 1.0, "seed": 0, "deterministic": True,
              "num_threads": 1, "verbose": -1}
    booster = lgb.train(params, lgb.Dataset(X, y, weight=w, feature_name=list(PAGE_FEATURES)), args.rounds)
    model = from_lightgbm(booster.dump_model(), PAGE_FEATURES, kind="pagechoice")
    model.info.update(threshold=args.threshold, rounds=args.rounds, trained_on=len(rows))
    return model


def train_sets(args: argparse.Namespace) -> set[str]:
    """The datasets whose pages train the model (``--train-sets``)."""
    return {n for n in (args.train_sets or ",".join(TRAIN_SETS)).split(",") if n}


def short(x: np.ndarray) -> bool:
    """The short-text half of ``needs_region``, from a feature row."""
    return bool(x[PAGE_FEATURES.index("layout_page_share")] < SHORT_BODY)


def extends(r: dict) -> bool:
    """``extends_only`` of the page's two bodies, kept in the record after the first call."""
    if "extends" not in r:
        r["extends"] = extends_only(r["lbody"], r["raw"][1])
    return r["extends"]


def takes(r: dict, model: TreeModel, threshold: float, edges: bool = True) -> bool:
    """Whether the choice takes region's body on this page (``takes_region``)."""
    return bool(choose_body(r["x"][None, :], model, threshold)[0]) and not (edges and extends(r))


def layout_flags(records: list[dict], model: TreeModel, threshold: float, edges: bool = True) -> set[tuple]:
    """The layouts (dataset, site, pattern) where the choice took region's body on some
    page of the learning-time evidence sample (``store_agreement``'s ``region_choice``)."""
    return {(*r["id"][:2], r["pattern"]) for r in records
            if r["x"] is not None and r["sampled"] and takes(r, model, threshold, edges)}


def gate(r: dict, flags: set[tuple]) -> bool:
    """``needs_region`` from a record: a flagged layout and a short text."""
    return (*r["id"][:2], r["pattern"]) in flags and short(r["x"])


def choices(records: list[dict], model: TreeModel, threshold: float, gated: bool,
            edges: bool = True) -> dict[tuple, tuple[str, str]]:
    """Per page, the chosen prediction, gated as the library gates it (``gated``; the
    layouts' flags from the same model on their sampled pages); ``edges``: region's
    body is not taken where it only adds text around the layout's (``extends_only``)."""
    flags = layout_flags(records, model, threshold, edges) if gated else set()
    out = {}
    for r in records:
        pred = r["layout"]
        if r["x"] is not None and (not gated or gate(r, flags)) and takes(r, model, threshold, edges):
            pred = r["region_lt"]
        out[r["id"]] = (pred, r["gold"])
    return out


def region_runs(records: list[dict], model: TreeModel, threshold: float) -> tuple[int, int]:
    """(matched pages where the gate runs region, matched pages)."""
    flags = layout_flags(records, model, threshold)
    matched = [r for r in records if r["x"] is not None]
    return sum(gate(r, flags) for r in matched), len(matched)


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_data_option(ap)
    ap.add_argument("--data-file", help="cache of the per-page records (written if missing)")
    ap.add_argument("--sections-data", help="train_sections.py's units (written if missing)")
    ap.add_argument("--region-data", help="region_data.py's rows (written if missing)")
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threshold", type=float, default=0.5, help="P(region better) from which region's body is taken")
    ap.add_argument("--rounds", type=int, default=60)
    ap.add_argument("--lr", type=float, default=0.05)
    ap.add_argument("--leaves", type=int, default=7)
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--min-leaf", type=int, default=20)
    ap.add_argument("--base-weight", type=float, default=0.01)
    ap.add_argument("--size-weight", default="none", choices=("none", "sqrt", "linear"))
    ap.add_argument("--per-fold", action="store_true")
    ap.add_argument("--strip", default="", help="roles of page lines left out of region's body (static,sub)")
    ap.add_argument("--drop", default="", help="comma-separated features left out (blanked) of the model")
    ap.add_argument("--train-sets", default="",
                    help=f"datasets whose pages train the model (default: {','.join(TRAIN_SETS)})")
    ap.add_argument("-o", "--output", help="train on every page and write the model here")
    ap.add_argument("--no-cv", action="store_true", help="with -o: write the model, skip the CV tables")
    return ap


def load_records(entries, folds, args) -> list[dict]:
    """The per-page records (:func:`build`): from ``--data-file`` if this code and these
    models built it with the same folds, else built and written there."""
    return cached(args.data_file, lambda: build(entries, folds, args.sections_data, args.region_data),
                  "page-choice records", {"folds": [sorted(map(page_id, fold)) for fold in folds]})


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    entries = load_manifest(data_dir(args.data))
    folds = grouped_folds(entries, args.folds, args.seed)
    t0 = time.perf_counter()
    records = load_records(entries, folds, args)
    featurize(records, {n for n in args.drop.split(",") if n}, frozenset(n for n in args.strip.split(",") if n))
    print(f"{len(records)} pages in {time.perf_counter() - t0:.0f}s", file=sys.stderr)
    if args.output:
        model = train(records, args)
        Path(args.output).write_text(model.to_json(), encoding="utf-8")
        print(f"model written to {args.output} ({Path(args.output).stat().st_size} bytes)", file=sys.stderr)
        if args.no_cv:
            return 0
    sets = {n: set_entries(entries, n) for n in SETS}
    wanted = {page_id(e) for es in sets.values() for e in es}
    mine = [r for r in records if r["id"] in wanted]
    full = train(records, args)
    results = {}
    base = {r["id"]: (r["layout"], r["gold"]) for r in mine}
    oracle = {r["id"]: (r["region_lt"] if r["f1_region"] > r["f1_layout"] else r["layout"], r["gold"]) for r in mine}
    results["layout"] = figures(base, sets, folds)
    fold_models = [train([r for r in records if r["fold"] != k], args) for k in range(len(folds))]
    for name, gated, edges in (("choice", True, True), ("choice-all", False, True), ("choice-edges", True, False)):
        per_fold = [choices([r for r in mine if r["fold"] == k], fold_models[k], args.threshold, gated, edges)
                    for k in range(len(folds))]
        results[name] = figures(choices(mine, full, args.threshold, gated, edges), sets, folds, per_fold)
    results["oracle"] = figures(oracle, sets, folds)
    for name, es in sets.items():
        ids = {page_id(e) for e in es}
        part = [r for r in records if r["id"] in ids]
        runs, matched = region_runs(part, full, args.threshold)
        alone = sum(short(r["x"]) for r in part if r["x"] is not None)
        print(f"gate, {name}: region runs on {runs} of {matched} matched pages (short text alone: {alone})",
              file=sys.stderr)
    print_tables(results, args.folds, args.per_fold)
    return 0


if __name__ == "__main__":
    sys.exit(main())
