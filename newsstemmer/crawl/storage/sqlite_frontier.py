"""The crawl frontier on disk: which pages the spider scheduled, and which are done.

It makes an interrupted crawl resumable, even after ``kill -9``: the next crawl
with the same state folder fetches again every page that was scheduled but not
done, and never schedules again a page that was.  A page is *done* once its
item has been written by the feed exporters (``item_scraped``) or its page is
safe in the buffer (``item_dropped`` with :class:`~newsstemmer.crawl.pipeline.Buffered`).
A crawl that ends normally (``finished``) clears the frontier, so the next
crawl is a fresh one (re-crawls for monitoring).  It also holds the per-site
page counts (``NEWSSTEMMER_MAX_PAGES_PER_SITE``), so they survive a resume.

Scrapy's own ``JOBDIR`` only survives a graceful stop (its queue state is
written at close).  After a graceful stop with the same ``JOBDIR``, Scrapy
re-schedules the pending requests itself and the frontier only keeps done pages
from being scheduled again; after a crash the frontier re-schedules them.
"""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

from ..items import utc_now
from .records import Resume
from .sqlite_files import open_versioned, transaction

__all__ = ["Frontier"]

SCHEMA_VERSION = 1
_SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY,
    started TEXT NOT NULL,
    closed TEXT,
    reason TEXT,
    jobdir TEXT
);
CREATE TABLE IF NOT EXISTS urls (
    url TEXT PRIMARY KEY,
    site TEXT NOT NULL,
    depth INTEGER NOT NULL,
    done INTEGER NOT NULL DEFAULT 0
);
"""


class Frontier:
    """Scheduled and done URLs of the current (or interrupted) crawl.  Reactor thread only."""

    def __init__(self, path: str | os.PathLike[str]):
        self.path = Path(path)
        self._conn = open_versioned(
            self.path,
            _SCHEMA,
            SCHEMA_VERSION,
            "frontier",
            if_unreadable="rebuild",
            consequence="An interrupted crawl cannot be resumed from it; this crawl starts from its start pages.",
        )
        self._run: int | None = None
        self._counts: Counter[str] = Counter()
        self._known: set[str] = set()  # the URLs of the table, so that admit() needs no query for them

    def begin(self, jobdir: str | None = None, resume: bool = True) -> Resume | None:
        """Start a run; returns what an interrupted previous run left, or None (fresh crawl)."""
        last = self._conn.execute("SELECT closed, reason, jobdir FROM runs ORDER BY id DESC LIMIT 1").fetchone()
        found: Resume | None = None
        if last is not None and resume and last[1] != "finished":
            closed, reason, last_jobdir = last
            pending = self._conn.execute("SELECT url, depth FROM urls WHERE done = 0 ORDER BY rowid").fetchall()
            done = self._conn.execute("SELECT COUNT(*) FROM urls WHERE done = 1").fetchone()[0]
            if pending or done:
                found = Resume(
                    reason=reason if closed else None,
                    pending=[(u, int(d)) for u, d in pending],
                    done=done,
                    by_scrapy=bool(closed and jobdir and last_jobdir == jobdir),
                )
        if found is None:
            self._conn.execute("DELETE FROM urls")
        self._counts = Counter(dict(self._conn.execute("SELECT site, COUNT(*) FROM urls GROUP BY site")))
        self._known = {u for (u,) in self._conn.execute("SELECT url FROM urls")}
        self._run = self._conn.execute(
            "INSERT INTO runs (started, jobdir) VALUES (?, ?)", (utc_now(), jobdir)
        ).lastrowid
        return found

    def admit(self, site: str, url: str, depth: int, limit: int | None = None, counted: bool = True) -> bool:
        """Record ``url`` as scheduled; False if it already was, or its site reached ``limit``
        (``counted``: whether it counts toward the limit; a resumed crawl counts every page).

        A page links the same URLs as most other pages of its site: the in-memory set
        answers those repeats without an SQLite statement each.
        """
        if url in self._known or (counted and limit is not None and self._counts[site] >= limit):
            return False
        cur = self._conn.execute("INSERT OR IGNORE INTO urls (url, site, depth) VALUES (?, ?, ?)", (url, site, depth))
        self._known.add(url)
        if cur.rowcount:
            self._counts[site] += counted
            return True
        return False

    def count(self, site: str) -> int:
        return self._counts[site]

    def known(self, url: str) -> bool:
        return url in self._known

    def done(self, urls: list[str]) -> None:
        """Mark pages done (unknown URLs are ignored)."""
        with transaction(self._conn) as conn:
            conn.executemany("UPDATE urls SET done = 1 WHERE url = ?", [(u,) for u in urls])

    def pending(self) -> int:
        return self._conn.execute("SELECT COUNT(*) FROM urls WHERE done = 0").fetchone()[0]

    def end(self, reason: str) -> None:
        """Close the run; a finished crawl leaves nothing to resume."""
        with transaction(self._conn) as conn:
            conn.execute("UPDATE runs SET closed = ?, reason = ? WHERE id = ?", (utc_now(), reason, self._run))
            conn.execute("DELETE FROM runs WHERE id < ?", (self._run,))
            if reason == "finished":
                conn.execute("DELETE FROM urls")
                self._known.clear()

    def close(self) -> None:
        self._conn.close()
