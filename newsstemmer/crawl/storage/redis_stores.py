"""The crawl's stores in Redis, shared by every worker of a crawl: page buffer, linkinfo,
learned patterns, emit claims and site leases (key names in :mod:`.redis_keys`).

Each class has the methods of its SQLite twin (:mod:`.base` lists them) and the same
observable behaviour, which ``tests/test_crawl_storage.py`` checks on both.  Writes that
must not be seen half done (a page with its metadata, a claim and its owner) are one
``MULTI`` or one Lua script; nothing read from Redis is ever evaluated (JSON and zlib).
"""

from __future__ import annotations

import json
import logging
import os
import time
import zlib
from typing import Any, Iterable, Sequence

from ...layout.patterns import PatternFileError, SitePatterns
from ..items import FetchedPage
from .redis_keys import Keys
from .records import clean_anchor_text

__all__ = ["RedisEmits", "RedisLeases", "RedisLinkInfo", "RedisPageBuffer", "RedisPatterns"]

log = logging.getLogger(__name__)


def _text(value: bytes | str) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else value


class RedisPageBuffer:
    """Buffered pages per site: HTML compressed (zlib), metadata as JSON, order by arrival."""

    _DELETE = """
    local n = 0
    for i = 1, #ARGV do
        n = n + redis.call('HDEL', KEYS[1], ARGV[i])
        redis.call('HDEL', KEYS[2], ARGV[i])
        redis.call('ZREM', KEYS[3], ARGV[i])
    end
    if redis.call('ZCARD', KEYS[3]) == 0 then redis.call('SREM', KEYS[4], KEYS[5]) end
    return n
    """

    def __init__(self, redis: Any, keys: Keys):
        self.redis = redis
        self.keys = keys
        self.path = f"redis {keys.prefix}:buf"  # shown in log lines, like the SQLite file's path
        self._delete = redis.register_script(self._DELETE)

    def add(self, page: FetchedPage, tried: int = 0) -> None:
        k, site = self.keys, page.site
        meta = {"anchors": list(page.anchor_texts), "fetched_at": page.fetched_at, "tried": int(tried),
                "chars": len(page.html)}
        pipe = self.redis.pipeline(transaction=True)
        pipe.hset(k.buf_html(site), page.url, zlib.compress(page.html.encode("utf-8"), 3))
        pipe.hset(k.buf_meta(site), page.url, json.dumps(meta, ensure_ascii=False))
        pipe.zadd(k.buf_order(site), {page.url: time.time()})
        pipe.sadd(k.buf_sites, site)
        pipe.execute()

    def count(self, site: str | None = None) -> int:
        if site is not None:
            return int(self.redis.zcard(self.keys.buf_order(site)))
        return sum(self.sites().values())

    def sites(self) -> dict[str, int]:
        names = sorted(_text(s) for s in self.redis.smembers(self.keys.buf_sites))
        pipe = self.redis.pipeline(transaction=False)
        for site in names:
            pipe.zcard(self.keys.buf_order(site))
        return {site: int(n) for site, n in zip(names, pipe.execute()) if n}

    def urls(self, site: str) -> list[str]:
        return [_text(u) for u in self.redis.zrange(self.keys.buf_order(site), 0, -1)]

    def untried(self, site: str, version: int) -> list[str]:
        found = []
        for url, raw in self.redis.hgetall(self.keys.buf_meta(site)).items():
            if int(_meta(raw).get("tried", 0)) < version:
                found.append(_text(url))
        return sorted(found)

    def size(self, site: str, urls: Iterable[str]) -> int:
        urls = list(urls)
        if not urls:
            return 0
        return sum(int(_meta(raw).get("chars", 0)) for raw in self.redis.hmget(self.keys.buf_meta(site), urls) if raw)

    def get(self, site: str, urls: Iterable[str]) -> list[FetchedPage]:
        urls = list(urls)
        if not urls:
            return []
        pipe = self.redis.pipeline(transaction=True)
        pipe.hmget(self.keys.buf_html(site), urls)
        pipe.hmget(self.keys.buf_meta(site), urls)
        htmls, metas = pipe.execute()
        pages = []
        for url, html, raw in zip(urls, htmls, metas):
            if html is None or raw is None:
                continue
            try:
                text = zlib.decompress(html).decode("utf-8")
            except (zlib.error, UnicodeDecodeError) as exc:
                log.error("newsstemmer: buffered page %s is damaged in Redis (%s): skipped", url, exc)
                continue
            meta = _meta(raw)
            anchors = [t for t in meta.get("anchors", []) if isinstance(t, str)]
            fetched = meta.get("fetched_at")
            pages.append(FetchedPage(url, site, text, anchors, fetched if isinstance(fetched, str) else ""))
        return pages

    def delete(self, site: str, urls: Iterable[str]) -> int:
        urls = list(urls)
        if not urls:
            return 0
        k = self.keys
        return int(self._delete(keys=[k.buf_html(site), k.buf_meta(site), k.buf_order(site), k.buf_sites, site],
                                args=urls))

    def close(self) -> None:
        pass  # the connection is shared by the process


