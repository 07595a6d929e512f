"""The article a page carries in its scripts' data, for pages that render it in the browser.

Some of today's sites send the article's HTML only as data: a Next.js page streams it in
``self.__next_f.push([1, "..."])`` calls (React Server Components), others put it in
``__NEXT_DATA__`` or a ``window.__STATE__ = {...}`` object; the markup a parser sees holds
the headline and little else.  When the body found in the markup is near-empty, the
richest HTML string in the page's inline scripts that holds paragraphs is the article a
browser would show, provided the page's headline stands beside it in the same data (an
article's record carries its title; a terms-of-service dialog or another page's teaser
does not).

Strings are read as JSON string literals (decoded by :func:`json.loads`, never
evaluated); data nested as a string inside a string (RSC payloads) is decoded again, up
to :data:`MAX_DEPTH` times.  Nothing here reads a word of the page's language.
"""

from __future__ import annotations

import json
import re

from lxml import etree

from ...dom.parse import HTMLParseError, parse_html

__all__ = ["MARKUP_BODY_MAX", "MIN_PARAGRAPHS", "article_page", "embedded_article_html"]

#: Only a body of fewer word characters than this (about a sentence or two) found in the
#: markup is replaced: a page whose markup shows a text of its own is what it shows.
MARKUP_BODY_MAX = 400

#: An embedded string is an article's HTML when it holds at least this many paragraphs.
MIN_PARAGRAPHS = 2
#: Strings shorter than this (characters, escaped) are not read.
MIN_LENGTH = 400
#: Scripts longer than this (characters) are not read: a page's data rarely is.
MAX_SCRIPT = 8_000_000
#: How many times a string found inside a decoded string is decoded again.
MAX_DEPTH = 3
#: The headline is looked for this many characters before and after the string ...
NEAR = 4000
#: ... and is found there when this share of its words is.
HEADLINE_SHARE = 0.6
# A JSON string literal: quote, then runs of plain characters or escapes, then quote.
_STRING = re.compile(r'"((?:[^"\\\n]|\\.){%d,})"' % MIN_LENGTH)
# A paragraph tag, plain or with its "<" escaped as JSON writes it.
_PARAGRAPH = re.compile(r"(?:<|\\u003[cC])p[\s>]")
_WORD = re.compile(r"\w+")
_ESCAPE = re.compile(r"\\u([0-9a-fA-F]{4})")


def _html_strings(text: str, depth: int = 0) -> list[tuple[str, str]]:
    """(decoded string, the text around it) of each JSON string literal of ``text`` that
    holds paragraph tags; a string of HTML within a decoded string is found too."""
    found: list[tuple[str, str]] = []
    for m in _STRING.finditer(text):
        raw = m.group(1)
        if len(_PARAGRAPH.findall(raw)) < MIN_PARAGRAPHS:
            continue
        try:
            value = json.loads('"' + raw + '"')
        except ValueError:
            continue
        if not isinstance(value, str):
            continue
        if depth + 1 < MAX_DEPTH and '\\"' in raw:
            inner = _html_strings(value, depth + 1)
            if inner:
                found.extend(inner)
                continue
        found.append((value, text[max(0, m.start() - NEAR): m.end() + NEAR]))
    return found


def _words(text: str) -> set[str]:
    unescaped = _ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), text)
    return {w.lower() for w in _WORD.findall(unescaped)}


def _beside_headline(headline_words: set[str], around: str) -> bool:
    """Whether most of the headline's words stand in ``around``."""
    return len(headline_words & _words(around)) >= HEADLINE_SHARE * len(headline_words)


def article_page(html: str) -> etree._Element | None:
    """An HTML fragment parsed as a page whose one ``<article>`` holds it (the page the
    region extractor reads the embedded article from), or None when nothing parses."""
    try:
        return parse_html("<html><body><article>" + html + "</article></body></html>")
    except HTMLParseError:
        return None


def _paragraph_chars(root: etree._Element) -> int:
    """Word characters inside the ``<p>`` elements of a parsed fragment."""
    return sum(len(w) for p in root.iter("p") for w in _WORD.findall("".join(p.itertext())))


def embedded_article_html(root: etree._Element, headline: str) -> tuple[str, int, etree._Element] | None:
    """(HTML, word characters in its paragraphs, the HTML parsed by :func:`article_page`)
    of the richest article-like HTML string in ``root``'s inline scripts with
    ``headline`` beside it, or None where no script holds one (or the page has no
    headline).  Each string is parsed once: the winner's tree is the one extracted."""
    headline_words = {w.lower() for w in _WORD.findall(headline)}
    if not headline_words:
        return None
    best: tuple[str, int, etree._Element] | None = None
    for script in root.iter("script"):
        text = script.text
        if not text or len(text) < MIN_LENGTH or len(text) > MAX_SCRIPT or script.get("src"):
            continue
        for html, around in _html_strings(text):
            if not _beside_headline(headline_words, around):
                continue
            page = article_page(html)
            chars = _paragraph_chars(page) if page is not None else 0
            if chars and (best is None or chars > best[1]):
                best = (html, chars, page)
    return best
