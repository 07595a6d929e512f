#!/usr/bin/env python3
"""Extraction quality on the development data (shingle F1, P, R, BLEU-4, ROUGE-2).

Transductive, like the original Webstemmer evaluation: for every site, learn
the patterns from all of the site's pages, then extract each of those pages.
The prediction is title + "\\n" + body where the gold includes the headline,
the body alone elsewhere.

    python benchmarks/quality.py [--datasets big9-05,dragnet] [--min-pages N]
                                 [--per-site] [--convention news|own|both] [--json FILE] [--data DIR]

``--convention own`` scores each set in its own convention (``shared.conventions``: the
article's typed blocks with the kinds the set's gold keeps), ``both`` prints the two tables;
the default, ``news``, is the plain body (the figures reported so far).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

if __name__ == "__main__" and not __package__:  # run as a file: import from the checkout's root
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from benchmarks.shared import Entry, by_site, add_data_option, data_dir, load_manifest, prediction
from benchmarks.shared.conventions import CONVENTION_CHOICES, article_blocks, keep_of

from newsstemmer import ExtractOptions, LearnOptions, Page, extract_with_patterns, learn
from newsstemmer.evaluation import evaluate, score_page

DEFAULT_DATASETS = ("big9-05", "big9-09", "cleanportal", "dragnet")
# Sites with fewer pages are left out by default (dragnet has many one-page sites,
# from which nothing can be learned).
DEFAULT_MIN_PAGES = {"dragnet": 5}


def run_site(entries: list[Entry], options: LearnOptions | None = None) -> dict:
    """Learn one site from all its pages (``options``: the learning settings, default
    ``newsstemmer.learn``'s) and extract each; return per-page records."""
    pages: list[Page | None] = []
    records: list[dict] = []
    for e in entries:
        rec = {"id": e.id, "url": e.url, "matched": False, "pattern": None, "error": None}
        try:
            pages.append(Page(html=e.html(), url=e.url, source=f"{e.site}/{e.id}"))
        except Exception as exc:  # undecodable page: scored as an empty prediction
            pages.append(None)
            rec["error"] = f"decode: {exc}"
        records.append(rec)

    t0 = time.perf_counter()
    patterns = None
    try:
        patterns = learn([p for p in pages if p is not None], options)
    except Exception as exc:
        for rec in records:
            rec["error"] = rec["error"] or f"learn: {type(exc).__name__}: {exc}"
    t_learn = time.perf_counter() - t0

    t0 = time.perf_counter()
    pairs, own_pairs = [], []
    for e, page, rec in zip(entries, pages, records):
        title = body = ""
        art = None
        if page is not None and patterns is not None:
            try:
                art = extract_with_patterns(page, patterns, OPTIONS)
                title, body = art.title, art.body
                rec["matched"], rec["pattern"] = art.matched, art.pattern
            except Exception as exc:
                rec["error"] = f"extract: {type(exc).__name__}: {exc}"
        pred = prediction(title, body, e.gold_has_title)
        gold = e.gold()
        ps = score_page(pred, gold)
        rec.update(precision=ps.precision, recall=ps.recall, bleu4=ps.bleu4, rouge2=ps.rouge2)
        pairs.append((pred, gold))
        own_pairs.append((prediction(title, "", e.gold_has_title, article_blocks(art if art is not None else body),
                                     keep_of(e, "own")), gold))
    t_extract = time.perf_counter() - t0

    return {
        "pairs": pairs,
        "own_pairs": own_pairs,  # the same pages in each set's own convention (shared.conventions)
        "records": records,
        "n_patterns": len(patterns.patterns) if patterns is not None else 0,
        "learn_s": t_learn,
        "extract_s": t_extract,
    }


def figures(pairs: list[tuple[str, str]], records: list[dict]) -> dict:
    score = evaluate(pairs).as_dict()
    score["unmatched"] = sum(1 for r in records if not r["matched"])
    score["errors"] = sum(1 for r in records if r["error"])
    return score


def table(rows: list[tuple[str, dict]], first: str) -> str:
    out = [
        f"| {first} | pages | unmatched | empty | F1 | P | R | BLEU-4 | ROUGE-2 |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, f in rows:
        out.append(
            f"| {name} | {f['pages']} | {f['unmatched']} | {f['empty']} | {f['f1']:.3f} | {f['precision']:.3f} "
            f"| {f['recall']:.3f} | {f['bleu4']:.3f} | {f['rouge2']:.3f} |"
        )
    return "\n".join(out)


OPTIONS = ExtractOptions(fallback="pagerank")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_data_option(ap)
    ap.add_argument("--datasets", default=",".join(DEFAULT_DATASETS), help="comma-separated dataset names")
    ap.add_argument(
        "--min-pages",
        type=int,
        default=None,
        help="only sites with at least N pages (default: 5 for dragnet, all sites elsewhere)",
    )
    ap.add_argument("--per-site", action="store_true", help="also print a per-site table for every dataset")
    ap.add_argument("--method", choices=("auto", "pattern"), default="auto",
                    help="auto (default): unmatched pages get the single-page fallback; pattern: layouts only")
    ap.add_argument("--convention", choices=CONVENTION_CHOICES, default="news",
                    help="news (default): the plain body; own: each set's own convention; both: the two tables")
    ap.add_argument("--json", metavar="FILE", help="write all figures (per dataset, site and page) as JSON")
    args = ap.parse_args(argv)
    global OPTIONS
    OPTIONS = ExtractOptions(fallback="pagerank" if args.method == "auto" else None)

    root = data_dir(args.data)
    entries = load_manifest(root)
    known = sorted({e.dataset for e in entries})
    names = [d.strip() for d in args.datasets.split(",") if d.strip()]
    unknown = [d for d in names if d not in known]
    if unknown:
        ap.error(f"unknown dataset(s) {', '.join(unknown)}; known: {', '.join(known)}")

    results: dict[str, dict] = {}
    t_start = time.perf_counter()
    for ds in names:
        min_pages = args.min_pages if args.min_pages is not None else DEFAULT_MIN_PAGES.get(ds, 1)
        sites = {s: es for s, es in by_site(entries, ds).items() if len(es) >= min_pages}
        all_pairs: list[tuple[str, str]] = []
        all_own: list[tuple[str, str]] = []
        all_records: list[dict] = []
        site_out: dict[str, dict] = {}
        t_ds = time.perf_counter()
        for k, (site, es) in enumerate(sites.items(), 1):
            print(f"[{ds} {k}/{len(sites)}] {site} ({len(es)} pages)", file=sys.stderr, flush=True)
            r = run_site(es)
            all_pairs += r["pairs"]
            all_own += r["own_pairs"]
            all_records += r["records"]
            site_out[site] = {
                **figures(r["pairs"], r["records"]),
                "patterns": r["n_patterns"],
                "learn_s": round(r["learn_s"], 4),
                "extract_s": round(r["extract_s"], 4),
                "pages_detail": r["records"],
            }
        results[ds] = {
            **figures(all_pairs, all_records),
            "sites": len(sites),
            "min_pages": min_pages,
            "seconds": round(time.perf_counter() - t_ds, 2),
            "per_site": site_out,
            "own": figures(all_own, all_records),
        }
    elapsed = time.perf_counter() - t_start
    print(f"done in {elapsed:.1f}s", file=sys.stderr)

    print("## Extraction quality (transductive: learn each site from all its pages, extract them)\n")
    rows = []
    for ds, r in results.items():
        if args.convention != "own":
            rows.append((f"{ds} ({r['sites']} sites)", r))
        if args.convention != "news":
            rows.append((f"{ds} ({r['sites']} sites), own convention", r["own"]))
    print(table(rows, "dataset"))
    errors = sum(r["errors"] for r in results.values())
    if errors:
        print(f"\n{errors} page(s) failed to decode, learn or extract (scored as empty); see --json.")
    print("\nunmatched: no pattern applied; empty: prediction without any token (unmatched, or matched")
    print("a non-article layout or empty sections); P is averaged over non-empty predictions only.")
    if args.per_site:
        for ds, r in results.items():
            print(f"\n### {ds}\n")
            print(table(list(r["per_site"].items()), "site"))

    if args.json:
        out = {
            "data": str(root),
            "datasets": results,
            "elapsed_s": round(elapsed, 2),
        }
        Path(args.json).write_text(json.dumps(out, indent=1, ensure_ascii=False), encoding="utf-8")
        print(f"\nfigures written to {args.json}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
