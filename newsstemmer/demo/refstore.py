"""A long-run demo site's articles on disk, so that its memory stays flat over a year of days (issue #26).

:class:`RefStore` is the list of every article of a :class:`~newsstemmer.demo.longrun.DemoDays` in
publication (= id) order: the first day's planned articles in memory, each later one's
:class:`~newsstemmer.demo.longrun.ArticleRef` as a row of a private temporary SQLite database (on
disk past a small page cache; a file of the caller's or a temporary one, made again by each process,
from the journal if there is one).  What stays in
memory per article is its id and its place in its section (two arrays of 8-byte numbers) and the
headlines taken; refs read are made again from their rows, the last few kept in a bounded cache.

It reads as a list (``len``, indexing, slices, iteration) so that the demo's page makers, written
for lists of planned articles, take it unchanged and make the same bytes; slices and the sections'
lists (:meth:`RefStore.section`) are views, read in chunks when iterated.
"""

from __future__ import annotations

import collections
import os
import sqlite3
import tempfile
import threading
import weakref
from array import array
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Callable, Iterator, overload

__all__ = ["RefStore"]

#: SQLite's page cache per store, KB (the rows read most are kept made, in :data:`CACHED_REFS`).
PAGE_CACHE_KB = 256
#: Between a ref's tags in its row (a character no tag has).
TAG_SEPARATOR = "\x1f"
#: Refs kept made (the ones read one at a time: lookups, the recent days' pages, listings' heads).
CACHED_REFS = 1024
_CHUNK = 512
_COLUMNS = "id, section, published, title, dek, author, tags, category, path"
#: The lengths of the ``IN`` lists queried (padded up to one of them: SQLite keeps each statement prepared).
_IN_SIZES = (1, 8, 64, _CHUNK)


def _select(size: int) -> str:
    return f"SELECT place, {_COLUMNS} FROM refs WHERE place IN ({','.join('?' * size)})"


