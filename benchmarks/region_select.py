#!/usr/bin/env python3
"""A learned choice, per page, of the text the region extractor returns (nested CV).

The region extractor (``newsstemmer.decision.regional``) can return (a) its learned
text (the ranker's region with PageRank's and the learned cleaning), (b) PageRank's
own region and cleaning, or (c) the chosen region with PageRank's cleaning only.  A
hand-set guard returns (b) when (a) keeps under 30% of (b)'s characters.  This script
measures choices learned from a page-level row (``SELECT_FEATURES``) without leakage:

* ``collect``: for each fold deal and model seed, the region and cleaning models are
  trained without each outer fold k (as ``region_losses.py`` does) and without each
  pair of folds {j, k}; every page of fold j gets its three texts' shingle P/R and its
  row from the models without {j} (the outer *test* records of fold j) and from those
  without {j, k} for each k != j (fold k's *inner* records: out-of-fold outputs of
  models that never saw fold k, to train fold k's selector on).
* ``eval``: per outer fold, each policy is fitted on the fold's inner records only and
  applied to its test records; per set the CV F1 is ``region_losses.py``'s (mean over
  folds of the pooled F1, mean over deals and seeds).

    python benchmarks/region_select.py collect --data-file /tmp/guard-rd.pkl -o /tmp/guard-sel.pkl
        [--seeds 0,1,2] [--seed 0,1,2]     (~8 min: 15 model pairs per deal and seed)
    python benchmarks/region_select.py eval -i /tmp/guard-sel.pkl [--policies learned,guard-0.3,...]

Policies (``POLICIES``): fixed options, the hand-set guard, a threshold on one row
feature fitted on the inner records (most page F1 gained), LightGBM regressions of each
alternative's F1 gain, LightGBM binary models of "the alternative scores more" weighted
by the F1 at stake (``binary-*``), on the page row alone or ``wide`` (with the region
rows of the chosen candidate and PageRank's element and their difference), and one
stacked binary model for both alternatives.  Figures: benchmarks/README.md, "A learned
choice of the returned text" (none kept: the guard stays hand-set).
"""

from __future__ import annotations

import argparse
import math
import pickle
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from _common import data_dir, load_manifest, prediction
from cv import SINGLE_SETS, page_id, set_of_pages
from folds import grouped_folds, site_groups
from train_region import build_parser, extractors, f1_of, load_rows, row_id, train_models

from newsstemmer.decision.region import REGION_FEATURES, RegionView
from newsstemmer.decision.regional import RegionExtractor
from newsstemmer.evaluation import shingle_prf
from newsstemmer.single.pagerank import (
    PageRankAnalysis,
    pagerank_analysis,
    region_paragraphs,
)

OPTIONS = ("learned", "own", "chosen")

#: The columns of a page's row for the choice between the three texts, in order.
SELECT_FEATURES: tuple[str, ...] = (
    "kept_share",  # share of PageRank's own text (characters of its lines) the learned text keeps
    "learned_vs_own",  # characters of the learned text / of PageRank's own
    "chosen_vs_own",  # characters of the chosen region with PageRank's cleaning / of PageRank's own
    "clean_removed",  # share of the chosen region's text the learned cleaning left out
    "moved",  # the chosen region is not PageRank's main element
    "chosen_inside",  # ... and lies inside it
    "chosen_contains",  # ... and contains it
    "score_margin",  # ranker score of the chosen candidate minus PageRank's element's
    "score_chosen",
    "candidates",
    "log_own_chars",
    "log_learned_chars",
    "own_lines",
    "learned_lines",
    "chosen_p_share",  # the chosen candidate's share of characters in <p>
    "chosen_link_density",
    "main_p_share",
    "main_link_density",
)
_P_SHARE, _LINKS = REGION_FEATURES.index("p_chars_share"), REGION_FEATURES.index("link_density")


@dataclass
class PageOutputs:
    """The texts the extractor can return for a page, the page's SELECT_FEATURES row and
    the region rows of the chosen candidate and of PageRank's element."""

    learned: list[str]  # the chosen region with PageRank's and the learned cleaning
    own: list[str]  # PageRank's own region and cleaning
    chosen: list[str]  # the chosen region with PageRank's cleaning only
    features: np.ndarray
    regions: np.ndarray


