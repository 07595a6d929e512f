"""What the crawl keeps, as interfaces: one per store, each with an SQLite (one process)
and a Redis (many workers) implementation.

The learner, the spider and the scheduler only see these methods, so a store can move
from a file in the state folder to a shared server without touching them.  The
contract tests (``tests/test_crawl_storage.py``) run the same checks against both
implementations.
"""

from __future__ import annotations

import os
from typing import Iterable, Protocol, Sequence

from ...layout.patterns import SitePatterns
from ..items import FetchedPage
from .records import Emitted, Plan, RecheckPolicy, Resume

__all__ = ["AnchorStore", "EmitRecord", "FetchRecord", "FrontierStore", "HistoryStore", "PageStore", "PatternStore",
           "SiteLeases"]


class PageStore(Protocol):
    """Pages waiting for their site's layouts (see :mod:`newsstemmer.crawl.storage.sqlite_buffer`)."""

    def add(self, page: FetchedPage, tried: int = 0) -> None:
        """Store a page; ``tried``: the version of the site's patterns it did not match (0: none)."""

    def count(self, site: str | None = None) -> int: ...
    def sites(self) -> dict[str, int]: ...
    def urls(self, site: str) -> list[str]: ...

    def untried(self, site: str, version: int) -> list[str]:
        """URLs buffered (by any worker) after trying an older version of the site's patterns
        than ``version``; one process knows this itself: SQLite answers []."""

    def size(self, site: str, urls: Iterable[str]) -> int: ...
    def get(self, site: str, urls: Iterable[str]) -> list[FetchedPage]: ...
    def delete(self, site: str, urls: Iterable[str]) -> int: ...
    def close(self) -> None: ...


class AnchorStore(Protocol):
    """Linkinfo: anchor texts of same-site links by target URL (see :mod:`newsstemmer.crawl.storage.sqlite_anchors`)."""

    def add(self, site: str, source: str, links: Iterable[tuple[str, str]]) -> int: ...
    def anchors(self, urls: str | Sequence[str]) -> list[str]: ...
    def sources(self, url: str) -> list[tuple[str, str]]: ...
    def sites(self) -> list[str]: ...
    def export_jsonl(self, site: str, path: str | os.PathLike[str]) -> int: ...
    def close(self) -> None: ...


class FrontierStore(Protocol):
    """Scheduled and done pages of a crawl, and its per-site page counts (see :mod:`newsstemmer.crawl.storage.sqlite_frontier`)."""

    def begin(self, jobdir: str | None = None, resume: bool = True) -> Resume | None:
        """Start a run; what an interrupted run left to fetch again (None: nothing, or the queue keeps it)."""

    def admit(self, site: str, url: str, depth: int, limit: int | None = None, counted: bool = True) -> bool:
        """Schedule ``url`` once per crawl, within its site's ``limit``; ``counted``: whether it
        counts toward the limit (re-checks of known articles have a limit of their own)."""
    def count(self, site: str) -> int: ...
    def known(self, url: str) -> bool: ...
    def done(self, urls: list[str]) -> None: ...
    def pending(self) -> int: ...
    def end(self, reason: str) -> None: ...
    def close(self) -> None: ...


class PatternStore(Protocol):
    """The learned layouts every worker uses."""

    def load(self) -> dict[str, tuple[SitePatterns, int]]:
        """Every site's patterns with their version (a number that grows with each change)."""

    def publish(self, site: str, patterns: SitePatterns) -> int:
        """Make a site's new patterns the ones every worker uses; returns their version."""

    def changed(self) -> dict[str, tuple[SitePatterns, int]]:
        """Sites whose patterns changed since the last call (published by another worker)."""


class EmitRecord(Protocol):
    """Which articles this crawl emitted (by canonical URL): one claim per article."""

    def claim(self, key: str) -> bool:
        """True if this worker may emit the article (nobody emitted or is emitting it)."""

    def confirm(self, key: str) -> None:
        """The article reached the feeds: the claim holds whatever happens to the worker."""

    def release(self, key: str) -> None:
        """The article did not reach the feeds: another attempt may emit it."""


class SiteLeases(Protocol):
    """Which worker learns a site: one at a time, and another once it dies."""

    def acquire(self, site: str) -> bool:
        """True if this worker holds (or now takes) the site's lease."""

    def held(self) -> set[str]: ...
    def release_all(self) -> None: ...


class HistoryStore(Protocol):
    """What earlier runs emitted, by canonical URL (see :mod:`newsstemmer.crawl.storage.sqlite_history`)."""

    def get(self, key: str) -> Emitted | None: ...
    def put(self, record: Emitted) -> None: ...
    def recent(self, site: str, n: int) -> list[str]: ...
    def count(self, site: str | None = None) -> int: ...
    def close(self) -> None: ...


class FetchRecord(Protocol):
    """Per-URL validators and check times (see :mod:`newsstemmer.crawl.storage.sqlite_fetchlog`)."""

    def plan(self, url: str, recheck: RecheckPolicy | float, hint: str | None = None,
             now: float | None = None) -> Plan: ...
    def baseline_hint(self, url: str, site: str, hint: str) -> None: ...
    def seen(self, url: str, site: str, etag: str | None, last_modified: str | None, hint: str | None) -> None: ...
    def commit(self, urls: list[str], article: bool) -> None: ...
    def not_modified(self, url: str, hint: str | None) -> None: ...
    def set_published(self, url: str, site: str, published: str) -> None: ...
    def published(self, url: str) -> str | None: ...
    def articles(self, site: str) -> int: ...
    def validators(self, url: str) -> dict[str, str]: ...
    def archived(self, url: str) -> bool: ...
    def close(self) -> None: ...
