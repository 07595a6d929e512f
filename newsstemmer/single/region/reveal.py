"""Read a page as a browser shows it, where its markup hides the article (issue 23).

Three patterns of today's pages put the article where DOM PageRank does not read it:

* **React streaming** (server-side rendering with Suspense): the content arrives in
  ``<div hidden id="S:x">`` segments at the end of the body, and a script moves each
  into its placeholder ``<template id="B:x">``.  The segment takes its placeholder's
  place (or, with no placeholder, is merely shown).
* **An article in** ``<noscript>``: a page whose visible part holds teasers and whose
  no-JavaScript copy holds the text.  A noscript with paragraphs that the visible page
  does not already show is read as a ``div``.
* **A page inside a** ``<button>``: libxml2 keeps a button open while it holds an
  unclosed ``<div>``, and the rest of the page lands inside it.  A button holding block
  elements and most of the page's text is read as a ``div``.

:func:`revealed` decides on the page's own tree and changes a copy, so the caller's tree
(``Page.tree``, which other methods read) stays as parsed.  Pages without these patterns
cost one pass over their elements in C and are returned as they are.
"""

from __future__ import annotations

import copy
import re

from lxml import etree

__all__ = ["revealed"]

#: A noscript is read as a div when it holds at least this many paragraphs ...
NOSCRIPT_PARAGRAPHS = 2
#: ... with at least this many word characters, ...
NOSCRIPT_MIN_CHARS = 300
#: ... of which less than this share repeats paragraphs the page shows anyway.
NOSCRIPT_DUPLICATE_SHARE = 0.5
#: A button is read as a div when it holds block elements and this share of the page's text.
BUTTON_PAGE_SHARE = 0.5
_BLOCKS = ("div", "p", "section", "article", "ul", "ol", "table", "h1", "h2", "h3")
_WORD = re.compile(r"\w+")
_UNSEEN = ("script", "style", "template", "noscript")


def _word_chars(el: etree._Element) -> int:
    return sum(map(len, _WORD.findall("".join(el.itertext()))))


def _key(p: etree._Element) -> str:
    """A paragraph's words, for telling a copy of a visible paragraph."""
    return " ".join(_WORD.findall("".join(p.itertext())))[:200]


def _segments(root: etree._Element, templates: dict[str, etree._Element]) -> list[tuple]:
    """(segment, its placeholder or None) of each hidden React segment."""
    out = []
    for seg in root.iterfind(".//div[@hidden]"):
        ident = seg.get("id") or ""
        if ident.startswith("S:"):
            out.append((seg, templates.get("B:" + ident[2:])))
    return out


def _noscripts(root: etree._Element, noscripts: list[etree._Element]) -> list[etree._Element]:
    """The noscripts holding an article the visible page lacks."""
    rich = []
    for ns in noscripts:
        paragraphs = list(ns.iter("p"))
        if len(paragraphs) >= NOSCRIPT_PARAGRAPHS:
            chars = [_word_chars(p) for p in paragraphs]
            if sum(chars) >= NOSCRIPT_MIN_CHARS:
                rich.append((ns, paragraphs, chars))
    if not rich:
        return []
    inside = {p for _, paragraphs, _ in rich for p in paragraphs}
    visible = {_key(p) for p in root.iter("p") if p not in inside}
    out = []
    for ns, paragraphs, chars in rich:
        repeated = sum(c for p, c in zip(paragraphs, chars) if _key(p) in visible)
        if repeated < NOSCRIPT_DUPLICATE_SHARE * sum(chars):
            out.append(ns)
    return out


def _buttons(root: etree._Element, buttons: list[etree._Element]) -> list[etree._Element]:
    """The buttons that swallowed most of the page."""
    out: list[etree._Element] = []
    page = -1
    for b in buttons:
        if next(b.iter(*_BLOCKS), None) is None or any(b in o.iterancestors() for o in out):
            continue
        chars = _word_chars(b)
        if chars < NOSCRIPT_MIN_CHARS:
            continue
        if page < 0:
            body = root.find("body")
            scope = body if body is not None else root
            page = _word_chars(scope) - sum(_word_chars(s) for s in scope.iter(*_UNSEEN))
        if chars >= BUTTON_PAGE_SHARE * page:
            out.append(b)
    return out


def revealed(root: etree._Element) -> tuple[etree._Element, list[str]]:
    """The page as a browser shows it: ``root`` itself when nothing is hidden the ways
    this module knows, else a changed copy; and what was revealed (``react``,
    ``noscript``, ``button``)."""
    templates: dict[str, etree._Element] = {}
    noscripts: list[etree._Element] = []
    buttons: list[etree._Element] = []
    for el in root.iter("template", "noscript", "button"):
        tag = el.tag
        if tag == "template":
            ident = el.get("id") or ""
            if ident.startswith("B:"):
                templates[ident] = el
        elif tag == "noscript":
            noscripts.append(el)
        else:
            buttons.append(el)
    segments = _segments(root, templates) if templates else []
    rich = _noscripts(root, noscripts) if noscripts else []
    swallowing = _buttons(root, buttons) if buttons else []
    if not (segments or rich or swallowing):
        return root, []
    marked = {id(el) for el in rich + swallowing}
    marked.update(id(el) for pair in segments for el in pair if el is not None)
    twin = copy.deepcopy(root)
    mapped = {id(a): b for a, b in zip(root.iter(), twin.iter()) if id(a) in marked}
    for seg, placeholder in segments:
        new = mapped[id(seg)]
        del new.attrib["hidden"]
        spot = mapped[id(placeholder)] if placeholder is not None else None
        parent = spot.getparent() if spot is not None else None
        if parent is not None and not any(a is new for a in spot.iterancestors()):
            at, tail = parent.index(spot), spot.tail
            parent.remove(spot)
            new.tail = tail
            parent.insert(at, new)  # (moves it from the end of the body)
    for el in rich + swallowing:
        mapped[id(el)].tag = "div"
    done = [name for name, found in (("react", segments), ("noscript", rich), ("button", swallowing)) if found]
    return twin, done
