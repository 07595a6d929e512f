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
        [--base CHECKOUT]

``--base`` compares with the code of another checkout (a ``git worktree`` or ``git
archive`` of the base commit): both packages are imported in this process and take turns
page by page, so the machine's load weighs on both alike; the figures that count are the
CPU ratios.  Captions and pictures (what ``extract --formats`` writes beside the formats)
are timed after both formats.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import sys
import time
from pathlib import Path

if __name__ == "__main__" and not __package__:  # run as a file: import from the checkout's root
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from benchmarks.shared import base_package, by_site, add_data_option, data_dir, load_manifest, set_entries

import newsstemmer

_STEPS = ("text", "markdown", "html", "pictures")


def _costs(extracts: dict[str, object], items: dict[str, list], repeat: int) -> dict[str, dict[str, float]]:
    """CPU seconds per page (the least of ``repeat`` runs, page by page) of the extraction
    with its plain body, of the typed blocks and Markdown after it, of the HTML after
    those (the blocks are made once per article and shared by both formats), and of the
    captions and pictures after both; for each code in ``extracts`` (its extraction
    function and items), the codes taking turns page by page."""
    clock = time.process_time
    names = list(extracts)
    total = {name: dict.fromkeys(_STEPS, 0.0) for name in names}
    count = len(items[names[0]])
    for k in range(count):
        best = {name: dict.fromkeys(_STEPS, float("inf")) for name in names}
        for _ in range(repeat):
            for name in (names if k % 2 == 0 else names[::-1]):
                gc.disable()
                t0 = clock()
                article = extracts[name](items[name][k])
                t1 = clock()
                article.body_markdown
                t2 = clock()
                article.body_html
                t3 = clock()
                article.captions, article.images
                t4 = clock()
                gc.enable()
                for step, spent in zip(_STEPS, (t1 - t0, t2 - t1, t3 - t2, t4 - t3)):
                    best[name][step] = min(best[name][step], spent)
        for name in names:
            for step in _STEPS:
                total[name][step] += best[name][step]
    return {name: {step: value / count for step, value in steps.items()} for name, steps in total.items()}


def _report(title: str, costs: dict[str, dict[str, float]]) -> None:
    print(title)
    for name, cost in costs.items():
        text = cost["text"]
        both = cost["markdown"] + cost["html"]
        print(f" {name}:")
        print(f"  text (extraction)      {1 / text:7.1f} pages/s of CPU   {text * 1000:6.2f} ms a page")
        print(f"  + blocks and Markdown  {cost['markdown'] * 1000:6.2f} ms a page   cost over text {cost['markdown'] / text:+.1%}")
        print(f"  + HTML as well         {cost['html'] * 1000:6.2f} ms a page   both formats over text {both / text:+.1%}")
        print(f"  + captions, pictures   {cost['pictures'] * 1000:6.2f} ms a page   all over text "
              f"{(both + cost['pictures']) / text:+.1%}")
    if len(costs) == 2:
        base, new = costs.values()
        print(f" formats CPU this/base {(new['markdown'] + new['html']) / (base['markdown'] + base['html']):.3f}, "
              f"text this/base {new['text'] / base['text']:.3f}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_data_option(ap)
    ap.add_argument("--datasets", default="readability,chaos,dragnet-single")
    ap.add_argument("--layouts", default="big9-05,cleanportal")
    ap.add_argument("--min-pages", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--base", default=None,
                    help="a checkout of the code to compare with (its package imported beside this one; "
                         "the two take turns page by page in this process)")
    args = ap.parse_args(argv)
    entries = load_manifest(data_dir(args.data))
    codes = {"this": newsstemmer}
    if args.base:
        codes = {"base": base_package(args.base), "this": newsstemmer}
    pages = [(e.html(), e.url) for name in args.datasets.split(",") if name for e in set_entries(entries, name)]
    if pages:
        extracts = {}
        for name, pkg in codes.items():
            single = importlib.import_module(pkg.__name__ + ".single")
            extracts[name] = lambda p, pkg=pkg, single=single: single.extract_single(pkg.Page(p[0], url=p[1]))
            for h, u in pages[:20]:  # warm the models and memos
                extracts[name]((h, u)).body_markdown
        _report(f"single page (region), {len(pages)} pages of {args.datasets}, least CPU of {args.repeat} a page:",
                _costs(extracts, {name: pages for name in codes}, args.repeat))
    layout_sets = [d for d in args.layouts.split(",") if d]
    if layout_sets:
        extracts, work = {}, {}
        for name, pkg in codes.items():
            chain = importlib.import_module(pkg.__name__ + ".combine.extract")
            opts = pkg.ExtractOptions(fallback="region")
            work[name] = []
            for ds in layout_sets:
                for _, group in sorted(by_site(entries, ds).items()):
                    if len(group) >= args.min_pages:
                        htmls = [(e.html(), e.url) for e in group]
                        site = pkg.learn([pkg.Page(h, url=u) for h, u in htmls])
                        work[name] += [(site, h, u) for h, u in htmls]
            extracts[name] = lambda w, pkg=pkg, chain=chain, opts=opts: chain.extract_with_patterns(
                pkg.Page(w[1], url=w[2]), w[0], opts)
            for item in work[name][:20]:
                extracts[name](item).body_markdown
        _report(f"with layouts (the default chain), {len(work['this'])} pages ({args.layouts}), "
                f"least CPU of {args.repeat} a page:", _costs(extracts, work, args.repeat))
    return 0


if __name__ == "__main__":
    sys.exit(main())
