"""The writer of a forum thread's first post, from the markup alone.

A thread page repeats one post container (XenForo's ``<article class="message">``,
phpBB's ``<div class="post">``, Invision's ``<article class="cPost">``, Flarum's
``<article>``), each with an element that names its writer (a class that says byline,
author or user name: the headline neighbourhood's byline marks,
:mod:`.neighbourhood`).  The first container's writer is the thread's starter, whoever
replied after; a thread's gold is its starter, where the page's first byline or
microdata scope is often a reply's writer.  Nothing here reads words, so it works in any
language; it starts from the byline marks the headline's neighbourhood already holds,
so a page costs a few ancestor steps.

A byline mark is a post's header only where its container (an ancestor) has a sibling
of the same kind (tag and first class word) that holds a byline mark too, the container
holds more text than the name (a post, not a list of names), and neither is in a
comments section (an article's comments repeat their writers the same way).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lxml import etree

from .neighbourhood import byline_marked, in_comments
from .people import FURNITURE, opens_with_by, plausible_name

__all__ = ["MIN_POSTS", "ThreadStarter", "post_headers", "thread_starter"]

#: post containers of one kind, each with a writer, that make a page a thread
MIN_POSTS = 3
_MARKS_TRIED = 3  # byline marks nearest the headline tried as the first post's header
#: marked elements that are controls, not a post's header ("Follow" buttons beside a byline)
_NOT_HEADERS = frozenset({"button", "input", "select", "option", "label", "form", "textarea", "time"})
_MAX_UP = 8  # ancestors of a mark tried as its post container
_MAX_NAME_CHARS = 60
_MIN_POST_CHARS = 40  # a post container's text beyond its writer's name
_SIBLINGS_TRIED = 3  # following siblings of a post container looked at for more posts
_HEADER_WITHIN = 200  # elements of a sibling looked at for its post header
#: words of a post header's labels and badges, never a writer's name ("Topic Author", "Share")
_LABEL_WORDS = FURNITURE | {"comment", "comments", "reply"}


@dataclass
class ThreadStarter:
    """The first post's writer, and how far the page looks like a thread (for the chooser)."""

    name: str
    container: Any  # the first post's container
    depth: int  # ancestor steps from the writer's mark to the container
    posts: int  # the container and the siblings of its kind after it with a writer (at most 1 + _SIBLINGS_TRIED)


def _marks(el: Any) -> str:
    return f"{el.get('class') or ''} {el.get('id') or ''}".lower()


def _in_comments(el: Any) -> bool:
    return "comment" in _marks(el) or in_comments(el)


def writer_name(el: Any) -> str:
    """The name a post header gives: its ``data-author``/``data-username`` value, else its
    first piece of text (before titles and post counts), or '' where that is no name."""
    for attr in ("data-author", "data-username"):
        value = el.get(attr)
        if value and value.strip():
            return " ".join(value.split())
    for piece in el.itertext(tag=etree.Element):
        text = " ".join(piece.split())
        if text:
            ok = (len(text) <= _MAX_NAME_CHARS and len(text.split()) <= 4 and any(c.isalpha() for c in text)
                  and not opens_with_by(text) and text[-1] not in ":/|,;"  # (a label, a credit's start)
                  and _LABEL_WORDS.isdisjoint(text.lower().split())
                  and plausible_name(text))
            return text if ok else ""
    return ""


def _kind(el: Any) -> tuple[str, str]:
    cls = (el.get("class") or "").split()
    return el.tag, cls[0] if cls else ""


def _has_mark(el: Any) -> bool:
    """Whether an element holds a byline mark (a post header) among its first
    :data:`_HEADER_WITHIN` elements (a post's header comes before its text)."""
    for inner, _ in zip(el.iter(etree.Element), range(_HEADER_WITHIN)):
        if inner.tag == "dt" and _bold_header(inner):
            return True
        marks = inner.get("class") or inner.get("id")
        if marks and byline_marked(marks):
            return True
    return False


def _later_posts(container: Any) -> int:
    """How many of the next few siblings of the same kind hold a byline mark too (up to
    :data:`_SIBLINGS_TRIED`; the first sibling of the kind without one ends the count)."""
    kind = _kind(container)
    found = 0
    for sibling in container.itersiblings():
        if not isinstance(sibling.tag, str) or _kind(sibling) != kind:
            continue
        if not _has_mark(sibling):
            break
        found += 1
        if found >= _SIBLINGS_TRIED:
            break
    return found


def _bold_header(dt: Any) -> bool:
    """A ``<dt>`` that opens with a bold name and no text before it: FluxBB's and older
    phpBB's post header (``<dl><dt><strong>ann</strong></dt><dd>Member</dd></dl>``)."""
    return len(dt) > 0 and dt[0].tag in ("strong", "b") and not (dt.text or "").strip()


def post_headers(tree: Any, html: str | None) -> list[Any]:
    """The ``<dt>`` post headers of a page (:func:`_bold_header`), looked for only where the
    page's text has ``<dt><strong>`` or ``<dt><b>`` (most pages have none)."""
    if tree is None or html is None or "<dt><" not in html:  # (one scan of the text)
        return []
    return [dt for _, dt in zip(range(_MARKS_TRIED), (dt for dt in tree.iter("dt") if _bold_header(dt)))]


def thread_starter(bylines: list[Any]) -> ThreadStarter | None:
    """The first post's writer (see the module's docstring) from the byline marks of the
    headline's neighbourhood (nearest the headline first), or from :func:`post_headers`,
    or None where the page shows no thread."""
    for mark in bylines[:_MARKS_TRIED]:
        name = "" if mark.tag in _NOT_HEADERS else writer_name(mark)
        if not name:
            continue
        up = mark
        for depth in range(_MAX_UP):
            parent = up.getparent()
            if parent is None or parent.tag in ("body", "html"):
                break
            later = _later_posts(up)
            if later >= MIN_POSTS - 1:
                if len("".join(up.itertext())) < 3 * len(name) + _MIN_POST_CHARS or _in_comments(up):
                    break  # (a row of names, or comments: no thread here)
                return ThreadStarter(name, up, depth, later + 1)
            up = parent
    return None
