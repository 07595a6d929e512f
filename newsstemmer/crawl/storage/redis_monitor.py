"""The stores of monitoring runs in Redis, shared by every worker: what earlier runs emitted
(:class:`RedisArticleHistory`, twin of :class:`~newsstemmer.crawl.storage.sqlite_history.ArticleHistory`)
and the per-URL fetch records (:class:`RedisFetchLog`, twin of
:class:`~newsstemmer.crawl.storage.sqlite_fetchlog.FetchLog`).

Keys (``P`` the prefix): ``P:hist:a:KEY`` (hash: one emitted article by canonical URL:
site, content hash, version, dates, its URL where it is not the key, and the change sketch
of the version sent, :class:`~newsstemmer.crawl.changesketch.ChangeSketch`; records written
before sketches hold the texts instead, read as their sketch), ``P:hist:site:SITE`` (zset:
its keys by emission time), ``P:hist:sites``, ``P:hist:texts`` (zset: the keys whose
sketches are kept, by emission time: :mod:`.redis_retention`); ``P:fl:URL`` (hash: validators, first and last check time, pending record),
``P:fl:articles:SITE`` (set: URLs recorded as articles).  They outlive the runs, as the
SQLite files do.  Articles past the retention window are archived by
:func:`~.redis_retention.redis_prune` into ``P:hist:old:B`` and ``P:fl:old:B`` (hashes, 4,096
buckets ``B``: a digest of the key or URL -> the day; ~15 bytes an article): known, never
fetched or sent again (:func:`archive_slot`).
"""

from __future__ import annotations

import hashlib
import time
from typing import Any

from ..items import utc_now
from .redis_keys import Keys
from .records import SKIP, Emitted, Plan, RecheckPolicy, decide, sketch_of_texts

__all__ = ["ARCHIVE_BUCKETS", "RedisArticleHistory", "RedisFetchLog", "archive_slot"]


def _s(value: Any) -> str | None:
    return None if value is None else value.decode("utf-8") if isinstance(value, bytes) else str(value)


#: Buckets of the archives: hashes of up to ~128 digests each (Redis's compact encoding,
#: ``hash-max-listpack-entries``) up to ~500,000 archived articles.
ARCHIVE_BUCKETS = 4096


def archive_slot(text: str) -> tuple[str, str]:
    """Where an archived key or URL is recorded: its bucket (3 hex digits) and field (13 hex
    digits): 64 bits of its SHA-1, as the pruning script (Lua's ``redis.sha1hex``) makes them."""
    digest = hashlib.sha1(text.encode("utf-8")).hexdigest()
    return digest[:3], digest[3:16]


class RedisArticleHistory:
    """Emitted articles by canonical URL, shared by the workers."""

    def __init__(self, redis: Any, keys: Keys):
        self.redis = redis
        self.p = keys.prefix
        self.path = f"redis {self.p}:hist"

    def get(self, key: str) -> Emitted | None:
        h = self.redis.hgetall(f"{self.p}:hist:a:{key}")
        if not h:
            bucket, field = archive_slot(key)
            if not self.redis.hexists(f"{self.p}:hist:old:{bucket}", field):
                return None
            return Emitted(key, "", key, "", b"", 1, "", None, archived=True)  # archived: known by its digest
        g = {_s(k): v for k, v in h.items()}
        sketch = g.get("sketch")
        if sketch is None:  # written before sketches: its texts (none once pruned)
            sketch = sketch_of_texts(g.get("body"), g.get("page_text"))
        return Emitted(key, _s(g.get("site")) or "", _s(g.get("url")) or key, _s(g.get("content_hash")) or "",
                       bytes(sketch), int(g.get("version") or 1), _s(g.get("first_seen")) or "",
                       _s(g.get("published")), archived=not sketch)

    def put(self, record: Emitted) -> None:
        fields = {"site": record.site, "content_hash": record.content_hash, "sketch": record.sketch,
                  "version": record.version, "first_seen": record.first_seen}
        name = f"{self.p}:hist:a:{record.key}"
        pipe = self.redis.pipeline(transaction=True)
        pipe.hset(name, mapping=fields)
        dropped = ["body", "page_text", "emitted"]  # (fields of records written before sketches)
        if record.url == record.key:
            dropped.append("url")  # (read as the key)
        else:
            pipe.hset(name, "url", record.url)
        if record.published is None:
            dropped.append("published")
        else:
            pipe.hset(name, "published", record.published)
        pipe.hdel(name, *dropped)
        pipe.zadd(f"{self.p}:hist:site:{record.site}", {record.key: time.time()})
        pipe.zadd(f"{self.p}:hist:texts", {record.key: time.time()})  # sketch kept: pruned by age
        pipe.sadd(f"{self.p}:hist:sites", record.site)
        pipe.execute()

    def recent(self, site: str, n: int) -> list[str]:
        keys = [_s(k) or "" for k in self.redis.zrevrange(f"{self.p}:hist:site:{site}", 0, max(0, n - 1))] if n > 0 else []
        pipe = self.redis.pipeline(transaction=False)
        for key in keys:
            pipe.hmget(f"{self.p}:hist:a:{key}", ["url", "site"])
        return [_s(url) or key for key, (url, known) in zip(keys, pipe.execute() if keys else []) if known]

    def count(self, site: str | None = None) -> int:
        if site is not None:
            return int(self.redis.zcard(f"{self.p}:hist:site:{site}"))
        return sum(self.count(_s(s) or "") for s in self.redis.smembers(f"{self.p}:hist:sites"))

    def close(self) -> None:
        pass


class RedisFetchLog:
    """Validators and check times per URL, shared by the workers (see :mod:`newsstemmer.crawl.storage.sqlite_fetchlog`)."""

    _COMMIT = """
    local n = 0
    for i = 3, #ARGV do
        local k = ARGV[1] .. ':fl:' .. ARGV[i]
        local at = redis.call('HGET', k, 'p_at')
        if at then
            for _, f in ipairs({'etag', 'last_modified'}) do
                local v = redis.call('HGET', k, 'p_' .. f)
                if v then redis.call('HSET', k, f, v) else redis.call('HDEL', k, f) end
            end
            local hint = redis.call('HGET', k, 'p_hint')
            if hint then redis.call('HSET', k, 'hint', hint) end
            redis.call('HSET', k, 'checked', at, 'article', ARGV[2])
            redis.call('HSETNX', k, 'first', at)
            redis.call('HDEL', k, 'p_etag', 'p_last_modified', 'p_hint', 'p_at')
            local site = redis.call('HGET', k, 'site') or ''
            if ARGV[2] == '1' then
                redis.call('SADD', ARGV[1] .. ':fl:articles:' .. site, ARGV[i])
            else
                redis.call('SREM', ARGV[1] .. ':fl:articles:' .. site, ARGV[i])
            end
            n = n + 1
        end
    end
    return n
    """

    def __init__(self, redis: Any, keys: Keys):
        self.redis = redis
        self.p = keys.prefix
        self.path = f"redis {self.p}:fl"
        self._commit = redis.register_script(self._COMMIT)

    def _key(self, url: str) -> str:
        return f"{self.p}:fl:{url}"

    def plan(self, url: str, recheck: RecheckPolicy | float, hint: str | None = None, now: float | None = None) -> Plan:
        bucket, field = archive_slot(url)
        pipe = self.redis.pipeline(transaction=False)
        pipe.hmget(self._key(url), ["etag", "last_modified", "checked", "article", "hint", "first"])
        pipe.hexists(f"{self.p}:fl:old:{bucket}", field)
        values, archived = pipe.execute()
        etag, last_modified, checked, article, old_hint, first = (_s(v) for v in values)
        if checked is None and archived:  # archived past the retention window: known, skipped
            return Plan(SKIP, {})
        plan, baseline = decide((etag, last_modified, checked, article == "1", old_hint, first), recheck, hint, now)
        if baseline:
            self.baseline_hint(url, "", hint or "")
        return plan

    def validators(self, url: str) -> dict[str, str]:
        """The conditional request headers of ``url``'s committed record (empty: none)."""
        etag, last_modified = (_s(v) for v in self.redis.hmget(self._key(url), ["etag", "last_modified"]))
        return {k: v for k, v in (("If-None-Match", etag), ("If-Modified-Since", last_modified)) if v}

    def archived(self, url: str) -> bool:
        """Whether ``url`` is an article archived past the retention window."""
        bucket, field = archive_slot(url)
        return bool(self.redis.hexists(f"{self.p}:fl:old:{bucket}", field))

    def baseline_hint(self, url: str, site: str, hint: str) -> None:
        pipe = self.redis.pipeline(transaction=True)
        pipe.hsetnx(self._key(url), "hint", hint)
        pipe.hsetnx(self._key(url), "site", site)
        pipe.execute()

    def seen(self, url: str, site: str, etag: str | None, last_modified: str | None, hint: str | None) -> None:
        pipe = self.redis.pipeline(transaction=True)
        pipe.hsetnx(self._key(url), "site", site)
        for name, value in (("p_etag", etag), ("p_last_modified", last_modified), ("p_hint", hint)):
            if value is None:
                pipe.hdel(self._key(url), name)
            else:
                pipe.hset(self._key(url), name, value)
        pipe.hset(self._key(url), "p_at", repr(time.time()))
        pipe.execute()

    def commit(self, urls: list[str], article: bool) -> None:
        if urls:
            self._commit(keys=[], args=[self.p, "1" if article else "0", *urls])

    def not_modified(self, url: str, hint: str | None) -> None:
        checked = self.redis.hget(self._key(url), "checked")
        if not self.redis.exists(self._key(url)):
            return
        pipe = self.redis.pipeline(transaction=True)
        if checked is not None:
            pipe.hsetnx(self._key(url), "first", checked)  # (a record from before first checks were kept)
        pipe.hset(self._key(url), "checked", repr(time.time()))
        if hint is not None:
            pipe.hset(self._key(url), "hint", hint)
        pipe.execute()

    def set_published(self, url: str, site: str, published: str) -> None:
        pipe = self.redis.pipeline(transaction=True)
        pipe.hsetnx(self._key(url), "site", site)
        pipe.hset(self._key(url), "published", published)
        pipe.execute()

    def published(self, url: str) -> str | None:
        return _s(self.redis.hget(self._key(url), "published"))

    def articles(self, site: str) -> int:
        return int(self.redis.scard(f"{self.p}:fl:articles:{site}"))

    def close(self) -> None:
        pass
