"""Typed blocks of the body DOM PageRank and the region extractor give (issue #25).

Both take an element's text minus what their cleaning leaves out
(:func:`~newsstemmer.single.pagerank.region_paragraphs`); :func:`region_blocks` types
each line of that text (:func:`newsstemmer.blockwalk.typed_blocks`) from the events of
the plain walk that gave it (kept by the analysis; walked again only where the analysis
no longer keeps it), so the body's blocks give exactly its lines and the left-out
captions, bylines or code come back as optional kinds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ..blocks import Block
from ..blockwalk import WalkedText, typed_blocks
from .pagerank import BLOCK_TAGS, DROP_TAGS, PageRankAnalysis, region_element
from .continuation import with_continuation
from .standfirst import with_standfirst

__all__ = ["region_blocks", "region_block_maker"]


def region_blocks(an: PageRankAnalysis, node: int, skip: Iterable[int] | None = None,
                  base_url: str | None = None, walked: WalkedText | None = None) -> list[Block]:
    """The typed blocks of element ``node``'s body as
    :func:`~newsstemmer.single.pagerank.region_paragraphs` gives its lines (same
    ``skip``: node indices left out, default PageRank's cleaning); links and pictures
    made absolute against ``base_url``.  ``walked``: the plain walk that gave those lines
    (default: the one the analysis keeps, if any)."""
    scores, opts = an.scores, an.options
    kept = None if skip is None else list(skip)
    element, left_out = region_element(an, node, kept)
    hidden = scores.graph.hidden if opts.skip_hidden else set()
    title = scores.signals.headline if opts.strip_title else None
    if walked is None:
        walked = an.walked(node, kept)
    return typed_blocks(element, left_out, hidden, DROP_TAGS, BLOCK_TAGS, title, base_url, walked)


def region_block_maker(an: PageRankAnalysis, node: int, skip: Iterable[int] | None = None,
                       base_url: str | None = None) -> Callable[[], list[Block]]:
    """A function giving :func:`region_blocks` when called, with the article's continuation
    in the elements beside it around them (:func:`~newsstemmer.single.continuation.with_continuation`)
    and the standfirst above the element first where the page has one
    (:func:`~newsstemmer.single.standfirst.with_standfirst`);
    the walk waits until the blocks are asked for: the plain body does not pay for them.
    The maker keeps the plain walk that gave the body and the analysis no other."""
    kept = None if skip is None else list(skip)
    walked = an.walked(node, kept)
    an.walks.clear()  # (the other walks' events need not live as long as the article)
    return lambda: with_standfirst(an, node, with_continuation(an, node, region_blocks(an, node, kept, base_url, walked),
                                                               base_url))
