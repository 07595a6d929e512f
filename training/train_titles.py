#!/usr/bin/env python3
"""Train the learned choice among a page's titles (:mod:`newsstemmer.metadata.titles`) and
measure it against the rules by site-grouped CV.

Every page whose gold has a title (fundus-recent, misinfo, wcxb-dev, readability) gives
one row per distinct title it offers (:func:`newsstemmer.metadata.fields.title_candidates`,
the same text from several sources being one row; the columns are
:data:`newsstemmer.metadata.titles.FEATURES`: which
sources give it, how many, the rules chose it, its length, how it stands to the headline
``<h1>`` (the same, a kicker before it, a tail after it, a shorter form of it, the word
overlap), separators, the site's own words; none depends on a language's words),
labelled 1 where it is the gold (normalised exact, as ``benchmarks/metadata.py`` scores).
On each page the best-scored title replaces the rules' choice where its score beats the
rules' by more than a margin.  Five site-grouped folds (``benchmarks/shared/folds.py``,
every set together) give each page scores from a model trained without its site; printed
per set: rules, model under CV, oracle (a candidate is the gold), pages won and lost.

    python training/train_titles.py [--data-file /tmp/titles.pkl] [--seeds 3]
                                    [--margins 0,0.1,0.2] [-v]
    python training/train_titles.py --no-cv -o newsstemmer/models/titles.json   # (rebuild.py's step)
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import numpy as np

if __name__ == "__main__" and not __package__:  # run as a file: import from the checkout's root
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from benchmarks.shared import Entry, cached, add_data_option, data_dir, grouped_folds, load_manifest, page_id, site_groups

from newsstemmer.dom.parse import HTMLParseError
from training.trees_export import from_lightgbm

from newsstemmer.evaluation import normalise_title
from newsstemmer.metadata import page_facts
from newsstemmer.metadata.fields import page_titles
from newsstemmer.metadata.titles import FEATURES, MARGIN, preferred, title_rows
from newsstemmer.page import Page

TITLE_SETS = ("fundus-recent", "misinfo", "wcxb-dev", "readability")
PARAMS: dict[str, Any] = dict(objective="binary", learning_rate=0.05, num_leaves=7, min_data_in_leaf=10,
                              feature_fraction=0.8, bagging_fraction=0.8, bagging_freq=1, lambda_l2=1.0,
                              verbose=-1, seed=0, num_threads=1, deterministic=True, force_row_wise=True)
ROUNDS = 200
FOLDS = 5


def page_rows(e: Entry) -> dict[str, Any] | None:
    """One page's candidates, rows, labels and whether the rules' title is the gold."""
    try:
        page = Page(e.html(), url=e.url)
        facts = page_facts(page.tree, page.html)
    except (HTMLParseError, ValueError, RecursionError):
        return None
    host = urlsplit(e.url or "").hostname or ""
    candidates, rules, site = page_titles(facts, host)
    keys, _, rows = title_rows(candidates, rules, site, host)
    gold = normalise_title(e.meta["title"])
    return {"id": page_id(e), "dataset": e.dataset, "x": rows, "keys": keys,
            "y": [float(k == gold) for k in keys], "rules": float(normalise_title(rules) == gold)}


def build(entries: list[Entry]) -> list[dict[str, Any]]:
    groups = site_groups(entries)
    out = []
    for e, group in zip(entries, groups):
        if e.dataset in TITLE_SETS and (e.meta or {}).get("title"):
            row = page_rows(e)
            if row is not None:
                row["group"] = group
                out.append(row)
    return out


def train(pages: list[dict[str, Any]], seed: int = 0) -> Any:
    import lightgbm as lgb

    X = np.array([x for p in pages for x in p["x"]], dtype=float).reshape(-1, len(FEATURES))
    y = np.array([v for p in pages for v in p["y"]], dtype=float)
    return lgb.train(dict(PARAMS, seed=seed), lgb.Dataset(X, y, feature_name=list(FEATURES)), num_boost_round=ROUNDS)


HAS_LD, HAS_OG = FEATURES.index("has_ld"), FEATURES.index("has_og")


def choose(page: dict[str, Any], score: list[float], margin: float) -> float:
    """Whether the page's choice is the gold: the best-scored title where it beats the
    rules' own by more than ``margin``, else the rules'."""
    if not score or not (page["x"][0][HAS_LD] or page["x"][0][HAS_OG]):  # (titles.structured)
        return page["rules"]
    best = preferred(score, page["x"], margin)
    return page["rules"] if best is None else page["y"][best]


def cross_validate(pages: list[dict[str, Any]], entries: list[Entry], seed: int) -> list[list[float]]:
    folds = grouped_folds(entries, FOLDS, seed=0)
    fold_of = {page_id(e): k for k, fold in enumerate(folds) for e in fold}
    out: list[list[float]] = [[] for _ in pages]
    for k in range(FOLDS):
        booster = train([p for p in pages if fold_of[p["id"]] != k], seed)
        for i, p in enumerate(pages):
            if fold_of[p["id"]] == k and p["x"]:
                out[i] = [float(v) for v in booster.predict(np.array(p["x"], dtype=float))]
    return out


def report(pages: list[dict[str, Any]], model: list[float], label: str) -> None:
    by_set: dict[str, list[int]] = defaultdict(list)
    for i, p in enumerate(pages):
        by_set[p["dataset"]].append(i)
    print(f"| set | pages | rules | {label} | oracle | won | lost |")
    print("|---|---|---|---|---|---|---|")
    for ds in TITLE_SETS:
        idx = by_set.get(ds, [])
        if idx:
            print(f"| {ds} | {len(idx)} | {np.mean([pages[i]['rules'] for i in idx]):.3f} | "
                  f"{np.mean([model[i] for i in idx]):.3f} | "
                  f"{np.mean([max(pages[i]['y'] + [pages[i]['rules']]) for i in idx]):.3f} | "
                  f"{sum(model[i] > pages[i]['rules'] for i in idx)} | {sum(model[i] < pages[i]['rules'] for i in idx)} |")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_data_option(ap)
    ap.add_argument("--data-file", help="keep the candidate rows in this pickle")
    ap.add_argument("--seeds", type=int, default=1)
    ap.add_argument("--margins", type=lambda v: [float(x) for x in v.split(",")], default=[MARGIN])
    ap.add_argument("-v", "--verbose", action="store_true", help="list the pages the first margin's choice changes")
    ap.add_argument("--no-cv", action="store_true", help="skip the cross-validation")
    ap.add_argument("-o", "--output", help="train on every page and write the model (kind titles) here")
    args = ap.parse_args(argv)
    entries = load_manifest(data_dir(args.data))
    pages = cached(args.data_file, lambda: build(entries), "title candidate rows")
    print(f"{len(pages)} pages, {sum(len(p['x']) for p in pages)} candidates, {len(FEATURES)} features", flush=True)
    for seed in range(0 if args.no_cv else args.seeds):
        cv = cross_validate(pages, entries, seed)
        for margin in args.margins:
            report(pages, [choose(p, v, margin) for p, v in zip(pages, cv)], f"CV seed {seed} margin {margin}")
        if args.verbose:
            for p, v in zip(pages, cv):
                got = choose(p, v, args.margins[0])
                if got != p["rules"]:
                    print(f"  {got - p['rules']:+.0f} {p['id']} -> {p['keys'][int(np.argmax(v))]!r}")
    if args.output:
        booster = train(pages)
        report(pages, [choose(p, [float(s) for s in booster.predict(np.array(p["x"], dtype=float))] if p["x"] else [],
                              args.margins[0]) for p in pages], "model dev")
        model = from_lightgbm(booster.dump_model(), FEATURES, kind="titles")
        model.info.update({"rounds": ROUNDS, "pages": len(pages), "margin": args.margins[0]})
        Path(args.output).write_text(model.to_json(), encoding="utf-8")
        print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
