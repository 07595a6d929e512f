"""Blocks of a page and ExtractUniqueBlock, the set method rules are learned from (SPEC §6).

A page reaches the rules as a :class:`~newsstemmer.page.Page` (its one parsed tree,
:attr:`~newsstemmer.page.Page.tree`), a tree already parsed, a parsel ``Selector``, or
raw HTML (parsed as parsel, and so Scrapy's ``response.css``, parses it:
:func:`parse_page`).  :func:`root_of` turns any of these into the tree.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Iterable, Sequence, Union

from lxml import etree
from parsel import Selector

try:
    from parsel.selector import create_root_node
except ImportError:  # pragma: no cover - older/newer parsel: the same steps, by hand

    def create_root_node(text: str, parser_cls: Any, huge_tree: bool = True) -> etree._Element:
        body = text.strip().replace("\x00", "").encode("utf-8") or b"<html/>"
        parser = parser_cls(recover=True, encoding="utf-8", huge_tree=huge_tree)
        root = etree.fromstring(body, parser=parser)
        return etree.fromstring(b"<html/>") if root is None else root


from ..dom.parse import HTMLParseError
from ..dom.text import weight
from ..dom.walk import END, START, walk
from ..layout.blocks import names_comment_thread
from ..page import Page

__all__ = [
    "BLOCK_LEVEL",
    "EXCLUDED",
    "Block",
    "PageInput",
    "body_of",
    "extract_unique_blocks",
    "page_blocks",
    "parse_page",
    "root_of",
    "unique_blocks",
]

#: Block-level elements: HTML 4.01's block-level and block-like elements (list items,
#: table parts, definition terms) plus the HTML5 sectioning and grouping elements.
BLOCK_LEVEL = frozenset(
    "address blockquote center dir div dl fieldset form h1 h2 h3 h4 h5 h6 hr isindex menu "
    "noframes ol p pre table ul "
    "dd dt frameset li tbody td tfoot th thead tr caption legend "
    "article aside details dialog figcaption figure footer header hgroup main nav section summary".split()
)
#: Elements whose subtree is never part of a block (not rendered): the paper's three,
#: plus ``title`` (a stray ``<title>`` in the body, often inside inline SVG).
EXCLUDED = frozenset(("script", "noscript", "style", "title"))

#: What the rules accept as a page.
PageInput = Union[Page, etree._Element, Selector, str, bytes]


def parse_page(html: str | bytes | Selector) -> etree._Element:
    """Parse a page as parsel (and so Scrapy's ``response.css``) does; return the root.

    The tree is parsel's own (its ``create_root_node``: the same text clean-up, the
    same lenient libxml2 HTML parser and options); only the Python classes of its
    elements are lxml's plain ones rather than ``lxml.html``'s, which makes walking
    the tree several times cheaper.  A parsel ``Selector`` (e.g. Scrapy's
    ``response.selector``) is used as it is.  Raises
    :class:`~newsstemmer.dom.parse.HTMLParseError` for an empty or unparsable page.
    """
    if isinstance(html, Selector):
        return html.root
    if isinstance(html, bytes):
        html = html.decode("utf-8", "replace")
    if not html or not html.strip():
        raise HTMLParseError("empty document")
    try:
        root = create_root_node(html, etree.HTMLParser, huge_tree=True)
    except (etree.ParserError, etree.XMLSyntaxError, ValueError) as exc:
        raise HTMLParseError(f"cannot parse HTML: {exc}") from exc
    if not isinstance(root, etree._Element):
        raise HTMLParseError("cannot parse HTML: no root element")
    return root


def root_of(page: PageInput) -> etree._Element:
    """The parsed tree of a page: a :class:`Page`'s own (parsed once, shared with every
    method), a tree as it is, else parsel's parse (:func:`parse_page`)."""
    if isinstance(page, Page):
        return page.tree
    if isinstance(page, etree._Element):
        return page
    return parse_page(page)


def body_of(root: etree._Element) -> etree._Element:
    """The page's ``body`` element (the root itself if there is none)."""
    body = root.find("body")
    if body is None and root.tag != "body":
        body = next(root.iter("body"), None)
    return root if body is None else body


@dataclass
class Block:
    """One block of a page: a block-level element without block-level descendants
    (``leaf``), or the text directly under a block element that has some (``body``)."""

    element: etree._Element
    text: str  # whitespace-normalised text
    images: tuple[str, ...]  # ``src`` of its images
    weight: int  # significant (word) characters of the text
    link_weight: int  # the same, of its anchor text
    leaf: bool = True
    in_comments: bool = False  # inside an element named as a reader-comment thread
    order: int = 0  # document order of its element
    lines: tuple[str, ...] = ()  # its text cut at <br>

    @property
    def tag(self) -> str:
        return self.element.tag

    @property
    def key(self) -> str:
        """What the block is compared by: its text, or its image sources if it has none."""
        if self.text:
            return self.text
        return "\x00img " + " ".join(self.images) if self.images else ""


