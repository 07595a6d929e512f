#!/usr/bin/env python3
"""Train the learned region extractor and measure it by site-grouped cross-validation.

Reads the rows ``region_data.py`` wrote (every dataset page alone: its region
candidates with features and the shingle P/R of each one's text; the cleaning
candidates of PageRank's region and of the best candidate's, with the page F1
change of leaving each out).  For each of K folds (``folds.py``: no site in two
folds, a Big9 site one group across years) the two models are trained on every
page of the other folds (multi-page sites included, each page alone) and the
extractor (``newsstemmer.single.region.extractor.RegionExtractor``) is run on the
held-out fold's pages, from their HTML, exactly as it runs in use.  Figures are
``cv.py``'s: per set the dev figure (models trained on every page, applied to
every page) beside the mean over folds of the held-out fold's pooled shingle F1,
for DOM PageRank and each variant (``region``: the learned region alone,
``clean``: the learned cleaning alone, ``both``).  ``-o DIR`` trains on every page
and writes ``region.json`` and ``region-clean.json`` there (what newsstemmer ships
in ``newsstemmer/models/``).

    python training/train_region.py [--data-file FILE (default: $CACHE/region-data.pkl)] [--folds 5] [--seed 0]
        [--variants region,clean,both[:MARGIN[:THRESHOLD]]] [--region-objective lambdarank]
        [--label-gain linear] [--clean-objective binary] [--margin 0.5] [--threshold 1.5] [--balance 0.5]
        [--no-cv] [--per-fold] [-o newsstemmer/models]
"""

from __future__ import annotations

import argparse
import pickle
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import numpy as np

if __name__ == "__main__" and not __package__:  # run as a file: import from the checkout's root
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from benchmarks.shared import (SINGLE_SETS, cache_file, code_stamp, add_data_option, data_dir, figures, grouped_folds, load_manifest,
                               page_id, prediction, print_tables, set_entries, site_groups)
from benchmarks.shared.conventions import own_pair
from training.trees_export import from_lightgbm

from newsstemmer.single.region.cleaning import CLEAN_FEATURES
from newsstemmer.trees import TreeModel
from newsstemmer.single.region.candidates import REGION_FEATURES
from newsstemmer.single.region.extractor import RegionExtractor
from newsstemmer.dom.parse import parse_html
from newsstemmer.single.pagerank import pagerank_analysis
from newsstemmer.single.region.reveal import revealed

REPORT_SETS = SINGLE_SETS + ("big9", "cleanportal", "dragnet")


def f1_of(p: float | None, r: float) -> float:
    return 2 * p * r / (p + r) if p and r else 0.0


#: Which pages' golds train which step (issue 23; training/README.md, "Conventions").  The
#: ranker learns which element holds the article: every article page of every set (wcxb-dev's
#: listings, products, forums, docs and service pages are not articles and only mislead it).
#: The cleaning learns what to leave out of that element in the news convention (no byline,
#: dateline, caption or teaser lines): cttf's golds keep byline and dateline lines, so its
#: pages are evaluated, not trained on, by the cleaning.
RANK_EXCLUDED: frozenset[str] = frozenset()
CLEAN_EXCLUDED: frozenset[str] = frozenset({"cttf"})


def is_article(row: dict) -> bool:
    """Whether a row's page is an article (wcxb-dev pages say so; every other set's are)."""
    return row["meta"].get("page_type") in (None, "article")


def rank_rows(rows: list[dict]) -> list[dict]:
    """The rows the region ranker trains on."""
    return [r for r in rows if is_article(r) and r["meta"]["dataset"] not in RANK_EXCLUDED]


def clean_rows(rows: list[dict]) -> list[dict]:
    """The rows the cleaning trains on."""
    return [r for r in rows if is_article(r) and r["meta"]["dataset"] not in CLEAN_EXCLUDED]


