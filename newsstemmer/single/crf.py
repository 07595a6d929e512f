"""Single-page extraction by CRF labelling with hierarchical consistency (SPEC §5).

A page is cut into blocks at ``body``, ``div``, ``p``, ``td`` and the modern
sectioning tags, in document order.  Two sequences come out of it: *text
blocks* (blocks with text of their own) and *parent blocks* (their ancestors
with no text of their own).  A linear-chain CRF per sequence gives every block
its marginal probability of being content (first pass).  The second pass
restores consistency between a block and its children, bottom-up over the
block tree::

    ratio = (R1(b) + Σ_c R2(c)) / (|C(b)| + 1)
    ratio > upper  →  b and its children are content
    ratio < lower  →  b is not content (children unchanged)
    otherwise      →  R2(b) = R1(b)

Then the article is kept in one piece: content text blocks outside the subtree
that holds most of the likely content are dropped unless the CRF is sure of
them (:func:`article_region`), teaser listings are dropped
(:func:`teaser_blocks`), and plain text enclosed by content is content
(:func:`_fill_gaps`).  Among the features, the block's place relative
to the main block that DOM PageRank + DensitySum (SPEC §4) finds, computed on
the block tree (each line a leaf) so that it costs little.

The body is the text of the content text blocks, in document order; the
title comes from the page's own headline signals (og:title, h1-h3, <title>).

The CRF needs labelled pages.  Instead of labelling by hand, newsstemmer
labels the pages its learned layout patterns match: text in MAIN and TITLE
sections is content, the rest (static sections, boxes) is not
(:func:`pattern_labels`).  :func:`train` writes a model file: a zip archive
holding ``meta.json`` and one crfsuite model per sequence.  A small default
model trained that way on the development sites ships in
``newsstemmer/models/`` (``benchmarks/train_crf.py`` rebuilds it).
"""

from __future__ import annotations

import io
import json
import os
import re
import tempfile
import zipfile
import zlib
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lxml import etree

from ..dom.text import ASCII_NOT_WORD, NOT_WORD
from ..dom.parse import parse_html

if TYPE_CHECKING:
    from ..page import Page
    from ..layout.patterns import SitePatterns

__all__ = [
    "CRFBlock",
    "CRFExtractor",
    "CRFModelError",
    "CRFPage",
    "DEFAULT_MODEL",
    "DEFAULT_SPLIT_TAGS",
    "LabelledBlock",
    "PAPER_SPLIT_TAGS",
    "TrainingPage",
    "block_features",
    "pattern_labels",
    "relabel",
    "segment",
    "teaser_blocks",
    "train",
]

#: The shipped model (trained by ``benchmarks/train_crf.py``).
DEFAULT_MODEL = Path(__file__).resolve().parent.parent / "models" / "crf-default.zip"
MODEL_FORMAT = "newsstemmer-crf"
MODEL_VERSION = 1
#: Changes whenever the features change: a model only fits the features it was trained on.
FEATURE_VERSION = 2

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
_CONTEXT_TAGS = frozenset(
    "a li ul ol table form blockquote pre header footer nav aside article main section figure "
    "h1 h2 h3 h4 h5 h6 strong b em i small label dl".split()
)
#: Words in ``id``/``class`` values that hint at a block's role.
_HINTS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(rx))
    for name, rx in (
        ("content", r"content|body|text|entry|story|main"),
        ("article", r"article|post|blog"),
        ("comment", r"comment|disqus|respon|repl"),
        ("nav", r"nav|menu|breadcrumb|crumb|pagination|pager|paging"),
        ("header", r"header|masthead|banner|top"),
        ("footer", r"footer|bottom|copyright|legal"),
        ("side", r"sidebar|side|rail|widget|aside|column|col-"),
        ("sidebar", r"sidebar|widget|(^|[^a-z])aside|(^|[^a-z])rail([^a-z]|$)"),
        ("related", r"related|recommend|popular|trending|more|also|teaser|promo|outbrain|taboola"),
        ("share", r"share|social|sharing|facebook|twitter|tweet|follow"),
        ("ad", r"(^|[^a-z])ads?([^a-z]|$)|advert|sponsor|banner|dfp|gpt"),
        ("meta", r"meta|byline|author|date|time|dateline|info"),
        ("caption", r"caption|credit|photo|image|img|figure|media|video|gallery"),
        ("tags", r"tags?([^a-z]|$)|categor|topic|keyword"),
        ("title", r"title|headline|heading|head([^a-z]|$)"),
        ("form", r"search|login|signin|subscribe|newsletter|signup|register|form"),
        ("hidden", r"hidden|hide|display-none|sr-only|visually"),
    )
)
#: Footer / menu words of the page text (counted per block, as words), by the name of
#: their feature; then word pairs; then what ``\w+`` cannot split (©, Japanese).
_KW_WORDS = {
    **dict.fromkeys(("copyright",), "copyright"),
    **dict.fromkeys(("privacy",), "privacy"),
    **dict.fromkeys(("cookie", "cookies"), "cookie"),
    **dict.fromkeys(("contact",), "contact"),
    **dict.fromkeys(("login", "logout", "signin"), "login"),
    **dict.fromkeys(("register", "subscribe", "newsletter", "signup"), "subscribe"),
    **dict.fromkeys(("share", "tweet", "facebook", "twitter", "email", "digg", "reddit"), "share"),
    **dict.fromkeys(("print",), "print"),
    **dict.fromkeys(("related", "recommended", "popular"), "related"),
    **dict.fromkeys(("advertisement", "advertise", "sponsored", "ad", "ads"), "advertisement"),
    **dict.fromkeys(("menu", "navigation"), "menu"),
    **dict.fromkeys(("home", "homepage"), "home"),
    **dict.fromkeys(("search",), "search"),
    **dict.fromkeys(("comment", "comments", "reply", "permalink", "trackback", "trackbacks"), "comments"),
    **dict.fromkeys(("tags", "tag", "categories", "category", "filed"), "tags"),
    **dict.fromkeys(("archive", "archives"), "archive"),
    **dict.fromkeys(("previous", "next", "prev", "older", "newer"), "previous"),
    **dict.fromkeys(("rss", "feed"), "rss"),
}
_KW_PAIRS = {
    ("all", "rights"): "copyright", ("rights", "reserved"): "copyright", ("powered", "by"): "copyright",
    ("terms", "of"): "terms", ("terms", "and"): "terms", ("contact", "us"): "contact", ("about", "us"): "contact",
    ("log", "in"): "login", ("sign", "in"): "login", ("sign", "up"): "subscribe", ("e", "mail"): "share",
    ("follow", "us"): "share", ("skip", "to"): "menu", ("back", "to"): "menu", ("read", "more"): "read more",
    ("continue", "reading"): "read more", ("more", "stories"): "related", ("posted", "by"): "posted by",
}
_KW_WORD_SET = frozenset(_KW_WORDS)
_KW_OTHER = re.compile(r"©|著作権|無断転載|利用規約|プライバシー|お問い合わせ|ログイン|推奨環境|トップ|ホーム|関連")
_KW_OTHER_NAMES = {
    "©": "copyright", "著作権": "copyright", "無断転載": "copyright", "推奨環境": "copyright",
    "利用規約": "terms", "プライバシー": "privacy", "お問い合わせ": "contact", "ログイン": "login",
    "トップ": "home", "ホーム": "home", "関連": "related",
}


_KW_FIRSTS = frozenset(a for a, _ in _KW_PAIRS)
_KW_SECONDS = frozenset(b for _, b in _KW_PAIRS)


def _keywords(words: list[str], word_set: set[str], low: str) -> tuple[int, set[str]]:
    """How many footer / menu keywords a block's words (lower case) hold, and their
    feature names.  ``word_set`` is ``set(words)``: the look-ups start from it, and
    the word pairs are only walked if both words of some pair occur."""
    names: set[str] = set()
    n = 0
    hit = _KW_WORD_SET.intersection(word_set)
    if hit:
        for word in hit:
            n += words.count(word)
            names.add(_KW_WORDS[word])
    if not _KW_FIRSTS.isdisjoint(word_set) and not _KW_SECONDS.isdisjoint(word_set):
        pairs = _KW_PAIRS
        for pair in zip(words, words[1:]):
            k = pairs.get(pair)
            if k:
                n += 1
                names.add(k)
    if not low.isascii():  # (© included)
        for m in _KW_OTHER.findall(low):
            n += 1
            names.add(_KW_OTHER_NAMES[m])
    return n, names


