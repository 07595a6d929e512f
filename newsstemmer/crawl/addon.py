"""Scrapy add-on: one line in ``ADDONS`` turns an existing project into a newsstemmer crawl.

    ADDONS = {"newsstemmer.crawl.addon.NewsstemmerAddon": 0}

It registers the spider middleware (applies learned layouts), the pipeline
(buffers pages until their site is learned) and the extension (learner and
report), and, unless the project has its own, a local feed storage that
writes each item through at once (so a killed crawl loses no written item).
The ``NEWSSTEMMER_*`` defaults live in :mod:`newsstemmer.crawl.config`;
with ``NEWSSTEMMER_ENABLED = False`` the three components are not configured and
spiders' :class:`~newsstemmer.crawl.items.FetchedPage` items reach the feeds
unprocessed.
"""

from __future__ import annotations

from typing import Any

from .extension import NewsstemmerExtension
from .feeds import FlushingFileFeedStorage
from .middleware import NewsstemmerSpiderMiddleware
from .pipeline import NewsstemmerPipeline

__all__ = ["NewsstemmerAddon"]

#: Component orders: the middleware sits near the spider side of the built-ins; the
#: pipeline runs first, so later pipelines only ever see articles.
MIDDLEWARE_ORDER = 650
PIPELINE_ORDER = 100
EXTENSION_ORDER = 500


class NewsstemmerAddon:
    def update_settings(self, settings: Any) -> None:
        settings.set_in_component_priority_dict("SPIDER_MIDDLEWARES", NewsstemmerSpiderMiddleware, MIDDLEWARE_ORDER)
        settings.set_in_component_priority_dict("ITEM_PIPELINES", NewsstemmerPipeline, PIPELINE_ORDER)
        settings.set_in_component_priority_dict("EXTENSIONS", NewsstemmerExtension, EXTENSION_ORDER)
        storages = settings.getdict("FEED_STORAGES")
        for scheme in ("", "file"):
            storages.setdefault(scheme, FlushingFileFeedStorage)
        settings.set("FEED_STORAGES", storages, settings.getpriority("FEED_STORAGES") or 0)
