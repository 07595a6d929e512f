#!/usr/bin/env python3
"""Single-page extraction quality and speed: DOM PageRank + DensitySum (SPEC §4).

Every page is extracted on its own (nothing learned), with
``newsstemmer.single.pagerank.pagerank_extract``.  The prediction is
title + "\\n" + body where the gold includes the headline, the body alone elsewhere.

    python benchmarks/single_page.py [--datasets readability,dragnet-single]
                                     [--set alpha=0.3 --set weighting=uniform]
                                     [--ablation] [--worst N] [--json FILE] [--data DIR]

Dataset names are those of the manifest (all pages) plus ``NAME-single``: only
the sites of NAME with a single page (e.g. ``dragnet-single``, the default).
Speed is pages per second of ``pagerank_extract`` alone (HTML already decoded),
on one core.  ``--ablation`` runs the defaults, the source document's own method
and the defaults with one choice undone at a time, and prints one F1 table.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import fields, replace
from pathlib import Path

if __name__ == "__main__" and not __package__:  # run as a file: import from the checkout's root
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from benchmarks.shared import Entry, add_data_option, data_dir, load_manifest, prediction, select

from newsstemmer.evaluation import evaluate, score_page
from newsstemmer.single.pagerank import PageRankOptions, pagerank_extract

DEFAULT_DATASETS = ("readability", "dragnet-single")

#: The source document's method: text-uniform weights, α = 0.5, the DensitySum core alone.
DOCUMENT = {
    "alpha": 0.5,
    "weighting": "uniform",
    "text_weight": "unit",
    "similarity": "dice",
    "link_weight": 1.0,
    "comment_weight": 1.0,
    "sidebar_weight": 1.0,
    "headline_weight": 0.0,
    "to_container": False,
    "climb_share": 0.0,
    "link_density": 1.0,
    "drop_comments": False,
    "drop_named": False,
    "strip_title": False,
}
#: (name, changes to the defaults) for --ablation.
ABLATION: list[tuple[str, dict]] = [
    ("defaults", {}),
    ("document: uniform, α=0.5, core only", DOCUMENT),
    ("document + title weights (dice, β=0.5)", {**DOCUMENT, "weighting": "title", "beta": 0.5}),
    ("α = 0.5", {"alpha": 0.5}),
    ("α = 50", {"alpha": 50.0}),
    ("weighting = uniform", {"weighting": "uniform"}),
    ("similarity = dice", {"similarity": "dice"}),
    ("β = 0.5", {"beta": 0.5}),
    ("text_weight = unit (1 per text node)", {"text_weight": "unit"}),
    ("link text not cut (link_weight=1)", {"link_weight": 1.0}),
    ("comments not cut (comment_weight=1)", {"comment_weight": 1.0}),
    ("sidebars not cut (sidebar_weight=1)", {"sidebar_weight": 1.0}),
    ("no headline weight", {"headline_weight": 0.0}),
    ("media_weight = 0.3", {"media_weight": 0.3}),
    ("core not widened to a container", {"to_container": False}),
    ("no climbing (climb_share=0)", {"climb_share": 0.0}),
    ("climb_share = 0.9", {"climb_share": 0.9}),
    ("no cleaning", {"link_density": 1.0, "drop_comments": False, "drop_named": False}),
    ("no named-boilerplate cleaning", {"drop_named": False}),
    ("hidden elements kept", {"skip_hidden": False}),
    ("title line kept in body", {"strip_title": False}),
]


def parse_overrides(items: list[str]) -> PageRankOptions:
    """``--set name=value`` pairs applied to the default options."""
    types = {f.name: f.type for f in fields(PageRankOptions)}
    defaults = PageRankOptions()
    changes: dict[str, object] = {}
    for item in items:
        name, _, value = item.partition("=")
        if name not in types:
            sys.exit(f"error: unknown option {name!r} (known: {', '.join(types)})")
        current = getattr(defaults, name)
        if isinstance(current, bool):
            changes[name] = value.lower() in ("1", "true", "yes", "on")
        elif isinstance(current, int):
            changes[name] = int(value)
        elif isinstance(current, float):
            changes[name] = float(value)
        else:
            changes[name] = value
    return replace(defaults, **changes)


def run(entries: list[Entry], options: PageRankOptions) -> dict:
    """Extract every page; return pairs, per-page records, (title, body) per page and the
    extraction time."""
    docs = []
    for e in entries:
        try:
            docs.append(e.html())
        except Exception:  # undecodable page: scored as an empty prediction
            docs.append(None)
    pairs, records, extracted = [], [], []
    elapsed = 0.0
    for e, doc in zip(entries, docs):
        title = body = ""
        rec: dict = {"site": e.site, "id": e.id, "error": None}
        if doc is not None:
            t0 = time.perf_counter()
            try:
                res = pagerank_extract(doc, e.url, options)
                title, body = res.title, res.body
                rec["xpath"] = res.xpath
            except Exception as exc:  # counted, shown; the page scores as empty
                rec["error"] = f"{type(exc).__name__}: {exc}"
            elapsed += time.perf_counter() - t0
        else:
            rec["error"] = "decode"
        gold = e.gold()
        pred = prediction(title, body, e.gold_has_title)
        ps = score_page(pred, gold)
        rec.update(precision=ps.precision, recall=ps.recall)
        pairs.append((pred, gold))
        extracted.append((title, body))
        records.append(rec)
    return {"pairs": pairs, "records": records, "extracted": extracted, "seconds": elapsed}


def ablation(entries: list[Entry], names: list[str], base: PageRankOptions) -> int:
    """One row per variant of ``base``: F1 (P/R) per dataset."""
    chosen = {name: select(entries, name) for name in names}
    print("| variant | " + " | ".join(f"{n} F1 (P / R)" for n in names) + " |")
    print("|---" * (len(names) + 1) + "|")
    for label, changes in ABLATION:
        options = replace(base, **changes)
        cells = []
        for name in names:
            s = evaluate(run(chosen[name], options)["pairs"])
            cells.append(f"{s.f1:.3f} ({s.precision:.3f} / {s.recall:.3f})")
        print(f"| {label} | " + " | ".join(cells) + " |", flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_data_option(ap)
    ap.add_argument("--datasets", default=",".join(DEFAULT_DATASETS), help="comma-separated dataset names")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE", help="override a PageRankOptions field")
    ap.add_argument("--ablation", action="store_true", help="F1 of the defaults and of variants (one table)")
    ap.add_argument("--worst", type=int, default=0, metavar="N", help="list the N pages with the lowest F1")
    ap.add_argument("--json", metavar="FILE", help="write the figures and per-page records as JSON")
    args = ap.parse_args(argv)

    options = parse_overrides(args.set)
    entries = load_manifest(data_dir(args.data))
    names = [d.strip() for d in args.datasets.split(",") if d.strip()]
    if args.ablation:
        return ablation(entries, names, options)
    print(f"options: {options}")
    print()
    print("| dataset | pages | F1 | P | R | BLEU-4 | ROUGE-2 | empty | errors | pages/s |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    report: dict = {"options": options.__dict__, "datasets": {}}
    worst: list[tuple[float, str, dict]] = []
    for name in names:
        chosen = select(entries, name)
        if not chosen:
            print(f"| {name} | 0 | (no pages) |")
            continue
        out = run(chosen, options)
        s = evaluate(out["pairs"])
        errors = sum(1 for r in out["records"] if r["error"])
        speed = len(chosen) / out["seconds"] if out["seconds"] else float("inf")
        print(
            f"| {name} | {s.pages} | {s.f1:.3f} | {s.precision:.3f} | {s.recall:.3f} | "
            f"{s.bleu4:.3f} | {s.rouge2:.3f} | {s.empty} | {errors} | {speed:.0f} |"
        )
        report["datasets"][name] = {**s.as_dict(), "errors": errors, "pages_per_s": speed, "pages": out["records"]}
        for r in out["records"]:
            p, rc = r["precision"] or 0.0, r["recall"]
            f1 = 2 * p * rc / (p + rc) if p + rc else 0.0
            worst.append((f1, name, r))
    if args.worst:
        print()
        for f1, name, r in sorted(worst, key=lambda t: t[0])[: args.worst]:
            p = r["precision"]
            p_text = "-" if p is None else f"{p:.2f}"
            where = f"{name}/{r['site']}/{r['id']}"
            print(f"{f1:.2f}  P={p_text} R={r['recall']:.2f}  {where}  {r.get('xpath', '')} {r['error'] or ''}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(report, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
