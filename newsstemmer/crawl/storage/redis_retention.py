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
``hist:a:*``                per article sent in the last ``KEEP_TEXT_DAYS``:  ``NEWSSTEMMER_KEEP_TEXT_DAYS`` after the
                            hash, version, dates, change sketch (≤ 395 B)     article was last sent; then archived
``hist:old:*``,             archived articles: 64 bits of the SHA-1 of the    one field (~15 bytes) per article, kept:
``fl:old:*``                key (URL) -> day, in 4,096 hashes                 an old article must stay known
``li:a:*``, ``li:s:*``      anchor texts of a URL; (source, text) pairs       ``NEWSSTEMMER_KEEP_ANCHORS`` per URL (2 once
                                                                              the URL is an article, none once archived
                                                                              or sent and not among its site's
                                                                              ``NEWSSTEMMER_DRIFT_SAMPLE`` latest)
``fl:*``                    validators and check times per URL                articles not checked for ``KEEP_TEXT_DAYS``
                                                                              archived; such records of non-articles
                                                                              dropped
``buf:*``, ``patterns*``    pages waiting for layouts; the sites' patterns    a page leaves once sent; one file per site
==========================  ================================================  ============================================

Archiving an article removes every key of it (``hist:a:``, ``fl:``, ``li:a:``, ``li:s:``
and its entries in the per-site sets and indexes): what stays is one field in a bucket
hash, ~15 bytes.  As with SQLite (:mod:`.retention`), an archived article is never fetched
or sent again and its later edits are not sent as updates.  Articles sent before this
pruning existed are not in ``hist:texts`` (the texts' index by emission time) and are
archived by their fetch records only.
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
    (re.compile(r"^(run:inflight|run:claims|alive|lease|hist:site|hist:old|fl:articles|fl:old|li:urls|li:a|li:s|hist:a):.*$"),
     r"\1:*"),
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


#: Lua: where an archived key or URL goes (``redis_monitor.archive_slot``), and dropping a URL's anchors.
_LUA_LIB = """
local function slot(kind, text)
    local d = redis.sha1hex(text)
    return ARGV[1] .. ':' .. kind .. ':old:' .. string.sub(d, 1, 3), string.sub(d, 4, 16)
end
local function drop_anchors(site, url)
    redis.call('DEL', ARGV[1] .. ':li:a:' .. url, ARGV[1] .. ':li:s:' .. url)
    if site then redis.call('SREM', ARGV[1] .. ':li:urls:' .. site, url) end
end
"""

#: Fetch records (ARGV[3..]) with nothing pending, not checked since ARGV[2]: a non-article's
#: dropped (unless a feed gave its date), an article's archived (every key of it dropped).
_FORGET = _LUA_LIB + """
local removed = 0
for i = 3, #ARGV do
    local r = redis.call('HMGET', ARGV[i], 'article', 'p_at', 'published', 'checked', 'site')
    if not r[2] and tonumber(r[4] or '0') < tonumber(ARGV[2]) then
        local url = string.sub(ARGV[i], #ARGV[1] + 5)
        if r[1] == '1' then
            local bucket, field = slot('fl', url)
            redis.call('HSET', bucket, field, math.floor(tonumber(r[4] or '0') / 86400))
            if r[5] then redis.call('SREM', ARGV[1] .. ':fl:articles:' .. r[5], url) end
            drop_anchors(r[5], url)
            removed = removed + redis.call('DEL', ARGV[i])
        elseif not r[3] then
            removed = removed + redis.call('DEL', ARGV[i])
        end
    end
end
return removed
"""

#: Articles (ARGV[3..] pairs: key, day last sent) whose texts' time is over: archived.
_ARCHIVE = _LUA_LIB + """
local removed = 0
for i = 3, #ARGV, 2 do
    local key = ARGV[i]
    local h = ARGV[1] .. ':hist:a:' .. key
    local r = redis.call('HMGET', h, 'site', 'url')
    local bucket, field = slot('hist', key)
    redis.call('HSET', bucket, field, ARGV[i + 1])
    redis.call('ZREM', ARGV[1] .. ':hist:texts', key)
    if r[1] then redis.call('ZREM', ARGV[1] .. ':hist:site:' .. r[1], key) end
    drop_anchors(r[1], key)
    if r[2] and r[2] ~= key then drop_anchors(r[1], r[2]) end
    removed = removed + redis.call('DEL', h)
end
return removed
"""

#: Anchors of a site's URLs (ARGV[6..]): none for archived ones nor for sent ones past the site's
#: ARGV[5] latest, else the first ARGV[3] (ARGV[2] for articles).
_TRIM = _LUA_LIB + """
local p, keep_sent, keep = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local site, latest, removed = ARGV[4], tonumber(ARGV[5]), 0
for i = 6, #ARGV do
    local url = ARGV[i]
    local hb, hf = slot('hist', url)
    local fb, ff = slot('fl', url)
    local rank = redis.call('ZREVRANK', p .. ':hist:site:' .. site, url)
    if redis.call('HEXISTS', hb, hf) == 1 or redis.call('HEXISTS', fb, ff) == 1 or (rank and rank >= latest) then
        removed = removed + redis.call('ZCARD', p .. ':li:a:' .. url)
        drop_anchors(site, url)
    else
        local n = keep
        if redis.call('SISMEMBER', p .. ':fl:articles:' .. site, url) == 1 then n = keep_sent end
        removed = removed + redis.call('ZREMRANGEBYRANK', p .. ':li:a:' .. url, n, -1)
        redis.call('ZREMRANGEBYRANK', p .. ':li:s:' .. url, n, -1)
    end
end
return removed
"""


def redis_prune(redis: Any, keys: Keys, retention: Retention | None = None, now: float | None = None,
                batch: int = 500) -> dict[str, int]:
    """Drop what ``retention`` does not keep (see the module docstring); returns what was dropped
    per family (``hist:a:*``: articles archived; ``li:a:*``: anchor texts; ``fl:*``: fetch records
    dropped or archived)."""
    keep = retention or Retention()
    now = time.time() if now is None else now
    cutoff = now - keep.keep_text_days * 86400
    archived = 0
    index = texts_index(keys)
    archive = redis.register_script(_ARCHIVE)
    while True:
        old = redis.zrangebyscore(index, "-inf", cutoff, start=0, num=batch, withscores=True)
        if not old:
            break
        args: list[Any] = [keys.prefix, ""]
        for key, when in old:
            args += [key, int(when // 86400)]
        archived += int(archive(keys=[], args=args))
        redis.zrem(index, *[key for key, _ in old])  # (a key without its hash: gone all the same)
    trim = redis.register_script(_TRIM)
    anchors = 0
    for raw_site in redis.smembers(keys.li_sites):
        site = raw_site.decode("utf-8") if isinstance(raw_site, bytes) else raw_site
        urls: list[Any] = []
        for url in redis.sscan_iter(keys.li_urls(site), count=1000):
            urls.append(url)
            if len(urls) >= batch:
                anchors += int(trim(keys=[], args=[keys.prefix, SENT_ANCHORS, keep.keep_anchors, site, keep.sent_anchored, *urls]))
                urls = []
        if urls:
            anchors += int(trim(keys=[], args=[keys.prefix, SENT_ANCHORS, keep.keep_anchors, site, keep.sent_anchored, *urls]))
    forget = redis.register_script(_FORGET)
    records = 0
    names: list[Any] = []
    sets = (f"{keys.prefix}:fl:articles:".encode(), f"{keys.prefix}:fl:old:".encode())
    for name in redis.scan_iter(match=f"{keys.prefix}:fl:*", count=1000):
        if not name.startswith(sets):
            names.append(name)
        if len(names) >= batch:
            records += int(forget(keys=[], args=[keys.prefix, cutoff, *names]))
            names = []
    if names:
        records += int(forget(keys=[], args=[keys.prefix, cutoff, *names]))
    return {"hist:a:*": archived, "li:a:*": anchors, "fl:*": records}
