"""Typed blocks of an element's text: the same lines as a method's plain text, each
with what it is (issue #25).

A method that takes an element's text minus the parts its cleaning leaves out
(DOM PageRank, the region extractor) gives its body as lines: text between
block-level tags, split at the page's own newlines, whitespace-normalised
(:func:`walk_text`, the plain walk).  That walk keeps the events it read, and
:func:`typed_blocks` reads the same events again (the left-out parts' too, which the
plain walk passed over) and keeps, beside each line, the structure it sits in: a heading, a list item (and how deep), a table
cell, a quotation, a code listing, a figure with its picture; lines of one element
make one block.  A definition list (``dl``) is a list of its terms and definitions, and
a short line all in bold that heads running text is a heading (pages often write
subheadings as ``<p><strong>...</strong></p>``; told by markup alone, in any language).  The lines of the blocks it marks as body are exactly the plain
text's lines, in order: the default body does not depend on this module.

What the cleaning left out comes back too, marked out of the body: a picture's
caption, a code listing, a byline, a related-links box, a comment thread (told by
the element's tag and its ``class``/``id`` names), so a convention that keeps one of
them can ask for it by kind.  A left-out part that no name types and that is made of
lists or links (a table of contents, a "see also" list, a link list between
paragraphs) or of running text (a section of the article the cleaning judged outside it)
keeps its structure: its lists, headings and lines come back as ``list``, ``heading`` and
``paragraph`` blocks of the optional part ``links`` or ``text``
(:mod:`newsstemmer.leftout`).  Hidden elements never come back.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Sequence
from lxml import etree

from .blocks import Block
from .dom.urls import UrlJoiner
from .dom.walk import START, element_text, walk
from .leftout import left_out_kind, left_out_part

__all__ = [
    "BOLD_HEADING_LEVEL", "BOLD_TAGS", "WalkedText", "bold_headings", "list_items", "table_rows", "typed_blocks",
    "subtree_events", "walk_text",
]

_HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
#: Elements that make a table's cells hold running text: such a table lays a page out.
_LAYOUT_IN_TABLE = ("table", "p", "ul", "ol", "blockquote", "pre", "figure", "h1", "h2", "h3", "h4", "h5", "h6")
_LINK_SCHEMES = ("http://", "https://", "mailto:")
_KIND_OF_TAG = {"ul": "list", "ol": "list", "dl": "list", "table": "table", "blockquote": "quote", "pre": "code",
                "figure": "figure", "figcaption": "caption", **{h: "heading" for h in _HEADINGS}}
#: Owners whose inner block-level elements do not start blocks of their own.
_COMPOUND = frozenset({"list", "table", "quote", "code", "figure", "caption", "heading"})

#: Inline elements whose text is set in bold: a line of nothing else is a heading written
#: without a heading tag (:func:`bold_headings`).
BOLD_TAGS = frozenset({"b", "strong"})
#: A bold line is typed a heading only when it is this short (tokens) and ends no sentence.
BOLD_HEADING_WORDS = 15
_SENTENCE_END = (".", ",", ";")
#: The level of a heading written as a bold line (a subheading under the article's title).
BOLD_HEADING_LEVEL = 3
# Marks of a bold element's start and end in the walked text: NUL never occurs in text
# lxml gives, and the marks are taken out before a line is made.
_BOLD_ON, _BOLD_OFF = "\x00[", "\x00]"


#: Names that type a block the cleaning kept (it stays in the body, typed).
_KEPT_NAMES = re.compile(r"byline|dateline|caption", re.I)


def _named_kind(el: etree._Element) -> str:
    """``paragraph``, or ``byline``/``dateline``/``caption`` for an element named so."""
    names = el.get("class") or el.get("id")
    if names:
        found = _KEPT_NAMES.search(names)
        if found:
            return found.group(0).lower()
    return "paragraph"


def _linkable(href: str, base: str | None) -> bool:
    """Whether a link may be written: http(s) or mailto, or (a page with no URL) relative."""
    return href.startswith(_LINK_SCHEMES) or (not base and ":" not in href.split("/", 1)[0])


def _norm(text: str) -> str:
    return " ".join(text.split())  # (str.split's whitespace is the regex's \s: the plain text's)


class _Owner:
    """The element a run of lines belongs to, and what it makes of them (``part``: the
    optional part a left-out block typed by its structure belongs to, e.g. ``links``)."""

    __slots__ = ("kind", "level", "ordered", "in_body", "part")

    def __init__(self, kind: str, in_body: bool, level: int | None = None, ordered: bool = False,
                 part: str | None = None) -> None:
        self.kind = kind
        self.in_body = in_body
        self.level = level
        self.ordered = ordered
        self.part = part


def _data_table(el: etree._Element) -> bool:
    """Whether a table holds data (a row of two cells or more, no running text in
    them) rather than laying out a page."""
    for _ in el.iterdescendants(*_LAYOUT_IN_TABLE):
        return False
    return any(sum(1 for _ in row.iterchildren("td", "th")) > 1 for row in el.iterdescendants("tr"))


def _image_src(el: etree._Element, joiner: UrlJoiner | None) -> str | None:
    src = el.get("src") or ""
    if not src or src.startswith("data:"):
        src = el.get("data-src") or el.get("data-lazy-src") or el.get("data-original") or ""
    src = src.strip()
    if not src or src.startswith("data:"):
        return None
    for size in (el.get("width"), el.get("height")):
        if size and size.strip().isdigit() and int(size) <= 2:  # (tracking pixels)
            return None
    return joiner.join(src) if joiner is not None else src


class _Side:
    """One side of the typed walk (the body, or the left-out part being read): its run of
    text not yet cut into lines, the links found in that run, the structure it sits in
    (owner, sub-context) and how many bold elements are open at the run's end."""

    __slots__ = ("parts", "links", "ctx", "bold")

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.links: list[tuple[str, str]] = []
        self.ctx: tuple = (None, None)
        self.bold = 0


