"""CSS-selector extraction rules, learned without labels from a few pages of a site.

SPEC §6 (seed 004, Yoshida, Inui and Yamamoto): *ExtractUniqueBlock* finds the
content of a set of pages of one site as the blocks that occur on one page only;
the rules are CSS selectors that point at those blocks from the nearest stable
``id``/``class`` of the page, so that later pages are extracted alone, by a CSS
engine, with no learning and no other page at hand.

Definitions (as in the paper unless marked *beyond the paper*):

* **Blocks** (:func:`page_blocks`): block-level elements (HTML 4.01's, with list
  items and table cells, plus HTML5's sectioning elements) that have no block-level
  descendant; ``body`` is a block for the text directly under it.  ``script``,
  ``noscript`` and ``style`` and their subtrees are left out.  A block's *content* is
  its normalised text, or the ``src`` of its images when it has no text.
* **Content blocks** (:func:`unique_blocks`): blocks whose content occurs exactly
  once in the whole set of (≥ 2) pages.
* **Adapted identifiers** (:func:`adapted_identifiers`): ``id`` values and ``class``
  tokens that occur exactly once in every page of the set.
* **Nearest adapted identifier** of an element, in preorder: its own, else its
  parent's, else its parent's nearest, else none; ``id`` before ``class``.
* **Rule** for a content block with element name ``E``: ``E#id`` / ``E.class`` (own
  identifier), ``#id > E`` / ``.class > E`` (the parent's), ``#id E`` / ``.class E``
  (an ancestor's, reached through the parent's nearest), ``E`` (none).  The paper
  writes the third template ``#id * E`` ("descendant, not child"); ``#id E`` is used
  here (simpler, and the same figures on the development sets).

Beyond the paper, each measured on the development sets (``benchmarks/rules.py``:
rules learned from the 3 first pages of each big9-05 / big9-09 / cleanportal site,
applied to the others; the shingle F1 lost when the feature alone is turned off,
rules learned with layout patterns unless said otherwise):

* **precision filter**: a candidate rule is kept only if, on the training pages, at
  least ``min_precision`` (0.9) of the text weight it matches is content (0.5 costs
  .03 F1 without patterns), at least half of the text blocks it matches are content
  (rules with an identifier), at most ``max_link_density`` of its content is anchor
  text (related-story lists vary from page to page too; off: -.056 on big9-09
  without patterns), and it finds ``min_weight`` word characters of content per page
  (dates and calendar cells give tiny rules; off: -.022 on big9-05);
* **greedy check**: most precise rules first, a rule must also be precise in what it
  adds to the rules before it, unless it adds nothing (a second way to the same
  blocks is kept: it may survive a layout change the first does not) (off: -.01);
* **loose text**: a block element holding blocks keeps the text directly under it
  as a block that gives rules too (table layouts of 2005 put the article as loose
  text into a cell beside nested tables; off: -.07 on big9-05);
* **own-class rules**: ``E.class`` for a content block's own class even if the class
  is not unique (``div.storybody`` survives the change of container id that breaks
  ``#template_bas > div``; +.022 on big9-09, -.004 on cleanportal);
* identifiers without digits are preferred to those with (``col2``, ``story-2005``
  may be per-template or per-article; ``story`` is stable); only plain CSS
  identifiers are used (no escaping, same meaning everywhere) and they must be
  unique case-insensitively (browsers match ``class``/``id`` without case in quirks
  mode, lxml with case: both then find the same element);
* reader-comment threads (``#comments``, ``.commentlist``…) are not article content
  (off: -.021 on cleanportal without patterns); a stray ``<title>`` inside the body
  (inline SVG) is not rendered, so not text;
* **layout patterns** (:mod:`newsstemmer.learning`, learned from the same pages), when
  given, say which varying blocks are main text and which is the headline (blocks
  meet layout blocks by their text lines): blocks the layout calls ``sub``/``static``
  are not content, and blocks of MAIN/TITLE sections also give path rules built
  from their layout path, e.g. ``div:class=x/p`` → ``div.x > p`` (from the elements
  themselves, so ids and classes keep their case; off: -.019 on cleanportal);
  altogether +.03/.02/.03 F1 over the rules from unique blocks alone;
* **title rules**, apart from the body rules: on each training page, the content
  block (unique to that page) most like the page's own headline statements
  (linkinfo anchor texts, ``og:title``, ``<title>`` and its segments, ``h1``, minus
  those several pages share), else the layout's title section; ranked by the pages
  on which the rule's first match is that block.

Options that measured no gain are kept off: ``attributes`` (attribute values such as
``[width="426"]`` as identifiers), ``per_page`` (content = on no other page),
``strict_descendant`` (the paper's ``#id * E``: the same figures as ``#id E``).

Applying (:func:`apply_rules`) parses the page with parsel (lxml, lenient as a
browser); every element matched by a rule is content, except those with neither
text nor an ``img``; matches are taken in document order, and an element inside
another matched element is not taken twice.  Selectors are plain CSS 3 (no
parsel pseudo-elements): ``response.css(selector)`` in a Scrapy spider, a
browser's ``document.querySelectorAll`` and ``lxml.cssselect`` select the same
elements.

The rules are kept in the site's pattern file as ``extras["rules"]``::

    {
      "format": "newsstemmer-rules", "version": 1,
      "method": "extract-unique-block",
      "pages": 3,                       # training pages the rules were learned from
      "used_patterns": true,            # whether layout patterns helped
      "title": [RULE, ...],             # ranked: the first that matches gives the title
      "body":  [RULE, ...]              # all of them: their matches are the body
    }
    RULE = {"selector": "#main > p", "template": "#id > E",
            "support": 3,               # training pages where it matched content
            "blocks": 41,               # content blocks it matched there
            "weight": 5210,             # their weight (word characters)
            "precision": 0.97}          # share of the matched weight that was content

Only ``selector`` is required when reading; a bare list of selector strings is read
as body rules.  :func:`rules_from_extras` validates everything and raises
:class:`RulesError` (a :class:`~newsstemmer.patterns.PatternFileError`) naming the
rule and the problem.
"""

from __future__ import annotations

import copy
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Iterable, Sequence

from lxml import etree
from parsel import Selector, css2xpath

try:
    from parsel.selector import create_root_node as _create_root_node
