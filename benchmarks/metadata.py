#!/usr/bin/env python3
"""Article metadata against the sets' gold (title, published, authors, language).

Scored as ``../shared/datasets/PEERS.md`` says: title normalised exact, published the
same calendar day, authors the mean set F1 of normalised names (pages whose gold has
the field), language the primary subtag against the set's ``language`` or the page's
``html_lang``.  Nothing is learned: these are the figures of the rules in
:mod:`newsstemmer.metadata` on every page.

    python benchmarks/metadata.py [--datasets fundus-recent,misinfo,wcxb-dev,readability]
                                  [--worst FIELD] [--data DIR]
    python benchmarks/metadata.py --layouts [--datasets misinfo,wcxb-dev,fundus-recent]

``--layouts`` measures the byline and date line learned from a site's layouts
(:mod:`newsstemmer.combine.metasections`) on the sites with at least ``--min-pages``
pages: layouts learned from all of a site's pages (dev) and, for each page, from the
site's other pages only (leave-one-page-out: the page's own text never shaped the
marks), then the chain's metadata with and without the layout's fields.  The sets' multi-page sites mostly carry structured data, so the layout's
fields rarely fill a gap there: the last column says how often what the layout reads
agrees with the page's own structured data where both exist (cttf, pages of 2000 and
2005 with no gold metadata, counts only).
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

from benchmarks.shared import add_data_option, data_dir, load_manifest

from newsstemmer.evaluation import author_f1, normalise_title, same_day
from newsstemmer.metadata import article_metadata
from newsstemmer.page import Page

DEFAULT_SETS = ("fundus-recent", "misinfo", "wcxb-dev", "readability")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--datasets", default=",".join(DEFAULT_SETS))
    parser.add_argument("--worst", help="list the misses of one field (title, published, authors, language)")
    add_data_option(parser)
    parser.add_argument("--layouts", action="store_true", help="measure the fields learned from layouts")
    parser.add_argument("--min-pages", type=int, default=3)
    parser.add_argument("--loo-pages", type=int, default=0, help="leave-one-page-out on the first N pages of a site only")
    args = parser.parse_args()
    root = data_dir(args.data)
    if args.layouts:
        return layouts_report(root, args.datasets.split(",") if args.datasets != ",".join(DEFAULT_SETS)
                              else ["misinfo", "wcxb-dev", "fundus-recent"], args.min_pages, args.loo_pages)
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
            meta = article_metadata(page.tree, e.url, html=page.html)  # (as the chain calls it)
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


def layouts_report(root: Path, datasets: list[str], min_pages: int, loo_pages: int = 0) -> int:
    """Authors and published with the layouts' byline and date line, per set (see the docstring)."""
    from collections import defaultdict

    from newsstemmer.combine.extract import ExtractOptions, extract_with_patterns
    from newsstemmer.combine.learn import learn
    from newsstemmer.combine.metasections import WEAKER, layout_metadata

    rows = {(r["dataset"], r["site"], r["id"]): r
            for r in map(json.loads, (root / "manifest.jsonl").read_text(encoding="utf-8").splitlines()) if r}
    entries = load_manifest(root)
    print("| set | sites | pages | marked (byline, date) | field | page metadata | + layout (dev) | + layout (leave-one-out) "
          "| layout used (dev / l-o-o) | layout = page's structured data (dev / l-o-o) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    opts = ExtractOptions(fallback=None, page_choice=False)
    for ds in datasets:
        by_site: dict[str, list] = defaultdict(list)
        for e in entries:
            if e.dataset == ds and (rows[(e.dataset, e.site, e.id)].get("meta") or ds == "cttf"):
                by_site[e.site].append(e)
        sites = {s: es for s, es in by_site.items() if len(es) >= min_pages}
        scores: dict[str, dict[str, list[float]]] = {f: defaultdict(list) for f in ("authors", "published")}
        used: dict[str, Counter[str]] = {f: Counter() for f in scores}
        agree: dict[str, Counter[str]] = {f: Counter() for f in scores}
        marks = Counter()
        for site, es in sorted(sites.items()):
            pages = [Page(e.html(), url=e.url) for e in es]
            golds = [rows[(e.dataset, e.site, e.id)].get("meta") or {} for e in es]
            dev = learn(pages, site=site)
            marks["byline"] += sum(p.byline_section is not None for p in dev.patterns)
            marks["date"] += sum(p.date_section is not None for p in dev.patterns)
            for k, (page, gold) in enumerate(zip(pages, golds)):
                plain = article_metadata(page.tree, page.url, html=page.html)
                runs = [("dev", dev)]
                if not loo_pages or k < loo_pages:
                    runs.append(("loo", learn(pages[:k] + pages[k + 1:], site=site)))
                for kind, patterns in runs:
                    art = extract_with_patterns(page, patterns, opts)
                    names, when = layout_metadata(art)
                    for f, mine in (("authors", names), ("published", when)):
                        theirs = getattr(plain, f)
                        if mine:
                            used[f][kind] += 1
                            if theirs and plain.meta_source.get(f) not in WEAKER:
                                agree[f][kind + "-n"] += 1
                                agree[f][kind] += float((author_f1 if f == "authors" else same_day)(mine, theirs))
                    for f in scores:
                        if not gold.get(f):
                            continue
                        got, base = getattr(art, f), getattr(plain, f)
                        score = author_f1 if f == "authors" else same_day
                        if not art.meta_source:  # (no layout matched: the page's own metadata)
                            got = base
                        scores[f][kind].append(float(score(got, gold[f])))
                        if kind == "dev":
                            scores[f]["plain"].append(float(score(base, gold[f])))
        n = sum(len(es) for es in sites.values())
        for f in scores:
            v = scores[f]
            a = agree[f]
            share = " / ".join(f"{a[k] / a[k + '-n']:.2f} ({a[k + '-n']})" if a[k + "-n"] else "-" for k in ("dev", "loo"))
            mean = {k: (sum(x) / len(x) if x else float("nan")) for k, x in v.items()}
            print(f"| {ds} | {len(sites)} | {n} | {marks['byline']}, {marks['date']} | {f} ({len(v['plain'])}) | "
                  f"{mean.get('plain', float('nan')):.3f} | {mean.get('dev', float('nan')):.3f} | "
                  f"{mean.get('loo', float('nan')):.3f} | {used[f]['dev']} / {used[f]['loo']} | {share} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