def page_outputs(ex: RegionExtractor, an: PageRankAnalysis) -> PageOutputs:
    """The three texts of a page (PageRank found a main element) and its rows."""
    view = RegionView.of(an)
    region, X, s_chosen, s_main, n = ex.ranked_region(view)
    learned = region_paragraphs(an, region, ex.left_out(view, region))
    own = region_paragraphs(an, an.main)
    chosen = own if region == an.main else region_paragraphs(an, region)
    own_chars = sum(map(len, own))
    found = set(learned)
    kept = sum(len(line) for line in own if line in found)
    learned_chars, chosen_chars = sum(map(len, learned)), sum(map(len, chosen))
    main, size = an.main, view.size
    row = np.array([
        kept / own_chars if own_chars else 1.0,
        learned_chars / own_chars if own_chars else 1.0,
        chosen_chars / own_chars if own_chars else 1.0,
        1.0 - learned_chars / chosen_chars if chosen_chars else 0.0,
        float(region != main),
        float(region != main and main <= region < main + size[main]),
        float(region != main and region <= main < region + size[region]),
        s_chosen - s_main,
        s_chosen,
        float(n),
        math.log1p(own_chars),
        math.log1p(learned_chars),
        float(len(own)),
        float(len(learned)),
        X[0, _P_SHARE],
        X[0, _LINKS],
        X[1, _P_SHARE],
        X[1, _LINKS],
    ])
    return PageOutputs(learned, own, chosen, row, X)


def collect(args: argparse.Namespace) -> int:
    rows = load_rows(Path(args.data_file))
    entries = load_manifest(data_dir(args.data))
    groups = dict(zip((page_id(e) for e in entries), site_groups(entries)))
    names = [n for n in args.datasets.split(",") if n]
    set_of = set_of_pages(entries, names)
    deals = [int(d) for d in args.seed.split(",") if d]
    seeds = [int(s) for s in args.seeds.split(",") if s]
    K = args.folds
    out: list[dict] = []
    t0 = time.perf_counter()
    for d in deals:
        folds = grouped_folds(entries, K, d)
        fold_of = {page_id(e): k for k, fold in enumerate(folds) for e in fold}
        held = [{groups[page_id(e)] for e in fold} for fold in folds]
        exs: dict = {}
        for s in seeds:
            targs = build_parser().parse_args(["--model-seed", str(s), *args.train_args])
            for j in range(K):
                for k in range(j, K):
                    out_groups = held[j] | held[k]
                    region, clean = train_models([r for r in rows if groups[row_id(r)] not in out_groups], targs)
                    exs[s, j, k] = exs[s, k, j] = extractors(region, clean, ["both"])["both"]
            print(f"[deal {d} seed {s}] trained ({time.perf_counter() - t0:.0f}s)", file=sys.stderr, flush=True)
        for n, e in enumerate(entries):
            pid = page_id(e)
            j = fold_of[pid]
            gold = e.gold()
            try:
                an = pagerank_analysis(e.html(), e.url, text=False)
            except Exception:  # noqa: BLE001 (an unreadable page predicts nothing, as in train_region.py)
                an = None
            cache: dict = {}

            def prf(lines: list[str], cache=cache, an=an, e=e, gold=gold) -> tuple:
                body = "\n".join(lines)
                if body not in cache:
                    cache[body] = shingle_prf(prediction(an.result.title, body, e.gold_has_title), gold)
                return cache[body]

            for s in seeds:
                for k in range(K):
                    role = "test" if k == j else "inner"
                    if role == "test" and pid not in set_of:
                        continue
                    rec = {"id": pid, "set": set_of.get(pid), "deal": d, "seed": s, "fold": k, "role": role}
                    if an is None or an.main < 0:
                        rec["pr"] = {o: (None, 0.0) for o in OPTIONS}
                        rec["X"] = None
                    else:
                        o = page_outputs(exs[s, j, k], an)
                        rec["pr"] = {"learned": prf(o.learned), "own": prf(o.own), "chosen": prf(o.chosen)}
                        rec["X"] = o.features
                        rec["regions"] = o.regions.astype(np.float32)
                    out.append(rec)
            if n % 200 == 0:
                print(f"[deal {d}] {n}/{len(entries)} pages ({time.perf_counter() - t0:.0f}s)", file=sys.stderr,
                      flush=True)
        Path(args.output).write_bytes(pickle.dumps({"features": SELECT_FEATURES, "records": out}))
        print(f"[deal {d}] {len(out)} records -> {args.output}", file=sys.stderr, flush=True)
    return 0


# --- policies: fitted on one outer fold's inner records, they choose an option per test record


