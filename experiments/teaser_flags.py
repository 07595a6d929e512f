#!/usr/bin/env python3
"""Which learned layouts of the evaluation sites change their article flag when teaser
text outweighing the main text makes a layout no article layout (``max_teaser_ratio``).

    python experiments/teaser_flags.py [--datasets big9-05,big9-09,cleanportal,dragnet,cttf]

Learns every site twice (the ratio at its default, and off) and prints each layout whose
flag differs, with its pages and how many of the site's gold pages it matched.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

if __name__ == "__main__" and not __package__:
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from benchmarks.shared import by_site, data_dir, load_manifest

from newsstemmer import LearnOptions, Page, learn


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--datasets", default="big9-05,big9-09,cleanportal,dragnet,cttf")
    ap.add_argument("--min-pages", type=int, default=5)
    args = ap.parse_args()
    on = LearnOptions()
    off = replace(on, max_teaser_ratio=1e9)
    flips = layouts = 0
    entries_all = load_manifest(data_dir(None))
    for ds in args.datasets.split(","):
        for site, entries in by_site(entries_all, ds).items():
            if len(entries) < args.min_pages:
                continue
            pages = []
            for e in entries:
                try:
                    pages.append(Page(html=e.html(), url=e.url, source=f"{e.site}/{e.id}"))
                except Exception:
                    pass
            a, b = learn(pages, on), learn(pages, off)
            fb = {p.id: p for p in b.patterns}
            for p in a.patterns:
                layouts += 1
                q = fb.get(p.id)
                if q is not None and q.article != p.article:
                    flips += 1
                    print(f"{ds} {site} {p.id} pages={p.pages} score={p.score} article {q.article} -> {p.article}"
                          f" {p.sample_urls[:2]}", flush=True)
    print(f"{flips} of {layouts} layouts change their flag")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
