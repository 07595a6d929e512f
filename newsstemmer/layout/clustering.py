"""Layout clustering (SPEC §2.3): group pages whose block-path sequences align well.

Greedy and near-linear: each page is compared with one representative of each
existing cluster (not with every member), and joins the most similar cluster
whose similarity reaches the threshold, else starts a new cluster.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from .alignment import layout_similarity

__all__ = ["LayoutSequence", "cluster_layouts"]


@dataclass
class LayoutSequence:
    """A page reduced to what clustering needs: path codes and block weights."""

    codes: list[int]
    weights: list[int]


def cluster_layouts(
    pages: Sequence[LayoutSequence],
    threshold: float = 0.97,
    order: Sequence[int] | None = None,
    relaxed_thresholds: Sequence[float] = (),
    min_size: int = 2,
) -> list[list[int]]:
    """Clusters of page indices; pages are visited in ``order`` (default: as given).

    After the greedy pass at ``threshold``, clusters smaller than ``min_size`` get
    further chances at each of ``relaxed_thresholds`` (descending): they may join
    another cluster, or each other, at that lower similarity.  Clusters that are
    already large enough are never merged with each other, so distinct layouts
    stay apart while stray pages of a small site still find their layout.
    """
    clusters = _greedy(pages, threshold, order if order is not None else range(len(pages)))
    for level in relaxed_thresholds:
        small = [c for c in clusters if len(c) < min_size]
        if not small:
            break
        big = [c for c in clusters if len(c) >= min_size]
        for c in small:
            rep = pages[c[0]]
            best, best_sim = None, level
            for other in big + [s for s in small if s is not c and s]:
                o = pages[other[0]]
                sim = layout_similarity(rep.codes, rep.weights, o.codes, o.weights)
                if sim >= best_sim:
                    best, best_sim = other, sim
            if best is not None:
                best.extend(c)
                c.clear()
        clusters = [c for c in clusters if c]
    return clusters


def _greedy(pages: Sequence[LayoutSequence], threshold: float, order: Iterable[int]) -> list[list[int]]:
    clusters: list[list[int]] = []
    for i in order:
        page = pages[i]
        best, best_sim = -1, threshold
        for c, members in enumerate(clusters):
            rep = pages[members[0]]
            sim = layout_similarity(page.codes, page.weights, rep.codes, rep.weights)
            if sim >= best_sim:
                best, best_sim = c, sim
        if best >= 0:
            clusters[best].append(i)
        else:
            clusters.append([i])
    return clusters
