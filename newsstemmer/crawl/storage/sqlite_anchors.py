"""Linkinfo: every anchor text of every same-site link, kept on disk per site.

For each crawled URL, the texts of the links on other pages of its site that
point to it are the best evidence of its headline (SPEC §2.5).  A URL linked as
"Storm closes coast road" from the front page and "Coast road closed" from a
section page has both texts recorded, once per linking page: not only the first
one seen.  The store is an SQLite database (WAL) in the state directory, so it
grows across crawls and survives a crash; :meth:`LinkInfo.export_jsonl` writes
it in the format of ``newsstemmer learn --linkinfo``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Iterable, Sequence

from .records import clean_anchor_text
from .sqlite_files import open_versioned, transaction

__all__ = ["LinkInfo"]

SCHEMA_VERSION = 1
_SCHEMA = """
CREATE TABLE IF NOT EXISTS anchors (
    site TEXT NOT NULL,
    url TEXT NOT NULL,
    text TEXT NOT NULL,
    source TEXT NOT NULL,
    PRIMARY KEY (url, text, source)
);
CREATE INDEX IF NOT EXISTS anchors_site ON anchors (site);
"""


class LinkInfo:
    """The anchor texts of same-site links, per target URL.

    One instance per thread (SQLite connections are not shared between threads).
    """

    def __init__(self, path: str | os.PathLike[str]):
        self.path = Path(path)
        self._conn = open_versioned(
            self.path,
            _SCHEMA,
            SCHEMA_VERSION,
            "link anchor text",
            if_unreadable="rebuild",
            consequence="Anchor texts are gathered again as pages are fetched.",
        )

    def add(self, site: str, source: str, links: Iterable[tuple[str, str]]) -> int:
        """Record the links ``(target_url, anchor_text)`` found on page ``source``; empty texts are skipped."""
        rows = []
        for url, text in links:
            text = clean_anchor_text(text)
            if text:
                rows.append((site, url, text, source))
        if rows:
            with transaction(self._conn):
                self._conn.executemany("INSERT OR IGNORE INTO anchors VALUES (?, ?, ?, ?)", rows)
        return len(rows)

    def anchors(self, urls: str | Sequence[str]) -> list[str]:
        """Distinct anchor texts of links to ``urls`` (one URL or its aliases), oldest first."""
        if isinstance(urls, str):
            urls = [urls]
        if not urls:
            return []
        marks = ",".join("?" * len(urls))
        cur = self._conn.execute(
            f"SELECT text FROM anchors WHERE url IN ({marks}) GROUP BY text ORDER BY MIN(rowid)", list(urls)
        )
        return [t for (t,) in cur]

    def sources(self, url: str) -> list[tuple[str, str]]:
        """``(source_url, anchor_text)`` of every recorded link to ``url``."""
        cur = self._conn.execute("SELECT source, text FROM anchors WHERE url = ? ORDER BY rowid", (url,))
        return list(cur)

    def sites(self) -> list[str]:
        return [s for (s,) in self._conn.execute("SELECT DISTINCT site FROM anchors ORDER BY site")]

    def export_jsonl(self, site: str, path: str | os.PathLike[str]) -> int:
        """Write ``{"url": URL, "anchors": [TEXT, ...]}`` lines for ``site``; returns the line count."""
        cur = self._conn.execute(
            "SELECT url, text FROM anchors WHERE site = ? GROUP BY url, text ORDER BY url, MIN(rowid)", (site,)
        )
        by_url: dict[str, list[str]] = {}
        for url, text in cur:
            by_url.setdefault(url, []).append(text)
        with open(path, "w", encoding="utf-8") as fh:
            for url, texts in by_url.items():
                fh.write(json.dumps({"url": url, "anchors": texts}, ensure_ascii=False) + "\n")
        return len(by_url)

    def close(self) -> None:
        self._conn.close()
