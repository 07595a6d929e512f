"""Training rows for the block decision: features and gold labels of one page.

A block's label is the share of its 4-token shingles (the evaluation's tokens) found
in the page's gold text; ``benchmarks/train_decision.py`` calls a block content when
the share is at least one half, as the CRF's training labels do.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..evaluation import shingles, tokens
from ..layout.patterns import SitePatterns
from ..page import Page
from .evidence import page_evidence
from .features import block_groups

__all__ = ["PageRows", "gold_shares", "page_rows"]


@dataclass
class PageRows:
    """One page's blocks as training rows, in single-page and (if a layout applies) layout form."""

    texts: list[str]
    single: np.ndarray
    layout: np.ndarray | None
    labels: np.ndarray
    pagerank_title: str
    pagerank_body: str
    layout_title: str
    static_free: list[str] | None  # block texts without the layout's static lines
    parents: np.ndarray | None = None  # per block: id of its parent path
    paths: np.ndarray | None = None  # per block: id of its path
    meta: dict[str, Any] = field(default_factory=dict)


def gold_shares(texts: list[str], gold: str) -> np.ndarray:
    """Per text, the share of its 4-token shingles that occur in ``gold``."""
    gold_tokens = tokens(gold)
    gold_set = set(shingles(gold_tokens))
    # A text of 1-3 tokens is one shingle of its own length: look it up among the
    # gold's n-grams of that length, not among its 4-token shingles.
    short: dict[int, set[tuple[str, ...]]] = {}
    out = np.zeros(len(texts), dtype=np.float32)
    for i, text in enumerate(texts):
        toks = tokens(text)
        if not toks:
            continue
        if len(toks) < 4:
            n = len(toks)
            if n not in short:
                short[n] = {tuple(gold_tokens[k : k + n]) for k in range(len(gold_tokens) - n + 1)}
            out[i] = float(tuple(toks) in short[n])
            continue
        mine = shingles(toks)
        out[i] = sum(c for s, c in mine.items() if s in gold_set) / sum(mine.values())
    return out


def page_rows(page: Page, site: SitePatterns | None, gold: str) -> PageRows:
    """Rows and labels of one page (layout rows when one of ``site``'s layouts applies)."""
    single = page_evidence(page, None)
    texts = [b.text for b in single.blocks.blocks]
    layout_rows = static_free = None
    layout_title = ""
    if site is not None:
        ev = page_evidence(page, site, pagerank=True)
        if ev.layout is not None and len(ev.blocks.blocks) == len(texts):
            layout_rows = ev.X
            layout_title = ev.layout_title
            from ..layout.blocks import line_digest

            static = set(ev.layout.pattern.static_lines)
            static_free = [
                "\n".join(line for line in t.split("\n") if line_digest(line) not in static) for t in texts
            ]
    parents, paths = block_groups(single.blocks)
    return PageRows(
        texts,
        single.X,
        layout_rows,
        gold_shares(texts, gold),
        single.pagerank_title or "",
        single.pagerank_body or "",
        layout_title,
        static_free,
        parents=parents,
        paths=paths,
    )
