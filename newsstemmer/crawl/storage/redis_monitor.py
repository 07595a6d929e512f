"""The stores of monitoring runs in Redis, shared by every worker: what earlier runs emitted
(:class:`RedisArticleHistory`, twin of :class:`~newsstemmer.crawl.storage.sqlite_history.ArticleHistory`)
and the per-URL fetch records (:class:`RedisFetchLog`, twin of
:class:`~newsstemmer.crawl.storage.sqlite_fetchlog.FetchLog`).

Keys (``P`` the prefix): ``P:hist:b:BB`` (256 hashes: one field per emitted article, 56 bits
of its canonical URL's SHA-1 (:func:`digest_slot`) -> its record packed by :func:`pack_record`:
site, URL where it is not the key, emission time, version, dates, content hash and the change
sketch of the version sent, :class:`~newsstemmer.crawl.changesketch.ChangeSketch`; a field
instead of a key of its own saves the key's URL and object, ~115 bytes an article; the older
records ``P:hist:a:KEY``, strings of the same packing and hashes with the sketch or the texts,
are read too, and replaced when the article is sent again), ``P:hist:site:SITE`` (zset: its latest keys scored by
the start of the run that sent them, ``P:run:started``, cut to ``NEWSSTEMMER_DRIFT_SAMPLE`` by pruning), ``P:hist:sites``, ``P:hist:n`` (hash:
site -> articles in the window); ``P:fl:URL`` (hash: validators, first and last check time,
pending record).  Not kept any more (history format 2, session 16): ``P:hist:texts`` (an index by
emission time: pruning now reads the time in the records; the older hashes are still in
it until archived) and ``P:fl:articles:SITE`` (dropped by pruning).  They outlive the runs, as the
SQLite files do.  Articles past the retention window are archived by
:func:`~.redis_retention.redis_prune` into ``P:hist:old:B`` and ``P:fl:old:B`` (hashes: a
digest of the key or URL -> the day, ~15 bytes an article; 256 buckets ``B`` filled first,
then 4,096: :func:`archive_slots`): known, never fetched or sent again.
"""

from __future__ import annotations

import hashlib
import struct
import time
from typing import Any

from ..items import utc_now
from .redis_keys import Keys
from .records import SKIP, Emitted, Plan, RecheckPolicy, decide, sketch_of_texts
from .sqlite_history import pack_hash, unpack_hash

__all__ = ["ARCHIVE_BUCKETS", "ARCHIVE_FILL", "RedisArticleHistory", "RedisFetchLog", "archive_slots", "digest_slot"]


def _s(value: Any) -> str | None:
    return None if value is None else value.decode("utf-8") if isinstance(value, bytes) else str(value)


#: Buckets of the archives: 256 hashes filled first, up to ``ARCHIVE_FILL`` digests each (~30,000
#: articles: a few buckets' fixed cost, ~110 bytes each, while the archive is small), then 4,096;
#: each below Redis's ``hash-max-listpack-entries`` (128) stays in the compact encoding up to
#: ~500,000 archived articles.
ARCHIVE_BUCKETS = 4096
ARCHIVE_FILL = 120


def digest_slot(text: str) -> tuple[str, str]:
    """Where a sent article's record (``hist:b:*``) or a compact fetch record (``fl:w:*``) of a key
    or URL is: its bucket (2 hex digits: 256 hashes) and field (the next 14 hex digits) of its
    SHA-1, as the pruning scripts (Lua's ``redis.sha1hex``) make them."""
    return archive_slots(text)[0]


def archive_slots(text: str) -> list[tuple[str, str]]:
    """Where an archived key or URL may be recorded (one of them: the pruning scripts'
    ``archive``): 64 bits of its SHA-1 as bucket and field, in the first 256 buckets (2 hex
    digits and 14: the same as :func:`digest_slot`) or in the 4,096 that take the rest (3 and 13)."""
    digest = hashlib.sha1(text.encode("utf-8")).hexdigest()
    return [(digest[:2], digest[2:16]), (digest[:3], digest[3:16])]


