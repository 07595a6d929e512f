#!/usr/bin/env python3
"""Block features and gold labels of every dataset page, for the learned block decision.

For each page of the manifest: its layout blocks, the features of each block
(``newsstemmer.decision.features``) once as a single page (PageRank evidence, no
layout) and, for pages of sites with >= 2 pages, once more with the evidence of the
site's layouts (learned per site from all its pages, unsupervised, as ``quality.py``
does), and each block's label: the share of its 4-token shingles found in the gold
text.  Written to one pickle that ``train_decision.py`` reads (about 3 minutes).

    python benchmarks/decision_data.py [-o /tmp/decision-data.pkl] [--data DIR]
                                       [--datasets big9-05,...] [--limit-sites N]
"""

from __future__ import annotations

import argparse
import pickle
import sys
import time
from collections import defaultdict
from pathlib import Path

from _common import Entry, data_dir, load_manifest
from folds import group_key

from newsstemmer import learn
from newsstemmer.decision.dataset import PageRows, page_rows
from newsstemmer.page import Page


def site_rows(entries: list[Entry]) -> list[PageRows | None]:
    """Rows of every page of one site (None for a page that cannot be read)."""
    pages: list[Page | None] = []
    for e in entries:
        try:
            pages.append(Page(html=e.html(), url=e.url, source=f"{e.site}/{e.id}"))
        except Exception:
            pages.append(None)
    patterns = None
    readable = [p for p in pages if p is not None]
    if len(readable) >= 2:
        try:
            patterns = learn(readable)
        except Exception as exc:
            print(f"  learn failed for {entries[0].site}: {exc}", file=sys.stderr)
    out: list[PageRows | None] = []
    for e, page in zip(entries, pages):
        if page is None:
            out.append(None)
            continue
        try:
            rows = page_rows(page, patterns, e.gold())
        except Exception as exc:
            print(f"  {e.dataset}/{e.site}/{e.id}: {type(exc).__name__}: {exc}", file=sys.stderr)
            out.append(None)
            continue
        rows.meta = {
            "dataset": e.dataset,
            "site": e.site,
            "id": e.id,
            "group": group_key(e),
            "gold_has_title": e.gold_has_title,
            "gold": e.gold(),
        }
        out.append(rows)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-o", "--output", default="/tmp/decision-data.pkl")
    ap.add_argument("--data", default=None)
    ap.add_argument("--datasets", default="", help="comma-separated datasets (default: all)")
    args = ap.parse_args(argv)
    entries = load_manifest(data_dir(args.data))
    if args.datasets:
        wanted = set(args.datasets.split(","))
        entries = [e for e in entries if e.dataset in wanted]
    sites: dict[tuple[str, str], list[Entry]] = defaultdict(list)
    for e in entries:
        sites[(e.dataset, e.site)].append(e)
    t0 = time.perf_counter()
    rows: list[PageRows] = []
    for k, (key, group) in enumerate(sites.items()):
        rows.extend(r for r in site_rows(group) if r is not None)
        if k % 50 == 0:
            print(f"  {k}/{len(sites)} sites, {len(rows)} pages, {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    Path(args.output).write_bytes(pickle.dumps(rows, protocol=pickle.HIGHEST_PROTOCOL))
    blocks = sum(len(r.texts) for r in rows)
    print(f"{len(rows)} pages, {blocks} blocks -> {args.output} ({time.perf_counter() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
