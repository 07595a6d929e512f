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

import math
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


def _letters(text: str) -> str:
    """``text`` lower-cased, its letters and digits only (what its runs are cut from)."""
    return _NOT_WORD.sub("", text.lower())


def _grams(text: str) -> set[str]:
    s = _letters(text)
    return {s[k:k + _N] for k in range(max(1, len(s) - _N + 1))} if s else set()


def _found_at_least(target: set[str], letters: str, need: float) -> int:
    """How many runs of ``target`` (all :data:`_N` long) stand in ``letters``, counted
    until the count reaches ``need``; -1 as soon as it no longer can.

    A run of ``_N`` characters is one of :func:`_grams` of a text exactly when it stands in
    the text's :func:`_letters`, so this counts ``len(_grams(text) & target)`` without
    making the text's runs (the cost of this step was building those sets)."""
    left = len(target)
    found = 0
    for gram in target:
        left -= 1
        if gram in letters:
            found += 1
            if found >= need:
                return found
        elif found + left < need:
            return -1
    return found if found >= need else -1


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
    # (every run of ``target`` is _N long: a word character lower-cases to one or more
    # word characters, so the description has ``want`` >= 40 letters or more)
    elements, chars, size = an.scores.graph.elements, an.chars, an.size
    low, high = 0.6 * want, 2.0 * want
    # the smallest element first (the first in page order among equals): the first match is the one
    sized = [(c, i) for i, c in enumerate(chars[1:min(node, len(elements))], 1) if low <= c <= high]
    candidates = sorted((c, i) for c, i in sized if elements[i] is not None and i + size[i] <= node)
    for _, i in candidates:
        text = " ".join(" ".join(elements[i].itertext()).split())
        if _found_at_least(target, _letters(text), MIN_COVER * len(target)) >= 0:
            grams = _grams(text)  # (all its runs, for the share of them the description holds)
            if len(grams & target) >= MIN_OWN * len(grams):
                return None if _held(target, blocks) else text
    return None


def _held(target: set[str], blocks: list[Block]) -> bool:
    """Whether ``blocks`` hold more than :data:`MAX_IN_BLOCKS` of the description's runs."""
    # ("\x00" stands in no text's letters: no run crosses from one block into the next)
    held = "\x00".join(_letters(b.text) for b in blocks)
    return _found_at_least(target, held, math.floor(MAX_IN_BLOCKS * len(target)) + 1) >= 0


def with_standfirst(an: PageRankAnalysis, node: int, blocks: list[Block]) -> list[Block]:
    """``blocks`` with the standfirst (:func:`standfirst`) first as a ``lead`` block left
    out of the default body; ``blocks`` themselves where the page has none to add."""
    text = standfirst(an, node, blocks)
    return [Block("lead", text, in_body=False), *blocks] if text else blocks
