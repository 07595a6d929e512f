"""Sequence alignment of block paths and the layout similarity ``Sim`` (SPEC §2.2).

Paths are interned to small integers so that rapidfuzz's bit-parallel longest
common subsequence runs on integer sequences (compiled, O(n·m/64)).
"""

from __future__ import annotations

import itertools
from typing import Sequence

from rapidfuzz.distance import LCSseq

__all__ = ["PathCodes", "align", "layout_similarity", "lcs_length", "common_subsequence"]


class PathCodes:
    """Interns block paths to integers; one instance is shared by all pages compared.

    Safe to share between threads: a new path takes the next number of a counter
    (atomic), and ``setdefault`` keeps the first code given to a path.
    """

    def __init__(self) -> None:
        self._codes: dict[str, int] = {}
        self._next = itertools.count()

    def __len__(self) -> int:
        return len(self._codes)

    def code(self, path: str) -> int:
        code = self._codes.get(path)
        if code is None:
            code = self._codes.setdefault(path, next(self._next))
        return code

    def encode(self, paths: Sequence[str]) -> list[int]:
        return [self.code(p) for p in paths]


def align(a: Sequence[int], b: Sequence[int]) -> list[tuple[int, int]]:
    """Index pairs (i, j) of a longest common subsequence of ``a`` and ``b``."""
    if not a or not b:
        return []
    pairs: list[tuple[int, int]] = []
    for block in LCSseq.editops(a, b).as_matching_blocks():
        for k in range(block.size):
            pairs.append((block.a + k, block.b + k))
    return pairs


def lcs_length(a: Sequence[object] | str, b: Sequence[object] | str) -> int:
    """Length of a longest common subsequence (characters or items)."""
    if not a or not b:
        return 0
    return int(LCSseq.similarity(a, b))


def layout_similarity(
    a: Sequence[int], wa: Sequence[int], b: Sequence[int], wb: Sequence[int]
) -> float:
    """``Sim(A, B)``: weight of aligned blocks of both pages over the weight of both.

    ``a``/``b`` are path codes, ``wa``/``wb`` the block weights.  The result is in [0, 1].
    """
    total = sum(wa) + sum(wb)
    if total == 0:
        return 0.0
    # Several LCSs may exist with different weights: always align in one canonical
    # order so that Sim(A, B) == Sim(B, A).
    if (list(a), list(wa)) > (list(b), list(wb)):
        a, wa, b, wb = b, wb, a, wa
    matched = sum(wa[i] + wb[j] for i, j in align(a, b))
    return matched / total


def common_subsequence(a: Sequence[int], b: Sequence[int]) -> list[int]:
    """A longest common subsequence of two code sequences, as the items of ``a``."""
    return [a[i] for i, _ in align(a, b)]