def _flush(side: _Side, records: list[tuple]) -> None:
    """End ``side``'s current run of text: its non-empty lines become records
    ``(text, owner, sub, links, all bold)``, the run's links on its first line."""
    parts = side.parts
    text = "".join(parts)
    parts.clear()
    links: list[tuple[str, str]] | None = side.links
    if links:
        side.links = []
    else:
        links = None  # (the empty list stays the side's: no record holds it)
    if "\x00" in text or side.bold:
        _flush_marked(side, text, links, records)
        return
    owner, sub = side.ctx
    if "\n" in text:
        for raw in text.split("\n"):
            line = " ".join(raw.split())  # (_norm, inline: a call per line counts here)
            if line:
                records.append((line, owner, sub, links, False))
                links = None
    else:  # (one line, nothing bold)
        line = " ".join(text.split())
        if line:
            records.append((line, owner, sub, links, False))


def _flush_marked(side: _Side, text: str, links: list | None, records: list[tuple]) -> None:
    """:func:`_flush` for a run with bold marks in it or bold elements open: each line
    without the marks, and whether all its visible text is bold."""
    owner, sub = side.ctx
    depth = side.bold
    for raw in text.split("\n"):
        pieces = raw.split("\x00")
        kept = [pieces[0]]
        bold = not pieces[0].strip() or depth > 0
        seen = bool(pieces[0].strip())
        for piece in pieces[1:]:
            depth += 1 if piece[:1] == "[" else -1
            rest = piece[1:]
            kept.append(rest)
            if rest.strip():
                seen = True
                bold = bold and depth > 0
        depth = max(depth, 0)
        line = " ".join("".join(kept).split())
        if line:
            records.append((line, owner, sub, links, bold and seen))
            links = None
    side.bold = depth


def _entered(el: etree._Element, tag: str, ctx: tuple, out_kind: str | None, part: str | None) -> tuple | None:
    """The context inside block-level ``el`` (tag ``tag``; None: the same as outside it);
    inside a left-out ``part`` its structure is typed as the body's is, out of the body."""
    owner, sub = ctx
    if owner is not None and owner.kind in _COMPOUND and not (
            part is not None and tag in _OWN_NAME_TAGS and owner.kind not in _OWN_NAME_KINDS):
        if owner.kind == "list":
            if tag in ("ul", "ol", "dl"):
                return owner, (sub[0], sub[1] + 1, tag == "ol")
            if tag in ("li", "dt", "dd"):
                return owner, (el, sub[1], sub[2])
        elif owner.kind == "table":
            if tag == "tr":
                return owner, (el, None, False)
            if tag in ("td", "th"):
                return owner, (sub[0] if sub else None, el, tag == "th")
        return None
    kind = _KIND_OF_TAG.get(tag, "paragraph")
    if kind == "table" and not _data_table(el):
        kind = "paragraph"
    in_body = out_kind is None
    if not in_body and part is None and kind not in ("code", "figure", "caption"):
        kind = out_kind
    elif kind == "paragraph" and part is None:  # (a part's named lines stay its paragraphs)
        kind = _named_kind(el)
    new = _Owner(kind, in_body, _HEADINGS.get(tag), tag == "ol", part)
    return new, ((None, 0, tag == "ol") if kind == "list" else None)


