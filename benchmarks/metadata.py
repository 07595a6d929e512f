#!/usr/bin/env python3
"""Article metadata against the sets' gold (title, published, authors, language).

Scored as ``../shared/datasets/PEERS.md`` says: title normalised exact, published the
same calendar day, authors the mean set F1 of normalised names (pages whose gold has
the field), language the primary subtag against the set's ``language`` or the page's
``html_lang``.  Nothing is learned: these are the figures of the rules in
:mod:`newsstemmer.metadata` on every page.

    python benchmarks/metadata.py [--datasets fundus-recent,misinfo,wcxb-dev,readability]
                                  [--worst FIELD] [--data DIR]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

if __name__ == "__main__" and not __package__:  # run as a file: import from the checkout's root
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from benchmarks.shared import data_dir, load_manifest

from newsstemmer.evaluation import author_f1, normalise_title, same_day
from newsstemmer.metadata import article_metadata
from newsstemmer.page import Page

DEFAULT_SETS = ("fundus-recent", "misinfo", "wcxb-dev", "readability")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--datasets", default=",".join(DEFAULT_SETS))
    parser.add_argument("--worst", help="list the misses of one field (title, published, authors, language)")
    parser.add_argument("--data")
    args = parser.parse_args()
    root = data_dir(args.data)
    rows = {(r["dataset"], r["site"], r["id"]): r
            for r in map(json.loads, (root / "manifest.jsonl").read_text(encoding="utf-8").splitlines()) if r}
    entries = load_manifest(root)
    print("| set | pages | title | published (pages) | authors F1 (pages) | language (pages) | ms/page |")
    print("|---|---|---|---|---|---|---|")
    for ds in args.datasets.split(","):
        es = [e for e in entries if e.dataset == ds and rows[(e.dataset, e.site, e.id)].get("meta")]
        scores: dict[str, list[float]] = {"title": [], "published": [], "authors": [], "language": []}
        sources: dict[str, Counter[str]] = {k: Counter() for k in scores}
        misses = []
        spent = 0.0
        for e in es:
            row = rows[(e.dataset, e.site, e.id)]
            gold = row["meta"]
            page = Page(e.html(), url=e.url)
            _ = page.tree
            t0 = time.perf_counter()
            meta = article_metadata(page.tree, e.url)
            spent += time.perf_counter() - t0
            checks = {}
            if gold.get("title"):
                checks["title"] = (normalise_title(meta.title) == normalise_title(gold["title"]), meta.title, gold["title"])
            if gold.get("published"):
                checks["published"] = (same_day(meta.published, gold["published"]), meta.published, gold["published"])
            if gold.get("authors"):
                checks["authors"] = (author_f1(meta.authors, gold["authors"]), meta.authors, gold["authors"])
            lang = gold.get("language") or row.get("html_lang")
            if lang:
                ok = (meta.language or "").split("-")[0].lower() == lang.split("-")[0].split("_")[0].lower()
                checks["language"] = (ok, meta.language, lang)
            for name, (value, got, want) in checks.items():
                scores[name].append(float(value))
                sources[name][meta.meta_source.get(name, "none")] += 1
                if name == args.worst and float(value) < 1:
                    misses.append(f"{e.site}/{e.id}: {got!r} != {want!r} ({meta.meta_source.get(name)})")

        def cell(name: str, with_n: bool = True) -> str:
            v = scores[name]
            if not v:
                return "-"
            return f"{sum(v) / len(v):.3f}" + (f" ({len(v)})" if with_n else "")

        print(f"| {ds} | {len(es)} | {cell('title', False)} | {cell('published')} | {cell('authors')} | "
              f"{cell('language')} | {1000 * spent / max(1, len(es)):.2f} |")
        for name, counts in sources.items():
            if counts:
                print(f"  {ds} {name} sources: {dict(counts.most_common())}", file=sys.stderr)
        for line in misses:
            print("  " + line, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
