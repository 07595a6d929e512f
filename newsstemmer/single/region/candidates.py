"""The learned region decision: which element of a page holds the article (issue #12).

DOM PageRank (:mod:`newsstemmer.single.pagerank`) finds the DensitySum core and
widens it to the main element by hand-set shares (``climb_share``...).  Its errors
are mostly that choice: too small (the headline and standfirst only, one section of
a split body) or too large (related boxes, captions, comments).  Here the choice is
a ranking: the *candidates* are the core and its ancestors, PageRank's own main
element and the elements of highest DensitySum with their container ancestors;
each gets a row of features read off PageRank's analysis (:data:`REGION_FEATURES`),
a tree model (:class:`~newsstemmer.trees.TreeModel`, trained by
``training/train_region.py`` on the shingle F1 each candidate's text scores
against the gold) scores the rows, and the best candidate's text is extracted as
PageRank extracts its own (:func:`~newsstemmer.single.pagerank.region_paragraphs`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import repeat

import numpy as np

from ..signals.hints import element_hints
from ..signals.page_signals import BOILER, GALLERY, IN_COMMENTS, IN_SIDEBAR
from ..domgraph import float_array, int_array
from ..pagerank import CLEAN_TAGS, CONTAINER_TAGS, PageRankAnalysis

__all__ = ["CLEANABLE", "CLEANABLE_TAGS", "CONTAINER", "ELEMENT", "REGION_FEATURES", "RegionView", "log1p", "region_candidates", "region_features",
           "top_indices"]

#: How many elements of highest DensitySum ``g`` seed candidates (with their containers).
TOP_K = 10

_HINT_FLAGS = ("content", "article", "comment", "nav", "related", "side", "footer", "header", "meta", "caption")
_HEADINGS = frozenset(("h1", "h2", "h3", "h4", "h5", "h6"))

#: The columns of a candidate's feature row, in order.  No flags of the candidate's tag
#: (``div``, ``article``, ``td``...): they tie the ranker to its training sites' templates
#: and left out they gain under site-grouped CV (benchmarks/README.md, "Where region loses").
REGION_FEATURES: tuple[str, ...] = (
    "chars_share",
    "log_chars",
    "link_density",
    "mass_share",
    "f_share",
    "g_rel",
    "f_rel",
    "g_rank",
    "depth",
    "depth_from_core",
    "is_core",
    "contains_core",
    "inside_core",
    "is_main",
    "contains_main",
    "inside_main",
    "log_chars_vs_main",
    "has_headline",
    "headline_before",
    "parent_mass_share",
    "parent_chars_share",
    "best_child_mass_share",
    "second_child_mass_share",
    "children",
    "text_children",
    "p_count",
    "p_chars_share",
    "heading_count",
    "li_chars_share",
    "text_nodes",
    "chars_per_text_node",
    "cleaned_share",
    "clean_link_density",
    "clean_chars_share",
    "in_cleaned",
    "start",
    "end",
    "role_comments",
    "role_sidebar",
    "role_boiler",
    "role_gallery",
    "above_roles",
    *(f"hint_{h}" for h in _HINT_FLAGS),
)


#: Tag flags of :attr:`RegionView.bits`.
ELEMENT, CONTAINER, CLEANABLE = 1, 2, 4
_P, _H, _LI, _CLEAN = 8, 16, 32, 64
#: Elements the learned cleaning may leave out.
CLEANABLE_TAGS = frozenset(
    "div section article aside nav header footer figure figcaption blockquote p h1 h2 h3 h4 h5 h6 "
    "ul ol dl table form center pre details address".split()
)


def _tag_bits() -> dict[str | None, int]:
    bits: dict[str | None, int] = {None: 0}
    for tag in CONTAINER_TAGS | CLEANABLE_TAGS | CLEAN_TAGS | _HEADINGS | {"p", "li"}:
        b = ELEMENT
        b |= CONTAINER if tag in CONTAINER_TAGS else 0
        b |= CLEANABLE if tag in CLEANABLE_TAGS else 0
        b |= _P if tag == "p" else 0
        b |= _H if tag in _HEADINGS else 0
        b |= _LI if tag == "li" else 0
        b |= _CLEAN if tag in CLEAN_TAGS else 0
        bits[tag] = b
    return bits


def _covering(starts: np.ndarray, ends: np.ndarray, n: int) -> np.ndarray:
    """For each of ``n`` nodes, how many of the subtrees ``starts[k] .. ends[k] - 1``
    hold it strictly below their root."""
    delta = np.bincount(starts + 1, minlength=n + 1)[: n + 1] - np.bincount(ends, minlength=n + 1)[: n + 1]
    return np.cumsum(delta[:n])


_TAG_BITS = _tag_bits()


@dataclass
class RegionView:
    """PageRank's analysis of one page as arrays over its nodes (text nodes included).

    Nodes are numbered in preorder, so the subtree of node ``i`` is the range
    ``i .. i + size[i] - 1`` and any per-node count over a subtree is a difference of
    a prefix sum.
    """

    an: PageRankAnalysis
    parent: np.ndarray
    size: np.ndarray
    chars: np.ndarray
    links: np.ndarray
    mass: np.ndarray
    g: np.ndarray
    f: np.ndarray
    depth: np.ndarray
    tags: list[str | None]
    bits: np.ndarray  # tag flags of each node (ELEMENT, CONTAINER, CLEANABLE...)
    is_el: np.ndarray
    children_count: np.ndarray  # child nodes (elements and text) of each node
    cum: dict[str, np.ndarray]  # prefix sums (length n + 1) of per-node quantities
    headline: int  # node of the headline element (-1: none)
    #: The nodes PageRank's rules flag for cleaning (in order), each node's count of
    #: flagged proper ancestors, and each node's flag.
    flags: tuple[np.ndarray, np.ndarray, np.ndarray]

    def cleaned(self, C: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Characters (and link characters) the cleaning rules would leave out of each
        element of ``C`` were it the main element: its flagged descendants with no
        flagged ancestor below it."""
        fl, depth, flagged = self.flags
        if not len(fl):
            return np.zeros(len(C)), np.zeros(len(C))
        C = C[:, None]
        top = (fl > C) & (fl < C + self.size[C]) & (depth[fl] == depth[C] + flagged[C])
        return top @ self.chars[fl], top @ self.links[fl]

    @classmethod
    def of(cls, an: PageRankAnalysis) -> "RegionView":
        graph = an.scores.graph
        elements = graph.elements
        n = len(elements)
        parent = int_array(graph.parent)
        size = int_array(an.size)
        chars = float_array(an.chars)
        links = float_array(an.link_chars)
        mass = float_array(an.mass)
        g = float_array(an.scores.g)
        f = float_array(an.scores.f)
        tags = [None if el is None else el.tag for el in elements]
        bits = np.fromiter(map(_TAG_BITS.get, tags, repeat(ELEMENT)), dtype=np.int64, count=n)
        is_el = (bits & ELEMENT) != 0
        is_p = (bits & _P) != 0
        ends = np.arange(n) + size
        # depth = number of proper ancestors: every node covers the range after it.
        depth = _covering(np.arange(n), ends, n)
        roles = int_array(graph.roles)
        # What PageRank's cleaning would leave out (the link-density and role rules,
        # wherever they apply; the "at most half the main element" limit is not known here).
        flagged = ((bits & _CLEAN) != 0) & (chars > 0) & (links > 0.5 * chars)
        flagged |= is_el & ((roles & (IN_COMMENTS | BOILER)) != 0)
        fl = np.flatnonzero(flagged)
        flag_depth = _covering(fl, ends[fl], n)  # flagged proper ancestors of each node
        covered = flag_depth > 0
        ra = np.flatnonzero((roles & (IN_COMMENTS | IN_SIDEBAR | BOILER)) != 0)
        above_roles = _covering(ra, ends[ra], n) > 0

        def prefix(a: np.ndarray) -> np.ndarray:
            out = np.zeros(n + 1, dtype=np.float64)
            np.cumsum(a, out=out[1:])
            return out

        outer_p = is_p.copy()
        outer_p[1:] &= ~is_p[parent[1:]]
        cum = {
            "f": prefix(f),
            "p": prefix(is_p),
            "p_chars": prefix(np.where(outer_p, chars, 0.0)),
            "h": prefix((bits & _H) != 0),
            "li_chars": prefix(np.where((bits & _LI) != 0, chars, 0.0)),
            "text": prefix(~is_el),
            "covered": np.concatenate(([0.0], covered)),
            "above_roles": np.concatenate(([0.0], above_roles)),
            "own": prefix(float_array(graph.chars)),
        }
        headline = -1
        if an.scores.signals.headline_el is not None:
            try:
                headline = elements.index(an.scores.signals.headline_el)
            except ValueError:  # (a hidden headline: not in the graph)
                pass
        kids = np.bincount(parent[1:], minlength=n) if n > 1 else np.zeros(n, dtype=np.int64)
        flags = (fl, flag_depth, flagged)
        return cls(an, parent, size, chars, links, mass, g, f, depth, tags, bits, is_el, kids, cum, headline, flags)

    def range_sum(self, key: str, i: int) -> float:
        """Sum of a prefix-summed quantity over the subtree of ``i``."""
        c = self.cum[key]
        return float(c[i + self.size[i]] - c[i])

    def children(self, i: int) -> list[int]:
        """Child nodes of ``i`` (elements and text nodes), in order."""
        out = []
        j, end = i + 1, i + int(self.size[i])
        size = self.size
        while j < end:
            out.append(j)
            j += int(size[j])
        return out


