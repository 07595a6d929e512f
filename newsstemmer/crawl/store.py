"""SQLite helpers shared by the on-disk stores of the crawl (buffer, linkinfo, frontier,
article history, fetch log, run log)."""

from __future__ import annotations

import os
import sqlite3
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

__all__ = ["StateError", "connect", "open_versioned", "transaction"]


class StateError(RuntimeError):
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


def open_versioned(path: str | os.PathLike[str], schema: str, version: int, what: str) -> sqlite3.Connection:
    """:func:`connect`, then create the tables of ``schema`` (schema ``version``, kept in
    SQLite's ``user_version``).  A file that is not SQLite, or was written by a newer
    newsstemmer, raises :class:`StateError` naming the file and what to do."""
    try:
        conn = connect(path)
        found = conn.execute("PRAGMA user_version").fetchone()[0]
        if found > version:
            conn.close()
            raise StateError(f"{path}: {what} schema {found} is newer than this newsstemmer understands "
                             f"({version}): upgrade newsstemmer or use another NEWSSTEMMER_STATE_DIR")
        conn.executescript(schema)
        if found < version:
            conn.execute(f"PRAGMA user_version = {int(version)}")
    except sqlite3.DatabaseError as exc:
        raise StateError(f"{path}: not a usable {what} database ({exc}): move it aside, or use another "
                         "NEWSSTEMMER_STATE_DIR") from None
    return conn
