"""Typed blocks of a body a learned layout gives (issue #25).

A layout's body is the text of the page's layout blocks its MAIN sections match,
one line per piece of text the segmenter cut (:mod:`.blocks`).  The segmenter knows,
for each piece, the innermost block element that holds it
(:func:`~newsstemmer.layout.blocks.block_elements`); :func:`layout_blocks` types each
body line by that element and its ancestors (a heading, a list item and its depth, a
table cell, a quotation, a code listing, a picture's caption; a short line all in bold
that heads running text is a heading, as on the single page:
:func:`~newsstemmer.blocks.bold_headings`) and groups the lines into blocks, so the blocks give exactly the body's lines.  The layout's byline and
date-line sections are ``byline`` and ``dateline`` blocks (in the body when the layout
put them there, else out of it, first), and so do the pictures' captions among the
body's blocks that the layout left out (``figure`` blocks).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from lxml import etree

from ..blocks import Block, bold_headings, list_items, table_rows
from ..blockwalk import BOLD_HEADING_LEVEL, BOLD_TAGS
from ..dom.urls import UrlJoiner
from ..dom.walk import element_text
from ..page import Page
from .blocks import BlockOptions, block_elements, blocks_of, line_digest

__all__ = ["LayoutBody", "layout_blocks"]

_HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
_LINK_SCHEMES = ("http://", "https://", "mailto:")


class LayoutBody:
    """What a matched layout took for the body, enough to type it later: per body part,
    the layout block's index and the lines kept of it (static lines dropped); the
    byline and date-line blocks of the layout (index or None); ``whole``: the parts none of
    whose lines is static, with their text (their lines need no digest)."""

    __slots__ = ("parts", "static", "byline", "dateline", "whole")

    def __init__(self, static: set[str]) -> None:
        self.parts: list[int] = []
        self.static = static
        self.whole: dict[int, str] = {}
        self.byline: int | None = None
        self.dateline: int | None = None

    def maker(self, page: Page, options: BlockOptions) -> Callable[[], list[Block]]:
        """A function giving :func:`layout_blocks` when called."""
        return lambda: layout_blocks(page, options, self)


def _linkable(href: str, base: str | None) -> bool:
    """Whether a link may be written: http(s) or mailto, or (a page with no URL) relative."""
    return href.startswith(_LINK_SCHEMES) or (not base and ":" not in href.split("/", 1)[0])


#: The tags that decide a line's kind when they hold it (the nearest one decides).
_KIND_TAGS = ("pre", "blockquote", "figcaption", "figure", "ul", "ol", "td", "th")


def _line_kind(el: etree._Element | None, nearest: dict | None = None, tables: dict | None = None) -> tuple:
    """(kind, the element grouping lines into one block, extra) for a line held by ``el``:
    decided by the nearest of ``el`` and its ancestors that has one of :data:`_KIND_TAGS`
    (``nearest``: that element, or None, for parents already asked about; the lines of a
    page are mostly siblings; ``tables``: whether a table holds data, for tables already
    asked about)."""
    if el is None:
        return "paragraph", None, None
    if el.tag in _KIND_TAGS:
        a = el
    elif nearest is None:
        a = next(el.iterancestors(*_KIND_TAGS), None)
    else:
        parent = el.getparent()
        a = nearest.get(parent, nearest)  # (the dict itself: not asked about yet)
        if a is nearest:
            a = nearest[parent] = None if parent is None else (
                parent if parent.tag in _KIND_TAGS else next(parent.iterancestors(*_KIND_TAGS), None))
    if a is None:
        if el.tag in _HEADINGS:
            return "heading", el, _HEADINGS[el.tag]
        return "paragraph", el, None
    tag = a.tag
    if tag == "pre":
        return "code", a, None
    if tag == "blockquote":
        return "quote", a, None
    if tag == "figcaption" or tag == "figure":
        figure = a if tag == "figure" else next(a.iterancestors("figure"), None)
        return "figure", figure if figure is not None else a, None
    if tag in ("ul", "ol"):
        lists = [x for x in (el, *el.iterancestors("ul", "ol")) if x.tag in ("ul", "ol")]
        item = el if el.tag == "li" else next(el.iterancestors("li"), None)
        return "list", lists[-1], (item, len(lists) - 1, lists[0].tag == "ol")
    row = next(a.iterancestors("tr"), None)  # (a table cell)
    table = next(a.iterancestors("table"), None)
    if table is None:
        return "paragraph", el, None
    data = None if tables is None else tables.get(table)
    if data is None:
        data = not any(True for _ in table.iterdescendants("table", "p", "ul", "ol"))
        if tables is not None:
            tables[table] = data
    if data:
        return "table", table, (row, a, tag == "th")
    return "paragraph", el, None


def _bold_text(el: etree._Element) -> tuple[bool, bool]:
    """(whether ``el`` holds text outside bold elements, whether it holds text inside one)."""
    outside, inside = bool((el.text or "").strip()), False
    for child in el:
        if isinstance(child.tag, str) and child.tag in BOLD_TAGS:
            inside = inside or any(t.strip() for t in child.itertext())
        elif isinstance(child.tag, str):
            o, i = _bold_text(child)
            outside, inside = outside or o, inside or i
        outside = outside or bool((child.tail or "").strip())
    return outside, inside


def _all_bold(el: etree._Element | None) -> bool:
    """Whether all the text of a line's element is set in bold (``<p><strong>..</strong></p>``)."""
    if el is None:
        return False
    if el.tag in BOLD_TAGS:
        return True
    if next(el.iterdescendants(*BOLD_TAGS), None) is None:  # (no bold element: nothing inside one)
        return False
    outside, inside = _bold_text(el)
    return inside and not outside


