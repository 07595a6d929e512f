"""Where a part of the article region stands, for the learned cleaning (issue #12).

:mod:`.cleaning` describes each part of the chosen region by its own tag, class
words and text.  A caption paragraph, the text of an embedded tweet or an author's
bio is often a plain ``<p>`` whose kind only its containers tell (``figure``,
``blockquote class="twitter-tweet"``, ``div class="post-about"``), and a box is
read differently as the one figure among many paragraphs than as one paragraph
among many.  These columns add, per part: the hint words (:data:`HINTS`) of its
ancestors inside the region, whether it lies inside a figure, and how it stands
among its siblings (the share of them of its tag, their paragraph text, its
position, their number).

Page-level columns (what the page declares: ``og:type``, JSON-LD / microdata
article types, a publication time, ``<time>`` elements; its size and link density;
how much of the region is figures and images) and the part's text repeated in an
image's ``alt`` or elsewhere on the page were tried here too and did not help under
cross-validation (benchmarks/README.md, "Where region loses").
"""

from __future__ import annotations

import math

import numpy as np

from ..signals.hints import HINTS, element_hints
from .candidates import RegionView

__all__ = ["CONTEXT_FEATURES", "part_context"]

_SIBLING = ("in_figure", "sib_same_tag_share", "sib_p_chars_share", "sib_position", "sib_count")
#: The columns of :func:`part_context`, in order.
CONTEXT_FEATURES: tuple[str, ...] = (*_SIBLING, *(f"anc_hint_{name}" for name, _ in HINTS))
_ANC_COL = {name: len(_SIBLING) + k for k, (name, _) in enumerate(HINTS)}
#: Containers whose parts are a figure's (image, caption, credit).
_FIGURE_TAGS = frozenset(("figure", "figcaption", "picture"))


def part_context(view: RegionView, region: int, J: np.ndarray) -> np.ndarray:
    """The columns :data:`CONTEXT_FEATURES` of each element of ``J`` inside ``region``.

    Ancestor hints are those of the elements strictly between the part and the
    region (the region's own and its ancestors' say nothing about one part).
    """
    width = len(CONTEXT_FEATURES)
    if not len(J):
        return np.zeros((0, width))
    elements = view.an.scores.graph.elements
    tags, size, chars, p_chars = view.tags, view.size, view.chars, view.cum["p_chars"]
    end = region + int(size[region])
    if J.min() <= region or J.max() >= end:
        raise ValueError(f"parts outside region {region}'s subtree ({region + 1}..{end - 1})")
    # The walks below read nodes one at a time: Python lists of the region's nodes, numbered
    # from it (numpy's scalars cost more to read than the arithmetic done with them).
    parent = (view.parent[region:end] - region).tolist()
    sizes = size[region:end].tolist()
    is_el = view.is_el[region:end].tolist()
    #: Per node inside the region (numbered from it): the hint columns of it and of its
    #: ancestors below the region, which every part under it carries.
    hints_up: dict[int, frozenset[int]] = {0: frozenset()}

    def hints_above(a: int) -> frozenset[int]:
        chain = []
        while a not in hints_up:
            chain.append(a)
            a = parent[a]
        cols = hints_up[a]
        for a in reversed(chain):
            cols = hints_up[a] = cols.union(_ANC_COL[h] for h in element_hints(elements[a + region]))
        return cols

    #: Per parent: a part's row but for its own two columns (its tag's share among its
    #: element siblings, its position among them), its siblings' positions and tag counts.
    rows_of: dict[int, tuple[list[float], dict[int, int], dict[str | None, int]]] = {}
    rows = []
    for j in (J - region).tolist():
        p = parent[j]
        known = rows_of.get(p)
        if known is None:
            where: dict[int, int] = {}
            counts: dict[str | None, int] = {}
            k, stop = p + 1, p + sizes[p]
            while k < stop:
                if is_el[k]:
                    where[k] = len(where)
                    tag = tags[k + region]
                    counts[tag] = counts.get(tag, 0) + 1
                k += sizes[k]
            n = len(where)
            row = [0.0] * width
            q = p + region
            # (``view.range_sum("p_chars", q)``'s float64 difference, over the parent's text)
            row[2] = float(p_chars[q + sizes[p]] - p_chars[q]) / max(float(chars[q]), 1.0)
            row[4] = math.log1p(n)  # (the C library's: see candidates.log1p)
            for c in hints_above(p):
                row[c] = 1.0
            known = rows_of[p] = (row, where, counts)
        template, where, counts = known
        row = template.copy()
        n = len(where)
        row[1] = counts[tags[j + region]] / n
        row[3] = (where[j] + 0.5) / n
        rows.append(row)
    X = np.array(rows, dtype=np.float64)
    # Parts inside a figure: covered by the subtree of a figure-like element of the region.
    inner = tags[region + 1:end]
    if not _FIGURE_TAGS.isdisjoint(inner):
        fig = np.array([k for k, tag in enumerate(inner, region + 1) if tag in _FIGURE_TAGS], dtype=np.int64)
        inside = np.zeros(end - region + 1, dtype=np.int64)
        np.add.at(inside, fig + 1 - region, 1)
        np.add.at(inside, np.minimum(fig + size[fig], end) - region, -1)
        X[:, 0] = np.cumsum(inside)[J - region] > 0
    return X