def region_training(rows: list[dict], objective: str):
    """Candidate rows and targets of the region ranker."""
    Xs, ys, groups = [], [], []
    for row in rank_rows(rows):
        if len(row["cands"]) < 2:
            continue
        f = np.array([f1_of(p, r) for p, r in zip(row["p"], row["r"])])
        if f.max() <= 0:
            continue  # no candidate finds the article: nothing to learn from this page
        if objective == "regression":
            y = f
        elif objective == "gain":
            y = f - f[row["cands"].index(row["main"])]
        else:  # lambdarank: graded relevance by distance to the page's best candidate
            y = np.clip(np.round(10 - 40 * (f.max() - f)), 0, 10)
        Xs.append(row["X"])
        ys.append(y)
        groups.append(len(f))
    w = np.concatenate([np.full(n, 1.0 / n) for n in groups]) * len(groups)
    return np.vstack(Xs), np.concatenate(ys), groups, w


#: The lambdarank gain of each relevance grade (0..10; 10: within 0.0125 F1 of the page's
#: best).  Square weighs getting the page's best candidate on top more than linear (the
#: default): on short blog posts, where a container that adds meta lines or an author box
#: is a few grades below the post itself, the ranker then prefers the post more often, but
#: under CV it gains dragnet-single what it loses on dragnet's multi-page sites' pages
#: (benchmarks/README.md, "Where region loses").
LABEL_GAINS = {
    "linear": lambda i: float(i),
    "square": lambda i: float(i * i),
}


def label_gain(name: str) -> list[float]:
    """The lambdarank ``label_gain`` list of the grades 0..10."""
    return [LABEL_GAINS[name](i) for i in range(11)]


def dataset_weights(rows: list[dict], balance: float) -> dict[str, float]:
    """A weight per dataset: 1 each page (balance 0), up to the same total per dataset (1)."""
    counts: dict[str, int] = {}
    for r in rows:
        ds = "big9" if r["meta"]["dataset"].startswith("big9") else r["meta"]["dataset"]
        counts[ds] = counts.get(ds, 0) + 1
    mean = sum(counts.values()) / len(counts)
    return {ds: (mean / n) ** balance for ds, n in counts.items()}


def clean_training(rows: list[dict], objective: str, balance: float = 0.0):
    """Cleaning rows and targets: leaving the element out helps (weighted by how much)."""
    Xs, ds, ws = [], [], []
    rows = clean_rows(rows)
    dw = dataset_weights(rows, balance)
    for row in rows:
        w = dw["big9" if row["meta"]["dataset"].startswith("big9") else row["meta"]["dataset"]]
        for c in row["clean"]:
            if c is not None:
                Xs.append(c["X"])
                ds.append(c["delta"])
                ws.append(np.full(len(c["delta"]), w))
    X, d, w = np.vstack(Xs), np.concatenate(ds), np.concatenate(ws)
    if objective == "binary":
        return X, (d > 0).astype(float), (np.abs(d) + 1e-6) * w
    return X, d, w


def lgb_params(args: argparse.Namespace, prefix: str) -> dict:
    return {
        "learning_rate": getattr(args, f"{prefix}_lr"),
        "num_leaves": getattr(args, f"{prefix}_leaves"),
        "max_depth": getattr(args, f"{prefix}_depth"),
        "min_data_in_leaf": getattr(args, f"{prefix}_min_leaf"),
        "feature_fraction": getattr(args, f"{prefix}_feature_fraction"),
        "extra_trees": getattr(args, f"{prefix}_extra_trees"),
        "path_smooth": getattr(args, f"{prefix}_path_smooth"),
        "bagging_fraction": 0.8,
        "bagging_freq": 1,
        "lambda_l2": 1.0,
        "seed": args.model_seed,
        "deterministic": True,
        "num_threads": 1,
        "verbose": -1,
    }


def scaled(node: dict, factor: float) -> dict:
    """A LightGBM tree dump's node with its leaf values multiplied by ``factor``."""
    out = dict(node)
    if "leaf_value" in out:
        out["leaf_value"] = out["leaf_value"] * factor
    for side in ("left_child", "right_child"):
        if side in out:
            out[side] = scaled(out[side], factor)
    return out


