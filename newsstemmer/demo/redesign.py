"""The demo site's redesign (served from :data:`~newsstemmer.demo.days.REDESIGN_DAY` on).

:func:`redesign` rewrites a page of the original design into the new one, as a
site's new front-end would serve the same content:

* other class names and ids everywhere (``entry-content`` → ``story__text``…;
  per-article tokens keep their numbers: ``post-40213`` → ``story-40213``; the
  WordPress tag/category/status tokens are gone);
* other elements and nesting: ``article``/``header``/``footer``/``aside``/``section``/
  ``nav`` become ``div``\\s, the main column and the text gain wrappers;
* other box order: the sidebar comes before the main column, the navigation after
  the logo bar and the advert, an article's tags and share tools before its text,
  the standfirst after the byline, related stories after the comments.

The text of every element is left as it was, so the articles' truth does not
change with the design.
"""

from __future__ import annotations

import re

from lxml import etree
from lxml import html as lxml_html

__all__ = ["redesign"]

#: Old class/id word -> new one (words not listed get a ``ui-`` prefix).
_WORDS = {
    "entry": "story", "content": "text", "post": "story", "title": "headline", "header": "head",
    "footer": "foot", "standfirst": "summary", "byline": "author-line", "meta": "info", "site": "app",
    "main": "primary", "sidebar": "rail", "widget": "module", "most": "top", "read": "viewed",
    "related": "further", "stories": "reading", "comment": "reply", "comments": "replies", "card": "tile",
    "archive": "listing", "masthead": "brand-bar", "menu": "links", "nav": "navigation", "wrap": "container",
    "column": "opinion", "columnist": "writer", "gallery": "album", "slide": "frame", "caption": "legend",
    "ad": "promo", "slot": "unit", "lead": "hero", "media": "visual", "tag": "topic", "list": "items",
    "kicker": "label", "share": "social", "tools": "buttons", "page": "view", "body": "main",
}
#: Tokens of the old design that named per-article properties: dropped.
_DROP = re.compile(r"^(?:tag|category|type|status|format|postid|section|single|depth)-")
_TOKEN_PART = re.compile(r"[a-z]+|[^a-z]+")
_RENAMED_TAGS = {"article", "header", "footer", "aside", "section", "nav"}


def _token(token: str) -> str:
    parts = _TOKEN_PART.findall(token.lower())
    return "".join(_WORDS.get(p, f"ui-{p}" if i == 0 else p) if p.isalpha() else p for i, p in enumerate(parts))


def _names(value: str) -> str:
    return " ".join(_token(t) for t in value.split() if not _DROP.match(t))


def _by_class(root: etree._Element, name: str) -> list[etree._Element]:
    return root.xpath(f'//*[contains(concat(" ", normalize-space(@class), " "), " {name} ")]')


def _move_before(el: etree._Element, anchor: etree._Element) -> None:
    if el is not anchor and el.getparent() is not None:
        anchor.addprevious(el)


def _wrap_children(el: etree._Element, cls: str) -> None:
    """Put all of ``el``'s children (and its text) inside a new ``div``."""
    wrapper = etree.SubElement(el, "div")
    wrapper.set("class", cls)
    wrapper.text, el.text = el.text, None
    for child in list(el)[:-1]:
        wrapper.append(child)


def _reorder(root: etree._Element) -> None:
    """Move the boxes (see the module docstring); pages without a box are left alone."""
    for body in _by_class(root, "page-body"):
        sidebar = [c for c in body if "sidebar" in (c.get("class") or "").split()]
        main = body.find("main")
        if sidebar and main is not None:
            _move_before(sidebar[0], main)
    for header in _by_class(root, "masthead"):
        nav = header.find("nav")
        if nav is not None:
            header.addnext(nav)
            ad = nav.getnext()
            if ad is not None and "ad-leaderboard" in (ad.get("class") or ""):
                nav.addprevious(ad)
    for art in root.iter("article"):
        content = _by_class(art, "entry-content")
        footer = _by_class(art, "entry-footer")
        if content and footer:
            _move_before(footer[0], content[0])
        dek, meta = _by_class(art, "standfirst"), _by_class(art, "entry-meta")
        if dek and meta:
            meta[0].addnext(dek[0])
    for main in root.iter("main"):
        related = [c for c in main if "related-stories" in (c.get("class") or "")]
        comments = [c for c in main if c.get("id") == "comments"]
        if related and comments:
            comments[0].addnext(related[0])
    for name in ("entry-content", "column-text", "gallery-slides", "entry-body", "card-list"):
        for el in _by_class(root, name):
            _wrap_children(el, "ui-inner")
    for main in root.iter("main"):
        _wrap_children(main, "layout-primary__column")


def redesign(text: str) -> str:
    """The page ``text`` (an HTML document of the original design) in the new design."""
    root = lxml_html.document_fromstring(text)
    doctype = root.getroottree().docinfo.doctype or "<!DOCTYPE html>"
    _reorder(root)
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        if el.tag in _RENAMED_TAGS:
            el.tag = "div"
        for name in ("class", "id"):
            value = el.get(name)
            if value is not None and el.tag not in ("html", "meta", "link"):
                new = _names(value) if name == "class" else _token(value)
                if new:
                    el.set(name, new)
                else:
                    del el.attrib[name]
    for a in root.iter("a"):  # in-page links follow their targets' new ids
        href = a.get("href") or ""
        if href.startswith("#") and len(href) > 1:
            a.set("href", "#" + _token(href[1:]))
    out = lxml_html.tostring(root, encoding="unicode", doctype=doctype)
    return out if out.endswith("\n") else out + "\n"