class RefStore(Sequence[Any]):
    """Every article in publication order: ``first`` (day 1's, kept) then the refs appended.

    ``make(row)`` makes a ref from a row ``(id, section, published (ISO), title, dek, author, tags
    (joined by :data:`TAG_SEPARATOR`), category, path)``.  Thread-safe: the demo server reads it from its threads.
    """

    def __init__(self, first: Sequence[Any], make: Callable[[tuple[Any, ...]], Any],
                 path: str | Path | None = None) -> None:
        self._first = list(first)
        self._make = make
        self.ids = array("q", (a.id for a in self._first))  # every article's id, by place
        self.sections: dict[str, array] = {}  # section -> the places of its articles
        for i, a in enumerate(self._first):
            self.sections.setdefault(a.section, array("q")).append(i)
        if path is None:  # a file of its own in the temporary folder, removed with the store
            fd, name = tempfile.mkstemp(prefix="demo-refs-", suffix=".sqlite")
            os.close(fd)
            path = name
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.unlink(missing_ok=True)  # made again from the journal: never a stale copy
        self._db = sqlite3.connect(self.path, check_same_thread=False)
        # a cache, not a record (the journal is): no rollback journal, no syncs; a small page cache
        self._db.execute("PRAGMA journal_mode = OFF")
        self._db.execute("PRAGMA synchronous = OFF")
        self._db.execute(f"PRAGMA cache_size = -{PAGE_CACHE_KB}")
        self._closed = weakref.finalize(self, _remove, self._db, self.path)
        self._db.execute(f"CREATE TABLE refs (place INTEGER PRIMARY KEY, {_COLUMNS})")
        self._db.execute("CREATE TABLE titles (title TEXT PRIMARY KEY, first INTEGER) WITHOUT ROWID")
        self._pending: list[tuple[Any, ...]] = []  # rows appended, not yet written
        self._new_titles: dict[str, int] = {}  # titles added, not yet written
        self._cache: collections.OrderedDict[int, Any] = collections.OrderedDict()
        self._lock = threading.RLock()
        for a in self._first:
            self.add_title(a.title, a.id)
        self.flush()

    # -- writing ----------------------------------------------------------------------------

    def append(self, ref: Any) -> None:
        """Add the next article (its id above every id so far)."""
        with self._lock:
            place = len(self.ids)
            self.ids.append(ref.id)
            self.sections.setdefault(ref.section, array("q")).append(place)
            self._pending.append((place, ref.id, ref.section, ref.when.isoformat(), ref.title, ref.dek, ref.author,
                                  TAG_SEPARATOR.join(ref.tags), ref.category, ref.path))
            self._keep(place, ref)

    def add_title(self, title: str, ident: int) -> None:
        """Record ``title`` as first used by article ``ident`` (kept if it was used before)."""
        with self._lock:
            if self.first_of(title) is None:
                self._new_titles[title] = ident

    def first_of(self, title: str) -> int | None:
        """The id of the first article that used ``title`` (None: never used)."""
        with self._lock:
            got = self._new_titles.get(title)
            if got is not None:
                return got
            row = self._db.execute("SELECT first FROM titles WHERE title = ?", (title,)).fetchone()
            return None if row is None else int(row[0])

    def flush(self) -> None:
        """Write the rows and titles added (a day's worth) in one transaction."""
        with self._lock:
            if not self._pending and not self._new_titles:
                return
            with self._db:
                self._db.executemany(f"INSERT INTO refs (place, {_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                                     self._pending)
                self._db.executemany("INSERT OR IGNORE INTO titles VALUES (?, ?)", self._new_titles.items())
            self._pending.clear()
            self._new_titles.clear()

    # -- reading ----------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self.ids)

    @overload
    def __getitem__(self, i: int) -> Any: ...
    @overload
    def __getitem__(self, i: slice) -> "_Places": ...
    def __getitem__(self, i: int | slice) -> Any:
        n = len(self.ids)
        if isinstance(i, slice):
            start, stop, step = i.indices(n)
            if step != 1:
                raise ValueError("only slices of step 1")
            return _Places(self, range(start, max(start, stop)))
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(i)
        return self.at(i)

    def __iter__(self) -> Iterator[Any]:
        return self.read(range(len(self.ids)))

    def __reversed__(self) -> Iterator[Any]:
        return self.read(range(len(self.ids) - 1, -1, -1))

    def section(self, key: str, stop: int | None = None) -> "_Places":
        """The articles of section ``key`` in publication order (its first ``stop`` of them)."""
        places = self.sections.get(key, array("q"))
        return _Places(self, places if stop is None else places[:stop])

    def at(self, place: int) -> Any:
        """The article at ``place`` (kept in the cache of refs read one at a time)."""
        if place < len(self._first):
            return self._first[place]
        with self._lock:
            ref = self._cache.get(place)
            if ref is not None:
                self._cache.move_to_end(place)
                return ref
            ref = next(self.read([place]))
            self._keep(place, ref)
            return ref

    def read(self, places: Sequence[int]) -> Iterator[Any]:
        """The articles at ``places`` (in that order), rows read in chunks."""
        n0 = len(self._first)
        for k in range(0, len(places), _CHUNK):
            chunk = places[k:k + _CHUNK]
            wanted = [p for p in chunk if p >= n0 and p not in self._cache]
            rows: dict[int, Any] = {}
            if wanted:
                with self._lock:
                    self.flush()
                    for i in range(0, len(wanted), _CHUNK):
                        part = wanted[i:i + _CHUNK]
                        size = next(n for n in _IN_SIZES if n >= len(part))  # a few statements, each prepared once
                        rows.update((r[0], r[1:]) for r in self._db.execute(_select(size), part + [-1] * (size - len(part))))
            for p in chunk:
                if p < n0:
                    yield self._first[p]
                elif p in rows:
                    yield self._make(rows[p])
                else:
                    with self._lock:
                        ref = self._cache.get(p)
                    yield ref if ref is not None else self.at(p)

    def _keep(self, place: int, ref: Any) -> None:
        self._cache[place] = ref
        self._cache.move_to_end(place)
        while len(self._cache) > CACHED_REFS:
            self._cache.popitem(last=False)

    def close(self) -> None:
        """Close the database and remove its file."""
        self._closed()


def _remove(db: sqlite3.Connection, path: Path) -> None:
    db.close()
    path.unlink(missing_ok=True)


class _Places(Sequence[Any]):
    """Some articles of a :class:`RefStore` by their places (a slice, a section): a list-like view."""

    def __init__(self, store: RefStore, places: Sequence[int]) -> None:
        self._store = store
        self._places = places

    def __len__(self) -> int:
        return len(self._places)

    def __getitem__(self, i: int | slice) -> Any:  # type: ignore[override]
        if isinstance(i, slice):
            return _Places(self._store, self._places[i])
        return self._store.at(self._places[i])

    def __iter__(self) -> Iterator[Any]:
        return self._store.read(self._places)

    def __reversed__(self) -> Iterator[Any]:
        return self._store.read(self._places[::-1])