def _link(el: etree._Element, side: _Side, joiner: UrlJoiner | None, base: str | None) -> None:
    """Note link ``el`` (its text and absolute URL) in ``side``'s run, if it may be written."""
    href = (el.get("href") or "").strip()
    if not href or href.startswith("#"):
        return
    if joiner is not None:
        href = joiner.join(href)
    if _linkable(href, base):
        text = element_text(el)
        if text:
            side.links.append((text, href))


class WalkedText:
    """An element's text as the plain walk read it (:func:`walk_text`): the pieces of text
    in page order (a ``"\\n"`` at each block-level element's start and end), the walk's
    ``(event, element)`` pairs and where in them it passed over a left-out element's
    subtree, kept so that the typed blocks of the same text are made from this walk
    (:func:`typed_blocks`) instead of a second one."""

    __slots__ = ("parts", "events", "skipped")

    def __init__(self, parts: list[str], events: list[tuple], skipped: list[int]) -> None:
        self.parts = parts
        self.events = events
        self.skipped = skipped

    def lines(self) -> list[str]:
        """The text's lines: split at newlines, whitespace-normalised (``_norm``), blank ones dropped first."""
        return [" ".join(line.split()) for line in "".join(self.parts).split("\n") if line and not line.isspace()]


def walk_text(main: etree._Element, skip: Collection[etree._Element], drop_tags: Collection[str],
              block_tags: Collection[str]) -> WalkedText:
    """The plain walk of ``main``'s text: without the subtrees of ``drop_tags`` elements and
    of ``skip`` elements, a new line at each ``block_tags`` element's start and end.

    The events are kept as the walk reads them (an element passed over gives its start and
    its end, nothing between); keeping them costs one list append an event."""
    parts: list[str] = []
    events: list[tuple] = []
    skipped: list[int] = []
    add, keep = parts.append, events.append
    walker = walk(main)
    for item in walker:
        keep(item)
        event, el = item
        tag = el.tag
        if tag.__class__ is not str:  # comments, processing instructions, entities: only a tail
            if event != START and el.tail:  # (an entity's START comes before its END)
                add(el.tail)
            continue
        if event == START:
            if tag in drop_tags:
                walker.skip_subtree()
                continue
            if el in skip:
                walker.skip_subtree()
                skipped.append(len(events) - 1)
                continue
            if tag in block_tags:
                add("\n")
            if el.text:
                add(el.text)
        else:
            if el is main:
                break
            if tag in block_tags:
                add("\n")
            if el.tail:
                add(el.tail)
    return WalkedText(parts, events, skipped)


#: The owner of the record standing for a left-out part's records when they are not made
#: (the ``left_out_blocks=False`` walk: ``(None, _PARTED, the part's element, None, False)``):
#: not running text, of no owner of the body's.
_PARTED = _Owner("boilerplate", False)


def _yields_records(el: etree._Element, hidden: Collection[etree._Element], drop_tags: Collection[str],
                    joiner: UrlJoiner | None) -> bool:
    """Whether left-out ``el`` gives any record in :func:`typed_blocks` (a line with a word
    character or a picture), read until the first one: its text and its descendants' text
    and tails, the subtrees of hidden and ``drop_tags`` elements passed over (not their
    tails), and its pictures."""
    walker = walk(el)
    for event, node in walker:
        if event == START:
            tag = node.tag
            if tag.__class__ is not str:
                continue
            if tag in drop_tags or node in hidden:
                walker.skip_subtree()
                continue
            if tag == "img" and _image_src(node, joiner):
                return True
            text = node.text
            if text and not text.isspace():
                return True
        elif node is el:
            return False
        else:
            tail = node.tail
            if tail and not tail.isspace():
                return True
    return False


def subtree_events(el: etree._Element, skip: Collection[etree._Element], drop_tags: Collection[str]) -> list[tuple]:
    """The events of ``el``'s subtree as :func:`walk_text` reads them with ``skip`` passed
    over (a ``drop_tags`` or ``skip`` element gives its start and its end, nothing between),
    without making its text."""
    events: list[tuple] = []
    keep = events.append
    walker = walk(el)
    for item in walker:
        keep(item)
        event, node = item
        if event == START:
            if node.tag in drop_tags or node in skip:
                walker.skip_subtree()
        elif node is el:
            break
    return events


