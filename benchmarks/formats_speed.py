#!/usr/bin/env python3
"""What the structured body costs (issue #25): Markdown and HTML against the plain text.

Single pages: every page of the chosen sets is decoded once; then each is extracted
by the default single-page method from the decoded HTML (a fresh ``Page``: parse
included), and its ``body_markdown`` and then its ``body_html`` asked for; each step
is timed in CPU time (``time.process_time``: a shared machine's load counts less than
in wall time), page by page, the least of ``--repeat`` runs, garbage collector off.
Layouts: the same on the pages of the layout sets' sites with ≥ ``--min-pages``
pages, the site's layouts learned once beforehand (the default chain: layouts,
region, page choice, page type and metadata).  Reported: the extraction's pages/s of
CPU and the formats' cost over it (target ≤ 10 %).

    python benchmarks/formats_speed.py [--datasets readability,chaos,dragnet-single] [--layouts big9-05,cleanportal] [--repeat 3]
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path

if __name__ == "__main__" and not __package__:  # run as a file: import from the checkout's root
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from benchmarks.shared import by_site, data_dir, load_manifest, set_entries

from newsstemmer import ExtractOptions, Page, learn
from newsstemmer.combine.extract import extract_with_patterns
from newsstemmer.single import extract_single

def _costs(extract, items: list, repeat: int) -> dict[str, float]:
    """CPU seconds per page (the least of ``repeat`` runs, page by page) of the extraction
    with its plain body, of the typed blocks and Markdown after it, and of the HTML after
    those (the blocks are made once per article and shared by both formats)."""
    clock = time.process_time
    total = {"text": 0.0, "markdown": 0.0, "html": 0.0}
    for item in items:
        best = {"text": float("inf"), "markdown": float("inf"), "html": float("inf")}
        for _ in range(repeat):
            gc.disable()
            t0 = clock()
            article = extract(item)
            t1 = clock()
            article.body_markdown
            t2 = clock()
            article.body_html
            t3 = clock()
            gc.enable()
            best["text"] = min(best["text"], t1 - t0)
            best["markdown"] = min(best["markdown"], t2 - t1)
            best["html"] = min(best["html"], t3 - t2)
        for name in total:
            total[name] += best[name]
    return {name: value / len(items) for name, value in total.items()}


def _report(title: str, cost: dict[str, float]) -> None:
    text = cost["text"]
    print(title)
    print(f"  text (extraction)      {1 / text:7.1f} pages/s of CPU   {text * 1000:6.2f} ms a page")
    print(f"  + blocks and Markdown  {cost['markdown'] * 1000:6.2f} ms a page   cost over text {cost['markdown'] / text:+.1%}")
    both = cost["markdown"] + cost["html"]
    print(f"  + HTML as well         {cost['html'] * 1000:6.2f} ms a page   both formats over text {both / text:+.1%}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default=None)
    ap.add_argument("--datasets", default="readability,chaos,dragnet-single")
    ap.add_argument("--layouts", default="big9-05,cleanportal")
    ap.add_argument("--min-pages", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    entries = load_manifest(data_dir(args.data))
    pages = [(e.html(), e.url) for name in args.datasets.split(",") if name for e in set_entries(entries, name)]
    if pages:
        for h, u in pages[:20]:  # warm the models and memos
            extract_single(Page(h, url=u)).body_markdown
        _report(f"single page (region), {len(pages)} pages of {args.datasets}, least CPU of {args.repeat} a page:",
                _costs(lambda p: extract_single(Page(p[0], url=p[1])), pages, args.repeat))
    sites = []
    for ds in (d for d in args.layouts.split(",") if d):
        for _, group in sorted(by_site(entries, ds).items()):
            if len(group) >= args.min_pages:
                htmls = [(e.html(), e.url) for e in group]
                sites.append((learn([Page(h, url=u) for h, u in htmls]), htmls))
    if sites:
        work = [(site, h, u) for site, htmls in sites for h, u in htmls]
        opts = ExtractOptions(fallback="region")
        for site, h, u in work[:20]:
            extract_with_patterns(Page(h, url=u), site, opts).body_markdown
        _report(f"with layouts (the default chain), {len(work)} pages of {len(sites)} sites ({args.layouts}), "
                f"least CPU of {args.repeat} a page:",
                _costs(lambda w: extract_with_patterns(Page(w[1], url=w[2]), w[0], opts), work, args.repeat))
    return 0


if __name__ == "__main__":
    sys.exit(main())
