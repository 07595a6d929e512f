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
from collections.abc import Sequence
from dataclasses import dataclass, field

from lxml import etree

from ..dom.parse import parse_html
from ..dom.text import significant, weight
from ..dom.walk import END, START, element_text, walk
from ..page import Page

__all__ = [
    "BLOCK_TAGS",
    "BlockOptions",
    "LayoutBlock",
    "PageBlocks",
    "block_elements",
    "blocks_of",
    "comment_named",
    "names_comment_thread",
    "page_blocks",
    "path_step",
]

#: Tags that delimit blocks: the original list plus modern sectioning tags.
BLOCK_TAGS = frozenset(
    "title p h1 h2 h3 h4 h5 h6 tr td th dt dd li ul ol dl dir menu pre div center "
    "blockquote table address "
    "article section main header footer nav aside figure figcaption".split()
)
#: Tags whose whole subtree is ignored.
IGNORED_TAGS = frozenset("script style noscript option template svg math iframe".split())
#: Tags that close the current block without opening a new one.
BREAK_TAGS = frozenset(("br", "hr"))
#: Attributes that make up a block element's identity in a path.
KEY_ATTRS = ("id", "class", "align", "valign", "rowspan", "colspan")

_DIGITS = re.compile(r"\d+")
_COMMENT_TOKEN = re.compile(
    r"(comments?|comments?[-_]?(list|body|content|container|text|area|wrap|wrapper|section|thread|holder|block)|commentlist|"
    r"commentcontent|disqus\w*|respond|replies)$"
)
_COMMENT_HINT = re.compile(r"(?i)comment|disqus|respond|repl")
_PER_ITEM = re.compile(r"(tag|category|author|postid|post-format|format|status|type)-")
_TITLE_SEP = re.compile(r"\s[-|:\u2013\u2014\u00ab\u00bb/]+\s|\s*[|\u00ab\u00bb]\s*")


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
        """Significant characters of the block (word characters, lower-cased)."""
        return significant(self.text)


@dataclass
class PageBlocks:
    """A page seen as blocks, plus the page-level signals used to find the title."""

    blocks: list[LayoutBlock]
    title: str = ""
    meta_title: str = ""
    h1: list[str] = field(default_factory=list)
    description: str = ""
    #: Per block, the block elements holding its pieces of text (:func:`block_elements`),
    #: when the segmentation kept them (:func:`blocks_of` does: typed blocks read them).
    elements: list[list[etree._Element]] | None = field(default=None, repr=False, compare=False)

    def __getstate__(self) -> dict:
        return {**self.__dict__, "elements": None}  # (elements of a tree do not pickle)

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


def path_step(tag: str, values: Sequence[str | None], normalise_digits: bool = True) -> str:
    """One step of a block path: ``tag:id=..:class=..`` from the ``KEY_ATTRS`` values
    (``None`` for an absent attribute), lower-cased; with ``normalise_digits``, digits
    become ``#`` and per-item tokens are dropped."""
    parts = [tag]
    for name, value in zip(KEY_ATTRS, values):
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


_COMMENT_NAMED: dict[tuple, bool] = {}


def comment_named(eid: str | None, cls: str | None) -> bool:
    """Whether an element's id or class names it as a reader-comment thread (memoised)."""
    named = _COMMENT_NAMED.get((eid, cls))
    if named is None:
        if len(_COMMENT_NAMED) > 50_000:
            _COMMENT_NAMED.clear()
        named = _COMMENT_NAMED[(eid, cls)] = any(
            value and _COMMENT_HINT.search(value) and any(_COMMENT_TOKEN.match(t) for t in value.lower().split())
            for value in (eid, cls)
        )
    return named


def names_comment_thread(el: etree._Element) -> bool:
    """Whether an element's id or class names it as a reader-comment thread."""
    eid, cls = el.get("id"), el.get("class")
    return bool((eid or cls) and comment_named(eid, cls))


_BLOCK_STEPS: dict[tuple, tuple[str, bool]] = {}


def _block_step(tag: str, normalise_digits: bool, attrs: tuple) -> tuple[str, bool]:
    """Path step and comment-thread naming of a block element from all its attributes
    (``el.items()``: one call instead of six ``get``); memoised, as sites repeat the
    same elements."""
    key = (tag, normalise_digits, attrs)
    step = _BLOCK_STEPS.get(key)
    if step is None:
        if len(_BLOCK_STEPS) > 50_000:
            _BLOCK_STEPS.clear()
        first: dict[str, str] = {}
        for name, value in attrs:
            first.setdefault(name, value)  # (as ``el.get``: the first of a repeated name)
        eid, cls = first.get("id"), first.get("class")
        named = bool(eid or cls) and comment_named(eid, cls)
        step = _BLOCK_STEPS[key] = (path_step(tag, [first.get(n) for n in KEY_ATTRS], normalise_digits), named)
    return step