except ImportError:  # pragma: no cover - older/newer parsel: the same steps, by hand

    def _create_root_node(text: str, parser_cls: Any, huge_tree: bool = True) -> etree._Element:
        body = text.strip().replace("\x00", "").encode("utf-8") or b"<html/>"
        parser = parser_cls(recover=True, encoding="utf-8", huge_tree=huge_tree)
        root = etree.fromstring(body, parser=parser)
        return etree.fromstring(b"<html/>") if root is None else root

from ..layout.blocks import BLOCK_TAGS, _comment_named, page_blocks as layout_blocks
from ..dom.parse import HTMLParseError
from ..dom.text import significant, weight
from ..page import Page
from ..layout.patterns import PatternFileError, SitePatterns
from ..layout.scoring import dice

__all__ = [
    "BLOCK_LEVEL",
    "EXCLUDED",
    "RULES_FORMAT",
    "RULES_VERSION",
    "Block",
    "Rule",
    "RuleOptions",
    "RuleSet",
    "RulesError",
    "adapted_identifiers",
    "apply_rules",
    "check_selector",
    "extract_unique_blocks",
    "learn_rules",
    "match_rules",
    "nearest_identifiers",
    "page_blocks",
    "parse_page",
    "rule_for",
    "selectors_xpath",
    "simple_selector",
    "rules_from_extras",
    "rules_of",
    "store_rules",
    "unique_blocks",
]

RULES_FORMAT = "newsstemmer-rules"
RULES_VERSION = 1

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
#: The templates, by the relation between a block and its nearest adapted identifier.
TEMPLATES = {
    ("own", "#"): "E#id",
    ("own", "."): "E.class",
    ("child", "#"): "#id > E",
    ("child", "."): ".class > E",
    ("descendant", "#"): "#id E",
    ("descendant", "."): ".class E",
    ("own", "@"): "E[attr]",
    ("child", "@"): "[attr] > E",
    ("descendant", "@"): "[attr] E",
    ("none", ""): "E",
    ("path", ""): "path",
}

# A CSS identifier that needs no escaping (ASCII; not starting with a digit or "-digit").
_IDENT = re.compile(r"-?[A-Za-z_][A-Za-z0-9_-]*\Z")
# An attribute value used in [name="value"]: no quotes, backslashes or spaces.
_ATTR_VALUE = re.compile(r"[A-Za-z0-9_%.:/-]{1,64}\Z")
# Attributes whose values browsers compare without case in HTML documents (HTML
# standard, "case-sensitivity of selectors"); lxml compares them with case.
_CASELESS_ATTRIBUTES = frozenset(
    "accept accept-charset align alink axis bgcolor charset checked clear codetype color compact "
    "declare defer dir direction disabled enctype face frame hreflang http-equiv lang language link "
    "media method multiple nohref noresize noshade nowrap readonly rel rev rules scope scrolling "
    "selected shape target text type valign valuetype vlink".split()
)
_DIGIT = re.compile(r"\d")
_SPACE_SPLIT = re.compile(r"[ \t\n\f\r]+")


class RulesError(PatternFileError):
    """Rules in a pattern file (``extras["rules"]``) or given to a function are invalid."""


# -- parsing -----------------------------------------------------------------------------


def parse_page(html: str | bytes | Selector) -> etree._Element:
    """Parse a page as parsel (and so Scrapy's ``response.css``) does; return the root.

    The tree is parsel's own (its ``create_root_node``: the same text clean-up, the
    same lenient libxml2 HTML parser and options); only the Python classes of its
    elements are lxml's plain ones rather than ``lxml.html``'s, which makes walking
    the tree several times cheaper.  A parsel ``Selector`` (e.g. Scrapy's
    ``response.selector``) is used as it is.  Raises
    :class:`~newsstemmer.blocks.HTMLParseError` for an empty or unparsable page.
    """
    if isinstance(html, Selector):
        return html.root
    if isinstance(html, bytes):
        html = html.decode("utf-8", "replace")
    if not html or not html.strip():
        raise HTMLParseError("empty document")
    try:
        root = _create_root_node(html, etree.HTMLParser, huge_tree=True)
    except (etree.ParserError, etree.XMLSyntaxError, ValueError) as exc:
        raise HTMLParseError(f"cannot parse HTML: {exc}") from exc
    if not isinstance(root, etree._Element):
        raise HTMLParseError("cannot parse HTML: no root element")
    return root


def _body(root: etree._Element) -> etree._Element:
    body = root.find("body")
    if body is None and root.tag != "body":
        body = next(root.iter("body"), None)
    return root if body is None else body


# -- blocks (ExtractUniqueBlock) --------------------------------------------------------------


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
    __slots__ = ("element", "order", "has_block", "parts", "link_parts", "images", "comments")

    def __init__(self, element: etree._Element, order: int, comments: bool) -> None:
        self.element = element
        self.order = order
        self.has_block = False
        self.parts: list[str] = []
        self.link_parts: list[str] = []
        self.images: list[str] = []
        self.comments = comments


def page_blocks(root: etree._Element | str | bytes) -> list[Block]:
    """The blocks of a page in document order (SPEC §6); blocks with neither text nor
    an image are left out.  ``root`` is a parsed page or its HTML."""
    if not isinstance(root, etree._Element):
        root = parse_page(root)
    body = _body(root)
    blocks: list[Block] = []
    order = 0
    in_anchor = 0
    in_comments = 0

    def add(text: str | None) -> None:
        if text:
            frame = frames[-1]
            frame.parts.append(text)
            if in_anchor:
                frame.link_parts.append(text)

    def close(frame: _Frame) -> None:
        # A block element holding blocks keeps its loose text as a block with
        # leaf=False: compared with the other pages, but giving a rule only for body.
        raw = "".join(frame.parts)
        text = " ".join(raw.split())
        if not text and not frame.images:
            return
        w = weight(text) if text else 0
        lw = weight("".join(frame.link_parts)) if frame.link_parts else 0
        lines = tuple(s for s in (" ".join(x.split()) for x in raw.split("\n")) if s) if "\n" in raw else (text,)
        blocks.append(
            Block(frame.element, text, tuple(frame.images), w, min(lw, w), not frame.has_block, frame.comments, frame.order, lines)
        )

    named_body = _is_comment_named(body)
    frames = [_Frame(body, 0, named_body)]
    in_comments = int(named_body)
    add(body.text)
    # Each entry: (children iterator, element, is block, is anchor, names comments)
    stack: list[tuple] = [(iter(body), body, True, False, named_body)]
    while stack:
        entry = stack[-1]
        for el in entry[0]:
            tag = el.tag
            if not isinstance(tag, str) or tag in EXCLUDED:
                add(el.tail)
                continue
            order += 1
            named = _is_comment_named(el)
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
            stack.append((iter(el), el, block, anchor, named))
            break
        else:
            _, el, block, anchor, named = stack.pop()
            if block:
                frame = frames.pop()
                close(frame)
            if anchor:
                in_anchor -= 1
            if named:
                in_comments -= 1
            if stack:
                add(el.tail)
    blocks.sort(key=lambda b: b.order)
    return blocks