#: Lua: one article's record as ``{'s', packed}`` (in its bucket KEYS[1], field ARGV[1], or an older
#: string KEYS[2]), ``{'h', field, value, ...}`` (an older hash KEYS[2]), ``{'a'}`` (archived: KEYS[3]
#: and KEYS[4] the archive's buckets, ARGV[2] and ARGV[3] the fields) or ``{}``.
_READ = """
local v = redis.call('HGET', KEYS[1], ARGV[1])
if v then return {'s', v} end
local t = redis.call('TYPE', KEYS[2]).ok
if t == 'string' then return {'s', redis.call('GET', KEYS[2])} end
if t == 'hash' then
    local out = redis.call('HGETALL', KEYS[2])
    table.insert(out, 1, 'h')
    return out
end
if redis.call('HEXISTS', KEYS[3], ARGV[2]) == 1 or redis.call('HEXISTS', KEYS[4], ARGV[3]) == 1 then return {'a'} end
return {}
"""

#: Lua: store a packed record (bucket KEYS[1], field ARGV[6]) for key ARGV[2] of site ARGV[3] at time
#: ARGV[4], dropping its older key KEYS[2]; a new one (or one replacing an older hash, which was not
#: counted) counts in the site's ``hist:n`` count.
_PUT = """
local t = redis.call('TYPE', KEYS[2]).ok
local added = redis.call('HSET', KEYS[1], ARGV[6], ARGV[1])
if t ~= 'none' then redis.call('DEL', KEYS[2]) end
if added == 1 and t ~= 'string' then redis.call('HINCRBY', ARGV[5] .. ':hist:n', ARGV[3], 1) end
redis.call('ZADD', ARGV[5] .. ':hist:site:' .. ARGV[3], ARGV[4], ARGV[2])
redis.call('ZREM', ARGV[5] .. ':hist:texts', ARGV[2])
redis.call('SADD', ARGV[5] .. ':hist:sites', ARGV[3])
return 0
"""


def pack_record(record: Emitted, emitted: float) -> bytes:
    """An emitted article as one Redis string: ``2``, site, URL (empty when it is the key),
    emission time (whole seconds), version, first seen and published (empty: none), each
    ended by a NUL (the pruning script reads the first four), then the content hash (a flag
    byte, its length, its bytes: 16 for an MD5's hex) and the packed change sketch.  One string
    instead of a hash of seven fields: a hash holding the sketch (> 64 bytes) is not kept in
    Redis's compact encoding and cost ~1 KB an article; this ~0.47 KB as a field of a bucket."""
    digest = pack_hash(record.content_hash)
    raw, flag = (digest, 0) if isinstance(digest, bytes) else (digest.encode("utf-8"), 1)
    head = "\0".join(["2", record.site, "" if record.url == record.key else record.url, str(int(emitted)),
                       str(record.version), record.first_seen, record.published or "", ""])
    return head.encode("utf-8") + struct.pack("<BH", flag, len(raw)) + raw + record.sketch


def unpack_record(key: str, data: bytes) -> Emitted | None:
    """What :func:`pack_record` packed (None for anything else)."""
    parts = data.split(b"\0", 7)
    if len(parts) != 8 or parts[0] != b"2" or len(parts[7]) < 3:
        return None
    _, site, url, _emitted, version, first_seen, published, tail = parts
    flag, n = struct.unpack_from("<BH", tail)
    raw = tail[3:3 + n]
    digest = raw.decode("utf-8", "replace") if flag else unpack_hash(raw)
    return Emitted(key, site.decode("utf-8"), url.decode("utf-8") or key, digest, bytes(tail[3 + n:]),
                   int(version), first_seen.decode("utf-8"), published.decode("utf-8") or None)


