#!/usr/bin/env python3
"""Train a learned choice among a page's author candidates and measure it against the rules.

Every page whose gold names its authors (fundus-recent, misinfo, wcxb-dev, readability)
gives one row per author candidate (:func:`newsstemmer.metadata.fields.author_candidates`;
the columns are :data:`FEATURES`: the candidate's kind and place, the shape of its names,
how many other candidates agree with it, whether the rules chose it), labelled with the
candidate's F1 against the gold (a soft label: LightGBM's cross-entropy).  On each page
the best-scored candidate is the choice where its score beats the rules' choice by more
than ``--margins`` (each margin measured).  Five site-grouped folds
(``benchmarks/shared/folds.py``) give each page scores from a model trained without its
site; printed per set: the rules' F1, the model's under CV, the oracle's (the best
candidate of each page) and the pages the model wins and loses against the rules.

Measured in session 18 and not shipped (benchmarks/README.md, "Article metadata"): under
CV it gains on wcxb-dev and misinfo but not on fundus-recent.  ``-o FILE`` trains on
every page and writes a tree model (kind ``authors``) that the package does not load.

    python training/train_authors.py [--data-file /tmp/authors.pkl] [--no-cv] [--seeds 3]
                                     [--margins 0,0.1,0.2] [-v] [-o FILE]
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import numpy as np

if __name__ == "__main__" and not __package__:  # run as a file: import from the checkout's root
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from benchmarks.shared import Entry, cached, add_data_option, data_dir, grouped_folds, load_manifest, page_id, site_groups
from training.trees_export import from_lightgbm

from newsstemmer.dom.parse import HTMLParseError
from newsstemmer.evaluation import author_f1
from newsstemmer.metadata import article_metadata, page_facts
from newsstemmer.metadata.fields import CANDIDATE_KINDS, author_candidates, house_test
from newsstemmer.metadata.people import is_handle, name_like, plausible_name
from newsstemmer.page import Page

#: the sets whose gold names a page's authors
AUTHOR_SETS = ("fundus-recent", "misinfo", "wcxb-dev", "readability")
PARAMS: dict[str, Any] = dict(objective="cross_entropy", learning_rate=0.05, num_leaves=7, min_data_in_leaf=10,
                              feature_fraction=0.8, bagging_fraction=0.8, bagging_freq=1, lambda_l2=1.0,
                              verbose=-1, seed=0, num_threads=1, deterministic=True, force_row_wise=True)
ROUNDS = 200
FOLDS = 5

#: the candidate kinds (:data:`.fields.CANDIDATE_KINDS`), one column each
_KINDS = CANDIDATE_KINDS
FEATURES: tuple[str, ...] = (
    *(f"kind_{k}" for k in _KINDS),
    "place",  # index among the page's non-empty candidates (0: read first)
    "place_of_kind",  # index among the candidates of its own kind
    "rules_choice",  # the rules chose these names
    "names",  # how many names
    "words",  # mean words a name
    "chars",  # longest name's length
    "all_handles", "all_name_like", "all_plausible", "any_digit", "all_caps", "house",
    "agree",  # other candidates (of other kinds) sharing a name with it
    "agree_exact",  # other candidates giving the very same names
    "candidates",  # non-empty candidates on the page
    "distinct",  # distinct name lists on the page
    "has_structured",  # the page has a JSON-LD, meta or microdata candidate
    "has_thread",  # the page has a thread candidate
)
_DIGIT = re.compile(r"\d")


def _key(name: str) -> str:
    return " ".join(name.lower().split())


def candidate_rows(candidates: Sequence[tuple[list[str], str, str]], chosen: list[str],
                   house: Callable[[str], bool]) -> list[list[float]]:
    """One row of :data:`FEATURES` per candidate (the empty ones included, all zeros but
    their kind: they are never chosen); ``chosen`` the rules' names, ``house`` the test
    of a site's own name (:func:`newsstemmer.metadata.fields.house_test`)."""
    filled = [c for c in candidates if c[0]]
    keys = [frozenset(_key(n) for n in c[0]) for c in candidates]
    kinds_of = [c[2] for c in candidates]
    chosen_key = frozenset(_key(n) for n in chosen)
    structured = float(any(k in ("ld", "ld-thread", "meta", "microdata") for k, c in zip(kinds_of, candidates) if c[0]))
    thread = float(any(k == "thread" for k, c in zip(kinds_of, candidates) if c[0]))
    distinct = float(len({k for k, c in zip(keys, candidates) if c[0]}))
    rows: list[list[float]] = []
    place = 0
    seen: dict[str, int] = {}
    for i, (names, _, kind) in enumerate(candidates):
        row = [float(kind == k) for k in _KINDS]
        if not names:
            rows.append(row + [0.0] * (len(FEATURES) - len(_KINDS)))
            continue
        key = keys[i]
        agree = sum(1 for j, other in enumerate(keys) if j != i and kinds_of[j] != kind and other & key)
        exact = sum(1 for j, other in enumerate(keys) if j != i and other == key)
        row += [float(place), float(seen.get(kind, 0)), float(key == chosen_key), float(len(names)),
                sum(len(n.split()) for n in names) / len(names), float(max(len(n) for n in names)),
                float(all(is_handle(n) for n in names)), float(all(name_like(n) for n in names)),
                float(all(plausible_name(n) for n in names)), float(any(_DIGIT.search(n) for n in names)),
                float(all(n.isupper() for n in names)), float(any(house(n) for n in names)),
                float(agree), float(exact), float(len(filled)), distinct, structured, thread]
        rows.append(row)
        place += 1
        seen[kind] = seen.get(kind, 0) + 1
    return rows


