"""The learned cleaning of an article region: which of its parts to leave out (issue #12).

Inside the region chosen for the article (:mod:`.region`), DOM PageRank's own
cleaning leaves out link-dense containers, comment threads and blocks named as
boilerplate.  What it keeps still holds photo galleries, video carousels,
captions, author boxes and teasers on many pages.  Each remaining block-level
descendant (:func:`cleaning_candidates`) gets a feature row (:data:`CLEAN_FEATURES`,
read off PageRank's analysis as arrays, with the part's context in the region:
:mod:`.context`) and a tree model, trained by
``training/train_region.py`` on how much leaving that element out changes the
page's shingle F1 against the gold, says whether to leave it out too.
"""

from __future__ import annotations

import math

import numpy as np

from ..signals.hints import HINTS, element_hints
from ..signals.page_signals import BOILER, GALLERY, IN_COMMENTS, IN_SIDEBAR
from .context import CONTEXT_FEATURES, part_context
from ..pagerank import PageRankAnalysis, region_cleaning
from .candidates import CLEANABLE, CLEANABLE_TAGS, RegionView, log1p

__all__ = ["CLEANABLE_TAGS", "CLEAN_FEATURES", "CAPTION_TAGS", "cleaning_candidates", "cleaning_features", "rule_cleaning"]

#: Elements the region's rule-based cleaning leaves out: a picture's caption by its markup.
#: The news convention leaves captions out of the body (typed blocks give them back as
#: ``caption`` blocks, for the sets whose golds keep them); the learned cleaning kept most
#: of them on today's pages (issue #23, session 21: the largest cause of precision lost
#: on fundus-recent under CV).
CAPTION_TAGS = frozenset(("figcaption",))
#: Captions stay when they hold more than this share of the region's text (a photo gallery's
#: captions are its text).
CAPTION_SHARE_MAX = 0.5

_TAG_GROUPS = (
    ("p", ("p",)),
    ("div", ("div",)),
    ("section", ("section", "article")),
    ("figure", ("figure", "figcaption")),
    ("aside", ("aside", "nav")),
    ("list", ("ul", "ol", "dl")),
    ("table", ("table",)),
    ("header", ("header",)),
    ("footer", ("footer",)),
    ("form", ("form",)),
    ("quote", ("blockquote", "pre")),
    ("heading", ("h1", "h2", "h3", "h4", "h5", "h6")),
)
_TAG_COL = {tag: k for k, (_, tags) in enumerate(_TAG_GROUPS) for tag in tags}
_HINT_NAMES = tuple(name for name, _ in HINTS)
_HINT_COL = {name: k for k, name in enumerate(_HINT_NAMES)}

_NUMERIC = (
    "region_chars_share",
    "log_chars",
    "link_density",
    "region_mass_share",
    "region_f_share",
    "g_rel",
    "g_vs_region",
    "f_rel",
    "depth_below",
    "text_before_share",
    "text_after_share",
    "before_core",
    "after_core",
    "inside_core",
    "after_headline",
    "has_headline",
    "p_count",
    "p_chars_share",
    "heading_count",
    "li_chars_share",
    "text_nodes",
    "chars_per_text_node",
    "parent_chars_share",
    "children",
    "role_comments",
    "role_sidebar",
    "role_boiler",
    "role_gallery",
    "region_chars_log",
)
#: The columns of an element's feature row, in order.
CLEAN_FEATURES: tuple[str, ...] = (
    *_NUMERIC,
    *(f"tag_{name}" for name, _ in _TAG_GROUPS),
    *(f"hint_{name}" for name in _HINT_NAMES),
    *CONTEXT_FEATURES,
)
_K_CONTEXT = len(CLEAN_FEATURES) - len(CONTEXT_FEATURES)


def rule_cleaning(an: PageRankAnalysis, region: int) -> list[int]:
    """The nodes of ``region`` left out by rule, in page order: PageRank's cleaning
    (:func:`region_cleaning`) and the captions (:data:`CAPTION_TAGS`) outside it, never
    an ancestor of PageRank's core (a page whose text is one caption keeps it), and none
    when they hold more than :data:`CAPTION_SHARE_MAX` of the region's text."""
    skip = region_cleaning(an, region)
    size, elements = an.size, an.scores.graph.elements
    core = an.scores.core
    found, i, end, k = [], region + 1, region + size[region], 0
    while i < end:
        while k < len(skip) and skip[k] + size[skip[k]] <= i:
            k += 1
        if k < len(skip) and skip[k] <= i:  # inside a part already left out
            i = skip[k] + size[skip[k]]
            continue
        el = elements[i]
        if el is not None and el.tag in CAPTION_TAGS and not i <= core < i + size[i]:
            found.append(i)
            i += size[i]
            continue
        i += 1
    if not found or sum(an.chars[i] for i in found) > CAPTION_SHARE_MAX * an.chars[region]:
        return skip  # (none, or the captions are the page's text: a photo gallery)
    return sorted(skip + found)