def _with_left_out(walked: WalkedText, left_out: Collection[etree._Element], hidden: Collection[etree._Element],
                   drop_tags: Collection[str]) -> list[tuple]:
    """The events of ``walked`` with each left-out element's own events (its subtree without
    hidden and ``drop_tags`` elements) in the place of its start and end."""
    events = walked.events
    pieces: list[list[tuple]] = []
    start = 0
    for k in walked.skipped:
        el = events[k][1]
        if el in hidden or el not in left_out:
            continue
        pieces.append(events[start:k])
        pieces.append(subtree_events(el, hidden, drop_tags))  # (its start to its end)
        start = k + 2  # (the plain walk's next event is that element's end)
    if not pieces:
        return events
    pieces.append(events[start:])
    return [item for piece in pieces for item in piece]


def typed_blocks(
    main: etree._Element,
    left_out: Collection[etree._Element],
    hidden: Collection[etree._Element],
    drop_tags: Collection[str],
    block_tags: Collection[str],
    title: str | None = None,
    base_url: str | None = None,
    walked: WalkedText | None = None,
    left_out_blocks: bool = True,
    marks: list[tuple[int, etree._Element]] | None = None,
    left_out_parts: bool = True,
) -> list[Block]:
    """The blocks of ``main``'s text, in page order.

    The blocks marked as body (``in_body``) hold, in order, exactly the lines of the
    plain walk: ``main``'s text without the subtrees of ``drop_tags`` elements, of
    ``left_out`` and of ``hidden`` elements, a new line at each ``block_tags``
    element's start and end, split at newlines and whitespace-normalised, empty lines
    dropped, and a first line equal to ``title`` (ignoring case) dropped too (pass
    None to keep it).  ``left_out`` elements' own text comes back as blocks marked
    out of the body, typed by :func:`~newsstemmer.leftout.left_out_kind`
    (and :func:`~newsstemmer.leftout.left_out_part`).  Links and pictures are made
    absolute against ``base_url``.  ``walked`` is the plain walk of ``main`` with
    ``left_out`` and ``hidden`` elements passed over, when the caller has it
    (:func:`walk_text`): its events are read again instead of walking the tree twice.
    ``left_out_blocks=False`` gives the body's blocks alone, the same as with the left-out
    parts' (those only end the runs of lines around them), without typing those parts;
    ``marks`` then gets (index in the blocks, element) for each such part.
    ``left_out_parts=False`` does not type left-out parts by their structure
    (:func:`~newsstemmer.leftout.left_out_part`; their lines come out ``boilerplate``, their
    figures and captions are the same: such an element starts its own block in a part too).
    """
    if walked is None:
        walked = walk_text(main, {*left_out, *hidden}, drop_tags, block_tags)
    events = _with_left_out(walked, left_out, hidden, drop_tags) if left_out_blocks else walked.events
    joiner = UrlJoiner(base_url) if base_url else None
    records: list[tuple] = []  # (text, owner, sub, links, all bold) for lines, (None, owner, src, None, False) for pictures
    body, left = _Side(), _Side()
    side = body  # (the side being read: the body, or a left-out part)
    stack: list[tuple[etree._Element, tuple]] = []  # (element, the context outside it)
    out_root: etree._Element | None = None
    out_kind: str | None = None
    out_part: str | None = None  # (a left-out part typed by its structure: "links")
    bold_open: list[etree._Element] = []  # (bold elements whose start was marked)
    for event, el in events:
        tag = el.tag
        if tag.__class__ is not str:  # comments, processing instructions, entities: only a tail
            if event != START:
                tail = el.tail
                if tail:
                    side.parts.append(tail)
            continue
        if event == START:
            if tag in drop_tags or el in hidden:  # (the events hold nothing inside it)
                continue
            if out_root is None and el in left_out:
                if not left_out_blocks:  # (its blocks would part the lines around it: a mark does)
                    if _yields_records(el, hidden, drop_tags, joiner):
                        records.append((None, _PARTED, el, None, False))
                    continue
                out_root, out_kind = el, left_out_kind(el)
                out_part = left_out_part(el) if out_kind == "boilerplate" and left_out_parts else None
                side = left
                # (an inline element's text too)
                side.ctx = (_Owner("paragraph", False, part=out_part) if out_part else _Owner(out_kind, False), None)
            if tag in block_tags:
                if side.parts:
                    _flush(side, records)  # (the plain walk's new line; none at a left-out element's start)
                ctx = side.ctx
                inner = _entered(el, tag, ctx, out_kind, out_part)
                if inner is not None:
                    stack.append((el, ctx))
                    side.ctx = inner
            elif tag == "a":
                _link(el, side, joiner, base_url)
            elif tag == "img":
                src = _image_src(el, joiner)
                if src:
                    records.append((None, side.ctx[0], src, None, False))
            elif tag in BOLD_TAGS:
                side.parts.append(_BOLD_ON)
                bold_open.append(el)
            text = el.text
            if text:
                side.parts.append(text)
        else:
            if el is main:
                break
            if bold_open and bold_open[-1] is el:
                side.parts.append(_BOLD_OFF)
                bold_open.pop()
            if tag in block_tags:
                if side.parts:
                    _flush(side, records)  # (the plain walk's new line)
                if stack and stack[-1][0] is el:
                    side.ctx = stack.pop()[1]
            if el is out_root:
                if side.parts:
                    _flush(side, records)
                out_root = out_kind = out_part = None
                side = body
                if tag in block_tags and body.parts:
                    _flush(body, records)  # (the plain walk's new line after a left-out element)
            tail = el.tail
            if tail:
                side.parts.append(tail)
    if left.parts:
        _flush(left, records)
    if body.parts:
        _flush(body, records)
    if title:
        wanted = _norm(title).lower()
        for k, rec in enumerate(records):
            if rec[0] is not None and (rec[1] is None or rec[1].in_body):
                if rec[0].lower() == wanted:
                    del records[k]
                break
    return _assemble(records, marks)


