"""The headline's neighbourhood: the body's text lines from its top to a little past the
headline, and the elements there that mark a byline or link to an author's page.

The metadata's bylines and date lines are searched in it (:mod:`.fields`).  It is read
in one of two ways, with the same result: by its own early-stopping walk
(:meth:`HoodWalk.walk`), or, where the page is typed first (the extraction chain), by
page typing's walk of the whole body, which feeds a :class:`HoodWalk` as it goes
(:mod:`newsstemmer.pagetype.features`): then the body is walked once for both.
"""

from __future__ import annotations

import importlib
import logging
import os
import re
from dataclasses import dataclass, field
from collections.abc import Callable
from typing import Any

from lxml import etree

__all__ = ["AUTHOR_PAGE", "BYLINE_MARK", "LINES_AFTER", "HoodWalk", "Neighbourhood", "SKIP_TAGS", "byline_marked",
           "dice", "in_comments", "title_words"]

#: class/id words of elements that hold a byline or a date line.
BYLINE_MARK = re.compile(r"byline|author|user-?name|postuser", re.IGNORECASE)  # (as in _hoodwalk.pyx)
#: what the neighbourhood's walk passes over (with the elements in it; their tails are read)
SKIP_TAGS = frozenset({"script", "style", "noscript", "template", "svg"})
_HEADING_OR_LINK = frozenset({"h1", "h2", "h3", "a"})  # (the elements :meth:`HoodWalk.start` does more for)
_LINES_WITHOUT_HEADLINE = 300  # text lines read where no headline is found
LINES_AFTER = 60  # text lines after the headline searched for the date line
#: the path of a link to an author's own page (``/author/ann-lee``, ``/autoren/...``, ``?author=3``)
AUTHOR_PAGE = re.compile(r"/(?:authors?|autor(?:es|en|i|e)?|auteurs?|writers?|journalists?|reporters?|forfatter|"
                         r"skribent)/[^/?#]|[?&]author=", re.IGNORECASE)
_WORDS = re.compile(r"\w+")
log = logging.getLogger(__name__)


def title_words(text: str) -> frozenset[str]:
    """The lower-cased words of a title (what :func:`dice` compares)."""
    return frozenset(_WORDS.findall(text.lower()))


def dice(a: str | frozenset[str], b: str | frozenset[str]) -> float:
    """Word-set overlap of two titles (0..1), each a text or its :func:`title_words`."""
    x = title_words(a) if isinstance(a, str) else a
    y = title_words(b) if isinstance(b, str) else b
    return 2 * len(x & y) / (len(x) + len(y)) if x and y else 0.0


_MARKED: dict[str, bool] = {}


def byline_marked(marks: str) -> bool:
    """Whether an element's class (else its id) names a byline or an author (kept: a
    site's pages repeat their class names)."""
    found = _MARKED.get(marks)
    if found is None:
        found = BYLINE_MARK.search(marks) is not None
        if len(_MARKED) > 50_000:
            _MARKED.clear()
        _MARKED[marks] = found
    return found


def in_comments(el: Any) -> bool:
    """Whether an ancestor of ``el`` is marked as comments (its class or id says "comment")."""
    return any("comment" in f"{up.get('class') or ''} {up.get('id') or ''}".lower() for up in el.iterancestors())


@dataclass
class Neighbourhood:
    """The page's text lines from the top of the body to a little past the headline, and
    the elements there whose class or id names a byline or an author."""

    lines: list[str]
    at: int  # index of the headline's first line, -1 without a headline
    bylines: list[Any]
    #: (line index, element) of links to an author's page (``/author/ann-lee``), nearest the headline first
    author_links: list[tuple[int, Any]] = field(default_factory=list)


