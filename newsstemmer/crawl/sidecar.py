"""The crawl's second process: extraction and learning rounds off the reactor thread.

Scrapy runs a crawl on one thread (the reactor): downloads, parsing, link reading and
newsstemmer's work all take turns on it, so with newsstemmer on a crawl fetches fewer
pages a second.  Threads do not help (only one runs Python at a time: the GIL).  With
``NEWSSTEMMER_SIDECAR`` on, the learner starts one more Python process when the
spider opens (:func:`newsstemmer.crawl.rounds.serve`, which imports the core and not
Scrapy) and hands it every page to extract with known layouts and every learning
round; the reactor only sends the page (its HTML, pickled) and reads the answer.  On a
machine with a free core the two processes work side by side.

The process reads requests from its stdin and writes answers to its stdout (frames and
messages: :mod:`newsstemmer.crawl.sidecar_protocol`, which both ends use); both are one end of a Unix socket pair
whose other end the reactor reads and writes like any connection, so it never blocks
on the process.  (Not Twisted's ``spawnProcess``: its pipes are read 8 KB per turn of
the event loop, and a busy crawl's loop then took the answers in too slowly: a page
waited 0.3–0.8 s for its article, with the process idle.)  Safety:

* it reads buffered pages from the page buffer (SQLite file or Redis) and writes
  pattern files exactly as a round on the reactor does; nothing it holds is the only
  copy of anything: a page waiting for extraction is still held by the reactor, a
  round's pages stay in the buffer until their articles are emitted;
* if the process dies (killed, out of memory, crashed), the requests it had not
  answered are done again on the reactor, and so is everything after it (one
  warning in the log, ``newsstemmer/sidecar_lost`` in the stats);
* a request it answers with an error counts as it would on the reactor (a failed
  page, a failed round).
"""

from __future__ import annotations

import logging
import os
import socket
import subprocess
import sys
from contextlib import suppress
from pathlib import Path
from typing import Any, Callable

from twisted.internet.defer import Deferred, maybeDeferred
from twisted.internet.protocol import Factory, Protocol
from twisted.python.failure import Failure

from ..combine.extract import ExtractOptions
from ..errors import NewsstemmerError
from ..layout.patterns import SitePatterns
from .config import Config
from .items import FetchedPage
from .rounds import extract_page, run_round
from .sidecar_protocol import READY, FrameReader, extract_request, frame, patterns_message, round_request

__all__ = ["Sidecar", "SidecarError"]

log = logging.getLogger(__name__)

#: How much lower the second process's CPU priority is (Unix ``nice``).  Its work can wait
#: a moment; the reactor's, which paces the downloads, should not: where the two (and
#: other processes) want the same core, the reactor goes first.  Demo crawl on a quiet
#: 2-core machine, pages/s on/off (means / medians): 0.83 / 0.80 twice at 0, 0.89 / 0.90
#: and 0.92 / 0.90 at 10 (benchmarks/README.md).
CHILD_NICE = 10
#: What the second process runs.
CHILD_CODE = f"from newsstemmer.crawl.rounds import serve; serve(nice={CHILD_NICE})"
#: Socket buffer each way: a few pages in flight per turn of the event loop.
SOCKET_BUFFER = 1 << 20
#: Seconds the crawl waits at its end for the process to exit before it kills it.
EXIT_WAIT = 5.0


class SidecarError(NewsstemmerError, RuntimeError):
    """The second process answered a request with an error (its text)."""


class _Channel(Protocol):
    """The reactor's end of the socket pair."""

    def __init__(self, owner: "Sidecar"):
        self.owner = owner

    def dataReceived(self, data: bytes) -> None:  # noqa: N802
        self.owner.received(data)

    def connectionLost(self, reason: Failure = None) -> None:  # noqa: N802
        self.owner.lost("its connection closed")


