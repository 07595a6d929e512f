"""The Redis connection of a crawl and the names of its keys.

Every key starts with ``NEWSSTEMMER_REDIS_PREFIX`` (``newsstemmer`` by default), so
several crawls can share one Redis server (one prefix each).  The keys are:

==========================================  =====  =================================================
key                                          type   what
==========================================  =====  =================================================
``P:news:requests``, ``P:news:dupefilter``   zset,  scrapy-redis's request queue and seen-requests
                                             set    filter (``news``: the spider's name)
``P:run:seen``, ``P:run:counts``             set,   URLs the spider scheduled; pages per site
                                             hash   (``NEWSSTEMMER_MAX_PAGES_PER_SITE``)
``P:run:emitted``                            hash   canonical URL -> worker emitting it, or ``+``
                                                    once it is in a feed (one emission per article)
``P:run:broken``                             set    sites whose learning round failed (left for the
                                                    next crawl, as with SQLite)
``P:run:started``                            str    when the crawl's first article was sent: the
                                                    emission time of all it sends (history order)
``P:run:inflight:W``, ``P:run:claims:W``     hash,  requests worker W took from the queue; the
                                             set    articles it is emitting (both go back at its death)
``P:workers``, ``P:alive:W``                 set,   the workers of the crawl; W's heartbeat
                                             str    (expires after ``NEWSSTEMMER_WORKER_TIMEOUT``)
``P:finished:MARKER``                        str    a finished crawl (left by its last worker, for a
                                                    day): a worker taken for dead knows its crawl ended
``P:lease:SITE``                             str    the worker that learns SITE (expires likewise)
``P:buf:sites``, ``P:buf:SITE:*``            set,   the page buffer: sites, their pages in order,
                                             zset,  the pages (zlib-compressed HTML) and their
                                             hash   anchors, fetch times and tried patterns
``P:patterns``, ``P:patterns:version``       hash   site -> pattern file (JSON), site -> version
``P:li:sites``, ``P:li:urls:SITE``,          set,   linkinfo: sites, a site's linked URLs, the
``P:li:a:URL``, ``P:li:s:URL``               zset   anchor texts of a URL (first seen first), and
                                                    (source, text) pairs
==========================================  =====  =================================================

``P:run:*`` and the queue belong to one crawl: the last worker to finish it clears
them (the next crawl starts afresh, as with SQLite); the buffer, linkinfo and patterns
stay.  The monitoring keys (``P:hist:*``, ``P:fl:*``) are in :mod:`.redis_monitor`; what
each family holds, for how long, and its census (``scrapy state --redis``) in
:mod:`.redis_retention`.  ``redis`` is imported only here, and only when ``NEWSSTEMMER_REDIS_URL`` is set.
"""

from __future__ import annotations

import threading
from typing import Any

from ...errors import NewsstemmerError

__all__ = ["Keys", "RedisUnavailable", "client"]

_CLIENTS: dict[str, Any] = {}
_LOCK = threading.Lock()


class RedisUnavailable(NewsstemmerError, RuntimeError):
    """The Redis server of ``NEWSSTEMMER_REDIS_URL`` cannot be used."""


def client(url: str) -> Any:
    """A shared ``redis.Redis`` client for ``url`` (thread-safe; bytes in, bytes out)."""
    with _LOCK:
        found = _CLIENTS.get(url)
        if found is not None:
            return found
        try:
            import redis
        except ImportError:  # pragma: no cover - redis is a dependency
            raise RedisUnavailable("NEWSSTEMMER_REDIS_URL is set but the 'redis' package is missing: "
                                   "pip install redis scrapy-redis") from None
        try:
            conn = redis.Redis.from_url(url, socket_timeout=30, socket_connect_timeout=10, retry_on_timeout=True,
                                        health_check_interval=30)
            conn.ping()
        except (ValueError, redis.RedisError) as exc:
            raise RedisUnavailable(f"NEWSSTEMMER_REDIS_URL = {url!r}: no usable Redis server there "
                                   f"({str(exc).rstrip('.')}); start one or correct the URL.") from None
        _CLIENTS[url] = conn
        return conn


class Keys:
    """The key names of one crawl (see the module docstring)."""

    def __init__(self, prefix: str):
        self.prefix = prefix
        p = prefix
        self.workers = f"{p}:workers"
        self.run = f"{p}:run"
        self.seen = f"{p}:run:seen"
        self.counts = f"{p}:run:counts"
        self.emitted = f"{p}:run:emitted"
        self.broken = f"{p}:run:broken"
        self.started = f"{p}:run:started"
        self.marker = f"{p}:run:marker"  # set by the first worker of a crawl: gone if Redis lost its data
        self.buf_sites = f"{p}:buf:sites"
        self.patterns = f"{p}:patterns"
        self.pattern_versions = f"{p}:patterns:version"
        self.li_sites = f"{p}:li:sites"

    def queue(self, spider: str = "%(spider)s") -> str:
        return f"{self.prefix}:{spider}:requests"

    def dupefilter(self, spider: str = "%(spider)s") -> str:
        return f"{self.prefix}:{spider}:dupefilter"

    def finished(self, marker: bytes) -> str:
        """The record the last worker of a finished crawl leaves under the crawl's marker."""
        return f"{self.prefix}:finished:{marker.decode(errors='replace')}"

    def alive(self, worker: str) -> str:
        return f"{self.prefix}:alive:{worker}"

    def inflight(self, worker: str) -> str:
        return f"{self.prefix}:run:inflight:{worker}"

    def claims(self, worker: str) -> str:
        return f"{self.prefix}:run:claims:{worker}"

    def lease(self, site: str) -> str:
        return f"{self.prefix}:lease:{site}"

    def buf_order(self, site: str) -> str:
        return f"{self.prefix}:buf:{site}:order"

    def buf_html(self, site: str) -> str:
        return f"{self.prefix}:buf:{site}:html"

    def buf_meta(self, site: str) -> str:
        return f"{self.prefix}:buf:{site}:meta"

    def li_urls(self, site: str) -> str:
        return f"{self.prefix}:li:urls:{site}"

    def li_anchors(self, url: str) -> str:
        return f"{self.prefix}:li:a:{url}"

    def li_sources(self, url: str) -> str:
        return f"{self.prefix}:li:s:{url}"
