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
``finished:*``              a finished crawl, by its marker (for a worker     expires after a day
                            taken for dead: :mod:`.redis_worker`)
``hist:b:*``                per article sent in the last ``KEEP_TEXT_DAYS``:  ``NEWSSTEMMER_KEEP_TEXT_DAYS`` after the
                            one packed record: hash, version, dates, change   article was last sent (the time is in the
                            sketch, a field of one of 256 hashes by the key's record); then archived
                            digest (~0.47 KB); ``hist:a:*``: the same in the
                            older formats, a key each (~0.58 KB)
``hist:site:*``             a site's latest sent articles (drift checks)      ``NEWSSTEMMER_DRIFT_SAMPLE`` a site
``hist:old:*``,             archived articles: 64 bits of the SHA-1 of the    one field (~15 bytes) per article, kept:
``fl:old:*``                key (URL) -> day, in 4,096 hashes                 an old article must stay known
``li:a:*``, ``li:s:*``      anchor texts of a URL; (source, text) pairs       ``NEWSSTEMMER_KEEP_ANCHORS`` per URL (2 once
                                                                              the URL is an article, none once archived
                                                                              or sent and not among its site's
                                                                              ``NEWSSTEMMER_DRIFT_SAMPLE`` latest)
``fl:*``                    validators and check times per URL                articles not checked for ``KEEP_TEXT_DAYS``
                                                                              archived; such records of non-articles
                                                                              dropped; articles past the re-check
                                                                              window compacted into ``fl:w:*``
``fl:w:*``                  articles past ``NEWSSTEMMER_RECHECK_WINDOW``:     archived once not checked for
                            check times, sitemap/feed and published dates,    ``KEEP_TEXT_DAYS``
                            one field (~70 B) in one of 256 hashes
``buf:*``, ``patterns*``    pages waiting for layouts; the sites' patterns    a page leaves once sent; one file per site
==========================  ================================================  ============================================

Archiving an article removes everything of it (its ``hist:b:`` field or ``hist:a:`` key,
``fl:``, ``li:a:``, ``li:s:`` and its entries in the per-site sets and indexes): what stays
is one field in a bucket hash, ~15 bytes.  As with SQLite (:mod:`.retention`), an archived
article is never fetched or sent again and its later edits are not sent as updates.
Records of the oldest format (hashes, session 15 and before) are archived through
``hist:texts``, their index by emission time; packed records by the time they hold (every
field of the ``hist:b:*`` buckets; the older strings through a SCAN of ``hist:a:*``, as the
fetch records are).  Articles sent before any pruning existed are in neither and are archived
by their fetch records only.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import Any

from .redis_keys import Keys
from .redis_monitor import ARCHIVE_FILL
from .retention import SENT_ANCHORS, Retention

__all__ = ["KeyFamily", "redis_census", "redis_prune", "texts_index"]

#: Keys measured with ``MEMORY USAGE`` per family; a larger family is extrapolated from them.
SAMPLE = 200

#: Variable parts of key names, replaced by ``*`` to name the family (after the prefix).
_FAMILIES = [
    (re.compile(r"^(run:inflight|run:claims|alive|lease|finished|hist:site|hist:old|fl:articles|fl:old|fl:w|li:urls|li:a|li:s|hist:a|hist:b):.*$"),
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


#: Lua: archiving a key or URL by its SHA-1 ``d`` (hex) with its day, where ``redis_monitor.archive_slots``
#: looks: the field of its 4,096-bucket slot if it is there, else its 256-bucket slot while that
#: bucket holds fewer than ``ARCHIVE_FILL`` fields, else the 4,096-bucket slot; whether it is archived;
#: and dropping a URL's anchors.
_LUA_LIB = """
local function archive(kind, d, day)
    local head = ARGV[1] .. ':' .. kind .. ':old:'
    local big, big_field = head .. string.sub(d, 1, 3), string.sub(d, 4, 16)
    local small, small_field = head .. string.sub(d, 1, 2), string.sub(d, 3, 16)
    if redis.call('HEXISTS', big, big_field) == 1
            or (redis.call('HEXISTS', small, small_field) == 0 and redis.call('HLEN', small) >= FILL) then
        redis.call('HSET', big, big_field, day)
    else
        redis.call('HSET', small, small_field, day)
    end
end
local function is_archived(kind, d)
    local head = ARGV[1] .. ':' .. kind .. ':old:'
    return redis.call('HEXISTS', head .. string.sub(d, 1, 2), string.sub(d, 3, 16)) == 1
        or redis.call('HEXISTS', head .. string.sub(d, 1, 3), string.sub(d, 4, 16)) == 1
end
local function drop_anchors(site, url)
    redis.call('DEL', ARGV[1] .. ':li:a:' .. url, ARGV[1] .. ':li:s:' .. url)
    if site then redis.call('SREM', ARGV[1] .. ':li:urls:' .. site, url) end
end
""".replace("FILL", str(ARCHIVE_FILL))

#: Fetch records (ARGV[4..]) with nothing pending: not checked since ARGV[2], a non-article's
#: dropped (unless a feed gave its date), an article's archived (every key of it dropped); an
#: article first checked before ARGV[3] (past its re-check window; '' for no window) compacted to
#: its first and last check and its sitemap/feed and published dates in ``fl:w:*`` (256 hashes:
#: ~70 bytes an article in Redis's compact encoding up to ~130,000 such articles, instead of a
#: hash of ~350 with its key; validators dropped: past the window it is fetched again only
#: when a sitemap or feed date says it changed).
_FORGET = _LUA_LIB + """
local removed = 0
local window = tonumber(ARGV[3])
for i = 4, #ARGV do
    local r = redis.call('HMGET', ARGV[i], 'article', 'p_at', 'published', 'checked', 'site', 'first', 'hint')
    local url = string.sub(ARGV[i], #ARGV[1] + 5)
    if not r[2] and tonumber(r[4] or '0') < tonumber(ARGV[2]) then
        if r[1] == '1' then
            local d = redis.sha1hex(url)
            archive('fl', d, math.floor(tonumber(r[4] or '0') / 86400))
            redis.call('HDEL', ARGV[1] .. ':fl:w:' .. string.sub(d, 1, 2), string.sub(d, 3, 16))
            drop_anchors(r[5], url)
            removed = removed + redis.call('DEL', ARGV[i])
        elseif not r[3] then
            removed = removed + redis.call('DEL', ARGV[i])
        end
    elseif not r[2] and r[1] == '1' and window and r[4] and tonumber(r[6] or r[4]) < window then
        local d = redis.sha1hex(url)
        local times = {math.floor(tonumber(r[6] or r[4])), math.floor(tonumber(r[4]))}
        redis.call('HSET', ARGV[1] .. ':fl:w:' .. string.sub(d, 1, 2), string.sub(d, 3, 16),
                   table.concat({tostring(times[1]), tostring(times[2]), r[7] or '', r[3] or ''}, '\\0'))
        redis.call('DEL', ARGV[i])
    end
end
return removed
"""

#: Compact fetch records (buckets ARGV[3..]) not checked since ARGV[2]: archived.
_FORGET_COMPACT = _LUA_LIB + """
local removed = 0
for i = 3, #ARGV do
    local all = redis.call('HGETALL', ARGV[i])
    local head = string.sub(ARGV[i], #ARGV[1] + 7)
    for j = 1, #all, 2 do
        local v = all[j + 1]
        local e = string.find(v, '\\0', 1, true)
        local f = e and string.find(v, '\\0', e + 1, true)
        local checked = tonumber(e and string.sub(v, e + 1, (f or 0) - 1) or '0') or 0
        if checked < tonumber(ARGV[2]) then
            archive('fl', head .. all[j], math.floor(checked / 86400))
            redis.call('HDEL', ARGV[i], all[j])
            removed = removed + 1
        end
    end
end
return removed
"""

#: Articles (ARGV[4..]) sent before ARGV[2] (seconds): archived.  ARGV[3] ``index``: pairs (key, day
#: last sent) from ``hist:texts`` (hashes of the older format; a key stored since in the packed
#: format leaves the index and is judged by its own time); ``scan``: keys found by SCAN (packed
#: records: the time is their fourth NUL-ended field; hashes are left to the index).
_ARCHIVE = _LUA_LIB + """
local function fields(v, n)
    local out, pos = {}, 1
    for i = 1, n do
        local e = string.find(v, '\\0', pos, true)
        if not e then return nil end
        out[i] = string.sub(v, pos, e - 1)
        pos = e + 1
    end
    return out
end
local p, cutoff, index, removed = ARGV[1], tonumber(ARGV[2]), ARGV[3] == 'index', 0
local step = index and 2 or 1
for i = 4, #ARGV, step do
    local key = ARGV[i]
    local h = p .. ':hist:a:' .. key
    local t = redis.call('TYPE', h).ok
    local site, url, day = nil, nil, nil
    if t == 'hash' and index then
        local r = redis.call('HMGET', h, 'site', 'url')
        site, url, day = r[1], r[2], ARGV[i + 1]
    elseif t == 'string' then
        local f = fields(redis.call('GET', h), 4)
        if f and f[1] == '2' and tonumber(f[4]) < cutoff then
            site, day = f[2], math.floor(tonumber(f[4]) / 86400)
            if f[3] ~= '' then url = f[3] end
            redis.call('HINCRBY', p .. ':hist:n', site, -1)
        end
    end
    if index then redis.call('ZREM', p .. ':hist:texts', key) end
    if day then
        archive('hist', redis.sha1hex(key), day)
        if site then redis.call('ZREM', p .. ':hist:site:' .. site, key) end
        drop_anchors(site, key)
        if url and url ~= key then drop_anchors(site, url) end
        removed = removed + redis.call('DEL', h)
    end
end
return removed
"""

#: Sent records in their buckets (ARGV[3..], 2 hex digits each) sent before ARGV[2] (seconds): archived
#: (the anchors of their keys go with the trim that follows, which finds them archived).
_ARCHIVE_BUCKETS = _LUA_LIB + """
local p, cutoff, removed = ARGV[1], tonumber(ARGV[2]), 0
for i = 3, #ARGV do
    local bucket = p .. ':hist:b:' .. ARGV[i]
    local all = redis.call('HGETALL', bucket)
    for j = 1, #all, 2 do
        local v = all[j + 1]
        local f, pos = {}, 1
        for k = 1, 4 do
            local e = string.find(v, '\\0', pos, true)
            if not e then break end
            f[k] = string.sub(v, pos, e - 1)
            pos = e + 1
        end
        if f[1] == '2' and f[4] and tonumber(f[4]) < cutoff then
            archive('hist', ARGV[i] .. all[j], math.floor(tonumber(f[4]) / 86400))
            redis.call('HINCRBY', p .. ':hist:n', f[2], -1)
            if f[3] ~= '' then drop_anchors(f[2], f[3]) end
            redis.call('HDEL', bucket, all[j])
            removed = removed + 1
        end
    end
end
return removed
"""

#: A site's latest sent (ARGV[2..], of the zset KEYS[1]) whose record is gone (archived): out of the zset.
_UNLIST = """
local removed = 0
for i = 2, #ARGV do
    local d = redis.sha1hex(ARGV[i])
    if redis.call('HEXISTS', ARGV[1] .. ':hist:b:' .. string.sub(d, 1, 2), string.sub(d, 3, 16)) == 0
            and redis.call('EXISTS', ARGV[1] .. ':hist:a:' .. ARGV[i]) == 0 then
        removed = removed + redis.call('ZREM', KEYS[1], ARGV[i])
    end
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
    local rank = redis.call('ZREVRANK', p .. ':hist:site:' .. site, url)
    local d = redis.sha1hex(url)
    local sent = redis.call('HEXISTS', p .. ':hist:b:' .. string.sub(d, 1, 2), string.sub(d, 3, 16)) == 1
        or redis.call('EXISTS', p .. ':hist:a:' .. url) == 1
    if is_archived('hist', d) or is_archived('fl', d) or (sent and not (rank and rank < latest)) then
        removed = removed + redis.call('ZCARD', p .. ':li:a:' .. url)
        drop_anchors(site, url)
    else
        local n = keep
        if redis.call('HGET', p .. ':fl:' .. url, 'article') == '1' then n = keep_sent end
        removed = removed + redis.call('ZREMRANGEBYRANK', p .. ':li:a:' .. url, n, -1)
        redis.call('ZREMRANGEBYRANK', p .. ':li:s:' .. url, n, -1)
    end
end
return removed
"""


def redis_prune(redis: Any, keys: Keys, retention: Retention | None = None, now: float | None = None,
                batch: int = 500) -> dict[str, int]:
    """Drop what ``retention`` does not keep (see the module docstring); returns what was dropped
    per family (``hist:*``: articles archived; ``li:a:*``: anchor texts; ``fl:*``: fetch records
    dropped or archived)."""
    keep = retention or Retention()
    now = time.time() if now is None else now
    cutoff = now - keep.keep_text_days * 86400
    archived = 0
    index = texts_index(keys)
    archive = redis.register_script(_ARCHIVE)
    while True:  # records of the older format (hashes), indexed by emission time
        old = redis.zrangebyscore(index, "-inf", cutoff, start=0, num=batch, withscores=True)
        if not old:
            break
        args: list[Any] = [keys.prefix, cutoff, "index"]
        for key, when in old:
            args += [key, int(when // 86400)]
        archived += int(archive(keys=[], args=args))
        redis.zrem(index, *[key for key, _ in old])  # (a key without its hash: gone all the same)
    start = len(keys.prefix) + len(":hist:a:")
    found: list[Any] = []
    for name in redis.scan_iter(match=f"{keys.prefix}:hist:a:*", count=1000):  # packed records: their own time
        found.append(name[start:])
        if len(found) >= batch:
            archived += int(archive(keys=[], args=[keys.prefix, cutoff, "scan", *found]))
            found = []
    if found:
        archived += int(archive(keys=[], args=[keys.prefix, cutoff, "scan", *found]))
    archive_buckets = redis.register_script(_ARCHIVE_BUCKETS)  # the records by digest: their own time
    buckets = [f"{b:02x}" for b in range(256)]
    for start in range(0, len(buckets), 16):
        archived += int(archive_buckets(keys=[], args=[keys.prefix, cutoff, *buckets[start:start + 16]]))
    unlist = redis.register_script(_UNLIST)
    for raw_site in redis.smembers(f"{keys.prefix}:hist:sites"):  # each site's latest sent, for drift checks
        site = raw_site.decode("utf-8") if isinstance(raw_site, bytes) else raw_site
        latest = f"{keys.prefix}:hist:site:{site}"
        redis.zremrangebyrank(latest, 0, -keep.sent_anchored - 1)
        members = redis.zrange(latest, 0, -1)
        if members:  # (archived from their buckets above, where their keys are not known)
            unlist(keys=[latest], args=[keys.prefix, *members])
    stale = list(redis.scan_iter(match=f"{keys.prefix}:fl:articles:*", count=1000))
    if stale:  # (per-site sets of article URLs, kept before fetch log format 2)
        redis.delete(*stale)
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
    window = "" if keep.recheck_window_days is None else now - keep.recheck_window_days * 86400
    records = 0
    names: list[Any] = []
    buckets: list[Any] = []
    compact = f"{keys.prefix}:fl:w:".encode()
    sets = (f"{keys.prefix}:fl:articles:".encode(), f"{keys.prefix}:fl:old:".encode(), compact)
    for name in redis.scan_iter(match=f"{keys.prefix}:fl:*", count=1000):
        if name.startswith(compact):
            buckets.append(name)
        elif not name.startswith(sets):
            names.append(name)
        if len(names) >= batch:
            records += int(forget(keys=[], args=[keys.prefix, cutoff, window, *names]))
            names = []
    if names:
        records += int(forget(keys=[], args=[keys.prefix, cutoff, window, *names]))
    forget_compact = redis.register_script(_FORGET_COMPACT)
    for start in range(0, len(buckets), 100):
        records += int(forget_compact(keys=[], args=[keys.prefix, cutoff, *buckets[start:start + 100]]))
    return {"hist:*": archived, "li:a:*": anchors, "fl:*": records}
