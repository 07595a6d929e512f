"""Bounded state: what each store keeps (storage.retention), pruning it, and ``scrapy state``."""

from __future__ import annotations

import datetime as dt
import json
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from newsstemmer.crawl.changesketch import ChangeSketch
from newsstemmer.crawl.items import FetchedPage
from newsstemmer.crawl.storage.records import FETCH, RECHECK, SKIP, Emitted, Plan, RecheckPolicy, pack_http_date, pack_time, unpack_http_date, unpack_time
from newsstemmer.crawl.storage.retention import SENT_ANCHORS, Retention, census, prune
from newsstemmer.crawl.storage.sqlite_anchors import LinkInfo
from newsstemmer.crawl.storage.sqlite_buffer import PageBuffer
from newsstemmer.crawl.storage.sqlite_fetchlog import FetchLog
from newsstemmer.crawl.storage.sqlite_history import ArticleHistory
from newsstemmer.crawl.storage.sqlite_runlog import RunLog

REPO = Path(__file__).resolve().parents[1]
WORDS = ("harbour", "council", "rail", "storm", "budget", "match", "court", "museum", "bridge", "school")
LATER = dt.datetime.now(dt.timezone.utc) + dt.timedelta(days=45)  # "now" of a prune 45 days on


def _article(i: int) -> Emitted:
    rng = random.Random(i)  # (texts that do not compress to nothing)
    body = " ".join(f"{rng.choice(WORDS)}{rng.randint(0, 999)}" for _ in range(600))
    return Emitted(f"http://s/{i}", "s", f"http://s/{i}", f"hash{i}", ChangeSketch.of(body, "page text " + body).to_bytes(),
                   1, "2026-01-01T00:00:00+00:00", None)


def test_articles_past_their_days_are_archived_as_a_digest_and_stay_known(tmp_path):
    history = ArticleHistory(tmp_path / "history.sqlite")
    for i in range(300):
        history.put(_article(i))
    history.close()
    assert prune(tmp_path, Retention(keep_text_days=60), now=LATER)["history.sqlite"] == 0  # not old enough
    assert ArticleHistory(tmp_path / "history.sqlite").get("http://s/3").archived is False
    before = census(tmp_path)[0].bytes
    assert prune(tmp_path, Retention(keep_text_days=30), now=LATER)["history.sqlite"] == 300
    history = ArticleHistory(tmp_path / "history.sqlite")
    old = history.get("http://s/3")
    assert old.archived and old.sketch == b"" and old.key == "http://s/3"
    assert history.get("http://s/never-sent") is None
    assert history.count() == 300 and history.count("s") == 0 and history.recent("s", 5) == []
    history.close()
    after = census(tmp_path)[0]
    assert after.rows == {"sent": 0, "archived": 300} and after.bytes < before / 2


def test_an_archived_article_costs_tens_of_bytes(tmp_path):
    history = ArticleHistory(tmp_path / "history.sqlite")
    for i in range(5000):
        history.put(Emitted(f"http://site.example/2026/01/{i}/a-story-with-a-long-name", "site.example",
                            f"http://site.example/2026/01/{i}/a-story-with-a-long-name", "h", b"", 1, "2026-01-01"))
    history.close()
    prune(tmp_path, Retention(keep_text_days=30), now=LATER)
    with sqlite3.connect(tmp_path / "history.sqlite") as conn:
        assert conn.execute("SELECT COUNT(*) FROM archived").fetchone()[0] == 5000
        if not conn.execute("SELECT 1 FROM pragma_module_list WHERE name = 'dbstat'").fetchone():
            pytest.skip("SQLite without dbstat")
        used = conn.execute("SELECT SUM(pgsize) FROM dbstat WHERE name = 'archived'").fetchone()[0]
    assert used / 5000 < 30  # (a row: 8-byte digest as the rowid, the day; was ~300 bytes with its URL and dates)