#: Dates and times: 12:30, 2009-05-01, 5/1/2009, may 1, 1 may, 3 hours ago, 2009年5月1日
#: (matched in lower-cased text that has digits).
_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
_TIME_PLAIN = re.compile(
    r"\d{1,2}:\d\d|\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}|"
    rf"\b{_MONTH} \d{{1,2}}\b|\b\d{{1,2}} {_MONTH}(?![a-z])|"
    r"\d+ (?:seconds?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?) ago|"
    r"\d{4}年\d{1,2}月|\d{1,2}月\d{1,2}日|\d{1,2}時\d{1,2}分"
)
#: The same matches as ``_TIME_PLAIN`` (what ``findall`` gives is identical), several times
#: faster: re only skips ahead quickly to the possible first characters of a pattern that
#: starts with a character class.  So the first character (a digit, or a month's first
#: letter) is matched once up front, and each alternative checks it by look-behind and
#: matches its remainder; a digit and a letter never start the same match, so the order
#: of the alternatives that can compete is unchanged.  ``\b`` before that first (word)
#: character becomes "no word character before it".
_MONTH_REST = (
    r"(?:(?<=j)an|(?<=f)eb|(?<=m)ar|(?<=a)pr|(?<=m)ay|(?<=j)un|(?<=j)ul|(?<=a)ug|(?<=s)ep|(?<=s)ept|"
    r"(?<=o)ct|(?<=n)ov|(?<=d)ec)[a-z]*\.?"
)
_TIME = re.compile(
    r"[\djfmasond](?:(?<=\d)(?:"
    r"\d?:\d\d|\d{3}[-/.]\d{1,2}[-/.]\d{1,2}|\d?[-/.]\d{1,2}[-/.]\d{2,4}|"
    rf"(?<!\w\d)\d? {_MONTH}(?![a-z])|"
    r"\d* (?:seconds?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?) ago|"
    r"\d{3}年\d{1,2}月|\d?月\d{1,2}日|\d?時\d{1,2}分"
    rf")|(?<!\w[a-z]){_MONTH_REST} \d{{1,2}}\b)"
)
_TOKEN = re.compile(r"\w+")
_TITLE_SEP = re.compile(r"\s[-|:\u2013\u2014\u00ab\u00bb/\u00b7]+\s|\s*[|\u00ab\u00bb]\s*")


class CRFModelError(ValueError):
    """A CRF model file is missing, unreadable, corrupt, or not a newsstemmer CRF model."""


# -- the page as blocks ------------------------------------------------------------------------


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


_HINT_CACHE: dict[str, tuple[str, ...]] = {}
_WORD_HINT_CACHE: dict[str, frozenset[str]] = {}
_HINT_ORDER = tuple(name for name, _ in _HINTS)


def _trie_pattern(words: Iterable[str]) -> str:
    """A regex alternation of ``words`` written as a trie (``side(?:bar)?|...``).

    At a given position it matches the longest of the words that starts there, and
    trying it costs about one branch per distinct first letter instead of one per word.
    """
    root: dict[str, dict] = {}
    for word in words:
        node = root
        for c in word:
            node = node.setdefault(c, {})
        node[""] = {}  # (a word ends here)

    def pattern(node: dict[str, dict]) -> str:
        alts = [re.escape(c) + pattern(child) for c, child in sorted(node.items()) if c]
        if not alts:
            return ""
        body = alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"
        if "" in node:  # the longer words first (greedy), else the word that ends here
            body = ("(?:" + body + ")" if len(alts) == 1 else body) + "?"
        return body

    return pattern(root)


def _hint_scanner(
    hints: Sequence[tuple[str, re.Pattern[str]]],
) -> tuple[re.Pattern[str], dict[str, tuple[frozenset[str], tuple[str, ...]]], tuple[str, ...]]:
    """One regex pass that finds what searching a name with each hint pattern finds.

    Most hint patterns are alternations of plain words.  All those words go into one
    regex that, at every position of a name, captures the longest word that starts
    there (inside a lookahead, so that overlapping words are all seen).  Any other
    word that starts at the same position is a prefix of that one, so each word maps
    to the hints of itself and of its listed prefixes.  An alternative of the form
    ``(context)word(context)`` (``(^|[^a-z])ads?([^a-z]|$)``) gives its word (``ad``)
    as a guard: a name where the guard occurs is searched with that hint's own
    pattern, which decides.  A hint with any other alternative, or with flags, is
    always searched with its pattern.

    Returns the scanner, ``{word: (hints, guarded hints)}``, and the always-searched hints.
    """
    plain = re.compile(r"[a-z0-9_-]+")
    guarded = re.compile(r"(?:\([^()]*\))?([a-z0-9_-]+?)(?:[a-z0-9_-]\?)?(?:\([^()]*\))?")
    direct: dict[str, set[str]] = {}
    guards: dict[str, set[str]] = {}
    always: list[str] = []
    for name, rx in hints:
        alternatives, depth, start = [], 0, 0  # split at the top-level "|"
        for i, c in enumerate(rx.pattern):
            if c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
            elif c == "|" and not depth:
                alternatives.append(rx.pattern[start:i])
                start = i + 1
        alternatives.append(rx.pattern[start:])
        if rx.flags != re.UNICODE or any(
            not plain.fullmatch(a) and not guarded.fullmatch(a) for a in alternatives
        ):
            always.append(name)
            continue
        for a in alternatives:
            if plain.fullmatch(a):
                direct.setdefault(a, set()).add(name)
            else:
                guards.setdefault(guarded.fullmatch(a).group(1), set()).add(name)  # type: ignore[union-attr]
    words = direct.keys() | guards.keys()
    table = {
        word: (
            frozenset().union(*(direct.get(word[:k], ()) for k in range(1, len(word) + 1))),
            tuple(sorted(set().union(*(guards.get(word[:k], ()) for k in range(1, len(word) + 1))))),
        )
        for word in words
    }
    return re.compile(f"(?=({_trie_pattern(words)}))"), table, tuple(always)


_HINT_SCAN, _HINT_WORDS, _HINT_ALWAYS = _hint_scanner(_HINTS)
_HINT_PATTERNS = dict(_HINTS)


def _word_hints(word: str) -> frozenset[str]:
    """Role hints of one whitespace-free id/class name (memoised).

    No hint pattern spans whitespace, so a value's hints are the union of its
    names' hints; names recur across sites far more than whole values do.  The
    hints are those of the patterns that ``search`` the lower-cased name,
    found in one pass (:func:`_hint_scanner`).
    """
    found = _WORD_HINT_CACHE.get(word)
    if found is None:
        if len(_WORD_HINT_CACHE) > 50_000:
            _WORD_HINT_CACHE.clear()
        low = word.lower()
        names: set[str] = set()
        check = _HINT_ALWAYS
        for w in _HINT_SCAN.findall(low):
            direct, guarded = _HINT_WORDS[w]
            names |= direct
            if guarded:
                check += guarded
        for name in check:
            if name not in names and _HINT_PATTERNS[name].search(low):
                names.add(name)
        found = _WORD_HINT_CACHE[word] = frozenset(names)
    return found


def _hints(value: str) -> tuple[str, ...]:
    """Role hints of an id/class value, in ``_HINTS`` order (memoised)."""
    found = _HINT_CACHE.get(value)
    if found is None:
        if len(_HINT_CACHE) > 50_000:
            _HINT_CACHE.clear()
        names: set[str] = set()
        for word in value.split():
            names |= _word_hints(word)
        found = _HINT_CACHE[value] = tuple(n for n in _HINT_ORDER if n in names) if names else ()
    return found


def _element_hints(el: etree._Element) -> tuple[str, ...]:
    """Role hints of an element's id and class values (:func:`_hints`)."""
    eid, cls = el.get("id"), el.get("class")
    if eid:
        value = f"{eid} {cls}" if cls else eid
    elif cls:
        value = cls
    else:
        return ()
    found = _HINT_CACHE.get(value)  # (the memo of _hints, looked up here: a call less)
    return _hints(value) if found is None else found


# What the walk does with each element, found with one dict look-up.
# Inline kinds come first so that ``kind <= _ANCHOR_OR_COUNT`` tests "inline element".
_INLINE, _COUNT, _ANCHOR, _SPLIT, _LINE, _LINE_CTX, _HEADING, _BREAK, _SKIP = range(9)
_ANCHOR_OR_COUNT = _ANCHOR
_KINDS_CACHE: dict[frozenset[str], dict[object, int]] = {}


def _kinds(split: frozenset[str]) -> dict[object, int]:
    kinds = _KINDS_CACHE.get(split)
    if kinds is None:
        kinds = {}
        kinds.update((t, _COUNT) for t in _COUNTED)
        kinds.update((t, _LINE) for t in LINE_TAGS)
        kinds.update((t, _LINE_CTX) for t in LINE_TAGS & _CONTEXT_TAGS)
        kinds.update((t, _HEADING) for t in _HEADINGS)
        kinds.update(br=_BREAK, hr=_BREAK, a=_ANCHOR)
        kinds.update((t, _SKIP) for t in IGNORED_TAGS)
        kinds.update((f, _SKIP) for f in (etree.Comment, etree.ProcessingInstruction, etree.Entity))
        kinds.update((t, _SPLIT) for t in split)
        _KINDS_CACHE[split] = kinds
    return kinds