class HoodWalk:
    """The neighbourhood being read, element by element in document order.

    ``has_h1``: whether the page has an ``<h1>``; ``headline`` the ``<h1>`` element that
    agrees with the page's own titles (None: the first ``<h1>`` met is taken); ``own`` the
    titles' :func:`title_words`, for a page without ``<h1>`` whose headline is an ``<h2>``
    or ``<h3>``.  A walker calls :meth:`start` at each element it does not pass over
    (:data:`SKIP_TAGS`), then :meth:`add_line` with its text if it has some, and
    :meth:`add_line` with each tail; reading ends by itself (``open`` turns False) once
    :data:`LINES_AFTER` lines past the headline, or 300 without one, are read (more
    lines than ``limit``).  A walker that does the same inline may, at an element that is
    neither a heading (``h1``-``h3``) nor a link after the headline, only append
    ``(len(lines), el)`` to ``bylines`` where ``marked`` (:func:`byline_marked`'s answers,
    by class or id) says so.

    With ``resolve`` (a function that gives ``headline``), which ``<h1>`` is the headline
    is asked only when :meth:`result` is (page typing reads the neighbourhood of pages
    whose metadata is never asked for): meanwhile every ``<h1>`` is noted and reading
    goes on until 60 lines past each ``<h1>`` that may be the headline (the first one met
    and the ``candidates``), then :meth:`result` keeps what the walk with the headline
    known would have read.
    """

    __slots__ = ("lines", "at", "limit", "bylines", "links", "has_h1", "headline", "own", "open", "marked",
                 "resolve", "pending", "h1s", "far")

    def __init__(self, has_h1: bool, headline: Any, own: list[frozenset[str]],
                 resolve: Callable[[], Any] | None = None, candidates: list[Any] | None = None) -> None:
        self.lines: list[str] = []
        self.at = -1  # (with resolve: the first <h1>'s line, where links to author pages start to count)
        self.limit = _LINES_WITHOUT_HEADLINE  # reading ends when there are more lines than this
        self.bylines: list[tuple[int, Any]] = []
        self.links: list[tuple[int, Any]] = []
        self.has_h1, self.headline, self.own = has_h1, headline, own
        self.open = True
        self.marked = _MARKED
        self.resolve = resolve
        self.pending = list(candidates or ())  # the candidates not met yet
        self.h1s: list[tuple[int, Any]] = []  # (line, element) of each <h1> met within 300 lines
        self.far = -1  # the last line of a possible headline met

    def start(self, el: Any, tag: str, marks: str | None) -> None:
        """An element's start: the headline, a byline mark (``marks``: its class, else its
        id), a link to an author's page after the headline."""
        at = self.at
        if tag == "h1" and self.resolve is not None:
            self._note_h1(el)
            at = self.at
        elif at < 0:
            if tag == "h1":
                if self.has_h1 and (self.headline is None or el is self.headline):
                    self.at = at = len(self.lines)
                    self.limit = at + LINES_AFTER
            elif tag in ("h2", "h3") and not self.has_h1 and self.own and _agrees_with_titles(el, self.own):
                self.at = at = len(self.lines)  # (a page without <h1> whose headline is a lower heading)
                self.limit = at + LINES_AFTER
        if marks and byline_marked(marks):
            self.bylines.append((len(self.lines), el))
        if tag == "a" and at >= 0:  # (links above the headline are menus)
            href = el.get("href")
            if href and AUTHOR_PAGE.search(href):
                n = len(self.lines)
                self.links.append((n, el) if self.resolve is None else (n, el, len(self.h1s)))

    def _note_h1(self, el: Any) -> None:
        """An ``<h1>`` met before the headline is known: noted, and how far to read."""
        n = len(self.lines)
        if n > _LINES_WITHOUT_HEADLINE:
            return  # (the headline's own walk stops there without one)
        if not self.h1s:
            self.at = self.far = n
        self.h1s.append((n, el))
        if any(el is c for c in self.pending):
            self.pending = [c for c in self.pending if c is not el]
            self.far = n
        last = self.far + LINES_AFTER
        self.limit = max(_LINES_WITHOUT_HEADLINE, last) if self.pending else last

    def add_line(self, text: str) -> None:
        """A text node with more than white space (as found, not stripped)."""
        lines = self.lines
        lines.append(text)
        if len(lines) > self.limit:
            self.open = False

    def walk(self, root: Any, with_tail: bool = True) -> None:
        """Read ``root`` and what is in it (its own tail too with ``with_tail``), until
        reading ends; comments and processing instructions are passed over, tails included.
        The compiled walk (:data:`HOOD_WALK`) where it is built, else :meth:`walk_python`."""
        if _hoodwalk is not None:
            _hoodwalk.walk(self, root, with_tail, byline_marked)
        else:
            self.walk_python(root, with_tail)

    def walk_python(self, root: Any, with_tail: bool = True) -> None:
        """:meth:`walk` in Python (the reference of the compiled one, ``_hoodwalk.pyx``).

        :meth:`start` and :meth:`add_line` inline: only a heading or a link goes through
        :meth:`start` (the headline, links to author pages), any other element is looked at
        for a byline mark alone; a skipped element's inside is not walked (its tail is read
        at its end event)."""
        walker = etree.iterwalk(root, events=("start", "end"))
        lines, bylines, marked = self.lines, self.bylines, self.marked
        limit = self.limit
        for event, el in walker:
            if event == "start":
                tag = el.tag
                if tag in SKIP_TAGS:
                    walker.skip_subtree()  # (its end event still comes: its tail is read then)
                    continue
                if tag in _HEADING_OR_LINK:
                    if tag == "a" and self.at < 0 and self.resolve is None:
                        marks = el.get("class") or el.get("id")  # (a link above the headline: a menu's)
                    else:
                        self.start(el, tag, None)
                        limit = self.limit
                        marks = el.get("class") or el.get("id")
                else:
                    marks = el.get("class") or el.get("id")
                if marks:
                    found = marked.get(marks)
                    if found is None:
                        found = byline_marked(marks)
                    if found:
                        bylines.append((len(lines), el))
                text = el.text
            else:
                text = el.tail
                if el is root and not with_tail:
                    continue
            if text and text.strip():
                lines.append(text)
                if len(lines) > limit:
                    self.open = False
                    break

    def result(self) -> Neighbourhood:
        """What was read, byline elements and author links nearest the headline first (those
        after it before those above it)."""
        if self.resolve is not None:
            return self._resolved()
        at = self.at
        nearest = (lambda item: (item[0] < at, abs(item[0] - at)))
        return Neighbourhood(self.lines, at, [el for _, el in sorted(self.bylines, key=nearest)],
                             sorted(self.links, key=nearest))

    def _resolved(self) -> Neighbourhood:
        """:meth:`result` where the headline is asked for now: the lines, bylines and links
        the walk that knew it would have stopped at."""
        headline = self.resolve() if self.resolve is not None else None
        at, k = -1, -1
        for i, (n, el) in enumerate(self.h1s):
            if headline is None or el is headline:
                at, k = n, i
                break
        limit = at + LINES_AFTER if at >= 0 else _LINES_WITHOUT_HEADLINE
        nearest = (lambda item: (item[0] < at, abs(item[0] - at)))
        bylines = [item for item in self.bylines if item[0] <= limit]
        links = [(n, el) for n, el, h1s_before in self.links if n <= limit and h1s_before > k] if at >= 0 else []
        return Neighbourhood(self.lines[:limit + 1], at, [el for _, el in sorted(bylines, key=nearest)],
                             sorted(links, key=nearest))


