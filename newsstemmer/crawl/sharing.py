"""A crawl shared by many workers through Redis (``NEWSSTEMMER_REDIS_URL``): what the
learner of one worker does besides what it does alone.

* **Each site is learned once.**  A worker learns a site (and emits its buffered pages)
  only while it holds the site's lease (``SET NX PX``, renewed every tick); it takes the
  lease when a round is due (``NEWSSTEMMER_MIN_PAGES`` pages buffered by any worker, or
  the end of the crawl), so sites spread over the workers that crawl them.  A dead
  worker's leases expire after ``NEWSSTEMMER_WORKER_TIMEOUT`` and pass to the next
  worker with a round due.
* **Every worker uses the learned layouts.**  The learner publishes a site's patterns to
  Redis (and writes ``patterns/<site>.json`` as always); every tick (about a second) the
  other workers load the sites whose patterns changed.  Pattern files a worker starts
  with are offered to the others unless Redis has the site already.
* **The end is common.**  A worker whose engine is idle stays open while the queue
  holds requests or another live worker has requests in flight, waking every
  :data:`WAKE_SECONDS` to take new requests; then it learns the sites it can lease with
  what there is (as a lone crawl does at its end) and waits for the sites other live
  workers learn.
* **Dead workers' work passes on** (:mod:`newsstemmer.crawl.storage.redis_worker`):
  their requests in flight go back to the queue, their unconfirmed emit claims are
  released, their buffered pages are in Redis.  A worker taken for dead while alive (silent
  too long) that finds its crawl finished by the others closes as finished.
"""

from __future__ import annotations

import logging
import time
from typing import Any, Protocol

from scrapy.exceptions import CloseSpider, DontCloseSpider
from scrapy.utils.defer import deferred_from_coro
from twisted.internet import reactor, task

from ..layout.patterns import SitePatterns
from .failures import REDIS_STATE_LOST, REDIS_UNAVAILABLE
from .patternfiles import load_patterns
from .storage import Storage

__all__ = ["SharedCrawl", "SharedLearner", "WAKE_SECONDS"]

log = logging.getLogger(__name__)

#: How often an idle worker looks for new requests and for the end of the crawl.
WAKE_SECONDS = 0.5
#: Scrapy's close reason of a crawl that ran out of work.
FINISHED = "finished"


class SharedLearner(Protocol):
    """What a shared crawl needs of the worker's learner (:class:`~newsstemmer.crawl.learner.SiteLearner`)."""

    @property
    def final(self) -> bool:
        """The spider went idle: every waiting site is learned with what there is."""

    def knows(self, site: str) -> bool:
        """Whether the learner has patterns for the site."""

    def patterns_version(self, site: str) -> int | None:
        """The version of the site's patterns the learner uses (None: none)."""

    def use_patterns(self, site: str, patterns: SitePatterns, version: int) -> None:
        """Use patterns another worker learned."""

    def kick(self, site: str) -> None:
        """Learn or emit the site's buffered pages if that is due (and this worker's to do)."""

    def busy(self) -> bool:
        """A round runs, or articles wait to be emitted."""

    def wake(self) -> None:
        """Wake the engine."""