class _Frame:
    """An open block element while the walk is inside it."""

    __slots__ = ("element", "order", "has_block", "parts", "link_parts", "images", "comments")

    def __init__(self, element: etree._Element, order: int, comments: bool) -> None:
        self.element = element
        self.order = order
        self.has_block = False
        self.parts: list[str] = []
        self.link_parts: list[str] = []
        self.images: list[str] = []
        self.comments = comments

    def block(self) -> Block | None:
        """The frame's block once it closes; None if it has neither text nor image.

        A block element holding blocks keeps its loose text as a block with
        ``leaf=False``: compared with the other pages, but giving a rule only for body.
        """
        raw = "".join(self.parts)
        text = " ".join(raw.split())
        if not text and not self.images:
            return None
        w = weight(text) if text else 0
        lw = weight("".join(self.link_parts)) if self.link_parts else 0
        lines = tuple(s for s in (" ".join(x.split()) for x in raw.split("\n")) if s) if "\n" in raw else (text,)
        return Block(self.element, text, tuple(self.images), w, min(lw, w), not self.has_block, self.comments, self.order, lines)


def page_blocks(page: PageInput) -> list[Block]:
    """The blocks of a page in document order (SPEC §6); blocks with neither text nor
    an image are left out.  ``page``: see :func:`root_of`."""
    body = body_of(root_of(page))
    blocks: list[Block] = []
    order = 0
    in_anchor = 0
    named_body = names_comment_thread(body)
    in_comments = int(named_body)
    frames = [_Frame(body, 0, named_body)]
    # Per open element below body: (is block, is anchor, names a comment thread),
    # None for an excluded element (its subtree skipped, only its tail is text).
    opened: list[tuple[bool, bool, bool] | None] = []

    def add(text: str | None) -> None:
        if text:
            frame = frames[-1]
            frame.parts.append(text)
            if in_anchor:
                frame.link_parts.append(text)

    walker = walk(body)
    for event, el in walker:
        if event == START:
            if el is body:
                add(el.text)
                continue
            tag = el.tag
            if tag in EXCLUDED:
                walker.skip_subtree()
                opened.append(None)
                continue
            order += 1
            named = names_comment_thread(el)
            if named:
                in_comments += 1
            block = tag in BLOCK_LEVEL
            if block:
                parent = frames[-1]
                parent.has_block = True
                if parent.parts:  # its loose text before and after the child: two lines
                    parent.parts.append("\n")
                frames.append(_Frame(el, order, in_comments > 0))
            anchor = tag == "a"
            if anchor:
                in_anchor += 1
            elif tag == "img":
                src = (el.get("src") or "").strip()
                if src:
                    frames[-1].images.append(src)
            elif tag == "br":
                add("\n")
            add(el.text)
            opened.append((block, anchor, named))
        elif event == END:
            if el is body:
                found = frames.pop().block()
                if found is not None:
                    blocks.append(found)
                continue
            state = opened.pop()
            if state is not None:
                block, anchor, named = state
                if block:
                    found = frames.pop().block()
                    if found is not None:
                        blocks.append(found)
                if anchor:
                    in_anchor -= 1
                if named:
                    in_comments -= 1
            add(el.tail)
        else:  # a comment or processing instruction: only its tail is text
            add(el.tail)
    blocks.sort(key=lambda b: b.order)
    return blocks


def unique_blocks(pages_blocks: Sequence[Sequence[Block]]) -> list[list[Block]]:
    """ExtractUniqueBlock: per page, its blocks whose content occurs once in the whole set."""
    counts: Counter[str] = Counter(b.key for blocks in pages_blocks for b in blocks)
    return [[b for b in blocks if counts[b.key] == 1] for blocks in pages_blocks]


def extract_unique_blocks(page: PageInput, others: Iterable[PageInput]) -> str:
    """The set method alone: the text of ``page``'s blocks that occur on none of ``others``
    (nor twice on ``page``), in document order, one block per line."""
    target = page_blocks(page)
    seen: Counter[str] = Counter(b.key for b in target)
    for other in others:
        try:
            seen.update({b.key for b in page_blocks(other)})
        except HTMLParseError:
            continue
    return "\n".join(b.text for b in target if b.text and seen[b.key] == 1)
