#!/usr/bin/env python3
"""Training rows of the learned region decision: every dataset page, each alone.

For each page of the manifest, DOM PageRank's analysis is run once; its region
candidates (``newsstemmer.single.region.candidates.region_candidates``) get their feature
rows (``region_features``) and their label: the page's shingle precision and recall
when that candidate's text (``region_paragraphs``: PageRank's own extraction and
cleaning, as if it had chosen that element) is the body, the prediction built as
``cv.py`` builds it (the title added where the gold has it).  ``train_region.py``
reads the file.

    python training/region_data.py [-o FILE (default: $CACHE/region-data.pkl)] [--data DIR] [--limit N]
"""

from __future__ import annotations

import argparse
import pickle
import re
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

if __name__ == "__main__" and not __package__:  # run as a file: import from the checkout's root
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from benchmarks.shared import cache_file, code_stamp, add_data_option, data_dir, load_manifest, prediction, site_groups
from benchmarks.shared.conventions import training_gold

from newsstemmer.single.region.cleaning import CLEAN_FEATURES, cleaning_candidates, cleaning_features
from newsstemmer.single.region.candidates import REGION_FEATURES, RegionView, region_candidates, region_features
from newsstemmer.dom.parse import parse_html
from newsstemmer.single.region.reveal import revealed
from newsstemmer.dom.walk import START, walk
from newsstemmer.evaluation import shingle_prf, shingles, tokens
from newsstemmer.single.pagerank import BLOCK_TAGS, DROP_TAGS, pagerank_analysis, region_cleaning, region_paragraphs

_TOKEN = re.compile(r"\w+")


def owned_tokens(an, region: int, skip: list[int], node_of: dict) -> tuple[list[str], np.ndarray]:
    """The tokens of a region's text (as ``_paragraphs`` joins it) with, for each, the node
    of the element whose own text or tail holds it."""
    elements = an.scores.graph.elements
    main = elements[region]
    left_out = {elements[i] for i in skip} | an.scores.graph.hidden
    parts: list[str] = []
    owners: list[int] = []

    def add(text: str, owner) -> None:
        parts.append(text)
        owners.append(-1 if owner is None else node_of.get(owner, -1))

    walker = walk(main)
    for event, el in walker:
        tag = el.tag
        if not isinstance(tag, str):
            if event != START and el.tail:
                add(el.tail, el.getparent())
            continue
        if event == START:
            if tag in DROP_TAGS or el in left_out:
                walker.skip_subtree()
                continue
            if tag in BLOCK_TAGS:
                add("\n", None)
            if el.text:
                add(el.text, el)
        else:
            if el is main:
                break
            if tag in BLOCK_TAGS:
                add("\n", None)
            if el.tail:
                add(el.tail, el.getparent())
    text = "".join(parts)
    starts = np.cumsum([0] + [len(p) for p in parts[:-1]]) if parts else np.zeros(0, dtype=np.int64)
    toks, offs = [], []
    for m in _TOKEN.finditer(text):
        toks.append(m.group())
        offs.append(m.start())
    own = np.asarray(owners, dtype=np.int64)[np.searchsorted(starts, offs, side="right") - 1] if toks else np.zeros(0, dtype=np.int64)
    return toks, own