def segment(doc: str | bytes | etree._Element, split_tags: Iterable[str] = DEFAULT_SPLIT_TAGS) -> CRFPage:
    """Cut a page into blocks at ``split_tags`` (depth-first order), iteratively.

    Comments, scripts, styles and other non-text elements are dropped (the
    document's normalisation).  A page without ``<body>`` is read from its root.
    This walk is the hot loop of CRF extraction, hence the inlined code.
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
                title = " ".join("".join(el.itertext()).split())
        elif tag == "meta":
            name = (el.get("property") or el.get("name") or "").lower()
            if not meta_title and name in ("og:title", "twitter:title"):
                meta_title = " ".join((el.get("content") or "").split())
            elif not description and name in ("description", "og:description"):
                description = " ".join((el.get("content") or "").split())
        elif len(headings) < _MAX_HEADINGS:
            text = " ".join("".join(el.itertext()).split())
            if text and len(text) <= _SHORT:
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

    blocks.append(CRFBlock(0, "body", -1, 0, 0, _element_hints(body), frozenset(), frozenset(), 0))
    current = 0
    counts = blocks[current].counts  # those of the current block
    if body.text:
        parts.append(body.text)
    # The walk follows ``body.iter()`` (document order, iterated in C: cheaper than an
    # iterator per element).  Elements other than inline leaves stay open on ``stack``
    # (element, its kind, block it opened or -1) until an element whose parent is not
    # the innermost open one shows that they have closed.  ``body`` comes once more at
    # the end, to close them all.
    stack: list[tuple[Any, int, int]] = [(body, _INLINE, -1)]
    top = body
    walk = chain(body.iter(), (body,))
    next(walk)  # (body itself)
    for el in walk:
        parent = el.getparent()
        if parent is not top:
            if el is body:  # the end of the walk
                parent = body
            while parent is not top:
                # --- the innermost open element closes
                closed, kind, opened = stack.pop()
                top = stack[-1][0]
                if kind:
                    if kind == _SPLIT:
                        if parts:
                            flush()
                        current = blocks[opened].parent
                        counts = blocks[current].counts
                    elif kind == _ANCHOR:
                        in_anchor -= 1
                    elif kind != _COUNT:
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
                text = closed.tail
                if text and (parts or not text.isspace()):
                    parts.append(text)
                    if in_anchor:
                        anchor_parts.append(text)
                    if in_heading:
                        heading_parts.append(text)
            if el is body:
                break
        tag = el.tag
        kind = kinds.get(tag, _INLINE)
        if kind == _SKIP:
            if len(el):  # its descendants are skipped: as many items of the walk (consumed in C)
                deque(zip(el.iterdescendants(), walk), 0)
            text = el.tail
            if text and (parts or not text.isspace()):
                parts.append(text)
                if in_anchor:
                    anchor_parts.append(text)
                if in_heading:
                    heading_parts.append(text)
            continue
        if kind <= _ANCHOR_OR_COUNT and not len(el):
            # Fast path for the most common elements: inline leaves (a, img, span...).
            if kind:  # (an anchor's tag is "a")
                counts[tag] = counts.get(tag, 0) + 1
            text = el.text
            if text and (parts or not text.isspace()):
                parts.append(text)
                if in_anchor or kind == _ANCHOR:
                    anchor_parts.append(text)
                if in_heading:
                    heading_parts.append(text)
            text = el.tail
            if text and (parts or not text.isspace()):
                parts.append(text)
                if in_anchor:
                    anchor_parts.append(text)
                if in_heading:
                    heading_parts.append(text)
            continue
        # --- el opens (a leaf too: it closes as the next element comes)
        opened = -1
        if kind:
            if kind == _SPLIT:
                if parts:
                    flush()
                # A new block, in the current one.
                p = blocks[current]
                key = (current, open_serials[-1]) if open_ctx else current
                ctx = child_context.get(key)
                if ctx is None:
                    ctx_tags = p.context_tags
                    if p.tag in _CONTEXT_TAGS:
                        ctx_tags = ctx_tags | {p.tag}
                    if open_ctx:
                        ctx_tags = ctx_tags.union(open_ctx)
                    ctx_hints = p.context_hints.union(p.hints) if p.hints else p.context_hints
                    if open_hints:
                        ctx_hints = ctx_hints.union(*[_element_hints(e) for e in open_hints])
                    ctx = child_context[key] = (ctx_hints, ctx_tags)
                opened = len(blocks)
                blocks.append(
                    CRFBlock(
                        opened, tag, current, len(stack), p.block_depth + 1, _element_hints(el), ctx[0], ctx[1],
                        len(line_raw),
                    )
                )
                p.children.append(opened)
                if tag == "td" or tag == "th":
                    cells.append((opened, el))
                current = opened
                counts = blocks[opened].counts
            elif kind == _ANCHOR:
                in_anchor += 1
                counts["a"] = counts.get("a", 0) + 1
            elif kind == _COUNT:
                counts[tag] = counts.get(tag, 0) + 1
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
        stack.append((el, kind, opened))
        top = el
    if parts:
        flush()
    page = _finish(blocks, cells, line_block, line_raw, line_anchor, line_heading, title, meta_title, h1)
    page.description = description
    page.headings = headings
    return page


_NON_ASCII = re.compile(r"[^\x00-\x7f]+")


def _weight(text: str) -> int:
    """``weight(text)``, faster on text that is mostly ASCII (curly quotes, dashes, accents).

    The weight counts the alphanumeric characters, so it is the sum of that of the
    ASCII characters (counted by deleting the others from the bytes) and that of the
    other characters (counted by the regex, on them alone).
    """
    if text.isascii():
        return len(text.encode("ascii").translate(None, ASCII_NOT_WORD))
    return len(text.encode("ascii", "ignore").translate(None, ASCII_NOT_WORD)) + len(
        NOT_WORD.sub("", "".join(_NON_ASCII.findall(text)))
    )


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
        # (weight() inlined for ASCII text, the common case)
        w = len(text.encode("ascii").translate(None, ASCII_NOT_WORD)) if text.isascii() else _weight(text)
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
            aw = w if anchor == raw else _weight(anchor)
            blk.anchor_weight += aw
            line_weights.append((w, aw))
        else:
            line_weights.append((w, 0))
        if heading:
            blk.heading_weight += w if heading == raw else _weight(heading)
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


# -- features --------------------------------------------------------------------------------


def _names(prefix: str, n: int) -> tuple[str, ...]:
    return tuple(f"{prefix}={i}" for i in range(n))


# Feature names per bucket, made once (formatting them per block is a hot spot).
_POS, _PUR = _names("pos", 10), _names("pur", 11)
_SW, _W, _NW, _WPL = _names("sw", 15), _names("w", 15), _names("nw", 15), _names("wpl", 15)
_SWR, _SLD, _WR, _WSUB, _LD, _HW = (_names(p, 11) for p in ("swr", "sld", "wr", "wsub", "ld", "hw"))
_DIG, _KWD, _PSW, _PSLD = (_names(p, 11) for p in ("dig", "kwd", "psw", "psld"))
_COUNT_BUCKETS = ("0", "1", "2", "3-4", "3-4", "5-9", "5-9", "5-9", "5-9", "5-9")


def _log_bucket(n: float) -> int:
    """0, 1, 2-3, 4-7, ... as 0, 1, 2, 3, ... (capped at 14)."""
    return min(14, int(n).bit_length()) if n > 0 else 0


_SHARE_INNER = (1, 1, 2, 3, 4, 5, 6, 7, 8, 9)  # int(10x) -> bucket, for 0 < x < 1


def _share_bucket(x: float) -> int:
    """A share in [0, 1] as 0..10 (0 only for exactly 0, 10 only for 1)."""
    if x <= 0:
        return 0
    if x >= 1:
        return 10
    return _SHARE_INNER[int(x * 10)]


def _count_names(prefix: str) -> tuple[str, ...]:
    """``prefix=bucket`` for counts 0..9 and, at index 10, for 10 and more:
    ``names[n if n < 10 else 10]`` is ``prefix + "=" + _count_bucket(n)`` for n ≥ 0."""
    return tuple(f"{prefix}={_count_bucket(n)}" for n in range(11))


def _count_bucket(n: int) -> str:
    """0, 1, 2, 3-4, 5-9, 10+."""
    if n <= 0:
        return "0"
    return _COUNT_BUCKETS[n] if n < 10 else "10+"


_NCH, _STB, _SA, _SLI, _SP, _PU, _SE, _NL, _PSTB = (
    _count_names(p) for p in ("nch", "stb", "sa", "sli", "sp", "pu", "se", "nl", "pstb")
)


_KWN, _TM = _count_names("kwn"), _count_names("tm")

# Feature strings made once and looked up (string building per block is a hot spot).
_TAG_NAMES: dict[str, tuple[str, str]] = {}  # tag -> ("tag=t", "ptag=t")
_CONTEXT_NAMES: dict[tuple[Any, ...], tuple[str, ...]] = {}  # (hints, ctx hints, ctx tags) -> h=, ch=, in=
_COUNTED_NAMES: dict[str, tuple[str, ...]] = {}  # element -> "n<element>=<bucket>" by count (as _count_names)
_KW_NAMES: dict[str, str] = {}  # keyword feature name -> "kw=name"
_END_NAMES: dict[str, str] = {}  # last character of the text -> "end=..."


def _tag_names(tag: str) -> tuple[str, str]:
    found = _TAG_NAMES.get(tag)
    if found is None:
        if len(_TAG_NAMES) > 1_000:
            _TAG_NAMES.clear()
        found = _TAG_NAMES[tag] = ("tag=" + tag, "ptag=" + tag)
    return found


def _context_names(b: CRFBlock) -> tuple[str, ...]:
    """The block's hint and context features (memoised: blocks of a page share their context)."""
    key = (b.hints, b.context_hints, b.context_tags)
    found = _CONTEXT_NAMES.get(key)
    if found is None:
        if len(_CONTEXT_NAMES) > 20_000:
            _CONTEXT_NAMES.clear()
        # (context in sorted order: the order features first appear in fixes crfsuite's
        # attribute numbering, so set order, which changes with the hash seed, would change the model)
        found = _CONTEXT_NAMES[key] = (
            *("h=" + h for h in b.hints),
            *("ch=" + h for h in sorted(b.context_hints)),
            *("in=" + t for t in sorted(b.context_tags)),
        )
    return found


