#!/usr/bin/env python3
"""Where the learned region extractor loses under site-grouped CV, page by page.

Question: where, step by step, does the learned region extractor lose under CV?  Answer:
benchmarks/README.md, "Where region loses" and the sections after it (its protocol, 3 model seeds x
3 fold deals, judged every region change of sessions 8-10); cleaning_frontier.py reuses its folds.

For each fold (``folds.py``: no site in two folds) the region and cleaning models are
trained as ``train_region.py`` trains them, without the fold's site groups, and run
on the fold's pages.  Per set it prints, as pooled means over all held-out pages:

* ``final``: what the extractor returns (P, R, F1; the CV F1 is ``cv.py``'s, the mean
  of the folds' pooled F1, averaged over the model seeds);
* ``chosen``: the text of the candidate it chose, with PageRank's cleaning only (the
  learned cleaning's effect is ``final`` minus this);
* ``pagerank``: PageRank's own main element (what the region choice starts from);
* ``best``: the candidate of highest F1 on each page (the region choice's oracle).

``--choice-only`` reads the chosen candidate's P/R off the rows instead of running the
extractor (the ``final`` column is then ``chosen``): a quick measure of ranker changes.
``--worst N`` lists each set's N pages of lowest F1 (first model seed) with a verdict:
``choice`` (the best candidate scores ≥ 0.05 F1 more than the chosen one), ``guard``
(PageRank's text, returned by the guard, scores ≥ 0.05 less than the learned steps'),
``clean`` (the learned cleaning lost ≥ 0.05), ``extra`` / ``missing`` (right region,
precision / recall under 0.8).
Model seeds (``--seeds 0,1,2``) show how much of a difference is the boosters' noise:
one seed's CV moves by ±0.002 per set, single pages flip.  Fold seeds (``--seed 0,1,2``:
other deals of the site groups into folds) show the split's: on dragnet-single a change
of +0.006 with one deal was +0.0015 and −0.0015 with two others (branch ``shortpost``).

    python experiments/region_losses.py [--data-file FILE (default: $CACHE/region-data.pkl)] [--seeds 0] [--seed 0]
        [--datasets readability,chaos,dragnet-single,big9] [--worst 20] [--choice-only] [-- TRAIN_REGION_ARGS...]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

import numpy as np

if __name__ == "__main__" and not __package__:  # run as a file: import from the checkout's root
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from benchmarks.shared import (SINGLE_SETS, cache_file, add_data_option, data_dir, grouped_folds, load_manifest, page_id, prediction,
                               set_of_pages, site_groups)
from training.train_region import build_parser, extractors, f1_of, load_rows, row_id, train_models

from newsstemmer.single.region.candidates import RegionView
from newsstemmer.evaluation import shingle_prf
from newsstemmer.single.pagerank import pagerank_analysis, region_paragraphs

#: F1 a step must lose on a page to be named its cause in ``--worst``.
CAUSE_GAP = 0.05


def page_losses(e, row: dict, ex) -> dict:
    """One page's P/R at each step of the extractor (fold models ``ex``) and its oracle."""
    gold = e.gold()
    rec: dict = {"id": page_id(e), "P": None, "R": 0.0}
    an = pagerank_analysis(e.html(), e.url, text=False)
    if an.main < 0:
        return rec
    view = RegionView.of(an)
    region = ex.choose_region(view)
    lines = region_paragraphs(an, region, ex.left_out(view, region))  # (the learned steps, before the guard)
    title, body, unguarded = an.result.title, "\n".join(ex.guarded(an, lines)), "\n".join(lines)
    rec["P"], rec["R"] = shingle_prf(prediction(title, body, e.gold_has_title), gold)
    if unguarded != body:
        rec["guarded"] = f1_of(*shingle_prf(prediction(title, unguarded, e.gold_has_title), gold))
    cands = row["cands"]
    if cands:
        f = [f1_of(p, r) for p, r in zip(row["p"], row["r"])]
        b = int(np.argmax(f))
        rec["best"] = (row["p"][b], row["r"][b])
        for key, node in (("chosen", region), ("pagerank", an.main)):
            if node in cands:
                k = cands.index(node)
                rec[key] = (row["p"][k], row["r"][k])
        rec["moved"] = region != an.main
    return rec


