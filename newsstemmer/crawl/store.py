"""SQLite helpers shared by the on-disk stores of the crawl (buffer, linkinfo)."""

from __future__ import annotations

import os
import sqlite3
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

__all__ = ["connect", "transaction"]


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
