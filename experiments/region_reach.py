#!/usr/bin/env python3
"""What of the gold DOM PageRank's candidate regions cannot reach at all, and why.

Question: what share of the gold can no candidate element of PageRank reach, and why?
Answer: benchmarks/README.md, "Learned region extractor" (readability 1.3 %, chaos 1.4 %,
dragnet-single 1.3 %, by cause).

The learned region extractor (``newsstemmer/decision/regional.py``) only chooses among
PageRank's candidate elements (``region_candidates``) and only leaves text out beyond
PageRank's own cleaning: gold text outside every candidate, or cut by the hand rules
in all of them, is lost before any model sees it.  Per page this counts the gold's
4-token shingles (as a set) and splits those no candidate's text holds by cause:

* ``absent``: not in the page's visible text at all (the gold's wording, dropped tags);
* ``hidden``: only in elements hidden by attribute or inline style;
* ``outside``: in the page, but in no candidate element;
* ``comments`` / ``boiler`` / ``links``: in a candidate, but left out by that cleaning
  rule (comment-named, boilerplate-named, link-dense containers) in every candidate.

    python experiments/region_reach.py [--datasets readability,chaos,dragnet-single] [--worst N]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

if __name__ == "__main__" and not __package__:  # run as a file: import from the checkout's root
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from benchmarks.shared import add_data_option, data_dir, load_manifest, prediction, select

from newsstemmer.single.region.candidates import RegionView, region_candidates
from newsstemmer.dom.parse import parse_html
from newsstemmer.evaluation import shingles, tokens
from newsstemmer.single.signals.page_signals import IN_COMMENTS
from newsstemmer.single.pagerank import (
    CLEAN_TAGS,
    PageRankOptions,
    pagerank_analysis,
    region_cleaning,
    region_paragraphs,
)

CAUSES = ("absent", "hidden", "outside", "comments", "boiler", "links")


def _set(text: str) -> set:
    return set(shingles(tokens(text)))


def _rule(an, i: int) -> str:
    """Which of PageRank's cleaning rules leaves node ``i`` out (their order in ``_left_out_nodes``)."""
    el = an.scores.graph.elements[i]
    opts = an.options
    if el.tag in CLEAN_TAGS and an.chars[i] and an.link_chars[i] > opts.link_density * an.chars[i]:
        return "links"
    if an.scores.graph.roles[i] & IN_COMMENTS:
        return "comments"
    return "boiler"


def page_reach(e) -> dict:
    """Gold shingles of one page and how many each cause keeps out of every candidate."""
    gold = _set(e.gold())
    out = {"n": len(gold), **{c: 0 for c in CAUSES}}
    if not gold:
        return out
    tree = parse_html(e.html())
    an = pagerank_analysis(tree, e.url, text=False)
    if an.main < 0:
        out["absent"] = len(gold)
        return out
    title = an.result.title
    view = RegionView.of(an)
    cands = region_candidates(view) or [an.main]
    reached: set = set()
    undone = {c: set() for c in ("comments", "boiler", "links")}
    for c in cands:
        skip = region_cleaning(an, c)
        reached |= _set(prediction(title, "\n".join(region_paragraphs(an, c, skip)), e.gold_has_title))
        for rule in undone:
            rest = [i for i in skip if _rule(an, i) != rule]
            if len(rest) < len(skip):
                undone[rule] |= _set("\n".join(region_paragraphs(an, c, rest)))
    missing = gold - reached
    page = _set(prediction(title, "\n".join(region_paragraphs(an, 0, [])), e.gold_has_title))
    visible_all = pagerank_analysis(tree, e.url, PageRankOptions(skip_hidden=False), text=False)
    everything = _set("\n".join(region_paragraphs(visible_all, 0, [])))
    for s in missing:
        if s in page:
            for rule in ("comments", "boiler", "links"):
                if s in undone[rule]:
                    out[rule] += 1
                    break
            else:
                out["outside"] += 1
        elif s in everything:
            out["hidden"] += 1
        else:
            out["absent"] += 1
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_data_option(ap)
    ap.add_argument("--datasets", default="readability,chaos,dragnet-single")
    ap.add_argument("--worst", type=int, default=10, help="list the N pages with most unreachable gold (by cause)")
    args = ap.parse_args(argv)
    entries = load_manifest(data_dir(args.data))
    print(f"{'set':<16}{'pages':>6}" + "".join(f"{c:>10}" for c in CAUSES) + "  (share of gold shingles, pooled)")
    worst = []
    for name in args.datasets.split(","):
        tot: Counter = Counter()
        for e in select(entries, name):
            r = page_reach(e)
            tot.update(r)
            if r["n"]:
                for c in CAUSES[1:]:
                    if r[c]:
                        worst.append((r[c] / r["n"], c, f"{e.dataset}/{e.site}/{e.id}"))
        n = max(1, tot["n"])
        pages = len(select(entries, name))
        print(f"{name:<16}{pages:>6}" + "".join(f"{tot[c] / n:>10.4f}" for c in CAUSES))
    worst.sort(reverse=True)
    for share, cause, page in worst[: args.worst]:
        print(f"  {share:.3f} {cause:<9} {page}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
