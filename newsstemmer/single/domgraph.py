"""The graph DOM PageRank solves on: a page's DOM tree with the initial weights of its nodes.

Split from :mod:`newsstemmer.single.pagerank` (which re-exports every public name here):
the settings (:class:`PageRankOptions`), the tree's graph (:func:`build_graph`), its
per-subtree sums (:func:`subtree_sums`) and the linear-time solver (:func:`solve_tree`).

The graph is built in one walk of the page (``dom.walk``), and that walk is the costliest
step of a single-page extraction (~1,000 nodes and ~2,000 events a page): the loop does
per event only what the event needs, keeps one memo of element roles keyed on the
attributes a role is read from, and notes each subtree's size as its element closes, so
that the sums over subtrees are prefix-sum differences instead of a second pass.
"""

from __future__ import annotations

import importlib
import logging
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from lxml import etree

from ..dom.walk import END, START, walk
from .signals.page_signals import (
    HIDDEN,
    IN_COMMENTS,
    IN_SIDEBAR,
    ROLE_ATTRS,
    WORD,
    Signals,
    dice,
    element_role,
    PAGE_TAGS,
    ROLE_MEMO,
    flag_galleries,
    PLAYER_TAGS,
    drop_slide_names,
    gallery_seeds,
    key_role,
    media_ok,
    terms,
    thread_shaped,
)
from .signals import page_signals as _signals

__all__ = [
    "DROP_TAGS",
    "MEDIA_TAGS",
    "DomGraph",
    "PageRankOptions",
    "build_graph",
    "density_sums",
    "solve_tree",
    "subtree_sums",
]

#: Subtrees that never hold article text (comments are removed by the parser).
DROP_TAGS = frozenset(
    "head title script style noscript template svg iframe object embed canvas "
    "button select option textarea input label".split()
)
#: Elements that count as media for ``media_weight``.
MEDIA_TAGS = frozenset(("img", "video"))

# What the graph's walk does with a tag, as bits (one dict look-up an element).
_DROP, _MEDIA, _LINK, _SIDE, _PLAYER = 1, 2, 4, 8, 16
_TAG_KIND: dict[str, int] = {tag: _DROP for tag in DROP_TAGS}
_TAG_KIND.update({tag: _DROP | _PLAYER for tag in PLAYER_TAGS})  # (left out, but seeds of galleries)
_TAG_KIND.update({tag: _MEDIA for tag in MEDIA_TAGS})
_TAG_KIND.update(a=_LINK, aside=_SIDE, nav=_SIDE)
#: Whether an element's attribute names (``el.keys()``) leave out all those a role is read from.
_role_free = frozenset(ROLE_ATTRS).isdisjoint

log = logging.getLogger(__name__)

#: What this code calls in the compiled module; a build without one of them is not used.
COMPILED_NAMES = ("build_lists", "solve_tree", "subtree_sums", "density_sums", "fill_floats", "fill_ints",
                  "gallery_of", "PLAYERS_IN_IMAGES", "thread_shaped")

# The compiled walk (``_domwalk``, Cython over libxml2's tree, built by ``pip install``) when
# it is there and not turned off by ``NEWSSTEMMER_PURE_PYTHON=1``; else the Python walk below,
# which is also the reference the compiled one is tested against (tests/test_domwalk.py).
try:
    if os.environ.get("NEWSSTEMMER_PURE_PYTHON", "") not in ("", "0"):
        raise ImportError("NEWSSTEMMER_PURE_PYTHON is set")
    # (by name: the optional extension is a module of this package, not a dependency of it)
    _domwalk = importlib.import_module(f"{__package__}._domwalk")
    _missing = [name for name in COMPILED_NAMES if not hasattr(_domwalk, name)]
    if _missing:  # (a build older than this code: rebuild it; until then, the Python forms)
        log.warning("newsstemmer: the compiled graph walk is older than this code (no %s): the "
                    "pure-Python one is used; rebuild it (pip install)", ", ".join(_missing))
        raise ImportError(f"the compiled walk is older than this code (no {', '.join(_missing)}): rebuild it")
except Exception as exc:  # (not built: no compiler, or an lxml without its headers)
    _domwalk = None
    log.debug("DOM PageRank graph: pure-Python walk (%s)", exc)
else:
    log.debug("DOM PageRank graph: compiled walk (%s)", _domwalk.__file__)

#: Which walk :func:`build_graph` uses: ``"compiled"`` or ``"python"``.
GRAPH_WALK = "python" if _domwalk is None else "compiled"