# What the walk does with each tag, found with one dict look-up per element.  Block
# kinds come first so that ``_BLOCK <= kind <= _H1`` tests "block element".
_INLINE, _BLOCK, _TITLE, _H1, _ANCHOR, _BREAK, _IMG, _META, _SKIP = range(9)
_KINDS: dict[object, int] = {tag: _BLOCK for tag in BLOCK_TAGS}
_KINDS.update(title=_TITLE, h1=_H1, a=_ANCHOR, img=_IMG, meta=_META)
_KINDS.update((tag, _BREAK) for tag in BREAK_TAGS)
_KINDS.update((tag, _SKIP) for tag in IGNORED_TAGS)
# Comments, processing instructions and entities have a factory function as their
# ``tag``: like ignored elements, only their tail is text of the page.
_KINDS.update((factory, _SKIP) for factory in (etree.Comment, etree.ProcessingInstruction, etree.Entity))


def page_blocks(
    doc: str | bytes | etree._Element,
    options: BlockOptions | None = None,
    elements: list[list[etree._Element]] | None = None,
) -> PageBlocks:
    """Cut a page into layout blocks (SPEC §2.1) on the shared walk (deep pages are safe).

    ``doc`` is a parsed tree (``Page.tree``) or HTML to parse.  ``elements``, if given
    (an empty list), receives per block the innermost block elements that hold its
    text (see :func:`block_elements`).  An element's ``text``
    follows its start event and its ``tail`` its end event.  Only the elements whose
    closing changes the walk's state (block elements, links, comment threads) are
    remembered until their end; any other end event only brings a tail.  This is the
    hot loop of extraction, hence the local names and the dispatch by a kind table.
    """
    opts = options or BlockOptions()
    root = doc if isinstance(doc, etree._Element) else parse_html(doc)
    min_weight, path_depth, digits = opts.min_weight, opts.path_depth, opts.normalise_digits
    kinds, comment_names, block_steps = _KINDS, _COMMENT_NAMED, _BLOCK_STEPS
    # Texts of the open block.  Whitespace alone never opens a block; otherwise it is
    # kept as is, since the block's text is normalised by ``split()`` at the end.
    parts: list[str] = []
    plain: list[str] = []  # the same minus anchor texts (so a subsequence of ``parts``)
    paths: list[str] = []  # path steps of the enclosing block elements (each starts with its tag)
    # The blocks as [path, texts, non-empty plain texts, weight, plain weight, tag,
    # in_comments]; with ``merge``, a run of blocks with the same path is one entry,
    # whose texts are joined by "\n" at the end (empty plain texts leave no line).
    runs: list[list] = []
    merge = opts.merge_same_path
    in_anchor = in_comments = 0  # depth of open <a> / comment-thread elements
    title = meta_title = description = ""
    h1: list[str] = []

    def flush(owner: etree._Element | None = None) -> None:
        """End the open block (``parts`` is not empty); keep it if it weighs enough.

        ``owner``: the block element whose end this is (already off ``open_``)."""
        raw = "".join(parts)
        # A text shorter than min_weight cannot weigh enough: no need to weigh it.
        if len(raw) < min_weight or (w := weight(raw)) < min_weight:
            parts.clear()
            plain.clear()
            return
        text = " ".join(raw.split())  # whitespace runs made one space, ends stripped
        if len(plain) == len(parts):  # no anchor text: plain is the same text
            plain_text, plain_w = text, w
        elif plain:
            plain_text = " ".join("".join(plain).split())
            plain_w = weight(plain_text)
        else:  # only anchor text (menus)
            plain_text, plain_w = "", 0
        parts.clear()
        plain.clear()
        path = "/".join(paths[-path_depth:])
        comments = in_comments > 0
        if merge and runs and (run := runs[-1])[0] == path and run[6] == comments:
            # Same path (and comment status) as the block before: merged into it.
            run[1].append(text)
            if plain_text:
                run[2].append(plain_text)
            run[3] += w
            run[4] += plain_w
            if elements is not None:
                elements[-1].append(owner if owner is not None else _innermost_block())
        else:
            tag = paths[-1].partition(":")[0] if paths else ""
            runs.append([path, [text], [plain_text] if plain_text else [], w, plain_w, tag, comments])
            if elements is not None:
                elements.append([owner if owner is not None else _innermost_block()])

    def _innermost_block() -> etree._Element | None:
        """The open block element the text being flushed belongs to (None: outside any)."""
        for el, kind, _ in reversed(open_):
            if _BLOCK <= kind <= _H1:
                return el
        return None

    # The open elements whose end event does more than bring a tail, as
    # (element, kind, named) above a sentinel; ``closing`` is the innermost one's element.
    open_: list[tuple] = [(None, _INLINE, False)]
    closing = None
    walker = walk(root)
    skip_subtree = walker.skip_subtree
    for event, el in walker:
        if event == START:
            tag = el.tag
            kind = kinds.get(tag, _INLINE)
            if kind == _SKIP:
                skip_subtree()  # (its END event brings its tail)
                continue
            if _BLOCK <= kind <= _H1:
                if kind == _TITLE:
                    if not title:
                        title = element_text(el)
                elif kind == _H1 and len(h1) < 3:
                    h1.append(element_text(el))
                if parts:
                    flush()
                attrs = el.items()
                if attrs:
                    step, named = block_steps.get((tag, digits, attrs := tuple(attrs))) or _block_step(tag, digits, attrs)
                else:  # many block elements (td, tr, p) have no attributes at all
                    step, named = tag, False
                paths.append(step)
                open_.append((el, kind, named))
                closing = el
            else:
                eid = el.get("id")
                cls = el.get("class")
                named = False
                if eid or cls:
                    named = comment_names.get((eid, cls))
                    if named is None:
                        named = comment_named(eid, cls)
                if named or kind == _ANCHOR:
                    open_.append((el, kind, named))
                    closing = el
            if named:
                # (A block element has flushed and pushed its path above, so this
                # flush is a no-op for it: the order of the two does not matter.)
                if parts:
                    flush()
                in_comments += 1
            if kind > _H1:
                if kind == _ANCHOR:
                    in_anchor += 1
                elif kind == _BREAK:
                    if parts:
                        flush()
                elif kind == _IMG:
                    if not parts:
                        alt = (el.get("alt") or "").strip()
                        if len(alt) == 1:
                            parts.append(alt)
                            if not in_anchor:
                                plain.append(alt)
                else:  # _META
                    prop = (el.get("property") or el.get("name") or "").lower()
                    if prop in ("og:title", "twitter:title") and not meta_title:
                        meta_title = (el.get("content") or "").strip()
                    elif prop in ("description", "og:description") and not description:
                        description = (el.get("content") or "").strip()
            text = el.text
        elif event == END:
            if el is closing:
                _, kind, named = open_.pop()
                closing = open_[-1][0]
                if kind:
                    if kind <= _H1:
                        if parts:
                            flush(el)
                        paths.pop()
                    elif kind == _ANCHOR:
                        in_anchor -= 1
                if named:
                    if parts:
                        flush()
                    in_comments -= 1
            text = el.tail
        else:  # a comment or processing instruction: only its tail is page text
            text = el.tail
        if text and (parts or not text.isspace()):
            parts.append(text)
            if not in_anchor:
                plain.append(text)
    if parts:
        flush()
    blocks = [
        LayoutBlock(path, "\n".join(texts), "\n".join(plains), w, plain_w, tag, i, comments)
        for i, (path, texts, plains, w, plain_w, tag, comments) in enumerate(runs)
    ]
    return PageBlocks(blocks, title=title, meta_title=meta_title, h1=h1, description=description, elements=elements)


