"""Scrapy add-on: one line in ``ADDONS`` turns an existing project into a newsstemmer crawl.

    ADDONS = {"newsstemmer.crawl.addon.NewsstemmerAddon": 0}

It registers the spider middleware (applies learned layouts), the pipeline
(buffers pages until their site is learned) and the extension (learner and
report), and, unless the project has its own, a local feed storage that
writes each item through at once (so a killed crawl loses no written item).
The ``NEWSSTEMMER_*`` defaults live in :mod:`newsstemmer.crawl.config`;
with ``NEWSSTEMMER_ENABLED = False`` the three components are not configured and
spiders' :class:`~newsstemmer.crawl.items.FetchedPage` items reach the feeds
unprocessed.  With ``NEWSSTEMMER_REDIS_URL`` it also installs scrapy-redis's
scheduler and seen-requests filter, so that every worker started with the same
settings shares one crawl (see :mod:`newsstemmer.crawl.sharing`).  It checks every
``NEWSSTEMMER_*`` setting first: a wrong one stops the crawl with one line
(:func:`~newsstemmer.crawl.config.stop_on_user_error`).
"""

from __future__ import annotations

import importlib.util
from typing import Any

from .config import Config, SettingError, stop_on_user_error
from .extension import NewsstemmerExtension
from .feeds import FlushingFileFeedStorage
from .middleware import NewsstemmerSpiderMiddleware
from .pipeline import NewsstemmerPipeline

__all__ = ["NewsstemmerAddon", "redis_frontier_settings"]

#: Component orders: the middleware sits near the spider side of the built-ins; the
#: pipeline runs first, so later pipelines only ever see articles.
MIDDLEWARE_ORDER = 650
PIPELINE_ORDER = 100
EXTENSION_ORDER = 500


class NewsstemmerAddon:
    def update_settings(self, settings: Any) -> None:
        with stop_on_user_error():  # every NEWSSTEMMER_* value checked before the crawl starts
            Config.from_settings(settings)
            self._add_components(settings)

    def _add_components(self, settings: Any) -> None:
        settings.set_in_component_priority_dict("SPIDER_MIDDLEWARES", NewsstemmerSpiderMiddleware, MIDDLEWARE_ORDER)
        settings.set_in_component_priority_dict("ITEM_PIPELINES", NewsstemmerPipeline, PIPELINE_ORDER)
        settings.set_in_component_priority_dict("EXTENSIONS", NewsstemmerExtension, EXTENSION_ORDER)
        storages = settings.getdict("FEED_STORAGES")
        for scheme in ("", "file"):
            storages.setdefault(scheme, FlushingFileFeedStorage)
        settings.set("FEED_STORAGES", storages, settings.getpriority("FEED_STORAGES") or 0)
        url = str(settings.get("NEWSSTEMMER_REDIS_URL") or "").strip()
        if url and settings.getbool("NEWSSTEMMER_ENABLED", True):
            if importlib.util.find_spec("scrapy_redis") is None or importlib.util.find_spec("redis") is None:
                raise SettingError("NEWSSTEMMER_REDIS_URL is set but scrapy-redis is not installed: "
                                   "pip install 'newsstemmer[redis]' (or redis and scrapy-redis).")
            for name, value in redis_frontier_settings(url, settings.get("NEWSSTEMMER_REDIS_PREFIX") or "newsstemmer").items():
                settings.set(name, value, "addon")


def redis_frontier_settings(url: str, prefix: str) -> dict[str, Any]:
    """scrapy-redis's scheduler and seen-requests filter, as newsstemmer shares them
    (see :mod:`newsstemmer.crawl.storage.scheduler`)."""
    return {
        "SCHEDULER": "newsstemmer.crawl.storage.scheduler.NewsstemmerScheduler",
        "SCHEDULER_QUEUE_CLASS": "newsstemmer.crawl.storage.scheduler.InflightQueue",
        "SCHEDULER_SERIALIZER": "newsstemmer.crawl.storage.serial",
        "DUPEFILTER_CLASS": "scrapy_redis.dupefilter.RFPDupeFilter",
        "SCHEDULER_PERSIST": True,  # workers come and go; the last one of a finished crawl clears the queue
        "SCHEDULER_QUEUE_KEY": f"{prefix}:%(spider)s:requests",
        "SCHEDULER_DUPEFILTER_KEY": f"{prefix}:%(spider)s:dupefilter",
        "REDIS_URL": url,
    }
