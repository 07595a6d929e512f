"""Extension: starts newsstemmer's per-crawl learner early, logs what it did at close,
writes the crawl's HTML reports when ``NEWSSTEMMER_REPORT`` asks for them, and prunes the
state folder (or, under ``NEWSSTEMMER_REDIS_URL``, the crawl's keys in Redis) to what later
runs need (``NEWSSTEMMER_PRUNE``, :mod:`.storage.retention`, :mod:`.storage.redis_retention`).

Being an extension, it is built before the engine, after the feed exporters: its
learner's ``item_scraped`` handler therefore runs after the feeds have written an
item, which is when a buffered page may leave the buffer.
"""

from __future__ import annotations

import logging
from typing import Any

from scrapy import signals

from .config import Config
from .learner import SiteLearner
from .reporting import CrawlReporter
from .storage.retention import Retention, prune

__all__ = ["NewsstemmerExtension"]

log = logging.getLogger(__name__)


class NewsstemmerExtension:
    def __init__(self, crawler: Any, learner: SiteLearner):
        self.crawler = crawler
        self.learner = learner
        self.reporter = CrawlReporter.for_crawler(crawler, learner)  # None unless NEWSSTEMMER_REPORT
        crawler.signals.connect(self.spider_closed, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Any) -> "NewsstemmerExtension":
        return cls(crawler, SiteLearner.for_crawler(crawler))

    def spider_closed(self, reason: str = "") -> None:
        if self.reporter is not None:
            self.reporter.close(reason)
        log.info(self.learner.summary())
        config = self.learner.config
        if config.prune and not self.learner.storage.shared:
            self._prune(config)
        elif config.prune:
            self._prune_redis(config)

    def _retention(self, config: Config) -> Retention:
        return Retention(config.keep_text_days, config.keep_anchors,
                         max(config.keep_runs, config.retire_after_runs + 1), config.health_max_mb,
                         config.drift_sample, config.recheck_window)

    def _prune_redis(self, config: Config) -> None:
        """The same in Redis: texts past their days, surplus anchors (every worker at its close: idempotent)."""
        from .storage.redis_retention import redis_prune

        storage = self.learner.storage
        try:
            removed = redis_prune(storage.worker.redis, storage.keys, self._retention(config))
        except Exception as exc:  # noqa: BLE001 - Redis gone at the close: the next crawl prunes
            log.warning("newsstemmer: could not prune the crawl's keys in Redis: %s: %s", type(exc).__name__, exc)
            return
        for name, n in removed.items():
            if n:
                self.crawler.stats.set_value(f"newsstemmer/state_pruned/redis {name}", n)

    def _prune(self, config: Config) -> None:
        """Drop what the state keeps no longer (texts past their days, surplus anchors, old runs)."""
        try:
            removed = prune(config.state_dir, self._retention(config))
        except OSError as exc:  # (a full or read-only disk: the crawl's own data is already safe)
            log.warning("newsstemmer: could not prune the state folder %s: %s", config.state_dir, exc)
            return
        stats = self.crawler.stats
        stats.set_value("newsstemmer/state_bytes_freed", removed.pop("bytes_freed", 0))
        for name, n in removed.items():
            if n:
                stats.set_value(f"newsstemmer/state_pruned/{name}", n)
