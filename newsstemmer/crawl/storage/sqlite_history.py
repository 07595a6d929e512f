"""What earlier runs emitted: one record per article (canonical URL), for incremental runs.

A scheduled crawl must not send the same article twice: the pipeline
(:mod:`newsstemmer.crawl.incremental`) looks each article up here by its
canonical URL and emits it only when it is new, or when its body changed beyond
``NEWSSTEMMER_UPDATE_MIN_CHANGE`` (then as ``update: true`` with the next
``version``).  A record is written once the article is in the feeds
(``item_scraped``), so a crash can only make an article come twice, never go
missing.  What measures the next change is a fixed-size sketch of the last emitted body
and page text (:class:`~newsstemmer.crawl.changesketch.ChangeSketch`, ≤ 404 bytes and 3 a paragraph), not
the texts.  Once the article was last sent more than ``NEWSSTEMMER_KEEP_TEXT_DAYS`` ago,
pruning (:mod:`.retention`) replaces its row by an 8-byte digest of its key and the day it
was last sent (table ``archived``): it stays known (never sent again) and costs ~25 bytes.

A row is keyed by that same digest (:func:`~.records.url_hash`, SQLite's rowid: no second
copy of the URL in an index); the canonical URL is kept only where it is not the URL, and
the URL only while the article is among its site's latest sent (``NEWSSTEMMER_DRIFT_SAMPLE``:
the pages a drift fetches again, :meth:`ArticleHistory.recent`; pruning empties it for the
others, ~90 bytes a row on the demo's sites, and the digest alone then finds the row, as it
finds an archived one).  An article's emission time (``emitted``) is the start of the run
that sent it: one run's articles tie, and :meth:`ArticleHistory.recent` (the drift's sample)
orders them by URL, not by the instants a crawl happened to send them.  Times (first seen, published) in the form :func:`pack_time` can
rebuild are 4-byte numbers, not 25 characters (:func:`~.records.pack_time`).
Schema 3 (table ``sent``) replaced schema 2's ``articles`` (the texts themselves,
~3.7 KB an article): opening an older file moves its rows over with their texts turned
into sketches.  Schema 4 (URLs emptied, packed times) reads schema 3's rows as they are.

SQLite (WAL) in the state folder; :class:`ArticleHistory` is the whole interface,
so another storage (Redis) can stand in for it.
"""

from __future__ import annotations

import datetime as _dt
import os
import time
from pathlib import Path

from .records import Emitted, pack_time, sketch_of_texts, unpack_time, url_hash
from .sqlite_files import open_versioned, transaction

__all__ = ["RECENT_ORDER", "ArticleHistory", "pack_hash", "unpack_hash"]

SCHEMA_VERSION = 4  # 2: ``archived``; 3: ``sent`` (sketches, keyed by digest) replaces ``articles`` (texts); 4: URLs
#                      emptied past the drift sample and packed times (older code would misread them)
_SCHEMA = """
CREATE TABLE IF NOT EXISTS sent (
    h INTEGER PRIMARY KEY,
    site TEXT NOT NULL,
    url TEXT NOT NULL,
    key TEXT,
    content_hash BLOB NOT NULL,
    sketch BLOB NOT NULL,
    version INTEGER NOT NULL,
    first_seen TEXT NOT NULL,
    emitted REAL NOT NULL,
    published TEXT
);
CREATE INDEX IF NOT EXISTS sent_site ON sent (site, emitted);
CREATE TABLE IF NOT EXISTS archived (
    h INTEGER PRIMARY KEY,
    day INTEGER NOT NULL
);
"""


def pack_hash(digest: str) -> bytes | str:
    """A content hash as stored: its 16 bytes when it is 32 hex digits, else as given."""
    try:
        return bytes.fromhex(digest) if len(digest) == 32 else digest
    except ValueError:
        return digest


def unpack_hash(stored: bytes | str) -> str:
    """What :func:`pack_hash` stored, as the hex string it was."""
    return stored.hex() if isinstance(stored, bytes) else str(stored)


#: The order of :meth:`ArticleHistory.recent`: the latest run first, then the key (canonical URL)
#: in reverse code-point order, which is Redis's order of equal scores in a site's sorted set
#: (:class:`~.redis_monitor.RedisArticleHistory`), so both stores give the same list.
RECENT_ORDER = "emitted DESC, COALESCE(key, url) DESC"