def bagged(params: dict, make_ds, rounds: int, bags: int, extra_bags: int = 0) -> dict:
    """The tree dump of ``bags`` boosters trained with different seeds (bagging and
    feature sampling), and ``extra_bags`` more with LightGBM's extra trees, their outputs
    averaged: one model of all their trees."""
    import lightgbm as lgb

    dumps = []
    for b in range(bags + extra_bags):
        p = dict(params, seed=params["seed"] + 1000 * b)
        if b >= bags:
            p["extra_trees"] = True
        dumps.append(lgb.train(p, make_ds(), rounds).dump_model())
    merged = dict(dumps[0])
    merged["tree_info"] = [dict(t, tree_structure=scaled(t["tree_structure"], 1.0 / (bags + extra_bags)))
                           for d in dumps for t in d["tree_info"]]
    return merged


def train_models(rows: list[dict], args: argparse.Namespace) -> tuple[TreeModel, TreeModel]:
    import lightgbm as lgb

    excluded = set(getattr(args, "exclude_train", ()))
    rows = [r for r in rows if r["meta"]["dataset"] not in excluded]
    X, y, groups, w = region_training(rows, args.region_objective)
    params = lgb_params(args, "region")
    if args.monotone:
        params.update(monotone_constraints=[args.monotone.get(name, 0) for name in REGION_FEATURES],
                      monotone_constraints_method="advanced")
    dropped = [k for k, name in enumerate(REGION_FEATURES) if name.startswith(tuple(args.drop))]
    X[:, dropped] = 0.0  # (a constant column: the trees never split on it)
    if args.region_objective == "lambdarank":
        params.update(objective="lambdarank", label_gain=label_gain(args.label_gain), lambdarank_truncation_level=3)

        def ds():
            return lgb.Dataset(X, y, group=groups, feature_name=list(REGION_FEATURES))
    else:
        params.update(objective="regression")

        def ds():
            return lgb.Dataset(X, y, weight=w, feature_name=list(REGION_FEATURES))
    region = from_lightgbm(bagged(params, ds, args.region_rounds, args.bags, args.region_extra_bags), REGION_FEATURES,
                           kind="region")
    region.info.update(objective=args.region_objective, margin=args.margin, guard=args.guard)

    X, y, w = clean_training(rows, args.clean_objective, args.balance)
    params = lgb_params(args, "clean")
    params.update(objective="binary" if args.clean_objective == "binary" else "regression")
    clean = from_lightgbm(
        bagged(params, lambda: lgb.Dataset(X, y, weight=w, feature_name=list(CLEAN_FEATURES)), args.clean_rounds,
               args.bags), CLEAN_FEATURES, kind="region-clean")
    clean.info.update(objective=args.clean_objective, threshold=args.threshold)
    return region, clean


def extractors(region: TreeModel, clean: TreeModel, variants: list[str]) -> dict[str, RegionExtractor]:
    """``region[:M[:G]]``, ``clean[:T[:G]]``, ``both[:M[:T[:G]]]``: the steps used, with the
    region margin M, the cleaning threshold T and the guard G (PageRank's text when less
    than that share of it is kept) (default: the models' own)."""
    out = {}
    for v in variants:
        kind, *values = v.split(":")
        use_region, use_clean = kind in ("region", "both"), kind in ("clean", "both")
        if not (use_region or use_clean):
            sys.exit(f"error: unknown variant {v!r}")
        ex = RegionExtractor(region if use_region else False, clean if use_clean else False)
        if values and use_region:
            ex.region_margin = float(values.pop(0))
        if values and use_clean:
            ex.clean_threshold = float(values.pop(0))
        if values:
            ex.guard = float(values.pop(0))
        out[v] = ex
    return out