def author_candidate_rows(tree: Any, url: str | None, html: str
                          ) -> tuple[list[tuple[list[str], str, str]], list[list[float]], list[str]]:
    """Every author candidate of a page (all sources read), its row of :data:`FEATURES`,
    and the names the rules choose (:func:`newsstemmer.metadata.article_metadata`)."""
    facts = page_facts(tree, html)
    chosen = article_metadata(tree, url, html=html).authors
    candidates = list(author_candidates(facts, tree))
    return candidates, candidate_rows(candidates, chosen, house_test(facts, urlsplit(url or "").hostname or "")), chosen


def page_rows(e: Entry) -> dict[str, Any] | None:
    """One page's candidates, rows, labels and the rules' F1; None where it cannot be read."""
    try:
        page = Page(e.html(), url=e.url)
        candidates, rows, rules = author_candidate_rows(page.tree, e.url, page.html)
    except (HTMLParseError, ValueError, RecursionError):
        return None
    gold = e.meta["authors"]
    return {"id": page_id(e), "dataset": e.dataset, "x": rows, "names": [c[0] for c in candidates],
            "y": [author_f1(c[0], gold) if c[0] else 0.0 for c in candidates], "rules": author_f1(rules, gold)}


def build(entries: list[Entry]) -> list[dict[str, Any]]:
    """Every readable page's rows (pages whose gold names authors), with its site group."""
    groups = site_groups(entries)
    out = []
    for e, group in zip(entries, groups):
        if e.dataset in AUTHOR_SETS and (e.meta or {}).get("authors"):
            row = page_rows(e)
            if row is not None:
                row["group"] = group
                out.append(row)
    return out


def stack(pages: list[dict[str, Any]]) -> tuple[np.ndarray, np.ndarray]:
    """The non-empty candidates' rows and labels of ``pages``, one matrix."""
    X = [x for p in pages for x, names in zip(p["x"], p["names"]) if names]
    y = [v for p in pages for v, names in zip(p["y"], p["names"]) if names]
    return np.array(X, dtype=float).reshape(-1, len(FEATURES)), np.array(y, dtype=float)


def train(pages: list[dict[str, Any]], seed: int = 0) -> Any:
    """A LightGBM booster over the candidates of ``pages`` (deterministic)."""
    import lightgbm as lgb

    X, y = stack(pages)
    ds = lgb.Dataset(X, y, feature_name=list(FEATURES), free_raw_data=False)
    return lgb.train(dict(PARAMS, seed=seed), ds, num_boost_round=ROUNDS)


def scores(booster: Any, page: dict[str, Any]) -> list[float]:
    """The model's score of each candidate of ``page`` (-1 for the empty ones)."""
    filled = [i for i, names in enumerate(page["names"]) if names]
    out = [-1.0] * len(page["names"])
    if filled:
        for i, v in zip(filled, booster.predict(np.array([page["x"][i] for i in filled], dtype=float))):
            out[i] = float(v)
    return out


#: the column that says the rules chose a candidate
RULES_COLUMN = FEATURES.index("rules_choice")


