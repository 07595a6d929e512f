#!/usr/bin/env python3
"""Train the learned block decision and measure it by site-grouped cross-validation.

Reads the rows ``decision_data.py`` wrote.  With ``--cv`` (the default), for each
of K folds (``folds.py``: no site in two folds, a Big9 site one group across years)
a LightGBM model is trained on the other folds' blocks and applied to the held-out
fold's pages; the script prints, per evaluation set, the mean over folds of the
pooled shingle F1 (P, R), beside the same for DOM PageRank alone.  Multi-page sets
(big9, cleanportal, dragnet >= 5 pages) are extracted with their site's layouts as
evidence, single-page sets without.  ``-o FILE`` trains on every page and writes the
model newsstemmer ships (``newsstemmer/models/decision.json``).

    python benchmarks/train_decision.py [--data-file /tmp/decision-data.pkl]
        [--folds 5] [--seed 0] [--rounds 300] [--leaves 31] [--threshold 0.5]
        [--no-cv] [-o newsstemmer/models/decision.json]
"""

from __future__ import annotations

import argparse
import pickle
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

from _common import data_dir, load_manifest, prediction
from cv import MULTI_SETS, SETS, SINGLE_SETS
from folds import assign_groups

from newsstemmer.decision.dataset import PageRows
from newsstemmer.decision.features import CONTEXT_NAMES, FEATURE_NAMES, context_features
from newsstemmer.decision.model import TreeModel, body_of
from newsstemmer.evaluation import evaluate


def in_set(meta: dict, name: str, sizes: dict) -> bool:
    datasets, min_pages = SETS[name]
    n = sizes[(meta["dataset"], meta["site"])]
    if name.endswith("-single"):
        return meta["dataset"] == name[: -len("-single")] and n == 1
    if meta["dataset"] not in datasets:
        return False
    return n >= min_pages


def single_name(meta: dict, sizes: dict) -> str | None:
    """The single-page set a page belongs to (readability, chaos, dragnet-single)."""
    for name in SINGLE_SETS:
        if name.endswith("-single"):
            if meta["dataset"] == name[: -len("-single")] and sizes[(meta["dataset"], meta["site"])] == 1:
                return name
        elif meta["dataset"] == SETS[name][0][0]:
            return name
    return None