def _counted_names(name: str) -> tuple[str, ...]:
    found = _COUNTED_NAMES.get(name)
    if found is None:
        found = _COUNTED_NAMES[name] = _count_names("n" + name)
    return found


def _end_name(last: str) -> str:
    found = _END_NAMES.get(last)
    if found is None:
        if len(_END_NAMES) > 10_000:
            _END_NAMES.clear()
        found = _END_NAMES[last] = "end=" + (last if last in ".!?:;,)\"" else "w" if last.isalnum() else "o")
    return found


def _common_features(b: CRFBlock, blocks: list[CRFBlock], total: int) -> list[str]:
    """Features every block has: tag, place in the tree and the page, hints, subtree text.

    A block's features are the names of its active (1.0) attributes.
    """
    sub = b.sub_weight
    tag = _TAG_NAMES.get(b.tag) or _tag_names(b.tag)
    if b.parent >= 0:
        ptag = _TAG_NAMES.get(t := blocks[b.parent].tag) or _tag_names(t)
        ptag = ptag[1]
    else:
        ptag = "ptag=-"
    # (the buckets inlined: _log_bucket(sub) and _share_bucket(x))
    x = sub / total
    y = b.sub_anchor_weight / sub if sub else 0.0
    f = [
        "bias",
        tag[0],
        ptag,
        _POS[min(9, 10 * b.start // total)],
        _SW[min(14, sub.bit_length()) if sub > 0 else 0],
        _SWR[0 if x <= 0 else 10 if x >= 1 else _SHARE_INNER[int(x * 10)]],
        _SLD[0 if y <= 0 else 10 if y >= 1 else _SHARE_INNER[int(y * 10)]],
        _NCH[nch if (nch := len(b.children)) < 10 else 10],
        _STB[n if (n := b.sub_text_blocks) < 10 else 10],
        _SA[n if (n := b.sub_links) < 10 else 10],
        _SLI[n if (n := b.sub_items) < 10 else 10],
        _SP[n if (n := b.sub_paragraphs) < 10 else 10],
    ]
    if b.hints or b.context_hints or b.context_tags:
        f += _context_names(b)
    if b.table is not None:
        row, col, rows, cols = b.table
        f += ("trow=" + _count_bucket(row), "tcol=" + _count_bucket(col),
              "trows=" + _count_bucket(rows), "tcols=" + _count_bucket(cols))
    return f


#: Punctuation, counted per block.
_PUNCT_CHARS = ",.;:!?\u3001\u3002\uff0c\uff0e\uff01\uff1f\u060c"
#: Text longer than this weight is searched for keywords and dates only in its
#: first and last ``_EDGES`` characters, where bylines, dates and "reply" / "share"
#: buttons sit (the searches were most of the feature time; F1 unchanged).
_SHORT = 300  # (also the longest text compared with the page's headline signals)
_EDGES = 150
_HAS_DIGIT = re.compile(r"\d")


def _text_features(
    b: CRFBlock, blocks: list[CRFBlock], total: int, title_words: Sequence[set[str]]
) -> tuple[list[str], float, set[str]]:
    """Features of a block's own text (amount, punctuation, links, keywords, dates),
    its likeness to the headline signals, and its words (of its edges if long)."""
    text = b.text
    low = text.lower()
    w = b.weight
    nlines = len(b.segments)
    words = low.count(" ") + nlines
    if text.isascii():  # (bytes.translate is several times faster)
        raw = text.encode("ascii")
        punct = len(raw) - len(raw.translate(None, b",.;:!?"))
        digits = len(raw) - len(raw.translate(None, b"0123456789"))
    else:  # (what str.translate would delete, counted: much faster than translating)
        count = text.count
        punct = sum(map(count, _PUNCT_CHARS))
        digits = sum(map(count, "0123456789"))
    ends = low.count(". ") + low.count(".\n") + low.count("? ") + low.count("! ") + low.count("\u3002") + (text[-1] in ".!?")
    f = _common_features(b, blocks, total)
    # (the buckets inlined: _log_bucket and _share_bucket)
    x1 = w / total
    x2 = w / b.sub_weight
    x3 = b.anchor_weight / w
    x4 = b.heading_weight / w
    wpl = int(words / nlines)
    f += (
        _W[min(14, w.bit_length())],
        _WR[0 if x1 <= 0 else 10 if x1 >= 1 else _SHARE_INNER[int(x1 * 10)]],
        _WSUB[0 if x2 <= 0 else 10 if x2 >= 1 else _SHARE_INNER[int(x2 * 10)]],
        _LD[0 if x3 <= 0 else 10 if x3 >= 1 else _SHARE_INNER[int(x3 * 10)]],
        _HW[0 if x4 <= 0 else 10 if x4 >= 1 else _SHARE_INNER[int(x4 * 10)]],
        _PU[punct if punct < 10 else 10],
        _PUR[min(10, 20 * punct // words)],
        _SE[ends if ends < 10 else 10],
        _NL[nlines - 1 if nlines < 11 else 10],
        _NW[min(14, words.bit_length()) if words > 0 else 0],
        _WPL[min(14, wpl.bit_length()) if wpl > 0 else 0],
        _END_NAMES.get(last := text[-1]) or _end_name(last),
    )
    append = f.append
    if text[0].isupper():
        append("cap")
    searched = low if w <= _SHORT else low[:_EDGES] + "\n" + low[-_EDGES:]
    if digits:
        append(_DIG[_share_bucket(digits / w)])
        if searched is low or _HAS_DIGIT.search(searched):  # (every date has a digit)
            times = len(_TIME.findall(searched))
            if times:
                append(_TM[times if times < 10 else 10])
    tokens = _TOKEN.findall(searched)
    ws = set(tokens)
    nkw, kws = _keywords(tokens, ws, searched)
    if nkw:
        append(_KWN[nkw if nkw < 10 else 10])
        append(_KWD[_share_bucket(min(1.0, 10 * nkw / words))])
        for k in sorted(kws):
            append(_KW_NAMES.get(k) or _KW_NAMES.setdefault(k, "kw=" + k))
    for name, n in b.counts.items():
        append((_COUNTED_NAMES.get(name) or _counted_names(name))[n if n < 10 else 10])
    sim = 0.0  # (the best Dice coefficient with a headline signal)
    if title_words and w <= _SHORT and ws:
        n = len(ws)
        for t in title_words:
            x = 2 * len(ws & t) / (n + len(t))
            if x > sim:
                sim = x
    return f, sim, ws


#: Settings of the PageRank over the block tree (:func:`_main_region`), those of
#: ``pagerank.PageRankOptions`` where they have a counterpart.
_PR_ALPHA, _PR_BETA, _PR_UNIT, _PR_LINK, _PR_SIDE = 5.0, 0.8, 100, 0.1, 0.3
_PR_HEADLINE, _PR_CLIMB, _PR_SKIP, _PR_CLIMB_LINKS = 0.5, 0.7, 0.1, 0.3


def _solve_blocks(
    blocks: list[CRFBlock], u: list[float], leaves: list[int], leaf_u: list[float], alpha: float
) -> tuple[list[float], list[float]]:
    """``(I + αL) f = u`` on the block tree where block i also has ``leaves[i]`` leaf
    children (its lines) of total weight ``leaf_u[i]``: ``f`` of the blocks and
    DensitySum ``g`` (the sum of ``f`` over each block's children, lines included).

    The same elimination as :func:`newsstemmer.pagerank.solve_tree`, with the
    lines eliminated in closed form: a leaf j under block i has
    ``f_j = (u_j + α·f_i) / (1 + α)``, so only their count and total weight matter.
    """
    n = len(blocks)
    leaf_a = 1.0 / (1.0 + alpha)  # a leaf's f = leaf_a·u_j + leaf_b·f_parent
    leaf_b = alpha * leaf_a
    sum_a = [x * leaf_a for x in leaf_u]
    sum_b = [k * leaf_b for k in leaves]
    a = [0.0] * n
    b = [0.0] * n
    for blk in reversed(blocks):
        i = blk.index
        degree = len(blk.children) + leaves[i] + (blk.parent >= 0)
        d = 1.0 + alpha * (degree - sum_b[i])
        a[i] = (u[i] + alpha * sum_a[i]) / d
        b[i] = alpha / d
        if blk.parent >= 0:
            sum_a[blk.parent] += a[i]
            sum_b[blk.parent] += b[i]
    f = a  # the root keeps f = a; the others follow their parent
    for blk in blocks:
        if blk.parent >= 0:
            f[blk.index] = a[blk.index] + b[blk.index] * f[blk.parent]
    g = [leaf_a * leaf_u[i] + leaves[i] * leaf_b * f[i] for i in range(n)]
    for blk in blocks:
        if blk.parent >= 0:
            g[blk.parent] += f[blk.index]
    return f, g


def _main_region(
    page: CRFPage, headline_block: int = -1, block_words: dict[int, set[str]] | None = None
) -> tuple[int, int]:
    """DOM PageRank + DensitySum (SPEC §4) on the page's block tree: ``(main, core)``.

    The tree is that of the blocks, with each line of text a leaf under its
    block (a coarse DOM, a few hundred nodes instead of thousands).  A line's
    initial weight grows with its length (a line stands for many DOM text nodes,
    so it is not capped) and with its block's likeness to the title and
    description (share of their words it holds; ``block_words`` are the blocks'
    words if the caller has them), and is cut for link text, reader comments and
    sidebars, as in :mod:`newsstemmer.pagerank`.  The core is the block whose
    children weigh most after spreading (DensitySum); the main block is the core
    widened to ancestors while it holds less than ``_PR_CLIMB`` of their initial
    weight.  (-1, -1) for a page without text.
    """
    blocks = page.blocks
    n = len(blocks)
    if not page.lines or not n:
        return -1, -1
    title_terms = set(_TOKEN.findall((page.meta_title or page.title).lower()))
    desc_terms = set(_TOKEN.findall(page.description.lower()))
    nt, nd = len(title_terms), len(desc_terms)
    u = [0.0] * n
    if 0 <= headline_block < n:
        u[headline_block] = _PR_HEADLINE
    factor = [1.0] * n
    for b in blocks:
        x = factor[b.parent] if b.parent >= 0 else 1.0
        hints = b.hints
        if hints and "comment" in hints:
            x = 0.0
        elif (hints and "sidebar" in hints) or b.tag == "aside" or b.tag == "nav":
            x = min(x, _PR_SIDE)
        factor[b.index] = x
    if nt or nd:
        for i in page.text_blocks:
            if factor[i]:
                if block_words is not None and i in block_words:
                    terms = block_words[i]
                else:
                    text = blocks[i].text
                    if blocks[i].weight > _SHORT:  # (its edges, as block_features searches it)
                        text = text[:_EDGES] + "\n" + text[-_EDGES:]
                    low = text.lower()
                    terms = set(_TOKEN.findall(low))
                sim = (len(terms & title_terms) / nt if nt else 0.0) + (len(terms & desc_terms) / nd if nd else 0.0)
                factor[i] *= (1.0 - _PR_BETA) + _PR_BETA * sim
    # Lines are leaves: per block, their number and total initial weight suffice.
    leaves = [0] * n
    leaf_u = [0.0] * n
    for (b, _), (w, aw) in zip(page.lines, page.line_weights):
        x = w / _PR_UNIT * factor[b]
        if aw:
            x *= 1.0 - (1.0 - _PR_LINK) * min(1.0, aw / w)
        leaves[b] += 1
        leaf_u[b] += x
    f, g = _solve_blocks(blocks, u, leaves, leaf_u, _PR_ALPHA)
    core = max(range(n), key=g.__getitem__)
    mass = [x + y for x, y in zip(u, leaf_u)]
    for b in reversed(blocks):
        if b.parent >= 0:
            mass[b.parent] += mass[b.index]
    main = core
    while True:
        a = blocks[main].parent
        while a >= 0 and mass[a] <= mass[main] * (1.0001 + _PR_SKIP):
            a = blocks[a].parent
        if a < 0 or blocks[a].sub_anchor_weight > _PR_CLIMB_LINKS * blocks[a].sub_weight:
            break
        if mass[main] >= _PR_CLIMB * mass[a]:
            break
        main = a
    return main, core


def _regions(page: CRFPage, top: int) -> list[str] | None:
    """Per block: "is", "in", "above" or "out", its place relative to block ``top`` (None if -1)."""
    if top < 0:
        return None
    blocks = page.blocks
    where = ["out"] * len(blocks)
    where[top] = "is"
    for b in blocks[top + 1 :]:
        if b.parent >= top and where[b.parent] != "out":
            where[b.index] = "in"
    p = blocks[top].parent
    while p >= 0:
        where[p] = "above"
        p = blocks[p].parent
    return where


_PR_NAMES = {w: "pr=" + w for w in ("is", "in", "above", "out")}


def block_features(page: CRFPage) -> tuple[list[list[str]], list[list[str]]]:
    """Features of the text-block sequence and of the parent-block sequence (SPEC §5).

    Beyond the document's list (tag, keywords, amounts of text, punctuation,
    dates, links, table position), measured on the training sites: the role
    hints of ``id``/``class`` values, the block's place relative to the
    headline, and the amount and link density of the text around it (its
    parent block's subtree).  And, measured on the evaluation sets
    (``benchmarks/crf_eval.py``; feature set 2): the block's place (``pr=`` is,
    in, above or out) relative to the main block of PageRank + DensitySum on the
    block tree (:func:`_main_region`; dragnet single pages F1 +0.9 point).  Left
    out as they lost F1 there: buckets of the DOM and block depth and of the
    text's likeness to the title (fitted to the training sites), the
    paragraph-text core of feature set 1 (no gain once ``pr=`` is there).
    """
    blocks = page.blocks
    total = page.total_weight or 1
    refs = {t for t in (page.meta_title, page.title, *page.h1) if t}
    title_words = [ws for ws in (set(_TOKEN.findall(t.lower())) for t in refs) if ws]
    text_seq: list[list[str]] = []
    block_words: dict[int, set[str]] = {}
    best, best_score = -1, 0.0  # the headline: first block most like the title signals
    for k, i in enumerate(page.text_blocks):
        b = blocks[i]
        f, sim, words = _text_features(b, blocks, total, title_words)
        block_words[i] = words
        score = 1.0 if sim >= 1.0 else 0.5 if sim >= 0.8 else 0.0
        if score > best_score:
            best, best_score = k, score
        p = blocks[b.parent] if b.parent >= 0 else None
        if p is not None:
            f += (
                _PSW[_share_bucket(p.sub_weight / total)],
                _PSLD[_share_bucket(p.sub_anchor_weight / p.sub_weight)],
                _PSTB[n if (n := p.sub_text_blocks) < 10 else 10],
            )
        text_seq.append(f)
    parent_seq = [_common_features(blocks[i], blocks, total) for i in page.parent_blocks]
    if best >= 0:
        for k, f in enumerate(text_seq):
            f.append("hl=before" if k < best else "hl=at" if k == best else "hl=after")
    main, page.pagerank_core = _main_region(
        page, page.text_blocks[best] if best >= 0 and best_score >= 1.0 else -1, block_words
    )
    pr = _regions(page, main)
    if pr is not None:
        names = [_PR_NAMES[w] for w in pr]
        for ids, seq in ((page.text_blocks, text_seq), (page.parent_blocks, parent_seq)):
            for i, f in zip(ids, seq):
                f.append(names[i])
    return text_seq, parent_seq


# -- second pass ------------------------------------------------------------------------------


def relabel(
    parents: Sequence[int],
    r1: Sequence[float],
    upper: float = 0.7,
    lower: float = 0.4,
    keep: Sequence[bool] | None = None,
) -> list[float]:
    """The second pass: hierarchical consistency over a tree, bottom-up (iterative).

    ``parents[i]`` is the parent of node ``i`` (-1 for a root); a parent must come
    before its children (document order does this).  ``r1`` are the first-pass
    results (1/0, or probabilities).  For each node b with children C(b), once the
    children are done: ratio = (R1(b) + Σ R2(c)) / (|C(b)| + 1); above ``upper``
    b and its children become 1, below ``lower`` b becomes 0, otherwise R2(b) = R1(b).
    Nodes flagged in ``keep`` are never lowered below their R1 by the lower
    threshold (used to keep the own text of text blocks, see :class:`CRFExtractor`).
    """
    n = len(parents)
    if len(r1) != n or (keep is not None and len(keep) != n):
        raise ValueError("parents, r1 (and keep) differ in length")
    children: list[list[int]] = [[] for _ in range(n)]
    for i, p in enumerate(parents):
        if p >= 0:
            if p >= i:
                raise ValueError(f"node {i}: its parent {p} does not come before it")
            children[p].append(i)
    r2 = [float(x) for x in r1]
    for b in range(n - 1, -1, -1):  # children have larger indices: they are done first
        kids = children[b]
        ratio = (r1[b] + sum(r2[c] for c in kids)) / (len(kids) + 1)
        if ratio > upper:
            r2[b] = 1.0
            for c in kids:
                r2[c] = 1.0
        elif ratio < lower and not (keep is not None and keep[b]):
            r2[b] = 0.0
        else:
            r2[b] = float(r1[b])
    return r2


# -- labels from learned patterns ---------------------------------------------------------------


@dataclass
class TrainingPage:
    """A page cut into blocks, with a content label for each block of its two sequences."""

    page: CRFPage
    text_labels: list[bool]
    parent_labels: list[bool]
    source: str | None = None


def pattern_labels(
    page: "Page",
    site: "SitePatterns",
    split_tags: Iterable[str] = DEFAULT_SPLIT_TAGS,
    parent_share: float = 0.8,
) -> TrainingPage | None:
    """Label a page's blocks with the site's learned patterns; None if no article layout fits.

    The layout blocks in MAIN and TITLE sections (minus the lines the layout
    repeats on most pages) are content, all others are not.  The two views of the
    page cut it differently, so they are matched by their words: both list the
    page's words in document order, and their longest common subsequence carries
    each layout block's label to the words of the CRF blocks.  A text block is
    content if most of its matched words are; a parent block if ``parent_share``
    of the matched words below it are.
    """
    from rapidfuzz.distance import LCSseq

    from ..layout.blocks import blocks_of, line_digest
    from ..layout.matching import block_roles, match_pattern
    from ..chain import extract_with_patterns

    article = extract_with_patterns(page, site)
    if not article.matched or not article.is_article or not article.body:
        return None
    pattern = next((p for p in site.patterns if p.id == article.pattern), None)
    if pattern is None:
        return None
    pb = blocks_of(page, site.block_options())
    roles = block_roles(pb, match_pattern(pb, pattern))
    static = set(pattern.static_lines)
    layout_words: list[str] = []
    layout_content: list[bool] = []
    for block, role in zip(pb.blocks, roles):
        if block.tag == "title":  # the <title> in <head>: no CRF block holds it
            continue
        for line in block.text.split("\n"):
            is_content = role in ("main", "title") and line_digest(line) not in static
            words = _TOKEN.findall(line.lower())
            layout_words.extend(words)
            layout_content.extend([is_content] * len(words))
    cp = segment(page.html, split_tags)
    crf_words: list[str] = []
    crf_block: list[int] = []
    for b, text in cp.lines:
        words = _TOKEN.findall(text.lower())
        crf_words.extend(words)
        crf_block.extend([b] * len(words))
    n = len(cp.blocks)
    matched = [0] * n
    content = [0] * n
    for m in LCSseq.opcodes(layout_words, crf_words).as_matching_blocks():
        for k in range(m.size):
            b = crf_block[m.b + k]
            size = len(crf_words[m.b + k])
            matched[b] += size
            if layout_content[m.a + k]:
                content[b] += size
    text_labels = [matched[i] > 0 and 2 * content[i] >= matched[i] for i in cp.text_blocks]
    sub_matched, sub_content = list(matched), list(content)
    for b in reversed(cp.blocks):
        if b.parent >= 0:
            sub_matched[b.parent] += sub_matched[b.index]
            sub_content[b.parent] += sub_content[b.index]
    parent_labels = [
        sub_matched[i] > 0 and sub_content[i] >= parent_share * sub_matched[i] for i in cp.parent_blocks
    ]
    return TrainingPage(cp, text_labels, parent_labels, page.source or page.url)


# -- model files ------------------------------------------------------------------------------------

_ZIP_DATE = (2020, 1, 1, 0, 0, 0)  # fixed, so that the same training gives the same bytes
TEXT_MODEL, PARENT_MODEL, META = "text.crfsuite", "parent.crfsuite", "meta.json"

#: crfsuite training parameters of the default model (L-BFGS; L2 and a feature count floor
#: did better than L1 on the training sites, see benchmarks/train_crf.py --cv).
DEFAULT_TRAIN_PARAMS: dict[str, Any] = {
    "c1": 0.0,
    "c2": 2.0,
    "max_iterations": 200,
    "feature.minfreq": 10,
}


def train(
    pages: Iterable[TrainingPage],
    path: str | os.PathLike[str],
    params: dict[str, Any] | None = None,
    split_tags: Iterable[str] = DEFAULT_SPLIT_TAGS,
    info: dict[str, Any] | None = None,
) -> Path:
    """Train the two first-pass CRFs and write the model file (zip, written atomically).

    ``pages`` must have been segmented with ``split_tags`` (recorded in the model, so
    pages to label are cut the same way).  Returns the path written.
    """
    import pycrfsuite

    settings = {**DEFAULT_TRAIN_PARAMS, **(params or {})}
    trainers = {TEXT_MODEL: pycrfsuite.Trainer(verbose=False), PARENT_MODEL: pycrfsuite.Trainer(verbose=False)}
    counts = {TEXT_MODEL: [0, 0, 0], PARENT_MODEL: [0, 0, 0]}  # sequences, blocks, content blocks
    n_pages = 0
    for tp in pages:
        n_pages += 1
        text_x, parent_x = block_features(tp.page)
        for name, xs, ys in ((TEXT_MODEL, text_x, tp.text_labels), (PARENT_MODEL, parent_x, tp.parent_labels)):
            if len(xs) != len(ys):
                raise ValueError(f"{tp.source or 'page'}: {len(ys)} labels for {len(xs)} blocks")
            if xs:
                trainers[name].append(xs, ["1" if y else "0" for y in ys])
                c = counts[name]
                c[0] += 1
                c[1] += len(ys)
                c[2] += sum(ys)
    for name, c in counts.items():
        if c[1] == 0 or c[2] in (0, c[1]):
            raise ValueError(f"cannot train the {name.split('.')[0]} model: its blocks need both labels ({c[2]} of {c[1]} content)")
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    blobs: dict[str, bytes] = {}
    with tempfile.TemporaryDirectory(prefix="newsstemmer-crf-") as tmp:
        for name, trainer in trainers.items():
            trainer.select("lbfgs", "crf1d")
            trainer.set_params(settings)
            out = os.path.join(tmp, name)
            trainer.train(out)
            blobs[name] = Path(out).read_bytes()
    meta = {
        "format": MODEL_FORMAT,
        "version": MODEL_VERSION,
        "features": FEATURE_VERSION,
        "split_tags": list(split_tags),
        "params": settings,
        "pages": n_pages,
        "text_blocks": {"sequences": counts[TEXT_MODEL][0], "blocks": counts[TEXT_MODEL][1], "content": counts[TEXT_MODEL][2]},
        "parent_blocks": {"sequences": counts[PARENT_MODEL][0], "blocks": counts[PARENT_MODEL][1], "content": counts[PARENT_MODEL][2]},
        **({"info": info} if info else {}),
    }
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in ((META, (json.dumps(meta, indent=1, sort_keys=True) + "\n").encode()), *blobs.items()):
            zi = zipfile.ZipInfo(name, _ZIP_DATE)
            zi.compress_type = zipfile.ZIP_DEFLATED
            zi.external_attr = 0o644 << 16
            zf.writestr(zi, data)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(buf.getvalue())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp_name, 0o666 & ~umask)  # as an ordinary file (mkstemp makes it private)
        os.replace(tmp_name, target)
    except BaseException:
        try:
            os.unlink(tmp_name)
        except FileNotFoundError:
            pass
        raise
    return target


@dataclass
class _Model:
    meta: dict[str, Any]
    text: Any  # pycrfsuite.Tagger
    parent: Any
    text_has_content: bool
    parent_has_content: bool
    # crfsuite reads a model opened from memory in place: its bytes must outlive the taggers.
    blobs: tuple[bytes, bytes] = (b"", b"")


def _load_model(path: str | os.PathLike[str]) -> _Model:
    """Open a model file; every failure is a :class:`CRFModelError` naming the file."""
    import pycrfsuite

    where = str(path)
    try:
        with zipfile.ZipFile(path) as zf:
            names = set(zf.namelist())
            missing = {META, TEXT_MODEL, PARENT_MODEL} - names
            if missing:
                raise CRFModelError(f"{where}: not a newsstemmer CRF model (missing {', '.join(sorted(missing))})")
            try:
                meta = json.loads(zf.read(META).decode("utf-8"))
                text_blob = zf.read(TEXT_MODEL)
                parent_blob = zf.read(PARENT_MODEL)
            except (zipfile.BadZipFile, zlib.error, EOFError) as exc:  # damaged contents (CRC, deflate)
                raise CRFModelError(f"{where}: corrupt CRF model file: {exc}") from None
            except (UnicodeDecodeError, json.JSONDecodeError) as exc:
                raise CRFModelError(f"{where}: corrupt CRF model file: bad {META}: {exc}") from None
    except FileNotFoundError:
        raise CRFModelError(f"{where}: CRF model file not found") from None
    except IsADirectoryError:
        raise CRFModelError(f"{where}: is a directory, not a CRF model file") from None
    except zipfile.BadZipFile:
        raise CRFModelError(f"{where}: not a newsstemmer CRF model (not a zip archive; train one with 'newsstemmer train-crf')") from None
    except (OSError, EOFError, zipfile.LargeZipFile, NotImplementedError, RuntimeError) as exc:
        raise CRFModelError(f"{where}: cannot read CRF model file: {exc}") from None
    if not isinstance(meta, dict) or meta.get("format") != MODEL_FORMAT:
        raise CRFModelError(f"{where}: not a newsstemmer CRF model (format {meta.get('format') if isinstance(meta, dict) else None!r})")
    if meta.get("version") != MODEL_VERSION or meta.get("features") != FEATURE_VERSION:
        raise CRFModelError(
            f"{where}: CRF model of version {meta.get('version')}/features {meta.get('features')}, this newsstemmer "
            f"reads {MODEL_VERSION}/{FEATURE_VERSION}: train the model again"
        )
    tags = meta.get("split_tags")
    if not isinstance(tags, list) or not tags or not all(isinstance(t, str) for t in tags):
        raise CRFModelError(f"{where}: corrupt CRF model file: bad split_tags")
    taggers = []
    for name, blob in ((TEXT_MODEL, text_blob), (PARENT_MODEL, parent_blob)):
        tagger = pycrfsuite.Tagger()
        try:
            tagger.open_inmemory(blob)
            labels = set(tagger.labels())
        except (ValueError, OSError) as exc:
            raise CRFModelError(f"{where}: corrupt CRF model file: {name}: {exc}") from None
        if not labels or not labels <= {"0", "1"}:
            raise CRFModelError(f"{where}: corrupt CRF model file: {name} has labels {sorted(labels)}")
        taggers.append((tagger, "1" in labels))
    (text, text_c), (parent, parent_c) = taggers
    return _Model(meta, text, parent, text_c, parent_c, (text_blob, parent_blob))


# -- extraction ---------------------------------------------------------------------------------------


@dataclass
class LabelledBlock:
    """One block of the two sequences with its labels (what :meth:`CRFExtractor.label` gives)."""

    index: int  # block index in document order
    tag: str
    parent: int  # index of the enclosing block of the sequences, -1 at the top
    sequence: str  # "text" or "parent"
    text: str  # the block's own text ("" for parent blocks)
    probability: float  # first pass: marginal P(content)
    first: bool  # first-pass label (probability > the extractor's threshold)
    content: bool  # after the second pass (= first without relabelling)


def article_region(
    page: CRFPage,
    nodes: Sequence[int],
    probs: Sequence[float],
    cut: float,
    anchor: int = -1,
    elsewhere: float = 1.3,
) -> set[int]:
    """The blocks of the article's region: the subtree whose text blocks maximise
    Σ weight·(P(content) − ``cut``), the block at its top included.

    ``nodes`` are block indices and ``probs`` their P(content) (other blocks count 0).
    Text likely to be content adds to a subtree, text unlikely to be subtracts, so
    the region is the one piece of the page that holds most of the likely content.
    With an ``anchor`` block (the PageRank core), the region is the best subtree
    among the anchor and its ancestors, unless a subtree elsewhere scores more than
    ``elsewhere`` times as much: an "about the author" box or a teaser list a little
    longer than a short article no longer takes the article's place.
    Every block if no subtree scores above 0.
    """
    blocks = page.blocks
    if not blocks:
        return set()
    score = [0.0] * len(blocks)
    for b, p in zip(nodes, probs):
        w = blocks[b].weight
        if w:
            score[b] = w * (p - cut)
    for blk in reversed(blocks):  # children come after their parent
        if blk.parent >= 0:
            score[blk.parent] += score[blk.index]
    top = max(range(len(blocks)), key=score.__getitem__)
    if 0 <= anchor < len(blocks):
        near, a = anchor, anchor
        while a >= 0:
            if score[a] > score[near]:
                near = a
            a = blocks[a].parent
        if score[near] > 0.0 and score[top] <= elsewhere * score[near]:
            top = near
    if score[top] <= 0.0:  # nothing likely to be content: no region, every block
        return set(range(len(blocks)))
    where = _regions(page, top)
    return {i for i, w in enumerate(where) if w == "is" or w == "in"}


def teaser_blocks(page: CRFPage, min_repeats: int = 3, spread: float = 1.5) -> set[int]:
    """Text blocks of teaser listings ("more stories" lists, blog front pages).

    A teaser is a linked headline (a text block at least 80% anchor text)
    followed by a plain summary (at most half anchor text); a listing repeats that
    pair ``min_repeats`` times or more with the same tags under the same parents,
    with summaries of about one length (the longest at most ``spread`` times the
    shortest), as excerpts cut to a fixed size are.  Article paragraphs that open
    with a link differ in length far more.
    """
    blocks = page.blocks
    seq = page.text_blocks
    groups: dict[tuple[int, str, int, str], list[tuple[int, int]]] = {}
    for i, j in zip(seq, seq[1:]):
        head, summary = blocks[i], blocks[j]
        if head.anchor_weight * 5 >= head.weight * 4 and summary.anchor_weight * 2 <= summary.weight:
            groups.setdefault((head.parent, head.tag, summary.parent, summary.tag), []).append((i, j))
    found: set[int] = set()
    for pairs in groups.values():
        if len(pairs) >= min_repeats:
            lengths = [blocks[j].weight for _, j in pairs]
            if max(lengths) <= spread * min(lengths):
                for i, j in pairs:
                    found.add(i)
                    found.add(j)
    return found


def _fill_gaps(page: CRFPage, nodes: Sequence[int], content: list[bool]) -> None:
    """Make content every text block that lies, in document order, between two
    content text blocks, unless half or more of its text is link text.

    The CRF doubts short pieces inside an article (table cells, a caption, a
    one-line paragraph, "Response / Votes" of a poll) that read like boxes out of
    context; enclosed by the article they belong to it.  ``content`` is indexed
    like ``nodes`` and changed in place.
    """
    blocks = page.blocks
    position = {b: k for k, b in enumerate(nodes)}
    gap: list[int] = []
    seen_content = False
    for b in page.text_blocks:
        k = position[b]
        if content[k]:
            if seen_content:
                for j in gap:
                    content[j] = True
            seen_content = True
            gap = []
        elif seen_content:
            blk = blocks[b]
            if blk.anchor_weight * 2 < blk.weight:
                gap.append(k)
            else:
                gap = []  # a link block: what precedes it stays out too
                seen_content = False


class CRFExtractor:
    """Title and body of a single page by CRF labelling plus hierarchical relabelling.

    ``model_path`` is a model written by :func:`train` (``newsstemmer train-crf``);
    None loads the shipped default model (a missing or corrupt file raises
    :class:`CRFModelError`).  ``upper`` / ``lower`` are the second pass's
    thresholds (higher favours precision, lower recall); ``relabel=False`` keeps
    the first pass alone.

    Two choices beyond the document, both measured on the training sites:
    ``keep_text=True`` (default) spares a text block's own text when the lower
    threshold demotes it: with the document's rule, a block holding a whole
    article as text, beside a few boxes, lost the article (F1 −1.7 points);
    ``soft=True`` runs the second pass on the marginal probabilities instead of
    0/1 labels.  And when no text block is content at all (short articles the
    CRF doubts), the text blocks whose P(content) reaches ``fallback`` times the
    best one's are (None: an empty body instead); F1 +1.3 points on the
    training sites.

    Two more, measured on the evaluation sets (``benchmarks/crf_eval.py``):
    ``threshold`` is the first pass's cut on P(content) (0.4: the default model
    is a little shy of content on sites it never saw).  ``region`` keeps the
    article in one piece: the block whose subtree maximises
    Σ weight·(P(content) − ``region``) over its text blocks is the article's
    region, and content text blocks outside it are dropped unless their
    P(content) reaches ``region_keep`` (teaser lists, author boxes and comment
    threads away from the article; dragnet single pages F1 +1.5 points).
    The region is sought on the path from the block-tree PageRank core to the
    root first, unless a subtree elsewhere scores ``region_elsewhere`` times as
    much (see :func:`article_region`; 0 turns this off; +0.003 on dragnet single
    pages, a few multi-page dragnet sites +0.2 to +0.85 per page, none lower).
    ``region=None`` turns this off.  ``teasers=True`` drops the text blocks of
    teaser listings (:func:`teaser_blocks`), which the CRF reads as short
    articles.  ``fill_gaps=True`` makes text enclosed by content content
    (:func:`_fill_gaps`: table cells, captions and short lines inside an
    article; dragnet single pages +0.004, readability +0.001, +0.0005 in
    3-fold cross-validation on the training sites).

    An extractor holds crfsuite taggers, which are not thread-safe: use one per
    thread.  Input that is no HTML at all raises ``blocks.HTMLParseError``.
    """

    def __init__(
        self,
        model_path: str | os.PathLike[str] | None = None,
        upper: float = 0.7,
        lower: float = 0.4,
        relabel: bool = True,
        keep_text: bool = True,
        soft: bool = False,
        fallback: float | None = 0.1,
        threshold: float = 0.4,
        region: float | None = 0.3,
        region_keep: float = 0.9,
        region_elsewhere: float = 1.3,
        teasers: bool = True,
        fill_gaps: bool = True,
    ) -> None:
        if not (0.0 <= lower <= upper <= 1.0):
            raise ValueError(f"need 0 <= lower <= upper <= 1, got lower={lower}, upper={upper}")
        self.model_path = Path(model_path) if model_path is not None else DEFAULT_MODEL
        if fallback is not None and not 0.0 <= fallback <= 1.0:
            raise ValueError(f"fallback must be between 0 and 1, got {fallback}")
        self.upper, self.lower, self.relabel, self.keep_text, self.soft = upper, lower, relabel, keep_text, soft
        self.fallback = fallback
        for name, value in (("threshold", threshold), ("region", region), ("region_keep", region_keep)):
            if value is not None and not 0.0 <= value <= 1.0:
                raise ValueError(f"{name} must be between 0 and 1, got {value}")
        self.threshold, self.region, self.region_keep = threshold, region, region_keep
        if region_elsewhere < 0:
            raise ValueError(f"region_elsewhere must be >= 0, got {region_elsewhere}")
        self.region_elsewhere, self.teasers, self.fill_gaps = region_elsewhere, teasers, fill_gaps
        self._model = _load_model(self.model_path)
        self.split_tags = tuple(self._model.meta["split_tags"])

    @property
    def meta(self) -> dict[str, Any]:
        """What the model file says about itself (split tags, training parameters, data)."""
        return dict(self._model.meta)

    def _probabilities(self, tagger: Any, has_content: bool, xseq: list[list[str]]) -> list[float]:
        if not xseq or not has_content:
            return [0.0] * len(xseq)
        tagger.set(xseq)
        return [tagger.marginal("1", i) for i in range(len(xseq))]

    def _run(self, doc: str | bytes | etree._Element) -> tuple[CRFPage, list[int], list[float], list[float]]:
        page = segment(doc, self.split_tags)
        text_x, parent_x = block_features(page)
        p_text = self._probabilities(self._model.text, self._model.text_has_content, text_x)
        p_parent = self._probabilities(self._model.parent, self._model.parent_has_content, parent_x)
        blocks = page.blocks
        prob = [0.0] * len(blocks)
        for i, p in zip(page.text_blocks, p_text):
            prob[i] = p
        for i, p in zip(page.parent_blocks, p_parent):
            prob[i] = p
        nodes = sorted(page.text_blocks + page.parent_blocks)  # (two disjoint sets)
        position = [-1] * len(blocks)
        for k, b in enumerate(nodes):
            position[b] = k
        parents = []
        for b in nodes:
            p = blocks[b].parent
            while p >= 0 and position[p] < 0:  # (cannot happen: every ancestor is a node)
                p = blocks[p].parent
            parents.append(position[p] if p >= 0 else -1)
        probs = [prob[b] for b in nodes]
        r1 = probs if self.soft else [1.0 if p > self.threshold else 0.0 for p in probs]
        if self.relabel:
            keep = [page.blocks[b].weight > 0 for b in nodes] if self.keep_text else None
            r2 = relabel(parents, r1, self.upper, self.lower, keep)
        else:
            r2 = r1
        content = [r > 0.5 if self.soft else r >= 0.5 for r in r2]
        if self.region is not None:
            inside = article_region(page, nodes, probs, self.region, page.pagerank_core, self.region_elsewhere)
            for k, b in enumerate(nodes):
                if content[k] and b not in inside and probs[k] < self.region_keep:
                    content[k] = False
        if self.teasers:
            listed = teaser_blocks(page)
            if listed:
                for k, b in enumerate(nodes):
                    if b in listed:
                        content[k] = False
        if self.fill_gaps:
            _fill_gaps(page, nodes, content)
        if self.fallback is not None:
            texts = [k for k, b in enumerate(nodes) if page.blocks[b].weight > 0]
            if texts and not any(content[k] for k in texts):
                floor = self.fallback * max(probs[k] for k in texts)
                for k in texts:
                    content[k] = probs[k] >= floor and probs[k] > 0.0
        return page, nodes, probs, content

    def label(self, html: str | bytes | etree._Element) -> list[LabelledBlock]:
        """Every block of the two sequences, in document order, with its labels."""
        page, nodes, probs, content = self._run(html)
        position = {b: k for k, b in enumerate(nodes)}
        out = []
        for k, b in enumerate(nodes):
            blk = page.blocks[b]
            parent = blk.parent
            out.append(
                LabelledBlock(
                    index=b,
                    tag=blk.tag,
                    parent=position.get(parent, -1) if parent >= 0 else -1,
                    sequence="text" if blk.weight > 0 else "parent",
                    text=blk.text,
                    probability=probs[k],
                    first=probs[k] > self.threshold,
                    content=content[k],
                )
            )
        return out

    def extract(self, html: str | bytes | etree._Element) -> tuple[str, str]:
        """``(title, body)`` of one page; the body is "" if no block is content."""
        page, nodes, _, content = self._run(html)
        keep = {b for b, c in zip(nodes, content) if c}
        lines = [text for b, text in page.lines if b in keep]
        title = headline(page)
        if title and lines:
            lines = _without_title(lines, title)
        return title, "\n".join(lines)


def headline(page: CRFPage) -> str:
    """The page's headline from its own signals: the first h1-h3 heading most like
    og:title or <title> (Dice of words ≥ 0.6), else og:title, else the longest
    segment of <title>, else the first h1."""
    refs = [ws for ws in (_word_set(t) for t in (page.meta_title, page.title) if t) if ws]
    best, best_sim = "", 0.0
    if refs:
        for h in page.headings or page.h1:
            ws = _word_set(h)
            if ws:
                sim = max(2 * len(ws & r) / (len(ws) + len(r)) for r in refs)
                if sim > best_sim + 1e-9:
                    best, best_sim = h, sim
    if best and best_sim >= 0.6:
        return best
    if page.meta_title:
        return page.meta_title
    if page.title:
        segments = [s.strip() for s in _TITLE_SEP.split(page.title) if s.strip()]
        return max(segments, key=len) if segments else page.title
    return page.h1[0] if page.h1 else ""


def _word_set(text: str) -> set[str]:
    return set(_TOKEN.findall(text.lower()))


def _without_title(lines: list[str], title: str) -> list[str]:
    """The body's lines minus a leading copy of the headline."""
    key = " ".join(_TOKEN.findall(title.lower()))
    for k, line in enumerate(lines[:3]):
        if " ".join(_TOKEN.findall(line.lower())) == key:
            return lines[:k] + lines[k + 1 :]
    return lines