def _is_comment_named(el: etree._Element) -> bool:
    eid, cls = el.get("id"), el.get("class")
    return bool((eid or cls) and _comment_named(eid, cls))


def unique_blocks(pages_blocks: Sequence[Sequence[Block]]) -> list[list[Block]]:
    """ExtractUniqueBlock: per page, its blocks whose content occurs once in the whole set."""
    counts: Counter[str] = Counter(b.key for blocks in pages_blocks for b in blocks)
    return [[b for b in blocks if counts[b.key] == 1] for blocks in pages_blocks]


def extract_unique_blocks(page: str | bytes, others: Iterable[str | bytes]) -> str:
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


# -- identifiers -------------------------------------------------------------------------------


def _id_tokens(el: etree._Element, attributes: Sequence[str] = ()) -> list[tuple[str, str]]:
    """The element's identifiers as (kind, value): ``("#", id)``, ``(".", token)``, and
    ``("@name", value)`` for each of ``attributes`` it has."""
    out = []
    eid = el.get("id")
    if eid:
        out.append(("#", eid.strip()))
    cls = el.get("class")
    if cls:
        out.extend((".", t) for t in _SPACE_SPLIT.split(cls.strip()) if t)
    for name in attributes:
        value = el.get(name)
        if value:
            out.append(("@" + name, value.strip()))
    return out


def _plain(kind: str, value: str) -> bool:
    """Whether an identifier is written in CSS without escaping or quoting trouble."""
    if kind[0] == "@":
        return bool(_ATTR_VALUE.match(value))
    return bool(_IDENT.match(value))


def simple_selector(ident: tuple[str, str]) -> str:
    """``#id``, ``.class`` or ``[name="value"]``."""
    kind, value = ident
    if kind[0] == "@":
        return f'[{kind[1:]}="{value}"]'
    return f"{kind}{value}"


def adapted_identifiers(roots: Sequence[etree._Element], attributes: Sequence[str] = ()) -> set[tuple[str, str]]:
    """Identifiers (``("#", id)`` / ``(".", class)``) that occur exactly once in every page.

    Counted case-insensitively (a value that differs only in case elsewhere on the page
    is not unique to a browser in quirks mode); only plain CSS identifiers qualify.
    ``attributes`` adds attribute values (``("@width", "426")``) as identifiers.
    """
    common: dict[tuple[str, str], str] | None = None
    for root in roots:
        counts: Counter[tuple[str, str]] = Counter()
        spelling: dict[tuple[str, str], str] = {}
        for el in root.iter(etree.Element):
            for kind, value in _id_tokens(el, attributes):
                k = (kind, value.lower())
                counts[k] += 1
                spelling[k] = value
        once = {k: spelling[k] for k, n in counts.items() if n == 1 and _plain(k[0], spelling[k])}
        if common is None:
            common = once
        else:
            common = {k: v for k, v in common.items() if once.get(k) == v}
    return {(k[0], v) for k, v in (common or {}).items()}


_KIND_RANK = {"#": 0, ".": 1}


def _stable_classes(roots: Sequence[etree._Element]) -> set[tuple[str, str]]:
    """Class tokens (lower-cased) present on every page, however often."""
    common: set[tuple[str, str]] | None = None
    for root in roots:
        seen = {(".", t.lower()) for el in root.iter(etree.Element) if el.get("class") for t in el.get("class").split()}
        common = seen if common is None else common & seen
    return common or set()


def _own_identifier(
    el: etree._Element, adapted: set[tuple[str, str]], attributes: Sequence[str] = ()
) -> tuple[str, str] | None:
    """The element's best adapted identifier: without digits first, then id, class,
    attributes."""
    best = None
    best_rank: tuple[bool, int, int] | None = None
    for i, (kind, value) in enumerate(_id_tokens(el, attributes)):
        if (kind, value) in adapted:
            rank = (bool(_DIGIT.search(value)), _KIND_RANK.get(kind, 2), i)
            if best_rank is None or rank < best_rank:
                best, best_rank = (kind, value), rank
    return best


def nearest_identifiers(
    root: etree._Element, adapted: set[tuple[str, str]], attributes: Sequence[str] = ()
) -> dict[etree._Element, tuple[str, tuple[str, str] | None]]:
    """For every element, in preorder: (relation, identifier) of its nearest adapted
    identifier; relation is ``own``, ``child`` (the parent's), ``descendant`` (the
    parent's nearest) or ``none``."""
    out: dict[etree._Element, tuple[str, tuple[str, str] | None]] = {}
    for el in root.iter(etree.Element):
        own = _own_identifier(el, adapted, attributes)
        if own is not None:
            out[el] = ("own", own)
            continue
        parent = el.getparent()
        up = out.get(parent) if parent is not None else None
        if up is None or up[1] is None:
            out[el] = ("none", None)
        elif up[0] == "own":
            out[el] = ("child", up[1])
        else:
            out[el] = ("descendant", up[1])
    return out


def rule_for(
    tag: str, nearest: tuple[str, tuple[str, str] | None], strict_descendant: bool = False
) -> tuple[str, str]:
    """The selector and template name for an element named ``tag`` with its nearest
    adapted identifier (the paper's Table 1).  ``strict_descendant`` writes the third
    template as the paper does, ``#id * E`` (a descendant that is not a child)."""
    relation, ident = nearest
    if ident is None:
        return tag, "E"
    template = TEMPLATES[(relation, ident[0][0])]
    simple = simple_selector(ident)
    if relation == "own":
        return f"{tag}{simple}", template
    if relation == "child":
        return f"{simple} > {tag}", template
    if strict_descendant:
        return f"{simple} * {tag}", template.replace(" E", " * E")
    return f"{simple} {tag}", template


