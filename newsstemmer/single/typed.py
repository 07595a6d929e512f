"""Typed blocks of the body DOM PageRank and the region extractor give (issue #25).

Both take an element's text minus what their cleaning leaves out
(:func:`~newsstemmer.single.pagerank.region_paragraphs`); :func:`region_blocks` types
each line of that text (:func:`newsstemmer.blockwalk.typed_blocks`) from the events of
the plain walk that gave it (kept by the analysis; walked again only where the analysis
no longer keeps it), so the body's blocks give exactly its lines and the left-out
captions, bylines or code come back as optional kinds.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from lxml import etree

from ..blocks import Block
from ..blockwalk import subtree_events, typed_blocks
from ..dom.walk import WalkedText
from ..leftout import left_out_kind
from .pagerank import BLOCK_TAGS, DROP_TAGS, PageRankAnalysis, region_element
from .continuation import with_continuation
from .standfirst import with_standfirst

__all__ = ["RegionBlockMaker", "region_blocks", "region_block_maker", "with_left_out_pictures"]

#: The kinds of the blocks that hold pictures and their captions.
_PICTURE_KINDS = frozenset({"figure", "caption"})


def _may_hold_pictures(el: etree._Element) -> bool:
    """Whether left-out ``el`` may give a ``figure`` or ``caption`` block: it holds a picture,
    a ``figure`` or a ``figcaption`` (itself included), or its names make it a caption
    (:func:`~newsstemmer.leftout.left_out_kind`).  Nothing else in a left-out part does."""
    return next(el.iter("img", "figure", "figcaption"), None) is not None or left_out_kind(el) == "caption"


def with_left_out_pictures(
    blocks: list[Block],
    marks: Iterable[tuple[int, etree._Element]],
    hidden: Collection[etree._Element],
    drop_tags: Collection[str],
    block_tags: Collection[str],
    base_url: str | None = None,
) -> list[Block]:
    """The body's ``blocks`` (:func:`~newsstemmer.blockwalk.typed_blocks` with ``left_out_blocks=False``) with the
    ``figure`` and ``caption`` blocks of the left-out parts at its ``marks`` put back where
    the full walk gives them: the same figure and caption blocks, in the same order, as
    ``typed_blocks`` with the left-out parts (each part's blocks are made of its own
    records alone).  Only the parts that may hold one are walked, none is typed by its
    structure and only the lines of figures and captions are made (captions and pictures
    need neither: ``left_out_parts=False``, ``only_kinds``)."""
    out: list[Block] | None = None
    start = 0
    for index, el in marks:
        if not _may_hold_pictures(el):
            continue
        walked = WalkedText([], subtree_events(el, hidden, drop_tags), [])
        found = [b for b in typed_blocks(el, (el,), hidden, drop_tags, block_tags, None, base_url, walked,
                                         left_out_parts=False, only_kinds=_PICTURE_KINDS)
                 if b.kind in _PICTURE_KINDS]
        if found:
            if out is None:
                out = []
            out += blocks[start:index]
            out += found
            start = index
    if out is None:
        return blocks
    out += blocks[start:]
    return out


def region_blocks(an: PageRankAnalysis, node: int, skip: Iterable[int] | None = None,
                  base_url: str | None = None, walked: WalkedText | None = None,
                  left_out_blocks: bool = True, marks: list | None = None) -> list[Block]:
    """The typed blocks of element ``node``'s body as
    :func:`~newsstemmer.single.pagerank.region_paragraphs` gives its lines (same
    ``skip``: node indices left out, default PageRank's cleaning); links and pictures
    made absolute against ``base_url``.  ``walked``: the plain walk that gave those lines
    (default: the one the analysis keeps, if any); ``left_out_blocks=False``: the body's
    blocks alone, ``marks`` getting where the left-out parts stand
    (:func:`~newsstemmer.blockwalk.typed_blocks`)."""
    scores, opts = an.scores, an.options
    kept = None if skip is None else list(skip)
    element, left_out = region_element(an, node, kept)
    hidden = an.hidden()
    title = scores.signals.headline if opts.strip_title else None
    if walked is None:
        walked = an.walked(node, kept)
    return typed_blocks(element, left_out, hidden, DROP_TAGS, BLOCK_TAGS, title, base_url, walked, left_out_blocks,
                        marks)


class RegionBlockMaker:
    """The typed blocks of a region body, made when asked for, in steps: the blocks of the
    element (:func:`region_blocks`: the body's, and the parts its cleaning left out), then
    the article's continuation in the elements beside it
    (:func:`~newsstemmer.single.continuation.with_continuation`), then the standfirst above
    the element (:func:`~newsstemmer.single.standfirst.with_standfirst`).  Everything but
    the body's own blocks is out of the default body, so Markdown and HTML of the default
    body need only those (the left-out parts not typed), captions and pictures the body's
    blocks with the left-out parts' figures and captions alone put back among them
    (:func:`with_left_out_pictures`) and the continuation
    (:meth:`partial`); each step runs once.  The maker keeps the plain walk that gave the
    body and the analysis no other."""

    __slots__ = ("an", "node", "kept", "base_url", "walked", "_body", "_marks", "_own", "_continued", "_pictures")

    def __init__(self, an: PageRankAnalysis, node: int, skip: Iterable[int] | None = None,
                 base_url: str | None = None) -> None:
        self.an, self.node, self.base_url = an, node, base_url
        self.kept = None if skip is None else list(skip)
        self.walked = an.walked(node, self.kept)
        an.walks.clear()  # (the other walks' events need not live as long as the article)
        self._body: list[Block] | None = None
        self._marks: list = []  # (where the left-out parts stand among the body's blocks)
        self._own: list[Block] | None = None
        self._continued: list[Block] | None = None
        self._pictures: list[Block] | None = None

    def partial(self, need: frozenset[str]) -> list[Block]:
        """Blocks holding at least every block of the default body and those of the optional
        kinds and parts ``need`` (:data:`newsstemmer.blocks.OPTIONAL_KINDS`)."""
        if "lead" in need:
            return self()
        if not need:
            if self._own is not None:
                return self._own
            if self._body is None:
                self._body = region_blocks(self.an, self.node, self.kept, self.base_url, self.walked, False,
                                           self._marks)
            return self._body
        if need <= _PICTURE_KINDS and self._continued is None:
            if self._pictures is None:
                body = self.partial(frozenset())
                if body is self._own:  # (the full blocks made meanwhile)
                    return self.partial(need | {"text"})
                with_pictures = with_left_out_pictures(body, self._marks, self.an.hidden(), DROP_TAGS, BLOCK_TAGS,
                                                       self.base_url)
                self._pictures = with_continuation(self.an, self.node, with_pictures, self.base_url)
            return self._pictures
        if self._own is None:
            self._own = region_blocks(self.an, self.node, self.kept, self.base_url, self.walked)
        if self._continued is None:
            self._continued = with_continuation(self.an, self.node, self._own, self.base_url)
        return self._continued

    def __call__(self) -> list[Block]:
        """All the blocks: the element's, its continuation around them and the standfirst first."""
        return with_standfirst(self.an, self.node, self.partial(frozenset({"text"})))


def region_block_maker(an: PageRankAnalysis, node: int, skip: Iterable[int] | None = None,
                       base_url: str | None = None) -> RegionBlockMaker:
    """The maker of the typed blocks of element ``node``'s body (:class:`RegionBlockMaker`);
    nothing is walked until the blocks are asked for: the plain body does not pay for them."""
    return RegionBlockMaker(an, node, skip, base_url)