def _usable(recs: list[dict], sets_only: bool = False) -> list[dict]:
    """Records with a row (PageRank found a main element); ``sets_only``: of the measured
    sets' pages only (not cleanportal's or dragnet's multi-page sites')."""
    return [r for r in recs if r["X"] is not None and (r["set"] is not None or not sets_only)]


def _row(r: dict, wide: bool) -> np.ndarray:
    """A record's row: its SELECT_FEATURES, and (``wide``) the region rows of the chosen
    candidate and of PageRank's element and their difference."""
    if not wide:
        return r["X"]
    a, b = r["regions"]
    return np.concatenate([r["X"], a, b, a - b])


def _gains(recs: list[dict], wide: bool = False) -> tuple[np.ndarray, np.ndarray]:
    X = np.vstack([_row(r, wide) for r in recs])
    F = np.array([[f1_of(*r["pr"][o]) for o in OPTIONS] for r in recs])
    return X, F


def policy_fixed(option: str):
    def fit(inner):
        return lambda X: np.full(len(X), OPTIONS.index(option))
    return fit


def policy_guard(share: float):
    col = SELECT_FEATURES.index("kept_share")

    def fit(inner):
        return lambda X: np.where(X[:, col] < share, 1, 0)
    return fit


def policy_threshold(feature: str = "kept_share", option: int = 1, below: bool = True, sets_only: bool = False):
    """``option`` when ``feature`` < t (``below``; else > t), t chosen on the inner records
    (most page F1 gained over the learned text; none: t = 0 below, 1 above)."""
    col = SELECT_FEATURES.index(feature)
    grid = np.round(np.arange(0.0, 1.001, 0.025), 3)

    def fit(inner):
        X, F = _gains(_usable(inner, sets_only))
        gain = F[:, option] - F[:, 0]
        v = X[:, col] if below else -X[:, col]
        best_t, best = (0.0 if below else -1.0), 0.0
        for t in (grid if below else -grid[::-1]):
            g = gain[v < t].sum()
            if g > best + 1e-9:
                best_t, best = t, g
        fit.chosen.append(best_t)
        return lambda Xt: np.where((Xt[:, col] if below else -Xt[:, col]) < best_t, option, 0)
    fit.chosen = []
    return fit


def _chooser(models: list, margin: float, raw: bool):
    """Per page, the alternative whose model predicts most, if past ``margin``; else 0 (the learned text)."""
    alts = np.array([o for o, _ in models])

    def choose(Xt):
        preds = np.column_stack([m.predict(Xt, raw_score=raw) for _, m in models])
        return np.where(preds.max(axis=1) > margin, alts[preds.argmax(axis=1)], 0)
    return choose


def policy_trees(options=(0, 1), rounds: int = 60, leaves: int = 4, min_leaf: int = 40, margin: float = 0.0,
                 lr: float = 0.05, seed: int = 0, sets_only: bool = False, wide: bool = False):
    """A LightGBM regression per alternative option of its F1 gain over the learned text;
    the alternative of highest predicted gain when that passes ``margin``."""
    import lightgbm as lgb

    def fit(inner):
        X, F = _gains(_usable(inner, sets_only), wide)
        models = []
        for o in options[1:]:
            params = dict(objective="regression", learning_rate=lr, num_leaves=leaves, min_data_in_leaf=min_leaf,
                          feature_fraction=0.8, bagging_fraction=0.8, bagging_freq=1, lambda_l2=1.0, seed=seed,
                          deterministic=True, num_threads=1, verbose=-1)
            models.append((o, lgb.train(params, lgb.Dataset(X, F[:, o] - F[:, 0]), rounds)))

        return _chooser(models, margin, raw=False)
    fit.wide = wide
    return fit


def policy_binary(options=(0, 1), rounds: int = 60, leaves: int = 4, min_leaf: int = 40, margin: float = 0.0,
                  lr: float = 0.05, seed: int = 0, sets_only: bool = False, wide: bool = False):
    """Per alternative option, a LightGBM binary model of "it scores more than the learned
    text", each page weighted by the F1 at stake (|gain|): its log-odds > 0 is the choice
    of most F1 gained in expectation; the alternative of highest log-odds past ``margin``."""
    import lightgbm as lgb

    def fit(inner):
        X, F = _gains(_usable(inner, sets_only), wide)
        models = []
        for o in options[1:]:
            g = F[:, o] - F[:, 0]
            keep = np.abs(g) > 1e-6
            params = dict(objective="binary", learning_rate=lr, num_leaves=leaves, min_data_in_leaf=min_leaf,
                          min_sum_hessian_in_leaf=1e-3, feature_fraction=0.8, bagging_fraction=0.8, bagging_freq=1,
                          lambda_l2=1.0, seed=seed, deterministic=True, num_threads=1, verbose=-1)
            ds = lgb.Dataset(X[keep], (g[keep] > 0).astype(float), weight=np.abs(g[keep]))
            models.append((o, lgb.train(params, ds, rounds)))

        return _chooser(models, margin, raw=True)
    fit.wide = wide
    return fit


