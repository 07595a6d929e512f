"""What earlier runs emitted: one record per article (canonical URL), for incremental runs.

A scheduled crawl must not send the same article twice: the pipeline
(:mod:`newsstemmer.crawl.incremental`) looks each article up here by its
canonical URL and emits it only when it is new, or when its body changed beyond
``NEWSSTEMMER_UPDATE_MIN_CHANGE`` (then as ``update: true`` with the next
``version``).  A record is written once the article is in the feeds
(``item_scraped``), so a crash can only make an article come twice, never go
missing.  The last emitted body and the visible text of its page are kept (compressed) to measure the
next change.

SQLite (WAL) in the state folder; :class:`ArticleHistory` is the whole interface,
so another storage (Redis) can stand in for it.
"""

from __future__ import annotations

import os
import zlib
from pathlib import Path

from ..items import utc_now
from .records import Emitted
from .sqlite_files import open_versioned

__all__ = ["ArticleHistory"]

SCHEMA_VERSION = 1
#: zlib level of the stored texts: the fastest (written once per emitted article, on the
#: crawl's thread; read back only when the article is seen again).
_LEVEL = 1
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
            return None
        key, site, url, digest, body, version, first_seen, published, page_text = row
        return Emitted(key, site, url, digest, _text(body), int(version), first_seen, published, _text(page_text),
                       texts_dropped=not body)  # (a stored text, even an empty one, is never zero bytes)

    def put(self, record: Emitted) -> None:
        """Store the version just emitted (replaces the older one)."""
        self._conn.execute(
            "INSERT OR REPLACE INTO articles VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (record.key, record.site, record.url, record.content_hash,
             zlib.compress(record.body.encode("utf-8"), _LEVEL), record.version, record.first_seen, utc_now(),
             record.published, zlib.compress(record.page_text.encode("utf-8"), _LEVEL)),
        )

    def recent(self, site: str, n: int) -> list[str]:
        """URLs of the site's ``n`` most recently emitted articles, newest first."""
        cur = self._conn.execute("SELECT url FROM articles WHERE site = ? ORDER BY emitted DESC, rowid DESC LIMIT ?",
                                 (site, n))
        return [u for (u,) in cur]

    def count(self, site: str | None = None) -> int:
        if site is None:
            return self._conn.execute("SELECT COUNT(*) FROM articles").fetchone()[0]
        return self._conn.execute("SELECT COUNT(*) FROM articles WHERE site = ?", (site,)).fetchone()[0]

    def close(self) -> None:
        self._conn.close()


def _text(blob: bytes | None) -> str:
    """A compressed text column ("" for a missing or damaged one: compared with nothing)."""
    if not blob:
        return ""
    try:
        return zlib.decompress(blob).decode("utf-8")
    except (zlib.error, UnicodeDecodeError):
        return ""