def run_pages(pages, by_id: dict, exs: dict[str, RegionExtractor]) -> dict[str, dict]:
    """Per method (pagerank and each variant): page id -> (prediction, gold)."""
    out: dict[str, dict] = {"pagerank": {}, **{v: {} for v in exs}}
    for e in pages:
        gold = e.gold()
        try:
            # the variants read the page as the shipped extractor does (hidden content
            # revealed); PageRank alone reads it as parsed
            tree = parse_html(e.html())
            shown, steps = revealed(tree)
            an = pagerank_analysis(shown, e.url)
            plain = pagerank_analysis(tree, e.url) if steps else an
        except Exception as exc:  # an unreadable page predicts nothing, for every method
            print(f"{e.dataset}/{e.site}/{e.id}: {type(exc).__name__}: {exc}", file=sys.stderr)
            for d in out.values():
                d[page_id(e)] = ("", gold)
            continue
        out["pagerank"][page_id(e)] = (prediction(plain.result.title, plain.result.body, e.gold_has_title), gold)
        for v, ex in exs.items():
            title, body = ex.extract_analysis(an)
            out[v][page_id(e)] = (prediction(title, body, e.gold_has_title), gold)
    return out


def feature_prefixes(text: str) -> tuple[str, ...]:
    """``--drop``: comma-separated prefixes, each naming at least one region feature."""
    prefixes = tuple(p for p in text.split(",") if p)
    unknown = [p for p in prefixes if not any(name.startswith(p) for name in REGION_FEATURES)]
    if unknown:
        raise argparse.ArgumentTypeError(f"no region feature starts with {', '.join(unknown)}")
    return prefixes


def monotone_signs(text: str) -> dict[str, int]:
    """``--monotone``: NAME:1 or NAME:-1, comma-separated, NAME a region feature."""
    signs: dict[str, int] = {}
    for item in filter(None, text.split(",")):
        name, _, sign = item.rpartition(":")
        if name not in REGION_FEATURES or sign.lstrip("+") not in ("1", "-1"):
            raise argparse.ArgumentTypeError(f"{item!r}: expected NAME:1 or NAME:-1 with NAME a region feature")
        signs[name] = int(sign)
    return signs


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data-file", default=str(cache_file("region-data.pkl")))
    add_data_option(ap)
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0, help="orders groups of equal size when dealing folds")
    ap.add_argument("--model-seed", type=int, default=0, help="LightGBM's seed (bagging, feature sampling)")
    ap.add_argument("--variants", default="region,clean,both")
    ap.add_argument("--datasets", default=",".join(REPORT_SETS))
    ap.add_argument("--region-objective", choices=("regression", "gain", "lambdarank"), default="lambdarank")
    ap.add_argument("--label-gain", choices=tuple(LABEL_GAINS), default="linear",
                    help="region (lambdarank): gain of the relevance grades")
    ap.add_argument("--clean-objective", choices=("binary", "regression"), default="binary")
    for prefix, rounds, leaves, depth, lr, min_leaf in (("region", 80, 15, 6, 0.1, 50), ("clean", 80, 15, 6, 0.1, 200)):
        ap.add_argument(f"--{prefix}-rounds", type=int, default=rounds)
        ap.add_argument(f"--{prefix}-leaves", type=int, default=leaves)
        ap.add_argument(f"--{prefix}-depth", type=int, default=depth)
        ap.add_argument(f"--{prefix}-lr", type=float, default=lr)
        ap.add_argument(f"--{prefix}-min-leaf", type=int, default=min_leaf)
        ap.add_argument(f"--{prefix}-feature-fraction", type=float, default=0.8, help="LightGBM's feature_fraction")
        ap.add_argument(f"--{prefix}-extra-trees", action="store_true", help="LightGBM's extra_trees (random thresholds)")
        ap.add_argument(f"--{prefix}-path-smooth", type=float, default=0.0, help="LightGBM's path_smooth")
    ap.add_argument("--margin", type=float, default=0.5, help="region: score over PageRank's choice needed")
    ap.add_argument("--threshold", type=float, default=1.5,
                    help="cleaning: log-odds from which an element goes (binary), or F1 gain (regression)")
    ap.add_argument("--balance", type=float, default=0.5,
                    help="cleaning: weigh datasets towards equal totals (0: by pages, 1: equal)")
    ap.add_argument("--guard", type=float, default=0.3,
                    help="PageRank's own text when the learned steps keep less than this share of it (0: off)")
    ap.add_argument("--drop", type=feature_prefixes, default=(),
                    help="region: features left out (comma-separated name prefixes)")
    ap.add_argument("--monotone", type=monotone_signs, default={},
                    help="region: monotone constraints, NAME:1 (score rises with it) or NAME:-1, comma-separated")
    ap.add_argument("--region-extra-bags", type=int, default=0,
                    help="region: boosters with extra trees averaged in besides the --bags ones")
    ap.add_argument("--bags", type=int, default=3, help="models per step trained with other seeds, averaged")
    ap.add_argument("--exclude-train", type=lambda t: tuple(filter(None, t.split(","))), default=(),
                    help="datasets whose pages train neither step (comma-separated; e.g. the sets before issue 23)")
    ap.add_argument("--no-cv", action="store_true")
    ap.add_argument("--per-fold", action="store_true")
    ap.add_argument("-o", "--output", default=None, metavar="DIR")
    return ap