def stacked_rows(X: np.ndarray, options=(1, 2)) -> np.ndarray:
    """Each page row once per alternative option, with a last column naming it (0: PageRank's
    own text, 1: the chosen region with PageRank's cleaning)."""
    return np.vstack([np.column_stack([X, np.full(len(X), float(o - 1))]) for o in options])


def policy_stacked(rounds: int = 150, leaves: int = 8, min_leaf: int = 20, margin: float = 0.0, lr: float = 0.05,
                   seed: int = 0):
    """One binary model for both alternatives (the option a column of the row), as
    :func:`policy_binary` with ``wide`` rows: what ``train_region.py`` ships."""
    import lightgbm as lgb

    def fit(inner):
        X, F = _gains(_usable(inner), True)
        g = np.concatenate([F[:, 1] - F[:, 0], F[:, 2] - F[:, 0]])
        Xs = stacked_rows(X)
        keep = np.abs(g) > 1e-6
        params = dict(objective="binary", learning_rate=lr, num_leaves=leaves, min_data_in_leaf=min_leaf,
                      min_sum_hessian_in_leaf=1e-3, feature_fraction=0.8, bagging_fraction=0.8, bagging_freq=1,
                      lambda_l2=1.0, seed=seed, deterministic=True, num_threads=1, verbose=-1)
        model = lgb.train(params, lgb.Dataset(Xs[keep], (g[keep] > 0).astype(float), weight=np.abs(g[keep])), rounds)

        def choose(Xt):
            s = model.predict(stacked_rows(Xt), raw_score=True).reshape(2, len(Xt)).T
            best = s.argmax(axis=1)
            return np.where(s.max(axis=1) > margin, best + 1, 0)
        return choose
    fit.wide = True
    return fit


def evaluate(records: list[dict], fit, names: list[str]) -> dict[str, float]:
    """Per set, the CV F1 of the policy (mean over runs of the mean over folds of pooled F1)."""
    by_run: dict = {}
    for r in records:
        by_run.setdefault((r["deal"], r["seed"]), []).append(r)
    cvs: dict[str, list[float]] = {n: [] for n in names}
    for recs in by_run.values():
        folds = sorted({r["fold"] for r in recs})
        per_set: dict = {n: {} for n in names}
        for k in folds:
            inner = [r for r in recs if r["fold"] == k and r["role"] == "inner"]
            test = [r for r in recs if r["fold"] == k and r["role"] == "test"]
            choose = fit(inner)
            usable = [r for r in test if r["X"] is not None]
            wide = getattr(fit, "wide", False)
            picks = dict(zip(map(id, usable), choose(np.vstack([_row(r, wide) for r in usable])))) if usable else {}
            for r in test:
                if r["set"] not in per_set:
                    continue
                p, rr = r["pr"][OPTIONS[int(picks.get(id(r), 0))]]
                per_set[r["set"]].setdefault(k, []).append((p, rr))
        for n in names:
            fs = []
            for pairs in per_set[n].values():
                ps = [p for p, _ in pairs if p is not None]
                fs.append(f1_of(statistics.mean(ps) if ps else 0.0, statistics.mean(r for _, r in pairs)))
            cvs[n].append(statistics.mean(fs))
    return {n: statistics.mean(v) for n, v in cvs.items()}


