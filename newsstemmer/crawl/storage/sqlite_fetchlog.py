"""Per-URL fetch records: what to download again in the next run, and how.

For every fetched URL: the server's validators (``ETag``, ``Last-Modified``), when
it was last checked, whether it was an article, the last ``lastmod`` a sitemap or
feed gave for it, and the date a feed gave as its publication.  The spider asks
:meth:`FetchLog.plan` before scheduling a page:

* an article whose sitemap/feed date changed, or that is due by its age
  (:class:`~.records.RecheckPolicy`: ``NEWSSTEMMER_RECHECK_AFTER``, ``_BACKOFF``,
  ``_WINDOW``), is asked for again with ``If-None-Match`` / ``If-Modified-Since``
  (``recheck``; a ``304`` costs no body);
* any other article is not downloaded (``skip``; the first date seen for a page
  fetched without one is its baseline: only later changes count);
* anything else (pages never seen, index pages, pages no layout matched, pages typed
  non-article by the model) is fetched (``fetch``).  The record's ``article`` flag
  means "skipped while fresh": it is also set for the leaf pages that declare what they
  are (videos, live blogs, service pages: :meth:`newsstemmer.crawl.incremental.Incremental.settled`).

What a response says is written as *pending* and becomes the URL's record only
when the page's item has reached the feeds or was found unchanged
(:meth:`commit`): a crawl killed in between fetches (or re-checks) the page again
next time instead of skipping an article nobody received.

An article not checked for ``NEWSSTEMMER_KEEP_TEXT_DAYS`` is archived by pruning
(:mod:`.retention`): its row is replaced by an 8-byte digest of its URL and a day (table
``archived``), and it is skipped from then on.  Its texts are gone from the article history
by then, so a change could not be measured and a recheck would be wasted.

A record is keyed by the 63-bit digest of its URL (:func:`~.records.url_hash`, SQLite's
rowid), not by the URL: nothing reads the URLs back, and the URL with its copy in the
primary key's index was ~190 of the ~390 bytes of a record.  Schema 4 (table ``records``)
replaced the ``urls`` table of schemas 1-3: opening an older file moves its rows over.
Dates that come back the same from 4 bytes are stored so (schema 5: ``Last-Modified`` in
HTTP's form, :func:`~.records.pack_http_date`, 29 characters; ISO times, 25:
:func:`~.records.pack_time`); schema 4's strings are read as they are.

SQLite (WAL) in the state folder; :class:`FetchLog` is the whole interface.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from .records import SKIP, Plan, RecheckPolicy, decide, pack_http_date, pack_time, unpack_http_date, unpack_time, url_hash
from .sqlite_files import open_versioned, transaction

__all__ = ["FetchLog"]

SCHEMA_VERSION = 5  # 2: ``first`` (the first check: an article's age for the recheck policy); 3: ``archived``;
# 4: ``records`` keyed by the URL's digest (no URL text, no second copy of it in an index) replaces ``urls``;
# 5: packed dates (``Last-Modified``, ISO sitemap/feed and published dates: 4 bytes; older code would misread them)
_SCHEMA = """
CREATE TABLE IF NOT EXISTS records (
    h INTEGER PRIMARY KEY,
    site TEXT NOT NULL,
    etag TEXT,
    last_modified TEXT,
    checked REAL,
    article INTEGER NOT NULL DEFAULT 0,
    hint TEXT,
    published TEXT,
    p_etag TEXT,
    p_last_modified TEXT,
    p_hint TEXT,
    p_at REAL,
    first REAL
);
CREATE INDEX IF NOT EXISTS records_site ON records (site);
CREATE TABLE IF NOT EXISTS archived (
    h INTEGER PRIMARY KEY,
    day INTEGER NOT NULL
);
"""
_COLUMNS = ("site", "etag", "last_modified", "checked", "article", "hint", "published", "p_etag", "p_last_modified",
            "p_hint", "p_at", "first")

class FetchLog:
    """Validators and check times per URL.  One instance per thread."""

    def __init__(self, path: str | os.PathLike[str]):
        self.path = Path(path)
        self._conn = open_versioned(
            self.path, _SCHEMA, SCHEMA_VERSION, "fetch log",
            if_unreadable="rebuild", consequence="Known articles will be downloaded again."
        )
        self._migrate()

    def _migrate(self) -> None:
        """Schemas 1-3's ``urls`` (keyed by the URL itself) moved to ``records``, then dropped."""
        conn = self._conn
        have = [c[1] for c in conn.execute("PRAGMA table_info('urls')")]
        if not have:
            return
        columns = ", ".join(c if c in have else "NULL" for c in _COLUMNS)
        rows = conn.execute(f"SELECT url, {columns} FROM urls").fetchall()
        with transaction(conn):
            conn.executemany(f"INSERT OR REPLACE INTO records VALUES ({', '.join('?' * (len(_COLUMNS) + 1))})",
                             [(url_hash(url), *rest) for url, *rest in rows])
            conn.execute("DROP TABLE urls")

    def plan(self, url: str, recheck: RecheckPolicy | float, hint: str | None = None, now: float | None = None) -> Plan:
        """What to do with ``url`` (see the module docstring); ``recheck``: the policy (or a
        fixed interval in seconds); ``hint``: its sitemap/feed date now."""
        row = self._conn.execute(
            "SELECT etag, last_modified, checked, article, hint, first FROM records WHERE h = ?", (url_hash(url),)
        ).fetchone()
        if (row is None or row[2] is None) and self.archived(url):  # (a row never checked: a feed's date alone)
            return Plan(SKIP, {})
        if row is not None:
            row = (row[0], unpack_http_date(row[1]), row[2], row[3], unpack_time(row[4]), row[5])
        plan, baseline = decide(row, recheck, hint, now)
        if baseline:
            self.baseline_hint(url, "", hint or "")
        return plan

    def validators(self, url: str) -> dict[str, str]:
        """The conditional request headers of ``url``'s committed record (empty: none)."""
        row = self._conn.execute("SELECT etag, last_modified FROM records WHERE h = ?", (url_hash(url),)).fetchone()
        if row is None:
            return {}
        return {k: v for k, v in (("If-None-Match", row[0]), ("If-Modified-Since", unpack_http_date(row[1]))) if v}

    def archived(self, url: str) -> bool:
        """Whether ``url`` is an article archived past the retention window (known, skipped)."""
        return self._conn.execute("SELECT 1 FROM archived WHERE h = ?", (url_hash(url),)).fetchone() is not None

    def baseline_hint(self, url: str, site: str, hint: str) -> None:
        """The first sitemap/feed date seen for a URL fetched without one: later ones are compared with it."""
        self._conn.execute(
            "INSERT INTO records (h, site, hint) VALUES (?, ?, ?) "
            "ON CONFLICT (h) DO UPDATE SET hint = COALESCE(hint, excluded.hint)",
            (url_hash(url), site, pack_time(hint)),
        )

    def seen(self, url: str, site: str, etag: str | None, last_modified: str | None, hint: str | None) -> None:
        """A full response for ``url``: its validators wait for :meth:`commit`."""
        self._conn.execute(
            "INSERT INTO records (h, site, p_etag, p_last_modified, p_hint, p_at) VALUES (?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (h) DO UPDATE SET p_etag = excluded.p_etag, p_last_modified = excluded.p_last_modified, "
            "p_hint = excluded.p_hint, p_at = excluded.p_at",
            (url_hash(url), site, etag, pack_http_date(last_modified), pack_time(hint), time.time()),
        )

    def commit(self, urls: list[str], article: bool) -> None:
        """The pages' items are safe (in the feeds, or unchanged): their pending records count now."""
        with transaction(self._conn) as conn:
            conn.executemany(
                "UPDATE records SET etag = p_etag, last_modified = p_last_modified, checked = p_at, article = ?, "
                "first = COALESCE(first, p_at), "
                "hint = COALESCE(p_hint, hint), p_etag = NULL, p_last_modified = NULL, p_hint = NULL, p_at = NULL "
                "WHERE h = ? AND p_at IS NOT NULL",
                [(int(article), url_hash(u)) for u in urls],
            )

    def not_modified(self, url: str, hint: str | None) -> None:
        """A ``304``: the page is the one already recorded, checked now."""
        self._conn.execute("UPDATE records SET first = COALESCE(first, checked), checked = ?, hint = COALESCE(?, hint) "
                           "WHERE h = ?", (time.time(), pack_time(hint), url_hash(url)))

    def set_published(self, url: str, site: str, published: str) -> None:
        """A feed's publication date for ``url`` (used when the page has none of its own)."""
        self._conn.execute(
            "INSERT INTO records (h, site, published) VALUES (?, ?, ?) "
            "ON CONFLICT (h) DO UPDATE SET published = excluded.published",
            (url_hash(url), site, pack_time(published)),
        )

    def published(self, url: str) -> str | None:
        row = self._conn.execute("SELECT published FROM records WHERE h = ?", (url_hash(url),)).fetchone()
        return unpack_time(row[0]) if row else None

    def articles(self, site: str) -> int:
        """How many URLs of ``site`` are recorded as articles."""
        return self._conn.execute("SELECT COUNT(*) FROM records WHERE site = ? AND article = 1", (site,)).fetchone()[0]

    def close(self) -> None:
        self._conn.close()