@dataclass(frozen=True)
class PageRankOptions:
    """Settings of the single-page extractor; the defaults are tuned (see the module doc).

    The document's own method is ``weighting="uniform"`` (or ``"title"``),
    ``text_weight="unit"``, ``similarity="dice"``, ``alpha=0.5``, no reweighting
    (``link_weight=comment_weight=sidebar_weight=1``, ``headline_weight=0``),
    ``climb_share=0``, ``to_container=False`` and no cleaning.
    """

    # -- the PageRank system (I + αL) f = u -----------------------------------------
    alpha: float = 5.0
    #: ``"title"``: u = (1−β) + β·(sim(text, title) + sim(text, description)); ``"uniform"``: u = 1.
    weighting: str = "title"
    beta: float = 0.8
    #: ``"cover"``: share of the title's words found in the text; ``"dice"``: Dice coefficient.
    similarity: str = "cover"
    #: ``"capped"``: u scales with the text's word characters up to ``text_cap``; ``"unit"``: 1.
    text_weight: str = "capped"
    text_cap: int = 100
    #: Multipliers of u for text inside links, reader comments, sidebars/widgets/aside/nav.
    link_weight: float = 0.1
    comment_weight: float = 0.0
    sidebar_weight: float = 0.3
    #: A comment-named element counts as comments only if it has a thread's shape.
    comment_shape: bool = True
    #: Flag galleries (repeated items with images: ``GALLERY``, a feature of the learned
    #: steps) and the multiplier of u for their text (cut: no gain, docs/history/notes-sessions-01-10.md).
    galleries: bool = True
    gallery_weight: float = 1.0
    #: Weight of the headline element (the h1-h3 that matches the title).
    headline_weight: float = 0.5
    #: Weight of an ``img``/``video`` element (0: off); for image-led pages.
    media_weight: float = 0.0
    #: Images declared smaller than this (width or height, px) are icons, not content.
    media_min_size: int = 50
    #: Skip elements hidden by ``hidden``, ``aria-hidden`` or an inline ``display:none``.
    skip_hidden: bool = True

    # -- from the DensitySum core to the main element --------------------------------
    #: Widen the core to its nearest block container (div, section, article, td...).
    to_container: bool = True
    #: Widen to an ancestor while the element holds less than this share of its
    #: weight u (0: the core alone, as in the document).
    climb_share: float = 0.7
    #: Ancestors adding less than this share of weight are passed through.
    climb_skip: float = 0.1
    #: Never widen to an ancestor whose text is more than this share link text.
    climb_links: float = 0.3

    # -- cleaning inside the main element ---------------------------------------------
    #: Leave out containers whose text is more than this share link text (1: off).
    link_density: float = 0.5
    #: Leave out reader-comment threads.
    drop_comments: bool = True
    #: Leave out blocks named as boilerplate (share, related, tags...) that hold at
    #: most half of the main element's weight u.
    drop_named: bool = True
    #: Leave out flagged galleries too on the same terms.
    drop_galleries: bool = False
    #: Leave a first line equal to the title out of the body.
    strip_title: bool = True


# -- the linear-time solver -------------------------------------------------------------


def solve_tree(parent: Sequence[int], u: Sequence[float], alpha: float) -> list[float]:
    """Solve ``(I + αL) f = u`` for the Laplacian ``L`` of a forest, in linear time
    (:func:`solve_tree_python`, in C where the compiled walk is built: the same ``f``)."""
    if _domwalk is None:
        return solve_tree_python(parent, u, alpha)
    return _domwalk.solve_tree(_as_list(parent), _as_list(u), alpha)


def _as_list(values: Sequence) -> list:
    return values if values.__class__ is list else list(values)


def float_array(values: list) -> np.ndarray:
    """``np.asarray(values, dtype=float64)`` (filled item by item in C where the walk is
    compiled: numpy's type discovery costs more than the copy on a page's node lists)."""
    if _domwalk is None or values.__class__ is not list:
        return np.asarray(values, dtype=np.float64)
    return _domwalk.fill_floats(values, np.empty(len(values), dtype=np.float64))


def int_array(values: list) -> np.ndarray:
    """``np.asarray(values, dtype=int64)``, as :func:`float_array`."""
    if _domwalk is None or values.__class__ is not list:
        return np.asarray(values, dtype=np.int64)
    return _domwalk.fill_ints(values, np.empty(len(values), dtype=np.int64))