def test_an_article_with_dropped_texts_is_not_sent_again():
    from newsstemmer.crawl.config import Config
    from newsstemmer.crawl.incremental import UNCHANGED, Incremental
    from newsstemmer.crawl.items import ArticleItem

    class History:
        def get(self, key):
            return Emitted(key, "s", key, "an old hash", b"", 1, "2026-01-01", None, archived=True)

    class Log:
        def published(self, url):
            return None

    inc = Incremental.__new__(Incremental)
    inc.config, inc.enabled, inc.history, inc.fetchlog, inc._waiting = Config(), True, History(), Log(), {}
    item = ArticleItem(url="http://s/1", site="s", title="T", body="An edited body of the old story.")
    assert inc.check(item) == UNCHANGED


def test_anchors_are_capped_per_url_and_cut_to_two_once_sent(tmp_path):
    links = LinkInfo(tmp_path / "linkinfo.sqlite")
    for source in range(30):  # the same few texts from many pages, and many different texts
        links.add("s", f"http://s/index{source}", [("http://s/sent", f"Headline {source % 3}"),
                                                  ("http://s/waiting", f"Text number {source}")])
    links.close()
    history = ArticleHistory(tmp_path / "history.sqlite")
    history.put(Emitted("http://s/sent", "s", "http://s/sent", "h", b"", 1, "2026-01-01"))
    history.close()
    removed = prune(tmp_path, Retention(keep_anchors=8))
    links = LinkInfo(tmp_path / "linkinfo.sqlite")
    assert links.anchors("http://s/sent") == ["Headline 0", "Headline 1"][:SENT_ANCHORS]
    assert links.anchors("http://s/waiting") == [f"Text number {i}" for i in range(8)]  # the first seen
    assert removed["linkinfo.sqlite"] == 60 - 2 - 8


def test_fetch_records_of_old_non_articles_go_and_old_articles_are_archived_and_skipped(tmp_path):
    log = FetchLog(tmp_path / "fetchlog.sqlite")
    for url, article in (("http://s/index", False), ("http://s/story", True)):
        log.seen(url, "s", '"etag"', None, None)
        log.commit([url], article=article)
    log.set_published("http://s/feeditem", "s", "2026-01-01")  # a feed's date: kept
    assert log.plan("http://s/story", RecheckPolicy(), "2026-01-01").action == SKIP  # checked just now
    assert log.plan("http://s/story", RecheckPolicy(), "2099-01-01").action == RECHECK  # its sitemap date changed
    log.close()
    assert prune(tmp_path, Retention(keep_text_days=30))["fetchlog.sqlite"] == 0  # checked just now
    assert prune(tmp_path, Retention(keep_text_days=30), now=LATER)["fetchlog.sqlite"] == 2  # index gone, story archived
    log = FetchLog(tmp_path / "fetchlog.sqlite")
    assert log.articles("s") == 0 and log.archived("http://s/story") and not log.archived("http://s/index")
    assert log.plan("http://s/story", RecheckPolicy(), "2099-01-01") == Plan(SKIP, {})  # known: never again
    assert log.plan("http://s/index", RecheckPolicy()).action == FETCH
    log.set_published("http://s/story", "s", "2026-02-01")  # a feed lists it again: still skipped
    assert log.plan("http://s/story", RecheckPolicy()).action == SKIP
    assert log.published("http://s/feeditem") == "2026-01-01"
    log.close()
    assert prune(tmp_path, Retention(keep_text_days=30), now=LATER)["fetchlog.sqlite"] == 1  # (that feed's row)