def _compiled_walk() -> Any:
    """The compiled walk (``_hoodwalk``, built by ``pip install``) if it is there, agrees
    with this module's sets and is not turned off by ``NEWSSTEMMER_PURE_PYTHON=1``; else None."""
    try:
        if os.environ.get("NEWSSTEMMER_PURE_PYTHON", "") not in ("", "0"):
            raise ImportError("NEWSSTEMMER_PURE_PYTHON is set")
        module = importlib.import_module(f"{__package__}._hoodwalk")
        if (module.SKIP_TAGS != SKIP_TAGS or module.HEADING_OR_LINK != _HEADING_OR_LINK
                or module.MARK_PATTERN != BYLINE_MARK.pattern or module.AUTHOR_PAGE != AUTHOR_PAGE.pattern):
            log.warning("newsstemmer: the compiled neighbourhood walk is older than this code: the "
                        "pure-Python one is used; rebuild it (pip install)")
            return None
        return module
    except Exception as exc:  # (not built: no compiler, or an lxml without its headers)
        log.debug("headline neighbourhood: pure-Python walk (%s)", exc)
        return None


def _agrees_with_titles(el: Any, own: list[frozenset[str]]) -> bool:
    text = " ".join("".join(el.itertext()).split())
    return 3 <= len(text) <= 300 and any(dice(title_words(text), t) >= 0.6 for t in own)


_hoodwalk = _compiled_walk()
#: the compiled module (``_hoodwalk``: the walk, ``rel_author_links``), or None where it is not used
COMPILED = _hoodwalk
#: which walk :meth:`HoodWalk.walk` is: ``"compiled"`` or ``"python"``
HOOD_WALK = "python" if _hoodwalk is None else "compiled"
