"""What a part the cleaning left out of the article is (issue #25).

A single-page method keeps one element and leaves some of its parts out; the typed
blocks (:mod:`newsstemmer.blockwalk`) bring those parts back out of the default body,
typed, so that a convention that keeps them can ask for them.  :func:`left_out_kind`
types a part by its tag and its ``class``/``id`` names (a caption, a code listing, a
byline, a related-links box, comments...; ``boilerplate`` when nothing says).  A
``boilerplate`` part may still be one of the optional parts that keep their structure
(:func:`left_out_part`):

- ``links``: a list of links or a table of contents (:func:`link_part`);
- ``text``: running text, paragraphs with few links (:func:`running_text`): a section of
  the article the cleaning judged outside it, or the article's continuation in an element
  beside the one the method chose (:mod:`newsstemmer.single.continuation`).

Mozilla Readability's output keeps both inside the article; the news golds leave them
out, so they stay out of the default body.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from lxml import etree

from .dom.walk import element_text

__all__ = ["LINK_PART_SHARE", "TEXT_LINK_SHARE", "TEXT_MIN_CHARS", "TEXT_PARAGRAPH_SHARE", "item_list", "kept_name_kind", "left_out_kind",
           "left_out_part", "link_part", "running_text", "site_furniture"]

#: What a left-out element is, by words in its ``class`` and ``id`` (first match wins).
_OUT_NAMES = (
    ("comments", re.compile(r"comment|disqus|discussion|reply|replies", re.I)),
    ("caption", re.compile(r"caption|credit|figcap", re.I)),
    ("byline", re.compile(r"byline|author|contributor|writer", re.I)),
    ("dateline", re.compile(r"dateline|date|time|publish|posted|updated", re.I)),
    ("bio", re.compile(r"\bbio|about-the-author|author-info", re.I)),
    ("lead", re.compile(r"standfirst|\blead\b|\bdek\b|subtitle|summary|intro|teaser-text", re.I)),
    ("related", re.compile(r"related|recommend|more|promo|teaser|read-?next|also|trending|popular|outbrain|taboola",
                           re.I)),
)


#: Names that say a left-out list is the site's navigation, sharing buttons, advertising or
#: tags rather than a list of the article's (such a part stays ``boilerplate``).
_SITE_LIST_NAMES = re.compile(
    r"nav|menu|breadcrumb|crumb|pagination|pager|share|sharing|social|follow|(^|[^a-z])ads?([^a-z]|$)|advert|"
    r"sponsor|footer|sidebar|widget|tags?([^a-z]|$)|categor|keyword|subscribe|newsletter|login|search",
    re.I)
#: Tags of a left-out element that is the page's own furniture, never a list of the article's.
_SITE_TAGS = frozenset({"aside", "nav", "footer", "form"})
#: A left-out part is a ``links`` part when this share of its text or more is in lists or links.
LINK_PART_SHARE = 0.5
_LIST_TAGS = ("ul", "ol", "dl")

#: Names that type a block the cleaning kept (it stays in the body, typed).
_KEPT_NAMES = re.compile(r"byline|dateline|caption", re.I)
_KEPT_WORDS = ("byline", "dateline", "caption")
_KEPT_WORDS_BY_LETTER = {word[0]: word for word in _KEPT_WORDS}


def kept_name_kind(el: etree._Element) -> str:
    """``paragraph``, or ``byline``/``dateline``/``caption`` for a block element the cleaning
    kept that is named so: the first of those words in its ``class``, else its ``id``,
    ignoring case (the typed walk asks for every paragraph-like element of the body)."""
    names = el.get("class") or el.get("id")
    if not names:
        return "paragraph"
    if names.isascii():  # (most names: substring look-ups, the regex's answer at a tenth of its cost)
        low = names.lower()
        found, at = "paragraph", -1
        for word in _KEPT_WORDS:  # (no two words start alike: the leftmost is the regex's match)
            k = low.find(word)
            if k >= 0 and (at < 0 or k < at):
                found, at = word, k
        return found
    match = _KEPT_NAMES.search(names)  # (IGNORECASE folds some non-ASCII letters: the regex decides)
    if match is None:
        return "paragraph"
    return _KEPT_WORDS_BY_LETTER[match.group(0)[0].lower()]  # ("BYLıNE" is a byline: the kind's own name)


def left_out_kind(el: etree._Element) -> str:
    """The optional kind of an element the cleaning left out (``boilerplate``: nothing says)."""
    tag = el.tag
    if tag == "figcaption":
        return "caption"
    if tag == "figure":
        return "figure"
    if tag == "pre":
        return "code"
    if tag == "time":
        return "dateline"
    names = f"{el.get('class') or ''} {el.get('id') or ''} {el.get('itemprop') or ''}"
    if names.strip():
        for kind, pattern in _OUT_NAMES:
            if pattern.search(names):
                return kind
    return "boilerplate"


def site_furniture(el: etree._Element) -> bool:
    """Whether ``el`` is the page's own furniture by its tag (:data:`_SITE_TAGS`) or its
    ``class``/``id`` names (:data:`_SITE_LIST_NAMES`: navigation, sharing, ads, tags...)."""
    if el.tag in _SITE_TAGS:
        return True
    names = f"{el.get('class') or ''} {el.get('id') or ''}"
    return bool(names.strip()) and _SITE_LIST_NAMES.search(names) is not None


def link_part(el: etree._Element) -> bool:
    """Whether a left-out element that no name types (``boilerplate``) is a ``links`` part:
    not the page's furniture by tag or name (:data:`_SITE_TAGS`, :data:`_SITE_LIST_NAMES`),
    and a list, or :data:`LINK_PART_SHARE` of its text or more in lists, or in two links or
    more.  Readability keeps such parts inside the article (tables of contents, "see also"
    and link lists); the news golds do not, so they stay out of the default body."""
    return not site_furniture(el) and _link_shaped(el, *_text_shape(el))


def _text_shape(el: etree._Element) -> tuple[int, list[int]]:
    """The characters of ``el``'s text and of each of its links' texts (the empty ones left
    out): what :func:`link_part` and :func:`running_text` both measure."""
    return len(element_text(el)), [n for n in map(len, map(element_text, el.iter("a"))) if n]


def _link_shaped(el: etree._Element, total: int, links: list[int]) -> bool:
    """:func:`link_part` past the furniture test, ``el``'s text measured (:func:`_text_shape`)."""
    if not total:
        return False
    if el.tag in _LIST_TAGS:
        return True
    if sum(len(element_text(x)) for x in _outer_lists(el)) >= LINK_PART_SHARE * total:
        return True
    return len(links) > 1 and sum(links) >= LINK_PART_SHARE * total  # (one link is a button or a teaser)