def log1p(values: np.ndarray) -> np.ndarray:
    """``log(1 + x)`` of each value by the C library (``math.log1p``), for the feature rows.

    Not numpy's ``np.log1p``: on CPUs with AVX-512 numpy takes a vector loop whose result
    is one bit off the C library's on some values (47.0 among them).  A feature one bit off
    moves LightGBM's bin edges, so the region models retrained on such a CPU were other
    bytes than the shipped ones (trained where numpy calls the C library); with the C
    library's value on every CPU the rows, and so the trained models, are the same.
    The values are counts (0 or more)."""
    a = np.asarray(values, dtype=np.float64)
    return np.fromiter(map(math.log1p, a.ravel().tolist()), np.float64, a.size).reshape(a.shape)


def top_indices(values: np.ndarray, k: int) -> np.ndarray:
    """The indices of the ``k`` highest ``values``, highest first, ties by index (lower first).

    Not ``np.argpartition``: which of several equal values it keeps at the k-th place
    depends on the CPU (numpy 2 takes a vector selection where AVX-512 is there), so the
    candidates, and the models trained on them, were not the same on every machine."""
    return np.argsort(-values, kind="stable")[: min(k, len(values))]


def region_candidates(view: RegionView, top_k: int = TOP_K) -> list[int]:
    """The elements the article region is chosen among, in page order.

    The core and all its ancestors, PageRank's main element, and the ``top_k``
    elements of highest DensitySum with their container ancestors; an ancestor
    that adds no text to the candidate below it is left out (same text).
    """
    an = view.an
    if an.main < 0:
        return []
    tags, parent, chars = view.tags, an.scores.graph.parent, an.chars
    chosen: set[int] = {an.main}

    def climb(i: int, containers_only: bool) -> None:
        below = i
        chosen.add(i)
        i = parent[i]
        while i >= 0:
            if (not containers_only or tags[i] in CONTAINER_TAGS) and (chars[i] > chars[below] or i == 0):
                chosen.add(i)
                below = i
            i = parent[i]

    climb(an.scores.core, False)
    g = np.where(view.is_el, view.g, -1.0)
    top = top_indices(g, top_k)
    for j in top:
        if g[j] > 0:
            climb(int(j), True)
    return sorted(chosen)