def test_anchors_of_archived_articles_go_and_an_archived_article_is_not_sent_again(tmp_path):
    from newsstemmer.crawl.config import Config
    from newsstemmer.crawl.incremental import UNCHANGED, Incremental
    from newsstemmer.crawl.items import ArticleItem

    links = LinkInfo(tmp_path / "linkinfo.sqlite")
    links.add("s", "http://s/index", [("http://s/1", "An old story"), ("http://s/2", "An old story too"),
                                      ("http://s/new", "A story not sent yet")])
    links.close()
    history = ArticleHistory(tmp_path / "history.sqlite")
    history.put(_article(1))
    history.close()
    log = FetchLog(tmp_path / "fetchlog.sqlite")
    log.seen("http://s/2", "s", None, None, None)
    log.commit(["http://s/2"], article=True)
    log.close()
    prune(tmp_path, Retention(keep_text_days=30), now=LATER)
    links = LinkInfo(tmp_path / "linkinfo.sqlite")
    # s/1 archived by the history, s/2 by the fetch log: their anchors go, the unsent one's stay
    assert [links.anchors(u) for u in ("http://s/1", "http://s/2", "http://s/new")] == [[], [], ["A story not sent yet"]]
    links.close()

    inc = Incremental.__new__(Incremental)
    inc.config, inc.enabled, inc._waiting = Config(), True, {}
    inc.history, inc.fetchlog = ArticleHistory(tmp_path / "history.sqlite"), FetchLog(tmp_path / "fetchlog.sqlite")
    edited = ArticleItem(url="http://s/1", site="s", title="T", body="An edited body of the old story.")
    assert inc.check(edited) == UNCHANGED
    inc.close()


def test_old_runs_go_and_the_last_ones_stay(tmp_path):
    runs = RunLog(tmp_path / "runs.sqlite")
    for _ in range(30):
        run, _started = runs.begin()
        runs.add(run, "s", {"run": run, "new_articles": 3}, {"p0": 5})
        runs.end(run, "finished")
    runs.close()
    assert prune(tmp_path, Retention(keep_runs=20))["runs.sqlite"] == 10
    runs = RunLog(tmp_path / "runs.sqlite")
    kept = runs.recent("s", 100)
    assert len(kept) == 20 and min(r["run"] for r in kept) == 11


def test_freed_pages_are_given_back_and_health_rotates(tmp_path):
    buffer = PageBuffer(tmp_path / "buffer.sqlite")
    pages = [FetchedPage(f"http://s/{i}", "s", "<p>" + "word " * 4000 + "</p>") for i in range(60)]
    for p in pages:
        buffer.add(p)
    buffer.delete("s", [p.url for p in pages])
    buffer.close()
    health = tmp_path / "health.jsonl"
    health.write_text(json.dumps({"run": 1, "pad": "x" * 2000}) + "\n" * 1)
    full = census(tmp_path)
    assert full[0].free_bytes > 1_000_000
    removed = prune(tmp_path, Retention(health_max_mb=0.001))
    assert removed["bytes_freed"] > 1_000_000 and removed["health.jsonl"] == 1
    assert census(tmp_path)[0].bytes < full[0].bytes / 4
    assert not health.exists() and (tmp_path / "health.jsonl.1").exists()
    PageBuffer(tmp_path / "buffer.sqlite").add(pages[0])  # still a working store after the vacuum


def test_measuring_and_pruning_the_state_leave_no_wal_or_shm_files_behind(tmp_path):
    """A read-only SQLite connection makes a WAL store's -wal and -shm files (32 KB) and cannot
    remove them: the prune at each crawl's close left six of them, 0.19 MB of a 4-site state."""
    stores = [PageBuffer(tmp_path / "buffer.sqlite"), ArticleHistory(tmp_path / "history.sqlite"),
              FetchLog(tmp_path / "fetchlog.sqlite"), LinkInfo(tmp_path / "linkinfo.sqlite")]
    stores[0].add(FetchedPage("http://s/1", "s", "<p>one</p>"))
    for store in stores:
        store.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["buffer.sqlite", "fetchlog.sqlite", "history.sqlite",
                                                          "linkinfo.sqlite"]
    assert census(tmp_path)[0].rows == {"pages": 1}
    prune(tmp_path)
    assert not [p.name for p in tmp_path.iterdir() if p.name.endswith(("-wal", "-shm"))]
    with pytest.raises(sqlite3.OperationalError):  # (it reads only)
        from newsstemmer.crawl.storage.sqlite_files import open_to_read

        open_to_read(tmp_path / "buffer.sqlite").execute("DELETE FROM pages")