def row_choice(row: dict, ex) -> dict:
    """One page's record from its rows alone (``--choice-only``): the candidate the fold's
    ranker chooses (PageRank's main element unless another scores the margin more), with
    PageRank's cleaning, as the final P/R; no HTML is read, the learned cleaning not run."""
    rec: dict = {"id": row_id(row), "P": row["base"][0], "R": row["base"][1]}
    cands = row["cands"]
    if not cands:
        return rec
    k = cands.index(row["main"])
    if len(cands) > 1 and ex.region is not None:
        s = ex.region.raw(row["X"])
        best = int(np.argmax(s))
        k = best if s[best] - s[k] > ex.region_margin else k
    f = [f1_of(p, r) for p, r in zip(row["p"], row["r"])]
    b = int(np.argmax(f))
    m = cands.index(row["main"])
    rec.update(P=row["p"][k], R=row["r"][k], chosen=(row["p"][k], row["r"][k]), pagerank=(row["p"][m], row["r"][m]),
               best=(row["p"][b], row["r"][b]), moved=k != m)
    return rec


def verdict(rec: dict) -> str:
    """The step that lost most on the page (see the module's docstring)."""
    final = f1_of(rec["P"], rec["R"])
    best = f1_of(*rec["best"]) if "best" in rec else final
    chosen = f1_of(*rec["chosen"]) if "chosen" in rec else final
    if rec.get("guarded", 0.0) - final >= CAUSE_GAP:
        return "guard"
    if best - chosen >= CAUSE_GAP:
        return "choice"
    if "guarded" in rec:
        return "guard (no loss)"
    if chosen - final >= CAUSE_GAP:
        return "clean"
    if rec["P"] is not None and rec["P"] < 0.8:
        return "extra"
    return "missing" if rec["R"] < 0.8 else "-"


def pooled(recs: list[dict], key: str | None) -> tuple[float, float, float]:
    """Mean P (pages with a prediction), mean R and their F1, of one step's figures."""
    pairs = [(r["P"], r["R"]) if key is None else r.get(key, (r["P"], r["R"])) for r in recs]
    ps = [p for p, _ in pairs if p is not None]
    p = statistics.mean(ps) if ps else 0.0
    r = statistics.mean(rr for _, rr in pairs)
    return p, r, f1_of(p, r)


def add_cv_arguments(ap: argparse.ArgumentParser, deals: str) -> None:
    """The options of a site-grouped CV run over region_data.py's rows (shared with
    ``cleaning_frontier.py``)."""
    ap.add_argument("--data-file", default=str(cache_file("region-data.pkl")), help="region_data.py's rows")
    add_data_option(ap)
    ap.add_argument("--datasets", default=",".join(SINGLE_SETS + ("big9",)))
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--seed", default=deals,
                    help="orders groups of equal size when dealing folds; several (0,1,2): figures are means over them")
    ap.add_argument("train_args", nargs="*", help="train_region.py options after --")