def cleaning_candidates(view: RegionView, region: int, skip: list[int]) -> np.ndarray:
    """The elements of ``region`` the learned cleaning decides on, in page order.

    Block-level descendants with text, not already left out (inside ``skip``, the
    rule-based cleaning's nodes) and not the core or one of its ancestors.
    """
    start, end = region + 1, region + int(view.size[region])
    if end <= start:
        return np.zeros(0, dtype=np.int64)
    idx = np.arange(start, end)
    ok = (view.chars[start:end] > 0) & ((view.bits[start:end] & CLEANABLE) != 0)
    if skip:
        cover = np.zeros(end - start + 1, dtype=np.int64)
        for i in skip:
            cover[i - start] += 1
            cover[min(i + int(view.size[i]), end) - start] -= 1
        ok &= np.cumsum(cover[:-1]) == 0
    i = view.an.scores.core
    parent = view.parent
    while i > region:
        if i < end:
            ok[i - start] = False
        i = int(parent[i])
    return idx[ok]


def cleaning_features(view: RegionView, region: int, J: np.ndarray) -> np.ndarray:
    """One feature row per element of ``J`` inside ``region`` (columns :data:`CLEAN_FEATURES`)."""
    X = np.zeros((len(J), len(CLEAN_FEATURES)), dtype=np.float64)
    if not len(J):
        return X
    size, chars, links, mass, g, f = view.size, view.chars, view.links, view.mass, view.g, view.f
    cum = view.cum
    R = region
    sJ = size[J]
    endJ = J + sJ
    chJ = chars[J]
    safe = np.maximum(chJ, 1.0)
    rch = max(chars[R], 1.0)

    def rsum(key: str) -> np.ndarray:
        c = cum[key]
        return c[endJ] - c[J]

    core, head = view.an.scores.core, view.headline
    n_num = len(_NUMERIC)
    cols = [
        chJ / rch,
        log1p(chJ),
        links[J] / safe,
        mass[J] / max(mass[R], 1e-9),
        rsum("f") / max(cum["f"][R + size[R]] - cum["f"][R], 1e-9),
        g[J] / max(float(g.max()), 1e-9),
        g[J] / max(g[R], 1e-9),
        f[J] / max(float(f[view.is_el].max()), 1e-9),
        view.depth[J] - view.depth[R],
        (cum["own"][J] - cum["own"][R]) / rch,
        (cum["own"][R + size[R]] - cum["own"][endJ]) / rch,
        endJ <= core,
        J >= core + size[core],
        (J > core) & (J < core + size[core]),
        (J > head) if head >= 0 else np.zeros(len(J)),
        ((J <= head) & (head < endJ)) if head >= 0 else np.zeros(len(J)),
        rsum("p"),
        rsum("p_chars") / safe,
        rsum("h"),
        rsum("li_chars") / safe,
        rsum("text"),
        chJ / np.maximum(rsum("text"), 1.0),
        chJ / np.maximum(chars[view.parent[J]], 1.0),
        view.children_count[J],
    ]
    for k, col in enumerate(cols):
        X[:, k] = col
    roles = view.an.scores.graph.roles
    elements = view.an.scores.graph.elements
    tags = view.tags
    k_role = len(cols)
    k_tag = n_num
    k_hint = n_num + len(_TAG_GROUPS)
    X[:, n_num - 1] = math.log1p(rch)
    for r, j in enumerate(J.tolist()):
        role = roles[j]
        if role:
            X[r, k_role] = bool(role & IN_COMMENTS)
            X[r, k_role + 1] = bool(role & IN_SIDEBAR)
            X[r, k_role + 2] = bool(role & BOILER)
            X[r, k_role + 3] = bool(role & GALLERY)
        t = _TAG_COL.get(tags[j])
        if t is not None:
            X[r, k_tag + t] = 1.0
        for h in element_hints(elements[j]):
            X[r, k_hint + _HINT_COL[h]] = 1.0
    X[:, _K_CONTEXT:] = part_context(view, region, J)
    return X
