"""Extension: starts newsstemmer's per-crawl learner early, logs what it did at close, and
writes the crawl's HTML reports when ``NEWSSTEMMER_REPORT`` asks for them.

Being an extension, it is built before the engine, after the feed exporters: its
learner's ``item_scraped`` handler therefore runs after the feeds have written an
item, which is when a buffered page may leave the buffer.
"""

from __future__ import annotations

import logging
from typing import Any

from scrapy import signals

from .learner import SiteLearner
from .reporting import CrawlReporter

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
