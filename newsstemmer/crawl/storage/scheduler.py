"""The distributed frontier: scrapy-redis's scheduler and seen-requests filter, adapted
through their settings (``SCHEDULER``, ``SCHEDULER_QUEUE_CLASS``,
``SCHEDULER_SERIALIZER``), installed by the add-on when ``NEWSSTEMMER_REDIS_URL`` is set.

Two small additions, both needed for many workers:

* :class:`InflightQueue` (scrapy-redis's priority queue): a request taken from the
  queue moves to the taking worker's in-flight hash in the same Lua script, so a worker
  killed with SIGKILL loses no request: a live worker puts them back
  (:mod:`.redis_worker`).  scrapy-redis alone pops and forgets.
* :class:`NewsstemmerScheduler`: newsstemmer's internal ``data:,`` requests (they
  carry a learning round's articles into *this* worker's feeds, see
  :mod:`newsstemmer.crawl.learner`) stay in a local queue, ahead of the shared one.

The start API of Scrapy ≥ 2.13 (``async def start()``) needs nothing here: start
requests reach the scheduler through ``engine.crawl`` like any other, and the spider's
frontier admits each start URL once across workers.  Requests are stored as JSON
(:mod:`.serial`), never pickled.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from scrapy_redis.queue import PriorityQueue
from scrapy_redis.scheduler import Scheduler

from ..learner import EMIT_META
from . import Storage

__all__ = ["InflightQueue", "NewsstemmerScheduler"]

_POP = """
local r = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
if #r == 0 then return false end
redis.call('ZREM', KEYS[1], r[1])
redis.call('HSET', KEYS[2], r[1], r[2])
return r[1]
"""


class InflightQueue(PriorityQueue):
    """scrapy-redis's priority queue whose ``pop`` hands the request to this worker's in-flight hash."""

    def __init__(self, server: Any, spider: Any, key: str, serializer: Any = None):
        super().__init__(server, spider, key, serializer)
        self.worker = Storage.for_crawler(spider.crawler).worker
        self._pop = server.register_script(_POP)

    def pop(self, timeout: int = 0) -> Any:
        data = self._pop(keys=[self.key, self.worker.keys.inflight(self.worker.id)])
        if not data:
            return None
        request = self._decode_request(data)
        self.worker.took(request.url, data)
        return request


class NewsstemmerScheduler(Scheduler):
    """scrapy-redis's scheduler, with this worker's internal requests kept local."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.local: deque[Any] = deque()
        self.counts: Any = None

    @classmethod
    def from_crawler(cls, crawler: Any) -> "NewsstemmerScheduler":
        instance = super().from_crawler(crawler)
        # scrapy-redis counts with inc_value(..., spider=), deprecated since Scrapy 2.13: counted here instead
        instance.counts, instance.stats = instance.stats, None
        return instance

    def enqueue_request(self, request: Any) -> bool:
        if EMIT_META in request.meta:
            self.local.append(request)
            return True
        queued = bool(super().enqueue_request(request))
        if queued and self.counts is not None:
            self.counts.inc_value("scheduler/enqueued/redis")
        return queued

    def next_request(self) -> Any:
        if self.local:
            return self.local.popleft()
        request = super().next_request()
        if request is not None and self.counts is not None:
            self.counts.inc_value("scheduler/dequeued/redis")
        return request

    def has_pending_requests(self) -> bool:
        return bool(self.local) or bool(super().has_pending_requests())

    def __len__(self) -> int:
        return len(self.local) + super().__len__()
