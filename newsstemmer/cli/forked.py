"""Share a run's work with forked processes; results in input order, this process working too.

``newsstemmer extract -j N`` extracts with this process and N-1 forked children.  The
work is cut into chunks; this process hands each child the index of a chunk at a time
over a pipe (two ahead, so that a child does not wait for its next one), reads the
children's results as they come (pickled, one frame per chunk, over a pipe per child)
and, whenever the result it must give next is not in yet, works on the next chunk
itself.  Nothing is pickled on the way out: a child has the work from the fork.

Why not :mod:`multiprocessing`: its pool costs more CPU than the extraction of a few
hundred pages gains (importing it, a manager thread, queues and their feeder threads),
and its parent process only waits.

A child that dies (killed, out of memory, a crash in a C library) loses nothing: the
chunks it held are done here, and ``note`` is told.  A child never runs the parent's
clean-up (``os._exit``), so buffered output is written once.
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import struct
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

__all__ = ["ordered_map"]

T = TypeVar("T")
R = TypeVar("R")

_TASK = struct.Struct("<i")  # a chunk's index, parent -> child
_FRAME = struct.Struct("<iI")  # a chunk's index and its pickled results' length, child -> parent
#: Chunks a child holds at a time (the one it works on and the next).
AHEAD = 2
#: Room asked for in each result pipe (Linux; the default 64 KiB holds less than a chunk's results).
PIPE_BYTES = 1 << 20


class _Child:
    """A forked child as this process sees it."""

    def __init__(self, pid: int, tasks: int, results: int):
        self.pid = pid
        self.tasks: int | None = tasks  # write end of its task pipe (None: closed, no more work)
        self.results = results  # read end of its result pipe
        self.held: deque[int] = deque()  # chunks handed to it, in order, whose results are not in
        self.buffer = bytearray()


def ordered_map(
    fn: Callable[[T], R],
    items: Sequence[T],
    processes: int,
    chunk: int,
    note: Callable[[str], None],
) -> Iterator[R]:
    """``fn(item)`` for every item, in order, computed by this process and ``processes`` − 1
    forked ones, ``chunk`` items at a time.  ``note`` hears of a child that died."""
    chunks = [items[i : i + chunk] for i in range(0, len(items), chunk)]
    state = _Run(fn, chunks, note)
    try:
        for _ in range(max(0, min(processes, len(chunks)) - 1)):
            state.fork()
        yield from state.results()
    finally:
        state.stop()


class _Run:
    def __init__(self, fn: Callable[[T], R], chunks: list[Sequence[T]], note: Callable[[str], None]):
        self.fn = fn
        self.chunks = chunks
        self.note = note
        self.children: dict[int, _Child] = {}  # by the read end of its result pipe
        self.next = 0  # the first chunk not handed out yet
        self.redo: list[int] = []  # chunks of children that died
        self.done: dict[int, list] = {}

    # -- children -----------------------------------------------------------------------
    def fork(self) -> None:
        task_r, task_w = os.pipe()
        result_r, result_w = os.pipe()
        try:
            import fcntl

            fcntl.fcntl(result_r, fcntl.F_SETPIPE_SZ, PIPE_BYTES)
        except (ImportError, AttributeError, OSError):
            pass  # not Linux, or a lower limit: the default size only makes a child wait sooner
        pid = os.fork()
        if pid == 0:  # the child
            code = 1
            try:
                for other in self.children.values():  # else their task pipes would never see an end
                    if other.tasks is not None:
                        os.close(other.tasks)
                    os.close(other.results)
                os.close(task_w)
                os.close(result_r)
                self._serve(task_r, result_w)
                code = 0
            finally:
                os._exit(code)
        os.close(task_r)
        os.close(result_w)
        child = _Child(pid, task_w, result_r)
        self.children[result_r] = child
        self._hand_out(child)

    def _serve(self, tasks: int, results: int) -> None:
        """A child's loop: do each chunk it is given, send back its results, until told no more."""
        while True:
            task = _read_exactly(tasks, _TASK.size)
            if task is None:
                return
            (k,) = _TASK.unpack(task)
            payload = pickle.dumps([self.fn(item) for item in self.chunks[k]], pickle.HIGHEST_PROTOCOL)
            _write_all(results, _FRAME.pack(k, len(payload)) + payload)

    def _hand_out(self, child: _Child) -> None:
        """Keep a child ``AHEAD`` chunks busy; tell it there is no more once all are handed out."""
        while child.tasks is not None and len(child.held) < AHEAD and self.next < len(self.chunks):
            try:
                os.write(child.tasks, _TASK.pack(self.next))
            except BrokenPipeError:  # it died: the end of its result pipe comes next (see _ended)
                os.close(child.tasks)
                child.tasks = None
                return
            child.held.append(self.next)
            self.next += 1
        if child.tasks is not None and self.next >= len(self.chunks):
            os.close(child.tasks)
            child.tasks = None

    def _poll(self, timeout: float | None) -> None:
        """Read what the children sent (waiting up to ``timeout`` seconds for something)."""
        if not self.children:
            return
        poller = select.poll()  # (no limit on descriptor numbers, unlike select.select)
        for fd in self.children:
            poller.register(fd, select.POLLIN)
        for fd, _ in poller.poll(None if timeout is None else int(timeout * 1000)):
            child = self.children[fd]
            data = os.read(fd, PIPE_BYTES)
            if not data:
                self._ended(child)
                continue
            child.buffer += data
            while len(child.buffer) >= _FRAME.size:
                k, size = _FRAME.unpack_from(child.buffer)
                if len(child.buffer) < _FRAME.size + size:
                    break
                self.done[k] = pickle.loads(child.buffer[_FRAME.size : _FRAME.size + size])
                del child.buffer[: _FRAME.size + size]
                child.held.remove(k)
                self._hand_out(child)

    def _ended(self, child: _Child) -> None:
        """A child's result pipe closed: it finished, or it died holding chunks."""
        del self.children[child.results]
        os.close(child.results)
        if child.tasks is not None:
            os.close(child.tasks)
            child.tasks = None
        _reap(child.pid)
        if child.held:
            pages = sum(len(self.chunks[k]) for k in child.held)
            self.note(f"a worker process died; its {pages} page(s) are extracted in this process")
            self.redo.extend(child.held)
            self.redo.sort()

    def stop(self) -> None:
        """End every child still running (the run finished, failed or was abandoned)."""
        for child in list(self.children.values()):
            if child.tasks is not None:
                os.close(child.tasks)
            os.close(child.results)
            if child.held:
                try:
                    os.kill(child.pid, signal.SIGKILL)  # its work is no longer wanted
                except ProcessLookupError:
                    pass
            _reap(child.pid)
        self.children.clear()

    # -- this process --------------------------------------------------------------------
    def results(self) -> Iterator:
        for m in range(len(self.chunks)):
            while m not in self.done:
                self._poll(0)
                if m in self.done:
                    break
                k = self._take()
                if k is None:
                    self._poll(None)  # chunk m is with a child: wait for it
                    continue
                out = []
                for item in self.chunks[k]:
                    out.append(self.fn(item))
                    self._poll(0)  # children get their next chunks without waiting for this one
                self.done[k] = out
            yield from self.done.pop(m)

    def _take(self) -> int | None:
        """The next chunk this process does itself: a dead child's first, else the next one."""
        if self.redo:
            return self.redo.pop(0)
        if self.next < len(self.chunks):
            self.next += 1
            return self.next - 1
        return None


def _read_exactly(fd: int, n: int) -> bytes | None:
    data = b""
    while len(data) < n:
        part = os.read(fd, n - len(data))
        if not part:
            return None
        data += part
    return data


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _reap(pid: int) -> None:
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass
