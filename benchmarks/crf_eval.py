#!/usr/bin/env python3
"""Single-page extraction by CRF labelling (SPEC §5): CRF alone vs CRF + relabelling.

Every page is extracted on its own with ``newsstemmer.single.crf.CRFExtractor`` and
the shipped model (or ``--model``), which was trained on other sites.  The
evaluation sets are the readability set and dragnet's single-page sites (none
of their pages is used in training).  The prediction is title + "\\n" + body
where the gold includes the headline, the body alone elsewhere.

    python benchmarks/crf_eval.py [--datasets readability,dragnet-single] [--model FILE]
                                  [--thresholds 0.7:0.4,0.8:0.4] [--soft] [--json FILE] [--data DIR]

Speed is pages per second of ``extract`` alone (HTML already decoded, parsing
included), one core, best of ``--repeat`` runs; a bare lxml parse of the same pages
is timed too, as a yardstick for the machine.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

if __name__ == "__main__" and not __package__:  # run as a file: import from the checkout's root
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from benchmarks.shared import Entry, add_data_option, data_dir, load_manifest, prediction, select
from training.train_crf import variants

from newsstemmer.dom.parse import parse_html
from newsstemmer.single.crf import CRFExtractor
from newsstemmer.evaluation import evaluate

DEFAULT_DATASETS = ("readability", "dragnet-single")


def run(extractor: CRFExtractor, entries: list[Entry], docs: list[str | None]) -> dict:
    pairs, errors, elapsed = [], 0, 0.0
    for e, doc in zip(entries, docs):
        title = body = ""
        if doc is not None:
            t0 = time.perf_counter()
            try:
                title, body = extractor.extract(doc)
            except Exception as exc:  # the page scores as empty, and is counted
                errors += 1
                print(f"{e.dataset}/{e.site}/{e.id}: {type(exc).__name__}: {exc}", file=sys.stderr)
            elapsed += time.perf_counter() - t0
        pairs.append((prediction(title, body, e.gold_has_title), e.gold()))
    score = evaluate(pairs).as_dict()
    score.update(errors=errors, seconds=elapsed, pages_per_s=len(entries) / elapsed if elapsed else 0.0)
    return score


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_data_option(ap)
    ap.add_argument("--datasets", default=",".join(DEFAULT_DATASETS), help="comma-separated dataset names")
    ap.add_argument("--model", help="CRF model file (default: the shipped model)")
    ap.add_argument("--thresholds", default="0.7:0.4", help="upper:lower pairs, comma-separated")
    ap.add_argument("--soft", action="store_true", help="relabel on marginal probabilities")
    ap.add_argument("--repeat", type=int, default=1, help="time each variant N times, keep the fastest")
    ap.add_argument("--json", metavar="FILE", help="write the figures as JSON")
    args = ap.parse_args(argv)

    entries = load_manifest(data_dir(args.data))
    chosen_variants = variants(args.thresholds, args.soft)
    out: dict = {}
    print("| set | variant | pages | empty | F1 | P | R | BLEU-4 | ROUGE-2 | pages/s |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name in args.datasets.split(","):
        chosen = select(entries, name)
        if not chosen:
            sys.exit(f"error: no pages in dataset {name!r}")
        docs = []
        for e in chosen:
            try:
                docs.append(e.html())
            except Exception:
                docs.append(None)
        for label, kw in chosen_variants:
            extractor = CRFExtractor(args.model, **kw)
            best = None
            for _ in range(max(1, args.repeat)):
                s = run(extractor, chosen, docs)
                if best is None or s["seconds"] < best["seconds"]:
                    best = s
            s = best
            out.setdefault(name, {})[label] = s
            print(
                f"| {name} | {label} | {s['pages']} | {s['empty']} | {s['f1']:.3f} | {s['precision']:.3f} | {s['recall']:.3f} "
                f"| {s['bleu4']:.3f} | {s['rouge2']:.3f} | {s['pages_per_s']:.0f} |",
                flush=True,
            )
    # What a bare lxml parse of the same pages costs, as a yardstick for this machine.
    docs = []
    for name in args.datasets.split(","):
        for e in select(entries, name):
            try:
                docs.append(e.html())
            except Exception:
                pass
    best = None
    for _ in range(max(1, args.repeat)):
        t0 = time.perf_counter()
        for d in docs:
            try:
                parse_html(d)
            except Exception:
                pass
        elapsed = time.perf_counter() - t0
        best = elapsed if best is None else min(best, elapsed)
    out["parse_only_pages_per_s"] = len(docs) / best if best else 0.0
    print(f"\nbare parse (lxml) of the same {len(docs)} pages: {out['parse_only_pages_per_s']:.0f} pages/s")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(out, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
