"""What a crawl keeps for its reports, in the state folder: sample pages and a summary.

``<state>/report/pages.sqlite`` holds up to ``NEWSSTEMMER_REPORT_PAGES`` pages per
site from the site's latest crawl (a crawl that reaches a site replaces that site's
pages); ``<state>/report/crawl.json`` the latest crawl's figures per site.  The crawl
writes both (:mod:`newsstemmer.crawl.reporting`); ``newsstemmer report --state DIR``
reads them again.  Plain ``sqlite3`` and JSON: no Scrapy here.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..errors import NewsstemmerError
from ..layout.patterns import write_atomically

__all__ = ["DATA_DIR", "CrawlDataError", "SampleStore", "read_summary", "write_summary"]

#: Folder of the state directory that holds the report data (and, by default, the reports).
DATA_DIR = "report"
SUMMARY_NAME = "crawl.json"
SUMMARY_FORMAT = "newsstemmer-crawl-report"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS samples (
    site TEXT NOT NULL,
    url TEXT NOT NULL,
    html TEXT NOT NULL,
    fetched_at TEXT NOT NULL,
    PRIMARY KEY (site, url)
);
"""


class CrawlDataError(NewsstemmerError, ValueError):
    """The report data of a state folder is missing, unreadable or not ours."""


class SampleStore:
    """Sample pages per site (one connection per thread, as SQLite wants)."""

    def __init__(self, path: str | os.PathLike[str], create: bool = True) -> None:
        self.path = Path(path)
        if not create and not self.path.is_file():
            raise CrawlDataError(f"{self.path}: no sample pages (the file is missing)")
        if create:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._conn = sqlite3.connect(str(self.path), timeout=30, isolation_level=None)
            self._conn.execute("PRAGMA journal_mode=WAL")
            # The samples are a picture of the crawl, not data to keep at any price.
            self._conn.execute("PRAGMA synchronous=OFF")
            self._conn.executescript(_SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise CrawlDataError(f"{self.path}: not a sample page database: {exc}") from None

    def clear(self, site: str) -> None:
        """Forget the site's pages (a new crawl of it starts)."""
        self._conn.execute("DELETE FROM samples WHERE site = ?", (site,))

    def add(self, site: str, url: str, html: str, fetched_at: str) -> None:
        self._conn.execute("INSERT OR REPLACE INTO samples VALUES (?, ?, ?, ?)", (site, url, html, fetched_at))

    def count(self, site: str) -> int:
        return self._conn.execute("SELECT COUNT(*) FROM samples WHERE site = ?", (site,)).fetchone()[0]

    def sites(self) -> dict[str, int]:
        """Site -> number of sample pages."""
        try:
            return dict(self._conn.execute("SELECT site, COUNT(*) FROM samples GROUP BY site ORDER BY site"))
        except sqlite3.DatabaseError as exc:
            raise CrawlDataError(f"{self.path}: unreadable sample pages: {exc}") from None

    def pages(self, site: str) -> Iterator[tuple[str, str]]:
        """(url, html) of the site's pages, in URL order, read one at a time."""
        try:
            rows = self._conn.execute("SELECT url FROM samples WHERE site = ? ORDER BY url", (site,)).fetchall()
            for (url,) in rows:
                row = self._conn.execute("SELECT html FROM samples WHERE site = ? AND url = ?", (site, url)).fetchone()
                if row is not None:
                    yield url, row[0]
        except sqlite3.DatabaseError as exc:
            raise CrawlDataError(f"{self.path}: unreadable sample pages: {exc}") from None

    def close(self) -> None:
        self._conn.close()


def write_summary(folder: str | os.PathLike[str], summary: dict[str, Any]) -> Path:
    """Write ``crawl.json`` atomically into ``folder``."""
    data = {"format": SUMMARY_FORMAT, "version": 1, **summary}
    return write_atomically(Path(folder) / SUMMARY_NAME, json.dumps(data, ensure_ascii=False, indent=1) + "\n")


def read_summary(folder: str | os.PathLike[str]) -> dict[str, Any]:
    """The ``crawl.json`` of ``folder``, checked; :class:`CrawlDataError` says what is wrong."""
    path = Path(folder) / SUMMARY_NAME
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise CrawlDataError(
            f"{path}: missing: no crawl wrote report data here (run the crawl with NEWSSTEMMER_REPORT=True)"
        ) from None
    except OSError as exc:
        raise CrawlDataError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise CrawlDataError(f"{path}: corrupt crawl summary: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != SUMMARY_FORMAT:
        raise CrawlDataError(f"{path}: not a newsstemmer crawl summary")
    sites = data.get("sites", {})
    if not isinstance(sites, dict) or not all(isinstance(v, dict) for v in sites.values()):
        raise CrawlDataError(f"{path}: \"sites\" must map site names to objects")
    return data
