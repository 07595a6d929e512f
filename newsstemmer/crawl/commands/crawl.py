"""``scrapy crawl``, with an exit status that says when a crawl failed.

Scrapy's own command exits 0 whatever the crawl's finish reason; this one (the
project's ``COMMANDS_MODULE`` overrides the built-in command of the same name) exits 1
when the crawl closed for a reason that means work was left undone
(:data:`~newsstemmer.crawl.failures.FAILED_REASONS`): a crawl shared through Redis whose
server stayed unreachable (``redis_unavailable``) or came back without the crawl's data
(``redis_state_lost``), or a state folder whose disk is full (``state_disk_full``).  A crawl stopped on purpose (Ctrl-C,
``SIGTERM``: ``shutdown``) or by a ``CLOSESPIDER_*`` limit still exits 0: it can be
resumed.
"""

from __future__ import annotations

import argparse

from scrapy.commands.crawl import Command as ScrapyCrawl
from scrapy.exceptions import UsageError

from ..failures import FAILED_REASONS


class Command(ScrapyCrawl):
    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if len(args) != 1:
            raise UsageError("give one spider name" if not args else
                             "running 'scrapy crawl' with more than one spider is not supported")
        assert self.crawler_process
        crawler = self._create_crawler(args[0])
        self.crawler_process.crawl(crawler, **opts.spargs)
        self.crawler_process.start()
        reason = crawler.stats.get_value("finish_reason") if crawler.stats else None
        if self.crawler_process.bootstrap_failed or reason in FAILED_REASONS:
            self.exitcode = 1