@pytest.mark.crawl
def test_a_crawl_prunes_at_close_and_scrapy_state_shows_the_stores(tmp_path):
    from newsstemmer.crawl.testing import REPRODUCIBLE_SETTINGS, build_test_site, crawl_stats, run_crawl, serve

    settings = {"NEWSSTEMMER_STATE_DIR": str(tmp_path / "state"), "NEWSSTEMMER_PATTERNS_DIR": str(tmp_path / "p"),
                **REPRODUCIBLE_SETTINGS, "NEWSSTEMMER_KEEP_ANCHORS": 2}
    with serve(build_test_site(n_articles=24, hostile=False)) as base:
        result = run_crawl([base + "/"], tmp_path / "out.jsonl", settings)
    assert result.returncode == 0, result.stderr[-3000:]
    stats = crawl_stats(result.stderr)
    assert stats.get("newsstemmer/state_bytes_freed", 0) >= 0
    conn = sqlite3.connect(tmp_path / "state" / "linkinfo.sqlite")
    (most,) = conn.execute("SELECT MAX(n) FROM (SELECT COUNT(*) AS n FROM anchors GROUP BY url)").fetchone()
    conn.close()
    assert most is not None and most <= 2  # pruned at the crawl's close
    (tmp_path / "scrapy.cfg").write_text((REPO / "scrapy.cfg").read_text())
    cmd = [sys.executable, "-m", "scrapy", "state", "--json", "-s", f"NEWSSTEMMER_STATE_DIR={tmp_path / 'state'}"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, (str(REPO), os.environ.get("PYTHONPATH"))))}
    shown = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=60, env=env)  # (this checkout's)
    assert shown.returncode == 0, shown.stderr[-2000:]
    got = json.loads(shown.stdout)
    names = {s["store"] for s in got["stores"]}
    assert {"buffer.sqlite", "linkinfo.sqlite", "history.sqlite", "fetchlog.sqlite", "runs.sqlite"} <= names
    assert got["total_bytes"] == sum(s["bytes"] for s in got["stores"])
    history = next(s for s in got["stores"] if s["store"] == "history.sqlite")
    assert history["rows"]["sent"] == len((tmp_path / "out.jsonl").read_text().splitlines())
    missing = subprocess.run([sys.executable, "-m", "scrapy", "state", "-s", "NEWSSTEMMER_STATE_DIR=nowhere"],
                             cwd=tmp_path, capture_output=True, text=True, timeout=60, env=env)
    assert missing.returncode != 0 and "no state folder at nowhere" in missing.stderr + missing.stdout