# -- rules -----------------------------------------------------------------------------------


@dataclass
class Rule:
    """One selector with what it did on the training pages."""

    selector: str
    template: str = ""
    support: int = 0
    blocks: int = 0
    weight: int = 0
    precision: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "selector": self.selector,
            "template": self.template,
            "support": self.support,
            "blocks": self.blocks,
            "weight": self.weight,
            "precision": round(self.precision, 4),
        }


@dataclass
class RuleSet:
    """A site's rules: ranked title rules and the body rules."""

    title: list[Rule] = field(default_factory=list)
    body: list[Rule] = field(default_factory=list)
    pages: int = 0
    used_patterns: bool = False
    method: str = "extract-unique-block"
    _compiled: tuple | None = field(default=None, repr=False, compare=False)

    def selectors(self) -> dict[str, list[str]]:
        return {"title": [r.selector for r in self.title], "body": [r.selector for r in self.body]}

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": RULES_FORMAT,
            "version": RULES_VERSION,
            "method": self.method,
            "pages": self.pages,
            "used_patterns": self.used_patterns,
            "title": [r.to_dict() for r in self.title],
            "body": [r.to_dict() for r in self.body],
        }

    def compiled(self) -> tuple[list[etree.XPath], etree.XPath | None]:
        """The title rules' XPath (one per rule, ranked) and the body rules' union."""
        if self._compiled is None:
            titles = [etree.XPath(selectors_xpath([r.selector])) for r in self.title]
            body = etree.XPath(selectors_xpath([r.selector for r in self.body])) if self.body else None
            self._compiled = (titles, body)
        return self._compiled


# -- selectors to XPath ---------------------------------------------------------------------------
#
# parsel (``response.css``) translates a selector with cssselect's HTMLTranslator, whose
# XPath walks the tree from the left of the selector: ``#main > p`` becomes
# ``descendant-or-self::*[@id = 'main']/p``, a full walk testing attributes on every
# element, and one walk per rule.  For the selectors rules are made of (type, ``#id``,
# ``.class``, ``[name="value"]``, and the ``>`` and descendant combinators), the same
# elements are found from the right: ``descendant-or-self::p[parent::*[@id = 'main']]``,
# where the name test ``p`` rejects most elements at once, and rules ending in the same
# element name share one walk.  The predicates are cssselect's own; any other selector
# is translated by cssselect as parsel does.  (tests/test_rules.py checks that both
# forms select the same elements.)


class _Unsupported(Exception):
    pass


def _compound(node: Any) -> tuple[str, list[str]]:
    """(element name, predicates) of a compound selector of the supported kinds."""
    import cssselect.parser as cp

    preds: list[str] = []
    while True:
        if isinstance(node, cp.Element):
            if node.namespace is not None:
                raise _Unsupported
            tag = (node.element or "*").lower()
            if tag != "*" and not _IDENT.match(tag):
                raise _Unsupported
            preds.reverse()
            return tag, preds
        if isinstance(node, cp.Hash):
            preds.append(f"@id = {_literal(node.id)}")
        elif isinstance(node, cp.Class):
            lit = _literal(f" {node.class_name} ")
            preds.append(f"@class and contains(concat(' ', normalize-space(@class), ' '), {lit})")
        elif isinstance(node, cp.Attrib) and node.namespace is None and node.operator in ("exists", "="):
            name = node.attrib.lower()
            if not _IDENT.match(name):
                raise _Unsupported
            if node.operator == "exists":
                preds.append(f"@{name}")
            else:
                value = node.value.value if hasattr(node.value, "value") else node.value
                preds.append(f"@{name} = {_literal(value)}")
        else:
            raise _Unsupported
        node = node.selector


def _literal(text: str) -> str:
    if "'" in text:
        raise _Unsupported
    return f"'{text}'"


def _step(node: Any) -> tuple[str, str]:
    """(element name, predicate) of the rightmost compound, with the selector's left
    part as a condition on the parent (``>``) or an ancestor (descendant)."""
    import cssselect.parser as cp

    if isinstance(node, cp.CombinedSelector):
        if node.combinator not in (">", " "):
            raise _Unsupported
        tag, preds = _compound(node.subselector)
        left_tag, left_pred = _step(node.selector)
        axis = "parent" if node.combinator == ">" else "ancestor"
        preds.append(f"{axis}::{left_tag}" + (f"[{left_pred}]" if left_pred else ""))
    else:
        tag, preds = _compound(node)
    return tag, " and ".join(f"({p})" if " or " in p else p for p in preds)


def selectors_xpath(selectors: Sequence[str]) -> str:
    """One XPath selecting, in document order and once each, what any of the selectors
    selects (as ``response.css`` would)."""
    import cssselect

    groups: dict[str, list[str]] = {}
    fallback: list[str] = []
    for sel in selectors:
        try:
            parsed = cssselect.parse(sel)
            for p in parsed:
                if p.pseudo_element is not None:
                    raise _Unsupported
                tag, pred = _step(p.parsed_tree)
                groups.setdefault(tag, []).append(pred)
        except _Unsupported:
            fallback.append(css2xpath(sel))
    parts = []
    for tag, preds in groups.items():
        if any(not p for p in preds):
            parts.append(f"descendant-or-self::{tag}")
        else:
            parts.append(f"descendant-or-self::{tag}[" + " or ".join(f"({p})" for p in preds) + "]")
    return " | ".join(parts + fallback)


