"""Failures that end a crawl early, and the state folder filling up.

A crawl that cannot go on closes with one of :data:`FAILED_REASONS` (``scrapy crawl``
then exits with status 1, :mod:`.commands.crawl`).  The state folder's disk (or quota)
filling up is one: SQLite says ``database or disk is full`` (or ``disk I/O error``, as it
reports a file-size limit and a failing disk), a file write ``No space left on device``
or ``File too large``.  :class:`StateFull` notices the first such error
wherever a component meets it, logs one error naming the folder, and closes the crawl
with ``state_disk_full``; the components then drop the page they were handling without
marking it done, so the next run (with space) fetches it again: nothing is lost, and no
traceback is logged per page.
"""

from __future__ import annotations

import errno
import functools
import inspect
import logging
import sqlite3
from typing import Any
from weakref import WeakKeyDictionary

from scrapy.exceptions import DropItem

from ..errors import NewsstemmerError

__all__ = ["FAILED_REASONS", "REDIS_STATE_LOST", "REDIS_UNAVAILABLE", "STATE_DISK_FULL", "NotSaved", "StateFull",
           "connect_guarded", "disk_full", "guarded"]

log = logging.getLogger(__name__)

REDIS_UNAVAILABLE, REDIS_STATE_LOST, STATE_DISK_FULL = "redis_unavailable", "redis_state_lost", "state_disk_full"
#: Finish reasons after which ``scrapy crawl`` exits with status 1.
FAILED_REASONS = (REDIS_UNAVAILABLE, REDIS_STATE_LOST, STATE_DISK_FULL)

_FULL_ERRNOS = {errno.ENOSPC, errno.EFBIG, getattr(errno, "EDQUOT", errno.ENOSPC)}


def disk_full(exc: BaseException | None) -> bool:
    """Whether ``exc`` (or what caused it) says a disk, a quota or a file-size limit is full."""
    seen = 0
    while exc is not None and seen < 5:
        if isinstance(exc, sqlite3.OperationalError) and ("disk is full" in str(exc) or "disk I/O error" in str(exc)):
            return True  # (SQLite reports a file-size limit, EFBIG, as an I/O error)
        if isinstance(exc, OSError) and exc.errno in _FULL_ERRNOS:
            return True
        exc, seen = exc.__cause__ or exc.__context__, seen + 1
    return False


class NotSaved(NewsstemmerError, DropItem):
    """A page that could not be saved in the full state folder: fetched again by the next run."""

    def __init__(self, message: str):
        super().__init__(message, log_level="DEBUG")


_BY_CRAWLER: "WeakKeyDictionary[Any, StateFull]" = WeakKeyDictionary()


class StateFull:
    """Per crawl: the first disk-full error is said once and closes the crawl."""

    def __init__(self, crawler: Any, folder: Any):
        self.crawler = crawler
        self.folder = folder
        self.hit = False

    @classmethod
    def for_crawler(cls, crawler: Any) -> "StateFull":
        found = _BY_CRAWLER.get(crawler)
        if found is None:
            from .config import Config

            folder = Config.from_settings(crawler.settings).state_dir
            found = _BY_CRAWLER[crawler] = cls(crawler, folder)
        return found

    def handled(self, exc: BaseException) -> bool:
        """True if ``exc`` is a full disk (said once, the crawl closing); False: not this kind."""
        if not disk_full(exc):
            return False
        if not self.hit:
            self.hit = True
            log.error("newsstemmer: cannot write to the state folder %s (%s): its disk or quota is full (or "
                      "failing). Stopping "
                      "the crawl (reason %s); the feed and the state stay readable, and the next run, once there "
                      "is space, fetches again what was not saved", self.folder, exc, STATE_DISK_FULL)
            self.crawler.stats.set_value("newsstemmer/state_disk_full", 1)
            engine = getattr(self.crawler, "engine", None)
            if engine is not None:
                from scrapy.utils.defer import deferred_from_coro

                closing = getattr(engine, "close_spider_async", None)
                if closing is not None:
                    deferred_from_coro(closing(reason=STATE_DISK_FULL))
                else:  # pragma: no cover - Scrapy 2.13
                    engine.close_spider(self.crawler.spider, STATE_DISK_FULL)
        return True


def guarded(crawler: Any, handler: Any) -> Any:
    """``handler`` (a signal handler that writes state) with a full disk said once, not raised.

    Connect it with :func:`connect_guarded` (Scrapy's signals hold receivers weakly, and
    nothing else holds this wrapper).
    """

    params = inspect.signature(handler).parameters
    takes_all = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())

    @functools.wraps(handler)
    def call(*args: Any, **kwargs: Any) -> Any:
        if not takes_all:  # (Scrapy offers every signal argument; pass what the handler takes)
            kwargs = {k: v for k, v in kwargs.items() if k in params}
        try:
            return handler(*args, **kwargs)
        except Exception as exc:
            if StateFull.for_crawler(crawler).handled(exc):
                return None
            raise

    return call


def connect_guarded(crawler: Any, signal: Any, handler: Any) -> None:
    """Connect :func:`guarded` ``handler`` to ``signal``, held for the crawler's lifetime."""
    crawler.signals.connect(guarded(crawler, handler), signal=signal, weak=False)