def _running_text(rec: tuple) -> bool:
    """Whether a record is a line of the body's running text (a paragraph's line)."""
    owner = rec[1]
    return rec[0] is not None and (owner is None or (owner.in_body and owner.kind == "paragraph"))


def bold_headings(lines: Sequence[tuple[str | None, bool, object]],
                  is_bold: Callable[[object], bool] = bool) -> set[int]:
    """The indices of the lines that are headings written as bold lines, each line given as
    (its text, or None for a picture; whether it is a line of the running text; whether all
    its text is bold, or what ``is_bold`` tells it from, asked only where it decides): a
    running-text line all in bold (``<p><strong>...</strong></p>``, or a ``<b>`` alone
    between line breaks), of at most :data:`BOLD_HEADING_WORDS` words, not ending like a
    sentence, and followed by a running-text line that is not all bold (a bold line before
    a list, or one of a run of bold lines, is text set in bold, not a heading).  The
    single-page walk and the layouts' typed blocks share it."""
    found = set()
    for k in range(len(lines) - 1):
        text, running, bold = lines[k]
        if text is None or not running or text.endswith(_SENTENCE_END):
            continue
        _, next_running, next_bold = lines[k + 1]
        if not next_running or not is_bold(bold) or is_bold(next_bold):
            continue
        if k and lines[k - 1][1] and is_bold(lines[k - 1][2]):
            continue
        if len(text.split()) <= BOLD_HEADING_WORDS:
            found.add(k)
    return found


def _assemble(records: list[tuple], marks: list[tuple[int, etree._Element]] | None = None) -> list[Block]:
    """Blocks from line and picture records: one block per run of one owner's lines, a
    bold line that heads the text after it (:func:`bold_headings`) a heading of its own;
    ``marks`` (when given) gets (block index, element) for each left-out part not typed."""
    blocks: list[Block] = []
    heads = (bold_headings([(r[0], _running_text(r), bool(r[4])) for r in records])
             if any(r[4] for r in records) else ())  # (no bold line: no heading to look for)
    k = 0
    n = len(records)
    while k < n:
        owner = records[k][1]
        j = k + 1
        if owner is _PARTED:  # (a left-out part, not typed)
            if marks is not None:
                marks.append((len(blocks), records[k][2]))
            k = j
            continue
        if k in heads:
            blocks.append(Block("heading", records[k][0], level=BOLD_HEADING_LEVEL, links=records[k][3] or (),
                                in_body=True))
            k = j
            continue
        if owner is not None and owner.kind == "figure":  # (its pictures and caption lines, in any order)
            while j < n and records[j][1] is owner:
                j += 1
        elif records[k][0] is not None:
            while j < n and records[j][1] is owner and records[j][0] is not None and j not in heads:
                j += 1
        blocks.append(_block(owner, records[k:j]))
        k = j
    return blocks