def load_rows(path: Path) -> list[dict]:
    """The rows of a ``region_data.py`` file (exits if they were made for other features;
    warns if by other code: ``benchmarks.shared.code_stamp``)."""
    try:
        data = pickle.loads(Path(path).read_bytes())
        features, clean_features = data["features"], data["clean_features"]
    except FileNotFoundError:
        sys.exit(f"error: {path} does not exist; write it with: python training/region_data.py -o {path}")
    except (OSError, pickle.UnpicklingError, EOFError, KeyError, TypeError, ValueError) as exc:
        sys.exit(f"error: {path} is not a region_data.py file ({type(exc).__name__}: {exc}); run region_data.py again")
    if tuple(features) != REGION_FEATURES or tuple(clean_features) != CLEAN_FEATURES:
        sys.exit("error: the data file was written for other features; run region_data.py again")
    if data.get("stamp") != code_stamp():
        print(f"warning: {path} was written by other code or models (run region_data.py again to "
              "train what this checkout would)", file=sys.stderr)
    return data["rows"]


def region_rows(entries, data_file: str | None = None) -> list[dict]:
    """region_data.py's rows of every page: read from ``data_file`` if this code wrote them
    for these features, else computed (about 3 minutes) and written there if a name is given."""
    if data_file and Path(data_file).is_file():
        data = pickle.loads(Path(data_file).read_bytes())
        if (data.get("stamp") == code_stamp() and tuple(data["features"]) == REGION_FEATURES
                and tuple(data["clean_features"]) == CLEAN_FEATURES):
            return data["rows"]
        print(f"{data_file}: region rows made by other code or models; made again", file=sys.stderr, flush=True)
    from training.region_data import page_record, rows_file

    rows = [page_record(e, g) for e, g in zip(entries, site_groups(entries))]
    if data_file:
        Path(data_file).write_bytes(rows_file(rows))
    return rows


def row_id(row: dict) -> tuple[str, str, str]:
    m = row["meta"]
    return (m["dataset"], m["site"], m["id"])


def fold_extractors(entries, folds, data_file: str | None = None) -> list[RegionExtractor]:
    """Per fold, the region extractor trained with this script's defaults without the fold's
    site groups (for other benchmarks' CV).  ``data_file``: region_data.py's rows (:func:`region_rows`)."""
    rows = region_rows(entries, data_file)
    args = build_parser().parse_args([])
    groups = dict(zip((page_id(e) for e in entries), site_groups(entries)))
    out = []
    for k, fold in enumerate(folds):
        held = {groups[page_id(e)] for e in fold}
        region, clean = train_models([r for r in rows if groups[row_id(r)] not in held], args)
        out.append(extractors(region, clean, ["both"])["both"])
        print(f"[region fold {k}] trained", file=sys.stderr, flush=True)
    return out


def typed_pairs(pages, ex: RegionExtractor) -> dict:
    """Per page: (prediction, gold) in its set's own convention, from the typed blocks the
    extractor ``ex`` gives (``extract_typed``), as ``cv.py`` scores the shipped model's."""
    out = {}
    for e in pages:
        title, article = "", ""
        try:
            title, body, _, maker = ex.extract_typed(parse_html(e.html()), e.url)
            article = SimpleNamespace(body=body, blocks=maker() if maker else [])
        except Exception as exc:  # an unreadable page predicts nothing
            print(f"{e.dataset}/{e.site}/{e.id}: {type(exc).__name__}: {exc}", file=sys.stderr)
        out[page_id(e)] = own_pair(e, title, article, e.gold())
    return out