@dataclass(frozen=True)
class RuleOptions:
    """Settings of rule learning (defaults measured on the development sets; see the
    module's documentation).  ``benchmarks/rules.py`` shows the paper's method as the
    options that turn every addition off."""

    # The precision filter, per candidate rule on the training pages:
    min_precision: float = 0.9  # share of the text weight it matches that must be content
    min_block_precision: float = 0.5  # share of the text blocks it matches that must be content
    # ... except for rules without identifier ("td"), judged by weight alone: a table
    # layout's article is often one cell of loose text among many small menu cells.
    bare_block_precision: float = 0.0
    max_link_density: float = 0.5  # share of its content that may be anchor text
    min_support: float = 0.0  # share of the pages on which it must find content (always ≥ 1 page)
    min_weight: int = 15  # content weight (word characters) per training page it must find
    greedy: bool = True  # it must also be precise in what it adds to the more precise rules
    # Candidates:
    bare_rules: bool = True  # the template E (no identifier) gives rules
    loose_rules: bool = True  # text directly under a block element that holds blocks gives rules
    class_rules: bool = True  # a block's own class, unique or not, gives a rule ("E.class")
    path_rules: bool = True  # blocks of MAIN/TITLE layout sections give path rules ("div.x > p")
    strict_descendant: bool = False  # the paper's "#id * E" instead of "#id E"
    # Attributes whose values also serve as identifiers, after id and class (none of
    # these may be one browsers compare without case; measured: no gain).
    attributes: tuple[str, ...] = ()
    # Content:
    per_page: bool = False  # content = on no other page, even if twice on its own
    skip_comments: bool = True  # reader-comment threads are not content
    use_patterns: bool = True  # use the layout patterns given to learn_rules
    pattern_exclude: tuple[str, ...] = ("sub", "static")  # layout roles that are not content
    # Title:
    title_likeness: float = 0.6  # Dice likeness to a headline statement a title block needs
    max_title_weight: int = 400  # longer blocks are not headlines
    pattern_title_first: bool = False  # the layout's title section before the page's own statements


# -- learning ----------------------------------------------------------------------------------


@dataclass
class _Training:
    root: etree._Element
    blocks: list[Block]
    content: list[bool]  # per block: counted as content
    title: int | None  # index of the headline block
    by_element: dict[etree._Element, list[int]]


def learn_rules(
    pages: Sequence[Page] | Sequence[str],
    patterns: SitePatterns | None = None,
    options: RuleOptions | None = None,
) -> dict[str, Any]:
    """Learn a site's rules from ≥ 2 of its pages; return the ``extras["rules"]`` dict.

    ``pages`` are :class:`~newsstemmer.page.Page` objects (their anchor texts help to
    find the headline) or HTML strings.  ``patterns``, the site's layout patterns if
    known, tell main text and headline apart from other varying text.  Pages that
    cannot be parsed are skipped; fewer than 2 readable pages raise ``ValueError``.
    """
    return _learn(pages, patterns, options or RuleOptions()).to_dict()


def _learn(pages: Sequence[Page] | Sequence[str], patterns: SitePatterns | None, opts: RuleOptions) -> RuleSet:
    bad = [a for a in opts.attributes if a.lower() in _CASELESS_ATTRIBUTES or not _IDENT.match(a)]
    if bad:
        raise ValueError(f"attributes {bad} cannot serve as identifiers (browsers compare their values without case)")
    page_objs = [p if isinstance(p, Page) else Page(html=p) for p in pages]
    roots: list[etree._Element] = []
    kept: list[Page] = []
    for page in page_objs:
        try:
            roots.append(parse_page(page.html))
            kept.append(page)
        except HTMLParseError:
            continue
    if len(roots) < 2:
        raise ValueError(f"rules need at least 2 readable pages of the site, got {len(roots)}")
    all_blocks = [page_blocks(r) for r in roots]
    if opts.per_page:
        counts: Counter[str] = Counter(k for blocks in all_blocks for k in {b.key for b in blocks})
    else:
        counts = Counter(b.key for blocks in all_blocks for b in blocks)
    # The headline may repeat on its own page (print title, breadcrumb): for it,
    # "on no other page" is enough.
    on_pages: Counter[str] = Counter(k for blocks in all_blocks for k in {b.key for b in blocks})
    roles = _pattern_roles(roots, all_blocks, patterns) if (patterns is not None and opts.use_patterns) else None
    signals = _title_signals(kept, roots)
    training: list[_Training] = []
    for i, (root, blocks) in enumerate(zip(roots, all_blocks)):
        content = []
        for j, b in enumerate(blocks):
            ok = counts[b.key] == 1 and not (opts.skip_comments and b.in_comments)
            if ok and roles is not None and roles[i] is not None:
                ok = roles[i][j] not in opts.pattern_exclude
            content.append(ok)
        by_el: dict[etree._Element, list[int]] = {}
        for j, b in enumerate(blocks):
            by_el.setdefault(b.element, []).append(j)
        unique = [on_pages[b.key] == 1 and not b.in_comments for b in blocks]
        title = _title_block(signals[i], blocks, unique, roles[i] if roles else None, opts)
        if title is not None:
            content[title] = True
        training.append(_Training(root, blocks, content, title, by_el))

    adapted = adapted_identifiers(roots, opts.attributes)
    stable = _stable_classes(roots) if opts.class_rules else set()
    # Candidates: selector -> template, from every content block of every page.
    body_cands: dict[str, str] = {}
    title_cands: dict[str, str] = {}
    for i, t in enumerate(training):
        nearest = nearest_identifiers(t.root, adapted, opts.attributes)
        # body's own text is a block (it is compared), but "body" as a rule would select
        # the whole page: it is never kept.
        body = _body(t.root)
        for j, b in enumerate(t.blocks):
            if not t.content[j] or b.element is body or not (b.leaf or opts.loose_rules):
                continue
            sel, template = rule_for(b.tag, nearest[b.element], opts.strict_descendant)
            target = title_cands if j == t.title else body_cands
            target.setdefault(sel, template)
            if opts.path_rules and roles is not None and roles[i] is not None and roles[i][j] in ("main", "title"):
                psel = _path_selector(b.element)
                if psel:
                    target.setdefault(psel, "path")
            if opts.class_rules:
                # Beyond the paper: the block's own class, unique or not, if every
                # training page has it (``div.storybody`` survives a change of the
                # container's id that ``#template_bas > div`` does not).
                for kind, value in _id_tokens(b.element):
                    if kind == "." and (kind, value.lower()) in stable and _IDENT.match(value) and not _DIGIT.search(value):
                        target.setdefault(f"{b.tag}.{value}", "E.class")
    title_rules = _rank_title_rules(title_cands, training, opts)
    title_els = [_first_title(t.root, title_rules) for t in training]
    body_rules = _filter_body_rules(body_cands, training, title_els, opts)
    return RuleSet(title_rules, body_rules, pages=len(training), used_patterns=roles is not None)


@lru_cache(maxsize=4096)
def _xpath_of(selector: str) -> etree.XPath:
    return etree.XPath(selectors_xpath([selector]))