POLICIES = {
    "learned": policy_fixed("learned"),
    "guard-0.3": policy_guard(0.3),
    "guard-0": policy_guard(0.0),
    "kept-share": policy_threshold(),
    "kept-share-sets": policy_threshold(sets_only=True),
    "learned-vs-own": policy_threshold("learned_vs_own"),
    "chosen-if-removed": policy_threshold("clean_removed", 2, below=False),
    "chosen-if-removed-sets": policy_threshold("clean_removed", 2, below=False, sets_only=True),
    "trees-own": policy_trees((0, 1)),
    "trees-own-sets": policy_trees((0, 1), sets_only=True),
    "trees-own-chosen": policy_trees((0, 1, 2)),
    "trees-own-chosen-m05": policy_trees((0, 1, 2), margin=0.05),
    "trees-own-chosen-big": policy_trees((0, 1, 2), rounds=150, leaves=8, min_leaf=20),
    "trees-own-chosen-sets": policy_trees((0, 1, 2), sets_only=True),
    "binary-own": policy_binary((0, 1)),
    "binary-own-chosen": policy_binary((0, 1, 2)),
    "binary-own-chosen-m1": policy_binary((0, 1, 2), margin=1.0),
    "binary-own-chosen-small": policy_binary((0, 1, 2), rounds=30, leaves=3, min_leaf=20),
    "binary-own-sets": policy_binary((0, 1), sets_only=True),
    "trees-wide": policy_trees((0, 1, 2), wide=True),
    "trees-wide-big": policy_trees((0, 1, 2), rounds=150, leaves=8, min_leaf=20, wide=True),
    "binary-wide": policy_binary((0, 1, 2), wide=True),
    "binary-wide-big": policy_binary((0, 1, 2), rounds=150, leaves=8, min_leaf=20, wide=True),
    "binary-wide-big-s1": policy_binary((0, 1, 2), rounds=150, leaves=8, min_leaf=20, wide=True, seed=1),
    "binary-wide-big-s2": policy_binary((0, 1, 2), rounds=150, leaves=8, min_leaf=20, wide=True, seed=2),
    "binary-wide-own-big": policy_binary((0, 1), rounds=150, leaves=8, min_leaf=20, wide=True),
    "binary-wide-r100": policy_binary((0, 1, 2), rounds=100, leaves=8, min_leaf=20, wide=True),
    "binary-wide-r250": policy_binary((0, 1, 2), rounds=250, leaves=8, min_leaf=20, wide=True),
    "binary-wide-l15-m10": policy_binary((0, 1, 2), rounds=150, leaves=15, min_leaf=10, wide=True),
    "binary-wide-m40": policy_binary((0, 1, 2), rounds=150, leaves=8, min_leaf=40, wide=True),
    "binary-wide-big-m1": policy_binary((0, 1, 2), rounds=150, leaves=8, min_leaf=20, wide=True, margin=1.0),
    "binary-wide-big-m05": policy_binary((0, 1, 2), rounds=150, leaves=8, min_leaf=20, wide=True, margin=0.5),
    "binary-wide-big-sets": policy_binary((0, 1, 2), rounds=150, leaves=8, min_leaf=20, wide=True, sets_only=True),
    "binary-wide-r60": policy_binary((0, 1, 2), rounds=60, leaves=8, min_leaf=20, wide=True),
    "trees-wide-m02": policy_trees((0, 1, 2), rounds=150, leaves=8, min_leaf=20, wide=True, margin=0.02),
    "stacked": policy_stacked(),
    "stacked-s1": policy_stacked(seed=1),
    "stacked-r100": policy_stacked(rounds=100),
}


def run_eval(args: argparse.Namespace) -> int:
    data = pickle.loads(Path(args.input).read_bytes())
    if tuple(data["features"]) != SELECT_FEATURES:
        sys.exit("error: the records were collected for other features")
    records = data["records"]
    names = [n for n in args.datasets.split(",") if n]
    wanted = [p for p in args.policies.split(",") if p] or list(POLICIES)
    print("| policy | " + " | ".join(names) + " |")
    print("|---|" + "---:|" * len(names))
    for name in wanted:
        res = evaluate(records, POLICIES[name], names)
        print(f"| {name} | " + " | ".join(f"{res[n]:.4f}" for n in names) + " |", flush=True)
        chosen = getattr(POLICIES[name], "chosen", None)
        if chosen:
            print(f"  (thresholds chosen: {sorted(set(chosen))})")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--data-file", default="/tmp/region-data.pkl", help="region_data.py's rows")
    c.add_argument("--data", default=None)
    c.add_argument("--folds", type=int, default=5)
    c.add_argument("--seed", default="0,1,2", help="fold deals")
    c.add_argument("--seeds", default="0,1,2", help="model seeds")
    c.add_argument("-o", "--output", default="/tmp/region-select.pkl")
    c.add_argument("train_args", nargs="*", help="train_region.py options after --")
    ev = sub.add_parser("eval")
    ev.add_argument("-i", "--input", default="/tmp/region-select.pkl")
    ev.add_argument("--policies", default="")
    for p in (c, ev):
        p.add_argument("--datasets", default=",".join(SINGLE_SETS + ("big9",)))
    args = ap.parse_args(argv)
    return collect(args) if args.cmd == "collect" else run_eval(args)


if __name__ == "__main__":
    sys.exit(main())
