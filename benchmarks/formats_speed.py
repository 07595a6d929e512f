#!/usr/bin/env python3
"""What the structured body costs (issue #25): Markdown and HTML against the plain text.

Single pages: every page of the chosen sets is decoded once; then, alternating, the
default single-page method extracts all of them from the decoded HTML (a fresh
``Page``: parse included) and gives (a) ``body`` alone, (b) ``body`` and
``body_markdown``, (c) ``body``, ``body_markdown`` and ``body_html``; ``--repeat``
times each, garbage collector off while timing.  Layouts: the same three on the pages
of sites with ≥ ``--min-pages`` pages of the layout sets, with the site's layouts
learned once beforehand (the default chain: layouts, region, page choice, page type
and metadata).  Reported: best pages/s of each and the cost of (b) and (c) over (a).

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

ASKED = {
    "text": lambda a: a.body,
    "+markdown": lambda a: (a.body, a.body_markdown),
    "+markdown+html": lambda a: (a.body, a.body_markdown, a.body_html),
}


def _best(runs: dict, items: list, repeat: int) -> dict[str, float]:
    best = {name: 0.0 for name in runs}
    for _ in range(repeat):
        for name, fn in runs.items():
            gc.collect()
            gc.disable()
            t0 = time.perf_counter()
            for item in items:
                fn(item)
            elapsed = time.perf_counter() - t0
            gc.enable()
            best[name] = max(best[name], len(items) / elapsed)
    return best


def _report(title: str, best: dict[str, float]) -> None:
    print(title)
    base = best["text"]
    for name, rate in best.items():
        extra = "" if name == "text" else f"   cost over text {base / rate - 1:+.1%}"
        print(f"  {name:<16} {rate:7.1f} pages/s{extra}")


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
        runs = {name: (lambda ask: lambda p: ask(extract_single(Page(p[0], url=p[1]))))(ask)
                for name, ask in ASKED.items()}
        _report(f"single page (region), {len(pages)} pages of {args.datasets}, best of {args.repeat}:",
                _best(runs, pages, args.repeat))
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
        runs = {name: (lambda ask: lambda w: ask(extract_with_patterns(Page(w[1], url=w[2]), w[0], opts)))(ask)
                for name, ask in ASKED.items()}
        _report(f"with layouts (the default chain), {len(work)} pages of {len(sites)} sites ({args.layouts}), "
                f"best of {args.repeat}:", _best(runs, work, args.repeat))
    return 0


if __name__ == "__main__":
    sys.exit(main())
