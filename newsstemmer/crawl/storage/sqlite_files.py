"""SQLite helpers shared by the on-disk stores of the crawl (buffer, linkinfo, frontier,
article history, fetch log, run log)."""

from __future__ import annotations

import logging
import os
import sqlite3
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from ...errors import NewsstemmerError

__all__ = ["StateError", "connect", "move_aside", "open_to_read", "open_versioned", "transaction"]

log = logging.getLogger(__name__)


class StateError(NewsstemmerError, RuntimeError):
    """A state database is unreadable, foreign, or newer than this newsstemmer."""


def connect(path: str | os.PathLike[str]) -> sqlite3.Connection:
    """Open (creating folder and file) an autocommit SQLite database in WAL mode.

    WAL with ``synchronous=NORMAL`` keeps every committed transaction across a
    killed process (only a power loss may drop the last ones), and lets other
    threads read while the crawl writes.
    """
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(str(path), timeout=30, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    return conn


def open_to_read(path: str | os.PathLike[str], timeout: float = 10) -> sqlite3.Connection:
    """Open an existing database to read it only (``query_only``; never creates the file).

    Not SQLite's ``mode=ro``: a read-only connection to a WAL database makes its ``-wal`` and
    ``-shm`` files when they are missing (the ``-shm`` is 32 KB) and, unable to write, cannot
    remove them when it closes.  The census that measures the state folder after each crawl
    (``prune``) left them beside every store: 6 × 32 KB, 0.19 MB of a 1.46 MB state.  This
    connection, the last one to close, folds the WAL in and removes both, as the crawl's own do.
    """
    from urllib.request import pathname2url

    uri = f"file:{pathname2url(os.path.abspath(path))}?mode=rw"  # (quoted: a folder name may hold '?' or '#')
    conn = sqlite3.connect(uri, uri=True, timeout=timeout, isolation_level=None)
    conn.execute("PRAGMA query_only = ON")
    return conn


@contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """``BEGIN`` … ``COMMIT``, or ``ROLLBACK`` if the block raises."""
    conn.execute("BEGIN")
    try:
        yield conn
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def _expected_columns(schema: str) -> dict[str, list[str]]:
    """Table -> column names that ``schema`` creates (made in memory, once per schema)."""
    found = _COLUMNS.get(schema)
    if found is None:
        mem = sqlite3.connect(":memory:")
        mem.executescript(schema)
        tables = [t for (t,) in mem.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        found = _COLUMNS[schema] = {t: [c[1] for c in mem.execute(f"PRAGMA table_info('{t}')")] for t in tables}
        mem.close()
    return found


_COLUMNS: dict[str, dict[str, list[str]]] = {}


def _foreign(conn: sqlite3.Connection, schema: str) -> str | None:
    """Why the database's tables are not those of ``schema`` (None: they are, or absent)."""
    for table, columns in _expected_columns(schema).items():
        have = [c[1] for c in conn.execute(f"PRAGMA table_info('{table}')")]
        if have and have != columns[:len(have)]:  # (fewer columns: an older version, migrated by adding them)
            return f"table {table} has columns {', '.join(have)}, not {', '.join(columns)}"
    return None


def _add_columns(conn: sqlite3.Connection, schema: str) -> None:
    """Add the columns an older version's tables lack (appended, nullable: ``ALTER TABLE … ADD COLUMN``)."""
    for table, columns in _expected_columns(schema).items():
        have = [c[1] for c in conn.execute(f"PRAGMA table_info('{table}')")]
        if len(have) < len(columns):
            mem = sqlite3.connect(":memory:")
            mem.executescript(schema)
            types = {c[1]: c[2] for c in mem.execute(f"PRAGMA table_info('{table}')")}
            mem.close()
            for name in columns[len(have):]:
                conn.execute(f"ALTER TABLE {table} ADD COLUMN {name} {types[name]}")


def _check(path: Path, schema: str, version: int, what: str) -> str | None:
    """Why an existing file cannot serve as this store (None: it can), read-only, so that
    a file that is not ours is moved aside exactly as it was found."""
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)
        try:
            found = conn.execute("PRAGMA user_version").fetchone()[0]
            if found > version:
                raise StateError(
                    f"{path}: {what} schema {found} is newer than this newsstemmer understands "
                    f"({version}): upgrade newsstemmer or use another NEWSSTEMMER_STATE_DIR"
                )
            return _foreign(conn, schema)
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        return str(exc)


def move_aside(path: Path) -> Path:
    """Rename a state file (and its WAL/SHM companions) to ``<name>.unreadable-<time>``;
    nothing is deleted.  Returns the new path of the database file."""
    stamp = time.strftime("%Y%m%dT%H%M%S")
    target = path.with_name(f"{path.name}.unreadable-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.unreadable-{stamp}-{n}")
    for suffix in ("", "-wal", "-shm"):
        companion = Path(str(path) + suffix)
        if companion.exists():
            os.replace(companion, Path(str(target) + suffix))
    return target


def open_versioned(
    path: str | os.PathLike[str],
    schema: str,
    version: int,
    what: str,
    if_unreadable: str = "fail",
    consequence: str = "",
) -> sqlite3.Connection:
    """:func:`connect`, then create the tables of ``schema`` (schema ``version``, kept in
    SQLite's ``user_version``; an older file is migrated forward by creating the tables
    it lacks and appending the columns its tables lack).

    A file written by a newer newsstemmer raises :class:`StateError` naming the file and
    what to do.  A file that is not SQLite, or whose tables are not this store's
    (``foreign``), is handled by ``if_unreadable``: ``"fail"`` raises
    :class:`StateError`; ``"rebuild"`` moves it aside (:func:`move_aside`, never deleted),
    logs a warning saying where and ``consequence``, and starts an empty store;
    ``"keep"`` does the same with an error-level message, for a store whose content
    exists nowhere else (the page buffer).
    """
    path = Path(path)
    problem = _check(path, schema, version, what) if path.exists() and path.stat().st_size else None
    if problem is None:
        conn = connect(path)
        conn.executescript(schema)
        _add_columns(conn, schema)
        if conn.execute("PRAGMA user_version").fetchone()[0] < version:
            conn.execute(f"PRAGMA user_version = {int(version)}")
        return conn
    if if_unreadable == "fail":
        raise StateError(
            f"{path}: not a usable {what} database ({problem}): move it aside, or use another NEWSSTEMMER_STATE_DIR"
        )
    aside = move_aside(path)
    message = f"newsstemmer: {path} is not a usable {what} database ({problem}); it was moved to {aside}"
    if if_unreadable == "keep":
        log.error("%s and a new one started. %s", message, consequence)
    else:
        log.warning("%s and a new one is built. %s", message, consequence)
    return open_versioned(path, schema, version, what, "fail")
