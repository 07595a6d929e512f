"""A page's own metadata the crawl keeps with its article: publication date and canonical URL.

``published`` is read, in this order, from ``<meta property="article:published_time">``
(and its common aliases), JSON-LD ``datePublished`` (also inside ``@graph``), and the
first ``<time datetime>`` (one marked ``published``/``pubdate`` first).  ``canonical``
is ``<link rel="canonical">`` made absolute.  Both read the page's one parse
(``Page.tree``); a page without them gets None.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any
from urllib.parse import urljoin

from lxml import etree

__all__ = ["PageMeta", "page_metadata", "visible_text"]

_META_NAMES = ("article:published_time", "og:published_time", "datepublished", "pubdate", "publishdate",
               "dc.date.issued", "date")
_META = etree.XPath("//meta[@content]")
_LD = etree.XPath('//script[@type="application/ld+json"]/text()')
_TIME = etree.XPath("//time[@datetime]")
_CANONICAL = etree.XPath('//link[@href][translate(@rel, "CANONIL", "canonil") = "canonical"]/@href')
_MAX_LD_CHARS = 100_000
#: The body's text nodes; in-body scripts are left in (a predicate to drop them made this
#: 3× slower, ~1.3 ms a demo page, and extra page text only makes a change look smaller).
_TEXT = etree.XPath("//body//text()", smart_strings=False)


@dataclass(frozen=True)
class PageMeta:
    published: str | None = None
    canonical: str | None = None


def page_metadata(tree: Any, url: str) -> PageMeta:
    """The publication date and canonical URL of a parsed page (None when absent)."""
    if tree is None:
        return PageMeta()
    try:
        published = _from_meta(tree) or _from_json_ld(tree) or _from_time(tree)
        hrefs = _CANONICAL(tree)
        canonical = urljoin(url, hrefs[0].strip()) if hrefs and hrefs[0].strip() else None
    except (ValueError, etree.Error):
        return PageMeta()
    return PageMeta(published, canonical)


def _from_meta(tree: Any) -> str | None:
    found: dict[str, str] = {}
    for el in _META(tree):
        name = (el.get("property") or el.get("name") or el.get("itemprop") or "").strip().lower()
        if name in _META_NAMES and name not in found and el.get("content", "").strip():
            found[name] = el.get("content").strip()
    return next((found[n] for n in _META_NAMES if n in found), None)


def _from_json_ld(tree: Any) -> str | None:
    for raw in _LD(tree):
        if len(raw) > _MAX_LD_CHARS:
            continue
        try:
            data = json.loads(raw)
        except ValueError:
            continue
        stack = [data]
        while stack:
            node = stack.pop(0)
            if isinstance(node, list):
                stack.extend(node)
            elif isinstance(node, dict):
                value = node.get("datePublished")
                if isinstance(value, str) and value.strip():
                    return value.strip()
                if isinstance(node.get("@graph"), list):
                    stack.extend(node["@graph"])
    return None


def _from_time(tree: Any) -> str | None:
    times = _TIME(tree)
    marked = [t for t in times if {"published", "pubdate"} & set((t.get("class") or "").split()) or t.get("pubdate")
              is not None]
    for t in marked + times:
        value = (t.get("datetime") or "").strip()
        if value:
            return value
    return None


def visible_text(tree: Any) -> str:
    """The text of the page's body (about what a reader could see; ~0.2 ms a demo page).

    Incremental runs compare a new version of an article with the whole text of the
    page it came from before, so that a body cut differently (new layouts after a
    redesign) is not taken for a changed article.
    """
    if tree is None:
        return ""
    try:
        return " ".join(_TEXT(tree))
    except (ValueError, etree.Error):
        return ""