def cleaning_rows(an, view, region: int, title: str, with_title: bool, gold: str, node_of: dict):
    """Feature rows of a region's cleaning candidates and, per row, the page F1 change
    (and the F1 before) when that element is left out as well."""
    # The rows are made without the extraction-time rules (carousels, captions): the
    # models learn on PageRank's cleaning alone, and the rules apply at extraction only.
    skip = region_cleaning(an, region, slides=False)
    J = cleaning_candidates(view, region, skip)
    if not len(J):
        return None
    toks, own = owned_tokens(an, region, skip, node_of)
    actual = tokens("\n".join(region_paragraphs(an, region, skip)))
    if len(actual) > len(toks) or toks[len(toks) - len(actual):] != actual:
        return None  # (the owner walk does not reproduce the text: no labels for this page)
    toks, own = toks[len(toks) - len(actual):], own[len(own) - len(actual):]
    if with_title and title:
        tt = tokens(title)
        toks = tt + toks
        own = np.concatenate([np.full(len(tt), -1, dtype=np.int64), own])
    ref = shingles(tokens(gold))
    G = sum(ref.values())
    if len(toks) < 4 or not G:
        return None
    left = Counter(ref)
    found = np.zeros(len(toks) - 3, dtype=bool)
    for k in range(len(toks) - 3):
        sh = tuple(toks[k : k + 4])
        if left[sh] > 0:
            left[sh] -= 1
            found[k] = True
    start_own = own[: len(toks) - 3]
    N, C = len(found), int(found.sum())

    def f1(c, n):
        if n <= 0 or c <= 0:
            return 0.0
        p, r = c / n, c / G
        return 2 * p * r / (p + r)

    base = f1(C, N)
    ends = J + view.size[J]
    delta = np.zeros(len(J))
    share = np.zeros(len(J))
    for r, (j, e) in enumerate(zip(J.tolist(), ends.tolist())):
        m = (start_own >= j) & (start_own < e)
        n_e = int(m.sum())
        c_e = int((m & found).sum())
        delta[r] = f1(C - c_e, N - n_e) - base
        share[r] = c_e / n_e if n_e else -1.0
    return {"region": region, "nodes": J, "X": cleaning_features(view, region, J), "delta": delta,
            "share": share, "f1": base}


def page_record(e, group: str) -> dict:
    """Features and labels of one page's candidates (an empty record if PageRank finds nothing)."""
    meta = {"dataset": e.dataset, "site": e.site, "id": e.id, "group": group, "gold_has_title": e.gold_has_title,
            "page_type": e.page_type}
    gold = training_gold(e)  # the news convention (training/README.md, "Conventions")
    rec = {"meta": meta, "cands": [], "X": np.zeros((0, len(REGION_FEATURES))), "p": [], "r": [], "main": -1,
           "base": (None, 0.0), "title": "", "clean": []}
    try:
        an = pagerank_analysis(revealed(parse_html(e.html()))[0], e.url)  # the page as extraction reads it
    except Exception as exc:  # an unreadable page predicts nothing
        print(f"{e.dataset}/{e.site}/{e.id}: {type(exc).__name__}: {exc}", file=sys.stderr)
        return rec
    title = an.result.title
    rec["title"] = title
    rec["base"] = shingle_prf(prediction(title, an.result.body, e.gold_has_title), gold)
    view = RegionView.of(an)
    cands = region_candidates(view)
    rec["cands"] = cands
    rec["main"] = an.main
    rec["X"] = region_features(view, cands)
    f1s = []
    for c in cands:
        body = "\n".join(region_paragraphs(an, c, region_cleaning(an, c, slides=False)))
        p, r = shingle_prf(prediction(title, body, e.gold_has_title), gold)
        rec["p"].append(p)
        rec["r"].append(r)
        f1s.append(2 * p * r / (p + r) if p and r else 0.0)
    # Cleaning rows for PageRank's own region and for the best candidate's.
    node_of = an.node_of()
    best = cands[int(np.argmax(f1s))] if cands else an.main
    rec["clean"] = [cleaning_rows(an, view, c, title, e.gold_has_title, gold, node_of)
                    for c in dict.fromkeys((an.main, best))]
    return rec


def rows_file(rows: list[dict]) -> bytes:
    """The pickled rows with the features they were made for and the code stamp
    (``benchmarks.shared.code_stamp``: which checkout made them)."""
    return pickle.dumps({"features": REGION_FEATURES, "clean_features": CLEAN_FEATURES, "stamp": code_stamp(),
                         "rows": rows})


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-o", "--output", default=str(cache_file("region-data.pkl")))
    add_data_option(ap)
    ap.add_argument("--limit", type=int, default=0, help="only the first N pages (a quick check)")
    args = ap.parse_args(argv)
    entries = load_manifest(data_dir(args.data))
    groups = site_groups(entries)
    if args.limit:
        entries, groups = entries[: args.limit], groups[: args.limit]
    t0 = time.perf_counter()
    rows = []
    for k, (e, group) in enumerate(zip(entries, groups)):
        rows.append(page_record(e, group))
        if k % 200 == 0:
            print(f"[{k}/{len(entries)}] {time.perf_counter() - t0:.0f}s", file=sys.stderr, flush=True)
    Path(args.output).write_bytes(rows_file(rows))
    print(f"{len(rows)} pages, {sum(len(r['cands']) for r in rows)} candidates -> {args.output} "
          f"({time.perf_counter() - t0:.0f}s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