class RedisArticleHistory:
    """Emitted articles by canonical URL, shared by the workers: one packed record each
    (:func:`pack_record`) in a bucket hash keyed by its digest; the older strings and hashes
    (``hist:a:KEY``) are read too."""

    def __init__(self, redis: Any, keys: Keys, shared_run: bool = False):
        self.redis = redis
        self.p = keys.prefix
        self.path = f"redis {self.p}:hist"
        self._read = redis.register_script(_READ)
        self._put = redis.register_script(_PUT)
        # The run's start, every article's emission time (as in ArticleHistory): with
        # ``shared_run`` (a crawl's workers) the one its first sending worker wrote to
        # ``P:run:started``, cleared with the run's keys; else when this handle was opened.
        self._run_key = keys.started if shared_run else None
        self._run_started: float | None = None if shared_run else time.time()

    def run_started(self) -> float:
        """The emission time of what this run sends (see ``__init__``)."""
        if self._run_started is None:
            self.redis.set(self._run_key, repr(time.time()), nx=True)
            self._run_started = float(_s(self.redis.get(self._run_key)) or time.time())
        return self._run_started

    def _fetch(self, key: str, client: Any = None) -> Any:
        # (the record's slot is the archive's first one: one digest for both)
        (bucket, field), (big, big_field) = archive_slots(key)
        return self._read(keys=[f"{self.p}:hist:b:{bucket}", f"{self.p}:hist:a:{key}", f"{self.p}:hist:old:{bucket}",
                                f"{self.p}:hist:old:{big}"], args=[field, field, big_field], client=client)

    def get(self, key: str) -> Emitted | None:
        return self._record(key, self._fetch(key))

    @staticmethod
    def _record(key: str, found: list[Any]) -> Emitted | None:
        if not found:
            return None
        kind = _s(found[0])
        if kind == "s":
            return unpack_record(key, bytes(found[1]))
        if kind == "a":
            return Emitted(key, "", key, "", b"", 1, "", None, archived=True)  # archived: known by its digest
        g = {_s(k): v for k, v in zip(found[1::2], found[2::2])}  # a hash of the older format
        sketch = g.get("sketch")
        if sketch is None:  # written before sketches: its texts (none once pruned)
            sketch = sketch_of_texts(g.get("body"), g.get("page_text"))
        return Emitted(key, _s(g.get("site")) or "", _s(g.get("url")) or key, _s(g.get("content_hash")) or "",
                       bytes(sketch), int(g.get("version") or 1), _s(g.get("first_seen")) or "",
                       _s(g.get("published")), archived=not sketch)

    def put(self, record: Emitted) -> None:
        now = self.run_started()
        bucket, field = digest_slot(record.key)
        self._put(keys=[f"{self.p}:hist:b:{bucket}", f"{self.p}:hist:a:{record.key}"],
                  args=[pack_record(record, now), record.key, record.site, now, self.p, field])

    def recent(self, site: str, n: int) -> list[str]:
        """URLs of the site's ``n`` latest sent articles: the latest run's first, the articles
        of one run (equal scores) by key in reverse order, as :class:`ArticleHistory` orders them."""
        keys = [_s(k) or "" for k in self.redis.zrevrange(f"{self.p}:hist:site:{site}", 0, max(0, n - 1))] if n > 0 else []
        pipe = self.redis.pipeline(transaction=False)
        for key in keys:
            self._fetch(key, client=pipe)
        found = [self._record(key, got) for key, got in zip(keys, pipe.execute() if keys else [])]
        return [r.url for r in found if r is not None and not r.archived]

    def count(self, site: str | None = None) -> int:
        """Articles in the window (of ``site``), counted as they are stored and archived (those
        stored before the packed format are not counted until sent again)."""
        if site is not None:
            return int(self.redis.hget(f"{self.p}:hist:n", site) or 0)
        return sum(int(n) for n in self.redis.hvals(f"{self.p}:hist:n"))

    def close(self) -> None:
        pass


def unpack_compact(packed: bytes | str) -> tuple[str | None, str | None, str | None, str | None]:
    """A compact fetch record (``fl:w:*``, written by pruning past the re-check window):
    first check, last check, sitemap/feed date, published date (None where empty)."""
    parts = (_s(packed) or "").split("\0")
    parts += [""] * (4 - len(parts))
    first, checked, hint, published = parts[:4]
    return first or None, checked or None, hint or None, published or None


