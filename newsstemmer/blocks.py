"""HTML → layout blocks: the flat view of a page that layout learning works on.

A page is read in document order and cut into blocks wherever a block-level
element opens or closes (SPEC §2.1).  Each block remembers the *path* of its
last enclosing block elements (tag plus key attributes), its text, the part of
its text that is not anchor text, and its *weight*: the number of significant
(word) characters.  Consecutive blocks with the same path are merged into one
block, so an article of 8 paragraphs and one of 20 paragraphs have the same
block sequence (choice: otherwise the paragraph count alone would split every
layout into many clusters).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import Iterable

from lxml import etree, html

__all__ = [
    "BLOCK_TAGS",
    "BlockOptions",
    "LayoutBlock",
    "PageBlocks",
    "HTMLParseError",
    "parse_html",
    "page_blocks",
    "significant",
    "weight",
]

#: Tags that delimit blocks: the original list plus modern sectioning tags.
BLOCK_TAGS = frozenset(
    "title p h1 h2 h3 h4 h5 h6 tr td th dt dd li ul ol dl dir menu pre div center "
    "blockquote table address "
    "article section main header footer nav aside figure figcaption".split()
)
#: Tags whose whole subtree is ignored.
IGNORED_TAGS = frozenset("script style noscript option template svg math iframe object".split())
#: Tags that close the current block without opening a new one.
BREAK_TAGS = frozenset(("br", "hr"))
#: Attributes that make up a block element's identity in a path.
KEY_ATTRS = ("id", "class", "align", "valign", "rowspan", "colspan")

_WORD = re.compile(r"\w", re.UNICODE)
_NOT_WORD = re.compile(r"[\W_]+", re.UNICODE)
_SPACE = re.compile(r"\s+")
_DIGITS = re.compile(r"\d+")
_COMMENT_TOKEN = re.compile(
    r"(comments?|comment[-_]?(list|body|content|text|area|wrap|section|thread|s)|commentlist|"
    r"commentcontent|disqus\w*|respond|replies)$"
)
_COMMENT_HINT = re.compile(r"(?i)comment|disqus|respond|repl")
_PER_ITEM = re.compile(r"(tag|category|author|postid|post-format|format|status|type)-")
_TITLE_SEP = re.compile(r"\s[-|:\u2013\u2014\u00ab\u00bb/]+\s|\s*[|\u00ab\u00bb]\s*")


class HTMLParseError(ValueError):
    """The input could not be turned into a document (empty, binary, unparsable)."""


def significant(text: str) -> str:
    """The significant characters of ``text``: its word characters, lower-cased."""
    return _NOT_WORD.sub("", text).lower()


def weight(text: str) -> int:
    """Number of significant characters in ``text`` (SPEC §2.1 ``Weight``)."""
    return len(_NOT_WORD.sub("", text))


@dataclass(frozen=True)
class BlockOptions:
    """Settings of the segmenter; the defaults are those of SPEC §2.1."""

    path_depth: int = 3
    min_weight: int = 5
    normalise_digits: bool = True
    merge_same_path: bool = True


@dataclass
class LayoutBlock:
    """One layout block: path, text, text without anchors, and weight."""

    path: str
    text: str
    plain_text: str
    weight: int
    plain_weight: int
    tag: str = ""
    index: int = 0
    in_comments: bool = False  # inside an element named as a comment thread

    @property
    def sig(self) -> str:
        """Significant characters of the block (used for DiffScore)."""
        return significant(self.text)


@dataclass
class PageBlocks:
    """A page seen as blocks, plus the page-level signals used to find the title."""

    blocks: list[LayoutBlock]
    title: str = ""
    meta_title: str = ""
    h1: list[str] = field(default_factory=list)
    description: str = ""

    @property
    def total_weight(self) -> int:
        return sum(b.weight for b in self.blocks)

    def title_candidates(self) -> list[str]:
        """The page's own statements of its headline (og:title, <title>, h1)."""
        out = [t for t in (self.meta_title, self.title, *self.h1) if t]
        # "<title>" often wraps the headline in the site's name: "Headline - Site".
        for t in (self.title, self.meta_title):
            parts = [p.strip() for p in _TITLE_SEP.split(t)] if t else []
            if len(parts) > 1:
                out.extend(p for p in parts if weight(p) >= 5)
        return out