def block_elements(
    root: etree._Element, options: BlockOptions | None = None
) -> tuple[PageBlocks, list[list[etree._Element]]]:
    """The page's layout blocks and, per block, the block elements that hold its text.

    For pictures of what a layout found (``newsstemmer.report``): the same blocks as
    :func:`page_blocks`, each with the innermost enclosing block element of every piece
    merged into it (None for text outside any block element).  The elements belong to
    ``root``, so a caller that marks them should pass a copy of the page's tree.
    """
    found: list[list[etree._Element]] = []
    return page_blocks(root, options, found), found


def layout_weight(block: LayoutBlock) -> int:
    """A block's weight as evidence of layout: reader comments count for nothing."""
    return 0 if block.in_comments else block.weight


def line_digest(line: str) -> str:
    """A short stable digest of a line's significant characters (for pattern files)."""
    return hashlib.blake2b(significant(line).encode("utf-8"), digest_size=8).hexdigest()


def blocks_of(page: Page, options: BlockOptions | None = None) -> PageBlocks:
    """The layout blocks of a :class:`~newsstemmer.page.Page`, cut once per segmenter
    setting from the page's one parsed tree, with the elements of each (``elements``:
    keeping them costs the segmentation nothing measurable, and typed blocks need them)."""
    opts = options or BlockOptions()
    return page.memo(("layout-blocks", opts), lambda: page_blocks(page.tree, opts, []))