_COL = {name: k for k, name in enumerate(REGION_FEATURES)}
_HINT_COL = {h: _COL[f"hint_{h}"] for h in _HINT_FLAGS}


def region_features(view: RegionView, cands: list[int]) -> np.ndarray:
    """One feature row per candidate (columns :data:`REGION_FEATURES`)."""
    X = np.zeros((len(cands), len(REGION_FEATURES)), dtype=np.float64)
    if not cands:
        return X
    an = view.an
    C = np.asarray(cands, dtype=np.int64)
    n = len(view.tags)
    size, chars, links, mass, g, f, depth, cum = (
        view.size, view.chars, view.links, view.mass, view.g, view.f, view.depth, view.cum)
    core, main, head = an.scores.core, an.main, view.headline
    is_el = view.is_el
    eg = np.where(is_el, g, -1.0)
    top = top_indices(eg, 50)
    k = len(top)
    rank = np.full(n, 50.0)
    rank[top] = np.arange(k)
    sC = size[C]
    eC = C + sC
    ch = chars[C]
    safe = np.where(ch > 0, ch, 1.0)

    def rsum(key: str) -> np.ndarray:
        return cum[key][eC] - cum[key][C]

    def within(a, b):  # b in the subtree of a
        return (a <= b) & (b < a + size[a])

    tn = rsum("text")
    p = view.parent[C]
    has_p = p >= 0
    pp = np.where(has_p, p, 0)
    # Each candidate's children, best first by weight: for the shares of its two heaviest.
    kids = np.flatnonzero(np.isin(view.parent, C))
    kp = view.parent[kids]
    order = np.lexsort((-mass[kids], kp))
    kids, kp = kids[order], kp[order]
    first = np.ones(len(kids), dtype=bool)
    first[1:] = kp[1:] != kp[:-1]
    second = np.zeros(len(kids), dtype=bool)
    second[1:] = ~first[1:] & first[:-1]
    best1 = np.zeros(n)
    best2 = np.zeros(n)
    best1[kp[first]] = mass[kids[first]]
    best2[kp[second]] = mass[kids[second]]
    text_kids = np.bincount(kp[chars[kids] >= 40], minlength=n)
    m = np.maximum(mass[C], 1e-9)
    roles = np.asarray([an.scores.graph.roles[c] for c in cands], dtype=np.int64)
    cleaned_chars, cleaned_links = view.cleaned(C)
    kept = ch - cleaned_chars
    columns = {
        "chars_share": ch / max(chars[0], 1.0),
        "log_chars": log1p(ch),
        "link_density": np.where(ch > 0, links[C] / safe, 1.0),
        "mass_share": mass[C] / max(mass[0], 1e-9),
        "f_share": rsum("f") / max(cum["f"][-1], 1e-9),
        "g_rel": g[C] / max(float(g.max()), 1e-9),
        "f_rel": f[C] / max(float(f[is_el].max()), 1e-9),
        "g_rank": rank[C],
        "depth": depth[C],
        "depth_from_core": depth[C] - depth[core],
        "is_core": C == core,
        "contains_core": within(C, core) & (C != core),
        "inside_core": within(core, C) & (C != core),
        "is_main": C == main,
        "contains_main": within(C, main) & (C != main),
        "inside_main": within(main, C) & (C != main),
        "log_chars_vs_main": log1p(ch) - math.log1p(chars[main]),
        "has_headline": within(C, head) if head >= 0 else 0.0,
        "headline_before": (C > head) if head >= 0 else 0.0,
        "parent_mass_share": np.where(has_p, mass[C] / np.maximum(mass[pp], 1e-9), 1.0),
        "parent_chars_share": np.where(has_p, ch / np.maximum(chars[pp], 1.0), 1.0),
        "best_child_mass_share": best1[C] / m,
        "second_child_mass_share": best2[C] / m,
        "children": view.children_count[C],
        "text_children": text_kids[C],
        "p_count": rsum("p"),
        "p_chars_share": np.where(ch > 0, rsum("p_chars") / safe, 0.0),
        "heading_count": rsum("h"),
        "li_chars_share": np.where(ch > 0, rsum("li_chars") / safe, 0.0),
        "text_nodes": tn,
        "chars_per_text_node": np.where(tn > 0, ch / np.maximum(tn, 1.0), 0.0),
        "cleaned_share": np.where(ch > 0, cleaned_chars / safe, 0.0),
        "clean_chars_share": kept / max(chars[0], 1.0),
        "clean_link_density": np.where(kept > 0, (links[C] - cleaned_links) / np.maximum(kept, 1.0), 1.0),
        "in_cleaned": cum["covered"][C + 1],
        "start": C / n,
        "end": eC / n,
        "role_comments": (roles & IN_COMMENTS) != 0,
        "role_sidebar": (roles & IN_SIDEBAR) != 0,
        "role_boiler": (roles & BOILER) != 0,
        "role_gallery": (roles & GALLERY) != 0,
        "above_roles": cum["above_roles"][C + 1],
    }
    for name, values in columns.items():
        X[:, _COL[name]] = values
    elements = an.scores.graph.elements
    for r, c in enumerate(cands):
        for h in element_hints(elements[c]):
            col = _HINT_COL.get(h)
            if col is not None:
                X[r, col] = 1.0
    return X
