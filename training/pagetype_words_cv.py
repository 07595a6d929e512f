#!/usr/bin/env python3
"""Experiment (issue #24): a learned word signal stacked onto the page-type model, under
the benchmark's site-grouped CV.  Not shipped: session 26 measured 0.918 -> 0.930 (every
set's rows, the defaults here; 0.923 from wcxb-dev's alone), short of what would pay for
its inputs' cost (benchmarks/README.md, "Session 26 (branch typewords)").

Each page's words, prefixed by where they stand: ``<title>``, first ``<h1>`` (both also
as word pairs), the URL path's words, the meta description, the first ``--body-words``
words of the body's text outside ``nav``/``header``/``footer``/``aside``/forms, the
first 300 words of its links, and the ``<body>`` class names.  A logistic regression (L2, on each
page's words present, scaled by 1/sqrt of their number; words on at least
``--min-sites`` site groups of its training rows) scores them.  Within each of the five
outer folds (``train_pagetype.cross_validate``'s), the word model is trained on the
fold's training sites only; the training rows get out-of-fold scores from five inner
site-grouped folds of those sites, so that the tree model learns from scores as unseen
pages get them, and the held fold is scored by the model of all its training sites.
The score is one more column of the LightGBM model (the same settings and URL-less
copies as ``train_pagetype.train``), over ``--seeds``.  ``--kinds service,forum,...``
adds one such column per non-article kind (that kind against articles).

    python training/pagetype_words_cv.py [--data-file /tmp/pagetype.pkl] [--text-file /tmp/pagetype-words.pkl]
        [--train-on all|wcxb] [--other-weight 0.25] [--lam 0.1] [--fields title,h1,url,desc,body,links,class] [--baseline] [--word-only]
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import numpy as np

if __name__ == "__main__" and not __package__:  # run as a file: import from the checkout's root
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from benchmarks.shared import Entry, add_data_option, cached, data_dir, load_manifest, page_id
from training.train_pagetype import FOLDS, PARAMS, ROUNDS, URL_COLUMNS, build, fold_arrays, parsed_page

from newsstemmer.metadata import page_facts
from newsstemmer.pagetype.features import url_words

WORD = re.compile(r"[^\W\d_]+")
#: Elements whose text is not the page's own (menus, page furniture, forms) or not seen.
SKIPPED = frozenset({"script", "style", "noscript", "template", "svg", "head", "iframe", "select", "option", "nav",
                     "footer", "aside", "header", "form", "button"})
FIELDS = ("title", "h1", "url", "desc", "body", "links", "class")


def body_words(body: Any, limit: int = 1200) -> tuple[str, str]:
    """The first ``limit`` words of the body's text outside :data:`SKIPPED` and links, and
    the words of its links (at most 600), in document order."""
    words: list[str] = []
    links: list[str] = []
    stack: list[tuple[Any, bool, bool]] = [(body, False, False)]  # (element, inside a link, tail only)
    while stack and len(words) < limit:
        el, in_link, tail_only = stack.pop()
        if not tail_only:
            tag = el.tag.lower() if isinstance(el.tag, str) else None
            if tag is None or tag in SKIPPED:
                continue
            link = in_link or tag == "a"
            if el.text:
                (links if link else words).extend(el.text.split())
            for child in reversed(el):
                stack.append((child, in_link, True))  # its tail, after it
                stack.append((child, link, False))
        elif el.tail:
            (links if in_link else words).extend(el.tail.split())
    return " ".join(words[:limit]), " ".join(links[:600])


def page_texts(e: Entry) -> dict[str, str] | None:
    """A page's text fields (:data:`FIELDS`), or None for one that cannot be read."""
    page = parsed_page(e)
    if page is None:
        return None
    tree = page.tree
    facts = page_facts(tree, page.html)
    body = tree.find("body") if tree is not None else None
    text, links = body_words(body) if body is not None else ("", "")
    desc = facts.first_meta("description", "og:description")
    return {"title": facts.title or "", "h1": facts.h1[0] if facts.h1 else "", "url": e.url or "",
            "desc": desc[1] if desc else "", "body": text, "links": links,
            "class": (body.get("class") or "") if body is not None else ""}