class Sidecar:
    """The reactor's end of the second process.

    The crawl sends it work once it is :attr:`ready` (until then, and after it is lost,
    the reactor does the work).  :meth:`extract` and :meth:`round` return Deferreds that fire with what
    :func:`~newsstemmer.crawl.rounds.extract_page` / :func:`~newsstemmer.crawl.rounds.run_round`
    return.  ``on_ready`` is called once when the process is ready, ``on_lost`` once if it
    dies while the crawl runs.
    """

    def __init__(self, config: Config, on_lost: Callable[[], None] | None = None,
                 on_ready: Callable[[], None] | None = None):
        self.config = config
        self.on_lost = on_lost
        self.on_ready = on_ready
        self.alive = False  # started, not lost, not stopped
        self.ready = False  # alive and loaded: until then the crawl works alone
        self.requests = 0  # answered by the process
        self.process: subprocess.Popen[bytes] | None = None
        self._channel: _Channel | None = None
        self._next = 0
        # request id -> (its Deferred, the same work on the reactor, if the process dies first)
        self._pending: dict[int, tuple[Deferred, Callable[[], Any]]] = {}
        self._sent: dict[str, SitePatterns | None] = {}  # the patterns the process holds per site
        self._reader = FrameReader()

    @property
    def pending(self) -> int:
        """Requests sent and not answered yet."""
        return len(self._pending)

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None else None

    # -- life cycle ------------------------------------------------------------------------
    def start(self, reactor: Any) -> None:
        """Start the process (this interpreter, this environment, this newsstemmer) and send it the config."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            for s in (ours, theirs):
                s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SOCKET_BUFFER)
                s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, SOCKET_BUFFER)
            env = dict(os.environ)
            package_root = str(Path(__file__).resolve().parents[2])  # the folder that holds this newsstemmer
            env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH")) if p)
            self.process = subprocess.Popen(
                [sys.executable, "-c", CHILD_CODE], stdin=theirs, stdout=theirs, env=env, close_fds=True,
            )
        finally:
            theirs.close()
        try:
            ours.setblocking(False)
            self._channel = _Channel(self)
            reactor.adoptStreamConnection(ours.fileno(), socket.AF_UNIX, Factory.forProtocol(lambda: self._channel))
        except Exception:
            self.process.kill()
            self.process.wait()
            raise
        finally:
            ours.close()  # (the reactor holds its own copy)
        self.alive = True
        self._send(self.config)
        log.info("newsstemmer: extraction and learning run in a second process (pid %s)", self.pid)

    def stop(self) -> None:
        """End the process: it exits when its input ends (at once if it still has work:
        requests not answered by now are dropped, their pages stay buffered)."""
        busy = bool(self._pending)
        connected = self.alive
        self.alive = self.ready = False
        self._pending.clear()
        transport = self._channel.transport if self._channel is not None else None
        if transport is not None and connected:
            handle = getattr(transport, "socket", None)
            if handle is not None:
                with suppress(OSError):  # its input ends now (the reactor closes its end only later)
                    handle.shutdown(socket.SHUT_RDWR)
            transport.abortConnection()
        if self.process is None:
            return
        if busy:
            self.process.kill()
        try:
            self.process.wait(timeout=EXIT_WAIT)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def kill(self) -> None:
        """Kill the process at once (what a crash looks like to the crawl; for tests)."""
        if self.process is not None:
            self.process.kill()

    # -- requests --------------------------------------------------------------------------
    def extract(self, page: FetchedPage, patterns: SitePatterns | None, options: ExtractOptions) -> Deferred:
        """:func:`extract_page` of the page with the site's patterns, in the process."""
        if self.alive and self._sent.get(page.site, False) is not patterns:
            self._sent[page.site] = patterns
            self._send(patterns_message(page.site, patterns))
        return self._request(lambda rid: extract_request(rid, page, options),
                             lambda: extract_page(page, patterns, options))

    def round(self, args: tuple[Any, ...]) -> Deferred:
        """:func:`run_round` with these arguments (those after the config), in the process."""
        return self._request(lambda rid: round_request(rid, args), lambda: run_round(self.config, *args))

    def _request(self, message: Callable[[int], Any], here: Callable[[], Any]) -> Deferred:
        """Send the request ``message(id)``; ``here`` does the same work on the reactor if the process cannot."""
        if not self.alive:
            return maybeDeferred(here)
        self._next += 1
        rid = self._next
        d: Deferred = Deferred()
        self._pending[rid] = (d, here)
        self._send(message(rid))
        return d

    def _send(self, message: Any) -> None:
        assert self._channel is not None and self._channel.transport is not None
        self._channel.transport.write(frame(message))

    # -- answers and death -----------------------------------------------------------------
    def received(self, data: bytes) -> None:
        """Bytes from the process: fire the Deferred of each complete answer."""
        for rid, ok, value in self._reader.feed(data):
            if rid == READY[0]:
                self.ready = self.alive
                if self.ready:
                    log.info("newsstemmer: the second process is ready")
                    if self.on_ready is not None:
                        self.on_ready()
                continue
            entry = self._pending.pop(rid, None)
            if entry is None:
                continue
            self.requests += 1
            if ok:
                entry[0].callback(value)
            else:
                entry[0].errback(Failure(SidecarError(value)))

    def lost(self, why: str) -> None:
        """The process is gone: what it had not answered, and everything after, runs here."""
        if not self.alive:
            return
        self.alive = self.ready = False
        pending = sorted(self._pending.items())
        self._pending.clear()
        if self.process is not None:
            self.process.poll()  # (reaped now if it has exited)
        log.warning(
            "newsstemmer: the second process (pid %s) is gone (%s); its %d open requests and all further "
            "extraction and learning run on the reactor", self.pid, why, len(pending),
        )
        if self.on_lost is not None:
            self.on_lost()
        for _, (d, here) in pending:
            try:
                result = here()
            except Exception:  # noqa: BLE001 - goes to the request's errback, as on the reactor
                d.errback(Failure())
            else:
                d.callback(result)
