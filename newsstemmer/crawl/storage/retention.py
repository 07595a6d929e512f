"""What the crawl's state folder keeps, for how long, and the pruning that keeps it bounded.

A monitoring crawl runs every hour or day for months with one state folder; without
limits its stores grow with every article ever seen.  Each store keeps what the next
runs need, and :func:`prune` (run by the crawl at its close, and by ``newsstemmer state
--prune``) drops the rest and gives the freed space back to the file system:

========================  =====================================================  =========================================
store                     keeps                                                  bounded by
========================  =====================================================  =========================================
``buffer.sqlite``         pages waiting for their site's layouts                 a page leaves once its item is sent
``frontier.sqlite``       scheduled and done pages of the running crawl          cleared when a crawl finishes
``linkinfo.sqlite``       anchor texts of same-site links, per target URL        ``NEWSSTEMMER_KEEP_ANCHORS`` texts per URL
                                                                                 (2 once the URL's article was sent)
``history.sqlite``        per sent article: hash, version, dates; its last       texts dropped ``NEWSSTEMMER_KEEP_TEXT_DAYS``
                          body and page text (to measure the next change)        after the article was last sent
``fetchlog.sqlite``       validators and check times per URL                     rows of non-article pages not checked for
                                                                                 ``NEWSSTEMMER_KEEP_TEXT_DAYS`` are dropped
``runs.sqlite``           health record and layout matches per run and site      the last ``NEWSSTEMMER_KEEP_RUNS`` runs
``health.jsonl``          one line per site and run                              moved to ``health.jsonl.1`` past
                                                                                 ``NEWSSTEMMER_HEALTH_MAX_MB``
========================  =====================================================  =========================================

An article whose texts were dropped is still recognised by its hash (never sent again
unchanged); a later edit of it cannot be measured and is not sent as an update.

Only SQLite and files here: no Scrapy, so the command line uses it as it is.
"""

from __future__ import annotations

import datetime as _dt
import os
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["STORES", "Retention", "StoreCensus", "census", "prune"]

#: The state folder's SQLite stores: file name -> (what it holds, its tables).
STORES: dict[str, tuple[str, tuple[str, ...]]] = {
    "buffer.sqlite": ("pages waiting for their site's layouts", ("pages",)),
    "frontier.sqlite": ("the running crawl's scheduled and done pages", ()),
    "linkinfo.sqlite": ("anchor texts of same-site links", ("anchors",)),
    "history.sqlite": ("articles sent (hash, version, dates, last texts)", ("articles",)),
    "fetchlog.sqlite": ("validators and check times per URL", ("urls",)),
    "runs.sqlite": ("runs, health records, layout matches", ("runs", "site_runs", "layout_runs")),
}
HEALTH = "health.jsonl"
#: Anchor texts kept for a URL whose article was sent (enough to relearn its title after a redesign).
SENT_ANCHORS = 2


@dataclass(frozen=True)
class Retention:
    """How long the state keeps things (the ``NEWSSTEMMER_KEEP_*`` settings)."""

    keep_text_days: float = 30.0
    keep_anchors: int = 8
    keep_runs: int = 100
    health_max_mb: float = 10.0


@dataclass
class StoreCensus:
    """One store of a state folder: its size on disk and what it holds."""

    name: str
    holds: str
    bytes: int  # the file with its -wal and -shm companions
    rows: dict[str, int] = field(default_factory=dict)
    free_bytes: int = 0  # pages SQLite holds free (given back by pruning)
    error: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"store": self.name, "holds": self.holds, "bytes": self.bytes, "rows": self.rows,
                "free_bytes": self.free_bytes, **({"error": self.error} if self.error else {})}


def _size(path: Path) -> int:
    return sum(Path(str(path) + s).stat().st_size for s in ("", "-wal", "-shm") if Path(str(path) + s).exists())


def census(state_dir: str | os.PathLike[str]) -> list[StoreCensus]:
    """Size, rows and free space of every store in ``state_dir`` (read only; absent stores left out)."""
    state = Path(state_dir)
    out = []
    for name, (holds, tables) in STORES.items():
        path = state / name
        if not path.exists():
            continue
        entry = StoreCensus(name, holds, _size(path))
        try:
            conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=10)
            try:
                present = {t for (t,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
                for table in tables or tuple(sorted(present)):
                    if table in present:
                        entry.rows[table] = conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
                page = conn.execute("PRAGMA page_size").fetchone()[0]
                entry.free_bytes = conn.execute("PRAGMA freelist_count").fetchone()[0] * page
            finally:
                conn.close()
        except sqlite3.DatabaseError as exc:
            entry.error = str(exc)
        out.append(entry)
    health = state / HEALTH
    if health.exists():
        with health.open("rb") as fh:
            lines = sum(1 for _ in fh)
        out.append(StoreCensus(HEALTH, "one health record per site and run", health.stat().st_size, {"lines": lines}))
    return out


def prune(state_dir: str | os.PathLike[str], retention: Retention | None = None,
          now: _dt.datetime | None = None) -> dict[str, int]:
    """Drop what ``retention`` does not keep (see the module docstring) and give the space back.

    Returns rows (or lines) removed per store, and ``bytes_freed`` over the whole folder.
    A store that cannot be pruned now (locked by a running crawl, damaged) is skipped:
    pruning never loses what a crawl still needs, and the next prune tries again.
    """
    keep = retention or Retention()
    state = Path(state_dir)
    now = now or _dt.datetime.now(_dt.timezone.utc)
    cutoff = (now - _dt.timedelta(days=keep.keep_text_days)).replace(microsecond=0)
    before = sum(c.bytes for c in census(state))
    removed: dict[str, int] = {}
    steps = {
        "history.sqlite": lambda c: _prune_history(c, cutoff),
        "linkinfo.sqlite": lambda c: _prune_anchors(c, state / "history.sqlite", keep.keep_anchors),
        "fetchlog.sqlite": lambda c: _prune_fetchlog(c, cutoff),
        "runs.sqlite": lambda c: _prune_runs(c, keep.keep_runs),
        "buffer.sqlite": lambda c: 0,
        "frontier.sqlite": lambda c: 0,
    }
    for name, step in steps.items():
        path = state / name
        if not path.exists():
            continue
        try:
            conn = sqlite3.connect(str(path), timeout=5, isolation_level=None)
            try:
                removed[name] = step(conn)
                _give_back(conn)
            finally:
                conn.close()
        except sqlite3.DatabaseError:
            continue  # busy or damaged: the store's own opening deals with damage
    removed[HEALTH] = _rotate_health(state / HEALTH, keep.health_max_mb)
    removed["bytes_freed"] = max(0, before - sum(c.bytes for c in census(state)))
    return removed


def _has(conn: sqlite3.Connection, table: str) -> bool:
    return conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)).fetchone() is not None


