"""What a page says about itself, gathered in one pass over its parsed tree.

Structured data (JSON-LD, including ``@graph`` and nested objects), microdata
(``itemprop``), ``<meta>`` tags (OpenGraph, Twitter, Dublin Core, Parse.ly, plain names),
``<time datetime>``, ``<link rel=canonical|author>``, the document language and the
page's own headlines.  Nothing here decides between sources: :mod:`.fields` does.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from .neighbourhood import COMPILED as _COMPILED

__all__ = ["ARTICLE_TYPES", "PageFacts", "ld_text", "ld_types", "ld_values", "meta_source", "page_facts"]

#: JSON-LD ``@type`` values that describe the page's own article (preferred over others).
ARTICLE_TYPES = frozenset({
    "article", "newsarticle", "blogposting", "reportagenewsarticle", "analysisnewsarticle",
    "opinionnewsarticle", "reviewnewsarticle", "backgroundnewsarticle", "scholarlyarticle",
    "techarticle", "liveblogposting", "posting", "socialmediaposting", "report", "advertisercontentarticle",
    "satiricalarticle", "medicalscholarlyarticle", "blog", "howto", "recipe",
})
_MAX_LD_CHARS = 500_000  # a larger script is an app's state, not the page's description
_MAX_LD_NODES = 2_000
_ITEMPROPS = frozenset({"author", "creator", "datepublished", "datecreated", "datemodified", "headline",
                        "articlesection", "inlanguage", "keywords", "publisher"})
#: how pages write the ``itemprop`` attribute (a case-insensitive search costs ~30x more)
_ITEMPROP_SPELLINGS = ("itemprop", "itemProp", "ITEMPROP")
_ATTR_VALUE = re.compile(r"""\s*=\s*["']?([^"'>]+)""")
_ITEMPROP_XPATH = etree.XPath("//*[@itemprop]")


@dataclass
class PageFacts:
    """The raw facts of one page (strings as found, whitespace collapsed).

    :func:`page_facts` reads ``<meta>``, ``<link>``, ``<title>``, ``<h1>`` and JSON-LD in
    one filtered iteration (lxml's, in C).  What only some pages need (microdata, ``<time
    datetime>``, ``<a rel=author>``: asked for when structured data lacks a field) is
    read on first access, in one more pass over the tree.
    """

    meta: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    #: JSON-LD objects, the page's own article first (see :data:`ARTICLE_TYPES`).
    ld: list[dict[str, Any]] = field(default_factory=list)
    #: the JSON-LD objects typed as articles (the page's own, in page order), a prefix of ``ld``
    ld_articles: list[dict[str, Any]] = field(default_factory=list)
    canonical: str | None = None
    lang: str | None = None
    title: str | None = None  # <title>
    h1: list[str] = field(default_factory=list)
    h1_elements: list[Any] = field(default_factory=list)  # the elements of ``h1``, in the same order
    headline_at: int | None = None  # which <h1> is the headline (-1: none), worked out on first need (fields)
    neighbourhood: Any = None  # the headline's surroundings, or page typing's reading of them (fields.headline_neighbourhood)
    tree: Any = field(default=None, repr=False)
    html: str | None = field(default=None, repr=False)
    _named: frozenset[str] | None = field(default=None, repr=False)  # itemprop values in the html
    _items: dict[str, list[tuple[str, Any]]] | None = field(default=None, repr=False)
    _item_order: dict[Any, int] = field(default_factory=dict, repr=False)  # microdata element -> its place
    _times: list[tuple[str, Any]] | None = field(default=None, repr=False)
    _author_links: list[str] | None = field(default=None, repr=False)
    #: the ``<time>`` and ``<a rel=author>`` elements, where :func:`page_facts`'s pass over the
    #: tree found them (compiled: one pass for all), else None (searched for on first use)
    _time_elements: list[Any] | None = field(default=None, repr=False)
    _rel_authors: list[Any] | None = field(default=None, repr=False)
    _dt_headers: bool | None = field(default=None, repr=False)  # whether the html has "<dt><"
    _no_dt: bool = field(default=False, repr=False)  # whether the compiled pass found no <dt> element
    #: whether a ``<p>`` of the tree opens with ``<strong>``/``<b>`` (None: not known)
    bold_paragraph: bool | None = field(default=None, repr=False)
    #: the elements with an ``itemprop`` attribute, where :func:`page_facts`'s compiled pass
    #: went over the whole document (None: not known; the microdata's search finds them)
    _itemprop_elements: list[Any] | None = field(default=None, repr=False)
    _tree_props: frozenset[str] | None = field(default=None, repr=False)  # their itemprop words, lower case

    def first_meta(self, *names: str) -> tuple[str, str] | None:
        """The first non-empty ``<meta>`` content among ``names`` (in that order), with its name."""
        for name in names:
            for value in self.meta.get(name, ()):
                if value:
                    return name, value
        return None

    def article_ld(self) -> list[dict[str, Any]]:
        """The JSON-LD objects typed as articles (the page's own, in page order)."""
        return self.ld_articles

    @property
    def items(self) -> dict[str, list[tuple[str, Any]]]:
        """Microdata: lower-cased itemprop -> [(text or content, element)] (read on first use)."""
        if self._items is None:
            self._items = _microdata(self.tree, self._item_order, self._itemprop_elements)
        return self._items

    def microdata_order(self) -> dict[Any, int]:
        """The microdata elements' places in the page (element -> index), to merge properties."""
        _ = self.items
        return self._item_order

    def microdata(self, prop: str) -> list[tuple[str, Any]]:
        """The values of one microdata property (lower case, one of :data:`_ITEMPROPS`).

        A property no element of the tree names is not there (where the page facts' pass
        found the ``itemprop`` elements: most pages have none, and their text is not
        scanned); with the page's ``html`` known, a property its text never names is not
        searched for (a substring test instead of a pass over the tree)."""
        if self._items is None and self._itemprop_elements is not None:
            if self._tree_props is None:
                self._tree_props = frozenset(word for el in self._itemprop_elements
                                             for word in (el.get("itemprop") or "").lower().split())
            if prop not in self._tree_props:
                return []
        if self._items is None and self.html is not None:
            if self._named is None:
                self._named, self._dt_headers = _text_scan(self.html)
            if prop not in self._named:
                return []
        return self.items.get(prop, [])

    def dt_headers_named(self) -> bool:
        """Whether the page's text holds ``<dt><`` (:func:`.threads.post_headers`' test of
        the text), from the microdata's scan of it where that was made; False without a
        scan where the tree has no ``<dt>`` (no post header to find: the same answer)."""
        if self._no_dt:
            return False
        if self._dt_headers is None:
            self._dt_headers = self.html is not None and "<dt><" in self.html
        return self._dt_headers

    @property
    def times(self) -> list[tuple[str, Any]]:
        """``<time datetime>``: [(datetime attribute, element)] (read on first use)."""
        if self._times is None:
            self._times = []
            if self.tree is not None:
                found = self._time_elements if self._time_elements is not None else self.tree.iter("time")
                for el in found:
                    value = el.get("datetime")
                    if value and value.strip():
                        self._times.append((value.strip(), el))
        return self._times

    @property
    def author_links(self) -> list[str]:
        """The texts of ``<a rel=author>`` (read on first use)."""
        if self._author_links is None:
            self._author_links = []
            if self.tree is not None:
                found = self._rel_authors if self._rel_authors is not None else rel_author_links(self.tree)
                for el in found:
                    text = _text(el)
                    if text:
                        self._author_links.append(text)
        return self._author_links


def rel_author_links(tree: Any) -> list[Any]:
    """The ``<a>`` of ``tree`` whose ``rel`` names ``author``, in page order (compiled where
    built: the Python search makes a proxy of every link)."""
    if _COMPILED is not None:
        return _COMPILED.rel_author_links(tree)
    return [el for el in tree.iter("a") if (rel := el.get("rel")) and "author" in rel.lower().split()]


_OPENGRAPH = ("og:", "article:", "twitter:")


def meta_source(name: str) -> str:
    """The ``meta_source`` of a ``<meta>`` name: ``opengraph`` (og:, article:, twitter:) or ``meta``."""
    return "opengraph" if name.startswith(_OPENGRAPH) else "meta"


def ld_values(facts: PageFacts, key: str, any_node: bool = True) -> list[tuple[Any, str]]:
    """The values of one JSON-LD key, in the page's order: of every object, or
    (``any_node=False``) of the objects typed as articles only."""
    nodes = facts.ld if any_node else facts.ld_articles
    return [(n[key], "json-ld") for n in nodes if n.get(key)]


def ld_text(value: Any) -> str | None:
    """A JSON-LD value as one line of text (an object's name, url or id; a list's first)."""
    if isinstance(value, str):
        return " ".join(value.split()) or None
    if isinstance(value, dict):
        return ld_text(value.get("name") or value.get("url") or value.get("@id"))
    if isinstance(value, list) and value:
        return ld_text(value[0])
    return None


def _squash(text: str | None) -> str:
    return " ".join(text.split()) if text else ""


def ld_types(node: dict[str, Any]) -> set[str]:
    """The lower-cased ``@type`` names of one JSON-LD node (a name or a list of them)."""
    kind = node.get("@type")
    if isinstance(kind, str):
        return {kind.lower()}
    if isinstance(kind, list):
        return {k.lower() for k in kind if isinstance(k, str)}
    return set()


def _text(el: Any) -> str:
    try:
        return _squash("".join(el.itertext()))
    except (ValueError, TypeError):
        return ""


def page_facts(tree: Any, html: str | None = None) -> PageFacts:
    """Gather the facts of a parsed page (``Page.tree``); an unreadable part is skipped.

    ``html``, the text the tree was parsed from, is optional: with it, microdata is
    searched for only when the text names a wanted property (:meth:`PageFacts.microdata`).
    """
    facts = PageFacts(tree=tree, html=html)
    if tree is None:
        return facts
    facts.lang = _squash(tree.get("lang") or tree.get("xml:lang")) or None
    scripts: list[str] = []
    if _ONE_PASS and isinstance(tree, etree._Element):
        # (one pass in C also finds what ``times`` and ``author_links`` read: each is a pass
        # over the whole tree, as costly as this one, on a large page ~0.05 ms)
        elements, facts._time_elements, facts._rel_authors, items, dt, bold = _COMPILED.fact_elements(tree)
        facts._no_dt = not dt  # (post headers are searched for in this tree: tree.iter("dt"))
        if tree.getparent() is None:  # (the document's root: the pass saw every element the search would)
            facts._itemprop_elements = items
            facts.bold_paragraph = bold
    else:
        elements = tree.iter(*_TAGS)
    _read(facts, elements, scripts)
    facts.ld, facts.ld_articles = _json_ld(scripts)
    return facts


_TAGS = ("meta", "script", "link", "title", "h1")
_META_KEYS = frozenset(("property", "name", "itemprop", "http-equiv"))
_ONE_PASS = (_COMPILED is not None and getattr(_COMPILED, "FACT_TAGS", None) == _TAGS  # (a build of these tags,
             and getattr(_COMPILED, "FACT_PASS", 1) == 2 and getattr(_COMPILED, "META_KEYS", None) == _META_KEYS)
_TEXT_SCAN = (_COMPILED is not None and getattr(_COMPILED, "ITEMPROP_SPELLINGS", None) == _ITEMPROP_SPELLINGS
              and _COMPILED.DT_HEADER == "<dt><")


def _read(facts: PageFacts, elements: Any, scripts: list[str]) -> None:
    """Take the facts of ``elements`` (``<meta>``, JSON-LD ``<script>``, ``<link>``,
    ``<title>``, ``<h1>``; a ``<meta>`` may be given as the compiled pass reads it:
    ``(content, names)``)."""
    meta = facts.meta
    for el in elements:
        if type(el) is tuple:
            content = " ".join(el[0].split())
            for name in el[1]:
                meta[name.strip().lower()].append(content)
            continue
        tag = el.tag
        if tag == "meta":
            content = el.get("content")
            if content is None:
                continue
            content = " ".join(content.split())
            for key, name in el.items():
                if name and key in _META_KEYS:
                    meta[name.strip().lower()].append(content)
        elif tag == "script":  # (the type first: a page's inline code is long text, read only for JSON-LD)
            kind = el.get("type")
            if kind and kind.strip().lower() == "application/ld+json" and el.text:
                scripts.append(el.text)
        elif tag == "link":
            if facts.canonical is None and "canonical" in (el.get("rel") or "").lower().split():
                href = (el.get("href") or "").strip()
                if href:
                    facts.canonical = href
        elif tag == "title":
            if facts.title is None:
                facts.title = _text(el) or None
        else:
            text = _text(el)
            if text:
                facts.h1.append(text)
                facts.h1_elements.append(el)


def _text_scan(html: str) -> tuple[frozenset[str], bool | None]:
    """:func:`_props_named`, and whether the text holds ``<dt><`` (None: not looked at):
    compiled, one scan of the text for both (four ``str.find`` scans of it before)."""
    if not _TEXT_SCAN:
        return _props_named(html), None
    ends, dt = _COMPILED.text_marks(html)
    named: set[str] = set()
    for end in ends:
        value = _ATTR_VALUE.match(html, end)
        if value:
            named.update(value.group(1).lower().split())
    return frozenset(named), dt


def _props_named(html: str) -> frozenset[str]:
    """The (lower-cased) microdata properties a page's text names."""
    named: set[str] = set()
    for word in _ITEMPROP_SPELLINGS:  # (str.find: a regex scan of the whole text costs ~5x more)
        at = html.find(word)
        while at >= 0:
            value = _ATTR_VALUE.match(html, at + len(word))
            if value:
                named.update(value.group(1).lower().split())
            at = html.find(word, at + len(word))
    return frozenset(named)


def _microdata(tree: Any, order: dict[Any, int], found: list[Any] | None = None) -> dict[str, list[tuple[str, Any]]]:
    """The page's microdata properties that name its article (:data:`_ITEMPROPS`), in page
    order; ``order`` gets each element's place.  ``found``: the page's ``itemprop``
    elements in page order where they are known (else searched for)."""
    items: dict[str, list[tuple[str, Any]]] = defaultdict(list)
    if tree is None:
        return items
    try:
        for i, el in enumerate(_ITEMPROP_XPATH(tree) if found is None else found):
            order[el] = i
            for prop in (el.get("itemprop") or "").lower().split():
                if prop in _ITEMPROPS:
                    value = el.get("content") or el.get("datetime") or _text(el)
                    if value:
                        items[prop].append((_squash(value), el))
    except (ValueError, etree.Error):
        pass
    return items


def _json_ld(scripts: list[str]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Every JSON-LD object of the page (nested ones too), articles first; and the articles."""
    nodes: list[dict[str, Any]] = []
    for raw in scripts:
        if len(raw) > _MAX_LD_CHARS:
            continue
        try:
            data = json.loads(raw.strip().rstrip(";"))
        except ValueError:
            try:  # some CMSs leave raw control characters in strings
                data = json.loads(raw, strict=False)
            except ValueError:
                continue
        stack = [data]
        while stack and len(nodes) < _MAX_LD_NODES:
            node = stack.pop(0)
            if isinstance(node, list):
                stack.extend(node)
            elif isinstance(node, dict):
                nodes.append(node)
                graph = node.get("@graph")
                if isinstance(graph, list):
                    stack.extend(graph)
                main = node.get("mainEntity")
                if isinstance(main, (dict, list)):
                    stack.append(main)
    if not nodes:
        return [], []
    kinds = [bool(ld_types(n) & ARTICLE_TYPES) for n in nodes]
    articles = [n for n, is_article in zip(nodes, kinds) if is_article]
    return articles + [n for n, is_article in zip(nodes, kinds) if not is_article], articles
