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

from collections import Counter

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
    X = np.zeros((len(J), len(CONTEXT_FEATURES)))
    if not len(J):
        return X
    elements = view.an.scores.graph.elements
    chars, size, tags, is_el = view.chars, view.size, view.tags, view.is_el
    # (the walk below reads nodes one at a time: Python lists, not numpy scalars)
    parent = view.parent.tolist()
    # Parts inside a figure: covered by the subtree of a figure-like element of the region.
    end = region + int(size[region])
    fig = np.array([k for k, tag in enumerate(tags[region + 1:end], region + 1) if tag in _FIGURE_TAGS],
                   dtype=np.int64)
    inside = np.zeros(end - region + 1, dtype=np.int64)
    if len(fig):
        np.add.at(inside, fig + 1 - region, 1)
        np.add.at(inside, np.minimum(fig + size[fig], end) - region, -1)
    in_fig = np.cumsum(inside) > 0
    X[:, 0] = in_fig[J - region]
    hints_of: dict[int, tuple[int, ...]] = {}
    #: Per parent: its element children's positions, the count of each tag among them,
    #: their number, the share of its text in paragraphs and the log of their number.
    siblings_of: dict[int, tuple[dict[int, int], Counter, int, float, float]] = {}
    for r, j in enumerate(J.tolist()):
        p = parent[j]
        sib = siblings_of.get(p)
        if sib is None:
            kids = [k for k in view.children(p) if is_el[k]]
            n = len(kids)
            sib = siblings_of[p] = ({k: i for i, k in enumerate(kids)}, Counter(tags[k] for k in kids), n,
                                    view.range_sum("p_chars", p) / max(float(chars[p]), 1.0), np.log1p(n))
        where, counts, n, p_share, log_n = sib
        row = X[r]
        row[1] = counts[tags[j]] / n
        row[2] = p_share
        row[3] = (where[j] + 0.5) / n
        row[4] = log_n
        a = p
        while a > region:
            cols = hints_of.get(a)
            if cols is None:
                cols = hints_of[a] = tuple(_ANC_COL[h] for h in element_hints(elements[a]))
            for c in cols:
                row[c] = 1.0
            a = parent[a]
    return X
