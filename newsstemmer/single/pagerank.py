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

The settings, the graph with its initial weights and the solver are in
:mod:`newsstemmer.single.domgraph` (re-exported here).
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from lxml import etree

from ..dom.parse import HTMLParseError, parse_html
from ..dom.walk import WalkedText, walk_text
from .domgraph import (
    DROP_TAGS,
    MEDIA_TAGS,
    DomGraph,
    PageRankOptions,
    build_graph,
    density_sums,
    solve_tree,
    subtree_sums,
)
from .signals.page_signals import BOILER, GALLERY, IN_COMMENTS, Signals, norm, page_signals, slide_like

__all__ = [
    "BLOCK_TAGS",
    "CLEAN_TAGS",
    "CONTAINER_TAGS",
    "DROP_TAGS",
    "MEDIA_TAGS",
    "DomGraph",
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
#: Plain walks an analysis keeps (the region's, the guard's, the near-empty alternative's:
#: the body is one of the last few read).
KEPT_WALKS = 4


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



# -- scoring -----------------------------------------------------------------------------


@dataclass
class DomScores:
    """DOM PageRank of one page: ``f`` and DensitySum ``g`` per node, and the core.

    Nodes are those of ``graph`` (``graph.elements[i]`` is None for a text node);
    ``core`` is the node index of argmax ``g`` over elements.
    """

    root: etree._Element
    signals: Signals
    graph: DomGraph
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
    graph = build_graph(body, opts, sig)
    if opts.headline_weight and sig.headline_el is not None:
        try:  # (the first node that is the headline: a hidden one is not in the graph)
            graph.u[graph.elements.index(sig.headline_el)] += opts.headline_weight
        except ValueError:
            pass
    f = solve_tree(graph.parent, graph.u, opts.alpha)
    n = len(f)
    if n < 2:
        return DomScores(root, sig, graph, f, [0.0] * n, 0)
    # DensitySum: each node's children's f; the core: the first element of the largest g
    # (text nodes, and only they, have chars).
    g, core = density_sums(graph.parent, f, graph.chars)
    return DomScores(root, sig, graph, f, g, core)


# -- from the core to the article --------------------------------------------------------


def _widen(
    graph: DomGraph, core: int, total: list[int], links: list[int], mass: list[float], opts: PageRankOptions
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


def _left_out_nodes(scores: DomScores, main: int, sums: tuple, opts: PageRankOptions,
                    slides: bool = False) -> list[int]:
    """Descendants of the main element to leave out of its text, in page order (never the
    core's ancestors); flagged galleries too if ``opts.drop_galleries``, else the slide-like
    ones (:func:`slide_like`) if ``slides``."""
    total, links, mass, size = sums
    graph = scores.graph
    elements, roles = graph.elements, graph.roles
    protected = set()
    i = scores.core
    while i > main:
        protected.add(i)
        i = graph.parent[i]
    skip = []
    named = BOILER | GALLERY if opts.drop_galleries or slides else BOILER
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
            if role & BOILER or opts.drop_galleries or slide_like(el):
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

    def hidden(self) -> set:
        """The hidden elements a body's text passes over (none where ``skip_hidden`` is off)."""
        return self.scores.graph.hidden if self.options.skip_hidden else set()

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
    sums = subtree_sums(graph)
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


def region_cleaning(analysis: PageRankAnalysis, node: int, slides: bool = True) -> list[int]:
    """The descendants of element ``node`` PageRank's cleaning leaves out had it chosen
    that element as the main one (node indices, in page order), carousels included
    (``GALLERY`` elements whose items are slides: :func:`slide_like`): the region
    extractor's rule-based cleaning.  Its learned cleaning does not see carousels (slides'
    titles and captions read like the article's own short paragraphs; issue #23); lists
    of pictured items (steps, products) stay with it: golds keep many.  ``slides=False``:
    without carousels (the cleaning the region models' training rows use)."""
    sums = (analysis.chars, analysis.link_chars, analysis.mass, analysis.size)
    return _left_out_nodes(analysis.scores, node, sums, analysis.options, slides=slides)


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
    left_out |= analysis.hidden()
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