#: Lua: a compact record (KEYS[2], field ARGV[1]) back as the URL's hash (KEYS[1]; fields it has win).
_EXPAND = """
local v = redis.call('HGET', KEYS[2], ARGV[1])
if not v then return 0 end
local names, pos, i = {'first', 'checked', 'hint', 'published'}, 1, 1
while i <= 4 do
    local e = string.find(v, '\\0', pos, true)
    local part = string.sub(v, pos, e and e - 1 or -1)
    if part ~= '' then redis.call('HSETNX', KEYS[1], names[i], part) end
    if not e then break end
    pos, i = e + 1, i + 1
end
redis.call('HSETNX', KEYS[1], 'article', '1')
redis.call('HDEL', KEYS[2], ARGV[1])
return 1
"""


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
        self._expand = redis.register_script(_EXPAND)

    def _key(self, url: str) -> str:
        return f"{self.p}:fl:{url}"

    def _compact(self, url: str) -> tuple[str, str]:
        """Where ``url``'s compact record is (past its re-check window): :func:`digest_slot`, as pruning writes it."""
        bucket, field = digest_slot(url)
        return f"{self.p}:fl:w:{bucket}", field

    def _expanded(self, url: str, pipe: Any) -> None:
        """Queue on ``pipe`` the restoring of ``url``'s compact record (if any) as its hash, before a write."""
        name, field = self._compact(url)
        self._expand(keys=[self._key(url), name], args=[field], client=pipe)

    def plan(self, url: str, recheck: RecheckPolicy | float, hint: str | None = None, now: float | None = None) -> Plan:
        pipe = self.redis.pipeline(transaction=False)
        pipe.hmget(self._key(url), ["etag", "last_modified", "checked", "article", "hint", "first"])
        pipe.hget(*self._compact(url))
        for bucket, field in archive_slots(url):
            pipe.hexists(f"{self.p}:fl:old:{bucket}", field)
        values, packed, *archived_in = pipe.execute()
        archived = any(archived_in)
        etag, last_modified, checked, article, old_hint, first = (_s(v) for v in values)
        if checked is None and packed is not None:  # past its re-check window: the compact record
            first, checked, hint_then, _ = unpack_compact(packed)
            article, old_hint = "1", old_hint or hint_then
        elif checked is None and archived:  # archived past the retention window: known, skipped
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
        pipe = self.redis.pipeline(transaction=False)
        for bucket, field in archive_slots(url):
            pipe.hexists(f"{self.p}:fl:old:{bucket}", field)
        return any(pipe.execute())

    def baseline_hint(self, url: str, site: str, hint: str) -> None:
        pipe = self.redis.pipeline(transaction=True)
        self._expanded(url, pipe)
        pipe.hsetnx(self._key(url), "hint", hint)
        pipe.hsetnx(self._key(url), "site", site)
        pipe.execute()

    def seen(self, url: str, site: str, etag: str | None, last_modified: str | None, hint: str | None) -> None:
        pipe = self.redis.pipeline(transaction=True)
        self._expanded(url, pipe)
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
        pipe = self.redis.pipeline(transaction=True)
        self._expanded(url, pipe)
        pipe.execute()
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
        self._expanded(url, pipe)
        pipe.hsetnx(self._key(url), "site", site)
        pipe.hset(self._key(url), "published", published)
        pipe.execute()

    def published(self, url: str) -> str | None:
        found = _s(self.redis.hget(self._key(url), "published"))
        if found is None:
            packed = self.redis.hget(*self._compact(url))
            found = unpack_compact(packed)[3] if packed is not None else None
        return found

    def articles(self, site: str) -> int:
        """URLs of ``site`` recorded as articles (not archived): read from every fetch record
        (a census, not a lookup: no per-site set is kept, ~140 bytes an article)."""
        n, names = 0, []
        skip = (f"{self.p}:fl:old:".encode(), f"{self.p}:fl:w:".encode(), f"{self.p}:fl:articles:".encode())
        for name in self.redis.scan_iter(match=f"{self.p}:fl:*", count=1000):
            if not name.startswith(skip):
                names.append(name)
        for start in range(0, len(names), 500):
            pipe = self.redis.pipeline(transaction=False)
            for name in names[start:start + 500]:
                pipe.hmget(name, ["site", "article"])
            n += sum(1 for got_site, article in pipe.execute() if _s(got_site) == site and _s(article) == "1")
        return n

    def close(self) -> None:
        pass