def fold_pairs(rows: list[dict], entries, folds, pages, args: argparse.Namespace | None = None,
               variant: str = "both", merge_hosts: bool = False, own: list[dict] | None = None) -> list[dict]:
    """cv.py's per-fold predictions of the region extractor: per fold, models trained on
    the rows of the other folds' groups, run on the fold's pages among ``pages``.  ``own``:
    a list that gets, per fold, the pairs in each set's own convention (:func:`typed_pairs`)."""
    args = args or build_parser().parse_args([])
    groups = dict(zip((page_id(e) for e in entries), site_groups(entries, merge_hosts)))
    wanted = {page_id(e) for e in pages}
    out = []
    for k, fold in enumerate(folds):
        held = {groups[page_id(e)] for e in fold}
        region, clean = train_models([r for r in rows if groups[row_id(r)] not in held], args)
        test = [e for e in fold if page_id(e) in wanted]
        exs = extractors(region, clean, [variant])
        out.append(run_pages(test, groups, exs)[variant])
        if own is not None:
            own.append(typed_pairs(test, exs[variant]))
        print(f"[region fold {k}] {len(test)} pages", file=sys.stderr, flush=True)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = build_parser()
    args = ap.parse_args(argv)

    rows = load_rows(Path(args.data_file))
    entries = load_manifest(data_dir(args.data))
    groups = dict(zip((page_id(e) for e in entries), site_groups(entries)))
    for r in rows:
        m = r["meta"]
        if groups.get((m["dataset"], m["site"], m["id"])) != m["group"]:
            sys.exit("error: the data file does not match the manifest's pages; run region_data.py again")
    variants = [v for v in args.variants.split(",") if v]
    names = [n for n in args.datasets.split(",") if n]
    sets = {n: set_entries(entries, n) for n in names}
    wanted = {page_id(e) for es in sets.values() for e in es}
    pages = [e for e in entries if page_id(e) in wanted]
    folds = grouped_folds(entries, args.folds, args.seed)
    t0 = time.perf_counter()

    fold_pairs: list[dict[str, dict]] = []
    if not args.no_cv:
        for k, fold in enumerate(folds):
            held = {groups[page_id(e)] for e in fold}
            train_rows = [r for r in rows if r["meta"]["group"] not in held]
            region, clean = train_models(train_rows, args)
            test = [e for e in fold if page_id(e) in wanted]
            fold_pairs.append(run_pages(test, groups, extractors(region, clean, variants)))
            print(f"[fold {k}] trained on {len(train_rows)} pages, {len(test)} held out "
                  f"({time.perf_counter() - t0:.0f}s)", file=sys.stderr, flush=True)
    region, clean = train_models(rows, args)
    dev = run_pages(pages, groups, extractors(region, clean, variants))
    results = {}
    for method in dev:
        per_fold = [fp[method] for fp in fold_pairs] if fold_pairs else None
        if per_fold is None:
            per_fold = [{pid: pair for pid, pair in dev[method].items() if pid in {page_id(e) for e in fold}}
                        for fold in folds]
        results[method] = figures(dev[method], sets, folds, per_fold)
    print(f"## region extractor: region {args.region_objective} (margin {args.margin}), "
          f"cleaning {args.clean_objective} (threshold {args.threshold}); "
          f"{'dev only (CV columns: the dev models per fold)' if args.no_cv else f'{args.folds}-fold site-grouped CV'}")
    print_tables(results, args.folds, args.per_fold)
    print(f"\nruntime {time.perf_counter() - t0:.0f}s")
    if args.output:
        out = Path(args.output)
        out.mkdir(parents=True, exist_ok=True)
        (out / "region.json").write_text(region.to_json(), encoding="utf-8")
        (out / "region-clean.json").write_text(clean.to_json(), encoding="utf-8")
        print(f"models written to {out}/region.json, {out}/region-clean.json", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
