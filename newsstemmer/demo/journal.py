"""A long-run demo site's journal: the days made so far, kept so that another process goes on from them.

One file per site, JSON lines: a header (what run it is of: seed, first-day articles, schedule),
then one line per day made.  Written so that a stop at any moment leaves a file that can be
continued: the header appears whole or not at all (written to a temporary file, then renamed),
each day is one ``O_APPEND`` write followed by an ``fsync``, so at worst the *last* line is cut
short.  Reading drops such a cut line (the day is made again), and refuses anything else that does
not read: a damaged line, or a header of another run.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Any, Iterator

from ..errors import NewsstemmerError

__all__ = ["DayJournal", "JournalError"]

logger = logging.getLogger(__name__)


class JournalError(NewsstemmerError, ValueError):
    """A demo journal that cannot be continued: a damaged line, or the journal of another run."""


class DayJournal:
    """The journal file at ``path`` of the run described by ``header`` (a JSON object).

    Opening it checks the header (created if the file is missing or empty) and drops a cut last
    line; :meth:`days` then gives the day lines with their line numbers, :meth:`append` adds one.
    """

    def __init__(self, path: str | Path, header: dict[str, Any]) -> None:
        self.path = Path(path)
        self.header = header
        self._lines: list[tuple[int, dict[str, Any]]] = []
        if not self.path.exists() or self.path.stat().st_size == 0:
            self._create()
        else:
            self._read()

    def error(self, line: int, message: str) -> JournalError:
        """A :class:`JournalError` naming this file and ``line`` (1: the header)."""
        return JournalError(f"{self.path}, line {line}: {message}")

    def days(self) -> Iterator[tuple[int, dict[str, Any]]]:
        """``(line number, day line)`` for each whole day line, in file order."""
        return iter(self._lines)

    def append(self, line: dict[str, Any]) -> None:
        """Add one day's line: one write at the file's end, then on disk before returning."""
        data = (json.dumps(line, ensure_ascii=False) + "\n").encode("utf-8")
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)

    def _create(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(self.path.name + ".tmp")
        with open(tmp, "wb") as out:
            out.write((json.dumps(self.header) + "\n").encode("utf-8"))
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, self.path)
        _sync_folder(self.path.parent)

    def _read(self) -> None:
        data = self.path.read_bytes()
        whole, _, cut = data.rpartition(b"\n")
        if not whole and cut:  # no line ends: the header was never written whole (not by this module)
            raise self.error(1, "the header is cut short (not a demo journal, or damaged)")
        lines = whole.split(b"\n")
        kept = self._parse(lines[0], 1)
        if kept != self.header:
            raise self.error(1, f"a journal of another demo run: {_differences(kept, self.header)}")
        for n, text in enumerate(lines[1:], 2):
            line = self._parse(text, n)
            if not isinstance(line, dict):
                raise self.error(n, "not a day's line (a JSON object)")
            self._lines.append((n, line))
        if cut:  # a stop while the last day was written: dropped (the day is made again), the file made whole
            logger.warning("%s, line %d: cut short (%d bytes), dropped: that day is made again",
                           self.path, len(lines) + 1, len(cut))
            with open(self.path, "r+b") as f:
                f.truncate(len(whole) + 1)
                os.fsync(f.fileno())

    def _parse(self, text: bytes, n: int) -> Any:
        try:
            return json.loads(text)
        except ValueError as exc:  # UnicodeDecodeError is a ValueError too
            raise self.error(n, f"damaged ({exc})") from None


def _differences(kept: Any, want: dict[str, Any]) -> str:
    """What differs between a journal's header and the run's, in words."""
    if not isinstance(kept, dict):
        return f"its header is {kept!r}"
    diffs = [f"{k} {kept.get(k)!r} in the journal, {v!r} in this run" for k, v in want.items() if kept.get(k) != v]
    diffs += [f"{k} {kept[k]!r} in the journal only" for k in kept if k not in want]
    return "; ".join(diffs)


def _sync_folder(folder: Path) -> None:
    """Make a rename in ``folder`` durable (where folders can be opened: not on Windows)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
