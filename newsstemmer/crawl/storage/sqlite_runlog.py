"""The record of past runs: per site and run, the health record and how often each layout matched.

Monitoring needs memory across runs: whether a site usually has new articles (an
alert when a run finds none), and how many runs in a row a layout matched no
page (retired after ``NEWSSTEMMER_RETIRE_AFTER_RUNS``).  The health records are
also appended to ``<state>/health.jsonl`` (:func:`append_jsonl`), one line per
site and run, for reports and other tools.

SQLite (WAL) in the state folder; :class:`RunLog` is the whole interface.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Iterable

from ..items import utc_now
from .sqlite_files import open_versioned, transaction

__all__ = ["RunLog", "append_jsonl"]

SCHEMA_VERSION = 1
_SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY,
    started TEXT NOT NULL,
    finished TEXT,
    reason TEXT
);
CREATE TABLE IF NOT EXISTS site_runs (
    run INTEGER NOT NULL,
    site TEXT NOT NULL,
    record TEXT NOT NULL,
    PRIMARY KEY (run, site)
);
CREATE TABLE IF NOT EXISTS layout_runs (
    run INTEGER NOT NULL,
    site TEXT NOT NULL,
    layout TEXT NOT NULL,
    matches INTEGER NOT NULL,
    PRIMARY KEY (run, site, layout)
);
"""


class RunLog:
    """Runs, per-site health records and layout matches.  One instance per thread."""

    def __init__(self, path: str | os.PathLike[str]):
        self.path = Path(path)
        self._conn = open_versioned(
            self.path, _SCHEMA, SCHEMA_VERSION, "run log", if_unreadable="rebuild", consequence="Drift and retirement counts start again."
        )

    def begin(self) -> tuple[int, str]:
        """Start a run: ``(run id, start time)``."""
        started = utc_now()
        run = self._conn.execute("INSERT INTO runs (started) VALUES (?)", (started,)).lastrowid
        return int(run or 0), started

    def end(self, run: int, reason: str) -> None:
        self._conn.execute("UPDATE runs SET finished = ?, reason = ? WHERE id = ?", (utc_now(), reason, run))

    def add(self, run: int, site: str, record: dict[str, Any], layouts: dict[str, int]) -> None:
        """Store a site's health record and the matches of each of its layouts in ``run``."""
        with transaction(self._conn) as conn:
            conn.execute("INSERT OR REPLACE INTO site_runs VALUES (?, ?, ?)",
                         (run, site, json.dumps(record, ensure_ascii=False)))
            conn.executemany("INSERT OR REPLACE INTO layout_runs VALUES (?, ?, ?, ?)",
                             [(run, site, layout, n) for layout, n in layouts.items()])

    def recent(self, site: str, n: int, before: int | None = None) -> list[dict[str, Any]]:
        """The site's last ``n`` health records (before run ``before``), newest first."""
        cur = self._conn.execute(
            "SELECT record FROM site_runs WHERE site = ? AND run < ? ORDER BY run DESC LIMIT ?",
            (site, before if before is not None else 1 << 62, n),
        )
        out = []
        for (raw,) in cur:
            try:
                out.append(json.loads(raw))
            except ValueError:
                continue
        return out

    def idle_runs(self, site: str, layouts: Iterable[str]) -> dict[str, int]:
        """For each layout: how many of the site's latest runs in a row it matched no page.

        Only runs in which some layout of the site matched a page count (a run that
        fetched nothing of the site says nothing about its layouts), and only runs that
        recorded the layout (it was in use).
        """
        runs = [r for (r,) in self._conn.execute(
            "SELECT run FROM layout_runs WHERE site = ? GROUP BY run HAVING SUM(matches) > 0 ORDER BY run DESC",
            (site,))]
        out = {}
        for layout in layouts:
            rows = dict(self._conn.execute(
                "SELECT run, matches FROM layout_runs WHERE site = ? AND layout = ?", (site, layout)))
            n = 0
            for r in runs:
                if rows.get(r, 1) > 0:  # matched, or not in use yet
                    break
                n += 1
            out[layout] = n
        return out

    def close(self) -> None:
        self._conn.close()


def append_jsonl(path: str | os.PathLike[str], records: Iterable[dict[str, Any]]) -> int:
    """Append one JSON line per record (flushed and synced: a later crash keeps them)."""
    lines = [json.dumps(r, ensure_ascii=False) + "\n" for r in records]
    if not lines:
        return 0
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    with open(target, "a", encoding="utf-8") as fh:
        fh.write("".join(lines))
        fh.flush()
        os.fsync(fh.fileno())
    return len(lines)
