"""Section and pattern scores (SPEC §2.4–2.5): DiffScore, MainScore, title scores.

All scores work on *significant* strings (word characters, lower-cased).
"""

from __future__ import annotations

import math
import re
from typing import Sequence

from rapidfuzz.distance import Indel

from .alignment import lcs_length
from ..dom.text import significant

__all__ = [
    "sample_pairs",
    "static_need",
    "diff_score",
    "main_score",
    "pattern_score",
    "dice",
    "run_score",
]


def sample_pairs(n: int, max_partners: int = 8) -> list[tuple[int, int]]:
    """Pairs of page indices to compare: all pairs for small clusters, else a ring.

    Comparing each page with its next ``max_partners`` pages keeps the cost linear
    in the cluster size while every page still takes part in the same number of pairs.
    """
    if n < 2:
        return []
    if n <= max_partners + 1:
        return [(i, j) for i in range(n) for j in range(i + 1, n)]
    pairs: set[tuple[int, int]] = set()
    offsets = list(range(1, max_partners // 2 + 1)) + [n // 2 + k for k in range(max_partners - max_partners // 2)]
    for i in range(n):
        for off in offsets:
            j = (i + off) % n
            if j != i:
                pairs.add((min(i, j), max(i, j)))
    return sorted(pairs)


def static_need(pages: int, share: float = 0.5) -> int:
    """How many of a layout's ``pages`` must repeat a text (a line, a section's text) for it
    to count as static: ``share`` of them and 3 at least (every page of a layout of 2 or 3).
    One pair of pages sharing a quote or a sentence template is no sign of boilerplate
    (NOTES.md #26, sessions 20-21)."""
    return max(min(pages, 3), math.ceil(share * pages))


_WORD = re.compile(r"[^\W_]+")
# Scripts written without spaces: every character is a word of its own.
_UNSPACED = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uac00-\ud7af]")


def _word_units(text: str, symbols: dict[tuple[str, int], int], known: dict[str, list[int]]) -> list[int]:
    """The significant characters of ``text`` as symbols tied to their word.

    Character ``k`` of word ``w`` becomes the symbol of ``(w, k)``: a common
    subsequence of two unit lists can only pair whole words (or their prefixes), yet
    its length still counts characters, as Weight does.  ``known`` keeps each word's
    symbols once made (words recur: "the", "of"), for the same ``symbols``.
    """
    units: list[int] = []
    for word in _WORD.findall(text.lower()):
        codes = known.get(word)
        if codes is None:
            if _UNSPACED.search(word):
                codes = [symbols.setdefault((ch, 0), len(symbols)) for ch in word]
            else:
                codes = [symbols.setdefault((word, k), len(symbols)) for k in range(len(word))]
            known[word] = codes
        units.extend(codes)
    return units


def diff_score(texts: Sequence[str], max_partners: int = 8, word_level_from: int = 200) -> float:
    """How much a section's text differs between pages: 0 = static, 1 = all different.

    ``texts`` are the section's texts, one per page.  A pair of texts is compared by
    the longest common subsequence of their significant characters (SPEC §2.4); when
    both hold at least ``word_level_from`` such characters, the subsequence may pair
    whole words only (choice, beyond the original: two unrelated English texts of a
    few thousand characters share more than half their letters as a character
    subsequence, so a long article body scored as boilerplate; as whole words they
    share a few "the"s and "of"s).  A section seen on a single page has no pair to
    compare and scores 1 (nothing shows it to be static).

    The score is at least the difference within which ``static_need(len(texts))`` pages
    find a near copy of their text (each page's nearest compared partner): a static text
    repeats on most pages, and on every page of a layout of 3 (choice, beyond SPEC's pooled
    formula: among three pages, two whose texts share a sentence template pooled the score
    of a third, unrelated text under 0.5 and the layout left the section out: NOTES.md #26).
    """
    sigs = [significant(t) for t in texts]
    words: dict[int, list[int]] = {}
    symbols: dict[tuple[str, int], int] = {}
    known: dict[str, list[int]] = {}
    num = den = 0
    nearest: dict[int, float] = {}  # page -> the difference to its nearest compared partner
    for i, j in sample_pairs(len(texts), max_partners):
        a, b = sigs[i], sigs[j]
        total = len(a) + len(b)
        if len(a) >= word_level_from and len(b) >= word_level_from and a != b:
            for k in (i, j):
                if k not in words:
                    words[k] = _word_units(texts[k], symbols, known)
            common = lcs_length(words[i], words[j])
        else:
            common = lcs_length(a, b)
        num += total - 2 * common
        den += total
        pair = (total - 2 * common) / total if total else 0.0
        for k in (i, j):
            nearest[k] = min(nearest.get(k, 1.0), pair)
    if den == 0:
        return 0.0 if len(texts) > 1 else 1.0
    repeated = sorted(nearest.values())
    return max(num / den, repeated[min(static_need(len(texts)), len(repeated)) - 1])


def main_score(diff: float, plain_weights: Sequence[int]) -> float:
    """DiffScore × average non-anchor weight per page."""
    if not plain_weights:
        return 0.0
    return diff * sum(plain_weights) / len(plain_weights)


def pattern_score(n_pages: int, main_scores: Sequence[float]) -> float:
    """``log(|P|) × Σ MainScore``: low for one-off layouts and index pages."""
    if n_pages < 1:
        return 0.0
    return math.log(n_pages) * sum(main_scores)


def dice(a: str, b: str) -> float:
    """Dice coefficient of matched characters of two texts (on significant characters)."""
    sa, sb = significant(a), significant(b)
    if not sa or not sb:
        return 0.0
    return 2 * lcs_length(sa, sb) / (len(sa) + len(sb))


def run_score(title: str, text: str) -> float:
    """Fallback title score: Σ(length of common runs)² / len(title) (the original's)."""
    st, sx = significant(title), significant(text)
    if not st or not sx:
        return 0.0
    runs = Indel.opcodes(st, sx).as_matching_blocks()
    return sum(r.size * r.size for r in runs if r.size > 1) / len(st)