def _meta(raw: bytes | str | None) -> dict[str, Any]:
    try:
        value = json.loads(raw or "{}")
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


class RedisLinkInfo:
    """Anchor texts per target URL, each with the order in which it was first seen."""

    _ADD = """
    local p, site, n = ARGV[1], ARGV[2], (#ARGV - 3) / 2
    local seq = redis.call('INCRBY', p .. ':li:seq', n)
    redis.call('SADD', p .. ':li:sites', site)
    for i = 0, n - 1 do
        local url, text = ARGV[4 + 2 * i], ARGV[5 + 2 * i]
        redis.call('ZADD', p .. ':li:a:' .. url, 'NX', seq - n + i + 1, text)
        redis.call('ZADD', p .. ':li:s:' .. url, 'NX', seq - n + i + 1, cjson.encode({ARGV[3], text}))
        redis.call('SADD', p .. ':li:urls:' .. site, url)
    end
    return n
    """

    def __init__(self, redis: Any, keys: Keys):
        self.redis = redis
        self.keys = keys
        self._add = redis.register_script(self._ADD)

    def add(self, site: str, source: str, links: Iterable[tuple[str, str]]) -> int:
        args: list[str] = [self.keys.prefix, site, source]
        for url, text in links:
            text = clean_anchor_text(text)
            if text:
                args += [url, text]
        n = (len(args) - 3) // 2
        if n:
            self._add(keys=[], args=args)
        return n

    def anchors(self, urls: str | Sequence[str]) -> list[str]:
        if isinstance(urls, str):
            urls = [urls]
        pipe = self.redis.pipeline(transaction=False)
        for url in urls:
            pipe.zrange(self.keys.li_anchors(url), 0, -1, withscores=True)
        first: dict[str, float] = {}
        for found in pipe.execute() if urls else []:
            for text, score in found:
                t = _text(text)
                first[t] = min(score, first.get(t, score))
        return sorted(first, key=lambda t: first[t])

    def sources(self, url: str) -> list[tuple[str, str]]:
        out = []
        for raw in self.redis.zrange(self.keys.li_sources(url), 0, -1):
            source, text = json.loads(raw)
            out.append((source, text))
        return out

    def sites(self) -> list[str]:
        return sorted(_text(s) for s in self.redis.smembers(self.keys.li_sites))

    def export_jsonl(self, site: str, path: str | os.PathLike[str]) -> int:
        urls = sorted(_text(u) for u in self.redis.smembers(self.keys.li_urls(site)))
        n = 0
        with open(path, "w", encoding="utf-8") as fh:
            for url in urls:
                texts = self.anchors(url)
                if texts:
                    fh.write(json.dumps({"url": url, "anchors": texts}, ensure_ascii=False) + "\n")
                    n += 1
        return n

    def close(self) -> None:
        pass


