"""Scrapy settings of the newsstemmer project (``scrapy.cfg`` points here).

Polite defaults for crawling other people's news sites; override any of them
with ``-s NAME=VALUE``.  The ``NEWSSTEMMER_*`` settings and their defaults are
in :mod:`newsstemmer.crawl.config`.
"""

from .. import __version__

BOT_NAME = "newsstemmer"
SPIDER_MODULES = ["newsstemmer.crawl.spiders"]
NEWSPIDER_MODULE = "newsstemmer.crawl.spiders"
COMMANDS_MODULE = "newsstemmer.crawl.commands"  # scrapy state; scrapy crawl with a failing exit status

ADDONS = {"newsstemmer.crawl.addon.NewsstemmerAddon": 0}

USER_AGENT = f"newsstemmer/{__version__} (news layout learner; Scrapy)"
ROBOTSTXT_OBEY = True
AUTOTHROTTLE_ENABLED = True
CONCURRENT_REQUESTS_PER_DOMAIN = 4
DOWNLOAD_MAXSIZE = 16 * 1024 * 1024
DOWNLOAD_WARNSIZE = 4 * 1024 * 1024
FEED_EXPORT_ENCODING = "utf-8"
LOG_LEVEL = "INFO"

# Breadth-first: index pages (and the anchor texts of their links) come before the
# articles they link to.
DEPTH_PRIORITY = 1
SCHEDULER_DISK_QUEUE = "scrapy.squeues.PickleFifoDiskQueue"
SCHEDULER_MEMORY_QUEUE = "scrapy.squeues.FifoMemoryQueue"

# Two per-response costs of Scrapy that a crawl of news sites does not need (a soak day's profile,
# benchmarks/README.md "Where a soak day's CPU goes"): Scrapy handles each response's output with
# CONCURRENT_ITEMS tasks (100 by default: 100 asyncio tasks made and awaited for a page's few
# requests and its one item, handled at once anyway: newsstemmer's pipeline does not wait), and
# checks each callback's source for a generator's return value (inspect.getsource and ast.parse
# again whenever the bound method it cached has been collected: on most responses).
CONCURRENT_ITEMS = 16
WARN_ON_GENERATOR_RETURN_VALUE = False