#: Kinds that keep their own name inside a left-out part: a picture, its caption or a code
#: listing in a ``links`` part is kept by ``figure``, ``caption`` or ``code``, as anywhere
#: (their elements start blocks of their own there, even inside one of the part's lists).
_OWN_NAME_KINDS = frozenset({"figure", "caption", "code"})
_OWN_NAME_TAGS = frozenset({"figure", "figcaption", "pre"})


def _block(owner: _Owner | None, run: list[tuple]) -> Block:
    block = _plain_block(owner, run)
    if owner is not None and owner.part is not None and block.kind not in _OWN_NAME_KINDS:
        block.part = owner.part
    return block


#: Kinds whose block is more than its lines (:func:`_plain_block`'s general path).
_SHAPED_KINDS = frozenset({"list", "table", "heading", "figure", "caption"})


def _plain_block(owner: _Owner | None, run: list[tuple]) -> Block:
    if owner is not None and owner.kind not in _SHAPED_KINDS and run[0][0] is not None:
        # (a run of text lines of a paragraph-like kind: most blocks; a text run holds no picture)
        if len(run) == 1:
            return Block(owner.kind, run[0][0], links=run[0][3] or (), in_body=owner.in_body)
        return Block(owner.kind, "\n".join([r[0] for r in run]),
                     links=[pair for r in run if r[3] for pair in r[3]], in_body=owner.in_body)
    lines = [r[0] for r in run if r[0] is not None]
    links = [pair for r in run if r[0] is not None and r[3] for pair in r[3]]
    in_body = True if owner is None else owner.in_body
    text = "\n".join(lines)
    if owner is None:
        return Block("paragraph", text, links=links, in_body=True)
    kind = owner.kind
    if lines == [] or kind == "figure":
        pictures = [r for r in run if r[0] is None]
        src = pictures[0][2] if pictures else None
        if src is not None or kind == "figure":
            caption = " ".join(lines)
            return Block("figure", text, src=src, caption=caption or None, links=links, in_body=in_body)
    if kind == "list":
        items, depths, numbered = list_items(
            (r[0], *r[2]) if r[2] else (r[0], None, 0, owner.ordered) for r in run)
        return Block("list", text, items=items, item_depths=depths, item_ordered=numbered,
                     ordered=owner.ordered, links=links, in_body=in_body)
    if kind == "table":
        return Block("table", text, rows=_rows(run), header=_header(run), links=links, in_body=in_body)
    if kind == "heading":
        return Block("heading", text, level=owner.level, links=links, in_body=in_body)
    if kind == "caption" and in_body:
        return Block("caption", text, caption=" ".join(lines), links=links, in_body=True)
    return Block(kind, text, links=links, in_body=in_body)


def _rows(run: list[tuple]) -> list[list[str]]:
    """A table's cells per row, or [] when some of its text sits outside the cells."""
    if any(not r[2] or r[2][1] is None for r in run):
        return []
    return table_rows((r[0], r[2][0], r[2][1]) for r in run)


def list_items(lines: Iterable[tuple[str, object, int, bool]]) -> tuple[list[str], list[int], list[bool]]:
    """Texts with their item element, depth and numbering, in page order, as a list's items
    (texts of one item joined by a space) with each item's depth and numbering; a text
    whose item is None is an item of its own."""
    items: list[str] = []
    depths: list[int] = []
    numbered: list[bool] = []
    last = object()
    for text, item, depth, ordered in lines:
        if item is not None and item is last:
            items[-1] += " " + text
        else:
            items.append(text)
            depths.append(depth)
            numbered.append(ordered)
        last = item
    return items, depths, numbered


def table_rows(cells: Iterable[tuple[str, object, object]]) -> list[list[str]]:
    """Texts with their row and cell elements, in page order, as rows of cell texts: texts
    of one cell are joined by a space, a new row element starts a new row."""
    rows: list[list[str]] = []
    last_row = last_cell = None
    for text, row, cell in cells:
        if row is not last_row or not rows:
            rows.append([])
            last_row, last_cell = row, None
        if cell is last_cell:
            rows[-1][-1] += " " + text
        else:
            rows[-1].append(text)
            last_cell = cell
    return rows


def _header(run: list[tuple]) -> bool:
    """Whether the table's first row is all header cells."""
    first = run[0][2][0] if run and run[0][2] else None
    cells = [r[2] for r in run if r[2] and r[2][0] is first]
    return bool(cells) and all(c[2] for c in cells)