_ENCODED: dict[tuple, str] = {}


def _encode_element(el: etree._Element, normalise_digits: bool) -> str:
    """``tag:id=..:class=..`` for a path; memoised, as sites repeat the same elements."""
    if not len(el.attrib):
        return el.tag
    key = (el.tag, normalise_digits, *(el.get(n) for n in KEY_ATTRS))
    code = _ENCODED.get(key)
    if code is None:
        if len(_ENCODED) > 50_000:
            _ENCODED.clear()
        code = _ENCODED[key] = _encode_uncached(el, normalise_digits)
    return code


def _encode_uncached(el: etree._Element, normalise_digits: bool) -> str:
    parts = [el.tag]
    for name in KEY_ATTRS:
        value = el.get(name)
        if value is None:
            continue
        tokens = value.lower().split()
        if normalise_digits:
            # Per-article values (WordPress "post-35697 tag-guns") must not make every
            # page a layout of its own: digits become "#", per-item tokens are dropped.
            tokens = [_DIGITS.sub("#", t) for t in tokens if not _PER_ITEM.match(t)]
        value = " ".join(tokens)
        parts.append(f":{name}={value}")
    return "".join(parts)


_PARSER = etree.HTMLParser(remove_comments=True, remove_pis=True, huge_tree=True, recover=True)


def parse_html(text: str | bytes) -> etree._Element:
    """Parse HTML leniently into an lxml tree; raise ``HTMLParseError`` if nothing is left."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    if not text or not text.strip():
        raise HTMLParseError("empty document")
    # lxml refuses str input that carries an XML encoding declaration.
    if text.lstrip().startswith("<?xml"):
        text = re.sub(r"^\s*<\?xml[^>]*>", "", text, count=1)
    text = text.replace("\x00", "")
    try:
        root = html.document_fromstring(text, parser=_PARSER)
    except (etree.ParserError, ValueError) as exc:
        raise HTMLParseError(f"cannot parse HTML: {exc}") from exc
    if root is None:
        raise HTMLParseError("cannot parse HTML: no root element")
    return root


class _Builder:
    """Accumulates text into the current block while the tree is walked."""

    def __init__(self, opts: BlockOptions) -> None:
        self.opts = opts
        self.stack: list[str] = []
        self.tags: list[str] = []
        self.parts: list[str] = []
        self.plain: list[str] = []
        self.blocks: list[LayoutBlock] = []
        self.comment_depth = 0

    def add(self, text: str | None, anchor: bool) -> None:
        if text:
            if text.isspace():
                # Whitespace only separates words: it never starts a block.
                if not self.parts:
                    return
                text = " "
            self.parts.append(text)
            if not anchor:
                self.plain.append(text)

    def flush(self) -> None:
        if not self.parts:
            return
        raw = "".join(self.parts)
        self.parts = []
        w = weight(raw)
        if w < self.opts.min_weight:
            self.plain = []
            return
        text = _SPACE.sub(" ", raw).strip()
        plain = _SPACE.sub(" ", "".join(self.plain)).strip()
        self.plain = []
        path = "/".join(self.stack[-self.opts.path_depth :])
        tag = self.tags[-1] if self.tags else ""
        self.blocks.append(
            LayoutBlock(path, text, plain, w, weight(plain), tag, in_comments=self.comment_depth > 0)
        )


def _names_comments(el: etree._Element) -> bool:
    """Whether an element's id or class names it as a reader-comment thread."""
    if not len(el.attrib):
        return False
    for name in ("id", "class"):
        value = el.get(name)
        if value and _COMMENT_HINT.search(value) and any(_COMMENT_TOKEN.match(t) for t in value.lower().split()):
            return True
    return False


