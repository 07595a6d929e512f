#!/usr/bin/env python3
"""Structure of the extracted body against the gold's (issue #25): heading recall, list-item
recall and paragraph-boundary F1 per set, beside the shingle F1 of the same predictions.

Every page is extracted on its own by ``newsstemmer.extract`` (no layouts: the default
single-page method, or the one ``--method`` names) and read as typed blocks
(``shared.conventions.article_blocks``: ``Article.blocks``, or the plain body's lines as
paragraphs before extraction returns blocks), cut to the set's own convention
(``shared.conventions``); the gold's blocks come from ``gold_html`` (readability) and
``gold_blocks`` (fundus-recent) (``shared.structure``, where the scores are defined).
Nothing is trained, so the figures are dev figures of the shipped models (the region
models did see these pages in training; the structure itself is learned from nothing).

``--method trafilatura``: the peer (installed for the benchmark only; the package never
depends on it) at its defaults, its structure read from its XML output.

    python benchmarks/structure.py [--datasets readability,fundus-recent]
                                   [--method region|pagerank|crf|trafilatura] [--json FILE] [--data DIR]
    python benchmarks/structure.py --conventions [--datasets ...]   # check the convention table

``--conventions`` checks ``shared.conventions.CONVENTIONS`` against the golds: per set, the
share of pages whose gold holds the headline (the manifest's or the page's own title) in its
first three lines, a "By ..." line among its first ten, the page's description (a teaser or
standfirst, from ``og:description`` / ``description``), its picture captions (``figcaption``)
and the standfirst the region method finds apart from the article's element (its ``lead``
block left out of the body: ``newsstemmer/single/standfirst.py``).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

if __name__ == "__main__" and not __package__:  # run as a file: import from the checkout's root
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from benchmarks.shared import Entry, add_data_option, data_dir, load_manifest, page_id, prediction
from benchmarks.shared.conventions import CONVENTIONS, article_blocks, convention_of, keep_of
from benchmarks.shared.structure import blocks_from_xml, covered, gold_blocks, mean_structure, score_structure

from newsstemmer import Page
from newsstemmer.blocks import Block, in_convention
from newsstemmer.evaluation import evaluate, tokens
from newsstemmer.single import extract_single

DEFAULT_DATASETS = ("readability", "fundus-recent")
METHODS = ("region", "pagerank", "crf", "trafilatura")

# --- one page's blocks --------------------------------------------------------------------


def page_blocks(e: Entry, method: str) -> tuple[str, list[Block], str | None]:
    """(title, blocks, error) of one page extracted by ``method``."""
    try:
        html = e.html()
        if method == "trafilatura":
            import trafilatura

            xml = trafilatura.extract(html, url=e.url, output_format="xml")
            return "", blocks_from_xml(xml), None
        from newsstemmer import ExtractOptions, extract

        article = extract(html, url=e.url, options=ExtractOptions(fallback=method))
        return article.title, article_blocks(article), None
    except Exception as exc:  # scored as an empty prediction, and shown
        return "", [], f"{type(exc).__name__}: {exc}"


def run(pages: list[Entry], method: str) -> dict:
    """Structure scores and shingle figures (own and news convention) of one set."""
    scores, own, news, errors = [], [], [], 0
    t0 = time.perf_counter()
    for e in pages:
        title, blocks, error = page_blocks(e, method)
        if error:
            errors += 1
            print(f"{'/'.join(page_id(e))}: {error}", file=sys.stderr)
        gold = gold_blocks(e)
        keep = keep_of(e, "own")
        if gold is not None:
            scores.append(score_structure(in_convention(blocks, keep), gold))
        text = e.gold()
        own.append((prediction(title, "", e.gold_has_title, blocks, keep), text))
        news.append((prediction(title, "", e.gold_has_title, blocks, keep_of(e, "news")), text))
    out = mean_structure(scores)
    out.update(errors=errors, seconds=round(time.perf_counter() - t0, 1), f1_own=evaluate(own).f1,
               f1_news=evaluate(news).f1)
    return out


def _cell(value) -> str:
    return "–" if value is None else f"{value:.3f}"


def print_table(method: str, results: dict[str, dict]) -> None:
    print(f"\n### {method}\n")
    print("| set | pages | heading recall (pages, gold headings) | list-item recall (pages, items) "
          "| paragraph P / R / F1 (pages) | shingle F1 own | shingle F1 news | errors | s |")
    print("|---|---:|---|---|---|---:|---:|---:|---:|")
    for name, r in results.items():
        print(f"| {name} | {r['pages']} | {_cell(r['heading_recall'])} ({r['heading_pages']}, {r['gold_headings']}) "
              f"| {_cell(r['list_recall'])} ({r['list_pages']}, {r['gold_items']}) "
              f"| {_cell(r['paragraph_precision'])} / {_cell(r['paragraph_recall'])} / {_cell(r['paragraph_f1'])} "
              f"({r['paragraph_pages']}) | {r['f1_own']:.3f} | {r['f1_news']:.3f} | {r['errors']} | {r['seconds']} |")


# --- checking the convention table against the golds --------------------------------------

_BY_LINE = re.compile(r"^\s*(by|von|par|por)\s+\w", re.IGNORECASE)


def convention_evidence(e: Entry) -> dict[str, bool | None]:
    """What of the page's headline, byline, description, captions and standfirst its gold
    holds (None: the page has none to look for)."""
    from lxml import html as lxml_html

    gold = e.gold()
    lines = [line for line in gold.splitlines() if tokens(line)]
    try:
        root = lxml_html.document_fromstring(e.html() or "<p></p>")
    except Exception:
        return {"headline": None, "byline": None, "description": None, "caption": None, "standfirst": None}
    own_title = (root.findtext(".//title") or "").strip()
    titles = [t for t in ((e.meta or {}).get("title"), own_title) if t and len(tokens(t)) >= 3]
    top = "\n".join(lines[:3])
    headline = any(covered(t, top) >= 0.9 for t in titles) if titles else None
    # the page's <title> often carries the site's name: its longest " | "/" - " part is the headline
    if headline is False and own_title:
        part = max(re.split(r"\s[|\-–—:]\s", own_title), key=len)
        headline = len(tokens(part)) >= 3 and covered(part, top) >= 0.9
    byline = any(_BY_LINE.match(line) and len(tokens(line)) <= 12 for line in lines[:10])
    desc = next((m.get("content") for m in root.iter("meta")
                 if (m.get("property") or m.get("name") or "").lower() in ("og:description", "description")
                 and m.get("content")), None)
    description = covered(desc, gold) >= 0.9 if desc and len(tokens(desc)) >= 8 else None
    caps = [c.text_content() for c in root.iter("figcaption") if len(tokens(c.text_content())) >= 5]
    caption = any(covered(c, gold) >= 0.9 for c in caps) if caps else None
    try:
        article = extract_single(Page(e.html(), url=e.url))
        leads = [b.text for b in article.blocks if b.kind == "lead" and b.in_body is False]
    except Exception:  # an unreadable page has no standfirst to look for
        leads = []
    standfirst = covered(leads[0], gold) >= 0.9 if leads else None
    return {"headline": headline, "byline": byline, "description": description, "caption": caption,
            "standfirst": standfirst}


def check_conventions(entries: list[Entry], names: list[str]) -> None:
    print("| set | pages | headline in first 3 lines | \"By ...\" line in first 10 | description in gold "
          "| a caption in gold | a standfirst apart in gold | table: headline, kept kinds |")
    print("|---|---:|---|---|---|---|---|---|")
    for name in names:
        pages = [e for e in entries if e.dataset == name]
        found: dict[str, list[bool]] = {"headline": [], "byline": [], "description": [], "caption": [],
                                        "standfirst": []}
        for e in pages:
            for key, value in convention_evidence(e).items():
                if value is not None:
                    found[key].append(value)
        cells = " | ".join(f"{sum(v) / len(v):.2f} ({len(v)})" if v else "–" for v in found.values())
        c = convention_of(name)
        print(f"| {name} | {len(pages)} | {cells} | {c.headline}, {', '.join(sorted(c.keep)) or '–'} |", flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_data_option(ap)
    ap.add_argument("--datasets", default=None,
                    help=f"comma-separated manifest datasets (default {','.join(DEFAULT_DATASETS)}; "
                         "with --conventions every set of the table)")
    ap.add_argument("--method", default="region", help=f"comma-separated, of {', '.join(METHODS)} (default region)")
    ap.add_argument("--conventions", action="store_true", help="check the convention table against the golds")
    ap.add_argument("--json", metavar="FILE", help="write the figures as JSON")
    args = ap.parse_args(argv)

    entries = load_manifest(data_dir(args.data))
    if args.conventions:
        names = args.datasets.split(",") if args.datasets else list(CONVENTIONS)
        check_conventions(entries, [n.strip() for n in names if n.strip()])
        return 0
    names = [n.strip() for n in (args.datasets or ",".join(DEFAULT_DATASETS)).split(",") if n.strip()]
    methods = [m.strip() for m in args.method.split(",") if m.strip()]
    for m in methods:
        if m not in METHODS:
            ap.error(f"unknown method {m!r}; known: {', '.join(METHODS)}")
    print("## Structure of the body (dev: shipped models, every page alone)")
    print("\nheading and list-item recall: mean over the pages whose gold has headings (list items);")
    print("paragraph P / R over pages with output (gold) paragraphs; shingle F1 in the set's own convention")
    print("and in the news convention (the default body).")
    report: dict = {}
    for method in methods:
        report[method] = {}
        for name in names:
            pages = [e for e in entries if e.dataset == name]
            if not pages:
                ap.error(f"no pages of dataset {name!r}")
            report[method][name] = run(pages, method)
            print(f"[{method}] {name}: {report[method][name]['seconds']}s", file=sys.stderr, flush=True)
        print_table(method, report[method])
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
