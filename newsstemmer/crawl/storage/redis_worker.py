"""One worker of a crawl shared through Redis: its heartbeat, the requests it took, the
end of the crawl, and picking up the work of workers that died.

* Every worker registers in ``P:workers`` and keeps ``P:alive:W`` alive with a heartbeat
  (every ``NEWSSTEMMER_WORKER_TIMEOUT`` / 5 seconds, expiry after the timeout).
* A request taken from the queue moves, in one Lua script, to the worker's in-flight
  hash (:class:`~newsstemmer.crawl.storage.scheduler.InflightQueue`); it leaves it once
  its page is done (its item is in a feed or its page in the buffer, as the SQLite
  frontier's ``done``).
* A worker whose heartbeat expired is dead: the next live worker to look puts its
  in-flight requests back into the queue (with their priority) and releases its
  unconfirmed emit claims, in one script, so exactly one worker does it.  Its site
  leases expire on their own.
* A crawl is over when the queue is empty and no live worker has requests in flight,
  twice in a row a heartbeat apart; the last worker to leave a finished crawl clears
  its run keys (``P:run:*`` and the queue), so the next crawl starts afresh.
* The first worker of a crawl sets ``P:run:marker``; every worker checks it is still
  there (:meth:`RedisWorker.marker_gone`).  A Redis server that came back without its data
  (restarted with no persistence) has no marker: the crawl's queue and records are gone,
  and the workers stop with an error instead of taking the empty queue for a finished crawl.
* The last worker of a finished crawl leaves ``P:finished:MARKER`` behind, for
  :data:`FINISHED_RECORD_SECONDS`: a live worker that was taken for dead (silent for longer
  than the timeout: a stalled or starved process) and finds the marker gone then knows the
  others finished the crawl (:meth:`RedisWorker.finished_elsewhere`) and closes as finished.
"""

from __future__ import annotations

import logging
import os
import socket
import uuid
from typing import Any

from .redis_keys import Keys

__all__ = ["FINISHED_RECORD_SECONDS", "RedisFrontier", "RedisWorker"]

log = logging.getLogger(__name__)

#: How long the record of a finished crawl (``P:finished:MARKER``) stays: a worker taken for
#: dead and silent for longer still finds the marker gone with no record, and stops with
#: ``redis_state_lost``.  One small key per crawl.
FINISHED_RECORD_SECONDS = 24 * 3600

#: Put a worker's in-flight requests back into the queue and release its unconfirmed
#: claims; with ARGV[3] == '1' only if its heartbeat is gone (recovery of a dead worker).
_REQUEUE = """
local p, w = ARGV[1], ARGV[2]
if ARGV[3] == '1' and redis.call('EXISTS', p .. ':alive:' .. w) == 1 then return -1 end
local inflight = redis.call('HGETALL', p .. ':run:inflight:' .. w)
for i = 1, #inflight, 2 do
    redis.call('ZADD', KEYS[1], inflight[i + 1], inflight[i])
end
redis.call('DEL', p .. ':run:inflight:' .. w)
local claims = redis.call('SMEMBERS', p .. ':run:claims:' .. w)
for _, key in ipairs(claims) do
    if redis.call('HGET', p .. ':run:emitted', key) == w then redis.call('HDEL', p .. ':run:emitted', key) end
end
redis.call('DEL', p .. ':run:claims:' .. w)
redis.call('SREM', p .. ':workers', w)
return #inflight / 2
"""

#: Admit URLs of one site: ARGV = prefix, site, limit (-1: none), counted ('1': toward the
#: limit, '0': not counted, no limit), url...; returns per URL 1 (admitted), 2 (scheduled
#: before) or 0 (the site reached its limit).
_ADMIT = """
local p, site, limit, counted = ARGV[1], ARGV[2], tonumber(ARGV[3]), ARGV[4] == '1'
local out = {}
for i = 5, #ARGV do
    local ok = 2
    if redis.call('SISMEMBER', p .. ':run:seen', ARGV[i]) == 0 then
        ok = 0
        local n = tonumber(redis.call('HGET', p .. ':run:counts', site) or '0')
        if not counted or limit < 0 or n < limit then
            redis.call('SADD', p .. ':run:seen', ARGV[i])
            if counted then redis.call('HINCRBY', p .. ':run:counts', site, 1) end
            ok = 1
        end
    end
    out[#out + 1] = ok
end
return out
"""

#: Leave the crawl: ARGV = prefix, worker, how ('1': finished, '2': finished by others before,
#: '0': stopped), the finished record's life (ms); clears the run keys if it was the last live
#: worker of a finished crawl with nothing queued, leaving a record of the end under the
#: crawl's marker.  A worker whose crawl others finished (and cleared) before clears what it
#: wrote since (links it scheduled, requests it queued), unless a new crawl has begun.
#: Returns 1 if it cleared them.
_LEAVE = """
local p, w = ARGV[1], ARGV[2]
redis.call('SREM', p .. ':workers', w)
redis.call('DEL', p .. ':alive:' .. w)
if ARGV[3] == '0' then return 0 end
if ARGV[3] == '2' and redis.call('EXISTS', p .. ':run:marker') == 1 then return 0 end
for _, other in ipairs(redis.call('SMEMBERS', p .. ':workers')) do
    if redis.call('EXISTS', p .. ':alive:' .. other) == 1 then return 0 end
    if redis.call('HLEN', p .. ':run:inflight:' .. other) > 0 then return 0 end
end
if ARGV[3] == '1' and redis.call('ZCARD', KEYS[1]) > 0 then return 0 end
local marker = redis.call('GET', p .. ':run:marker')
if marker then redis.call('SET', p .. ':finished:' .. marker, '1', 'PX', ARGV[4]) end
redis.call('DEL', KEYS[1], KEYS[2], p .. ':run:seen', p .. ':run:counts', p .. ':run:emitted', p .. ':run:broken',
           p .. ':run:marker', p .. ':run:started')
for _, other in ipairs(redis.call('SMEMBERS', p .. ':workers')) do redis.call('SREM', p .. ':workers', other) end
return 1
"""


class RedisWorker:
    """This process's part in a crawl shared through Redis (one per crawl)."""

    def __init__(self, redis: Any, keys: Keys, spider: str, timeout: float):
        self.redis = redis
        self.keys = keys
        self.timeout = timeout
        self.id = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self.queue_key = keys.queue(spider)
        self.dupefilter_key = keys.dupefilter(spider)
        self._taken: dict[str, bytes] = {}  # request URL -> its entry in the in-flight hash
        self._requeue = redis.register_script(_REQUEUE)
        self._admit = redis.register_script(_ADMIT)
        self._leave = redis.register_script(_LEAVE)
        self._quiet_before = False  # the last idle check found the crawl quiet too
        self.recovered = 0  # requests of dead workers put back by this one
        self.marker: bytes | None = None  # the crawl's marker this worker joined under

    # -- membership and heartbeat -----------------------------------------------------------
    def join(self, fresh: bool = False) -> None:
        """Register; with ``fresh`` (``NEWSSTEMMER_RESUME`` off) and no other live worker,
        clear what an interrupted crawl left."""
        self.recover_dead()
        if fresh and not self.others_alive():
            self._clear_run()
            log.info("newsstemmer: NEWSSTEMMER_RESUME is off: the crawl's queue in Redis was cleared")
        self.beat()
        self.redis.sadd(self.keys.workers, self.id)
        # (after this worker counts as alive: a last worker leaving now keeps the marker)
        self.redis.set(self.keys.marker, self.id.encode(), nx=True)
        self.marker = self.redis.get(self.keys.marker)
        log.info("newsstemmer: worker %s joined the crawl %s (%d queued requests)", self.id, self.keys.prefix,
                 self.queued())

    def beat(self) -> None:
        self.redis.set(self.keys.alive(self.id), b"1", px=int(self.timeout * 1000))

    def marker_gone(self) -> bool:
        """The crawl's marker is gone or another: this worker's crawl is over, one way or the other."""
        return self.marker is not None and self.redis.get(self.keys.marker) != self.marker

    def finished_elsewhere(self) -> bool:
        """Another worker finished this worker's crawl and cleared its run records (this one was
        taken for dead meanwhile): the record it left under the crawl's marker is there."""
        return self.marker is not None and bool(self.redis.exists(self.keys.finished(self.marker)))

    def others_alive(self) -> list[str]:
        members = [m.decode() for m in self.redis.smembers(self.keys.workers)]
        others = [m for m in members if m != self.id]
        if not others:
            return []
        pipe = self.redis.pipeline(transaction=False)
        for m in others:
            pipe.exists(self.keys.alive(m))
        return [m for m, alive in zip(others, pipe.execute()) if alive]

    def recover_dead(self) -> int:
        """Give the work of dead workers back to the crawl; returns the requests re-queued."""
        n = 0
        for member in self.redis.smembers(self.keys.workers):
            other = member.decode()
            if other == self.id or self.redis.exists(self.keys.alive(other)):
                continue
            got = int(self._requeue(keys=[self.queue_key], args=[self.keys.prefix, other, "1"]))
            if got >= 0:
                n += got
                log.warning("newsstemmer: worker %s is gone: %d of its requests are back in the queue", other, got)
        self.recovered += n
        return n

    # -- requests in flight -----------------------------------------------------------------
    def took(self, url: str, entry: bytes) -> None:
        """A request for ``url`` left the queue for this worker's in-flight hash as ``entry``."""
        self._taken[url] = entry

    def done(self, urls: list[str]) -> None:
        entries = [e for e in (self._taken.pop(u, None) for u in urls) if e is not None]
        if entries:
            self.redis.hdel(self.keys.inflight(self.id), *entries)

    def settle(self) -> None:
        """This worker is idle: whatever it still holds in flight was handled (pages that gave no item)."""
        self._taken.clear()
        self.redis.delete(self.keys.inflight(self.id))

    def queued(self) -> int:
        return int(self.redis.zcard(self.queue_key))

    def busy_elsewhere(self) -> bool:
        """Queued requests, or another live worker with requests in flight."""
        if self.queued():
            return True
        others = self.others_alive()
        if not others:
            return False
        pipe = self.redis.pipeline(transaction=False)
        for m in others:
            pipe.hlen(self.keys.inflight(m))
        return any(pipe.execute())

    def crawl_quiet(self) -> bool:
        """True once the crawl looked finished on two idle checks in a row (pages a worker is
        between handing over and scheduling their links are not missed)."""
        self.recover_dead()
        quiet = not self.busy_elsewhere()
        confirmed = quiet and self._quiet_before
        self._quiet_before = quiet
        return confirmed

    def admit(self, site: str, urls: list[str], limit: int | None, counted: bool = True) -> list[int]:
        """Per URL: 1 admitted, 2 scheduled before, 0 refused (the site's limit; ``counted``: see
        :meth:`RedisFrontier.admit`)."""
        if not urls:
            return []
        return [int(x) for x in self._admit(keys=[], args=[self.keys.prefix, site, -1 if limit is None else limit,
                                                           "1" if counted else "0", *urls])]

    # -- leaving ----------------------------------------------------------------------------
    def leave(self, reason: str, after_end: bool = False) -> bool:
        """Leave the crawl: a finished worker drops what it holds, a stopped one gives its
        requests back; ``after_end``: the others finished the crawl before (this worker was
        taken for dead), and what it wrote since is cleared.  Returns True if this was the
        last worker of a finished crawl."""
        finished = reason == "finished"
        if finished:
            self.settle()
        self._requeue(keys=[self.queue_key], args=[self.keys.prefix, self.id, "0"])
        how = ("2" if after_end else "1") if finished else "0"
        cleared = bool(self._leave(keys=[self.queue_key, self.dupefilter_key],
                                   args=[self.keys.prefix, self.id, how, int(FINISHED_RECORD_SECONDS * 1000)]))
        if cleared and after_end:
            log.info("newsstemmer: worker %s: what it wrote after the end of the crawl %s is cleared",
                     self.id, self.keys.prefix)
        elif cleared:
            log.info("newsstemmer: last worker of the finished crawl %s: its queue and run records cleared",
                     self.keys.prefix)
        return cleared

    def _clear_run(self) -> None:
        keys = list(self.redis.scan_iter(match=f"{self.keys.run}:*", count=1000))
        keys += [self.queue_key, self.dupefilter_key]
        self.redis.delete(*keys)


class RedisFrontier:
    """The frontier of a worker (see :mod:`newsstemmer.crawl.storage.sqlite_frontier`): the set of scheduled
    URLs and per-site counts are shared; requests in flight are the worker's
    (:class:`RedisWorker`); resuming is the queue's persistence, not a list of pending pages."""

    def __init__(self, worker: RedisWorker):
        self.worker = worker
        self.path = f"redis {worker.keys.prefix}:run"
        self._known: set[str] = set()  # URLs scheduled (by any worker), as far as this one knows
        self._refused: set[str] = set()  # over their site's limit (it only fills up)
        self._counts: dict[str, int] = {}

    def begin(self, jobdir: str | None = None, resume: bool = True) -> None:
        """Nothing to re-schedule: the queue in Redis outlives the workers (see :meth:`RedisWorker.join`)."""
        return None

    def admit(self, site: str, url: str, depth: int, limit: int | None = None, counted: bool = True) -> bool:
        """Schedule ``url`` once per crawl (by any worker) within its site's ``limit``;
        ``counted``: whether it counts toward the limit."""
        return self.admit_many(site, [url], limit, counted)[0]

    def admit_many(self, site: str, urls: list[str], limit: int | None = None, counted: bool = True) -> list[bool]:
        """:meth:`admit` for many URLs of one site in one round trip."""
        ask = [u for u in dict.fromkeys(urls) if u not in self._known and (u not in self._refused or not counted)]
        got = dict(zip(ask, self.worker.admit(site, ask, limit, counted)))
        self._known.update(u for u, r in got.items() if r)
        self._refused.update(u for u, r in got.items() if not r)
        if ask and not all(got.values()):
            self._counts[site] = int(self.worker.redis.hget(self.worker.keys.counts, site) or 0)
        return [got.get(u) == 1 for u in urls]

    def count(self, site: str) -> int:
        if site not in self._counts:
            self._counts[site] = int(self.worker.redis.hget(self.worker.keys.counts, site) or 0)
        return self._counts[site]

    def known(self, url: str) -> bool:
        if url in self._known:
            return True
        if self.worker.redis.sismember(self.worker.keys.seen, url):
            self._known.add(url)  # scheduled by another worker: never admitted again in this crawl
            return True
        return False

    def done(self, urls: list[str]) -> None:
        self.worker.done(urls)

    def pending(self) -> int:
        return self.worker.queued()

    def end(self, reason: str) -> None:
        pass  # the worker leaves the crawl when the learner closes (after the last emission)

    def close(self) -> None:
        pass
