"""What a shared crawl keeps in Redis: the key census and the pruning that bounds it (issue #26),
on a real ``redis-server``."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest

from newsstemmer.crawl.changesketch import ChangeSketch
from newsstemmer.crawl.config import Config
from newsstemmer.crawl.storage import Storage
from newsstemmer.crawl.storage.records import SKIP, Emitted, Plan, RecheckPolicy
from newsstemmer.crawl.storage.redis_keys import Keys, client
from newsstemmer.crawl.storage.redis_monitor import ARCHIVE_FILL, archive_slots, pack_record
from newsstemmer.crawl.storage.redis_retention import family_of, redis_census, redis_prune
from newsstemmer.crawl.storage.retention import Retention
from newsstemmer.crawl.testing import REPO_ROOT

from redis_fixture import flush  # noqa: E402

pytestmark = pytest.mark.redis


@pytest.fixture
def config(redis_url, tmp_path) -> Config:
    flush(redis_url)
    return Config(state_dir=tmp_path / "state", redis_url=redis_url, redis_prefix="t", worker_timeout=2)


def test_key_families_name_what_varies():
    assert family_of("t:fl:http://a/1", "t") == "fl:*"
    assert family_of("t:fl:articles:a", "t") == "fl:articles:*"
    assert family_of("t:hist:a:http://a/1", "t") == "hist:a:*" and family_of("t:hist:b:0f", "t") == "hist:b:*"
    assert family_of("t:buf:127.0.0.1_80:html", "t") == "buf:*:html"
    assert family_of("t:run:inflight:host:1:ab", "t") == "run:inflight:*"
    assert family_of("t:news:dupefilter", "t") == "news:dupefilter"


def _article(i: int, site: str = "a") -> Emitted:
    body = f"Story {i}: " + " ".join(f"word{i}_{j}" for j in range(200))
    return Emitted(f"http://{site}/{i}", site, f"http://{site}/{i}", f"h{i}", ChangeSketch.of(body, "page " + body).to_bytes(),
                   1, "2026-01-01T00:00:00+00:00", None)


def test_prune_drops_old_texts_and_surplus_anchors_and_the_census_sees_it(config):
    storage = Storage(config)
    history, fetchlog, linkinfo = storage.history(), storage.fetchlog(), storage.linkinfo()
    redis, keys = client(config.redis_url), Keys("t")
    for i in range(30):
        history.put(_article(i))
        url = f"http://a/{i}"
        fetchlog.seen(url, "a", None, None, None)
        fetchlog.commit([url], article=True)
        linkinfo.add("a", f"http://a/list{i % 3}", [(url, f"headline {i} v{v}") for v in range(12)])
    linkinfo.add("a", "http://a/", [("http://a/tag", f"tag {v}") for v in range(12)])  # not an article
    for url in ("http://a/tag", "http://a/"):  # listings: fetched every run, their records forgotten when unused
        fetchlog.seen(url, "a", None, None, None)
        fetchlog.commit([url], article=False)
    before = {f.name: f for f in redis_census(redis, keys)}
    assert before["hist:b:*"].keys <= 30 and before["fl:*"].keys == 32 and before["li:a:*"].keys == 31
    assert before["hist:b:*"].bytes > 30 * 200 and history.count("a") == 30  # the sketches, in buckets

    kept = redis_prune(redis, keys, Retention(keep_text_days=30, keep_anchors=8, sent_anchored=20), now=time.time())
    assert kept["hist:*"] == 0 and kept["fl:*"] == 0  # sent and checked just now: kept
    assert all(history.get(f"http://a/{i}").sketch for i in range(30))
    # the 20 latest sent keep 2 texts (a drift relearns from them), the 10 others none, other URLs 8;
    # one run sent them all: the latest are the last 20 by URL (http://a/9 ... http://a/18)
    assert history.recent("a", 20) == sorted((f"http://a/{i}" for i in range(30)), reverse=True)[:20]
    assert kept["li:a:*"] == 20 * (12 - 2) + 10 * 12 + (12 - 8)
    assert linkinfo.anchors("http://a/3") == ["headline 3 v0", "headline 3 v1"]  # the first seen
    assert linkinfo.anchors("http://a/13") == []
    assert len(linkinfo.anchors("http://a/tag")) == 8

    later = redis_prune(redis, keys, Retention(keep_text_days=30, keep_anchors=8), now=time.time() + 31 * 86400)
    assert later["hist:*"] == 30 and later["fl:*"] == 32  # articles archived, the listings' records dropped
    assert fetchlog.articles("a") == 0 and fetchlog.archived("http://a/7") and not fetchlog.archived("http://a/tag")
    old = history.get("http://a/7")
    assert old.archived and old.sketch == b"" and old.key == "http://a/7"
    assert history.get("http://a/never-sent") is None and history.recent("a", 5) == []
    assert fetchlog.plan("http://a/7", RecheckPolicy(), "2099-01-01") == Plan(SKIP, {})  # never fetched again
    assert fetchlog.plan("http://a/new", RecheckPolicy()).action == "fetch"
    assert linkinfo.anchors("http://a/7") == [] and len(linkinfo.anchors("http://a/tag")) == 8
    after = {f.name: f for f in redis_census(redis, keys)}
    assert not {"hist:a:*", "hist:b:*", "fl:*", "hist:texts", "hist:site:*", "fl:articles:*"} & set(after)
    assert after["li:a:*"].keys == after["li:s:*"].keys == 1  # (the tag's anchors)
    archive = after["hist:old:*"].bytes + after["fl:old:*"].bytes
    assert archive < (before["hist:b:*"].bytes + before["fl:*"].bytes) / 2  # (30 buckets of one field each here: see the next test)

    linkinfo.add("a", "http://a/list0", [("http://a/7", "An archived story linked again")])  # its anchors go again
    again = redis_prune(redis, keys, Retention(), now=time.time() + 62 * 86400)
    assert again == {"hist:*": 0, "li:a:*": 1, "fl:*": 0} and linkinfo.anchors("http://a/7") == []


def test_archived_articles_cost_tens_of_bytes_in_redis(config):
    storage = Storage(config)
    history, fetchlog = storage.history(), storage.fetchlog()
    redis, keys = client(config.redis_url), Keys("t")
    n = 20000  # (~5 a bucket: each bucket's own ~90 bytes shared by 5; ~20 at a year of the soak)
    pipe = redis.pipeline(transaction=False)
    for i in range(n):  # written as the stores write them, in one round trip
        url = f"http://site.example/2026/01/{i}/a-story-with-a-long-name"
        pipe.hset(f"t:hist:a:{url}", mapping={"site": "s", "url": url, "content_hash": "h", "version": 1,
                                               "body": b"x", "page_text": b"x"})
        pipe.zadd("t:hist:texts", {url: time.time()})
        pipe.hset(f"t:fl:{url}", mapping={"site": "s", "checked": repr(time.time()), "article": "1"})
    pipe.execute()
    used = redis.info("memory")["used_memory"]
    redis_prune(redis, keys, Retention(), now=time.time() + 31 * 86400)
    census = {f.name: f for f in redis_census(redis, keys)}
    assert set(census) == {"hist:old:*", "fl:old:*"}
    per_article = (census["hist:old:*"].bytes + census["fl:old:*"].bytes) / n
    assert per_article < 80, per_article  # (two archives, each a field of ~15 bytes + its share of the bucket)
    assert redis.info("memory")["used_memory"] < used
    url = "http://site.example/2026/01/17/a-story-with-a-long-name"
    assert history.get(url).archived and fetchlog.archived(url)


def test_archives_fill_256_buckets_first_then_4096_and_read_both(config):
    storage = Storage(config)
    history, fetchlog = storage.history(), storage.fetchlog()
    redis, keys = client(config.redis_url), Keys("t")
    full, spare = "http://a/full", "http://a/spare"
    (small, _), (big, big_field) = archive_slots(full)
    redis.hset(f"t:hist:old:{small}", mapping={f"{i:014x}": 20000 for i in range(ARCHIVE_FILL)})  # a full small bucket
    for url in (full, spare):
        history.put(Emitted(url, "a", url, "h", _article(1).sketch, 1, "2026-01-01T00:00:00+00:00"))
        fetchlog.seen(url, "a", None, None, None)
        fetchlog.commit([url], article=True)
    redis_prune(redis, keys, Retention(), now=time.time() + 40 * 86400)
    assert redis.hexists(f"t:hist:old:{big}", big_field) and redis.hlen(f"t:hist:old:{small}") == ARCHIVE_FILL
    spare_small, spare_field = archive_slots(spare)[0]
    assert spare_small != small and redis.hexists(f"t:hist:old:{spare_small}", spare_field)  # (one with room: there)
    assert history.get(full).archived and history.get(spare).archived
    assert fetchlog.archived(full) and fetchlog.archived(spare) and not fetchlog.archived("http://a/new")
    (old_small, _), (old_big, old_field) = archive_slots("http://a/before")  # as the 4,096-bucket archive wrote it
    redis.hset(f"t:hist:old:{old_big}", old_field, 20000)
    redis.hset(f"t:fl:old:{old_big}", old_field, 20000)
    assert history.get("http://a/before").archived and fetchlog.archived("http://a/before")
    assert fetchlog.plan("http://a/before", RecheckPolicy(), "2099-01-01") == Plan(SKIP, {})


def test_state_command_prints_the_census_and_prunes(config, tmp_path):
    Storage(config).history().put(_article(1))
    cmd = [sys.executable, "-m", "scrapy", "state", "--json", "--prune", "-s", f"NEWSSTEMMER_REDIS_URL={config.redis_url}",
           "-s", "NEWSSTEMMER_REDIS_PREFIX=t"]
    proc = subprocess.run(cmd, cwd=REPO_ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr[-2000:]
    report = json.loads(proc.stdout)
    families = {f["family"]: f for f in report["families"]}
    assert families["hist:b:*"]["keys"] == 1 and families["hist:b:*"]["bytes"] > 0
    assert report["pruned"] == {"hist:*": 0, "li:a:*": 0, "fl:*": 0} and report["used_memory"] > 0
    table = subprocess.run(cmd[:4] + cmd[6:], cwd=REPO_ROOT, capture_output=True, text=True, timeout=60)
    assert "hist:b:*" in table.stdout and "keys" in table.stdout, table.stdout + table.stderr


def test_fetch_records_past_the_recheck_window_are_compacted_and_decide_as_before(config):
    storage = Storage(config)
    fetchlog = storage.fetchlog()
    redis, keys = client(config.redis_url), Keys("t")
    urls = [f"http://a/2026/01/10/story-number-{i}-with-a-long-name.html" for i in range(1500)]
    for url in urls:
        fetchlog.seen(url, "a", '"0123456789abcdef"', "Sat, 10 Jan 2026 05:52:00 GMT", "2026-01-10")
        fetchlog.commit([url], article=True)
        fetchlog.set_published(url, "a", "2026-01-10T05:52:00+00:00")
    url, policy, now = urls[0], RecheckPolicy(), time.time()
    before = {f.name: f for f in redis_census(redis, keys)}
    assert redis_prune(redis, keys, Retention(), now=now + 3 * 86400)["fl:*"] == 0
    assert {f.name for f in redis_census(redis, keys)} == {"fl:*"}  # inside the window: untouched
    later = now + 8 * 86400
    redis_prune(redis, keys, Retention(), now=later)  # past the 7-day window: compacted
    after = {f.name: f for f in redis_census(redis, keys)}
    assert "fl:*" not in after and after["fl:w:*"].bytes < before["fl:*"].bytes / 3
    assert fetchlog.plan(url, policy, now=later) == Plan(SKIP, {})  # not due by age any more
    assert fetchlog.plan(url, policy, "2026-01-10", now=later) == Plan(SKIP, {})
    assert fetchlog.plan(url, policy, "2026-01-12", now=later) == Plan("recheck", {})  # its sitemap date changed
    assert fetchlog.published(url) == "2026-01-10T05:52:00+00:00" and not fetchlog.archived(url)
    fetchlog.not_modified(url, "2026-01-12")  # re-checked: its hash again, its first check kept
    assert fetchlog.plan(url, policy, "2026-01-12", now=later) == Plan(SKIP, {})
    assert fetchlog.plan(url, policy, now=later) == Plan(SKIP, {})
    fetchlog.seen(urls[1], "a", None, None, "2026-01-13")  # fetched again after a change: pending, then committed
    fetchlog.commit([urls[1]], article=True)
    assert fetchlog.plan(urls[1], policy, "2026-01-13", now=later + 3600) == Plan(SKIP, {})
    assert fetchlog.plan(urls[1], policy, now=later + 3600) == Plan(SKIP, {})  # its age still counts from day 0
    redis_prune(redis, keys, Retention(), now=later + 3600)
    assert redis.exists(f"t:fl:{url}") == 0 and redis.exists(f"t:fl:{urls[1]}") == 0  # compacted again
    gone = redis_prune(redis, keys, Retention(), now=now + 40 * 86400)  # not checked for 30 days: archived
    assert gone["fl:*"] == 1500 and all(fetchlog.archived(u) for u in urls)
    assert set(f.name for f in redis_census(redis, keys)) == {"fl:old:*"}
    assert fetchlog.plan(url, policy, "2026-02-01", now=now + 40 * 86400) == Plan(SKIP, {})


def test_history_records_live_in_digest_buckets_older_strings_and_hashes_still_read_and_archived(config):
    storage = Storage(config)
    history = storage.history()
    redis, keys = client(config.redis_url), Keys("t")
    sketch = _article(0).sketch
    then = time.time() - 3 * 86400
    for i in (1, 2):  # as the format before packed records stored them: a hash each, indexed by emission time
        redis.hset(f"t:hist:a:http://a/old{i}", mapping={"site": "a", "content_hash": f"old{i}", "sketch": sketch,
                                                          "version": 2, "first_seen": "2026-01-01T00:00:00+00:00"})
        redis.zadd("t:hist:texts", {f"http://a/old{i}": then})
        redis.zadd("t:hist:site:a", {f"http://a/old{i}": then})
    for i in (3, 4):  # as the format before buckets stored them: a packed string each, counted in hist:n
        redis.set(f"t:hist:a:http://a/str{i}", pack_record(_article(100 + i), then))
        redis.zadd("t:hist:site:a", {f"http://a/str{i}": then})
        redis.hincrby("t:hist:n", "a", 1)
    redis.sadd("t:hist:sites", "a")
    old = history.get("http://a/old1")
    assert (old.content_hash, old.sketch, old.version, old.archived) == ("old1", sketch, 2, False)
    packed = history.get("http://a/str3")
    assert (packed.content_hash, packed.sketch, packed.archived) == ("h103", _article(103).sketch, False)
    history.put(Emitted("http://a/old2", "a", "http://a/old2?p=1", "new2", sketch, 3, "2026-01-01T00:00:00+00:00",
                        "2026-01-01"))
    history.put(Emitted("http://a/str4", "a", "http://a/str4", "new4", sketch, 2, "2026-01-01T00:00:00+00:00"))
    assert not redis.exists("t:hist:a:http://a/old2", "t:hist:a:http://a/str4")  # replaced by their bucket fields
    assert redis.zscore("t:hist:texts", "http://a/old2") is None
    got = history.get("http://a/old2")
    assert (got.url, got.content_hash, got.version, got.published) == ("http://a/old2?p=1", "new2", 3, "2026-01-01")
    assert history.get("http://a/str4").content_hash == "new4"
    for i in range(30):
        history.put(_article(i))
    history.put(_article(7))  # sent again: one record, counted once
    # (one run sent them: its articles by URL, before the older records' of earlier runs)
    assert history.count("a") == 33 and history.recent("a", 2) == ["http://a/str4", "http://a/old2?p=1"]
    buckets = [k for k in redis.scan_iter(match="t:hist:b:*")]
    per_record = sum(redis.memory_usage(k, samples=0) for k in buckets) / 32
    assert per_record < 500, per_record  # (a hash of the same: ~1 KB)
    redis_prune(redis, keys, Retention(sent_anchored=5), now=time.time() + 86400)
    assert redis.zcard("t:hist:site:a") == 5 and history.recent("a", 5) == ["http://a/str4", "http://a/old2?p=1", "http://a/9",
                                                                  "http://a/8", "http://a/7"]
    assert history.count("a") == 33 and history.get("http://a/3").sketch == _article(3).sketch
    done = redis_prune(redis, keys, Retention(keep_text_days=2), now=time.time() + 86400)
    assert done["hist:*"] == 2 and history.get("http://a/old1").archived  # the older hash by its index, the string by its time
    assert history.get("http://a/str3").archived and history.count("a") == 32
    done = redis_prune(redis, keys, Retention(keep_text_days=2), now=time.time() + 3 * 86400)
    assert done["hist:*"] == 32 and history.count("a") == 0 and history.recent("a", 5) == []
    assert all(history.get(f"http://a/{i}").archived for i in range(30)) and history.get("http://a/old2").archived
    assert not redis.exists("t:hist:texts") and redis.zcard("t:hist:site:a") == 0
    assert not list(redis.scan_iter(match="t:hist:[ab]:*"))