def _text_of(el: etree._Element) -> str:
    return _SPACE.sub(" ", "".join(el.itertext())).strip()


def page_blocks(doc: str | bytes | etree._Element, options: BlockOptions | None = None) -> PageBlocks:
    """Cut a page into layout blocks (SPEC §2.1), iteratively (deep pages are safe)."""
    opts = options or BlockOptions()
    root = doc if isinstance(doc, etree._Element) else parse_html(doc)
    b = _Builder(opts)
    anchor_depth = 0
    title = meta_title = description = ""
    h1: list[str] = []
    comment_elements: set[etree._Element] = set()
    walker = etree.iterwalk(root, events=("start", "end", "comment", "pi"))
    for event, el in walker:
        tag = el.tag
        if not isinstance(tag, str):  # comments, entities, processing instructions
            if event in ("comment", "pi", "end"):
                b.add(el.tail, anchor_depth > 0)
            continue
        if event == "start":
            if tag in IGNORED_TAGS:
                walker.skip_subtree()
                continue
            if tag == "meta":
                prop = (el.get("property") or el.get("name") or "").lower()
                if prop in ("og:title", "twitter:title") and not meta_title:
                    meta_title = (el.get("content") or "").strip()
                elif prop in ("description", "og:description") and not description:
                    description = (el.get("content") or "").strip()
            elif tag == "title" and not title:
                title = _text_of(el)
            elif tag == "h1" and len(h1) < 3:
                h1.append(_text_of(el))
            if _names_comments(el):
                b.flush()
                b.comment_depth += 1
                comment_elements.add(el)
            if tag in BLOCK_TAGS:
                b.flush()
                b.stack.append(_encode_element(el, opts.normalise_digits))
                b.tags.append(tag)
            elif tag in BREAK_TAGS:
                b.flush()
            elif tag == "a":
                anchor_depth += 1
            elif tag == "img":
                alt = (el.get("alt") or "").strip()
                if len(alt) == 1 and not b.parts:
                    b.add(alt, anchor_depth > 0)
            b.add(el.text, anchor_depth > 0)
        else:
            if tag in IGNORED_TAGS:
                b.add(el.tail, anchor_depth > 0)
                continue
            if tag in BLOCK_TAGS:
                b.flush()
                b.stack.pop()
                b.tags.pop()
            elif tag == "a":
                anchor_depth = max(0, anchor_depth - 1)
            if el in comment_elements:
                b.flush()
                b.comment_depth -= 1
            b.add(el.tail, anchor_depth > 0)
    b.flush()
    blocks = _merge_same_path(b.blocks) if opts.merge_same_path else b.blocks
    for i, block in enumerate(blocks):
        block.index = i
    return PageBlocks(blocks, title=title, meta_title=meta_title, h1=h1, description=description)


def _merge_same_path(blocks: Iterable[LayoutBlock]) -> list[LayoutBlock]:
    out: list[LayoutBlock] = []
    for block in blocks:
        last = out[-1] if out else None
        if last is not None and last.path == block.path and last.in_comments == block.in_comments:
            last.text = f"{last.text}\n{block.text}"
            last.plain_text = f"{last.plain_text}\n{block.plain_text}".strip("\n")
            last.weight += block.weight
            last.plain_weight += block.plain_weight
        else:
            out.append(block)
    return out


def layout_weight(block: LayoutBlock) -> int:
    """A block's weight as evidence of layout: reader comments count for nothing."""
    return 0 if block.in_comments else block.weight


def line_digest(line: str) -> str:
    """A short stable digest of a line's significant characters (for pattern files)."""
    return hashlib.blake2b(significant(line).encode("utf-8"), digest_size=8).hexdigest()
