"""What earlier runs emitted: one record per article (canonical URL), for incremental runs.

A scheduled crawl must not send the same article twice: the pipeline
(:mod:`newsstemmer.crawl.incremental`) looks each article up here by its
canonical URL and emits it only when it is new, or when its body changed beyond
``NEWSSTEMMER_UPDATE_MIN_CHANGE`` (then as ``update: true`` with the next
``version``).  A record is written once the article is in the feeds
(``item_scraped``), so a crash can only make an article come twice, never go
missing.  The last emitted body and the visible text of its page are kept (compressed) to measure the
next change.  Once the article was last sent more than ``NEWSSTEMMER_KEEP_TEXT_DAYS`` ago,
pruning (:mod:`.retention`) replaces its row by an 8-byte digest of its key and the day it
was last sent (table ``archived``): it stays known (never sent again) and costs ~25 bytes.

SQLite (WAL) in the state folder; :class:`ArticleHistory` is the whole interface,
so another storage (Redis) can stand in for it.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..items import utc_now
from .records import Emitted, pack_text, unpack_text, url_hash
from .sqlite_files import open_versioned

__all__ = ["ArticleHistory"]

SCHEMA_VERSION = 2  # 2: ``archived`` (articles past the texts' retention window)
_SCHEMA = """
CREATE TABLE IF NOT EXISTS articles (
    key TEXT PRIMARY KEY,
    site TEXT NOT NULL,
    url TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    body BLOB NOT NULL,
    version INTEGER NOT NULL,
    first_seen TEXT NOT NULL,
    emitted TEXT NOT NULL,
    published TEXT,
    page_text BLOB
);
CREATE INDEX IF NOT EXISTS articles_site ON articles (site, emitted);
CREATE TABLE IF NOT EXISTS archived (
    h INTEGER PRIMARY KEY,
    day INTEGER NOT NULL
);
"""


class ArticleHistory:
    """Emitted articles by canonical URL.  One instance per thread."""

    def __init__(self, path: str | os.PathLike[str]):
        self.path = Path(path)
        self._conn = open_versioned(
            self.path, _SCHEMA, SCHEMA_VERSION, "article history",
            if_unreadable="rebuild", consequence="Articles already sent will be sent again once."
        )

    def get(self, key: str) -> Emitted | None:
        row = self._conn.execute(
            "SELECT key, site, url, content_hash, body, version, first_seen, published, page_text FROM articles "
            "WHERE key = ?", (key,),
        ).fetchone()
        if row is None:
            return self._archived(key)
        key, site, url, digest, body, version, first_seen, published, page_text = row
        body = unpack_text(body)  # (the page's text is packed with the body as its dictionary)
        return Emitted(key, site, url, digest, body, int(version), first_seen, published,
                       unpack_text(page_text, body), texts_dropped=not row[4])  # (a stored text, even an empty one, is never zero bytes)

    def _archived(self, key: str) -> Emitted | None:
        """An archived article (known by the digest of its key alone), as a record whose texts were dropped."""
        if self._conn.execute("SELECT 1 FROM archived WHERE h = ?", (url_hash(key),)).fetchone() is None:
            return None
        return Emitted(key, "", key, "", "", 1, "", None, "", texts_dropped=True)

    def put(self, record: Emitted) -> None:
        """Store the version just emitted (replaces the older one)."""
        self._conn.execute(
            "INSERT OR REPLACE INTO articles VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (record.key, record.site, record.url, record.content_hash,
             pack_text(record.body), record.version, record.first_seen, utc_now(),
             record.published, pack_text(record.page_text, record.body)),
        )

    def recent(self, site: str, n: int) -> list[str]:
        """URLs of the site's ``n`` most recently emitted articles, newest first."""
        cur = self._conn.execute("SELECT url FROM articles WHERE site = ? ORDER BY emitted DESC, rowid DESC LIMIT ?",
                                 (site, n))
        return [u for (u,) in cur]

    def count(self, site: str | None = None) -> int:
        """Articles known (of ``site``: those still in the window, archived ones have no site)."""
        if site is None:
            return self._conn.execute("SELECT (SELECT COUNT(*) FROM articles) + (SELECT COUNT(*) FROM archived)").fetchone()[0]
        return self._conn.execute("SELECT COUNT(*) FROM articles WHERE site = ?", (site,)).fetchone()[0]

    def close(self) -> None:
        self._conn.close()