class SharedCrawl:
    """The part of a worker's learner that deals with the other workers."""

    def __init__(self, learner: SharedLearner, crawler: Any, storage: Storage):
        self.learner = learner
        self.crawler = crawler
        self.config = storage.config
        self.storage = storage
        self.worker = storage.worker
        self.leases = storage.leases
        self.buffer = storage.page_buffer()
        self._loop: Any = None
        self._wake: Any = None
        self._counts: dict[str, int] = {}  # buffered pages per held site at the last tick
        self._retried: dict[str, tuple[int, set[str]]] = {}  # site -> (patterns version, pages tried with it)
        self._failing_since: float | None = None  # Redis unreachable since (monotonic clock)
        self._ended_by_others = False  # the others finished the crawl while this worker was taken for dead

    # -- life cycle -----------------------------------------------------------------------------
    def opened(self) -> None:
        self.worker.join(fresh=not self.config.resume)
        offered = [site for site, sp in load_patterns(self.config.patterns_dir).items()
                   if not self.learner.knows(site) and self.storage.patterns.offer(site, sp)]
        if offered:
            log.info("newsstemmer: pattern files of %d sites offered to the other workers: %s", len(offered),
                     ", ".join(sorted(offered)))
        self._load_changed()
        self._loop = task.LoopingCall(self.tick)
        self._loop.start(min(1.0, self.config.worker_timeout / 5), now=False)

    def closed(self, reason: str) -> None:
        if self._loop is not None and self._loop.running:
            self._loop.stop()
        if self._wake is not None and self._wake.active():
            self._wake.cancel()
        self.crawler.stats.set_value("newsstemmer/requests_recovered", self.worker.recovered)
        try:
            self.leases.release_all()
            self.worker.leave(reason, after_end=self._ended_by_others)
        except Exception:  # noqa: BLE001 - Redis gone: the others find this worker dead by its heartbeat
            log.exception("newsstemmer: worker %s could not leave the crawl in Redis", self.worker.id)

    def tick(self) -> None:
        """Heartbeat, leases, patterns learned elsewhere, dead workers, pages others buffered."""
        try:
            self.worker.beat()
            for site in self.leases.renew():
                log.warning("newsstemmer: %s: lease lost (this worker was silent too long)", site)
            if self._ended():
                return
            self._load_changed()
            self.worker.recover_dead()
            held = sorted(self.leases.held())
            if held:
                counts = dict(zip(held, (self.buffer.count(site) for site in held)))
                for site, n in counts.items():
                    if n and (n != self._counts.get(site) or self.learner.final):
                        self.learner.kick(site)
                self._counts = counts
            self._redis_back()
        except Exception as exc:  # noqa: BLE001 - the next tick tries again; a dead Redis ends the crawl
            now = time.monotonic()
            self._redis_failed(exc)
            if self._failing_since is not None and now - self._failing_since > self.config.worker_timeout:
                log.error("newsstemmer: worker %s: Redis unusable for %.0f s: closing the crawl "
                          "(its work in Redis stays for the other workers, or the next crawl)",
                          self.worker.id, now - self._failing_since)
                self._loop.stop()
                self._close(REDIS_UNAVAILABLE)

    def _redis_failed(self, exc: BaseException) -> None:
        """Redis did not answer: one warning per outage (not a traceback per call); the tick
        retries, and closes the crawl if it lasts longer than ``NEWSSTEMMER_WORKER_TIMEOUT``."""
        if self._failing_since is None:
            self._failing_since = time.monotonic()
            log.warning("newsstemmer: worker %s: Redis does not answer (%s: %s); waiting for it, for up to "
                        "NEWSSTEMMER_WORKER_TIMEOUT = %g s", self.worker.id, type(exc).__name__,
                        str(exc)[:200], self.config.worker_timeout)

    def _redis_back(self) -> None:
        if self._failing_since is not None:
            log.warning("newsstemmer: worker %s: Redis answers again after %.1f s", self.worker.id,
                        time.monotonic() - self._failing_since)
            self._failing_since = None

    def _ended(self) -> str | None:
        """The crawl's marker is gone: say why once and close; returns the reason (None: the crawl
        goes on).  Either another worker finished the crawl while this one was taken for dead
        (``finished``), or Redis lost the crawl's state, restarted without its data (an error)."""
        if not self.worker.marker_gone():
            return None
        if self.worker.finished_elsewhere():
            reason = FINISHED
            self._ended_by_others = True
            log.warning("newsstemmer: worker %s was silent for longer than NEWSSTEMMER_WORKER_TIMEOUT = %g s and "
                        "taken for dead: the other workers took its requests back, and the crawl was finished by "
                        "another worker; closing as %s", self.worker.id, self.config.worker_timeout, reason)
        else:
            reason = REDIS_STATE_LOST
            log.error("newsstemmer: worker %s: the crawl's state in Redis is gone (the server restarted without its "
                      "data?): its queue and records are lost, so pages may never be fetched; closing with reason "
                      "%s. Run Redis with appendonly yes (see the README)", self.worker.id, reason)
        self.worker.marker = None  # (said once)
        if self._loop is not None and self._loop.running:
            self._loop.stop()
        self._close(reason)
        return reason

    def _close(self, reason: str) -> None:
        engine = self.crawler.engine
        closing = getattr(engine, "close_spider_async", None)
        if closing is not None:  # Scrapy >= 2.14
            deferred_from_coro(closing(reason=reason))
        else:  # pragma: no cover - Scrapy 2.13
            engine.close_spider(self.crawler.spider, reason)

    def _load_changed(self) -> None:
        for site, (sp, version) in self.storage.patterns.changed().items():
            if self.learner.patterns_version(site) == version:
                continue
            self.learner.use_patterns(site, sp, version)
            log.info("newsstemmer: %s: %d layouts learned by another worker loaded (version %d)",
                     site, len(sp.patterns), version)

    # -- learning ------------------------------------------------------------------------------
    def may_learn(self, site: str) -> bool:
        """Whether this worker learns (or emits) the site's buffered pages now: it holds, or
        takes, the site's lease, and takes it only when a round is due."""
        try:
            if site in self.leases.held():
                return self.leases.acquire(site)
            due = (self.learner.final or self.learner.knows(site)
                   or self.buffer.count(site) >= self.config.min_pages)
            return due and self.leases.acquire(site)
        except Exception as exc:  # noqa: BLE001 - Redis away: not now; the tick kicks the site again
            self._redis_failed(exc)
            return False

    def untried(self, site: str) -> set[str]:
        """Buffered pages of the site that no worker tried with its current patterns (other workers
        buffered them before they loaded these patterns); each is returned once per version."""
        version = self.learner.patterns_version(site) or 0
        done = self._retried.get(site)
        if done is None or done[0] != version:
            done = self._retried[site] = (version, set())
        found = set(self.buffer.untried(site, version)) - done[1]
        done[1].update(found)
        return found

    def broken(self, site: str) -> None:
        """A round of the site failed: its pages stay for the next crawl, nobody waits for them."""
        try:
            self.worker.redis.sadd(self.worker.keys.broken, site)
        except Exception:  # noqa: BLE001 - Redis gone: the tick reports it and ends the crawl
            log.exception("newsstemmer: %s: could not record the failed round in Redis", site)

    # -- the end of the crawl ----------------------------------------------------------------
    def idle(self) -> None:
        """This worker's engine is idle: stay open (``DontCloseSpider``) while the crawl goes on elsewhere."""
        # (an empty queue after Redis lost its data is no finished crawl; one cleared by another
        # worker that finished it while this one was taken for dead is)
        reason = self._ended()
        if reason is not None:
            raise CloseSpider(reason)
        self.worker.settle()
        if not self.worker.crawl_quiet():
            self.wake_soon()
            raise DontCloseSpider

    def wait_for_others(self) -> None:
        """``DontCloseSpider`` while buffered pages wait for a site another live worker learns."""
        broken = {b.decode() for b in self.worker.redis.smembers(self.worker.keys.broken)}
        waiting = False
        for site in self.buffer.sites():
            if site in broken:
                continue
            holder = self.leases.holder(site)
            if holder is None:
                self.learner.kick(site)  # nobody learns it (its learner died): this worker does
                waiting = waiting or self.learner.busy()
            elif holder != self.worker.id and self.worker.redis.exists(self.worker.keys.alive(holder)):
                waiting = True
        if waiting or self.learner.busy():
            self.wake_soon()
            raise DontCloseSpider

    def wake_soon(self) -> None:
        """Wake the engine in :data:`WAKE_SECONDS` (it then takes queued requests or checks the end again)."""
        if self._wake is None or not self._wake.active():
            self._wake = reactor.callLater(WAKE_SECONDS, self.learner.wake)
