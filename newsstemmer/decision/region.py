"""The learned region decision: which element of a page holds the article (issue #12).

DOM PageRank (:mod:`newsstemmer.single.pagerank`) finds the DensitySum core and
widens it to the main element by hand-set shares (``climb_share``...).  Its errors
are mostly that choice: too small (the headline and standfirst only, one section of
a split body) or too large (related boxes, captions, comments).  Here the choice is
a ranking: the *candidates* are the core and its ancestors, PageRank's own main
element and the elements of highest DensitySum with their container ancestors;
each gets a row of features read off PageRank's analysis (:data:`REGION_FEATURES`),
a tree model (:class:`~newsstemmer.decision.model.TreeModel`, trained by
``benchmarks/train_region.py`` on the shingle F1 each candidate's text scores
against the gold) scores the rows, and the best candidate's text is extracted as
PageRank extracts its own (:func:`~newsstemmer.single.pagerank.region_paragraphs`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..single.crf.hints import element_hints
from ..single.page_signals import BOILER, IN_COMMENTS, IN_SIDEBAR
from ..single.pagerank import CLEAN_TAGS, CONTAINER_TAGS, PageRankAnalysis

__all__ = ["REGION_FEATURES", "RegionView", "region_candidates", "region_features"]

#: How many elements of highest DensitySum ``g`` seed candidates (with their containers).
TOP_K = 10

_TAG_FLAGS = ("body", "div", "article", "section", "main", "td", "table", "form", "ul")
_HINT_FLAGS = ("content", "article", "comment", "nav", "related", "side", "footer", "header", "meta", "caption")
_HEADINGS = frozenset(("h1", "h2", "h3", "h4", "h5", "h6"))

#: The columns of a candidate's feature row, in order.
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
    "in_cleaned",
    "start",
    "end",
    "role_comments",
    "role_sidebar",
    "role_boiler",
    "above_roles",
    *(f"tag_{t}" for t in _TAG_FLAGS),
    *(f"hint_{h}" for h in _HINT_FLAGS),
)


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
    is_el: np.ndarray
    children_count: np.ndarray  # child nodes (elements and text) of each node
    cum: dict[str, np.ndarray]  # prefix sums (length n + 1) of per-node quantities
    headline: int  # node of the headline element (-1: none)

    @classmethod
    def of(cls, an: PageRankAnalysis) -> "RegionView":
        graph = an.scores.graph
        elements = graph.elements
        n = len(elements)
        parent = np.asarray(graph.parent, dtype=np.int64)
        size = np.asarray(an.size, dtype=np.int64)
        chars = np.asarray(an.chars, dtype=np.float64)
        links = np.asarray(an.link_chars, dtype=np.float64)
        mass = np.asarray(an.mass, dtype=np.float64)
        g = np.asarray(an.scores.g, dtype=np.float64)
        f = np.asarray(an.scores.f, dtype=np.float64)
        tags = [None if el is None else el.tag for el in elements]
        idx = np.arange(n)
        # depth = number of proper ancestors: every node covers the open range after it.
        cover = np.zeros(n + 1, dtype=np.int64)
        np.add.at(cover, idx + 1, 1)
        np.add.at(cover, idx + size, -1)
        depth = np.cumsum(cover[:n])
        is_el = np.fromiter((t is not None for t in tags), dtype=bool, count=n)
        own_chars = np.asarray(graph.chars, dtype=np.float64)
        is_p = np.fromiter((t == "p" for t in tags), dtype=bool, count=n)
        is_h = np.fromiter((t in _HEADINGS for t in tags), dtype=bool, count=n)
        is_li = np.fromiter((t == "li" for t in tags), dtype=bool, count=n)
        roles = np.asarray(graph.roles, dtype=np.int64)
        # What PageRank's cleaning would leave out (the link-density and role rules,
        # wherever they apply; the "at most half the main element" limit is not known here).
        clean_tag = np.fromiter((t in CLEAN_TAGS for t in tags), dtype=bool, count=n)
        flagged = (clean_tag & (chars > 0) & (links > 0.5 * chars)) | ((roles & (IN_COMMENTS | BOILER)) != 0)
        flagged &= is_el
        fl = np.flatnonzero(flagged)
        under = np.zeros(n + 1, dtype=np.int64)
        np.add.at(under, fl + 1, 1)
        np.add.at(under, fl + size[fl], -1)
        covered = np.cumsum(under[:n]) > 0  # has a flagged proper ancestor
        top_flag = flagged & ~covered
        role_any = (roles & (IN_COMMENTS | IN_SIDEBAR | BOILER)) != 0
        ra = np.flatnonzero(role_any)
        under_r = np.zeros(n + 1, dtype=np.int64)
        np.add.at(under_r, ra + 1, 1)
        np.add.at(under_r, ra + size[ra], -1)

        def prefix(a: np.ndarray) -> np.ndarray:
            out = np.zeros(n + 1, dtype=np.float64)
            np.cumsum(a, out=out[1:])
            return out

        cum = {
            "f": prefix(f),
            "p": prefix(is_p),
            "p_chars": prefix(np.where(is_p, chars, 0.0) * ~np.concatenate(([False], is_p[parent[1:]]))),
            "h": prefix(is_h),
            "li_chars": prefix(np.where(is_li, chars, 0.0)),
            "text": prefix(~is_el),
            "cleaned": prefix(np.where(top_flag, chars, 0.0)),
            "covered": np.concatenate(([0.0], covered.astype(np.float64))),
            "above_roles": np.concatenate(([0.0], (np.cumsum(under_r[:n]) > 0).astype(np.float64))),
            "own": prefix(own_chars),
        }
        headline_el = an.scores.signals.headline_el
        headline = -1
        if headline_el is not None:
            for i, el in enumerate(elements):
                if el is headline_el:
                    headline = i
                    break
        kids = np.bincount(parent[1:], minlength=n) if n > 1 else np.zeros(n, dtype=np.int64)
        return cls(an, parent, size, chars, links, mass, g, f, depth, tags, is_el, kids, cum, headline)

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


def region_candidates(view: RegionView, top_k: int = TOP_K) -> list[int]:
    """The elements the article region is chosen among, in page order.

    The core and all its ancestors, PageRank's main element, and the ``top_k``
    elements of highest DensitySum with their container ancestors; an ancestor
    that adds no text to the candidate below it is left out (same text).
    """
    an = view.an
    if an.main < 0:
        return []
    tags, parent, chars = view.tags, view.parent, view.chars
    chosen: set[int] = {an.main}

    def climb(i: int, containers_only: bool) -> None:
        below = i
        chosen.add(i)
        i = int(parent[i])
        while i >= 0:
            if (not containers_only or tags[i] in CONTAINER_TAGS) and (chars[i] > chars[below] or i == 0):
                chosen.add(i)
                below = i
            i = int(parent[i])

    climb(an.scores.core, False)
    g = np.where(view.is_el, view.g, -1.0)
    k = min(top_k, len(g))
    top = np.argpartition(-g, k - 1)[:k] if k else []
    for j in top:
        if g[j] > 0:
            climb(int(j), True)
    return sorted(chosen)


def region_features(view: RegionView, cands: list[int]) -> np.ndarray:
    """One feature row per candidate (columns :data:`REGION_FEATURES`)."""
    an = view.an
    X = np.zeros((len(cands), len(REGION_FEATURES)), dtype=np.float64)
    if not cands:
        return X
    n = len(view.tags)
    size, chars, links, mass, g, f, depth = view.size, view.chars, view.links, view.mass, view.g, view.f, view.depth
    total_chars = max(chars[0], 1.0)
    total_mass = max(mass[0], 1e-9)
    total_f = max(view.cum["f"][-1], 1e-9)
    is_el = view.is_el
    g_max = max(float(g.max()), 1e-9)
    f_max = max(float(f[is_el].max()), 1e-9)
    order = np.argsort(-np.where(is_el, g, -1.0), kind="stable")[:50]
    g_rank = {int(j): r for r, j in enumerate(order)}
    core, main, head = an.scores.core, an.main, view.headline
    elements = an.scores.graph.elements
    roles = an.scores.graph.roles
    col = {name: k for k, name in enumerate(REGION_FEATURES)}

    def within(a: int, b: int) -> bool:  # b in the subtree of a
        return a <= b < a + size[a]

    for r, c in enumerate(cands):
        row = X[r]
        ch = chars[c]
        row[col["chars_share"]] = ch / total_chars
        row[col["log_chars"]] = math.log1p(ch)
        row[col["link_density"]] = links[c] / ch if ch else 1.0
        row[col["mass_share"]] = mass[c] / total_mass
        row[col["f_share"]] = view.range_sum("f", c) / total_f
        row[col["g_rel"]] = g[c] / g_max
        row[col["f_rel"]] = f[c] / f_max
        row[col["g_rank"]] = g_rank.get(c, 50)
        row[col["depth"]] = depth[c]
        row[col["depth_from_core"]] = depth[c] - depth[core]
        row[col["is_core"]] = c == core
        row[col["contains_core"]] = within(c, core) and c != core
        row[col["inside_core"]] = within(core, c) and c != core
        row[col["is_main"]] = c == main
        row[col["contains_main"]] = within(c, main) and c != main
        row[col["inside_main"]] = within(main, c) and c != main
        row[col["log_chars_vs_main"]] = math.log1p(ch) - math.log1p(chars[main])
        row[col["has_headline"]] = head >= 0 and within(c, head)
        row[col["headline_before"]] = head >= 0 and head < c
        p = int(view.parent[c])
        if p >= 0:
            row[col["parent_mass_share"]] = mass[c] / max(mass[p], 1e-9)
            row[col["parent_chars_share"]] = ch / max(chars[p], 1.0)
        else:
            row[col["parent_mass_share"]] = row[col["parent_chars_share"]] = 1.0
        kids = view.children(c)
        kid_mass = sorted((mass[j] for j in kids), reverse=True)
        m = max(mass[c], 1e-9)
        row[col["best_child_mass_share"]] = kid_mass[0] / m if kid_mass else 0.0
        row[col["second_child_mass_share"]] = kid_mass[1] / m if len(kid_mass) > 1 else 0.0
        row[col["children"]] = len(kids)
        row[col["text_children"]] = sum(1 for j in kids if chars[j] >= 40)
        row[col["p_count"]] = view.range_sum("p", c)
        row[col["p_chars_share"]] = view.range_sum("p_chars", c) / ch if ch else 0.0
        row[col["heading_count"]] = view.range_sum("h", c)
        row[col["li_chars_share"]] = view.range_sum("li_chars", c) / ch if ch else 0.0
        tn = view.range_sum("text", c)
        row[col["text_nodes"]] = tn
        row[col["chars_per_text_node"]] = ch / tn if tn else 0.0
        cleaned = view.range_sum("cleaned", c) - (view.cum["cleaned"][c + 1] - view.cum["cleaned"][c])
        row[col["cleaned_share"]] = cleaned / ch if ch else 0.0
        row[col["in_cleaned"]] = view.cum["covered"][c + 1]
        row[col["start"]] = c / n
        row[col["end"]] = (c + size[c]) / n
        role = roles[c]
        row[col["role_comments"]] = bool(role & IN_COMMENTS)
        row[col["role_sidebar"]] = bool(role & IN_SIDEBAR)
        row[col["role_boiler"]] = bool(role & BOILER)
        row[col["above_roles"]] = view.cum["above_roles"][c + 1]
        tag = view.tags[c]
        for t in _TAG_FLAGS:
            row[col[f"tag_{t}"]] = tag == t
        found = element_hints(elements[c])
        for h in _HINT_FLAGS:
            row[col[f"hint_{h}"]] = h in found
    return X
