"""Finding a site's newest pages from its feeds and sitemaps.

* sitemaps: the ``Sitemap:`` lines of ``robots.txt`` (Scrapy's
  ``sitemap_urls_from_robots``), else ``/sitemap.xml``; sitemap indexes, URL sets,
  gzipped files and Google News sitemaps are read with Scrapy's ``Sitemap`` parser
  (a news entry's ``publication_date`` stands for a missing ``lastmod``);
* feeds: RSS and Atom, read with feedparser; given with ``-a feeds=URL,...`` or
  found on the start pages (``<link rel="alternate" type="application/rss+xml">``).

Entries keep their date (``lastmod``, publication or update date, ISO 8601 when it
can be read) and :func:`newest_first` orders them for the frontier.  Plain
functions, no Scrapy engine: the spider calls them on the responses.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass
from typing import Any, Iterable
from urllib.parse import urljoin

from lxml import etree
from scrapy.utils.gz import gunzip, gzip_magic_number
from scrapy.utils.sitemap import Sitemap, sitemap_urls_from_robots

__all__ = ["Entry", "feed_entries", "feed_links", "newest_first", "robots_sitemaps", "sitemap_entries"]

_FEED_TYPES = ("application/rss+xml", "application/atom+xml", "application/feed+json", "application/rdf+xml")
_FEED_LINKS = etree.XPath("//link[@href][@type]")
_NEWS_DATE = "{http://www.google.com/schemas/sitemap-news/0.9}publication_date"
#: A sitemap larger than this (after gunzip) is read no further (the protocol's limit is 50 MB).
MAX_SITEMAP_BYTES = 50 * 1024 * 1024


@dataclass(frozen=True)
class Entry:
    """A page a sitemap or feed lists, with its date (ISO 8601, or as given; None if absent)."""

    url: str
    date: str | None = None
    published: str | None = None  # a feed's or news sitemap's publication date


class _NewsSitemap(Sitemap):
    """Scrapy's parser, keeping a Google News entry's ``publication_date``."""

    def _process_sitemap_element(self, elem: Any) -> dict[str, Any] | None:
        found = elem.find(f".//{_NEWS_DATE}")
        date = (found.text or "").strip() if found is not None else ""
        d = super()._process_sitemap_element(elem)
        if d is not None and date:
            d["publication_date"] = date
        return d


def robots_sitemaps(body: bytes, base_url: str) -> list[str]:
    """The sitemap URLs a ``robots.txt`` lists."""
    return list(dict.fromkeys(sitemap_urls_from_robots(body, base_url)))


def sitemap_entries(body: bytes, url: str) -> tuple[str, list[Entry]]:
    """``(type, entries)`` of a sitemap: ``sitemapindex`` (entries are sitemaps) or ``urlset``.

    Raises ``ValueError`` for a body that is not a sitemap.
    """
    if body[:2] == gzip_magic_number or url.endswith(".gz"):
        try:
            body = gunzip(body, max_size=MAX_SITEMAP_BYTES)
        except Exception:  # noqa: BLE001 - not gzipped after all (servers decompress on the fly)
            pass
    if not body.strip():
        raise ValueError("empty sitemap")
    try:
        sitemap = _NewsSitemap(body)
    except (etree.XMLSyntaxError, StopIteration) as exc:
        raise ValueError(f"not a sitemap: {exc}") from None
    if sitemap.type not in ("sitemapindex", "urlset"):
        raise ValueError(f"not a sitemap (root element {sitemap.type!r})")
    entries = []
    for d in sitemap:
        loc = urljoin(url, d.get("loc", "").strip())
        published = _iso(d.get("publication_date"))
        entries.append(Entry(loc, _iso(d.get("lastmod")) or published, published))
    return sitemap.type, entries


def feed_entries(body: bytes, url: str) -> list[Entry]:
    """The entries of an RSS or Atom feed (``ValueError`` if it is neither)."""
    import feedparser  # imported on first use: only crawls that read feeds need it

    parsed = feedparser.parse(body, response_headers={"content-location": url})
    if not parsed.entries and (parsed.bozo or not parsed.version):
        raise ValueError(f"not a feed: {getattr(parsed, 'bozo_exception', 'no entries')}")
    out = []
    for e in parsed.entries:
        link = e.get("link") or next((x.get("href") for x in e.get("links", []) if x.get("href")), None)
        if not link:
            continue
        # dict.get: feedparser's own get() maps a missing updated date to the published one (with a warning)
        published = _struct(dict.get(e, "published_parsed"))
        updated = _struct(dict.get(e, "updated_parsed"))
        out.append(Entry(urljoin(url, link), updated or published, published or updated))
    return out


def feed_links(tree: Any, url: str) -> list[str]:
    """The feeds a page announces (``<link rel="alternate" type="application/rss+xml" href>``)."""
    if tree is None:
        return []
    out = []
    for el in _FEED_LINKS(tree):
        rel = (el.get("rel") or "").lower().split()
        if "alternate" in rel and el.get("type", "").strip().lower() in _FEED_TYPES:
            out.append(urljoin(url, el.get("href").strip()))
    return list(dict.fromkeys(out))


def newest_first(entries: Iterable[Entry]) -> list[Entry]:
    """Entries by date, newest first (undated ones last, in their order); one per URL."""
    seen: dict[str, Entry] = {}
    for e in entries:
        if e.url not in seen or (e.date or "") > (seen[e.url].date or ""):
            seen[e.url] = e
    far_past = _dt.datetime.min.replace(tzinfo=_dt.timezone.utc)
    return sorted(seen.values(), key=lambda e: _when(e.date) or far_past, reverse=True)


def _iso(value: str | None) -> str | None:
    """A sitemap date as ISO 8601 (a bare date stays a date); unreadable dates as given."""
    if not value:
        return None
    value = value.strip()
    when = _when(value)
    return value if when is None or len(value) == 10 else when.isoformat()


def _when(value: str | None) -> _dt.datetime | None:
    if not value:
        return None
    try:
        when = _dt.datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    return when if when.tzinfo else when.replace(tzinfo=_dt.timezone.utc)


def _struct(value: Any) -> str | None:
    """feedparser's UTC ``time.struct_time`` as ISO 8601."""
    if not value:
        return None
    try:
        return _dt.datetime(*value[:6], tzinfo=_dt.timezone.utc).isoformat()
    except (TypeError, ValueError, OverflowError):
        return None