def test_anchors_stay_for_a_sites_latest_sent_articles_only(tmp_path):
    import time

    links = LinkInfo(tmp_path / "linkinfo.sqlite")
    links.add("s", "http://s/index", [(f"http://s/{i}", f"Story {i}") for i in range(6)])
    links.add("t", "http://t/index", [("http://t/0", "Another site's story")])
    links.close()
    history = ArticleHistory(tmp_path / "history.sqlite")
    for i in range(5):  # sent in this order: 4 is the latest; 5 is not sent yet
        history.put(Emitted(f"http://s/{i}", "s", f"http://s/{i}", "h", b"", 1, "2026-01-01"))
        time.sleep(0.002)
    history.put(Emitted("http://t/0", "t", "http://t/0", "h", b"", 1, "2026-01-01"))
    history.close()
    prune(tmp_path, Retention(sent_anchored=2))  # (what a drift would fetch again to relearn from: 2 a site)
    links = LinkInfo(tmp_path / "linkinfo.sqlite")
    assert [bool(links.anchors(f"http://s/{i}")) for i in range(6)] == [False, False, False, True, True, True]
    assert links.anchors("http://t/0") == ["Another site's story"]
    links.add("s", "http://s/index", [("http://s/1", "Story 1 linked again")])
    links.close()
    conn = sqlite3.connect(tmp_path / "history.sqlite")  # URLs kept for the latest only (what a drift fetches)
    assert sorted(u for (u,) in conn.execute("SELECT url FROM sent WHERE url != ''")) == ["http://s/3", "http://s/4", "http://t/0"]
    conn.close()
    history = ArticleHistory(tmp_path / "history.sqlite")
    assert history.recent("s", 5) == ["http://s/4", "http://s/3"] and history.count("s") == 5
    old = history.get("http://s/1")  # found by its digest
    assert (old.key, old.url, old.content_hash, old.first_seen, old.archived) == ("http://s/1", "http://s/1", "h", "2026-01-01", False)
    history.close()
    prune(tmp_path, Retention(sent_anchored=2))
    assert LinkInfo(tmp_path / "linkinfo.sqlite").anchors("http://s/1") == []  # a sent one's, told by its digest


def test_times_are_packed_where_they_come_back_the_same(tmp_path):
    for iso in ("2026-11-22T07:00:25+00:00", "1970-01-01T00:00:00+00:00"):
        assert isinstance(pack_time(iso), bytes) and len(pack_time(iso)) == 4 and unpack_time(pack_time(iso)) == iso
    for other in ("2026-11-22", "2026-11-22T07:00:25+02:00", "2026-11-22T07:00:25.5+00:00", "2026-11-24T05:57",
                  "2026-11-22T07:00:25Z", "not a date", "", None):
        assert pack_time(other) == other
    for date in ("Tue, 10 Nov 2026 05:52:00 GMT", "Thu, 01 Jan 1970 00:00:00 GMT"):
        assert len(pack_http_date(date)) == 4 and unpack_http_date(pack_http_date(date)) == date
    for other in ("Tue, 10 Nov 2026 05:52:00 +0000", "Tuesday, 10-Nov-26 05:52:00 GMT", "Wed, 10 Nov 2026 05:52:00 GMT",
                  "Tue, 10 Nov 2026 5:52:00 GMT ", "garbage", None):  # (a wrong weekday would come back otherwise)
        assert pack_http_date(other) == other
    log = FetchLog(tmp_path / "fetchlog.sqlite")
    log.seen("http://s/1", "s", '"e1"', "Tue, 10 Nov 2026 05:52:00 GMT", "2026-11-10T05:52:00+00:00")
    log.commit(["http://s/1"], article=True)
    log.set_published("http://s/1", "s", "2026-11-09T08:00:00+00:00")
    assert log.validators("http://s/1") == {"If-None-Match": '"e1"', "If-Modified-Since": "Tue, 10 Nov 2026 05:52:00 GMT"}
    assert log.published("http://s/1") == "2026-11-09T08:00:00+00:00"
    assert log.plan("http://s/1", RecheckPolicy(), "2026-11-10T05:52:00+00:00").action == SKIP  # the same date: unchanged
    assert log.plan("http://s/1", RecheckPolicy(), "2026-11-12T00:00:00+00:00").action == RECHECK  # a later one
    row = log._conn.execute("SELECT last_modified, hint, published FROM records").fetchone()
    assert [len(v) for v in row] == [4, 4, 4]
    log.close()
    history = ArticleHistory(tmp_path / "history.sqlite")
    history.put(Emitted("http://s/1", "s", "http://s/1", "h", b"", 1, "2026-11-22T07:00:25+00:00", "2026-11-20T10:00:00+02:00"))
    got = history.get("http://s/1")
    assert (got.first_seen, got.published) == ("2026-11-22T07:00:25+00:00", "2026-11-20T10:00:00+02:00")
    history.close()
