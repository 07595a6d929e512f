"""The standfirst above the article's element, as a ``lead`` block (issue #25).

Many pages put the summary under the headline (the standfirst) in a header of its own,
outside the element that holds the article's paragraphs, so the single-page methods never
see it.  The page usually declares the same summary as its description (``og:description``,
``description``, ``twitter:description``): the element before the article's element whose
text is that description is the standfirst.  It comes back as a ``lead`` block outside the
default body (the news golds disagree on standfirsts: kept by fundus-recent's, left out by
misinfo's and most of wcxb-dev's), so ``keep=("lead",)`` gives it to those who want it.

Texts are compared by the 12-character runs of their letters and digits, so that languages
written without spaces (Japanese, Chinese) match as well as the others.
"""

from __future__ import annotations

import re

from ..blocks import Block
from .pagerank import PageRankAnalysis

__all__ = ["standfirst", "with_standfirst"]

#: A description shorter than this (word characters) is a label, not a summary.
MIN_DESCRIPTION_CHARS = 40
#: The standfirst holds this share of the description's 5-grams at least ...
MIN_COVER = 0.8
#: ... and the description this share of the standfirst's (a container holding more is not it).
MIN_OWN = 0.6
#: Below this share of the description in the blocks, the body does not hold it yet.
MAX_IN_BLOCKS = 0.5

_NOT_WORD = re.compile(r"\W+")
_N = 12


def _grams(text: str) -> set[str]:
    s = _NOT_WORD.sub("", text.lower())
    return {s[k:k + _N] for k in range(max(1, len(s) - _N + 1))} if s else set()


def standfirst(an: PageRankAnalysis, node: int, blocks: list[Block]) -> str | None:
    """The text of the standfirst that precedes element ``node`` (the article's) and that
    ``blocks`` do not hold yet, or None.

    The standfirst is the smallest element wholly before ``node`` whose text matches the
    page's description (:data:`MIN_COVER`, :data:`MIN_OWN`); hidden elements are not in
    the analysis' graph, so they are never taken.
    """
    description = an.scores.signals.description
    target = _grams(description)
    want = len(_NOT_WORD.sub("", description))  # its word characters
    if want < MIN_DESCRIPTION_CHARS or not target:
        return None
    if any(b.kind == "lead" for b in blocks):
        return None
    held: set[str] = set()
    for b in blocks:
        held |= _grams(b.text)
    if len(target & held) > MAX_IN_BLOCKS * len(target):
        return None
    elements, chars, size = an.scores.graph.elements, an.chars, an.size
    best: tuple[int, str] | None = None
    for i in range(1, min(node, len(elements))):
        el = elements[i]
        if el is None or i + size[i] > node:  # a text node, or an element holding the article
            continue
        if not 0.6 * want <= chars[i] <= 2.0 * want or (best is not None and chars[i] >= best[0]):
            continue
        text = " ".join(" ".join(el.itertext()).split())
        grams = _grams(text)
        shared = len(grams & target)
        if shared >= MIN_COVER * len(target) and shared >= MIN_OWN * len(grams):
            best = (chars[i], text)
    return best[1] if best else None


def with_standfirst(an: PageRankAnalysis, node: int, blocks: list[Block]) -> list[Block]:
    """``blocks`` with the standfirst (:func:`standfirst`) first as a ``lead`` block left
    out of the default body; ``blocks`` themselves where the page has none to add."""
    text = standfirst(an, node, blocks)
    return [Block("lead", text, in_body=False), *blocks] if text else blocks
