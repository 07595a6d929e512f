"""DOM PageRank + DensitySum: the main content of a single page, nothing learned (SPEC §4).

For a page whose site has no learned pattern.  The page's DOM is read as an
undirected tree over its elements and its text nodes (each non-blank ``.text``
and ``.tail``).  Every node gets an initial weight ``u`` (text nodes carry it,
more when they resemble the page's title and description) and the weights are
spread over the tree by semi-supervised PageRank with Laplacian regularisation::

    f = argmin ‖f − u‖² + α fᵀLf  =  (I + αL)⁻¹ u,      L = D − A,

solved exactly in linear time on the tree (:func:`solve_tree`).  DensitySum
scores an element by the weight of its children, ``g_i = Σ_{children j} f_j``;
the best-scoring element is the *core* of the main content.

Choices beyond the source document, each measured on the development data
(``python benchmarks/single_page.py --ablation`` shows what each one is worth):

* α = 5 rather than the document's 0.5 (marginally better here; with the
  widening below, α matters little).
* ``u`` of a text node grows with its length up to ``text_cap`` characters, is
  cut for link text and for text inside sidebars and widgets (named so by class/id,
  or ``aside``/``nav``) and reader-comment threads (named so, and shaped as a thread:
  ``page_signals.thread_shaped``); the headline element
  gets a little weight of its own, and title similarity is the share of the
  title's words a text contains (``similarity="cover"``).
* The core is widened to its nearest block container, then to ancestors while it
  holds less than ``climb_share`` of their weight: DensitySum alone picks the
  one section or paragraph with the most children, and loses the rest of an
  article split into sections.
* Inside the chosen element, link-dense containers, comment threads and blocks
  named as boilerplate (share, related, tags...) are left out; the core itself
  never is.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from lxml import etree

from ..dom.parse import HTMLParseError, parse_html
from ..blockwalk import WalkedText, walk_text
from ..dom.walk import END, START, walk
from .signals.page_signals import (
    BOILER,
    GALLERY,
    HIDDEN,
    IN_COMMENTS,
    IN_SIDEBAR,
    ROLE_ATTRS,
    WORD,
    Signals,
    dice,
    norm,
    page_signals,
    role_of,
    flag_galleries,
    media_ok,
    terms,
    thread_shaped,
)

__all__ = [
    "DomScores",
    "PageRankOptions",
    "PageRankAnalysis",
    "PageRankResult",
    "dom_pagerank",
    "pagerank_analysis",
    "pagerank_extract",
    "region_cleaning",
    "region_element",
    "region_paragraphs",
    "solve_tree",
]

#: Subtrees that never hold article text (comments are removed by the parser).
DROP_TAGS = frozenset(
    "head title script style noscript template svg iframe object embed canvas "
    "button select option textarea input label".split()
)
#: Elements that start a new line in the extracted text.
BLOCK_TAGS = frozenset(
    "p h1 h2 h3 h4 h5 h6 div section article main header footer nav aside figure "
    "figcaption blockquote pre ul ol li dl dt dd table thead tbody tfoot tr td th "
    "caption address center hr br details summary form fieldset".split()
)
#: Elements that can hold a whole article: the core is widened to one of them.
CONTAINER_TAGS = frozenset("body div section article main td center form table tbody".split())
#: Containers that link-density cleaning may leave out.
CLEAN_TAGS = frozenset("div section aside nav ul ol table header footer dl form".split())
#: Elements that count as media for ``media_weight``.
MEDIA_TAGS = frozenset(("img", "video"))
#: Plain walks an analysis keeps (the region's, the guard's, the near-empty alternative's:
#: the body is one of the last few read).
KEPT_WALKS = 4


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


@dataclass
class PageRankResult:
    """The extracted article and where it was found.

    ``xpath`` is the main element's path ("" if none), ``score`` its DensitySum,
    ``paragraphs`` the body's lines (``body`` is them joined by newlines).
    """

    title: str
    body: str
    xpath: str = ""
    score: float = 0.0
    paragraphs: list[str] = field(default_factory=list)


# -- the linear-time solver -------------------------------------------------------------


def solve_tree(parent: Sequence[int], u: Sequence[float], alpha: float) -> list[float]:
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
class _Graph:
    """The DOM tree as parallel lists; node 0 is the root, ``parent[i] < i``."""

    parent: list[int]
    u: list[float]
    elements: list[etree._Element | None]  # None for a text node
    chars: list[int]  # word characters of a text node (0 for elements)
    link_chars: list[int]  # the same, when the text lies inside <a>
    roles: list[int]  # role flags of an element (0 for text nodes)
    hidden: set[etree._Element]  # hidden elements left out of the graph


def _build_graph(body: etree._Element, opts: PageRankOptions, sig: Signals) -> _Graph:
    """The undirected DOM tree below ``body`` as parent links, with initial weights ``u``.

    Nodes are numbered in the order of the walk: an element when it opens, a text
    node when its text comes (an element's ``text`` after it, its ``tail`` after its
    subtree), so every subtree is one range of numbers starting at its root.
    """
    title_weighted = opts.weighting == "title"
    if not title_weighted and opts.weighting != "uniform":
        raise ValueError(f"unknown weighting {opts.weighting!r}")
    if opts.text_weight not in ("capped", "unit"):
        raise ValueError(f"unknown text_weight {opts.text_weight!r}")
    if opts.similarity not in ("cover", "dice"):
        raise ValueError(f"unknown similarity {opts.similarity!r}")
    cover = opts.similarity == "cover"
    title_terms = terms(sig.meta_title or sig.title)
    desc_terms = terms(sig.description)
    beta = opts.beta
    capped, cap = opts.text_weight == "capped", max(1, opts.text_cap)
    link_w, comment_w, side_w = opts.link_weight, opts.comment_weight, opts.sidebar_weight
    media, min_size = opts.media_weight, opts.media_min_size
    skip_hidden, shape, galleries = opts.skip_hidden, opts.comment_shape, opts.galleries
    images: list[int] = []
    words_of = WORD.findall
    role_attrs = ROLE_ATTRS.keys()
    roles: list[int] = []
    hidden: set[etree._Element] = set()

    parent: list[int] = []
    u: list[float] = []
    elements: list[etree._Element | None] = []
    chars: list[int] = []
    link_chars: list[int] = []

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
            if tag.__class__ is not str or tag in DROP_TAGS:  # entities, scripts...
                skip_subtree()
                left_out = el
                continue
            keys = el.keys()
            role = role_of(tag, el.items()) if keys and not role_attrs.isdisjoint(keys) else 0
            if role & HIDDEN and skip_hidden:
                hidden.add(el)
                skip_subtree()
                left_out = el
                continue
            if role & IN_COMMENTS and factor and shape and not thread_shaped(el):
                role &= ~IN_COMMENTS  # (named as comments, shaped as an article body)
            i = len(parent)
            parent.append(p)
            u.append(media if media and tag in MEDIA_TAGS and media_ok(el, min_size) else 0.0)
            elements.append(el)
            chars.append(0)
            link_chars.append(0)
            roles.append(role)
            if tag in MEDIA_TAGS and galleries:
                images.append(i)
            in_link = in_link or tag == "a"
            if role & IN_COMMENTS:
                factor *= comment_w
            elif role & IN_SIDEBAR or tag == "aside" or tag == "nav":
                factor *= side_w
            open_.append((i, in_link, factor))
            p = i
            text = el.text
        else:
            if event == END:
                if el is left_out:
                    left_out = None
                else:  # the element closes: back to its parent's node
                    open_.pop()
                    p, in_link, factor = open_[-1]
            # (a comment or processing instruction: only its tail)
            text = el.tail
            if p < 0:
                continue
        if not text or text.isspace():
            continue
        # A text node: weight u from its length and its likeness to the title.
        words = words_of(text.lower())
        n = sum(map(len, words))
        if not n:
            continue
        w = min(n, cap) / cap if capped else 1.0
        if title_weighted:
            if cover:  # (the share of the title's words in the text: no set of the text's words needed)
                found = words if text.isascii() else terms(text, words)
                sim = (len(title_terms.intersection(found)) / len(title_terms) if title_terms else 0.0) + (
                    len(desc_terms.intersection(found)) / len(desc_terms) if desc_terms else 0.0
                )
            else:
                found = set(words) if text.isascii() else terms(text, words)
                sim = dice(found, title_terms) + dice(found, desc_terms)
            w *= (1.0 - beta) + beta * sim
        w *= factor
        if in_link:
            w *= link_w
        parent.append(p)
        u.append(w)
        elements.append(None)
        chars.append(n)
        link_chars.append(n if in_link else 0)
        roles.append(0)
    if images:
        flag_galleries(images, parent, u, elements, roles, opts.gallery_weight)
    return _Graph(parent, u, elements, chars, link_chars, roles, hidden)



# -- scoring -----------------------------------------------------------------------------


@dataclass
class DomScores:
    """DOM PageRank of one page: ``f`` and DensitySum ``g`` per node, and the core.

    Nodes are those of ``graph`` (``graph.elements[i]`` is None for a text node);
    ``core`` is the node index of argmax ``g`` over elements.
    """

    root: etree._Element
    signals: Signals
    graph: _Graph
    f: list[float]
    g: list[float]
    core: int

    def element(self, i: int) -> etree._Element | None:
        """The element of node ``i`` (None for a text node)."""
        return self.graph.elements[i]


def _decoded(doc: bytes | bytearray | memoryview) -> str:
    """Deprecated input: a page as bytes, decoded here (``stacklevel``: the public caller's caller)."""
    warnings.warn(
        "DOM PageRank on bytes is deprecated: pass the page's tree (Page.tree) or its decoded "
        "text (newsstemmer.dom.decoding.decode_html)",
        DeprecationWarning,
        stacklevel=3,
    )
    from ..dom.decoding import BinaryContentError, decode_html  # only for this deprecated input

    try:
        return decode_html(bytes(doc)).text
    except BinaryContentError as exc:
        raise HTMLParseError(str(exc)) from exc


def _root(doc: str | etree._Element | etree._ElementTree) -> etree._Element:
    """The tree of ``doc``: an lxml element (or element tree) as it is, HTML text parsed."""
    if isinstance(doc, etree._ElementTree):
        doc = doc.getroot()
    if isinstance(doc, etree._Element):
        return doc
    if not isinstance(doc, str):
        raise TypeError(f"expected an lxml element or HTML as str, not {type(doc).__name__}")
    return parse_html(doc)


def dom_pagerank(doc: etree._Element | str | bytes, options: PageRankOptions | None = None) -> DomScores:
    """Build the DOM graph of a tree (text is parsed first; bytes, deprecated, decoded),
    solve for ``f``, sum ``g``, find the core."""
    opts = options or PageRankOptions()
    if isinstance(doc, (bytes, bytearray, memoryview)):
        doc = _decoded(doc)
    root = _root(doc)
    sig = page_signals(root)
    body = root.find("body")
    if body is None:
        body = root
    graph = _build_graph(body, opts, sig)
    if opts.headline_weight and sig.headline_el is not None:
        for i, el in enumerate(graph.elements):
            if el is sig.headline_el:
                graph.u[i] += opts.headline_weight
                break
    f = solve_tree(graph.parent, graph.u, opts.alpha)
    n = len(f)
    g = [0.0] * n
    parent = graph.parent
    for i in range(1, n):
        g[parent[i]] += f[i]
    core, best_g = 0, -1.0
    for i, el in enumerate(graph.elements):
        if el is not None and g[i] > best_g:
            core, best_g = i, g[i]
    return DomScores(root, sig, graph, f, g, core)


# -- from the core to the article --------------------------------------------------------


def _subtree_sums(graph: _Graph) -> tuple[list[int], list[int], list[float], list[int]]:
    """Per node: word characters, link characters, weight ``u`` and node count of its subtree."""
    total = list(graph.chars)
    links = list(graph.link_chars)
    mass = list(graph.u)
    size = [1] * len(total)
    parent = graph.parent
    for i in range(len(total) - 1, 0, -1):
        p = parent[i]
        total[p] += total[i]
        links[p] += links[i]
        mass[p] += mass[i]
        size[p] += size[i]
    return total, links, mass, size


def _widen(
    graph: _Graph, core: int, total: list[int], links: list[int], mass: list[float], opts: PageRankOptions
) -> int:
    """The main element: the core widened to a container, then to ancestors that need it.

    Weight here is the subtree's total initial weight ``u``.  The ancestor compared
    is the nearest one with ``climb_skip`` more weight (wrappers and headers that
    add little are passed through); it is taken while the current element holds
    less than ``climb_share`` of its weight and its text is not mostly links.
    """
    parent, elements = graph.parent, graph.elements
    best = core
    if opts.to_container:
        while parent[best] >= 0 and elements[best].tag not in CONTAINER_TAGS:
            best = parent[best]
    if opts.climb_share <= 0:
        return best
    while True:
        a = parent[best]
        while a >= 0 and mass[a] <= mass[best] * (1.0001 + opts.climb_skip):
            a = parent[a]
        if a < 0 or links[a] > opts.climb_links * total[a]:
            return best
        if mass[best] >= opts.climb_share * mass[a]:
            return best
        best = a


def _left_out_nodes(scores: DomScores, main: int, sums: tuple, opts: PageRankOptions) -> list[int]:
    """Descendants of the main element to leave out of its text, in page order (never the core's ancestors)."""
    total, links, mass, size = sums
    graph = scores.graph
    elements, roles = graph.elements, graph.roles
    protected = set()
    i = scores.core
    while i > main:
        protected.add(i)
        i = graph.parent[i]
    skip = []
    named = BOILER | GALLERY if opts.drop_galleries else BOILER
    # Node indices are a preorder: the subtree of ``main`` is one contiguous range.
    for i in range(main + 1, main + size[main]):
        el = elements[i]
        if el is None or i in protected:
            continue
        role = roles[i]
        if el.tag in CLEAN_TAGS and total[i] and links[i] > opts.link_density * total[i]:
            skip.append(i)
        elif opts.drop_comments and role & IN_COMMENTS:
            skip.append(i)
        elif opts.drop_named and role & named and mass[i] <= 0.5 * mass[main]:
            skip.append(i)
    return skip


@dataclass
class PageRankAnalysis:
    """DOM PageRank's view of a page: the scores, per-node subtree sums, the main
    element's node and what cleaning left out of it (for callers that weigh its
    evidence per element, such as the region extractor)."""

    scores: DomScores
    chars: list[int]  # word characters of each node's subtree
    link_chars: list[int]  # of which inside links
    size: list[int]  # nodes in each node's subtree (a subtree is a contiguous range)
    main: int  # node of the main element (-1: none)
    skip: set  # elements left out of the main element's text
    result: PageRankResult
    mass: list[float] = field(default_factory=list)  # initial weight u of each node's subtree
    options: PageRankOptions = field(default_factory=PageRankOptions)
    # the last few plain walks of an element's text ((node, left-out nodes or None) -> walk),
    # so that the typed blocks of the body are made from the walk that gave it
    walks: dict[tuple, WalkedText] = field(default_factory=dict, repr=False, compare=False)

    def node_of(self) -> dict[etree._Element, int]:
        """Element -> node index."""
        return {el: i for i, el in enumerate(self.scores.graph.elements) if el is not None}

    def walked(self, node: int, skip: Sequence[int] | None) -> WalkedText | None:
        """The plain walk :func:`region_paragraphs` made of ``node`` without ``skip``, if it is kept."""
        return self.walks.get((node, None if skip is None else tuple(skip)))

    def _keep_walk(self, node: int, skip: Sequence[int] | None, walked: WalkedText) -> None:
        walks = self.walks
        if len(walks) >= KEPT_WALKS:
            del walks[next(iter(walks))]
        walks[(node, None if skip is None else tuple(skip))] = walked


def pagerank_analysis(
    html: etree._Element | str,
    url: str | None = None,
    options: PageRankOptions | None = None,
    text: bool = True,
) -> PageRankAnalysis:
    """Run DOM PageRank on a page and keep its intermediate results with the article.

    Same input and errors as :func:`pagerank_extract` (bytes are not accepted here).
    ``text=False`` stops at the main element: the result's body is left empty and
    nothing is marked as left out (:func:`region_paragraphs` gives any element's text).
    """
    opts = options or PageRankOptions()
    scores = dom_pagerank(html, opts)
    title = scores.signals.headline
    graph = scores.graph
    sums = _subtree_sums(graph)
    if not graph.elements or graph.elements[scores.core] is None:
        return PageRankAnalysis(
            scores, sums[0], sums[1], sums[3], -1, set(), PageRankResult(title, ""), sums[2], opts
        )
    main = _widen(graph, scores.core, sums[0], sums[1], sums[2], opts)
    element = graph.elements[main]
    xpath = element.getroottree().getpath(element)
    if not text:
        result = PageRankResult(title, "", xpath, scores.g[main], [])
        return PageRankAnalysis(scores, sums[0], sums[1], sums[3], main, set(), result, sums[2], opts)
    skip = {graph.elements[i] for i in _left_out_nodes(scores, main, sums, opts)}
    if opts.skip_hidden:
        skip |= graph.hidden
    walked = walk_text(element, skip, DROP_TAGS, BLOCK_TAGS)
    paragraphs = _titleless(walked.lines(), title, opts)
    result = PageRankResult(title, "\n".join(paragraphs), xpath, scores.g[main], paragraphs)
    an = PageRankAnalysis(scores, sums[0], sums[1], sums[3], main, skip, result, sums[2], opts)
    an._keep_walk(main, None, walked)
    return an


def _titleless(paragraphs: list[str], title: str, opts: PageRankOptions) -> list[str]:
    """``paragraphs`` without a first line equal to the title (``strip_title``)."""
    if opts.strip_title and paragraphs and title and paragraphs[0].lower() == norm(title).lower():
        return paragraphs[1:]
    return paragraphs


def region_cleaning(analysis: PageRankAnalysis, node: int) -> list[int]:
    """The descendants of element ``node`` PageRank's cleaning leaves out had it chosen
    that element as the main one (node indices, in page order)."""
    sums = (analysis.chars, analysis.link_chars, analysis.mass, analysis.size)
    return _left_out_nodes(analysis.scores, node, sums, analysis.options)


def region_element(
    analysis: PageRankAnalysis, node: int, skip: Iterable[int] | None = None
) -> tuple[etree._Element, set]:
    """(element ``node``, the elements ``skip`` names: default its cleaning's); hidden ones
    are the caller's to add.  ``ValueError`` for a text node."""
    elements = analysis.scores.graph.elements
    if elements[node] is None:
        raise ValueError(f"node {node} is a text node, not an element")
    return elements[node], {elements[i] for i in (region_cleaning(analysis, node) if skip is None else skip)}


def region_paragraphs(analysis: PageRankAnalysis, node: int, skip: Iterable[int] | None = None) -> list[str]:
    """The body PageRank would extract had it chosen element ``node`` as the main
    element: its text without the nodes ``skip`` (default: what its cleaning leaves
    out, :func:`region_cleaning`) and without hidden elements."""
    scores, opts = analysis.scores, analysis.options
    kept = None if skip is None else list(skip)
    element, left_out = region_element(analysis, node, kept)
    if opts.skip_hidden:
        left_out |= scores.graph.hidden
    walked = walk_text(element, left_out, DROP_TAGS, BLOCK_TAGS)
    analysis._keep_walk(node, kept, walked)
    return _titleless(walked.lines(), scores.signals.headline, opts)


def pagerank_extract(
    html: etree._Element | str | bytes,
    url: str | None = None,
    options: PageRankOptions | None = None,
) -> PageRankResult:
    """Extract the title and main text of one page by DOM PageRank + DensitySum.

    ``html`` is the page's tree (``Page.tree``, left unchanged) or its text, parsed
    here; bytes are deprecated (decoded with
    :func:`newsstemmer.dom.decoding.decode_html`, with a ``DeprecationWarning``).
    ``url`` is accepted for symmetry with the other extractors and not used yet.

    Raises :class:`newsstemmer.dom.parse.HTMLParseError` (a ``ValueError``) for an
    empty, binary or unparsable document; any other page gives a result, perhaps
    with an empty body.
    """
    if isinstance(html, (bytes, bytearray, memoryview)):
        html = _decoded(html)
    return pagerank_analysis(html, url, options).result