def solve_tree_python(parent: Sequence[int], u: Sequence[float], alpha: float) -> list[float]:
    """Solve ``(I + αL) f = u`` for the Laplacian ``L`` of a forest, in linear time.

    ``parent[i]`` is the parent of node ``i`` (``-1`` for a root) and must be
    smaller than ``i``.  Row ``i`` reads
    ``(1 + α·deg_i) f_i − α·f_parent − α·Σ_children f_c = u_i``.  Eliminating leaves
    upward, each node becomes ``f_i = a_i + b_i·f_parent`` with
    ``d_i = 1 + α·(deg_i − Σ_c b_c)``, ``a_i = (u_i + α·Σ_c a_c) / d_i``,
    ``b_i = α / d_i``; a root has ``f = a``, and substituting downward gives the
    rest.  Every ``b_c < 1``, so ``d_i ≥ 1`` and the elimination is stable for
    any ``α ≥ 0``.
    """
    n = len(parent)
    if len(u) != n:
        raise ValueError("parent and u must have the same length")
    if alpha < 0:
        raise ValueError("alpha must be >= 0")
    deg = [0 if p < 0 else 1 for p in parent]
    for i, p in enumerate(parent):
        if p >= 0:
            if p >= i:
                raise ValueError("parent[i] must be smaller than i")
            deg[p] += 1
    sum_a = [0.0] * n
    sum_b = [0.0] * n
    a = [0.0] * n
    b = [0.0] * n
    for i in range(n - 1, -1, -1):
        d = 1.0 + alpha * (deg[i] - sum_b[i])
        ai = a[i] = (u[i] + alpha * sum_a[i]) / d
        bi = b[i] = alpha / d
        p = parent[i]
        if p >= 0:
            sum_a[p] += ai
            sum_b[p] += bi
    f = a  # roots keep f = a; the others are completed parent-first
    for i in range(n):
        p = parent[i]
        if p >= 0:
            f[i] = a[i] + b[i] * f[p]
    return f


# -- the DOM graph -----------------------------------------------------------------------


@dataclass
class DomGraph:
    """The DOM tree as parallel lists; node 0 is the root, ``parent[i] < i``, and the
    subtree of node ``i`` is the range ``i .. i + size[i] - 1`` (nodes in preorder)."""

    parent: list[int]
    u: list[float]
    elements: list[etree._Element | None]  # None for a text node
    chars: list[int]  # word characters of a text node (0 for elements)
    link_chars: list[int]  # the same, when the text lies inside <a>
    roles: list[int]  # role flags of an element (0 for text nodes)
    hidden: set[etree._Element]  # hidden elements left out of the graph
    size: list[int]  # nodes in each node's subtree


def build_graph(body: etree._Element, opts: PageRankOptions, sig: Signals) -> DomGraph:
    """The undirected DOM tree below ``body`` as parent links, with initial weights ``u``.

    Nodes are numbered in the order of the walk: an element when it opens, a text
    node when its text comes (an element's ``text`` after it, its ``tail`` after its
    subtree), so every subtree is one range of numbers starting at its root.

    The compiled walk builds it when it is built (:data:`GRAPH_WALK`), else
    :func:`build_graph_python`; both give the same graph.
    """
    if _domwalk is None:
        return build_graph_python(body, opts, sig)
    return build_graph_compiled(body, opts, sig)


def _text_weigher(opts: PageRankOptions, sig: Signals) -> Callable[[str], tuple[int, float]]:
    """The reference's weight of one text before its link and comment/sidebar factors:
    ``(word characters, w)``, ``(0, 0.0)`` for a text without words. The compiled walk
    calls it for the texts it does not weigh itself (not pure ASCII, or ``dice``)."""
    title_weighted, cover = opts.weighting == "title", opts.similarity == "cover"
    title_terms, desc_terms = terms(sig.meta_title or sig.title), terms(sig.description)
    title_common, title_len = title_terms.intersection, len(title_terms)
    desc_common, desc_len = desc_terms.intersection, len(desc_terms)
    shares_no_term = (title_terms | desc_terms).isdisjoint
    beta = opts.beta
    capped, cap = opts.text_weight == "capped", max(1, opts.text_cap)
    words_of = WORD.findall

    def weigh(text: str) -> tuple[int, float]:
        words = words_of(text.lower())
        if not words:
            return 0, 0.0
        n = len("".join(words))
        w = min(n, cap) / cap if capped else 1.0
        if title_weighted:
            if cover:
                found = words if text.isascii() else terms(text, words)
                if shares_no_term(found):
                    sim = 0.0
                else:
                    sim = (len(title_common(found)) / title_len if title_len else 0.0) + (
                        len(desc_common(found)) / desc_len if desc_len else 0.0
                    )
            else:
                found = set(words) if text.isascii() else terms(text, words)
                sim = dice(found, title_terms) + dice(found, desc_terms)
            w *= (1.0 - beta) + beta * sim
        return n, w

    return weigh