def _prune_history(conn: sqlite3.Connection, cutoff: _dt.datetime) -> int:
    """Texts of articles last sent before ``cutoff``: dropped (hash and dates stay)."""
    if not _has(conn, "articles"):
        return 0
    cur = conn.execute("UPDATE articles SET body = x'', page_text = NULL "
                       "WHERE emitted < ? AND (length(body) > 0 OR page_text IS NOT NULL)", (cutoff.isoformat(),))
    return cur.rowcount


def _prune_anchors(conn: sqlite3.Connection, history: Path, per_url: int) -> int:
    """One row per (URL, text), the first seen; then at most ``per_url`` texts per URL, and
    :data:`SENT_ANCHORS` for URLs whose article was sent."""
    if not _has(conn, "anchors"):
        return 0
    total = conn.execute("SELECT COUNT(*) FROM anchors").fetchone()[0]
    conn.execute("BEGIN")
    try:
        conn.execute("DELETE FROM anchors WHERE rowid NOT IN (SELECT MIN(rowid) FROM anchors GROUP BY url, text)")
        sent = "0"
        if history.exists():
            conn.execute("ATTACH DATABASE ? AS h", (f"file:{history}?mode=ro",))
            if conn.execute("SELECT 1 FROM h.sqlite_master WHERE name = 'articles'").fetchone():
                sent = "url IN (SELECT url FROM h.articles)"
        conn.execute(
            "DELETE FROM anchors WHERE rowid IN (SELECT rowid FROM (SELECT rowid, url, "
            "ROW_NUMBER() OVER (PARTITION BY url ORDER BY rowid) AS n FROM anchors) "
            f"WHERE n > CASE WHEN {sent} THEN ? ELSE ? END)", (min(SENT_ANCHORS, per_url), per_url))
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    finally:
        if history.exists():
            try:
                conn.execute("DETACH DATABASE h")
            except sqlite3.OperationalError:
                pass
    return total - conn.execute("SELECT COUNT(*) FROM anchors").fetchone()[0]


def _prune_fetchlog(conn: sqlite3.Connection, cutoff: _dt.datetime) -> int:
    """Rows of pages that were not articles, with nothing pending, not checked since ``cutoff``."""
    if not _has(conn, "urls"):
        return 0
    cur = conn.execute("DELETE FROM urls WHERE article = 0 AND p_at IS NULL AND published IS NULL "
                       "AND COALESCE(checked, 0) < ?", (cutoff.timestamp(),))
    return cur.rowcount


def _prune_runs(conn: sqlite3.Connection, keep_runs: int) -> int:
    """Runs older than the last ``keep_runs``, with their per-site records."""
    if not _has(conn, "runs"):
        return 0
    (last,) = conn.execute("SELECT COALESCE(MAX(id), 0) FROM runs").fetchone()
    floor = last - keep_runs
    if floor <= 0:
        return 0
    conn.execute("BEGIN")
    try:
        n = conn.execute("DELETE FROM runs WHERE id <= ?", (floor,)).rowcount
        for table in ("site_runs", "layout_runs"):
            if _has(conn, table):
                conn.execute(f"DELETE FROM {table} WHERE run <= ?", (floor,))
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return n


def _give_back(conn: sqlite3.Connection) -> None:
    """Return free pages to the file system: the first time by a ``VACUUM`` that also turns on
    incremental vacuuming, later by ``incremental_vacuum``; then truncate the WAL."""
    if conn.execute("PRAGMA auto_vacuum").fetchone()[0] != 2:
        conn.execute("PRAGMA auto_vacuum = INCREMENTAL")
        conn.execute("VACUUM")
    else:
        conn.execute("PRAGMA incremental_vacuum").fetchall()
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()


def _rotate_health(path: Path, max_mb: float) -> int:
    """``health.jsonl`` past ``max_mb``: moved to ``health.jsonl.1`` (replacing the older one).
    Returns the lines moved."""
    if not path.exists() or path.stat().st_size <= max_mb * 2**20:
        return 0
    with path.open("rb") as fh:
        lines = sum(1 for _ in fh)
    os.replace(path, path.with_name(path.name + ".1"))
    return lines
