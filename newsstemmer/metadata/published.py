"""Which of a page's dates is its article's ``published`` (and ``modified``) date.

Sources, most trusted first: structured data (JSON-LD, ``<meta>`` names, microdata), ``<time datetime>``, the URL's date unless
the date line under the headline gives its time, the date line, a site's own
"published" ``<meta>`` names, a date in an element marked as a date anywhere.  Where
the machine-written dates leave a question open (which of several ``<time>``s; day or
month first in ``03-09-2026``; a JSON-LD date a template wrote in words), the date the
reader sees under the headline answers it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date

from .dates import date_in_text, date_in_url, parse_date
from .facts import PageFacts, ld_text, ld_values, meta_source
from .neighbourhood import LINES_AFTER, Neighbourhood

__all__ = ["MODIFIED_META", "PUBLISHED_META", "modified_date", "published_date", "structured_date"]

#: ``<meta>`` names of the published date, in the order tried (after JSON-LD)
PUBLISHED_META = ("article:published_time", "og:published_time", "article:published", "datepublished",
                  "pubdate", "publishdate", "publish-date", "publish_date", "parsely-pub-date", "sailthru.date",
                  "dc.date.issued", "dcterms.issued", "dc.date.created", "dcterms.created", "dc.date", "date",
                  "cxenseparse:recs:publishtime", "article.published")
MODIFIED_META = ("article:modified_time", "og:updated_time", "article:modified", "datemodified",
                 "last-modified", "dcterms.modified", "lastmod")
#: ``<meta>`` names that say "published" in a site's own words (``published-date``,
#: ``w-published-date``, ``article_date_original``): tried after the known names
_PUBLISHED_NAME = re.compile(r"publi(?:sh|cation)|pub_?date|date_?original|release_?date|creat", re.IGNORECASE)
_NOT_PUBLISHED_NAME = re.compile(r"modif|updat|expir|revis|edit|review|image|schema", re.IGNORECASE)
#: a machine date written day and month as numbers before the year ("03-09-2026"): which
#: is which is told only where one of them exceeds 12
_NUMERIC_DAY_MONTH = re.compile(r"\s*([0-3]?\d)[./-]([0-3]?\d)[./-]((?:19|20)\d\d)(?!\d)")
#: a word of letters in a JSON-LD date that does not open with an ISO day (``2017-03-20T05:03EDT``
#: is a machine's): a month's name, written by a template
_WRITTEN = re.compile(r"[^\W\d_]{3}")
_ISO_START = re.compile(r"\s*\d{4}-\d\d-\d\d")
_LINES_BEFORE = 20
_DATE_MARKS = ("date", "publish")
_MAX_DATE_MARKS = 200
_MAX_DATE_MARK_CHARS = 150_000  # of the page's text from <body> on (a page's date line is not past its scripts)
_TAG = re.compile(r"<[^>]*>")
_DIGIT = re.compile(r"\d")  # (as dates.date_in_text's first test)

Hood = Callable[[], Neighbourhood]


def _structured(facts: PageFacts, ld_keys: tuple[str, ...], meta_names: tuple[str, ...],
                props: tuple[str, ...]) -> tuple[str | None, str | None, str | None]:
    """:func:`structured_date` with the value as the page wrote it."""
    for value, source in (pair for key in ld_keys for pair in ld_values(facts, key)):
        raw = ld_text(value) or ""
        iso = parse_date(raw)
        if iso:
            return iso, source, raw
    for name in meta_names:
        for value in facts.meta.get(name, ()):
            iso = parse_date(value)
            if iso:
                return iso, meta_source(name), value
    found = [pair for prop in props for pair in facts.microdata(prop)]
    if len(props) > 1 and found:
        # (in the page's order whatever the property: a question's dateCreated comes before
        # its answers' datePublished on a Q&A page; the question is the page's own)
        order = facts.microdata_order()
        found.sort(key=lambda pair: order.get(pair[1], 0))
    for value, _ in found:
        iso = parse_date(value)
        if iso:
            return iso, "microdata", value
    return None, None, None


def structured_date(facts: PageFacts, ld_keys: tuple[str, ...], meta_names: tuple[str, ...],
                    props: tuple[str, ...]) -> tuple[str | None, str | None]:
    """The first date the page's structured data gives: JSON-LD ``ld_keys``, then the
    ``<meta>`` names, then the microdata properties (the first in the page's order)."""
    iso, source, _ = _structured(facts, ld_keys, meta_names, props)
    return iso, source


def _once(make: Callable[[], str | None]) -> Callable[[], str | None]:
    """``make``, called at most once (its answer kept): a closure costs less than
    ``functools.cache``, whose wrapper is made on every page."""
    kept: list[str | None] = []

    def once() -> str | None:
        if not kept:
            kept.append(make())
        return kept[0]

    return once


def published_date(facts: PageFacts, hood: Hood, url: str | None) -> tuple[str | None, str | None]:
    """The article's published date and its source.  ``hood`` gives the headline's
    neighbourhood (read only where the machine-written dates leave the question open)."""
    shown_date = _once(lambda: _date_near_headline(hood()))  # (the date line, read once if at all)
    iso, source, raw = _structured(facts, ("datePublished", "dateCreated"), PUBLISHED_META,
                                   ("datepublished", "datecreated"))
    if iso and source == "json-ld" and _WRITTEN.search(raw or "") and not _ISO_START.match(raw or ""):
        # a JSON-LD date written in words ("Jun 24, 2025") was filled in by a template from
        # some CMS field, often the last publish: the date line the reader sees wins over it
        shown = shown_date()
        if shown and shown[:10] != iso[:10]:
            return shown, "text"
    if iso:
        return _day_or_month_first(iso, raw, shown_date), source
    times = facts.times
    marked = [v for v, el in times
              if {"published", "pubdate"} & set((el.get("class") or "").lower().split()) or el.get("pubdate") is not None]
    values = [iso for iso in map(parse_date, marked + [v for v, _ in times]) if iso]
    if values:
        if len({v[:10] for v in values}) > 1:  # (a sidebar's, a comment's: the one the headline shows)
            shown = shown_date()
            return next((v for v in values if shown and v[:10] == shown[:10]), values[0]), "html"
        return values[0], "html"
    in_url = date_in_url(url)
    iso = shown_date()
    if in_url and not (iso and len(iso) > 10 and _days_apart(iso, in_url) <= 1):
        # (the date line is taken when it also gives the time, on the URL's day or the next
        # or previous one: URLs are often dated in UTC, date lines in local time)
        return in_url, "url"
    if iso:
        return iso, "text"
    for name, values in facts.meta.items():  # (the site's own name for "published")
        if _PUBLISHED_NAME.search(name) and not _NOT_PUBLISHED_NAME.search(name):
            for value in values:
                iso = parse_date(value)
                if iso:
                    return iso, meta_source(name)
    iso = _date_in_marked_element(facts.html)
    if iso:
        return iso, "text"
    # (a page's modified date is not taken for it: the crawl then fills ``published`` from a
    # feed, a sitemap or the article's first version, and it must not move with each update)
    return None, None


def _day_or_month_first(iso: str, raw: str | None, shown_date: Callable[[], str | None]) -> str:
    """``iso`` read day first from a machine date such as ``03-09-2026``; read month first
    instead where the page's date line under the headline (``shown_date()``) shows that day (March 9)."""
    m = _NUMERIC_DAY_MONTH.match(raw or "")
    if not m or int(m.group(1)) > 12 or int(m.group(2)) > 12 or m.group(1) == m.group(2):
        return iso
    swapped = f"{iso[:5]}{iso[8:10]}-{iso[5:7]}{iso[10:]}"
    shown = shown_date()
    return swapped if shown and shown[:10] == swapped[:10] else iso


def modified_date(facts: PageFacts) -> tuple[str | None, str | None]:
    """The article's last-modified date from structured data, and its source."""
    return structured_date(facts, ("dateModified",), MODIFIED_META, ("datemodified",))


def _date_in_marked_element(html: str | None) -> str | None:
    """The first written date at the start of an element whose class or id names a date
    (``class="post-date"``, ``id="published"``), anywhere in the page: a date line after
    the article or far from a headline not found.  (Searched in the page's text with
    ``str.find``: a search of the tree's attributes costs ~10 ms on a large page.)"""
    if not html:
        return None
    starts: list[int] = []
    seen = 0
    body = max(0, html.find("<body"))
    end = body + _MAX_DATE_MARK_CHARS
    for word in _DATE_MARKS:
        at = html.find(word, body, end)
        while at >= 0 and seen < _MAX_DATE_MARKS:
            seen += 1
            lt = html.rfind("<", max(0, at - 300), at)
            gt = html.find(">", at)
            if lt >= 0 and gt >= 0 and html.find(">", lt, at) < 0 and html[lt + 1:lt + 2].isalpha():
                head = html[lt:at]
                if "class=" in head or "id=" in head:
                    starts.append(gt + 1)
            at = html.find(word, at + len(word), end)
    for start in sorted(starts):
        text = " ".join(_TAG.sub(" ", html[start:start + 400]).split())[:100]
        if len(text) >= 6:
            iso = date_in_text(text)
            if iso:
                return iso
    return None


def _days_apart(a: str, b: str) -> int:
    try:
        return abs((date.fromisoformat(a[:10]) - date.fromisoformat(b[:10])).days)
    except ValueError:
        return 99


def _date_near_headline(hood: Neighbourhood) -> str | None:
    """The first written date in a short line near the page's headline: the date line.

    Lines after the headline come first (up to :data:`LINES_AFTER`), then the lines just
    before it (a date above the headline); without a headline, the body's first lines.
    """
    lines, at = hood.lines, hood.at
    order = (list(range(at, min(len(lines), at + LINES_AFTER))) + list(range(at - 1, max(-1, at - _LINES_BEFORE), -1))
             if at >= 0 else list(range(min(len(lines), LINES_AFTER))))
    for i in order:
        if not _DIGIT.search(lines[i]):
            continue  # (every written date has a digit: the line's words are not joined for nothing)
        line = " ".join(lines[i].split())
        if 6 <= len(line) <= 120:
            iso = date_in_text(line)
            if iso:
                return iso
    return None
