"""The durable per-site page buffer: pages waiting for their site's patterns.

A page of a site whose patterns do not match it (or that has none yet) is
stored here, in an SQLite database (WAL) in the state directory, and leaves the
item flow at once: the crawl never waits for learning (a pipeline that awaited
would hold every response in memory and stall the downloads).  The buffer only
stores; when to learn and when to emit is :mod:`newsstemmer.crawl.learner`'s
business.

A row leaves the buffer only after the article made from it has passed the item
pipelines and the feed exporters (``item_scraped``), or after it was counted as
a non-article or a failure.  A crash in between leaves the row in place, so the
next crawl with the same state directory emits it again: duplicates, never
losses.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Iterable

from ..items import FetchedPage
from .sqlite_files import open_versioned, transaction

__all__ = ["PageBuffer"]

SCHEMA_VERSION = 1
_SCHEMA = """
CREATE TABLE IF NOT EXISTS pages (
    site TEXT NOT NULL,
    url TEXT NOT NULL,
    html TEXT NOT NULL,
    anchors TEXT NOT NULL,
    fetched_at TEXT NOT NULL,
    added REAL NOT NULL,
    PRIMARY KEY (site, url)
);
"""


class PageBuffer:
    """Buffered pages per site.  One instance per thread (SQLite connections are per thread)."""

    def __init__(self, path: str | os.PathLike[str]):
        self.path = Path(path)
        self._conn = open_versioned(
            self.path,
            _SCHEMA,
            SCHEMA_VERSION,
            "page buffer",
            if_unreadable="keep",
            consequence=(
                "The pages it held stay in that file (SQLite table 'pages': site, url, html, anchors); "
                "their sites will be learned from the pages fetched from now on."
            ),
        )

    def add(self, page: FetchedPage, tried: int = 0) -> None:
        """Store a page (a page fetched again replaces its older copy).

        ``tried`` (the patterns version the page did not match) matters only to a
        buffer shared by many workers: one process knows what it tried.
        """
        self._conn.execute(
            "INSERT OR REPLACE INTO pages VALUES (?, ?, ?, ?, ?, ?)",
            (page.site, page.url, page.html, json.dumps(page.anchor_texts, ensure_ascii=False), page.fetched_at, time.time()),
        )

    def count(self, site: str | None = None) -> int:
        """Pages buffered for ``site`` (all sites if None)."""
        if site is None:
            return self._conn.execute("SELECT COUNT(*) FROM pages").fetchone()[0]
        return self._conn.execute("SELECT COUNT(*) FROM pages WHERE site = ?", (site,)).fetchone()[0]

    def sites(self) -> dict[str, int]:
        """Site -> number of buffered pages."""
        return dict(self._conn.execute("SELECT site, COUNT(*) FROM pages GROUP BY site ORDER BY site"))

    def urls(self, site: str) -> list[str]:
        """URLs buffered for ``site``, oldest first."""
        return [u for (u,) in self._conn.execute("SELECT url FROM pages WHERE site = ? ORDER BY added, url", (site,))]

    def untried(self, site: str, version: int) -> list[str]:
        """Pages other workers buffered with older patterns: none in a buffer of one process."""
        return []

    def size(self, site: str, urls: Iterable[str]) -> int:
        """Characters of HTML of the buffered pages of ``site`` among ``urls``."""
        query = "SELECT LENGTH(html) FROM pages WHERE site = ? AND url = ?"
        return sum(row[0] for url in urls if (row := self._conn.execute(query, (site, url)).fetchone()))

    def get(self, site: str, urls: Iterable[str]) -> list[FetchedPage]:
        """The buffered pages of ``site`` among ``urls`` (missing ones are skipped), in the order given."""
        pages = []
        for url in urls:
            row = self._conn.execute(
                "SELECT html, anchors, fetched_at FROM pages WHERE site = ? AND url = ?", (site, url)
            ).fetchone()
            if row is not None:
                html, anchors, fetched_at = row
                pages.append(FetchedPage(url, site, html, _anchors(anchors), fetched_at))
        return pages

    def delete(self, site: str, urls: Iterable[str]) -> int:
        """Remove pages; returns how many were there."""
        with transaction(self._conn) as conn:
            n = 0
            for url in urls:
                n += conn.execute("DELETE FROM pages WHERE site = ? AND url = ?", (site, url)).rowcount
        return n

    def close(self) -> None:
        self._conn.close()


def _anchors(raw: str) -> list[str]:
    try:
        value = json.loads(raw)
    except ValueError:
        return []
    return [t for t in value if isinstance(t, str)] if isinstance(value, list) else []