def _links(els: Iterable[etree._Element | None], base: str | None,
           joiner: UrlJoiner | None) -> list[tuple[str, str]] | tuple[()]:
    """The (text, absolute URL) links inside ``els`` (distinct elements, None skipped), in
    order (the empty tuple when there is none: most lines have no link)."""
    out: list[tuple[str, str]] | None = None
    for el in els:
        if el is None or (not len(el) and el.tag != "a"):  # (no child: no link inside; most lines)
            continue
        for a in el.iter("a"):
            href = (a.get("href") or "").strip()
            if not href or href.startswith("#"):
                continue
            href = joiner.join(href) if joiner is not None else href
            text = element_text(a)
            if text and _linkable(href, base):
                if out is None:
                    out = []
                out.append((text, href))
    return out if out is not None else ()


def layout_blocks(page: Page, options: BlockOptions, body: LayoutBody) -> list[Block]:
    """The typed blocks of a layout's body on ``page`` (see the module)."""
    pb = blocks_of(page, options)
    elements = pb.elements
    if elements is None:  # (a page cut without its elements)
        pb, elements = block_elements(page.tree, options)
    records: list[tuple] = []  # (line, kind, group, extra, element, in body)
    parts = set(body.parts)
    kinds: dict[etree._Element | None, tuple] = {}  # (lines of one element share their kind)
    nearest: dict = {}  # (per parent: its nearest ancestor deciding a kind)
    tables: dict = {}  # (per table: whether it holds data)

    def kind_of(el: etree._Element | None) -> tuple:
        found = kinds.get(el)
        if found is None:
            found = kinds[el] = _line_kind(el, nearest, tables)
        return found

    static, byline, dateline = body.static, body.byline, body.dateline
    span = range(min(parts), max(parts) + 1) if parts else range(0)
    for i in span:
        kept = i in parts
        own = i == byline or i == dateline  # (the layout's own byline or date line)
        els = elements[i] if i < len(elements) else ()
        if not kept and (own or not any(kind_of(el)[0] == "figure" for el in els)):
            continue  # (out of the body: only a picture's caption comes back; a byline or date line is added below)
        text = pb.blocks[i].text
        check_static = bool(static) and body.whole.get(i) != text
        n = len(els)
        for k, line in enumerate(text.split("\n")):
            if not line:
                continue
            el = els[k] if k < n else None
            found = kinds.get(el)  # (kind_of, inline: a call a line counts here)
            kind, group, extra = found if found is not None else kind_of(el)
            if not kept and kind != "figure":
                continue
            if check_static and line_digest(line) in static:
                continue
            if own:
                kind, group, extra = ("byline" if i == byline else "dateline"), i, None
            records.append((line, kind, group, extra, el, kept))
    # headings written as bold lines in the running text (the single-page walk's rule; a
    # line's element is looked at only where its boldness decides)
    bold: dict[etree._Element | None, bool] = {None: False}  # (lines of one element share it)

    def all_bold(el: etree._Element | None) -> bool:
        found = bold.get(el)
        if found is None:
            found = bold[el] = _all_bold(el)
        return found

    heads = bold_headings([(r[0], r[5], r[4]) if r[1] == "paragraph" else (r[0], False, None) for r in records],
                          all_bold)
    for k in heads:
        line, _, _, _, el, kept = records[k]
        records[k] = (line, "heading", el, BOLD_HEADING_LEVEL, el, kept)
    blocks: list[Block] = []
    joiner = UrlJoiner(page.url) if page.url else None  # (one for the page's links and pictures)
    k = 0
    while k < len(records):
        kind, group, kept = records[k][1], records[k][2], records[k][5]
        j = k + 1
        while (j < len(records) and records[j][1] == kind and records[j][2] is group and group is not None
               and records[j][5] == kept):
            j += 1
        blocks.append(_typed(records[k:j], page.url, joiner))
        k = j
    for kind, index in (("byline", body.byline), ("dateline", body.dateline)):
        if index is not None and index < len(pb.blocks) and index not in parts:
            text = pb.blocks[index].text
            if text:
                blocks.insert(0, Block(kind, text, in_body=False))
    return blocks


def _typed(run: list[tuple], base: str | None, joiner: UrlJoiner | None) -> Block:
    """The block of a run of records of one kind and group (``in_body``: the records')."""
    kind, in_body = run[0][1], run[0][5]
    if len(run) == 1:
        text = run[0][0]
        el = run[0][4]
        links = () if el is None or (not len(el) and el.tag != "a") else _links((el,), base, joiner)
    else:
        text = "\n".join([r[0] for r in run])
        links = _links(dict.fromkeys(r[4] for r in run), base, joiner)
    if kind == "heading":
        return Block("heading", text, level=run[0][3], links=links, in_body=in_body)
    if kind == "list":
        items, depths, numbered = list_items((r[0], *r[3]) for r in run)
        return Block("list", text, items=items, item_depths=depths, item_ordered=numbered,
                     ordered=numbered[0], links=links, in_body=in_body)
    if kind == "table":
        rows = table_rows((r[0], r[3][0], r[3][1]) for r in run)
        header = all(r[3][2] for r in run if r[3][0] is run[0][3][0])
        return Block("table", text, rows=rows, header=header, links=links, in_body=in_body)
    if kind == "figure":
        figure = run[0][2]
        img = next(figure.iter("img"), None) if figure is not None else None
        src = (img.get("src") or img.get("data-src") or "").strip() if img is not None else ""
        if src.startswith("data:"):
            src = ""
        src_url = (joiner.join(src) if joiner is not None else src) if src else None
        return Block("figure", text, src=src_url, caption=" ".join([r[0] for r in run]), links=links, in_body=in_body)
    return Block(kind, text, links=links, in_body=in_body)