def build_graph_compiled(body: etree._Element, opts: PageRankOptions, sig: Signals) -> DomGraph:
    """:func:`build_graph` by the compiled walk (``_domwalk``; ImportError when not built)."""
    if _domwalk is None:
        raise ImportError("newsstemmer.single._domwalk is not built")
    _check_options(opts)
    title_weighted = opts.weighting == "title"
    parent, u, elements, chars, link_chars, roles, hidden, size, images = _domwalk.build_lists(
        body, _TAG_KIND, PAGE_TAGS, ROLE_MEMO, key_role, compiled_thread_shaped, media_ok, _text_weigher(opts, sig),
        terms(sig.meta_title or sig.title) if title_weighted else set(),
        terms(sig.description) if title_weighted else set(),
        title_weighted, opts.similarity == "cover", opts.text_weight == "capped",
        max(1, opts.text_cap), opts.beta, opts.link_weight, opts.comment_weight,
        opts.sidebar_weight, opts.media_weight, opts.media_min_size, opts.skip_hidden,
        opts.comment_shape, opts.galleries)
    if opts.galleries:  # (the seeds read after the walk: players and slide names too)
        seeds = gallery_seeds(elements, roles, images)
        if seeds:
            flag_galleries(seeds, parent, u, elements, roles, opts.gallery_weight, compiled_gallery_of)
    else:
        drop_slide_names(roles)
    return DomGraph(parent, u, elements, chars, link_chars, roles, hidden, size)


def compiled_gallery_of(img: etree._Element, seen: dict) -> etree._Element | None:
    """:func:`~.signals.page_signals.gallery_of` over libxml2's tree (the compiled walk's
    module; texts with entity references are left to ``itertext``): the same verdicts."""
    s = _signals
    return _domwalk.gallery_of(img, seen, s.GALLERY_DEPTH, s.GALLERY_ITEMS, s.GALLERY_MEDIA_SHARE,
                               s.GALLERY_TEXT_SHARE, s.nonspace_chars)


def compiled_thread_shaped(el: etree._Element) -> bool:
    """:func:`~.signals.page_signals.thread_shaped` over libxml2's tree (the compiled walk's
    module, one pass over the element's subtree; a subtree holding an entity reference is
    left to the Python form): the same verdicts."""
    s = _signals
    return _domwalk.thread_shaped(el, s.BODY_PARAGRAPHS, s.BODY_SHARE, s.BODY_MIN_CHARS, s.THREAD_ITEMS,
                                  s.THREAD_ITEM_SHARE, s._NOT_ITEMS, s._DIGITS.sub, thread_shaped)


def _check_options(opts: PageRankOptions) -> None:
    if opts.weighting not in ("title", "uniform"):
        raise ValueError(f"unknown weighting {opts.weighting!r}")
    if opts.text_weight not in ("capped", "unit"):
        raise ValueError(f"unknown text_weight {opts.text_weight!r}")
    if opts.similarity not in ("cover", "dice"):
        raise ValueError(f"unknown similarity {opts.similarity!r}")