def tokens(t: dict[str, str], fields: list[str], body_limit: int, pairs: set[str]) -> set[str]:
    """The page's words as tokens ``field:word`` (and ``field:word_word`` for ``pairs``)."""
    out: set[str] = set()
    for f in fields:
        if f == "url":
            ws = [w for part in url_words(t["url"]) for w in WORD.findall(part)]
        else:
            ws = WORD.findall(t.get(f, "").lower())
            if f == "body":
                ws = ws[:body_limit]
            elif f == "links":
                ws = ws[:300]
        out.update(f"{f[:2]}:{w}" for w in ws)
        if f in pairs:
            out.update(f"{f[:2]}:{a}_{b}" for a, b in zip(ws, ws[1:]))
    return out


class WordModel:
    """Every page's tokens as one binary matrix; logistic regressions on a subset of rows."""

    def __init__(self, token_sets: list[set[str]], groups: list[str], lam: float, min_sites: int) -> None:
        import scipy.sparse as sp

        index: dict[str, int] = {}
        cols, starts = [], [0]
        for ts in token_sets:
            cols.extend(sorted(index.setdefault(t, len(index)) for t in ts))
            starts.append(len(cols))
        self.B = sp.csr_matrix((np.ones(len(cols)), cols, starts), shape=(len(token_sets), len(index)))
        names = {g: i for i, g in enumerate(sorted(set(groups)))}
        self.group = np.array([names[g] for g in groups])
        self.n_groups, self.lam, self.min_sites = len(names), lam, min_sites

    def matrix(self, rows: np.ndarray, cols: np.ndarray) -> Any:
        import scipy.sparse as sp

        M = self.B[rows][:, cols]
        n = np.asarray(M.sum(axis=1)).ravel()
        return sp.diags(1.0 / np.sqrt(np.maximum(n, 1))) @ M

    def fit(self, rows: np.ndarray, y: np.ndarray, weight: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(the columns kept, weights and bias) trained on ``rows`` (``y``, ``weight``: per row of all)."""
        import scipy.sparse as sp
        from scipy.optimize import minimize

        G = sp.csr_matrix((np.ones(len(rows)), (self.group[rows], np.arange(len(rows)))),
                          shape=(self.n_groups, len(rows)))
        sites = np.asarray(((G @ self.B[rows]) > 0).sum(axis=0)).ravel()
        cols = np.where(sites >= self.min_sites)[0]
        M = self.matrix(rows, cols)
        yy, sw = y[rows].astype(float), weight[rows] / weight[rows].mean()
        d = M.shape[1]

        def loss(wb: np.ndarray) -> tuple[float, np.ndarray]:
            w, b = wb[:d], wb[d]
            z = M @ w + b
            g = sw * (1 / (1 + np.exp(-z)) - yy)
            return (float(np.sum(sw * (np.logaddexp(0, z) - yy * z)) + self.lam / 2 * w @ w),
                    np.concatenate([M.T @ g + self.lam * w, [g.sum()]]))

        return cols, minimize(loss, np.zeros(d + 1), jac=True, method="L-BFGS-B", options={"maxiter": 300}).x

    def score(self, model: tuple[np.ndarray, np.ndarray], rows: np.ndarray) -> np.ndarray:
        cols, wb = model
        return self.matrix(rows, cols) @ wb[:-1] + wb[-1]


def main(argv: list[str] | None = None) -> int:
    import lightgbm as lgb

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_data_option(ap)
    ap.add_argument("--data-file", help="keep the page-type rows in this pickle")
    ap.add_argument("--text-file", help="keep the pages' text fields in this pickle")
    ap.add_argument("--fields", default="title,h1,url,desc,body,links,class")
    ap.add_argument("--pairs", default="title,h1", help="fields whose word pairs are tokens too")
    ap.add_argument("--body-words", type=int, default=400)
    ap.add_argument("--min-sites", type=int, default=3)
    ap.add_argument("--lam", type=float, default=0.1, help="L2 strength")
    ap.add_argument("--train-on", choices=("wcxb", "all"), default="all",
                    help="the word model's rows: wcxb-dev's only, or every set's")
    ap.add_argument("--other-weight", type=float, default=0.25, help="with --train-on all: the other sets' weight")
    ap.add_argument("--kinds", default="", help="one column more per kind (service,forum,...: against articles)")
    ap.add_argument("--seeds", default="0,1,2")
    ap.add_argument("--baseline", action="store_true", help="no word column")
    ap.add_argument("--word-only", action="store_true", help="the word model's own CV only")
    args = ap.parse_args(argv)

    entries = load_manifest(data_dir(args.data))
    rows = cached(args.data_file, lambda: build(entries), "page-type rows")
    texts: dict[str, dict[str, str]] = cached(args.text_file, lambda: {
        page_id(e): t for e in entries if (t := page_texts(e)) is not None}, "page texts")
    X, y, wc, fi = fold_arrays(rows, entries)
    sets = np.array([r["dataset"] for r in rows])
    groups = [r["group"] for r in rows]
    empty = dict.fromkeys(FIELDS, "")
    token_sets = [tokens({**empty, **texts.get(r["id"], {})}, args.fields.split(","), args.body_words,
                         set(filter(None, args.pairs.split(",")))) for r in rows]
    wm = WordModel(token_sets, groups, args.lam, args.min_sites)
    weight = np.where(wc, 1.0, args.other_weight)
    targets = [(y, (lambda idx: idx if args.train_on == "all" else idx[wc[idx]]))]
    for kind in filter(None, args.kinds.split(",")):
        of_kind = np.array([r["kind"] == kind for r in rows])
        targets.append((of_kind.astype(int), lambda idx, k=of_kind: idx[wc[idx] & (k[idx] | (y[idx] == 1))]))

    def columns(train: np.ndarray, test: np.ndarray, inner_seed: int, oof: bool) -> tuple[np.ndarray, np.ndarray]:
        """Word columns of ``train`` (out of fold, inner site-grouped folds) and ``test``."""
        site_list = sorted({groups[i] for i in train})
        random.Random(inner_seed).shuffle(site_list)
        inner_of = {g: n % 5 for n, g in enumerate(site_list)}
        inner = np.array([inner_of[groups[i]] for i in train])
        tr_cols, te_cols = [], []
        for target, rows_of in targets:
            te_cols.append(wm.score(wm.fit(rows_of(train), target, weight), test))
            col = np.zeros(len(train))
            if oof:
                for k in range(5):
                    col[inner == k] = wm.score(wm.fit(rows_of(train[inner != k]), target, weight), train[inner == k])
            tr_cols.append(col)
        return np.column_stack(tr_cols), np.column_stack(te_cols)

    stacked = []
    if not args.baseline:
        words_cv = np.zeros(len(rows))
        for k in range(FOLDS):
            train, test = np.where(fi != k)[0], np.where(fi == k)[0]
            tr_cols, te_cols = columns(train, test, k, not args.word_only)
            words_cv[test] = te_cols[:, 0]
            stacked.append((tr_cols, te_cols))
        s, yw = words_cv[wc], y[wc]
        ranks = np.empty(len(s))
        ranks[np.argsort(s)] = np.arange(1, len(s) + 1)
        pos = yw.sum()
        auc = (ranks[yw == 1].sum() - pos * (pos + 1) / 2) / (pos * (len(yw) - pos))
        best = max(np.mean((s >= t) == yw.astype(bool)) for t in np.unique(s))
        print(f"word model alone (CV): wcxb-dev AUC {auc:.4f}, accuracy at its best threshold {best:.4f}", flush=True)
        if args.word_only:
            return 0
    accs = []
    for seed in map(int, args.seeds.split(",")):
        p = np.zeros(len(rows))
        for k in range(FOLDS):
            train, test = np.where(fi != k)[0], np.where(fi == k)[0]
            Xtr, Xte = X[train], X[test]
            if stacked:
                Xtr, Xte = np.column_stack([Xtr, stacked[k][0]]), np.column_stack([Xte, stacked[k][1]])
            copies = Xtr[wc[train]].copy()
            copies[:, URL_COLUMNS] = -1.0
            ds = lgb.Dataset(np.vstack([Xtr, copies]), np.concatenate([y[train], y[train][wc[train]]]))
            p[test] = lgb.train(dict(PARAMS, seed=seed), ds, num_boost_round=ROUNDS).predict(Xte)
        accs.append(float(np.mean((p[wc] >= 0.5) == y[wc].astype(bool))))
        points = []
        for t in (0.4, 0.5, 0.55, 0.6):
            said = p >= t
            share = {d: np.sum((y == 1) & ~said & (sets == d)) / np.sum((y == 1) & (sets == d))
                     for d in sorted(set(sets)) if d != "wcxb-dev"}
            worst = max((d for d in share if d != "readability"), key=share.__getitem__)
            points.append(f"{t}: {np.mean(said[wc] == y[wc].astype(bool)):.4f}, worst {worst} {share[worst]:.2%}, "
                          f"readability {share.get('readability', 0.0):.2%}")
        print(f"seed {seed}: accuracy {accs[-1]:.4f} | " + " | ".join(points), flush=True)
    print(f"mean {np.mean(accs):.4f} (± {(max(accs) - min(accs)) / 2:.4f} over seeds {args.seeds})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
