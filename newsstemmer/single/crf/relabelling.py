"""The CRF's second pass: hierarchical consistency between a block and its children (SPEC §5).

Bottom-up over the block tree::

    ratio = (R1(b) + Σ_c R2(c)) / (|C(b)| + 1)
    ratio > upper  →  b and its children are content
    ratio < lower  →  b is not content (children unchanged)
    otherwise      →  R2(b) = R1(b)
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["relabel"]


def relabel(
    parents: Sequence[int],
    r1: Sequence[float],
    upper: float = 0.7,
    lower: float = 0.4,
    keep: Sequence[bool] | None = None,
) -> list[float]:
    """The second pass: hierarchical consistency over a tree, bottom-up (iterative).

    ``parents[i]`` is the parent of node ``i`` (-1 for a root); a parent must come
    before its children (document order does this).  ``r1`` are the first-pass
    results (1/0, or probabilities).  For each node b with children C(b), once the
    children are done: ratio = (R1(b) + Σ R2(c)) / (|C(b)| + 1); above ``upper``
    b and its children become 1, below ``lower`` b becomes 0, otherwise R2(b) = R1(b).
    Nodes flagged in ``keep`` are never lowered below their R1 by the lower
    threshold (used to keep the own text of text blocks, see :class:`CRFExtractor`).
    """
    n = len(parents)
    if len(r1) != n or (keep is not None and len(keep) != n):
        raise ValueError("parents, r1 (and keep) differ in length")
    children: list[list[int]] = [[] for _ in range(n)]
    for i, p in enumerate(parents):
        if p >= 0:
            if p >= i:
                raise ValueError(f"node {i}: its parent {p} does not come before it")
            children[p].append(i)
    r2 = [float(x) for x in r1]
    for b in range(n - 1, -1, -1):  # children have larger indices: they are done first
        kids = children[b]
        ratio = (r1[b] + sum(r2[c] for c in kids)) / (len(kids) + 1)
        if ratio > upper:
            r2[b] = 1.0
            for c in kids:
                r2[c] = 1.0
        elif ratio < lower and not (keep is not None and keep[b]):
            r2[b] = 0.0
        else:
            r2[b] = float(r1[b])
    return r2