def choose(page: dict[str, Any], score: list[float], margin: float = 0.0) -> float:
    """The F1 of the page's choice: the best-scored candidate where it beats the rules'
    own choice by more than ``margin`` (else the rules' names)."""
    if not score or max(score) < 0:
        return page["rules"]
    best = int(np.argmax(score))
    ruled = [score[i] for i, x in enumerate(page["x"]) if page["names"][i] and x[RULES_COLUMN]]
    if ruled and score[best] <= max(ruled) + margin:
        return page["rules"]
    return page["y"][best]


def cross_validate(pages: list[dict[str, Any]], entries: list[Entry], seed: int = 0) -> list[list[float]]:
    """Each page's candidate scores by a model trained without its fold's sites."""
    folds = grouped_folds(entries, FOLDS, seed=0)
    fold_of = {page_id(e): k for k, fold in enumerate(folds) for e in fold}
    out: list[list[float]] = [[] for _ in pages]
    for k in range(FOLDS):
        booster = train([p for p in pages if fold_of[p["id"]] != k], seed)
        for i, p in enumerate(pages):
            if fold_of[p["id"]] == k:
                out[i] = scores(booster, p)
    return out


def report(pages: list[dict[str, Any]], model: list[float], label: str) -> dict[str, dict[str, float]]:
    """Print and return per set: rules, model, oracle, and pages won / lost against the rules."""
    by_set: dict[str, list[int]] = defaultdict(list)
    for i, p in enumerate(pages):
        by_set[p["dataset"]].append(i)
    out = {}
    print(f"| set | pages | rules | {label} | oracle | won | lost |")
    print("|---|---|---|---|---|---|---|")
    for ds in AUTHOR_SETS:
        idx = by_set.get(ds, [])
        if not idx:
            continue
        rules = float(np.mean([pages[i]["rules"] for i in idx]))
        mine = float(np.mean([model[i] for i in idx]))
        oracle = float(np.mean([max(pages[i]["y"] + [pages[i]["rules"]]) for i in idx]))
        won = sum(model[i] > pages[i]["rules"] + 1e-9 for i in idx)
        lost = sum(model[i] < pages[i]["rules"] - 1e-9 for i in idx)
        print(f"| {ds} | {len(idx)} | {rules:.3f} | {mine:.3f} | {oracle:.3f} | {won} | {lost} |")
        out[ds] = {"rules": rules, "model": mine, "oracle": oracle}
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_data_option(ap)
    ap.add_argument("--data-file", help="keep the candidate rows in this pickle (rebuilt when the code changed)")
    ap.add_argument("--no-cv", action="store_true", help="skip the cross-validation")
    ap.add_argument("--seeds", type=int, default=1, help="CV with this many LightGBM seeds (the spread)")
    ap.add_argument("--margins", type=lambda v: [float(x) for x in v.split(",")], default=[0.0],
                    help="the model's choice must beat the rules' by more than this (comma-separated: each measured)")
    ap.add_argument("-v", "--verbose", action="store_true", help="list the pages the first margin's choice changes")
    ap.add_argument("-o", "--output", help="train on every page and write the model here")
    args = ap.parse_args(argv)
    entries = load_manifest(data_dir(args.data))
    pages = cached(args.data_file, lambda: build(entries), "author candidate rows")
    n = sum(len([x for x in p["names"] if x]) for p in pages)
    print(f"{len(pages)} pages, {n} candidates, {len(FEATURES)} features", flush=True)
    if not args.no_cv:
        for seed in range(args.seeds):
            cv = cross_validate(pages, entries, seed)
            for margin in args.margins:
                report(pages, [choose(p, v, margin) for p, v in zip(pages, cv)], f"CV seed {seed} margin {margin}")
            if args.verbose:
                for p, v in zip(pages, cv):
                    got = choose(p, v, args.margins[0])
                    if abs(got - p["rules"]) > 1e-9:
                        best = int(np.argmax(v))
                        print(f"  {got - p['rules']:+.2f} {p['id']} -> {p['names'][best]}")
    if args.output:
        booster = train(pages)
        report(pages, [choose(p, scores(booster, p), args.margins[0]) for p in pages], "model dev")
        model = from_lightgbm(booster.dump_model(), FEATURES, kind="authors")
        model.info.update({"rounds": ROUNDS, "pages": len(pages)})
        Path(args.output).write_text(model.to_json(), encoding="utf-8")
        print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
