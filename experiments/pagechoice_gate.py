#!/usr/bin/env python3
"""The per-page choice's gate, veto and training sets against each other, under site-grouped CV.

Question: on cttf (site-eras learned from ~25 pages) the layout chain scored below region
alone because the choice never took region's body where the layout returned a small part
of the article.  Which of the gate (region run on any layout whose text is a tiny share of
the page's), the veto (``extends_only`` with its extra-text limit) and the training sets
of the choice model (the multi-page sets, or with cttf's site-eras) bring the chain up
to region on cttf without losing on big9, cleanportal and dragnet?

Answer: benchmarks/README.md, "Per-page choice", "cttf" (session 15).

Reads ``train_pagechoice.py``'s records (``--data-file``, the one ``cv.py --choice-data``
reads; built if missing) and prints, per variant, the CV F1 of every set (mean of folds)
and the matched pages where the gate runs region.

    python experiments/pagechoice_gate.py --data-file /tmp/newsstemmer-bench/pagechoice.pkl
"""

from __future__ import annotations

import sys
from pathlib import Path

if __name__ == "__main__" and not __package__:  # run as a file: import from the checkout's root
    sys.path[0] = str(Path(__file__).resolve().parents[1])

import statistics

from benchmarks.shared import data_dir, grouped_folds, load_manifest, page_id, set_entries
from training import train_pagechoice as tp

from newsstemmer.combine.pagechoice import PAGE_FEATURES, choose_body, significant
from newsstemmer.combine.pagechoice_gate import SHORT_BODY
from newsstemmer.evaluation import shingle_prf

#: (name, tiny, edge extra limit or None)
GATES = (("before", 0.0, None), ("tiny 0.1", 0.1, None), ("extra 1.0", 0.0, 1.0), ("tiny 0.1 + extra 1.0", 0.1, 1.0),
         ("tiny 0.15 + extra 1.0", 0.15, 1.0), ("tiny 0.2 + extra 1.0", 0.2, 1.0), ("tiny 0.3 + extra 1.0", 0.3, 1.0))
TRAIN_SETS = (("multi-page sets", ""), ("with cttf", "big9-05,big9-09,cleanportal,dragnet,cttf"))


def extra_exceeds(r: dict, limit: float) -> bool:
    """Whether region's lines that the layout's body lacks weigh more than ``limit`` times
    the layout's body (significant characters): the veto's extra-text limit, tried in
    session 15 and not shipped."""
    sig_layout = significant(r["lbody"])
    extra = sum(len(sig) for sig in map(significant, r["raw"][1].split("\n")) if sig and sig not in sig_layout)
    return extra > limit * len(sig_layout)


def takes(r: dict, model, threshold: float, extra: float | None) -> bool:
    """``train_pagechoice.takes`` with the veto lifted where region's extra text exceeds ``extra``."""
    if not choose_body(r["x"][None, :], model, threshold)[0]:
        return False
    return not (tp.extends(r) and not (extra is not None and extra_exceeds(r, extra)))


def runs_region(r: dict, flags: set[tuple], tiny: float) -> bool:
    """The gate with a second share: a short text on a flagged layout (the library's
    gate), or a text under ``tiny`` of the page's on any layout."""
    flagged = (*r["id"][:2], r["pattern"]) in flags
    return float(r["x"][PAGE_FEATURES.index("layout_page_share")]) < (SHORT_BODY if flagged else tiny)


def choices(records: list[dict], model, threshold: float, tiny: float, extra: float | None) -> tuple[dict, int]:
    """Per page the chosen prediction under this gate and veto, and the matched pages where region runs."""
    flags = {(*r["id"][:2], r["pattern"]) for r in records
             if r["x"] is not None and r["sampled"] and takes(r, model, threshold, extra)}
    out, runs = {}, 0
    for r in records:
        pred = r["layout"]
        if r["x"] is not None and runs_region(r, flags, tiny):
            runs += 1
            if takes(r, model, threshold, extra):
                pred = r["region_lt"]
        out[r["id"]] = (pred, r["gold"])
    return out, runs


_PRF: dict[tuple[str, str], tuple[float | None, float]] = {}


def pooled_f1(pairs: list[tuple[str, str]]) -> float:
    """``evaluate(pairs).f1`` (mean P over non-empty predictions, mean R), without BLEU and
    ROUGE, each page's shingle P/R kept (the variants share most predictions)."""
    prf = [_PRF.setdefault(pair, shingle_prf(*pair)) for pair in pairs]
    ps = [p for p, _ in prf if p is not None]
    p, r = (sum(ps) / len(ps) if ps else 0.0), sum(r for _, r in prf) / len(prf)
    return 2 * p * r / (p + r) if p + r else 0.0


def cv_f1(per_fold: list[dict], sets: dict[str, set]) -> dict[str, float]:
    """Per set, the mean over folds of the held-out pages' pooled F1 (``figures``' CV F1)."""
    out = {}
    for name, ids in sets.items():
        scores = [pooled_f1([pair for pid, pair in fold.items() if pid in ids]) for fold in per_fold
                  if any(pid in ids for pid in fold)]
        out[name] = statistics.mean(scores)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = tp.build_parser()
    args = ap.parse_args(argv)
    entries = load_manifest(data_dir(args.data))
    folds = grouped_folds(entries, args.folds, args.seed)
    records = tp.load_records(entries, folds, args)
    tp.featurize(records, set())
    sets = {n: set_entries(entries, n) for n in tp.SETS}
    wanted = {page_id(e) for es in sets.values() for e in es}
    mine = [r for r in records if r["id"] in wanted]
    set_of = {page_id(e): n for n, es in sets.items() for e in es}
    ids = {n: {page_id(e) for e in es} for n, es in sets.items()}
    matched = {n: sum(1 for r in mine if r["x"] is not None and set_of[r["id"]] == n) for n in sets}
    base = [{r["id"]: (r["layout"], r["gold"]) for r in mine if r["fold"] == k} for k in range(len(folds))]
    rows = [("layout", cv_f1(base, ids), {n: 0 for n in sets})]
    for label, train_sets in TRAIN_SETS:
        args.train_sets = train_sets
        models = [tp.train([r for r in records if r["fold"] != k], args) for k in range(len(folds))]
        for name, tiny, extra in GATES:
            per_fold, runs = [], {n: 0 for n in sets}
            for k in range(len(folds)):
                part = [r for r in mine if r["fold"] == k]
                chosen, _ = choices(part, models[k], args.threshold, tiny, extra)
                per_fold.append(chosen)
                for n in sets:
                    runs[n] += choices([r for r in part if set_of[r["id"]] == n], models[k], args.threshold, tiny,
                                       extra)[1]
            rows.append((f"{label}, {name}", cv_f1(per_fold, ids), runs))
            print(rows[-1], file=sys.stderr, flush=True)
        print(f"[{label}] done", file=sys.stderr, flush=True)
    print("CV F1 (mean of folds); region runs on: matched pages of the set where the gate runs region, "
          f"of {', '.join(f'{n} {m}' for n, m in matched.items())}\n")
    print("| variant | " + " | ".join(f"{n}" for n in sets) + " | region runs |")
    print("|---|" + "---:|" * (len(sets) + 1))
    for name, figs, runs in rows:
        cells = " | ".join(f"{figs[n]:.4f}" for n in sets)
        print(f"| {name} | {cells} | {' / '.join(str(runs[n]) for n in sets)} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