class ArticleHistory:
    """Emitted articles by canonical URL.  One instance per thread.

    ``run_started``: the time the crawl writing through this handle started (default: when
    the handle was opened, once per crawl by the pipeline).  Every article the run sends is
    stored with it as its emission time, so the articles of one run tie and
    :meth:`recent` orders them by URL: which articles a drift fetches again to relearn from
    depends on what the crawls sent, not on the instants they happened to send it.
    """

    def __init__(self, path: str | os.PathLike[str], run_started: float | None = None):
        self.path = Path(path)
        self.run_started = time.time() if run_started is None else run_started
        self._conn = open_versioned(
            self.path, _SCHEMA, SCHEMA_VERSION, "article history",
            if_unreadable="rebuild", consequence="Articles already sent will be sent again once."
        )
        self._migrate()

    def _migrate(self) -> None:
        """Schema 2's ``articles`` (texts) moved to ``sent`` (sketches), then dropped."""
        conn = self._conn
        if conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'articles'").fetchone() is None:
            return
        rows = conn.execute("SELECT key, site, url, content_hash, body, version, first_seen, emitted, published, "
                            "page_text FROM articles").fetchall()
        with transaction(conn):
            conn.executemany(
                "INSERT OR REPLACE INTO sent VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(url_hash(key), site, url, None if key == url else key, pack_hash(digest),
                  sketch_of_texts(body, page), version, first_seen, _seconds(emitted), published)
                 for key, site, url, digest, body, version, first_seen, emitted, published, page in rows])
            conn.execute("DROP TABLE articles")

    def get(self, key: str) -> Emitted | None:
        h = url_hash(key)
        row = self._conn.execute(
            "SELECT site, url, key, content_hash, sketch, version, first_seen, published FROM sent WHERE h = ?", (h,),
        ).fetchone()
        if row is None or (row[2] or row[1] or key) != key:  # (a digest shared by two keys: not this one)
            return self._archived(key)
        site, url, _, digest, sketch, version, first_seen, published = row
        return Emitted(key, site, url or key, unpack_hash(digest), bytes(sketch), int(version), unpack_time(first_seen) or "",
                       unpack_time(published))

    def _archived(self, key: str) -> Emitted | None:
        """An archived article (known by the digest of its key alone), as a record without a sketch."""
        if self._conn.execute("SELECT 1 FROM archived WHERE h = ?", (url_hash(key),)).fetchone() is None:
            return None
        return Emitted(key, "", key, "", b"", 1, "", None, archived=True)

    def put(self, record: Emitted) -> None:
        """Store the version just emitted (replaces the older one)."""
        self._conn.execute(
            "INSERT OR REPLACE INTO sent VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (url_hash(record.key), record.site, record.url, None if record.key == record.url else record.key,
             pack_hash(record.content_hash), record.sketch, record.version, pack_time(record.first_seen), self.run_started,
             pack_time(record.published)),
        )

    def recent(self, site: str, n: int) -> list[str]:
        """URLs of the site's ``n`` latest sent articles: those of the latest run first, the
        articles of one run by URL (:data:`RECENT_ORDER`)."""
        cur = self._conn.execute(f"SELECT url FROM sent WHERE site = ? AND url != '' ORDER BY {RECENT_ORDER} LIMIT ?",
                                 (site, n))
        return [u for (u,) in cur]

    def count(self, site: str | None = None) -> int:
        """Articles known (of ``site``: those still in the window, archived ones have no site)."""
        if site is None:
            return self._conn.execute("SELECT (SELECT COUNT(*) FROM sent) + (SELECT COUNT(*) FROM archived)").fetchone()[0]
        return self._conn.execute("SELECT COUNT(*) FROM sent WHERE site = ?", (site,)).fetchone()[0]

    def close(self) -> None:
        self._conn.close()


def _seconds(iso: str | None) -> float:
    """An ISO time (schema 2's ``emitted``) as seconds since the epoch (0 when unreadable)."""
    try:
        when = _dt.datetime.fromisoformat((iso or "").replace("Z", "+00:00"))
    except ValueError:
        return 0.0
    return (when if when.tzinfo else when.replace(tzinfo=_dt.timezone.utc)).timestamp()

