"""Keeping the CRF's article in one piece: its region, teaser listings, gaps (SPEC §5).

After the two passes, content text blocks outside the subtree that holds most of
the likely content are dropped unless the CRF is sure of them
(:func:`article_region`), teaser listings are dropped (:func:`teaser_blocks`),
and plain text enclosed by content is content (:func:`fill_gaps`).
"""

from __future__ import annotations

from collections.abc import Sequence

from .segmentation import CRFPage

__all__ = ["article_region", "fill_gaps", "regions", "teaser_blocks"]


def regions(page: CRFPage, top: int) -> list[str] | None:
    """Per block: "is", "in", "above" or "out", its place relative to block ``top`` (None if -1)."""
    if top < 0:
        return None
    blocks = page.blocks
    where = ["out"] * len(blocks)
    where[top] = "is"
    for b in blocks[top + 1 :]:
        if b.parent >= top and where[b.parent] != "out":
            where[b.index] = "in"
    p = blocks[top].parent
    while p >= 0:
        where[p] = "above"
        p = blocks[p].parent
    return where


def article_region(
    page: CRFPage,
    nodes: Sequence[int],
    probs: Sequence[float],
    cut: float,
    anchor: int = -1,
    elsewhere: float = 1.3,
) -> set[int]:
    """The blocks of the article's region: the subtree whose text blocks maximise
    Σ weight·(P(content) − ``cut``), the block at its top included.

    ``nodes`` are block indices and ``probs`` their P(content) (other blocks count 0).
    Text likely to be content adds to a subtree, text unlikely to be subtracts, so
    the region is the one piece of the page that holds most of the likely content.
    With an ``anchor`` block (the PageRank core), the region is the best subtree
    among the anchor and its ancestors, unless a subtree elsewhere scores more than
    ``elsewhere`` times as much: an "about the author" box or a teaser list a little
    longer than a short article no longer takes the article's place.
    Every block if no subtree scores above 0.
    """
    blocks = page.blocks
    if not blocks:
        return set()
    score = [0.0] * len(blocks)
    for b, p in zip(nodes, probs):
        w = blocks[b].weight
        if w:
            score[b] = w * (p - cut)
    for blk in reversed(blocks):  # children come after their parent
        if blk.parent >= 0:
            score[blk.parent] += score[blk.index]
    top = max(range(len(blocks)), key=score.__getitem__)
    if 0 <= anchor < len(blocks):
        near, a = anchor, anchor
        while a >= 0:
            if score[a] > score[near]:
                near = a
            a = blocks[a].parent
        if score[near] > 0.0 and score[top] <= elsewhere * score[near]:
            top = near
    if score[top] <= 0.0:  # nothing likely to be content: no region, every block
        return set(range(len(blocks)))
    where = regions(page, top)
    return {i for i, w in enumerate(where) if w == "is" or w == "in"}


def teaser_blocks(page: CRFPage, min_repeats: int = 3, spread: float = 1.5) -> set[int]:
    """Text blocks of teaser listings ("more stories" lists, blog front pages).

    A teaser is a linked headline (a text block at least 80% anchor text)
    followed by a plain summary (at most half anchor text); a listing repeats that
    pair ``min_repeats`` times or more with the same tags under the same parents,
    with summaries of about one length (the longest at most ``spread`` times the
    shortest), as excerpts cut to a fixed size are.  Article paragraphs that open
    with a link differ in length far more.
    """
    blocks = page.blocks
    seq = page.text_blocks
    groups: dict[tuple[int, str, int, str], list[tuple[int, int]]] = {}
    for i, j in zip(seq, seq[1:]):
        head, summary = blocks[i], blocks[j]
        if head.anchor_weight * 5 >= head.weight * 4 and summary.anchor_weight * 2 <= summary.weight:
            groups.setdefault((head.parent, head.tag, summary.parent, summary.tag), []).append((i, j))
    found: set[int] = set()
    for pairs in groups.values():
        if len(pairs) >= min_repeats:
            lengths = [blocks[j].weight for _, j in pairs]
            if max(lengths) <= spread * min(lengths):
                for i, j in pairs:
                    found.add(i)
                    found.add(j)
    return found


def fill_gaps(page: CRFPage, nodes: Sequence[int], content: list[bool]) -> None:
    """Make content every text block that lies, in document order, between two
    content text blocks, unless half or more of its text is link text.

    The CRF doubts short pieces inside an article (table cells, a caption, a
    one-line paragraph, "Response / Votes" of a poll) that read like boxes out of
    context; enclosed by the article they belong to it.  ``content`` is indexed
    like ``nodes`` and changed in place.
    """
    blocks = page.blocks
    position = {b: k for k, b in enumerate(nodes)}
    gap: list[int] = []
    seen_content = False
    for b in page.text_blocks:
        k = position[b]
        if content[k]:
            if seen_content:
                for j in gap:
                    content[j] = True
            seen_content = True
            gap = []
        elif seen_content:
            blk = blocks[b]
            if blk.anchor_weight * 2 < blk.weight:
                gap.append(k)
            else:
                gap = []  # a link block: what precedes it stays out too
                seen_content = False
