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
                                                                                 until its article is sent; then 2 for a
                                                                                 site's ``NEWSSTEMMER_DRIFT_SAMPLE`` latest
                                                                                 sent (what a drift relearns from), none
                                                                                 for the others
``history.sqlite``        per article sent in the last ``KEEP_TEXT_DAYS``:       ``NEWSSTEMMER_KEEP_TEXT_DAYS`` after the
                          hash, version, dates and a sketch of its last body     article was last sent; then archived:
                          and page text (~0.3 KB: measures the next change);     8 bytes of its key's digest and a day;
                          older ones archived                                    its URL only while among the site's
                                                                                 ``NEWSSTEMMER_DRIFT_SAMPLE`` latest
``fetchlog.sqlite``       validators and check times per URL; older articles     articles not checked for ``KEEP_TEXT_DAYS``
                          archived (digest and day: skipped)                     archived; rows of non-articles dropped
``runs.sqlite``           health record and layout matches per run and site      the last ``NEWSSTEMMER_KEEP_RUNS`` runs
``health.jsonl``          one line per site and run                              moved to ``health.jsonl.1`` past
                                                                                 ``NEWSSTEMMER_HEALTH_MAX_MB``
========================  =====================================================  =========================================

An archived article (``archived`` tables of the history and the fetch log, ~25 bytes
each) is known by the digest of its canonical URL and of its URL
(:func:`~.records.url_hash`): it is never fetched or sent again, and a later edit of it is
not sent as an update (its texts are gone, so the change cannot be measured).  The one
case that could send an article twice: a digest collision makes a new article look
archived (it would be missed, not repeated: about one in 10⁷ for a million articles);
an archived article whose URL changes (a new canonical URL) is a new article.