def _matches(root: etree._Element, selector: str) -> list[etree._Element]:
    return list(_xpath_of(selector)(root))


def _outermost(elements: Sequence[etree._Element]) -> list[etree._Element]:
    """Matched elements without those inside another matched one (document order kept)."""
    chosen = set(elements)
    out = []
    for el in elements:
        if not any(a in chosen for a in el.iterancestors()):
            out.append(el)
    return out


def _covered(t: _Training, elements: Iterable[etree._Element], skip: etree._Element | None = None) -> list[int]:
    """Indices of the blocks inside the given elements (each once), minus ``skip``'s."""
    out: list[int] = []
    seen: set[int] = set()
    skipped = set(skip.iter()) if skip is not None else ()
    for el in elements:
        for sub in el.iter(etree.Element):
            if sub in skipped:
                continue
            for j in t.by_element.get(sub, ()):
                if j not in seen:
                    seen.add(j)
                    out.append(j)
    return out


def _filter_body_rules(
    cands: dict[str, str], training: list[_Training], title_els: list[etree._Element | None], opts: RuleOptions
) -> list[Rule]:
    """The precision filter: each candidate alone, then the survivors together."""
    n = len(training)
    passed: list[tuple[Rule, set[tuple[int, int]]]] = []
    for sel, template in cands.items():
        bare = template == "E"
        if bare and not opts.bare_rules:
            continue
        support = nblocks = content_w = total_w = link_w = nmatched = 0
        covered: set[tuple[int, int]] = set()
        for p, (t, tel) in enumerate(zip(training, title_els)):
            idx = _covered(t, _outermost(_matches(t.root, sel)), tel)
            found = False
            for j in idx:
                b = t.blocks[j]
                covered.add((p, j))
                total_w += b.weight
                nmatched += b.weight > 0
                if t.content[j]:
                    content_w += b.weight
                    link_w += b.link_weight
                    nblocks += b.weight > 0
                    found = True
            support += found
        if not nblocks:
            continue
        precision = content_w / total_w if total_w else 1.0
        links = link_w / content_w if content_w else 0.0
        block_precision = nblocks / nmatched if nmatched else 0.0
        if (
            precision >= opts.min_precision
            and block_precision >= (opts.bare_block_precision if bare else opts.min_block_precision)
            and links <= opts.max_link_density
            and support >= opts.min_support * n
            and content_w >= opts.min_weight * n
        ):
            passed.append((Rule(sel, template, support, nblocks, content_w, precision), covered))
    if opts.greedy:
        passed = _greedy(passed, training, opts)
    rules = [r for r, _ in passed]
    rules.sort(key=lambda r: (-r.weight, r.selector))
    return rules


def _greedy(
    passed: list[tuple[Rule, set[tuple[int, int]]]], training: list[_Training], opts: RuleOptions
) -> list[tuple[Rule, set[tuple[int, int]]]]:
    """Rules together: most precise first, a rule is kept if what it adds to the rules
    before it is precise enough too, or if it adds nothing (a second way to reach the
    same blocks, kept as it may survive a change of layout the first does not)."""
    n = len(training)
    taken: set[tuple[int, int]] = set()
    out = []
    for rule, covered in sorted(passed, key=lambda rc: (-rc[0].precision, -rc[0].weight, rc[0].selector)):
        new = covered - taken
        total = sum(training[p].blocks[j].weight for p, j in new)
        content = sum(training[p].blocks[j].weight for p, j in new if training[p].content[j])
        if total == 0 or (content >= opts.min_precision * total and content >= opts.min_weight * n):
            out.append((rule, covered))
            taken |= covered
    return out


def _rank_title_rules(cands: dict[str, str], training: list[_Training], opts: RuleOptions) -> list[Rule]:
    n = len(training)
    rules = []
    for sel, template in cands.items():
        hits = total = 0
        weight_hit = 0
        for t in training:
            matched = [el for el in _matches(t.root, sel) if _has_content(el)]
            if not matched:
                continue
            total += 1
            first = matched[0]
            if t.title is not None and t.blocks[t.title].element is first:
                hits += 1
                weight_hit += t.blocks[t.title].weight
        if not hits or hits < opts.min_support * n:
            continue
        rules.append(Rule(sel, template, hits, hits, weight_hit, hits / total))
    rules.sort(key=lambda r: (-r.support, -r.precision, r.template == "path", len(r.selector)))
    return rules[:3]


def _first_title(root: etree._Element, rules: list[Rule]) -> etree._Element | None:
    for r in rules:
        for el in _matches(root, r.selector):
            if _has_content(el):
                return el
    return None


def _title_block(
    signals: list[str],
    blocks: list[Block],
    content: list[bool],
    roles: list[str | None] | None,
    opts: RuleOptions,
) -> int | None:
    """The headline's block: the content block most like the page's own headline
    statements (``signals``); else the block of the layout's title section."""
    marked = [j for j, r in enumerate(roles or ()) if r == "title" and content[j] and blocks[j].tag != "body"]
    if marked and opts.pattern_title_first:
        return marked[0]
    best, best_score = None, 0.0
    weights = [weight(s) for s in signals]
    total = sum(weights) or 1
    for j, b in enumerate(blocks):
        if not content[j] or b.tag == "body" or not b.text or b.weight > opts.max_title_weight:
            continue
        likes = [dice(b.text, s) for s in signals]
        if not likes or max(likes) < opts.title_likeness:
            continue
        # Ranked by agreement with all the evidence, the longer statements counting
        # more (a section name matches one short <title> segment, the headline
        # matches the long ones).
        score = sum(like * w for like, w in zip(likes, weights)) / total
        if score > best_score:
            best, best_score = j, score
    if best is None and marked:
        return marked[0]
    return best


def _title_signals(pages: list[Page], roots: list[etree._Element]) -> list[list[str]]:
    """Per page: linkinfo anchor texts and the page's own headline statements (og:title,
    ``<title>`` and its segments, h1), minus those several pages share (the site's name)."""
    own: list[list[str]] = []
    for page, root in zip(pages, roots):
        try:
            found = layout_blocks(root).title_candidates()
        except HTMLParseError:
            found = []
        own.append([s for s in found if weight(s) >= 5])
    shared = Counter(s for found in own for s in set(found))
    return [
        [a for a in page.anchor_texts if weight(a) >= 5] + [s for s in found if shared[s] == 1]
        for page, found in zip(pages, own)
    ]