def held_out_runs(args: argparse.Namespace, model_seeds: str):
    """Per fold deal (``args.seed``) and model seed: the run's key, then per fold the
    fold's index, its pages of ``args.datasets`` (with their set) and the extractor
    whose models were trained without the fold's site groups.

    Yields ``(run, k, [(entry, set, row)], extractor)``; the rows are ``args.data_file``'s.
    """
    rows = {row_id(r): r for r in load_rows(Path(args.data_file))}
    entries = load_manifest(data_dir(args.data))
    groups = dict(zip((page_id(e) for e in entries), site_groups(entries)))
    set_of = set_of_pages(entries, [n for n in args.datasets.split(",") if n])
    for deal in (int(d) for d in args.seed.split(",") if d):
        folds = grouped_folds(entries, args.folds, deal)
        for seed in (int(s) for s in model_seeds.split(",") if s):
            targs = build_parser().parse_args(["--model-seed", str(seed), *args.train_args])
            for k, fold in enumerate(folds):
                held = {groups[page_id(e)] for e in fold}
                test = [(e, set_of[page_id(e)], rows[page_id(e)]) for e in fold if page_id(e) in set_of]
                if not test:
                    continue
                region, clean = train_models([r for i, r in rows.items() if groups[i] not in held], targs)
                yield (deal, seed), k, test, extractors(region, clean, ["both"])["both"]
            print(f"[fold deal {deal}, model seed {seed}] done", file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_cv_arguments(ap, "0")
    ap.add_argument("--seeds", default="0", help="model seeds; figures are means over them")
    ap.add_argument("--choice-only", action="store_true",
                    help="the region choice alone, from the rows (no HTML, no learned cleaning; ~13 s a run)")
    ap.add_argument("--worst", type=int, default=0, help="list each set's N worst pages (first seed)")
    args = ap.parse_args(argv)
    names = [n for n in args.datasets.split(",") if n]
    by_run: dict[tuple[int, int], list[dict]] = {}
    for run, k, test, ex in held_out_runs(args, args.seeds):
        recs = by_run.setdefault(run, [])
        for e, name, row in test:
            rec = row_choice(row, ex) if args.choice_only else page_losses(e, row, ex)
            rec.update(set=name, fold=k)
            recs.append(rec)
    runs = list(by_run.values())

    seed_lines = []
    print(f"## region extractor losses, {args.folds}-fold site-grouped CV, model seeds {args.seeds}, "
          f"fold seeds {args.seed}\n")
    print("| set | pages | CV F1 | final P / R / F1 | chosen, PageRank's cleaning | PageRank's region | best candidate |")
    print("|---|---:|---:|---|---|---|---|")
    for name in names:
        cvs, steps = [], {key: [] for key in (None, "chosen", "pagerank", "best")}
        for recs in runs:
            mine = [r for r in recs if r["set"] == name]
            by_fold: dict[int, list[dict]] = {}
            for r in mine:
                by_fold.setdefault(r["fold"], []).append(r)
            cvs.append(statistics.mean(pooled(v, None)[2] for v in by_fold.values()))
            for key in steps:
                steps[key].append(pooled(mine, key))
        cells = []
        for key, values in steps.items():
            p, r, f = (statistics.mean(v[i] for v in values) for i in range(3))
            cells.append(f"{p:.3f} / {r:.3f} / {f:.3f}")
        count = sum(1 for r in runs[0] if r["set"] == name)
        print(f"| {name} | {count} | {statistics.mean(cvs):.3f} | " + " | ".join(cells) + " |")
        seed_lines.append(f"{name}: CV F1 {statistics.mean(cvs):.4f} (seeds: {' '.join(f'{v:.4f}' for v in cvs)})")
    print("\n" + "\n".join(seed_lines))
    if args.worst:
        for name in names:
            mine = sorted((r for r in runs[0] if r["set"] == name), key=lambda r: f1_of(r["P"], r["R"]))
            counts: dict[str, int] = {}
            for r in mine:
                if f1_of(r["P"], r["R"]) < 0.9:
                    counts[verdict(r)] = counts.get(verdict(r), 0) + 1
            print(f"\n### {name}: {args.worst} worst pages (pages under F1 0.9 by verdict: {counts})\n")
            for r in mine[: args.worst]:
                def pr(pair) -> str:
                    return f"{pair[0] or 0:.2f}/{pair[1]:.2f}" if pair else "  -  "
                print(f"  {'/'.join(r['id'][1:])[:40]:40s} F1 {f1_of(r['P'], r['R']):.2f} P/R {pr((r['P'], r['R']))}"
                      f"  chosen {pr(r.get('chosen'))}  best {pr(r.get('best'))}  {verdict(r)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
