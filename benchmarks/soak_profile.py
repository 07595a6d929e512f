#!/usr/bin/env python3
"""Where a crawl's CPU goes: a ``py-spy record --format raw`` profile (``soak.py --profile``) by part.

Each sample (a collapsed stack of the thread holding the GIL, ``--gil``, in the crawl or its
second process) goes to one part: the first of :data:`WHOLE` one of whose patterns is in any of
its frames (work that nests other parts' code counts as itself: a learning round's extraction is
the round's), else the part of its deepest frame that :data:`DEEPEST` knows (a SQLite write
called by the spider is SQLite's).  The second process's samples are told apart.

    python benchmarks/soak_profile.py DIR/w1/day3.pyspy [--requests N] [--top 25]

With ``--requests`` (the day's requests: ``soak.py --json``), the CPU a request per part,
scaled by the crawl's CPU seconds (``--cpu``) when given.
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from pathlib import Path

#: Parts told by a frame anywhere in the stack, the first match winning: work that nests other
#: parts' code (a learning round extracts pages; typing reads blocks) counts as itself.
WHOLE: list[tuple[str, tuple[str, ...]]] = [
    ("start-up (imports, settings, models, spider open)", ("_find_and_load", "_spider_opened", "open_spider",
                                                            "load_object", "_Region.load", "load_single",
                                                            "get_project_settings")),
    ("learning rounds", ("run_round (newsstemmer/crawl/rounds.py", "newsstemmer/layout/learn")),
    ("change sketch", ("changesketch.py",)),
    ("page typing", ("newsstemmer/pagetype/", "type_unmatched")),
    ("metadata", ("newsstemmer/metadata/",)),
    ("extraction (known layouts)", ("extract_page (newsstemmer/crawl/rounds.py", "extract_with_patterns")),
]
#: Parts told by the deepest (leaf-most) frame that matches one of them.
DEEPEST: list[tuple[str, tuple[str, ...]]] = [
    ("extraction (known layouts)", ("newsstemmer/layout/", "newsstemmer/single/", "newsstemmer/combine/",
                                    "newsstemmer/blocks.py", "newsstemmer/blockwalk.py", "newsstemmer/article.py",
                                    "newsstemmer/dom/", "newsstemmer/page.py", "newsstemmer/trees.py")),
    ("second process messages (pickling, socket)", ("crawl/sidecar.py", "crawl/sidecar_protocol.py", "serve (newsstemmer")),
    ("SQLite: anchors (linkinfo)", ("sqlite_anchors.py",)),
    ("SQLite: history", ("sqlite_history.py",)),
    ("SQLite: fetch log", ("sqlite_fetchlog.py",)),
    ("SQLite: frontier", ("sqlite_frontier.py",)),
    ("SQLite: buffer, runs, retention, other", ("sqlite_buffer.py", "sqlite_runlog.py", "sqlite_files.py",
                                                "crawl/storage/")),
    ("HTML parse on the reactor (lxml)", ("parse_html",)),
    ("link reading", ("link_reading.py", "_same_site_links", "tree_links")),
    ("sitemaps and feeds", ("parse_sitemap", "parse_feed", "crawl/feeds.py", "crawl/discovery.py")),
    ("request planning (fetch log plan, frontier, limits)", ("NewsSpider._request", "NewsSpider._admit")),
    ("incremental check, pipeline, monitor", ("crawl/incremental.py", "crawl/pipeline.py", "crawl/monitor.py")),
    ("newsstemmer crawl, other", ("newsstemmer/crawl/learner.py", "newsstemmer/crawl/middleware.py",
                                  "newsstemmer/crawl/spiders/", "newsstemmer/crawl/items.py",
                                  "newsstemmer/crawl/extension.py", "newsstemmer/crawl/outbox.py")),
    ("feed export (-O jsonl)", ("scrapy/extensions/feedexport.py", "scrapy/exporters.py")),
    ("logging and stats", ("logging/__init__.py", "scrapy/statscollectors.py", "scrapy/logformatter.py")),
    ("Scrapy downloader, HTTP (Twisted)", ("scrapy/core/downloader", "twisted/web", "twisted/internet/tcp.py",
                                           "scrapy/downloadermiddlewares", "scrapy/http/", "scrapy/utils/url",
                                           "w3lib", "twisted/protocols")),
    ("Scrapy engine, scheduler, spider middleware", ("scrapy/",)),
    ("event loop (asyncio, Twisted)", ("twisted/", "asyncio/")),
]
PARTS = WHOLE + DEEPEST


def read(path: Path) -> list[tuple[str, list[str], int]]:
    """(process, its frames root first, samples) per line of a raw py-spy profile
    (``--subprocesses``: a child's stack follows its parent's ``process`` frame)."""
    out = []
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        frames = stack.split(";")
        marks = [i for i, f in enumerate(frames) if f.startswith("process ")]
        process = frames[marks[-1]] if marks else ""
        out.append((process, frames[marks[-1] + 1:] if marks else frames, int(count)))
    return out


def part_of(frames: list[str]) -> str:
    for name, patterns in WHOLE:
        if any(p in f for f in frames for p in patterns):
            return name
    for f in reversed(frames):
        for name, patterns in DEEPEST:
            if any(p in f for p in patterns):
                return name
    return "other (Python library)"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("profile", nargs="+", type=Path)
    ap.add_argument("--requests", type=int, help="the day's requests (for the CPU a request)")
    ap.add_argument("--cpu", type=float, help="the crawl's CPU seconds (to scale the samples to)")
    ap.add_argument("--top", type=int, default=0, help="also the N leaf functions with the most samples")
    args = ap.parse_args()
    parts: Counter[tuple[str, str]] = Counter()
    leaves: Counter[str] = Counter()
    procs: dict[str, str] = {}
    for path in args.profile:
        for process, frames, n in read(path):
            kind = procs.setdefault(process, "crawl" if "scrapy" in process else "second process")
            parts[(kind, part_of(frames))] += n
            leaves[re.sub(r":\d+\)$", ")", frames[-1]) if frames else "(no frame)"] += n
    total = sum(parts.values())
    scale = (args.cpu / total) if args.cpu else None
    print(f"{total} samples; processes: " + "; ".join(f"{k}: {p[:80]}" for p, k in procs.items()))
    by_part: Counter[str] = Counter()
    for (kind, name), n in parts.items():
        by_part[name] += n
    print("| part | crawl process % | second process % | all % |" + (" ms a request |" if args.requests else ""))
    print("|---|---|---|---|" + ("---|" if args.requests else ""))
    for name, n in by_part.most_common():
        a, b = parts[("crawl", name)], parts[("second process", name)]
        row = f"| {name} | {100 * a / total:.1f} | {100 * b / total:.1f} | {100 * n / total:.1f} |"
        if args.requests:
            per = (n * scale if scale else n / 50) / args.requests * 1000  # 50 samples a second
            row += f" {per:.2f} |"
        print(row)
    if args.top:
        print()
        for leaf, n in leaves.most_common(args.top):
            print(f"{100 * n / total:5.1f}%  {leaf}")


if __name__ == "__main__":
    main()