# -- layout patterns as evidence ------------------------------------------------------------------


def _pattern_roles(
    roots: list[etree._Element], all_blocks: list[list[Block]], site: SitePatterns
) -> list[list[str | None] | None]:
    """Per page and block: the role (``title``/``main``/``sub``/``static``) the site's
    layout patterns give the block's text, or None per page if no article pattern
    applies to the page.

    The layout blocks of :mod:`newsstemmer.blocks` are cut differently (at ``br``, and
    merged by path), so blocks meet by text: each line of a layout block lends its
    role to the block holding that line; a block takes the role of most of its weight.
    """
    from ..layout.matching import block_roles, match_all

    bopts = site.block_options()
    out: list[list[str | None] | None] = []
    for root, blocks in zip(roots, all_blocks):
        try:
            pb = layout_blocks(root, bopts)
        except HTMLParseError:
            out.append(None)
            continue
        best = None
        for m in match_all(pb, site):
            if m.pattern.article and (best is None or m.coverage > best.coverage):
                best = m
        if best is None or best.coverage < 0.5:
            out.append(None)
            continue
        by_line: dict[str, tuple[str, str]] = {}
        by_path: dict[str, str] = {}
        priority = {"title": 3, "main": 2, "sub": 1, "static": 0}
        for lb, role in zip(pb.blocks, block_roles(pb, best)):
            if role is None:
                continue
            if role == "main" or (role == "sub" and lb.path not in by_path):
                by_path[lb.path] = role
            for line in lb.text.split("\n"):
                sig = significant(line)
                if sig and priority[role] > priority.get(by_line.get(sig, ("", ""))[0], -1):
                    by_line[sig] = (role, lb.path)
        roles: list[str | None] = []
        for b in blocks:
            weights: Counter[str | None] = Counter()
            for line in b.lines:
                sig = significant(line)
                role, path = by_line.get(sig, (None, ""))
                # Text on a path that holds main text elsewhere on the page is main
                # text too (a layout learned from few pages misplaces sections).
                if role == "sub" and by_path.get(path) == "main":
                    role = "main"
                weights[role] += len(sig)
            roles.append(weights.most_common(1)[0][0] if weights else None)
        out.append(roles)
    return out


def _path_selector(el: etree._Element, depth: int = 3) -> str | None:
    """A selector from the element's layout path: ``div:class=x/p`` → ``div.x > p``.

    Each step is a block element's tag with its digit-free plain identifiers, joined
    by ``>`` where the step is the DOM parent of the next, by a space where inline
    elements lie between.  A path naming no identifier gives no rule.
    """
    steps: list[tuple[str, etree._Element]] = []
    named = False
    node: etree._Element | None = el
    while node is not None and len(steps) < depth:
        tag = node.tag
        if isinstance(tag, str) and (tag in BLOCK_TAGS or node is el):
            step = tag
            for kind, value in _id_tokens(node):
                if _IDENT.match(value) and not _DIGIT.search(value):
                    step += f"{kind}{value}"
                    named = True
            steps.append((step, node))
        node = node.getparent()
    if not named:
        return None
    steps.reverse()
    out = steps[0][0]
    for (_, outer), (step, inner) in zip(steps, steps[1:]):
        out += (" > " if inner.getparent() is outer else " ") + step
    return out


# -- applying ------------------------------------------------------------------------------------


def _has_content(el: etree._Element) -> bool:
    """Whether an element has text (outside script/style) or an image."""
    for node in el.iter():
        tag = node.tag
        if isinstance(tag, str):
            if tag in EXCLUDED:
                continue
            if tag == "img":
                return True
            if node.text and not node.text.isspace() and _visible(node, el):
                return True
        if node is not el and node.tail and not node.tail.isspace() and _visible(node.getparent(), el):
            return True
    return False


def _visible(node: etree._Element, top: etree._Element) -> bool:
    while node is not None and node is not top:
        if node.tag in EXCLUDED:
            return False
        node = node.getparent()
    return True


def _text(el: etree._Element, skip: etree._Element | None = None) -> str:
    """An element's text: one line per block element or ``br``, spaces normalised."""
    pieces: list[str] = []
    if el.text:
        pieces.append(el.text)
    stack: list[tuple] = [(iter(el), el)]
    while stack:
        for child in stack[-1][0]:
            tag = child.tag
            if not isinstance(tag, str) or tag in EXCLUDED or child is skip:
                if child.tail:
                    pieces.append(child.tail)
                continue
            if tag in BLOCK_LEVEL or tag == "br":
                pieces.append("\n")
            if child.text:
                pieces.append(child.text)
            stack.append((iter(child), child))
            break
        else:
            _, node = stack.pop()
            if stack:
                if node.tag in BLOCK_LEVEL:
                    pieces.append("\n")
                if node.tail:
                    pieces.append(node.tail)
    lines = ("".join(pieces)).split("\n")
    return "\n".join(s for s in (" ".join(line.split()) for line in lines) if s)


def match_rules(root: etree._Element, rules: RuleSet) -> tuple[etree._Element | None, list[etree._Element]]:
    """The title element and the body elements (outermost, document order) of a parsed page."""
    titles, body = rules.compiled()
    title_el = None
    for xp in titles:
        for el in xp(root):
            if _has_content(el):
                title_el = el
                break
        if title_el is not None:
            break
    elements: list[etree._Element] = []
    if body is not None:
        found = body(root)
        # Nested matches are taken once, with the outermost; the title's text is not
        # repeated in the body.
        outer = set(found)
        if title_el is not None:
            outer.add(title_el)
        for el in found:
            if el is title_el or any(a in outer for a in el.iterancestors()):
                continue
            if _has_content(el):
                elements.append(el)
    return title_el, elements


