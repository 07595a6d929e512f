#!/usr/bin/env python3
"""How the single-page sets trade against each other as the learned cleaning removes more.

Question: can the single-page sets' targets be met together by moving the learned cleaning?
Answer: no, every policy lies on one frontier: benchmarks/README.md, "The sets' conventions
against each other"; NOTES.md, session 10 (why issue #12 is blocked).

The sets' gold texts follow different conventions: readability's keeps picture
captions, code listings and step-by-step boxes, chaos's and Big9's leave captions,
bylines and teasers out.  The learned cleaning (``newsstemmer.single.region.cleaning``)
leaves an element out when its score passes a threshold; this script moves that
decision and prints what each set scores, to show where the sets' targets can and
cannot be met together.

For each fold deal (``--seed``) and model seed (``--model-seeds``) the region and
cleaning models are trained per fold as ``train_region.py`` trains them (site-grouped:
no site in two folds).  On each held-out page the region is chosen and the cleaning
candidates are scored once (``RegionExtractor.cleaning_scores``); then each policy
gives the page's text: an element goes when its score passes ``T + A x share``
(``share``: its part of the region's characters; ``A = 0`` is the shipped rule with
``T`` in place of the model's threshold), with the shipped guard.  Figures are
``cv.py``'s (mean over folds of the pooled shingle F1), averaged over deals and seeds.
Policies that no other one beats on both readability and chaos are marked ``*``.

    python experiments/cleaning_frontier.py [--data-file /tmp/region-data.pkl] [--seed 0,1,2]
        [--model-seeds 0] [--thresholds 0,0.5,1,1.5,2] [--share-terms 0,6] [-- TRAIN_REGION_ARGS...]
"""

from __future__ import annotations

import argparse
import statistics
import sys

import numpy as np
from pathlib import Path

if __name__ == "__main__" and not __package__:  # run as a file: import from the checkout's root
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from benchmarks.shared import prediction
from experiments.region_losses import add_cv_arguments, held_out_runs, pooled

from newsstemmer.single.region.candidates import RegionView
from newsstemmer.evaluation import shingle_prf
from newsstemmer.single.pagerank import pagerank_analysis, region_paragraphs


def floats(text: str) -> list[float]:
    return [float(x) for x in text.split(",") if x]


def page_figures(e, ex, policies: list[tuple[float, float]]) -> list[tuple[float | None, float]]:
    """The page's shingle (P, R) under each policy (fold models ``ex``)."""
    an = pagerank_analysis(e.html(), e.url, text=False)
    if an.main < 0:
        return [(None, 0.0)] * len(policies)
    gold = e.gold()
    view = RegionView.of(an)
    region = ex.choose_region(view)
    skip, J, scores = ex.cleaning_scores(view, region)
    share = view.chars[J] / max(float(view.chars[region]), 1.0)
    out = []
    for t, a in policies:
        lines = region_paragraphs(an, region, skip + J[scores > t + a * share].tolist())
        body = "\n".join(ex.guarded(an, lines))
        out.append(shingle_prf(prediction(an.result.title, body, e.gold_has_title), gold))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_cv_arguments(ap, "0,1,2")
    ap.add_argument("--model-seeds", default="0", help="LightGBM seeds; figures are means")
    ap.add_argument("--thresholds", type=floats, default=floats("0,0.5,1,1.5,2"), help="values of T")
    ap.add_argument("--share-terms", type=floats, default=floats("0,6"), help="values of A")
    args = ap.parse_args(argv)
    names = [n for n in args.datasets.split(",") if n]
    policies = [(t, a) for t in args.thresholds for a in args.share_terms]
    by_run: dict[tuple[int, int], dict[str, dict[int, list]]] = {}  # run -> set -> fold -> pages' figures
    for run, k, test, ex in held_out_runs(args, args.model_seeds):
        sets = by_run.setdefault(run, {n: {} for n in names})
        for e, name, _ in test:
            sets[name].setdefault(k, []).append(page_figures(e, ex, policies))
    runs = list(by_run.values())

    table = np.zeros((len(policies), len(names)))
    for j, name in enumerate(names):
        for i in range(len(policies)):
            table[i, j] = statistics.mean(
                statistics.mean(pooled([{"P": p[i][0], "R": p[i][1]} for p in pages], None)[2]
                                for pages in run[name].values())
                for run in runs)
    cols = [names.index(n) for n in ("readability", "chaos") if n in names]
    print(f"## cleaning policies, {args.folds}-fold site-grouped CV, fold deals {args.seed}, "
          f"model seeds {args.model_seeds}\n")
    print("| T | A | " + " | ".join(names) + " |")
    print("|---:|---:|" + "---:|" * len(names))
    for i, (t, a) in enumerate(policies):
        beaten = len(cols) == 2 and any(
            (table[o, cols] >= table[i, cols]).all() and (table[o, cols] > table[i, cols]).any()
            for o in range(len(policies)))
        mark = "" if beaten or len(cols) < 2 else " *"
        print(f"| {t:g} | {a:g} | " + " | ".join(f"{v:.4f}" for v in table[i]) + f" |{mark}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
