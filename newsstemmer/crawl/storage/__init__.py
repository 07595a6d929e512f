"""Where the crawl keeps its state: SQLite files for one process, or Redis for many workers.

:class:`Storage` is the one place that chooses: with ``NEWSSTEMMER_REDIS_URL`` set, the
page buffer, linkinfo, frontier, learned patterns, emit claims, site leases, the record
of emitted articles and the fetch records of incremental runs live in Redis
(:mod:`.redis_stores`, :mod:`.redis_worker`, :mod:`.redis_monitor`; the request queue is scrapy-redis's,
:mod:`.scheduler`), shared by every worker started with the same settings; without it,
they are SQLite files in ``NEWSSTEMMER_STATE_DIR`` (:mod:`.sqlite_buffer`,
:mod:`.sqlite_anchors`, :mod:`.sqlite_frontier`, :mod:`.sqlite_history`, :mod:`.sqlite_fetchlog`,
:mod:`.sqlite_runlog`, on the helpers of :mod:`.sqlite_files`) and the patterns folder
(:mod:`.local`), and ``redis`` is never imported.  Each store's interface is in
:mod:`.base`, the records and rules both kinds share in :mod:`.records`.  Every store is
opened through :class:`Storage` (the one factory).
"""

from __future__ import annotations

from typing import Any
from weakref import WeakKeyDictionary

from ..config import Config, SettingError, stop_on_user_error
from .base import AnchorStore, EmitRecord, FetchRecord, FrontierStore, HistoryStore, PageStore, PatternStore, SiteLeases
from .local import FolderPatterns, LocalEmits, LocalLeases
from .redis_keys import RedisUnavailable
from .sqlite_anchors import LinkInfo
from .sqlite_buffer import PageBuffer
from .sqlite_fetchlog import FetchLog
from .sqlite_frontier import Frontier
from .sqlite_history import ArticleHistory

__all__ = ["Storage"]

_BY_CRAWLER: "WeakKeyDictionary[Any, Storage]" = WeakKeyDictionary()


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
            with stop_on_user_error():  # (at the crawl's start: a wrong setting or no Redis server is one line)
                try:
                    found = _BY_CRAWLER[crawler] = cls(Config.from_settings(crawler.settings), name)
                except RedisUnavailable as exc:
                    raise SettingError(str(exc)) from None
        return found

    # -- handles on the stores (SQLite: one per thread; the learner's rounds open their own) --
    def page_buffer(self) -> PageStore:
        """A handle on the page buffer."""
        if self.shared:
            from .redis_stores import RedisPageBuffer

            return RedisPageBuffer(*self._redis())
        return PageBuffer(self.config.buffer_path)

    def linkinfo(self, create: bool = True) -> AnchorStore | None:
        """A handle on linkinfo; None if ``create`` is off and there is none yet."""
        if self.shared:
            from .redis_stores import RedisLinkInfo

            return RedisLinkInfo(*self._redis())
        if not create and not self.config.linkinfo_path.exists():
            return None
        return LinkInfo(self.config.linkinfo_path)

    def history(self) -> HistoryStore:
        """A handle on the record of emitted articles (incremental runs)."""
        if self.shared:
            from .redis_monitor import RedisArticleHistory

            return RedisArticleHistory(*self._redis(), shared_run=True)
        return ArticleHistory(self.config.history_path)

    def fetchlog(self) -> FetchRecord:
        """A handle on the per-URL fetch records (incremental runs)."""
        if self.shared:
            from .redis_monitor import RedisFetchLog

            return RedisFetchLog(*self._redis())
        return FetchLog(self.config.fetchlog_path)

    def frontier(self) -> FrontierStore:
        """The crawl's frontier (scheduled and done pages, per-site counts)."""
        if self.shared:
            from .redis_worker import RedisFrontier

            return RedisFrontier(self.worker)
        return Frontier(self.config.frontier_path)

    def _redis(self) -> tuple[Any, Any]:
        from .redis_keys import Keys, client

        return client(self.config.redis_url), Keys(self.config.redis_prefix)
