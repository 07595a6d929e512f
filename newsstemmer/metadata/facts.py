"""What a page says about itself, gathered in one pass over its parsed tree.

Structured data (JSON-LD, including ``@graph`` and nested objects), microdata
(``itemprop``), ``<meta>`` tags (OpenGraph, Twitter, Dublin Core, Parse.ly, plain names),
``<time datetime>``, ``<link rel=canonical|author>``, the document language and the
page's own headlines.  Nothing here decides between sources: :mod:`.fields` does.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from lxml import etree

__all__ = ["ARTICLE_TYPES", "PageFacts", "page_facts"]

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


@dataclass
class PageFacts:
    """The raw facts of one page (strings as found, whitespace collapsed)."""

    meta: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    #: JSON-LD objects, the page's own article first (see :data:`ARTICLE_TYPES`).
    ld: list[dict[str, Any]] = field(default_factory=list)
    #: microdata: lower-cased itemprop -> [(text or content, element)]
    items: dict[str, list[tuple[str, Any]]] = field(default_factory=lambda: defaultdict(list))
    times: list[tuple[str, Any]] = field(default_factory=list)  # (datetime attribute, element)
    canonical: str | None = None
    author_links: list[str] = field(default_factory=list)  # text of <a rel=author>
    lang: str | None = None
    title: str | None = None  # <title>
    h1: list[str] = field(default_factory=list)
    neighbourhood: Any = None  # the headline's surroundings, walked on first need (fields._neighbourhood)

    def first_meta(self, *names: str) -> tuple[str, str] | None:
        """The first non-empty ``<meta>`` content among ``names`` (in that order), with its name."""
        for name in names:
            for value in self.meta.get(name, ()):
                if value:
                    return name, value
        return None

    def article_ld(self) -> list[dict[str, Any]]:
        """The JSON-LD objects typed as articles (the page's own, in page order)."""
        return [node for node in self.ld if _types(node) & ARTICLE_TYPES]


def _squash(text: str | None) -> str:
    return " ".join(text.split()) if text else ""


def _types(node: dict[str, Any]) -> set[str]:
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


def page_facts(tree: Any) -> PageFacts:
    """Gather the facts of a parsed page (``Page.tree``); an unreadable part is skipped."""
    facts = PageFacts()
    if tree is None:
        return facts
    facts.lang = _squash(tree.get("lang") or tree.get("xml:lang")) or None
    scripts: list[str] = []
    for el in tree.iter("meta", "script", "time", "link", "a", "title", "h1"):
        tag = el.tag
        if tag == "meta":
            content = el.get("content")
            if content is None:
                continue
            for key in ("property", "name", "itemprop", "http-equiv"):
                name = el.get(key)
                if name:
                    facts.meta[name.strip().lower()].append(_squash(content))
        elif tag == "script":
            if (el.get("type") or "").strip().lower() == "application/ld+json" and el.text:
                scripts.append(el.text)
        elif tag == "time":
            value = el.get("datetime")
            if value and value.strip():
                facts.times.append((value.strip(), el))
        elif tag == "link":
            rel = (el.get("rel") or "").lower().split()
            if "canonical" in rel and facts.canonical is None and (el.get("href") or "").strip():
                facts.canonical = el.get("href").strip()
        elif tag == "a":
            if "author" in (el.get("rel") or "").lower().split():
                text = _text(el)
                if text:
                    facts.author_links.append(text)
        elif tag == "title":
            if facts.title is None:
                facts.title = _text(el) or None
        elif tag == "h1":
            text = _text(el)
            if text:
                facts.h1.append(text)
    facts.ld = _json_ld(scripts)
    try:
        for el in tree.xpath("//*[@itemprop]"):
            for prop in (el.get("itemprop") or "").lower().split():
                if prop in _ITEMPROPS:
                    value = el.get("content") or el.get("datetime") or _text(el)
                    if value:
                        facts.items[prop].append((_squash(value), el))
    except (ValueError, etree.Error):
        pass
    return facts


def _json_ld(scripts: list[str]) -> list[dict[str, Any]]:
    """Every JSON-LD object of the page (nested ones too), articles first."""
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
    articles = [n for n in nodes if _types(n) & ARTICLE_TYPES]
    return articles + [n for n in nodes if not _types(n) & ARTICLE_TYPES]
