"""Extension: starts newsstemmer's per-crawl learner early and logs what it did at close.

Being an extension, it is built before the engine, after the feed exporters: its
learner's ``item_scraped`` handler therefore runs after the feeds have written an
item, which is when a buffered page may leave the buffer.
"""

from __future__ import annotations

import logging
from typing import Any

from scrapy import signals

from .learner import SiteLearner

__all__ = ["NewsstemmerExtension"]

log = logging.getLogger(__name__)


class NewsstemmerExtension:
    def __init__(self, crawler: Any, learner: SiteLearner):
        self.crawler = crawler
        self.learner = learner
        crawler.signals.connect(self.spider_closed, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Any) -> "NewsstemmerExtension":
        return cls(crawler, SiteLearner.for_crawler(crawler))

    def spider_closed(self) -> None:
        log.info(self.learner.summary())
