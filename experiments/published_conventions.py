#!/usr/bin/env python3
"""Which of a page's dates does each set's gold take where they disagree?

Question: where the structured published date (what ``article_metadata`` takes first) and
the date the page shows under its headline fall on different days, or where OpenGraph's
``article:published_time`` and JSON-LD's ``datePublished`` do, which one is the gold's?
Split by how far apart the two are (one day: a time zone; more: an update shown as
"Updated ..."), and whether the shown date is the page's ``dateModified``.

Answer (session 17, benchmarks/README.md "Article metadata"): no rule of this kind gains on
every set: one day apart, misinfo takes the structured day 6 times and the shown one 3
times, wcxb-dev 4 and 5; further apart, wcxb-dev takes the structured date 46 times and the
shown one 32 times; OpenGraph before JSON-LD helps misinfo only.

    python experiments/published_conventions.py [--datasets misinfo,wcxb-dev,fundus-recent] [--data DIR] [-v]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from datetime import date
from pathlib import Path

if __name__ == "__main__" and not __package__:  # run as a file: import from the checkout's root
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from benchmarks.shared import add_data_option, data_dir, load_manifest

from newsstemmer.metadata import article_metadata, page_facts
from newsstemmer.metadata.dates import date_in_text, parse_date
from newsstemmer.metadata.facts import ld_text, ld_values
from newsstemmer.metadata.fields import headline_neighbourhood
from newsstemmer.metadata.neighbourhood import LINES_AFTER
from newsstemmer.page import Page

_STRUCTURED = ("json-ld", "opengraph", "meta", "microdata")


def shown_date(tree, facts) -> str | None:
    """The first date in a short line within LINES_AFTER lines under the headline."""
    hood = headline_neighbourhood(tree, facts)
    if hood.at < 0:
        return None
    for line in hood.lines[hood.at:hood.at + LINES_AFTER]:
        line = " ".join(line.split())
        if 6 <= len(line) <= 120:
            iso = date_in_text(line)
            if iso:
                return iso
    return None


def days_apart(a: str, b: str) -> int:
    return abs((date.fromisoformat(a[:10]) - date.fromisoformat(b[:10])).days)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--datasets", default="misinfo,wcxb-dev,fundus-recent")
    add_data_option(parser)
    parser.add_argument("-v", "--verbose", action="store_true", help="list the pages")
    args = parser.parse_args()
    sets = args.datasets.split(",")
    shown_vs = Counter()
    og_vs_ld = Counter()
    for e in load_manifest(data_dir(args.data)):
        if e.dataset not in sets or not (e.meta and e.meta.get("published")):
            continue
        gold = e.meta["published"][:10]
        page = Page(e.html(), url=e.url)
        meta = article_metadata(page.tree, e.url, html=page.html)
        facts = page_facts(page.tree, page.html)
        structured = meta.published if meta.meta_source.get("published") in _STRUCTURED else None
        shown = shown_date(page.tree, facts)
        if structured and shown and structured[:10] != shown[:10]:
            far = "one day apart" if days_apart(structured, shown) <= 1 else "further apart"
            updated = "shown = dateModified" if meta.modified and meta.modified[:10] == shown[:10] else "shown"
            who = "structured" if structured[:10] == gold else "shown" if shown[:10] == gold else "neither"
            shown_vs[(e.dataset, far, updated, who)] += 1
            if args.verbose:
                print(f"  {e.dataset} {e.site}/{e.id}: structured {structured}, shown {shown}, gold {gold}: {who}")
        og = next((parse_date(v) for v in facts.meta.get("article:published_time", ()) if parse_date(v)), None)
        ld = next((parse_date(ld_text(v) or "") for v, _ in ld_values(facts, "datePublished")
                   if parse_date(ld_text(v) or "")), None)
        if og and ld and og[:10] != ld[:10]:
            who = "opengraph" if og[:10] == gold else "json-ld" if ld[:10] == gold else "neither"
            og_vs_ld[(e.dataset, who)] += 1
            if args.verbose:
                print(f"  {e.dataset} {e.site}/{e.id}: og {og}, json-ld {ld}, gold {gold}: {who}")
    print("| set | apart | shown date | gold takes | pages |")
    print("|---|---|---|---|---|")
    for (ds, far, updated, who), n in sorted(shown_vs.items()):
        print(f"| {ds} | {far} | {updated} | {who} | {n} |")
    print("\n| set | og article:published_time vs JSON-LD datePublished: gold takes | pages |")
    print("|---|---|---|")
    for (ds, who), n in sorted(og_vs_ld.items()):
        print(f"| {ds} | {who} | {n} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
