"""Applying a site's rules to one page, alone: which elements they select, and the
title and body text those elements give."""

from __future__ import annotations

from typing import Any

from lxml import etree

from ..dom.walk import END, START, walk
from ..layout.patterns import SitePatterns
from .blocks import BLOCK_LEVEL, EXCLUDED, PageInput, root_of
from .ruleset import RuleSet, rules_of

__all__ = ["apply_rules", "has_content", "match_rules", "text_lines"]


def has_content(el: etree._Element) -> bool:
    """Whether an element has text (outside excluded elements: script, style, ...)
    or an image (anywhere, even inside ``noscript``)."""
    text = el.text
    if text and not text.isspace() and el.tag not in EXCLUDED:
        return True  # most matched elements: no walk needed
    walker = walk(el)
    for event, node in walker:
        if event == START:
            tag = node.tag
            if tag == "img":
                return True
            if tag in EXCLUDED:
                # Not rendered, so no text; an image inside (a lazy-loading page's
                # <noscript><img>) still counts.  The element itself, when excluded,
                # only loses its own text.
                if node is not el:
                    if next(node.iter("img"), None) is not None:
                        return True
                    walker.skip_subtree()
                continue
            if node.text and not node.text.isspace():
                return True
        elif node is not el and node.tail and not node.tail.isspace() and node.tag not in EXCLUDED:
            # The tail of an element or comment; not of an excluded element (as
            # rules have always been applied: "<p><script/>text</p>" has no content).
            return True
    return False


def text_lines(el: etree._Element, skip: etree._Element | None = None) -> str:
    """An element's text: one line per block element or ``br``, spaces normalised.

    Excluded elements (script, style, ...) and ``skip``'s subtree give no text; their
    tails do.
    """
    pieces: list[str] = []
    walker = walk(el)
    for event, node in walker:
        if event == START:
            if node is el:
                if el.text:
                    pieces.append(el.text)
                continue
            tag = node.tag
            if tag in EXCLUDED or node is skip:
                walker.skip_subtree()
                continue
            if tag in BLOCK_LEVEL or tag == "br":
                pieces.append("\n")
            if node.text:
                pieces.append(node.text)
        elif node is not el:
            if event == END and node is not skip and node.tag in BLOCK_LEVEL:
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
            if has_content(el):
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
            if has_content(el):
                elements.append(el)
    return title_el, elements


def apply_rules(page: PageInput, rules: RuleSet | dict[str, Any] | SitePatterns | list) -> tuple[str, str]:
    """Extract ``(title, body)`` from one page with a site's rules (alone, no learning).

    ``page`` is a :class:`~newsstemmer.page.Page` (its own parse is used), a parsed
    tree, a parsel ``Selector`` or the HTML (parsed as parsel does).  ``rules`` is a
    :class:`RuleSet`, the dict :func:`~newsstemmer.rules.learn_rules` returns (as stored
    in ``extras["rules"]``), or a :class:`SitePatterns` holding them.  The body is the
    text of every matched element, one line per block, in document order; the title
    element's text is not repeated in the body.
    """
    ruleset = rules_of(rules)
    title_el, elements = match_rules(root_of(page), ruleset)
    title = text_lines(title_el).replace("\n", " ") if title_el is not None else ""
    parts = []
    for el in elements:
        skip = title_el if title_el is not None and _contains(el, title_el) else None
        text = text_lines(el, skip)
        if text:
            parts.append(text)
    return title, "\n".join(parts)


def _contains(outer: etree._Element, inner: etree._Element) -> bool:
    return any(a is outer for a in inner.iterancestors())