def apply_rules(html: str | bytes | etree._Element | Selector, rules: RuleSet | dict[str, Any] | SitePatterns | list) -> tuple[str, str]:
    """Extract ``(title, body)`` from one page with a site's rules (alone, no learning).

    ``rules`` is a :class:`RuleSet`, the dict :func:`learn_rules` returns (as stored in
    ``extras["rules"]``), or a :class:`SitePatterns` holding them.  The body is the text
    of every matched element, one line per block, in document order; the title
    element's text is not repeated in the body.
    """
    ruleset = rules_of(rules)
    root = html if isinstance(html, etree._Element) else parse_page(html)
    title_el, elements = match_rules(root, ruleset)
    title = _text(title_el).replace("\n", " ") if title_el is not None else ""
    inside_title = title_el is not None
    parts = []
    for el in elements:
        skip = title_el if inside_title and _contains(el, title_el) else None
        text = _text(el, skip)
        if text:
            parts.append(text)
    return title, "\n".join(parts)


def _contains(outer: etree._Element, inner: etree._Element) -> bool:
    return any(a is outer for a in inner.iterancestors())


# -- storage and validation -------------------------------------------------------------------------


def check_selector(selector: Any, where: str = "rule") -> str:
    """Validate one selector: a non-empty plain CSS 3 selector (no pseudo-elements)."""
    import cssselect

    if not isinstance(selector, str) or not selector.strip():
        raise RulesError(f"{where}: \"selector\" must be a non-empty string, got {_kind(selector)}")
    if len(selector) > 2000:
        raise RulesError(f"{where}: selector longer than 2000 characters")
    try:
        parsed = cssselect.parse(selector)
    except cssselect.SelectorError as exc:
        raise RulesError(f"{where}: invalid CSS selector {selector!r}: {exc}") from None
    for p in parsed:
        if p.pseudo_element is not None:
            raise RulesError(f"{where}: selector {selector!r} uses a pseudo-element (::{p.pseudo_element}); rules are plain CSS")
    try:
        etree.XPath(css2xpath(selector))
    except Exception as exc:  # cssselect.ExpressionError, lxml.etree.XPathSyntaxError
        raise RulesError(f"{where}: selector {selector!r} cannot be used: {exc}") from None
    return selector


def _kind(value: Any) -> str:
    return {list: "a list", dict: "an object", str: "a string", bool: "a boolean", type(None): "null"}.get(
        type(value), "a number"
    )


def _rule_from(raw: Any, where: str) -> Rule:
    if isinstance(raw, str):
        return Rule(check_selector(raw, where))
    if not isinstance(raw, dict):
        raise RulesError(f"{where} must be an object or a selector string, got {_kind(raw)}")
    sel = check_selector(raw.get("selector"), where)
    template = raw.get("template", "")
    if not isinstance(template, str):
        raise RulesError(f"{where}: \"template\" must be a string")
    nums = {}
    for key in ("support", "blocks", "weight"):
        v = raw.get(key, 0)
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise RulesError(f"{where}: \"{key}\" must be a non-negative integer, got {v!r}")
        nums[key] = v
    prec = raw.get("precision", 0.0)
    if not isinstance(prec, (int, float)) or isinstance(prec, bool) or not 0.0 <= prec <= 1.0:
        raise RulesError(f"{where}: \"precision\" must be a number between 0 and 1, got {prec!r}")
    return Rule(sel, template, nums["support"], nums["blocks"], nums["weight"], float(prec))


def rules_from_extras(raw: Any) -> RuleSet:
    """Validate ``extras["rules"]`` (as stored in a pattern file) and build a :class:`RuleSet`."""
    if isinstance(raw, list):
        return RuleSet(body=[_rule_from(r, f"rules: body rule #{i}") for i, r in enumerate(raw)])
    if not isinstance(raw, dict):
        raise RulesError(f"rules: expected an object (or a list of selectors), got {_kind(raw)}")
    fmt = raw.get("format", RULES_FORMAT)
    if fmt != RULES_FORMAT:
        raise RulesError(f"rules: unknown \"format\" {fmt!r} (expected {RULES_FORMAT!r})")
    version = raw.get("version", RULES_VERSION)
    if not isinstance(version, int) or isinstance(version, bool):
        raise RulesError("rules: \"version\" must be an integer")
    if version > RULES_VERSION:
        raise RulesError(f"rules: version {version} is newer than this newsstemmer understands ({RULES_VERSION}); upgrade newsstemmer")
    out = RuleSet()
    for part in ("title", "body"):
        items = raw.get(part, [])
        if not isinstance(items, list):
            raise RulesError(f"rules: \"{part}\" must be a list of rules, got {_kind(items)}")
        setattr(out, part, [_rule_from(r, f"rules: {part} rule #{i}") for i, r in enumerate(items)])
    pages = raw.get("pages", 0)
    if not isinstance(pages, int) or isinstance(pages, bool) or pages < 0:
        raise RulesError("rules: \"pages\" must be a non-negative integer")
    out.pages = pages
    used = raw.get("used_patterns", False)
    if not isinstance(used, bool):
        raise RulesError("rules: \"used_patterns\" must be true or false")
    out.used_patterns = used
    method = raw.get("method", out.method)
    if not isinstance(method, str):
        raise RulesError("rules: \"method\" must be a string")
    out.method = method
    return out


# The last few rule objects read, with a snapshot of what they were read from: a page
# after page of one site does not validate and compile its rules again, and a rules
# dict changed in place is read again.
_READ: list[tuple[Any, Any, RuleSet]] = []


def _read_cached(raw: Any) -> RuleSet:
    for ref, snapshot, rs in _READ:
        if ref is raw and snapshot == raw:
            return rs
    rs = rules_from_extras(raw)
    _READ.insert(0, (raw, copy.deepcopy(raw), rs))
    del _READ[8:]
    return rs


def rules_of(rules: RuleSet | dict[str, Any] | SitePatterns | list) -> RuleSet:
    """A :class:`RuleSet` from any of the forms rules are kept in (validated, and
    compiled once: passing the same dict or site page after page costs nothing)."""
    if isinstance(rules, RuleSet):
        return rules
    if isinstance(rules, SitePatterns):
        if "rules" not in rules.extras:
            raise RulesError(f"site {rules.site}: no rules in its pattern file (learn them with 'newsstemmer rules')")
        try:
            return _read_cached(rules.extras["rules"])
        except RulesError as exc:
            raise RulesError(f"site {rules.site}: {exc}") from None
    return _read_cached(rules)


def store_rules(site: SitePatterns, rules: dict[str, Any] | RuleSet) -> SitePatterns:
    """Put rules into a site's patterns (``extras["rules"]``); save the site to keep them."""
    rs = rules_of(rules)
    site.extras["rules"] = rs.to_dict()
    return site
