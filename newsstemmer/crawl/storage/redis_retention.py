"""What a shared crawl keeps in Redis, key family by key family, and the pruning that bounds it.

The twin of :mod:`.retention` for ``NEWSSTEMMER_REDIS_URL``.  :func:`redis_census` groups
the keys of one prefix into families (``P:fl:URL`` → ``fl:*``) with their count, memory
(``MEMORY USAGE``, measured on a sample of each large family) and expiry; :func:`redis_prune`
drops what the ``NEWSSTEMMER_KEEP_*`` settings do not keep:

==========================  ================================================  ============================================
family                      keeps                                             bounded by
==========================  ================================================  ============================================
``run:*``, ``news:*``       the running crawl's queue, seen filter, counts,   cleared by the last worker of a finished
                            emit claims, requests in flight                   crawl (:mod:`.redis_worker`)
``alive:*``, ``lease:*``    heartbeats, site leases                           expire (``NEWSSTEMMER_WORKER_TIMEOUT``)
``hist:a:*``                per sent article: hash, version, dates; its last  texts dropped ``NEWSSTEMMER_KEEP_TEXT_DAYS``
                            body and page text (zlib)                         after the article was last sent
``li:a:*``, ``li:s:*``      anchor texts of a URL; (source, text) pairs       ``NEWSSTEMMER_KEEP_ANCHORS`` per URL (2 once
                                                                              the URL is recorded as an article)
``fl:*``                    validators and check times per URL                records of non-articles not checked for
                                                                              ``NEWSSTEMMER_KEEP_TEXT_DAYS`` are dropped
``buf:*``, ``patterns*``    pages waiting for layouts; the sites' patterns    a page leaves once sent; one file per site
==========================  ================================================  ============================================

Articles sent before this pruning existed are not in ``hist:texts`` (the texts' index by
emission time) and keep their texts until they are sent again.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import Any

from .redis_keys import Keys
from .retention import SENT_ANCHORS, Retention

__all__ = ["KeyFamily", "redis_census", "redis_prune", "texts_index"]

#: Keys measured with ``MEMORY USAGE`` per family; a larger family is extrapolated from them.
SAMPLE = 200

#: Variable parts of key names, replaced by ``*`` to name the family (after the prefix).
_FAMILIES = [
    (re.compile(r"^(run:inflight|run:claims|alive|lease|hist:site|fl:articles|li:urls|li:a|li:s|hist:a):.*$"), r"\1:*"),
    (re.compile(r"^buf:.+:(order|html|meta)$"), r"buf:*:\1"),
]


def texts_index(keys: Keys) -> str:
    """The zset of articles whose texts are kept, by emission time (pruned by :func:`redis_prune`)."""
    return f"{keys.prefix}:hist:texts"


def family_of(name: str, prefix: str) -> str:
    """``P:fl:http://…`` → ``fl:*``: the family of a key (without the prefix)."""
    rest = name[len(prefix) + 1:] if name.startswith(prefix + ":") else name
    for pattern, replacement in _FAMILIES:
        if pattern.match(rest):
            return pattern.sub(replacement, rest)
    if rest.startswith("fl:"):  # fl:URL (after fl:articles:*)
        return "fl:*"
    return rest


@dataclass
class KeyFamily:
    """Keys of one family: how many, their memory in bytes, how many expire, and the longest expiry."""

    name: str
    keys: int = 0
    bytes: int = 0
    expiring: int = 0
    max_ttl_s: float | None = None
    sampled: list[str] = field(default_factory=list, repr=False)

    def as_dict(self) -> dict[str, Any]:
        return {"family": self.name, "keys": self.keys, "bytes": self.bytes, "expiring": self.expiring,
                "max_ttl_s": self.max_ttl_s}


