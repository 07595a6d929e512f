"""Where the crawl keeps its state: SQLite files for one process, or Redis for many workers.

:class:`Storage` is the one place that chooses: with ``NEWSSTEMMER_REDIS_URL`` set, the
page buffer, linkinfo, frontier, learned patterns, emit claims, site leases, the record
of emitted articles and the fetch records of incremental runs live in Redis
(:mod:`.redis_stores`, :mod:`.redis_worker`, :mod:`.redis_monitor`; the request queue is scrapy-redis's,
:mod:`.scheduler`), shared by every worker started with the same settings; without it,
they are today's SQLite files in ``NEWSSTEMMER_STATE_DIR`` and the patterns folder
(:mod:`.local`), and ``redis`` is never imported.  Each store's interface is in
:mod:`.base`.
"""

from __future__ import annotations

from typing import Any
from weakref import WeakKeyDictionary

from ..buffer import PageBuffer
from ..config import Config
from ..fetchlog import FetchLog
from ..frontier import Frontier
from ..history import ArticleHistory
from ..linkinfo import LinkInfo
from .base import AnchorStore, EmitRecord, FetchRecord, FrontierStore, HistoryStore, PageStore, PatternStore, SiteLeases
from .local import FolderPatterns, LocalEmits, LocalLeases

__all__ = ["Storage", "open_fetchlog", "open_history", "open_linkinfo", "open_page_buffer"]

_BY_CRAWLER: "WeakKeyDictionary[Any, Storage]" = WeakKeyDictionary()


def open_page_buffer(config: Config) -> PageStore:
    """A handle on the page buffer (SQLite: one per thread)."""
    if config.redis_url:
        from .redis_keys import Keys, client
        from .redis_stores import RedisPageBuffer

        return RedisPageBuffer(client(config.redis_url), Keys(config.redis_prefix))
    return PageBuffer(config.buffer_path)


def open_linkinfo(config: Config, create: bool = True) -> AnchorStore | None:
    """A handle on linkinfo (SQLite: one per thread); None if ``create`` is off and there is none yet."""
    if config.redis_url:
        from .redis_keys import Keys, client
        from .redis_stores import RedisLinkInfo

        return RedisLinkInfo(client(config.redis_url), Keys(config.redis_prefix))
    if not create and not config.linkinfo_path.exists():
        return None
    return LinkInfo(config.linkinfo_path)


def open_history(config: Config) -> HistoryStore:
    """A handle on the record of emitted articles (incremental runs; SQLite: one per thread)."""
    if config.redis_url:
        from .redis_keys import Keys, client
        from .redis_monitor import RedisArticleHistory

        return RedisArticleHistory(client(config.redis_url), Keys(config.redis_prefix))
    return ArticleHistory(config.history_path)


def open_fetchlog(config: Config) -> FetchRecord:
    """A handle on the per-URL fetch records (incremental runs; SQLite: one per thread)."""
    if config.redis_url:
        from .redis_keys import Keys, client
        from .redis_monitor import RedisFetchLog

        return RedisFetchLog(client(config.redis_url), Keys(config.redis_prefix))
    return FetchLog(config.fetchlog_path)


class Storage:
    """The stores of one crawl in this process, SQLite or Redis (see the module docstring)."""

    def __init__(self, config: Config, spider_name: str = "news"):
        self.config = config
        self.shared = bool(config.redis_url)
        self.worker: Any = None  # RedisWorker when shared
        self.patterns: PatternStore
        self.emits: EmitRecord
        self.leases: SiteLeases
        if self.shared:
            from .redis_keys import Keys, client
            from .redis_stores import RedisEmits, RedisLeases, RedisPatterns
            from .redis_worker import RedisWorker

            redis, keys = client(config.redis_url), Keys(config.redis_prefix)
            self.keys = keys
            self.worker = RedisWorker(redis, keys, spider_name, config.worker_timeout)
            self.patterns = RedisPatterns(redis, keys)
            self.emits = RedisEmits(redis, keys, self.worker.id)
            self.leases = RedisLeases(redis, keys, self.worker.id, config.worker_timeout)
        else:
            self.patterns = FolderPatterns(config.patterns_dir)
            self.emits = LocalEmits()
            self.leases = LocalLeases()

    @classmethod
    def for_crawler(cls, crawler: Any) -> "Storage":
        """The crawl's storage (created on first use, shared by its spider, scheduler and learner)."""
        found = _BY_CRAWLER.get(crawler)
        if found is None:
            name = getattr(getattr(crawler, "spidercls", None), "name", None) or "news"
            found = _BY_CRAWLER[crawler] = cls(Config.from_settings(crawler.settings), name)
        return found

    def page_buffer(self) -> PageStore:
        return open_page_buffer(self.config)

    def linkinfo(self) -> AnchorStore:
        store = open_linkinfo(self.config)
        assert store is not None
        return store

    def frontier(self) -> FrontierStore:
        if self.shared:
            from .redis_worker import RedisFrontier

            return RedisFrontier(self.worker)
        return Frontier(self.config.frontier_path)
