"""The CRF's view of a page: blocks cut at split tags, their lines of text, headline signals.

:func:`segment` walks the page once (:func:`newsstemmer.dom.walk.walk`) and cuts it
into blocks at ``body``, ``div``, ``p``, ``td`` and the modern sectioning tags
(SPEC §5).  A block holds the lines of text that lie in it outside its child
blocks; line tags (``br``, ``li``, headings, ...) end a line.  Each block records
what its features need: its tag, role hints (its own and its ancestors'), the
enclosing context tags, counts of inline elements, its table position, and the
weights of its own text and subtree.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from lxml import etree

from ...dom.parse import parse_html
from ...dom.text import weight
from ...dom.walk import element_text, walk
from ..signals.hints import element_hints
from .words import SHORT

__all__ = [
    "CONTEXT_TAGS",
    "CRFBlock",
    "CRFPage",
    "DEFAULT_SPLIT_TAGS",
    "IGNORED_TAGS",
    "LINE_TAGS",
    "PAPER_SPLIT_TAGS",
    "segment",
]

#: How many h1-h3 headings are kept as headline candidates.
_MAX_HEADINGS = 30
#: Block tags of the source document.
PAPER_SPLIT_TAGS = ("body", "div", "p", "td")
#: The tags that cut a page into blocks by default: the document's plus modern
#: sectioning tags.  Measured on the training sites (3-fold CV by site, F1 of the
#: first pass): the document's four 0.918, these 0.921, these + li 0.922, these + li,
#: ul, ol, table, blockquote, form, h1-h6 0.921; li was left out (more blocks, no gain).
DEFAULT_SPLIT_TAGS = PAPER_SPLIT_TAGS + ("article", "section", "main", "header", "footer", "nav", "aside")

#: Tags whose subtree is not page text.
IGNORED_TAGS = frozenset(
    "head script style noscript template svg math iframe object embed canvas select option button "
    "textarea datalist".split()
)
#: Tags that end a line of text inside a block (they do not make a block of their own).
LINE_TAGS = frozenset(
    "br hr li ul ol dl dt dd h1 h2 h3 h4 h5 h6 tr th table blockquote pre form figure figcaption "
    "center address title dir menu".split()
)
_HEADINGS = frozenset("h1 h2 h3 h4 h5 h6".split())
#: Elements counted per block (besides ``a`` and headings).
_COUNTED = frozenset("li img link input br ul ol strong b em i span".split())
#: Ancestors whose presence is a feature ("inside a footer", "inside a list", ...).
CONTEXT_TAGS = frozenset(
    "a li ul ol table form blockquote pre header footer nav aside article main section figure "
    "h1 h2 h3 h4 h5 h6 strong b em i small label dl".split()
)


@dataclass(slots=True)
class CRFBlock:
    """A block of the page: an element of a split tag, with what lies in it outside child blocks."""

    index: int
    tag: str
    parent: int  # index of the enclosing block, -1 for the top block
    depth: int  # depth of the element in the DOM
    block_depth: int  # number of enclosing blocks
    hints: tuple[str, ...]  # role hints from the element's own id/class
    context_hints: frozenset[str]  # role hints of its ancestors
    context_tags: frozenset[str]  # selected enclosing tags (footer, li, a, ...)
    first_line: int  # number of lines before it (its position in the page)
    segments: list[int] = field(default_factory=list)  # indices of its lines in CRFPage.lines
    children: list[int] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)  # own a, li, img, br, ... elements
    table: tuple[int, int, int, int] | None = None  # row, column, rows, columns of a td
    # own text (outside child blocks)
    weight: int = 0
    anchor_weight: int = 0
    heading_weight: int = 0
    start: int = 0  # weight of the page's text before the block
    # whole subtree
    sub_weight: int = 0
    sub_anchor_weight: int = 0
    sub_text_blocks: int = 0
    sub_links: int = 0
    sub_items: int = 0
    sub_paragraphs: int = 0
    text: str = ""

    @property
    def has_text(self) -> bool:
        return self.weight > 0


@dataclass
class CRFPage:
    """A page cut into blocks, its lines of text, and its headline signals."""

    blocks: list[CRFBlock]
    lines: list[tuple[int, str]]  # (block index, text) in document order
    text_blocks: list[int]  # blocks with text of their own, in document order
    parent_blocks: list[int]  # their ancestors without text of their own, in document order
    title: str = ""
    meta_title: str = ""
    h1: list[str] = field(default_factory=list)
    total_weight: int = 0
    total_anchor_weight: int = 0
    description: str = ""
    headings: list[str] = field(default_factory=list)  # h1-h3 texts (headline candidates)
    line_weights: list[tuple[int, int]] = field(default_factory=list)  # (weight, anchor weight) per line
    pagerank_core: int = -1  # DensitySum core of the block tree (set by block_features)

    @property
    def nodes(self) -> list[int]:
        """Every block of the two sequences, in document order."""
        return sorted(self.text_blocks + self.parent_blocks)


# What the walk does with each element, found with one dict look-up.
# Inline kinds come first so that ``kind <= _ANCHOR_OR_COUNT`` tests "inline element";
# ``_BODY`` marks the walk's root.
_INLINE, _COUNT, _ANCHOR, _SPLIT, _LINE, _LINE_CTX, _HEADING, _BREAK, _SKIP, _BODY = range(10)
_ANCHOR_OR_COUNT = _ANCHOR
_KINDS_CACHE: dict[frozenset[str], dict[object, int]] = {}


def _kinds(split: frozenset[str]) -> dict[object, int]:
    kinds = _KINDS_CACHE.get(split)
    if kinds is None:
        kinds = {}
        kinds.update((t, _COUNT) for t in _COUNTED)
        kinds.update((t, _LINE) for t in LINE_TAGS)
        kinds.update((t, _LINE_CTX) for t in LINE_TAGS & CONTEXT_TAGS)
        kinds.update((t, _HEADING) for t in _HEADINGS)
        kinds.update(br=_BREAK, hr=_BREAK, a=_ANCHOR)
        kinds.update((t, _SKIP) for t in IGNORED_TAGS)
        kinds[etree.Entity] = _SKIP  # (an XML tree's entity references: the walk gives them as elements)
        kinds.update((t, _SPLIT) for t in split)
        _KINDS_CACHE[split] = kinds
    return kinds


def segment(doc: str | bytes | etree._Element, split_tags: Iterable[str] = DEFAULT_SPLIT_TAGS) -> CRFPage:
    """Cut a page into blocks at ``split_tags`` (depth-first order), iteratively.

    Comments, scripts, styles and other non-text elements are dropped (the
    document's normalisation).  A page without ``<body>`` is read from its root.
    The walk (:func:`newsstemmer.dom.walk.walk`) is the hot loop of CRF
    extraction, hence the inlined code.
    """
    root = doc if isinstance(doc, etree._Element) else parse_html(doc)
    kinds = _kinds(frozenset(split_tags))
    title = meta_title = description = ""
    h1: list[str] = []
    headings: list[str] = []
    for el in root.iter("title", "meta", "h1", "h2", "h3"):
        tag = el.tag
        if tag == "title":
            if not title:
                title = element_text(el)
        elif tag == "meta":
            name = (el.get("property") or el.get("name") or "").lower()
            if not meta_title and name in ("og:title", "twitter:title"):
                meta_title = " ".join((el.get("content") or "").split())
            elif not description and name in ("description", "og:description"):
                description = " ".join((el.get("content") or "").split())
        elif len(headings) < _MAX_HEADINGS:
            text = element_text(el)
            if text and len(text) <= SHORT:
                headings.append(text)
                if tag == "h1" and len(h1) < 3:
                    h1.append(text)
    body = root.find("body")
    if body is None:
        body = root
    blocks: list[CRFBlock] = []
    cells: list[tuple[int, etree._Element]] = []  # table cells, positioned at the end
    # Lines of text: block, raw text, raw anchor text, raw heading text.
    line_block: list[int] = []
    line_raw: list[str] = []
    line_anchor: list[str] = []
    line_heading: list[str] = []
    parts: list[str] = []
    anchor_parts: list[str] = []
    heading_parts: list[str] = []
    in_anchor = in_heading = 0
    open_ctx: list[str] = []  # enclosing context tags that are not blocks
    # and, of those, the elements whose id/class hints count (not headings): their hints
    # are read when a block opens inside them
    open_hints: list[etree._Element] = []
    # A serial number per push on ``open_ctx`` (``open_hints`` is only pushed with it):
    # the top one identifies what both lists hold.
    open_serials: list[int] = []
    serial = 0

    def flush() -> None:
        line_block.append(current)
        line_raw.append("".join(parts))
        line_anchor.append("".join(anchor_parts) if anchor_parts else "")
        line_heading.append("".join(heading_parts) if heading_parts else "")
        parts.clear()
        anchor_parts.clear()
        heading_parts.clear()

    # Context (hints, tags) of a new block, by its parent block and the open context
    # (``(parent, serial)``, or the parent alone when no context is open): siblings share it.
    child_context: dict[object, tuple[frozenset[str], frozenset[str]]] = {}

    blocks.append(CRFBlock(0, "body", -1, 0, 0, element_hints(body), frozenset(), frozenset(), 0))
    current = 0
    counts = blocks[current].counts  # those of the current block
    if body.text:
        parts.append(body.text)
    # The walk: an element's text follows its start, its tail its end.  ``open_kinds``
    # holds the kind of each open element (``_BODY`` for ``body``): its length is the
    # depth of the next element, and an end pops the kind of the element it closes.
    open_kinds: list[int] = [_BODY]
    push, pop = open_kinds.append, open_kinds.pop
    walker = walk(body)
    skip, end = walker.skip_subtree, walker.__next__
    next(walker)  # (body opens)
    for event, el in walker:
        if event == "start":
            tag = el.tag
            kind = kinds.get(tag, _INLINE)
            if kind <= _ANCHOR_OR_COUNT:
                # Fast path for the most common elements: inline ones (a, img, span...),
                # and for inline leaves, their end (the next event) too.
                if kind:
                    counts[tag] = counts.get(tag, 0) + 1  # (an anchor's tag is "a")
                if len(el):
                    if kind == _ANCHOR:
                        in_anchor += 1
                    text = el.text
                    if text and (parts or not text.isspace()):
                        parts.append(text)
                        if in_anchor:
                            anchor_parts.append(text)
                        if in_heading:
                            heading_parts.append(text)
                    push(kind)
                    continue
                text = el.text
                if text and (parts or not text.isspace()):
                    parts.append(text)
                    if in_anchor or kind == _ANCHOR:
                        anchor_parts.append(text)
                    if in_heading:
                        heading_parts.append(text)
                end()  # (its end)
                text = el.tail
                if text and (parts or not text.isspace()):
                    parts.append(text)
                    if in_anchor:
                        anchor_parts.append(text)
                    if in_heading:
                        heading_parts.append(text)
                continue
            if kind == _SKIP:
                skip()  # (its tail still follows its end)
                push(kind)
                continue
            if kind == _SPLIT:
                if parts:
                    flush()
                # A new block, in the current one.
                p = blocks[current]
                key = (current, open_serials[-1]) if open_ctx else current
                ctx = child_context.get(key)
                if ctx is None:
                    ctx_tags = p.context_tags
                    if p.tag in CONTEXT_TAGS:
                        ctx_tags = ctx_tags | {p.tag}
                    if open_ctx:
                        ctx_tags = ctx_tags.union(open_ctx)
                    ctx_hints = p.context_hints.union(p.hints) if p.hints else p.context_hints
                    if open_hints:
                        ctx_hints = ctx_hints.union(*[element_hints(e) for e in open_hints])
                    ctx = child_context[key] = (ctx_hints, ctx_tags)
                opened = len(blocks)
                blocks.append(
                    CRFBlock(
                        opened, tag, current, len(open_kinds), p.block_depth + 1, element_hints(el), ctx[0],
                        ctx[1], len(line_raw),
                    )
                )
                p.children.append(opened)
                if tag == "td" or tag == "th":
                    cells.append((opened, el))
                current = opened
                counts = blocks[opened].counts
            else:  # a line ends here
                if parts:
                    flush()
                name = "h" if kind == _HEADING else tag
                counts[name] = counts.get(name, 0) + 1
                if kind == _HEADING:
                    in_heading += 1
                    open_ctx.append(tag)
                    serial += 1
                    open_serials.append(serial)
                elif kind == _LINE_CTX:
                    open_ctx.append(tag)
                    serial += 1
                    open_serials.append(serial)
                    open_hints.append(el)
            text = el.text
            if text and (parts or not text.isspace()):
                parts.append(text)
                if in_anchor:
                    anchor_parts.append(text)
                if in_heading:
                    heading_parts.append(text)
            push(kind)
            continue
        if event == "end":
            kind = pop()
            if kind > _ANCHOR_OR_COUNT:
                if kind == _SPLIT:
                    if parts:
                        flush()
                    current = blocks[current].parent  # (the block it opened was the current one)
                    counts = blocks[current].counts
                elif kind == _BODY:
                    break  # (body's own tail is not page text)
                elif kind != _SKIP:  # a line ends here
                    if parts:
                        flush()
                    if kind == _HEADING:
                        in_heading -= 1
                        open_ctx.pop()
                        open_serials.pop()
                    elif kind == _LINE_CTX:
                        open_ctx.pop()
                        open_serials.pop()
                        open_hints.pop()
            elif kind == _ANCHOR:
                in_anchor -= 1
        # (the end of an element, a comment or a processing instruction: its tail follows)
        text = el.tail
        if text and (parts or not text.isspace()):
            parts.append(text)
            if in_anchor:
                anchor_parts.append(text)
            if in_heading:
                heading_parts.append(text)
    if parts:
        flush()
    page = _finish(blocks, cells, line_block, line_raw, line_anchor, line_heading, title, meta_title, h1)
    page.description = description
    page.headings = headings
    return page





def _finish(
    blocks: list[CRFBlock],
    cells: list[tuple[int, etree._Element]],
    line_block: list[int],
    line_raw: list[str],
    line_anchor: list[str],
    line_heading: list[str],
    title: str,
    meta_title: str,
    h1: list[str],
) -> CRFPage:
    """Normalise the lines, weigh them, and sum the weights per block and per subtree."""
    lines: list[tuple[int, str]] = []
    line_weights: list[tuple[int, int]] = []
    n_lines = len(line_raw)
    before = [0] * (n_lines + 1)  # weight of the lines before line i
    position = 0
    for i, b, raw, anchor, heading in zip(range(n_lines), line_block, line_raw, line_anchor, line_heading):
        before[i] = position
        text = " ".join(raw.split())
        if not text:
            continue
        w = weight(text)
        if not w:
            continue  # punctuation alone ("|", "»") is no text of the block
        blk = blocks[b]
        blk.segments.append(len(lines))
        lines.append((b, text))
        blk.weight += w
        position += w
        # (A line that is all anchor or heading text, as in menus, weighs as much as it:
        # white space, all that the normalisation changes, is no word character.)
        if anchor:
            aw = w if anchor == raw else weight(anchor)
            blk.anchor_weight += aw
            line_weights.append((w, aw))
        else:
            line_weights.append((w, 0))
        if heading:
            blk.heading_weight += w if heading == raw else weight(heading)
    before[n_lines] = position
    rows_of: dict[object, tuple[dict, int]] = {}
    cells_of: dict[object, tuple[dict, int]] = {}
    for b, td in cells:
        blocks[b].table = _table_position(td, rows_of, cells_of)
    # Subtree sums: children come after their parent in document order.  Sums of 0 are
    # neither written nor passed up (the fields start at 0): a block with anchor text has
    # text (both grow line by line above), so a subtree with text blocks, paragraphs or
    # anchor text has weight.
    for b in reversed(blocks):
        b.start = before[b.first_line]
        w = b.weight
        sub_weight = b.sub_weight
        sub_anchor = b.sub_anchor_weight
        sub_text = b.sub_text_blocks
        sub_paragraphs = b.sub_paragraphs
        if w:
            sub_weight = b.sub_weight = sub_weight + w
            sub_text = b.sub_text_blocks = sub_text + 1
            if b.tag == "p":
                sub_paragraphs = b.sub_paragraphs = sub_paragraphs + 1
            segments = b.segments
            b.text = lines[segments[0]][1] if len(segments) == 1 else "\n".join([lines[i][1] for i in segments])
            aw = b.anchor_weight
            if aw:
                sub_anchor = b.sub_anchor_weight = sub_anchor + aw
        counts = b.counts
        sub_links = b.sub_links
        sub_items = b.sub_items
        if counts:
            if "a" in counts:
                sub_links = b.sub_links = sub_links + counts["a"]
            if "li" in counts:
                sub_items = b.sub_items = sub_items + counts["li"]
        if b.parent >= 0:
            p = blocks[b.parent]
            if sub_weight:
                p.sub_weight += sub_weight
                p.sub_text_blocks += sub_text
                if sub_anchor:
                    p.sub_anchor_weight += sub_anchor
                if sub_paragraphs:
                    p.sub_paragraphs += sub_paragraphs
            if sub_links:
                p.sub_links += sub_links
            if sub_items:
                p.sub_items += sub_items
    text_blocks = [b.index for b in blocks if b.weight > 0]
    parent_blocks = [b.index for b in blocks if b.weight == 0 and b.sub_weight > 0]
    top = blocks[0]
    return CRFPage(
        blocks, lines, text_blocks, parent_blocks, title, meta_title, h1, top.sub_weight, top.sub_anchor_weight,
        line_weights=line_weights,
    )


def _table_position(
    td: etree._Element, rows_of: dict[object, tuple[dict, int]], cells_of: dict[object, tuple[dict, int]]
) -> tuple[int, int, int, int]:
    """(row, column, rows, columns) of a table cell, counted among tr / td-th elements.

    ``rows_of`` and ``cells_of`` keep, per row group and per row (shared by the cells of
    a page), the position of each row or cell and their number: each is counted once.
    """
    tr = td.getparent()
    if tr is None or tr.tag != "tr":
        return (0, 0, 1, 1)
    group = tr.getparent()
    rows = rows_of.get(group)
    if rows is None:
        found = [r for r in group if r.tag == "tr"] if group is not None else [tr]
        rows = rows_of[group] = ({r: i for i, r in enumerate(found)}, len(found))  # (by identity)
    cells = cells_of.get(tr)
    if cells is None:
        found = [c for c in tr if c.tag in ("td", "th")]
        cells = cells_of[tr] = ({c: i for i, c in enumerate(found)}, len(found))
    return (rows[0].get(tr, 0), cells[0].get(td, 0), rows[1], cells[1])


