"""The crawl's stores behave the same in SQLite (one process) and in Redis (many workers).

Each contract test runs against both implementations of a store (``backend``
parameter), the Redis ones on a real ``redis-server`` started for this module.
Then the Redis-only parts: the request queue that keeps taken requests in flight,
a dead worker's work going back to the crawl, leases passing on, and the JSON
request serializer.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from scrapy import Request, Spider

from newsstemmer import SitePatterns
from newsstemmer.crawl.config import Config
from newsstemmer.crawl.items import FetchedPage
from newsstemmer.crawl.storage import Storage
from newsstemmer.crawl.storage import serial
from newsstemmer.layout.patterns import LayoutPattern

from redis_fixture import flush  # noqa: E402


@pytest.fixture(params=["sqlite", pytest.param("redis", marks=pytest.mark.redis)])
def config(request, tmp_path) -> Config:
    url = ""
    if request.param == "redis":
        url = request.getfixturevalue("redis_url")
        flush(url)
    return Config(state_dir=tmp_path / "state", patterns_dir=tmp_path / "patterns", redis_url=url,
                  redis_prefix="t", worker_timeout=2)


def _page(url: str, site: str = "a", html: str = "<p>x</p>", anchors=(), fetched="2026-01-01T00:00:00+00:00"):
    return FetchedPage(url, site, html, list(anchors), fetched)


# -- contracts: both implementations ---------------------------------------------------------------


def test_page_buffer_contract(config):
    buf = Storage(config).page_buffer()
    buf.add(_page("http://a/1", html="<p>one</p>", anchors=["One"]))
    time.sleep(0.002)  # arrival order is by time
    buf.add(_page("http://a/2", html="<p>caf\u00e9 \u2013 two</p>"))
    buf.add(_page("http://b/1", site="b"))
    time.sleep(0.002)
    buf.add(_page("http://a/1", html="<p>one again</p>", anchors=["One"]))  # replaces, now the newest
    buf.close()
    buf = Storage(config).page_buffer()  # a new handle sees the same pages (another thread, another worker)
    assert buf.sites() == {"a": 2, "b": 1}
    assert buf.count() == 3 and buf.count("a") == 2 and buf.count("zzz") == 0
    assert buf.urls("a") == ["http://a/2", "http://a/1"]
    (p,) = buf.get("a", ["http://a/1", "http://a/missing"])
    assert (p.url, p.site, p.html, p.anchor_texts, p.fetched_at) == (
        "http://a/1", "a", "<p>one again</p>", ["One"], "2026-01-01T00:00:00+00:00")
    assert [q.html for q in buf.get("a", ["http://a/2"])] == ["<p>caf\u00e9 \u2013 two</p>"]
    assert buf.size("a", ["http://a/1", "http://a/2"]) == len("<p>one again</p>") + len("<p>caf\u00e9 \u2013 two</p>")
    assert buf.delete("a", ["http://a/1", "http://a/missing"]) == 1
    assert buf.delete("b", ["http://b/1"]) == 1
    assert buf.sites() == {"a": 1} and buf.count() == 1
    assert buf.get("a", []) == [] and buf.delete("a", []) == 0
    buf.close()


def test_page_buffer_knows_pages_other_workers_tried_with_older_patterns(config):
    buf = Storage(config).page_buffer()
    buf.add(_page("http://a/1"), tried=0)
    buf.add(_page("http://a/2"), tried=2)
    if config.redis_url:
        assert buf.untried("a", 2) == ["http://a/1"]
        assert buf.untried("a", 3) == ["http://a/1", "http://a/2"]
    else:
        assert buf.untried("a", 3) == []  # one process keeps track itself
    buf.close()


def test_linkinfo_contract(config, tmp_path):
    li = Storage(config).linkinfo()
    assert li.add("a", "http://a/", [("http://a/x", "Storm closes  coast road"), ("http://a/x", "Read more"),
                                      ("http://a/y", "")]) == 2
    li.add("a", "http://a/news/", [("http://a/x", "Coast road closed"), ("http://a/x", "Storm closes coast road")])
    li.add("a", "http://a/news/", [("http://a/x", "Coast road closed")])  # the same link seen again
    li.add("b", "http://b/", [("http://b/z", "Zed")])
    assert li.anchors("http://a/x") == ["Storm closes coast road", "Read more", "Coast road closed"]
    assert sorted(li.sources("http://a/x")) == sorted([
        ("http://a/", "Storm closes coast road"), ("http://a/", "Read more"),
        ("http://a/news/", "Coast road closed"), ("http://a/news/", "Storm closes coast road")])
    assert li.anchors("http://a/y") == [] and li.anchors([]) == []
    li.add("a", "http://a/old", [("http://a/old-x", "Old headline")])
    assert li.anchors(["http://a/x", "http://a/old-x"]) == [
        "Storm closes coast road", "Read more", "Coast road closed", "Old headline"]
    assert li.sites() == ["a", "b"]
    assert li.export_jsonl("a", tmp_path / "links.jsonl") == 2
    lines = [json.loads(x) for x in (tmp_path / "links.jsonl").read_text().splitlines()]
    assert lines[1] == {"url": "http://a/x", "anchors": ["Storm closes coast road", "Read more", "Coast road closed"]}
    li.close()


def _patterns(site: str, n: int) -> SitePatterns:
    return SitePatterns(site, [LayoutPattern(id=f"p{i}", score=100.0 + i, pages=3, sections=[]) for i in range(n)])


def test_patterns_contract(config):
    config.patterns_dir.mkdir(parents=True)
    _patterns("a", 1).save(config.patterns_dir / "a.json")
    first = Storage(config)
    if not config.redis_url:
        assert {s: len(sp.patterns) for s, (sp, _) in first.patterns.load().items()} == {"a": 1}
    v1 = first.patterns.publish("b", _patterns("b", 1))
    v2 = first.patterns.publish("b", _patterns("b", 2))
    assert v2 > v1 >= 1
    other = Storage(config)  # another worker
    if config.redis_url:
        loaded = other.patterns.load()
        assert {s: (len(sp.patterns), v) for s, (sp, v) in loaded.items()} == {"b": (2, v2)}
        assert other.patterns.changed() == {}
        v3 = first.patterns.publish("b", _patterns("b", 3))
        changed = other.patterns.changed()
        assert list(changed) == ["b"] and len(changed["b"][0].patterns) == 3 and changed["b"][1] == v3
        assert other.patterns.offer("a", _patterns("a", 1)) is True  # a local file nobody shared yet
        assert other.patterns.offer("b", _patterns("b", 9)) is False  # Redis has it: kept
        assert list(first.patterns.changed()) == ["a"]
    else:
        assert other.patterns.changed() == {}  # one process: nobody else learns


def test_emit_claims_contract(config):
    one = Storage(config)
    assert one.emits.claim("http://a/1")
    one.emits.confirm("http://a/1")
    if config.redis_url:
        two = Storage(config)
        assert not two.emits.claim("http://a/1")  # emitted by the first worker
        assert two.emits.claim("http://a/2")
        assert not one.emits.claim("http://a/2")  # being emitted by the second
        two.emits.release("http://a/2")  # did not reach the feed
        assert one.emits.claim("http://a/2")
    else:  # one process: the same record, in memory
        assert not one.emits.claim("http://a/1")  # emitted in this crawl (from another page of the article)
        assert one.emits.claim("http://a/2") and not one.emits.claim("http://a/2")  # being emitted
        one.emits.release("http://a/2")  # did not reach the feed
        assert one.emits.claim("http://a/2")
        assert Storage(config).emits.claim("http://a/1")  # the next crawl starts afresh


def test_site_leases_contract(config):
    one = Storage(config)
    assert one.leases.acquire("a") and one.leases.held() == {"a"}
    if config.redis_url:
        two = Storage(config)
        assert not two.leases.acquire("a") and two.leases.acquire("b")
        one.leases.release_all()
        assert two.leases.acquire("a") and two.leases.held() == {"a", "b"}
    one.leases.release_all()
    assert one.leases.held() == set()


def test_frontier_contract(config):
    fr = Storage(config).frontier()
    fr.begin(None, True)
    assert fr.admit("a", "http://a/1", 0, limit=2)
    assert not fr.admit("a", "http://a/1", 1, limit=2)
    assert fr.admit("a", "http://a/2", 1, limit=2)
    assert not fr.admit("a", "http://a/3", 1, limit=2)  # the site's limit
    assert fr.admit("b", "http://b/1", 0, limit=2)
    assert fr.count("a") == 2 and fr.known("http://a/1") and not fr.known("http://a/3")
    # a re-check of a known article: admitted past the limit, and not counted toward it
    assert fr.admit("a", "http://a/known", 1, limit=2, counted=False) and fr.count("a") == 2
    assert not fr.admit("a", "http://a/known", 1, limit=2, counted=False)  # once per crawl, as any page
    if config.redis_url:
        other = Storage(config).frontier()  # another worker: same crawl, same limits
        assert not other.admit("a", "http://a/1", 0, limit=5)
        assert other.count("a") == 2 and other.known("http://a/2")
    fr.end("shutdown")
    fr.close()


# -- Redis only: queue, dead workers, leases passing on ---------------------------------------------


class _Crawler:
    spidercls = None

    def __init__(self, config: Config):
        from scrapy.settings import Settings

        self.settings = Settings({"NEWSSTEMMER_REDIS_URL": config.redis_url, "NEWSSTEMMER_REDIS_PREFIX": "t",
                                  "NEWSSTEMMER_WORKER_TIMEOUT": "2"})


class _Spider(Spider):
    name = "news"

    def parse(self, response):  # pragma: no cover - never called
        return ()


def _queue(config: Config):
    import redis

    from newsstemmer.crawl.storage.scheduler import InflightQueue

    crawler = _Crawler(config)
    spider = _Spider()
    spider.crawler = crawler
    storage = Storage.for_crawler(crawler)
    server = redis.Redis.from_url(config.redis_url)
    return storage, InflightQueue(server, spider, "t:%(spider)s:requests", serial), crawler


@pytest.fixture
def shared(redis_url, tmp_path) -> Config:
    flush(redis_url)
    return Config(state_dir=tmp_path / "state", patterns_dir=tmp_path / "patterns", redis_url=redis_url,
                  redis_prefix="t", worker_timeout=2)


@pytest.mark.redis
def test_taken_requests_stay_in_flight_and_a_dead_workers_return_to_the_queue(shared):
    dead, q1, c1 = _queue(shared)
    live, q2, c2 = _queue(shared)
    dead.worker.join()
    live.worker.join()
    for i in range(4):
        q1.push(Request(f"http://a/{i}", callback=_Spider().parse, priority=-i, meta={"depth": i}))
    got = [q1.pop().url for _ in range(3)]
    assert got == ["http://a/0", "http://a/1", "http://a/2"]  # highest priority first
    dead.worker.done(["http://a/0"])  # its page is safe: no longer in flight
    assert len(q1) == 1 and dead.worker.redis.hlen(dead.keys.inflight(dead.worker.id)) == 2
    assert dead.emits.claim("http://a/1")  # being emitted when the worker dies
    assert live.worker.busy_elsewhere()  # the other worker has requests in flight
    assert live.worker.recover_dead() == 0  # alive: nothing taken from it
    dead.worker.redis.delete(dead.keys.alive(dead.worker.id))  # SIGKILL: its heartbeat stops
    assert live.worker.recover_dead() == 2
    assert sorted(q2.pop().url for _ in range(3)) == ["http://a/1", "http://a/2", "http://a/3"]
    assert q2.pop() is None
    assert live.emits.claim("http://a/1")  # the dead worker's unconfirmed claim was released
    assert live.worker.recover_dead() == 0  # once only


@pytest.mark.redis
def test_crawl_end_and_the_last_worker_clears_the_run(shared):
    one, q1, _ = _queue(shared)
    two, q2, _ = _queue(shared)
    one.worker.join()
    two.worker.join()
    q1.push(Request("http://a/0", callback=_Spider().parse))
    assert one.frontier().admit("a", "http://a/0", 0)
    assert not one.worker.crawl_quiet()  # a queued request
    q1.pop()
    assert not two.worker.crawl_quiet()  # in flight at the other worker
    one.worker.settle()  # its engine went idle: what it took is handled
    assert not two.worker.crawl_quiet()  # quiet once...
    assert two.worker.crawl_quiet()  # ...twice in a row
    assert not one.worker.leave("finished")  # the other worker is still alive
    assert two.worker.leave("finished")
    redis = two.worker.redis
    assert not redis.exists(two.keys.seen) and not redis.exists(two.keys.counts)
    assert redis.scard(two.keys.workers) == 0


@pytest.mark.redis
def test_a_stopped_worker_gives_its_requests_back(shared):
    one, q1, _ = _queue(shared)
    one.worker.join()
    q1.push(Request("http://a/0", callback=_Spider().parse))
    q1.pop()
    assert len(q1) == 0
    assert not one.worker.leave("shutdown")
    assert len(q1) == 1


@pytest.mark.redis
def test_a_dead_workers_lease_passes_on(shared):
    one, two = Storage(shared), Storage(shared)
    assert one.leases.acquire("a")
    assert not two.leases.acquire("a")
    time.sleep(2.2)  # NEWSSTEMMER_WORKER_TIMEOUT = 2: not renewed, it expires
    assert two.leases.acquire("a")
    assert one.leases.renew() == ["a"]  # the first one finds out


def test_requests_are_stored_as_json_and_come_back_whole():
    spider = _Spider()
    req = Request("http://a/x?q=caf\u00e9", callback=spider.parse, priority=-3, method="POST", body=b"\x00\xffdata",
                  headers={"X-Token": "abc"}, meta={"depth": 2, "redirect_urls": ["http://a/old"]}, cb_kwargs={"k": 1})
    data = serial.dumps(req.to_dict(spider=spider))
    assert json.loads(data)  # plain JSON
    from scrapy.utils.request import request_from_dict

    back = request_from_dict(serial.loads(data.encode("utf-8")), spider=spider)
    assert (back.url, back.body, back.method, back.priority, back.meta, back.cb_kwargs) == (
        req.url, req.body, req.method, req.priority, req.meta, req.cb_kwargs)
    assert back.headers.getlist("X-Token") == [b"abc"] and back.callback == spider.parse
    with pytest.raises(TypeError, match="object"):
        serial.dumps({"meta": {"thing": object()}})


def test_no_redis_import_without_the_setting(tmp_path):
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from newsstemmer.crawl.config import Config\n"
        "from newsstemmer.crawl.storage import Storage\n"
        f"c = Config(state_dir=__import__('pathlib').Path({str(tmp_path)!r}))\n"
        "Storage(c).frontier(); Storage(c).page_buffer()\n"
        "import newsstemmer.crawl.addon, newsstemmer.crawl.learner, newsstemmer.crawl.spiders.news\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('redis', 'scrapy_redis')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_a_bad_redis_url_is_one_clear_error(tmp_path):
    from newsstemmer.crawl.storage.redis_keys import RedisUnavailable
    from newsstemmer.crawl.testing import free_port

    config = Config(state_dir=tmp_path, redis_url=f"redis://127.0.0.1:{free_port()}/0")
    with pytest.raises(RedisUnavailable, match="NEWSSTEMMER_REDIS_URL = .redis://127.0.0.1"):
        Storage(config)
    with pytest.raises(ValueError, match="NEWSSTEMMER_REDIS_PREFIX"):
        Config.from_settings(__import__("scrapy.settings", fromlist=["Settings"]).Settings(
            {"NEWSSTEMMER_REDIS_PREFIX": "a b"}))


def test_storage_is_sqlite_without_the_setting(tmp_path):
    config = Config(state_dir=tmp_path / "s", patterns_dir=tmp_path / "p")
    storage = Storage(config)
    assert not storage.shared and storage.worker is None
    assert Path(storage.page_buffer().path) == config.buffer_path


# -- the stores of monitoring runs: both implementations ------------------------------------------------


def test_article_history_contract(config):
    from newsstemmer.crawl.changesketch import ChangeSketch
    from newsstemmer.crawl.storage.records import Emitted

    one, two = (ChangeSketch.of(body, "Menu " + body).to_bytes() for body in (
        "Body one caf\u00e9 with words enough", "Body one, updated with words enough"))
    h = Storage(config).history()
    assert h.get("http://a/1") is None and h.count() == 0 and h.recent("a", 5) == []
    h.put(Emitted("http://a/1", "a", "http://a/1?x", "hash1", one, 1, "2026-01-01T00:00:00+00:00", "2025-12-31"))
    time.sleep(0.002)
    h.put(Emitted("http://a/2", "a", "http://a/2", "0123456789abcdef0123456789abcdef", b"", 1, "2026-01-02T00:00:00+00:00"))
    h.put(Emitted("http://b/1", "b", "http://b/1", "hash3", one, 1, "2026-01-02T00:00:00+00:00"))
    assert h.recent("a", 5) == ["http://a/2", "http://a/1?x"]  # one run's articles: by URL, not by instant
    h.close()
    storage = Storage(config)
    if storage.shared:  # (the run's end: its last worker clears the run's keys, its start with them)
        from newsstemmer.crawl.storage.redis_keys import client

        client(config.redis_url).delete(storage.keys.started)
    time.sleep(0.01)
    h = storage.history()  # the next run sends http://a/1 again
    h.put(Emitted("http://a/1", "a", "http://a/1?x", "hash4", two, 2, "2026-01-01T00:00:00+00:00", None))
    h.close()
    h = Storage(config).history()  # another handle: another thread, another worker
    got = h.get("http://a/1")
    assert (got.site, got.url, got.content_hash, got.sketch, got.version, got.first_seen, got.published, got.archived) == (
        "a", "http://a/1?x", "hash4", two, 2, "2026-01-01T00:00:00+00:00", None, False)
    sketch = ChangeSketch.from_bytes(got.sketch)
    assert sketch.change("Body one, updated with words enough", "Home Body one, updated with words enough") == 0.0
    assert sketch.change("Body one, updated with other words", "Body one, updated with other words") > 0.5
    other = h.get("http://a/2")
    assert other.published is None and other.content_hash == "0123456789abcdef0123456789abcdef" and other.url == "http://a/2"
    assert h.count() == 3 and h.count("a") == 2
    assert h.recent("a", 5) == ["http://a/1?x", "http://a/2"] and h.recent("a", 1) == ["http://a/1?x"]
    h.close()


def test_fetch_log_contract(config):
    from newsstemmer.crawl.storage.records import FETCH, RECHECK, SKIP, RecheckPolicy

    fl = Storage(config).fetchlog()
    url = "http://a/story"
    assert fl.plan(url, 3600).action == FETCH  # never seen
    fl.seen(url, "a", '"v1"', "Mon, 01 Jan 2026 00:00:00 GMT", "2026-01-01")
    assert fl.plan(url, 3600).action == FETCH  # pending until its item is safe
    fl.commit([url], article=True)
    plan = fl.plan(url, 3600)
    assert plan.action == SKIP and plan.headers == {"If-None-Match": '"v1"',
                                                     "If-Modified-Since": "Mon, 01 Jan 2026 00:00:00 GMT"}
    assert fl.plan(url, 3600, hint="2026-02-01").action == RECHECK  # the sitemap says it changed
    assert fl.plan(url, 3600, now=time.time() + 7200).action == RECHECK  # too old
    assert fl.articles("a") == 1
    fl.not_modified(url, "2026-02-01")
    assert fl.plan(url, 3600, hint="2026-02-01").action == SKIP
    fl.seen(url, "a", None, None, None)
    fl.commit([url], article=False)  # fetched again: no longer an article, no validators
    assert fl.plan(url, 3600).action == FETCH and fl.articles("a") == 0
    fl.set_published("http://a/other", "a", "2026-03-01")
    assert fl.published("http://a/other") == "2026-03-01" and fl.published("http://a/none") is None
    other = "http://a/fed"
    fl.baseline_hint(other, "a", "2026-01-05")
    fl.seen(other, "a", None, None, None)
    fl.commit([other], article=True)
    assert fl.plan(other, 3600, hint="2026-01-05").action == SKIP  # the baseline date: no change
    assert fl.plan(other, 3600, hint="2026-01-06").action == RECHECK
    # by age (RecheckPolicy): due after an hour here, never by age past the 7-day window,
    # where only a later sitemap/feed date calls for a re-check
    policy = RecheckPolicy(3600, 0.5, 7 * 86400)
    now = time.time()
    assert fl.plan(other, policy, now=now + 1800).action == SKIP
    assert fl.plan(other, policy, now=now + 3600).action == RECHECK
    assert fl.plan(other, policy, now=now + 8 * 86400).action == SKIP
    assert fl.plan(other, policy, hint="2026-01-06", now=now + 8 * 86400).action == RECHECK
    fl.not_modified(other, None)  # checked again: its age still counts from its first check
    assert fl.plan(other, policy, now=now + 8 * 86400).action == SKIP
    fl.not_modified("http://a/never-seen", None)  # nothing to update
    assert fl.plan("http://a/never-seen", 3600).action == FETCH
    fl.close()


def test_patterns_export_command_writes_the_crawls_files(shared, tmp_path, capsys):
    from newsstemmer.cli import main

    storage = Storage(shared)
    storage.patterns.publish("127.0.0.1:8080", _patterns("127.0.0.1:8080", 2))
    storage.patterns.publish("b.example", _patterns("b.example", 1))
    storage.worker.redis.hset("t:patterns", "broken.example", b"{not json")
    out = tmp_path / "exported"
    assert main(["patterns", "export", "--redis", shared.redis_url, "--prefix", "t", str(out)]) == 1  # one skipped
    assert sorted(p.name for p in out.iterdir()) == ["127.0.0.1_8080.json", "b.example.json"]
    assert len(SitePatterns.load(out / "127.0.0.1_8080.json").patterns) == 2
    assert "skipped broken.example" in capsys.readouterr().err
    assert main(["patterns", "export", str(out)]) == 2  # no --redis
    bad = f"redis://127.0.0.1:{__import__('newsstemmer.crawl.testing', fromlist=['x']).free_port()}/0"
    assert main(["patterns", "export", "--redis", bad, str(out)]) == 2