def build_graph_python(body: etree._Element, opts: PageRankOptions, sig: Signals) -> DomGraph:
    """:func:`build_graph` in Python over lxml's ``iterwalk``: the reference, and the walk
    used when the compiled one is not built."""
    _check_options(opts)
    weigh = _text_weigher(opts, sig)
    link_w, comment_w, side_w = opts.link_weight, opts.comment_weight, opts.sidebar_weight
    media, min_size = opts.media_weight, opts.media_min_size
    skip_hidden, shape, galleries = opts.skip_hidden, opts.comment_shape, opts.galleries
    images: list = []  # image nodes, and (parent node, element) of the players left out
    kind_of = _TAG_KIND.get
    hidden: set[etree._Element] = set()

    parent: list[int] = []
    u: list[float] = []
    elements: list[etree._Element | None] = []
    chars: list[int] = []
    link_chars: list[int] = []
    roles: list[int] = []
    size: list[int] = []

    # Per open element (a node of the graph): its node, and whether the text inside it
    # is link text and by what factor its weight is cut; the sentinel below ``body``
    # stands for "outside": text there (``body``'s tail) has no node to hang on.
    open_: list[tuple[int, bool, float]] = [(-1, False, 1.0)]
    p, in_link, factor = open_[-1]
    left_out = None  # the element whose subtree is being skipped (its END brings only its tail)
    walker = walk(body)
    skip_subtree = walker.skip_subtree
    for event, el in walker:
        if event == START:
            tag = el.tag
            kind = kind_of(tag, 0)
            if kind & _DROP or tag.__class__ is not str:  # scripts..., entities
                if kind & _PLAYER and galleries and p >= 0:  # (a slide's player, out of the graph)
                    images.append((p, el))
                skip_subtree()
                left_out = el
                continue
            # (an element without the attributes a role is read from has none: links' href, images' src)
            role = 0 if _role_free(el.keys()) else element_role(tag, el)
            if role:
                if role & HIDDEN and skip_hidden:
                    hidden.add(el)
                    skip_subtree()
                    left_out = el
                    continue
                if role & IN_COMMENTS and factor and shape and not thread_shaped(el):
                    role &= ~IN_COMMENTS  # (named as comments, shaped as an article body)
            i = len(parent)
            parent.append(p)
            elements.append(el)
            chars.append(0)
            link_chars.append(0)
            roles.append(role)
            size.append(1)
            if kind:
                if kind & _MEDIA:
                    u.append(media if media and media_ok(el, min_size) else 0.0)
                    if galleries:
                        images.append(i)
                else:
                    u.append(0.0)
                    if kind & _LINK:
                        in_link = True
            else:
                u.append(0.0)
            if role & IN_COMMENTS:
                factor *= comment_w
            elif role & IN_SIDEBAR or kind & _SIDE:
                factor *= side_w
            open_.append((i, in_link, factor))
            p = i
            text = el.text
        else:
            if event == END:
                if el is left_out:
                    left_out = None
                else:  # the element closes: its subtree is complete; back to its parent's node
                    size[p] = len(parent) - p
                    open_.pop()
                    p, in_link, factor = open_[-1]
            # (a comment or processing instruction: only its tail)
            text = el.tail
            if p < 0:
                continue
        if not text or text.isspace():
            continue
        # A text node: weight u from its length and its likeness to the title.
        n, w = weigh(text)
        if not n:
            continue
        w *= factor
        if in_link:
            w *= link_w
            link_chars.append(n)
        else:
            link_chars.append(0)
        parent.append(p)
        u.append(w)
        elements.append(None)
        chars.append(n)
        roles.append(0)
        size.append(1)
    if galleries:
        seeds = gallery_seeds(elements, roles, images)
        if seeds:
            flag_galleries(seeds, parent, u, elements, roles, opts.gallery_weight)
    else:
        drop_slide_names(roles)
    return DomGraph(parent, u, elements, chars, link_chars, roles, hidden, size)


def subtree_sums(graph: DomGraph) -> tuple[list[int], list[int], list[float], list[int]]:
    """Per node: word characters, link characters, weight ``u`` and node count of its subtree
    (:func:`subtree_sums_python`, in C where the compiled walk is built: the same sums)."""
    if _domwalk is None:
        return subtree_sums_python(graph)
    return _domwalk.subtree_sums(graph.parent, graph.size, graph.chars, graph.link_chars, graph.u)


def subtree_sums_python(graph: DomGraph) -> tuple[list[int], list[int], list[float], list[int]]:
    """Per node: word characters, link characters, weight ``u`` and node count of its subtree.

    Character counts are integers, so they come from prefix sums over the preorder
    ranges; the weights are summed child by child, last child first, as a leaves-up pass
    adds them (the same floating-point sums, whatever reads them later)."""
    n = len(graph.parent)
    if not n:
        return [], [], [], []
    starts = np.arange(n)
    ends = starts + np.asarray(graph.size, dtype=np.int64)
    out = []
    for counts in (graph.chars, graph.link_chars):
        prefix = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(counts, out=prefix[1:])
        out.append((prefix[ends] - prefix[starts]).tolist())
    mass = list(graph.u)
    parent = graph.parent
    for i in range(n - 1, 0, -1):
        mass[parent[i]] += mass[i]
    return out[0], out[1], mass, list(graph.size)


def density_sums(parent: list[int], f: list[float], chars: list[int]) -> tuple[list[float], int]:
    """DensitySum ``g`` (each node's children's ``f``, added in page order) and the core: the
    first node of the largest ``g`` among the elements (nodes without characters).
    :func:`density_sums_python`, in C where the compiled walk is built (the same sums)."""
    if _domwalk is None:
        return density_sums_python(parent, f, chars)
    return _domwalk.density_sums(parent, f, chars)


def density_sums_python(parent: list[int], f: list[float], chars: list[int]) -> tuple[list[float], int]:
    """:func:`density_sums` in numpy (``bincount`` adds its weights one by one in the order
    given, as a loop over the nodes would)."""
    n = len(parent)
    g_arr = np.bincount(parent[1:], weights=f[1:], minlength=n)
    core = int(np.argmax(np.where(np.asarray(chars) == 0, g_arr, -1.0)))
    return g_arr.tolist(), core
