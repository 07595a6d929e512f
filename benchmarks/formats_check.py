#!/usr/bin/env python3
"""Same structured body as a base checkout: Markdown, HTML, body, captions, pictures and blocks (issue #25).

The check that goes with speed work on the typed blocks and the format writers
(``formats_speed.py``): both packages are imported in this process (``--base``, as the
speed benchmarks do), every page is extracted by each and the outputs compared field by
field, in three orders of asking, because the blocks are made in steps and each order
takes another path: the formats first (then captions and pictures, then the full
blocks), the full blocks first (then the formats), and a body keeping captions and
pictures (``keep_kinds``) with its formats.  Single pages with ``region`` and
``pagerank``; layouts with the default chain over each site's learned layouts.  Prints
the number of articles compared and the differences found (the first ones named);
exit 1 when any differs.

    python benchmarks/formats_check.py --base CHECKOUT [--datasets readability,chaos,dragnet-single,fundus-recent,misinfo]
        [--layouts big9-05,cleanportal] [--min-pages 5]
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections import Counter
from pathlib import Path

if __name__ == "__main__" and not __package__:  # run as a file: import from the checkout's root
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from benchmarks.shared import add_data_option, base_package, by_site, data_dir, load_manifest, set_entries

import newsstemmer

_ORDERS = ("formats first", "blocks first", "keep captions")


def _outputs(article: object, order: str) -> dict[str, object]:
    """What the article gives, asked for in ``order`` (:data:`_ORDERS`)."""
    out: dict[str, object] = {}
    if order == "blocks first":
        out["blocks"] = [b.to_json_dict() for b in article.blocks]
    if order == "keep captions":
        article.keep_kinds("caption,figure")
    out["body"] = article.body
    out["body_markdown"] = article.body_markdown
    out["body_html"] = article.body_html
    out["captions"] = article.captions
    out["images"] = article.images
    if order != "blocks first":
        out["blocks"] = [b.to_json_dict() for b in article.blocks]
    out["typed"] = article.typed
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_data_option(ap)
    ap.add_argument("--base", required=True, help="a checkout of the code to compare with")
    ap.add_argument("--datasets", default="readability,chaos,dragnet-single,fundus-recent,misinfo")
    ap.add_argument("--layouts", default="big9-05,cleanportal")
    ap.add_argument("--min-pages", type=int, default=5)
    args = ap.parse_args(argv)
    entries = load_manifest(data_dir(args.data))
    codes = {"base": base_package(args.base), "this": newsstemmer}
    compared: Counter = Counter()
    differ: Counter = Counter()
    named: list[str] = []

    def compare(label: str, make: dict[str, object]) -> None:
        for order in _ORDERS:
            got = {name: _outputs(fn(), order) for name, fn in make.items()}
            compared[order] += 1
            for field in got["base"]:
                if got["base"][field] != got["this"][field]:
                    differ[f"{order}: {field}"] += 1
                    if len(named) < 20:
                        named.append(f"{label} ({order}): {field}")

    singles = {name: importlib.import_module(pkg.__name__ + ".single") for name, pkg in codes.items()}
    for ds in (d for d in args.datasets.split(",") if d):
        for e in set_entries(entries, ds):
            html = e.html()
            for method in ("region", "pagerank"):
                compare(f"{method} {ds}/{e.id}", {
                    name: (lambda pkg=pkg, single=singles[name], m=method:
                           single.extract_single(pkg.Page(html, url=e.url), m))
                    for name, pkg in codes.items()})
    for ds in (d for d in args.layouts.split(",") if d):
        for site, group in sorted(by_site(entries, ds).items()):
            if len(group) < args.min_pages:
                continue
            htmls = [(e.html(), e.url, e.id) for e in group]
            chains = {}
            for name, pkg in codes.items():
                chain = importlib.import_module(pkg.__name__ + ".combine.extract")
                learned = pkg.learn([pkg.Page(h, url=u) for h, u, _ in htmls])
                chains[name] = (pkg, chain, learned, pkg.ExtractOptions(fallback="region"))
            for h, u, page_id in htmls:
                compare(f"chain {ds}/{site}/{page_id}", {
                    name: (lambda c=c: c[1].extract_with_patterns(c[0].Page(h, url=u), c[2], c[3]))
                    for name, c in chains.items()})
    for order in _ORDERS:
        print(f"{order}: {compared[order]} articles compared")
    print(f"differences: {sum(differ.values())}" + "".join(f"\n  {k}: {n}" for k, n in sorted(differ.items())))
    for line in named:
        print("differs:", line)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