def training_matrix(rows: list[PageRows], args: argparse.Namespace) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Stack the single-page rows of every page and the layout rows where a layout applies."""
    Xs, ys, ws = [], [], []
    for r in rows:
        parts = [r.single]
        if r.layout is not None and not args.single_only:
            parts.append(r.layout)
        for X in parts:
            Xs.append(X)
            ys.append(r.labels >= 0.5)
            tok = np.exp(X[:, FEATURE_NAMES.index("log_weight")]) - 1.0
            if args.weighting == "log":
                ws.append(np.log1p(tok))
            elif args.weighting == "page":
                ws.append(len(tok) * tok / max(tok.sum(), 1.0))
            elif args.weighting == "sqrt":
                ws.append(np.sqrt(tok))
            else:
                ws.append(np.ones(len(tok)))
    return np.vstack(Xs), np.concatenate(ys).astype(np.float32), np.concatenate(ws).astype(np.float32)


def page_matrices(r: PageRows, args: argparse.Namespace) -> list[np.ndarray]:
    parts = [r.single]
    if r.layout is not None and not args.single_only:
        parts.append(r.layout)
    return parts


class Stacked:
    """Stage 1 on block features, stage 2 on block features + stage-1 context."""

    def __init__(self, first: TreeModel, second: TreeModel | None) -> None:
        self.first, self.second = first, second

    def predict_rows(self, X: np.ndarray, r: PageRows) -> np.ndarray:
        p = self.first.predict(X)
        if self.second is None:
            return p
        C = context_features(X, p, r.parents, r.paths)
        return self.second.predict(np.hstack([X, C]))


def train(rows: list[PageRows], args: argparse.Namespace) -> "Stacked":
    first = train_trees(rows, args)
    if not args.stack:
        return Stacked(first, None)
    # Out-of-fold stage-1 predictions for the training pages (inner site-grouped folds).
    groups = sorted({r.meta["group"] for r in rows})
    inner = {g: i % 3 for i, g in enumerate(groups)}
    oof: dict[int, list[np.ndarray]] = {}
    for k in range(3):
        model = train_trees([r for r in rows if inner[r.meta["group"]] != k], args)
        for i, r in enumerate(rows):
            if inner[r.meta["group"]] == k:
                oof[i] = [model.predict(X) for X in page_matrices(r, args)]
    stacked_rows = []
    for i, r in enumerate(rows):
        mats = page_matrices(r, args)
        stacked_rows.append([np.hstack([X, context_features(X, p, r.parents, r.paths)]) for X, p in zip(mats, oof[i])])
    second = train_trees(rows, args, stacked_rows, FEATURE_NAMES + CONTEXT_NAMES)
    return Stacked(first, second)


def train_trees(rows, args, mats=None, names=FEATURE_NAMES) -> TreeModel:
    import lightgbm as lgb

    if mats is None:
        X, y, w = training_matrix(rows, args)
    else:
        X = np.vstack([m for ms in mats for m in ms])
        y = np.concatenate([r.labels >= 0.5 for r, ms in zip(rows, mats) for _ in ms]).astype(np.float32)
        w = np.log1p(np.expm1(X[:, FEATURE_NAMES.index("log_weight")])).astype(np.float32)
    params = {
        "objective": "binary",
        "learning_rate": args.learning_rate,
        "num_leaves": args.leaves,
        "max_depth": args.max_depth,
        "min_data_in_leaf": args.min_leaf,
        "feature_fraction": 0.8,
        "bagging_fraction": 0.8,
        "bagging_freq": 1,
        "lambda_l2": 1.0,
        "seed": args.seed,
        "deterministic": True,
        "num_threads": 1,
        "verbose": -1,
    }
    booster = lgb.train(params, lgb.Dataset(X, y, weight=w, feature_name=list(names)), args.rounds)
    return TreeModel.from_lightgbm(booster.dump_model(), names)


def predict_page(model: TreeModel, r: PageRows, use_layout: bool, threshold: float) -> tuple[str, str]:
    """(title, body) of one page by the model."""
    if use_layout and r.layout is not None:
        p = model.predict(r.layout)
        title = r.layout_title or r.pagerank_title
        return title, body_of(r.static_free or r.texts, p, threshold, title)
    p = model.predict(r.single)
    title = r.pagerank_title
    return title, body_of(r.texts, p, threshold, title)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data-file", default="/tmp/decision-data.pkl")
    ap.add_argument("--data", default=None)
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--rounds", type=int, default=150)
    ap.add_argument("--leaves", type=int, default=31)
    ap.add_argument("--min-leaf", type=int, default=50)
    ap.add_argument("--max-depth", type=int, default=8, help="deepest tree (inference walks this many levels)")
    ap.add_argument("--learning-rate", type=float, default=0.1)
    ap.add_argument("--threshold", type=float, default=0.5)
    ap.add_argument(
        "--decoders",
        default="model@0.5,base,repair@0.2:0.8",
        help="how blocks are chosen: model@T, base (PageRank's / the layout's own choice), "
        "repair@DROP:ADD (the base choice, less blocks under DROP, plus blocks over ADD), oracle",
    )
    ap.add_argument("--weighting", choices=("log", "sqrt", "page", "none"), default="log")
    ap.add_argument("--single-only", action="store_true", help="train on single-page rows only")
    ap.add_argument("--no-cv", action="store_true")
    ap.add_argument("--stack", action="store_true", help="a second stage on the first's context")
    ap.add_argument("--dump", default=None, help="write the held-out probabilities of every page here")
    ap.add_argument("--oracle", action="store_true", help="compare with the gold labels' own body, not PageRank")
    ap.add_argument("-o", "--output", default=None)
    args = ap.parse_args(argv)

    rows: list[PageRows] = pickle.loads(Path(args.data_file).read_bytes())
    sizes: dict = defaultdict(int)
    for r in rows:
        sizes[(r.meta["dataset"], r.meta["site"])] += 1
    if not args.no_cv:
        entries = load_manifest(data_dir(args.data))
        fold_of = assign_groups(entries, args.folds, args.seed)
        per_set: dict[str, list[tuple[float, float, float]]] = defaultdict(list)
        base_set: dict[str, list[tuple[float, float, float]]] = defaultdict(list)
        t0 = time.perf_counter()
        decoders = args.decoders.split(",")
        dumped: dict = {}
        for k in range(args.folds):
            train_rows = [r for r in rows if fold_of[r.meta["group"]] != k]
            test_rows = [r for r in rows if fold_of[r.meta["group"]] == k]
            model = train(train_rows, args)
            pairs: dict[str, list] = defaultdict(list)
            base: dict[str, list] = defaultdict(list)
            for r in test_rows:
                m = r.meta
                probs = {}
                for name in MULTI_SETS + SINGLE_SETS + tuple(f"{s}:single" for s in MULTI_SETS):
                    plain = name.split(":")[0]
                    if not in_set(m, plain, sizes):
                        continue
                    use_layout = plain in MULTI_SETS and not name.endswith(":single") and r.layout is not None
                    X = r.layout if use_layout else r.single
                    if use_layout not in probs:
                        probs[use_layout] = model.predict_rows(X, r)
                    p = probs[use_layout]
                    if args.dump is not None:
                        dumped[(m["dataset"], m["site"], m["id"], use_layout)] = p
                    title = (r.layout_title or r.pagerank_title) if use_layout else r.pagerank_title
                    texts = r.static_free if use_layout else r.texts
                    if use_layout:
                        chosen = X[:, FEATURE_NAMES.index("role_main")] >= 0.5
                    else:
                        chosen = X[:, FEATURE_NAMES.index("pagerank_share")] >= 0.5
                    for dec in decoders:
                        kind, _, params = dec.partition("@")
                        if kind == "model":
                            keep = p >= float(params)
                        elif kind == "base":
                            keep = chosen
                        elif kind == "oracle":
                            keep = r.labels >= 0.5
                        else:  # repair@drop:add
                            td, ta = (float(x) for x in params.split(":"))
                            keep = (chosen & (p >= td)) | (~chosen & (p >= ta))
                        body = body_of(texts, keep.astype(float), 0.5, title)
                        pairs[f"{name} {dec}"].append((prediction(title, body, m["gold_has_title"]), m["gold"]))
                    if use_layout:
                        continue  # (no layout baseline stored: compare with cv.py's layout figures)
                    base[name].append((prediction(r.pagerank_title, r.pagerank_body, m["gold_has_title"]), m["gold"]))
            for name, ps in pairs.items():
                s = evaluate(ps)
                per_set[name].append((s.f1, s.precision, s.recall))
                bp = base.get(name.split(" ")[0])
                b = evaluate(bp) if bp else None
                base_set[name].append((b.f1, b.precision, b.recall) if b else (float("nan"),) * 3)
            print(f"  fold {k}: {len(train_rows)} training pages, {time.perf_counter() - t0:.0f} s", file=sys.stderr)
        print(f"{'set':34} {'folds':>5} {'F1':>6} {'P':>6} {'R':>6}   {'PageRank F1':>11}")
        for name in sorted(per_set):
            f = per_set[name]
            b = base_set[name]
            print(
                f"{name:34} {len(f):5d} {statistics.mean(x[0] for x in f):6.3f} {statistics.mean(x[1] for x in f):6.3f}"
                f" {statistics.mean(x[2] for x in f):6.3f}   {statistics.mean(x[0] for x in b):11.3f}"
            )
    if args.dump is not None and not args.no_cv:
        Path(args.dump).write_bytes(pickle.dumps(dumped))
    if args.output:
        model = train(rows, args)
        if model.second is not None:
            sys.exit("error: only a one-stage model can be shipped (drop --stack)")
        Path(args.output).write_text(model.first.to_json(), encoding="utf-8")
        print(f"model -> {args.output} ({Path(args.output).stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