class RedisPatterns:
    """The pattern files of every site (their JSON), each with a version that grows on change."""

    def __init__(self, redis: Any, keys: Keys):
        self.redis = redis
        self.keys = keys
        self._seen: dict[str, int] = {}

    def load(self) -> dict[str, tuple[SitePatterns, int]]:
        versions = {_text(s): int(v) for s, v in self.redis.hgetall(self.keys.pattern_versions).items()}
        return self._fetch(versions)

    def _fetch(self, versions: dict[str, int]) -> dict[str, tuple[SitePatterns, int]]:
        sites = sorted(versions)
        out: dict[str, tuple[SitePatterns, int]] = {}
        for site, raw in zip(sites, self.redis.hmget(self.keys.patterns, sites) if sites else []):
            self._seen[site] = versions[site]
            if raw is None:
                continue
            try:
                sp = SitePatterns.from_dict(json.loads(raw))
            except (ValueError, PatternFileError) as exc:
                log.error("newsstemmer: ignoring the patterns of %s in Redis: %s", site, exc)
                continue
            out[site] = (sp, versions[site])
        return out

    def publish(self, site: str, patterns: SitePatterns) -> int:
        pipe = self.redis.pipeline(transaction=True)
        pipe.hset(self.keys.patterns, site, patterns.to_json())
        pipe.hincrby(self.keys.pattern_versions, site, 1)
        version = int(pipe.execute()[1])
        self._seen[site] = version
        return version

    def offer(self, site: str, patterns: SitePatterns) -> bool:
        """Publish a worker's local pattern file unless Redis has the site already."""
        if not self.redis.hsetnx(self.keys.patterns, site, patterns.to_json()):
            return False
        self.redis.hincrby(self.keys.pattern_versions, site, 1)
        return True

    def changed(self) -> dict[str, tuple[SitePatterns, int]]:
        versions = {_text(s): int(v) for s, v in self.redis.hgetall(self.keys.pattern_versions).items()}
        return self._fetch({s: v for s, v in versions.items() if self._seen.get(s) != v})


class RedisEmits:
    """Emit claims: the first worker to claim an article emits it; a claim is ``+`` once in a
    feed, else the claiming worker's id (released if that worker dies, see :mod:`.redis_worker`)."""

    _CLAIM = """
    if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 1 then
        redis.call('SADD', KEYS[2], ARGV[1])
        return 1
    end
    return 0
    """
    _RELEASE = """
    if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then redis.call('HDEL', KEYS[1], ARGV[1]) end
    redis.call('SREM', KEYS[2], ARGV[1])
    return 0
    """

    def __init__(self, redis: Any, keys: Keys, worker: str):
        self.redis = redis
        self.keys = keys
        self.worker = worker
        self._claim = redis.register_script(self._CLAIM)
        self._release = redis.register_script(self._RELEASE)

    def claim(self, key: str) -> bool:
        return bool(self._claim(keys=[self.keys.emitted, self.keys.claims(self.worker)], args=[key, self.worker]))

    def confirm(self, key: str) -> None:
        pipe = self.redis.pipeline(transaction=True)
        pipe.hset(self.keys.emitted, key, "+")
        pipe.srem(self.keys.claims(self.worker), key)
        pipe.execute()

    def release(self, key: str) -> None:
        self._release(keys=[self.keys.emitted, self.keys.claims(self.worker)], args=[key, self.worker])


class RedisLeases:
    """Site leases: ``SET NX PX`` with this worker's id, renewed with its heartbeat."""

    _ACQUIRE = """
    local v = redis.call('GET', KEYS[1])
    if v == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
    if not v then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 end
    return 0
    """
    _RELEASE = """
    if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
    return 0
    """

    def __init__(self, redis: Any, keys: Keys, worker: str, timeout: float):
        self.redis = redis
        self.keys = keys
        self.worker = worker
        self.ms = int(timeout * 1000)
        self._held: dict[str, float] = {}  # site -> when last confirmed
        self._acquire = redis.register_script(self._ACQUIRE)
        self._release = redis.register_script(self._RELEASE)

    def acquire(self, site: str) -> bool:
        last = self._held.get(site)
        if last is not None and time.monotonic() - last < self.ms / 4000:
            return True  # confirmed a quarter of the lease time ago: still ours
        if self._acquire(keys=[self.keys.lease(site)], args=[self.worker, self.ms]):
            self._held[site] = time.monotonic()
            return True
        self._held.pop(site, None)
        return False

    def holder(self, site: str) -> str | None:
        value = self.redis.get(self.keys.lease(site))
        return None if value is None else _text(value)

    def held(self) -> set[str]:
        return set(self._held)

    def renew(self) -> list[str]:
        """Extend every lease held; returns the sites whose lease was lost (expired, taken)."""
        lost = [site for site in list(self._held) if not self.acquire_now(site)]
        return lost

    def acquire_now(self, site: str) -> bool:
        self._held.pop(site, None)
        return self.acquire(site)

    def release_all(self) -> None:
        for site in list(self._held):
            self._release(keys=[self.keys.lease(site)], args=[self.worker])
        self._held.clear()