def _outer_lists(el: etree._Element) -> Iterable[etree._Element]:
    """The lists inside ``el`` that no other list inside ``el`` holds."""
    for found in el.iterdescendants(*_LIST_TAGS):
        up = found.getparent()
        while up is not el and up.tag not in _LIST_TAGS:
            up = up.getparent()
        if up is el:
            yield found


#: Running text (:func:`running_text`) holds this many characters at least ...
TEXT_MIN_CHARS = 300
#: ... at most this share of them in links ...
TEXT_LINK_SHARE = 0.25
#: ... and this share or more in paragraphs (``p``) that no list item holds.
TEXT_PARAGRAPH_SHARE = 0.5
_ITEM_TAGS = frozenset({"li", "dd"})


def running_text(el: etree._Element) -> bool:
    """Whether ``el`` is running text: not the page's furniture by tag (:data:`_SITE_TAGS`),
    at least :data:`TEXT_MIN_CHARS` characters, at most :data:`TEXT_LINK_SHARE` of them in
    links and :data:`TEXT_PARAGRAPH_SHARE` or more in paragraphs outside lists (a gallery's
    or a teaser list's paragraphs sit in list items)."""
    return el.tag not in _SITE_TAGS and _running_shaped(el, *_text_shape(el))


def _running_shaped(el: etree._Element, total: int, links: list[int]) -> bool:
    """:func:`running_text` past the furniture test, ``el``'s text measured (:func:`_text_shape`)."""
    if total < TEXT_MIN_CHARS or sum(links) > TEXT_LINK_SHARE * total:
        return False
    in_paragraphs = sum(len(element_text(p)) for p in el.iter("p")
                        if next(p.iterancestors(*_ITEM_TAGS), None) is None)
    return in_paragraphs >= TEXT_PARAGRAPH_SHARE * total


def left_out_part(el: etree._Element) -> str | None:
    """The optional part a ``boilerplate`` left-out element is, typed by its structure:
    ``links`` (:func:`link_part`), ``text`` (:func:`running_text`), or None (its text
    measured once for both)."""
    if el.tag in _SITE_TAGS:  # (furniture by tag is neither)
        return None
    total, links = _text_shape(el)
    if not site_furniture(el) and _link_shaped(el, total, links):
        return "links"
    return "text" if _running_shaped(el, total, links) else None


def item_list(el: etree._Element) -> bool:
    """Whether ``el`` is a list of items of text (pros and cons, key facts, a date line
    set as a list): a ``ul``/``ol`` with text and no picture (a gallery, avatars), that no
    name types (``boilerplate``), not the page's furniture by tag or name, and at most
    :data:`TEXT_LINK_SHARE` of its text in links (a list of links beside the article is
    the site's)."""
    if el.tag not in ("ul", "ol") or left_out_kind(el) != "boilerplate" or site_furniture(el):
        return False
    if next(el.iter("img", "picture"), None) is not None:
        return False
    total, links = _text_shape(el)
    return total > 0 and sum(links) <= TEXT_LINK_SHARE * total