def redis_census(redis: Any, keys: Keys) -> list[KeyFamily]:
    """Every key family of the prefix, largest first (read only)."""
    families: dict[str, KeyFamily] = {}
    for raw in redis.scan_iter(match=f"{keys.prefix}:*", count=1000):
        name = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(raw)
        fam = families.setdefault(family_of(name, keys.prefix), KeyFamily(family_of(name, keys.prefix)))
        fam.keys += 1
        if len(fam.sampled) < SAMPLE:
            fam.sampled.append(name)
    for fam in families.values():
        pipe = redis.pipeline(transaction=False)
        for name in fam.sampled:
            pipe.memory_usage(name, samples=0)
            pipe.pttl(name)
        got = pipe.execute()
        sizes = [int(x or 0) for x in got[0::2]]
        ttls = [int(x) for x in got[1::2] if x is not None and int(x) >= 0]
        fam.bytes = round(sum(sizes) * fam.keys / len(sizes)) if sizes else 0
        fam.expiring = round(len(ttls) * fam.keys / len(sizes)) if sizes else 0
        fam.max_ttl_s = max(ttls) / 1000 if ttls else None
    return sorted(families.values(), key=lambda f: -f.bytes)


#: Drop fetch records of non-articles with nothing pending, no feed date, not checked since ARGV[1].
_FORGET = """
local removed = 0
for i = 2, #ARGV do
    local r = redis.call('HMGET', ARGV[i], 'article', 'p_at', 'published', 'checked')
    if r[1] ~= '1' and not r[2] and not r[3] and tonumber(r[4] or '0') < tonumber(ARGV[1]) then
        removed = removed + redis.call('DEL', ARGV[i])
    end
end
return removed
"""

_TRIM = """
local p, keep_sent, keep = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local site, removed = ARGV[4], 0
for i = 5, #ARGV do
    local url = ARGV[i]
    local n = keep
    if redis.call('SISMEMBER', p .. ':fl:articles:' .. site, url) == 1 then n = keep_sent end
    removed = removed + redis.call('ZREMRANGEBYRANK', p .. ':li:a:' .. url, n, -1)
    redis.call('ZREMRANGEBYRANK', p .. ':li:s:' .. url, n, -1)
end
return removed
"""


def redis_prune(redis: Any, keys: Keys, retention: Retention | None = None, now: float | None = None,
                batch: int = 500) -> dict[str, int]:
    """Drop what ``retention`` does not keep (see the module docstring); returns what was dropped
    per family (``hist:a:*``: articles whose texts were dropped; ``li:a:*``: anchor texts; ``fl:*``: fetch
    records)."""
    keep = retention or Retention()
    now = time.time() if now is None else now
    cutoff = now - keep.keep_text_days * 86400
    texts = 0
    index = texts_index(keys)
    while True:
        old = redis.zrangebyscore(index, "-inf", cutoff, start=0, num=batch)
        if not old:
            break
        pipe = redis.pipeline(transaction=False)
        for key in old:
            k = key.decode("utf-8") if isinstance(key, bytes) else key
            pipe.hdel(f"{keys.prefix}:hist:a:{k}", "body", "page_text")
        pipe.zrem(index, *old)
        pipe.execute()
        texts += len(old)
    trim = redis.register_script(_TRIM)
    anchors = 0
    for raw_site in redis.smembers(keys.li_sites):
        site = raw_site.decode("utf-8") if isinstance(raw_site, bytes) else raw_site
        urls: list[Any] = []
        for url in redis.sscan_iter(keys.li_urls(site), count=1000):
            urls.append(url)
            if len(urls) >= batch:
                anchors += int(trim(keys=[], args=[keys.prefix, SENT_ANCHORS, keep.keep_anchors, site, *urls]))
                urls = []
        if urls:
            anchors += int(trim(keys=[], args=[keys.prefix, SENT_ANCHORS, keep.keep_anchors, site, *urls]))
    forget = redis.register_script(_FORGET)
    records = 0
    names: list[Any] = []
    articles = f"{keys.prefix}:fl:articles:".encode()
    for name in redis.scan_iter(match=f"{keys.prefix}:fl:*", count=1000):
        if not name.startswith(articles):
            names.append(name)
        if len(names) >= batch:
            records += int(forget(keys=[], args=[cutoff, *names]))
            names = []
    if names:
        records += int(forget(keys=[], args=[cutoff, *names]))
    return {"hist:a:*": texts, "li:a:*": anchors, "fl:*": records}
