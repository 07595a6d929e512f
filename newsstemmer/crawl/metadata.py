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
#: The elements metadata is read from, found in one pass over the tree.
_TAGS = ("meta", "script", "time", "link")
_LOWER_CANONICAL = str.maketrans("CANONIL", "canonil")  # (as XPath's translate(): those letters only)
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
    metas: list[Any] = []  # <meta content>
    scripts: list[str] = []  # JSON-LD
    times: list[Any] = []  # <time datetime>
    href = None  # the first <link rel=canonical href>
    try:
        for el in tree.iter(_TAGS):
            tag = el.tag
            if tag == "meta":
                if el.get("content") is not None:
                    metas.append(el)
            elif tag == "script":
                if el.get("type") == "application/ld+json":  # its text nodes, as XPath's text() gives them
                    scripts.extend(t for t in (el.text, *(child.tail for child in el)) if t)
            elif tag == "time":
                if el.get("datetime") is not None:
                    times.append(el)
            elif href is None and (rel := el.get("rel")) is not None and el.get("href") is not None:
                if rel.translate(_LOWER_CANONICAL) == "canonical":
                    href = el.get("href")
        published = _from_meta(metas) or _from_json_ld(scripts) or _from_time(times)
        canonical = urljoin(url, href.strip()) if href and href.strip() else None
    except (ValueError, etree.Error):
        return PageMeta()
    return PageMeta(published, canonical)


def _from_meta(metas: list[Any]) -> str | None:
    found: dict[str, str] = {}
    for el in metas:
        name = (el.get("property") or el.get("name") or el.get("itemprop") or "").strip().lower()
        if name in _META_NAMES and name not in found and el.get("content", "").strip():
            found[name] = el.get("content").strip()
    return next((found[n] for n in _META_NAMES if n in found), None)


def _from_json_ld(scripts: list[str]) -> str | None:
    for raw in scripts:
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


def _from_time(times: list[Any]) -> str | None:
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