Only SQLite and files here: no Scrapy, so the command line uses it as it is.
"""

from __future__ import annotations

import datetime as _dt
import os
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .records import url_hash
from .sqlite_files import open_to_read
from .sqlite_history import RECENT_ORDER

__all__ = ["STORES", "Retention", "StoreCensus", "census", "prune"]

#: The state folder's SQLite stores: file name -> (what it holds, its tables).
STORES: dict[str, tuple[str, tuple[str, ...]]] = {
    "buffer.sqlite": ("pages waiting for their site's layouts", ("pages",)),
    "frontier.sqlite": ("the running crawl's scheduled and done pages", ()),
    "linkinfo.sqlite": ("anchor texts of same-site links", ("anchors",)),
    "history.sqlite": ("articles sent (hash, version, dates, change sketch)", ("sent", "archived")),
    "fetchlog.sqlite": ("validators and check times per URL (by its digest)", ("records", "archived")),
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
    sent_anchored: int = 20  # a site's latest sent articles whose anchors stay (``NEWSSTEMMER_DRIFT_SAMPLE``)
    recheck_window_days: float | None = 7.0  # ``NEWSSTEMMER_RECHECK_WINDOW`` (Redis: fetch records compacted past it)


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
            conn = open_to_read(path)
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
    _migrate(state)
    steps = {
        "history.sqlite": lambda c: _prune_history(c, cutoff, keep.sent_anchored),
        "fetchlog.sqlite": lambda c: _prune_fetchlog(c, cutoff),
        "linkinfo.sqlite": lambda c: _prune_anchors(c, state, keep.keep_anchors, keep.sent_anchored),
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
            conn.create_function("url_hash", 1, url_hash, deterministic=True)
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


def _migrate(state: Path) -> None:
    """Bring the history and the fetch log to their current schema (the ``archived`` tables)."""
    from .sqlite_fetchlog import FetchLog
    from .sqlite_history import ArticleHistory

    for name, store in (("history.sqlite", ArticleHistory), ("fetchlog.sqlite", FetchLog)):
        if (state / name).exists():
            try:
                store(state / name).close()
            except (sqlite3.DatabaseError, OSError):
                continue  # busy or damaged: left to the store's own opening


def _archive(conn: sqlite3.Connection, select: str, delete: str, args: tuple) -> int:
    """Move the rows ``select`` gives (digest, day) to ``archived`` and delete them, in one transaction."""
    conn.execute("BEGIN")
    try:
        conn.execute(f"INSERT OR REPLACE INTO archived (h, day) {select}", args)
        n = conn.execute(delete, args).rowcount
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return n


def _prune_history(conn: sqlite3.Connection, cutoff: _dt.datetime, latest: int = 20) -> int:
    """Articles last sent before ``cutoff``: archived (digest of the key and the day last sent);
    the URL of the others emptied but for a site's ``latest`` sent (what a drift fetches again),
    where it is the key (the digest finds the row without it)."""
    if not _has(conn, "sent") or not _has(conn, "archived"):
        return 0
    where = "FROM sent WHERE emitted < ?"
    n = _archive(conn, "SELECT h, CAST(emitted / 86400 AS INTEGER) " + where, "DELETE " + where, (cutoff.timestamp(),))
    conn.execute("UPDATE sent SET url = '' WHERE key IS NULL AND url != '' AND h IN (SELECT h FROM (SELECT h, "
                 f"ROW_NUMBER() OVER (PARTITION BY site ORDER BY {RECENT_ORDER}) AS n FROM sent) WHERE n > ?)", (latest,))
    return n


def _prune_anchors(conn: sqlite3.Connection, state: Path, per_url: int, sent_anchored: int = 20) -> int:
    """One row per (URL, text), the first seen; none for archived articles, nor for sent ones
    but a site's ``sent_anchored`` latest (those a drift fetches again to relearn from: the
    only reason left to know a sent page's headline); then at most ``per_url`` texts per
    URL, and :data:`SENT_ANCHORS` for those latest sent ones."""
    if not _has(conn, "anchors"):
        return 0
    total = conn.execute("SELECT COUNT(*) FROM anchors").fetchone()[0]
    dropped, sent, attached = [], "0", []
    try:
        for alias, name in (("h", "history.sqlite"), ("f", "fetchlog.sqlite")):
            if (state / name).exists():
                conn.execute(f"ATTACH DATABASE ? AS {alias}", (f"file:{state / name}?mode=ro",))
                attached.append(alias)
                tables = {t for (t,) in conn.execute(f"SELECT name FROM {alias}.sqlite_master WHERE type = 'table'")}
                if "archived" in tables:
                    dropped.append(f"url_hash(url) IN (SELECT h FROM {alias}.archived)")
                if alias == "h" and "sent" in tables:  # (by URL, or by digest where the URL is the key and emptied)
                    sent = "(url IN (SELECT url FROM h.sent) OR url_hash(url) IN (SELECT h FROM h.sent))"
                    older = ("(SELECT h, url FROM (SELECT h, url, ROW_NUMBER() OVER (PARTITION BY site "
                             f"ORDER BY {RECENT_ORDER}) AS n FROM h.sent) WHERE n > {int(sent_anchored)})")
                    dropped.append(  # sent, and not among its site's latest
                        f"url IN (SELECT url FROM {older}) OR url_hash(url) IN (SELECT h FROM {older})")
        conn.execute("BEGIN")
        try:
            conn.execute("DELETE FROM anchors WHERE rowid NOT IN (SELECT MIN(rowid) FROM anchors GROUP BY url, text)")
            if dropped:
                conn.execute("DELETE FROM anchors WHERE " + " OR ".join(dropped))
            conn.execute(
                "DELETE FROM anchors WHERE rowid IN (SELECT rowid FROM (SELECT rowid, url, "
                "ROW_NUMBER() OVER (PARTITION BY url ORDER BY rowid) AS n FROM anchors) "
                f"WHERE n > CASE WHEN {sent} THEN ? ELSE ? END)", (min(SENT_ANCHORS, per_url), per_url))
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
    finally:
        for alias in attached:
            conn.execute(f"DETACH DATABASE {alias}")
    return total - conn.execute("SELECT COUNT(*) FROM anchors").fetchone()[0]


def _prune_fetchlog(conn: sqlite3.Connection, cutoff: _dt.datetime) -> int:
    """Rows of pages that were not articles, with nothing pending, not checked since ``cutoff``:
    dropped; articles not checked since ``cutoff``: archived (digest of the URL and the day of
    their last check); rows never checked (a feed's date) of archived URLs: dropped."""
    if not _has(conn, "records"):
        return 0
    n = conn.execute("DELETE FROM records WHERE article = 0 AND p_at IS NULL AND published IS NULL "
                     "AND COALESCE(checked, 0) < ?", (cutoff.timestamp(),)).rowcount
    if not _has(conn, "archived"):
        return n
    where = "FROM records WHERE article = 1 AND p_at IS NULL AND COALESCE(checked, 0) < ?"
    n += _archive(conn, "SELECT h, CAST(COALESCE(checked, 0) / 86400 AS INTEGER) " + where,
                  "DELETE " + where, (cutoff.timestamp(),))
    n += conn.execute("DELETE FROM records WHERE checked IS NULL AND p_at IS NULL "
                      "AND h IN (SELECT h FROM archived)").rowcount
    return n


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
    else:  # (executescript: run to its end; Python's execute() steps a statement without columns once,
        conn.executescript("PRAGMA incremental_vacuum;")  # which frees a single page)
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
