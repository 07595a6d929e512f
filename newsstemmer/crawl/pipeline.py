"""Item pipeline: pages no known layout matches go to the durable buffer and leave the item flow.

The pipeline never waits for learning (Scrapy keeps each response in memory
until its items leave the pipelines, and stops downloading past
``SCRAPER_SLOT_MAX_ACTIVE_SIZE``): it stores the page and drops it with
:class:`Buffered`, logged at DEBUG and counted by Scrapy as
``item_dropped_reasons_count/Buffered``.  The page comes back as an article
through the engine once its site is learned.

Articles are checked against what earlier runs emitted (incremental runs,
:mod:`newsstemmer.crawl.incremental`): new and changed ones pass, with their
``version``; unchanged ones are dropped with :class:`~newsstemmer.crawl.incremental.Unchanged`
(logged at DEBUG, counted as ``newsstemmer/items_unchanged``).
"""

from __future__ import annotations

from typing import Any

from scrapy.exceptions import DropItem

from ..errors import NewsstemmerError
from .failures import NotSaved, StateFull
from .incremental import UNCHANGED, UPDATE, Unchanged
from .items import ArticleItem, FetchedPage
from .learner import STATS, SiteLearner

__all__ = ["Buffered", "NewsstemmerPipeline"]


class Buffered(DropItem, NewsstemmerError):
    """The page was stored in the buffer until its site's layouts are learned."""

    def __init__(self, message: str):
        super().__init__(message, log_level="DEBUG")


class NewsstemmerPipeline:
    def __init__(self, crawler: Any, learner: SiteLearner):
        self.crawler = crawler
        self.learner = learner

    @classmethod
    def from_crawler(cls, crawler: Any) -> "NewsstemmerPipeline":
        return cls(crawler, SiteLearner.for_crawler(crawler))

    def process_item(self, item: Any) -> Any:
        if isinstance(item, FetchedPage):
            try:
                self.learner.buffer_page(item)
            except Exception as exc:
                if StateFull.for_crawler(self.crawler).handled(exc):
                    raise NotSaved(f"not buffered (the state folder is full): {item.url}") from None
                raise
            raise Buffered(f"buffered until {item.site} is learned: {item.url}")
        if isinstance(item, ArticleItem):
            verdict = self.learner.incremental.check(item)
            name = {UNCHANGED: "unchanged", UPDATE: "updates"}.get(verdict, "new")
            self.learner.monitor.count(item.site, name)
            self.crawler.stats.inc_value(STATS + {"new": "items_new", "updates": "items_updated"}.get(name, "items_unchanged"))
            if verdict == UNCHANGED:
                raise Unchanged(f"unchanged since it was last emitted: {item.url}")
        return item
