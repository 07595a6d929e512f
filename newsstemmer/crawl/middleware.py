"""Spider middleware: pages leaving the spider become articles when their site's layouts are known.

Each :class:`~newsstemmer.crawl.items.FetchedPage` the spider yields is matched
against its site's patterns (loaded at start, or learned during the crawl):

* a matching article layout gives an :class:`~newsstemmer.crawl.items.ArticleItem`
  (``method`` ``pattern`` or ``pattern-loose``);
* a matching non-article layout (index pages, galleries…) is counted
  (``newsstemmer/non_articles``) and not emitted, unless
  ``NEWSSTEMMER_INCLUDE_NON_ARTICLES``;
* a page no layout matches continues as it is, to the pipeline, which buffers it
  for learning.

Every article leaves through the learner's outbox (:mod:`newsstemmer.crawl.outbox`): a
page's own article right after its extraction, and the articles of learning rounds and
of the second process in the answer to newsstemmer's internal ``data:,`` requests (see
:mod:`newsstemmer.crawl.learner`).
"""

from __future__ import annotations

from typing import Any, AsyncIterator

from .failures import StateFull
from .items import FetchedPage
from .learner import EMIT_META, SiteLearner

__all__ = ["NewsstemmerSpiderMiddleware"]


class NewsstemmerSpiderMiddleware:
    def __init__(self, crawler: Any, learner: SiteLearner):
        self.crawler = crawler
        self.learner = learner

    @classmethod
    def from_crawler(cls, crawler: Any) -> "NewsstemmerSpiderMiddleware":
        return cls(crawler, SiteLearner.for_crawler(crawler))

    def process_spider_exception(self, response: Any, exception: BaseException, spider: Any = None) -> Any:
        """A full state disk met while the spider read a page: said once, the crawl stops, the
        page is not marked done (fetched again next run), and no traceback per page."""
        if StateFull.for_crawler(self.crawler).handled(exception):
            return []
        return None

    async def process_spider_output(self, response: Any, result: AsyncIterator[Any]) -> AsyncIterator[Any]:
        site = response.meta.get(EMIT_META)
        if site is not None:
            async for x in result:  # the callback of an emit request yields nothing of its own
                yield x
            for item in self.learner.take(site):
                yield item
            return
        async for x in result:
            if isinstance(x, FetchedPage):
                page = await self.learner.process(x)
                if page is not None:
                    yield page  # (to the pipeline, which buffers it)
                for item in self.learner.take(id(x)):  # its article, extracted at once
                    yield item
            else:
                yield x
