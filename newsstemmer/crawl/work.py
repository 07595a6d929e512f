"""Where the crawl's work runs: on the reactor thread, in a worker thread, or in the second process.

The learner hands every piece of work here as a job, :class:`Extraction` (one page
with its site's known layouts) or :class:`Round` (a learning round over buffered
pages), and gets a Deferred that fires with what :func:`~newsstemmer.crawl.rounds.extract_page`
or :func:`~newsstemmer.crawl.rounds.run_round` return.  :meth:`WorkRunner.submit` is the
one place that decides where a job runs, and says where on the job (:attr:`Extraction.where`):

* the second process (``NEWSSTEMMER_SIDECAR``, :mod:`newsstemmer.crawl.sidecar`) takes
  every round and every page once it is ready, as long as it has fewer than
  :data:`SIDECAR_MAX_PENDING` requests open; a request it cannot answer (it died) runs here;
* otherwise small jobs run at once on the reactor thread and large ones in a worker
  thread (:data:`INLINE_MAX_CHARS`, :data:`~newsstemmer.crawl.rounds.ROUND_INLINE_MAX_CHARS`).

Only one thread runs Python at a time (the GIL), so a worker thread does not do a job any
sooner; handing each page to it and back, and the two threads then contending for the
GIL, cost more CPU than the extraction itself on ordinary pages.  A large job still goes
to a thread, so that it cannot hold up the reactor (downloads, timeouts) for long.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Callable

from twisted.internet.defer import Deferred, maybeDeferred
from twisted.internet.threads import deferToThread

from ..combine.extract import ExtractOptions
from ..layout.patterns import SitePatterns
from .config import Config
from .items import FetchedPage
from .rounds import ROUND_INLINE_MAX_CHARS, extract_page, run_round
from .sidecar import Sidecar

__all__ = [
    "INLINE", "INLINE_MAX_CHARS", "PROCESS", "ROUND_INLINE_MAX_CHARS", "SIDECAR_MAX_PENDING", "THREAD", "Extraction",
    "Round", "WorkRunner",
]

log = logging.getLogger(__name__)

#: Pages are sent to the second process (NEWSSTEMMER_SIDECAR) while it has fewer than this
#: many requests open; beyond, it has fallen behind (a busy machine: no core of its own)
#: and the reactor extracts the page itself.  On a free core it answers a demo page in
#: ~1.5 ms and a learning round in 50–100 ms, while the reactor fetches a page every ~6 ms.
SIDECAR_MAX_PENDING = 16
#: Pages up to this many characters of HTML are extracted on the reactor thread, larger
#: ones in a worker thread.  On the dev pages extraction with known layouts takes about
#: 0.05 ms per 1,000 characters (~10 ms at this size), less than Scrapy's own link
#: extraction of the same page, which the spider already runs on the reactor thread;
#: a thread hand-off per page cost more CPU than that on the demo crawl (docs/history/notes-sessions-01-10.md).
INLINE_MAX_CHARS = 200_000

# Where a job ran
INLINE = "inline"
THREAD = "thread"
PROCESS = "process"


@dataclass
class Extraction:
    """Extract one page with its site's known layouts (an :class:`~newsstemmer.crawl.rounds.Outcome`)."""

    page: FetchedPage
    patterns: SitePatterns | None
    where: str = ""  # set by WorkRunner.submit


@dataclass
class Round:
    """A learning round (a :class:`~newsstemmer.crawl.rounds.RoundResult`): ``args`` are
    :func:`~newsstemmer.crawl.rounds.run_round`'s after the config; ``size`` counts the
    characters of HTML of its pages (asked only when the round may run here)."""

    args: tuple[Any, ...]
    size: Callable[[], int]
    where: str = ""  # set by WorkRunner.submit


class WorkRunner:
    """Runs the crawl's jobs where they cost the reactor least (see the module docstring).

    ``on_ready`` is called when the second process is ready, ``on_lost`` if it dies while
    the crawl runs: then the rounds :meth:`postpone`\\ d for it are due (:meth:`postponed`).
    """

    def __init__(self, config: Config, options: ExtractOptions,
                 on_ready: Callable[[], None] | None = None, on_lost: Callable[[], None] | None = None):
        self.config = config
        self.options = options
        self.on_ready = on_ready
        self.on_lost = on_lost
        self.sidecar: Sidecar | None = None  # the second process, from start() (NEWSSTEMMER_SIDECAR)
        self._postponed: set[str] = set()  # sites whose round waits for the second process to be ready

    def start(self) -> None:
        """Start the second process (``NEWSSTEMMER_SIDECAR``) once the reactor runs."""
        from twisted.internet import reactor

        if not self.config.sidecar or self.sidecar is not None or not reactor.running:
            return  # (a learner driven without a running reactor, as in unit tests, works alone)
        sidecar = Sidecar(self.config, on_lost=self.on_lost, on_ready=self.on_ready)
        try:
            sidecar.start(reactor)
        except Exception as exc:  # noqa: BLE001 - the crawl goes on without it
            log.warning("newsstemmer: cannot start the second process (%s: %s); everything runs on the reactor",
                        type(exc).__name__, exc)
            return
        self.sidecar = sidecar

    def stop(self) -> int | None:
        """Stop the second process; the number of requests it answered (None if it never ran)."""
        if self.sidecar is None:
            return None
        self.sidecar.stop()
        return self.sidecar.requests

    def submit(self, job: Extraction | Round) -> Deferred:
        """Run the job where it belongs (recorded in ``job.where``); a Deferred of its result."""
        sidecar = self.sidecar
        if isinstance(job, Extraction):
            page, patterns = job.page, job.patterns
            if sidecar is not None and sidecar.ready and sidecar.pending < SIDECAR_MAX_PENDING:
                job.where = PROCESS
                d = sidecar.extract(page, patterns, self.options)
                # (an answer it could not send: done here)
                d.addErrback(lambda failure: extract_page(page, patterns, self.options))
                return d
            if len(page.html) <= INLINE_MAX_CHARS:
                job.where = INLINE
                return maybeDeferred(extract_page, page, patterns, self.options)
            job.where = THREAD
            return deferToThread(extract_page, page, patterns, self.options)
        if sidecar is not None and sidecar.ready:
            job.where = PROCESS
            return sidecar.round(job.args)
        if job.size() <= ROUND_INLINE_MAX_CHARS:
            job.where = INLINE
            return maybeDeferred(run_round, self.config, *job.args)
        job.where = THREAD
        return deferToThread(run_round, self.config, *job.args)

    def postpone(self, site: str) -> bool:
        """Whether the site's round should wait, because the second process is starting (a
        fraction of a second: its first round is not worth the reactor's time)."""
        sidecar = self.sidecar
        if sidecar is not None and sidecar.alive and not sidecar.ready:
            self._postponed.add(site)
            return True
        return False

    def postponed(self) -> list[str]:
        """The sites whose rounds waited for the second process (now ready or lost), once."""
        waiting, self._postponed = self._postponed, set()
        return sorted(waiting)
