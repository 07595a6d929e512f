"""The SQLite stores of one crawl, one by one (the contracts shared with Redis are in
test_crawl_storage.py): linkinfo, buffer, frontier, fetch log, article history, run log, state files."""

from __future__ import annotations

import json
import sqlite3

import pytest

from newsstemmer.crawl.items import FetchedPage
from newsstemmer.crawl.storage.records import FETCH, RECHECK, SKIP, Emitted, RecheckPolicy, hint_is_later, url_hash
from newsstemmer.crawl.storage.sqlite_anchors import LinkInfo
from newsstemmer.crawl.storage.sqlite_buffer import PageBuffer
from newsstemmer.crawl.storage.sqlite_fetchlog import FetchLog
from newsstemmer.crawl.storage.sqlite_files import StateError
from newsstemmer.crawl.storage.sqlite_history import ArticleHistory
from newsstemmer.crawl.storage.sqlite_runlog import RunLog

BASE = "http://127.0.0.1:8765"


def test_linkinfo_keeps_every_anchor_text(tmp_path):
    li = LinkInfo(tmp_path / "l.sqlite")
    li.add("a", "http://a/", [("http://a/x", "Storm closes  coast road"), ("http://a/x", "Read more"), ("http://a/y", "")])
    li.add("a", "http://a/news/", [("http://a/x", "Coast road closed"), ("http://a/x", "Storm closes coast road")])
    li.add("a", "http://a/news/", [("http://a/x", "Coast road closed")])  # the same link seen again
    assert li.anchors("http://a/x") == ["Storm closes coast road", "Read more", "Coast road closed"]
    assert len(li.sources("http://a/x")) == 4
    assert li.anchors("http://a/y") == []
    assert li.anchors(["http://a/old", "http://a/x"])[0] == "Storm closes coast road"
    n = li.export_jsonl("a", tmp_path / "links.jsonl")
    assert n == 1
    assert json.loads((tmp_path / "links.jsonl").read_text())["anchors"][2] == "Coast road closed"
    li.close()


def test_buffer_round_trip_survives_reopening(tmp_path):
    buf = PageBuffer(tmp_path / "b.sqlite")
    buf.add(FetchedPage("http://a/1", "a", "<p>one</p>", ["One"], "2026-01-01T00:00:00+00:00"))
    buf.add(FetchedPage("http://a/2", "a", "<p>two</p>"))
    buf.add(FetchedPage("http://b/1", "b", "<p>b</p>"))
    buf.add(FetchedPage("http://a/1", "a", "<p>one again</p>", ["One"]))  # replaces
    buf.close()
    buf = PageBuffer(tmp_path / "b.sqlite")
    assert buf.sites() == {"a": 2, "b": 1}
    assert buf.urls("a") == ["http://a/2", "http://a/1"]
    (p,) = buf.get("a", ["http://a/1", "http://a/missing"])
    assert (p.html, p.anchor_texts) == ("<p>one again</p>", ["One"])
    assert buf.delete("a", ["http://a/1", "http://a/missing"]) == 1
    assert buf.count() == 2
    mode = sqlite3.connect(tmp_path / "b.sqlite").execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"


def test_frontier_resumes_only_interrupted_crawls(tmp_path):
    from newsstemmer.crawl.storage.sqlite_frontier import Frontier

    db = tmp_path / "frontier.sqlite"
    f = Frontier(db)
    assert f.begin() is None  # fresh
    assert f.admit("a", "http://a/", 0, limit=3) and f.admit("a", "http://a/1", 1, limit=3)
    assert not f.admit("a", "http://a/1", 1, limit=3)  # once per crawl
    assert f.admit("a", "http://a/2", 1, limit=3) and not f.admit("a", "http://a/3", 1, limit=3)  # limit
    assert f.admit("b", "http://b/", 0, limit=3)
    f.done(["http://a/", "http://a/unknown"])
    f.close()  # killed: the run never ended

    f = Frontier(db)
    resume = f.begin()
    assert resume is not None and resume.reason is None and resume.done == 1 and not resume.by_scrapy
    assert resume.pending == [("http://a/1", 1), ("http://a/2", 1), ("http://b/", 0)]
    assert f.count("a") == 3 and not f.admit("a", "http://a/", 0)  # done pages are not fetched again
    assert not f.admit("b", "http://b/", 0, limit=3)  # nor pending ones (their site is below its limit)
    assert f.known("http://a/2") and not f.known("http://a/3")  # a/3 was left out by the limit
    f.end("shutdown")
    f.close()

    f = Frontier(db)
    assert f.begin(jobdir="/job").by_scrapy is False  # the stopped run had no JOBDIR
    f.end("shutdown")
    f.close()
    f = Frontier(db)
    assert f.begin(jobdir="/job").by_scrapy is True
    f.end("finished")
    f.close()

    f = Frontier(db)
    assert f.begin(jobdir="/job") is None and f.pending() == 0  # a finished crawl is not resumed
    f.close()


def test_fetchlog_plans_skip_recheck_and_fetch(tmp_path):
    log = FetchLog(tmp_path / "f.sqlite")
    url = BASE + "/a.html"
    assert log.plan(url, 3600).action == FETCH  # never seen
    log.seen(url, "s", '"e1"', "Sun, 22 Nov 2026 06:00:00 GMT", "2026-11-22")
    assert log.plan(url, 3600).action == FETCH  # pending: the item has not reached the feeds yet
    log.commit([url], article=True)
    assert log.plan(url, 3600).action == SKIP  # a fresh article
    assert log.plan(url, 3600, hint="2026-11-22").action == SKIP
    assert log.plan(url, 3600, hint="2026-11-22T18:00:00+00:00").action == SKIP  # same day, finer date
    plan = log.plan(url, 3600, hint="2026-11-23")  # the sitemap says it changed
    assert plan.action == RECHECK
    assert plan.headers == {"If-None-Match": '"e1"', "If-Modified-Since": "Sun, 22 Nov 2026 06:00:00 GMT"}
    assert log.plan(url, 0).action == RECHECK  # too old
    log.not_modified(url, "2026-11-23")
    assert log.plan(url, 3600, hint="2026-11-23").action == SKIP
    other = BASE + "/index/"
    log.seen(other, "s", None, None, None)
    log.commit([other], article=False)
    assert log.plan(other, 3600).action == FETCH  # not an article: fetched every run
    assert log.articles("s") == 1


def test_hint_comparison():
    assert hint_is_later("2026-11-23", "2026-11-22")
    assert not hint_is_later("2026-11-22T23:00:00+00:00", "2026-11-22")
    assert hint_is_later("2026-11-22T23:00:00Z", "2026-11-22T22:00:00+00:00")
    assert not hint_is_later("2026-11-21", "2026-11-22")


def test_history_and_runlog_round_trip(tmp_path):
    h = ArticleHistory(tmp_path / "h.sqlite")
    h.put(Emitted(BASE + "/a", "s", BASE + "/a", "abc", b"sketch", 2, "2026-11-22T06:00:00+00:00", None))
    got = h.get(BASE + "/a")
    assert (got.sketch, got.version, got.content_hash, got.archived) == (b"sketch", 2, "abc", False)
    assert h.get("missing") is None and h.recent("s", 5) == [BASE + "/a"] and h.count("s") == 1
    runs = RunLog(tmp_path / "r.sqlite")
    for matches in ({"p0": 3, "p1": 0}, {"p0": 2, "p1": 0}, {"p0": 0, "p1": 0}, {"p0": 1, "p1": 0, "p2": 0}):
        run, _ = runs.begin()
        runs.add(run, "s", {"new_articles": 1}, matches)
    # p1 matched nothing in the 3 runs where the site had matches; p2 exists since the last one only
    assert runs.idle_runs("s", ["p0", "p1", "p2"]) == {"p0": 0, "p1": 3, "p2": 1}
    assert len(runs.recent("s", 10)) == 4 and runs.recent("s", 10, before=2) == [{"new_articles": 1}]


def test_state_files_that_are_not_ours_are_moved_aside_or_refused(tmp_path, caplog):
    bad = tmp_path / "history.sqlite"
    bad.write_bytes(b"garbage " * 1000)
    with caplog.at_level("WARNING"):
        history = ArticleHistory(bad)
    aside = [p for p in tmp_path.iterdir() if p.name.startswith("history.sqlite.unreadable-")]
    assert len(aside) == 1 and aside[0].read_bytes() == b"garbage " * 1000  # kept, not deleted
    assert "not a usable article history database" in caplog.text and str(aside[0]) in caplog.text
    assert history.get("http://x/a") is None  # a fresh, working store
    newer = tmp_path / "fetchlog.sqlite"
    conn = sqlite3.connect(newer)
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    with pytest.raises(StateError, match="newer than this newsstemmer"):
        FetchLog(newer)
    assert newer.exists()


DAY = 86400.0


def _runs_due(policy: RecheckPolicy, days: int, jitter: float = 0.0) -> list[int]:
    """The days (after the first check at 0) on which a run a day re-checks an article;
    ``jitter``: each run reaches the article that much later than the run before."""
    first = checked = 0.0
    out = []
    for day in range(1, days + 1):
        now = day * DAY + (jitter * day if day % 2 else -jitter)
        if policy.due(checked, first, now):
            out.append(day)
            checked = now
    return out


def test_recheck_policy_backs_off_with_age_and_stops_after_its_window():
    default = RecheckPolicy()
    assert _runs_due(default, 60) == [1, 2, 4]  # then older than 7 days: never by age
    assert _runs_due(default, 60, jitter=300) == [1, 2, 4]  # a run that reaches it minutes later or sooner
    assert _runs_due(RecheckPolicy(DAY, 0.0, None), 5) == [1, 2, 3, 4, 5]  # no backoff, no window: every day
    assert _runs_due(RecheckPolicy(DAY, 0.5, None), 40) == [1, 2, 4, 8, 16, 32]  # 0.5: the waits double
    assert _runs_due(RecheckPolicy(DAY, 0.25, None), 12) == [1, 2, 3, 4, 6, 8, 11]
    assert _runs_due(RecheckPolicy(DAY, 0.5, 0.0), 10) == []  # window 0: only a sitemap/feed date re-checks
    assert default.due(None, None, 0.0)  # never checked
    assert default.due(0.0, None, DAY)  # first check unknown (an older record): taken as the last one


def test_fetchlog_of_schema_1_gains_first_checks_and_keeps_its_records(tmp_path):
    path = tmp_path / "f.sqlite"
    url = BASE + "/old.html"
    conn = sqlite3.connect(path)
    conn.executescript("""
        CREATE TABLE urls (url TEXT PRIMARY KEY, site TEXT NOT NULL, etag TEXT, last_modified TEXT, checked REAL,
            article INTEGER NOT NULL DEFAULT 0, hint TEXT, published TEXT, p_etag TEXT, p_last_modified TEXT,
            p_hint TEXT, p_at REAL);
        CREATE INDEX urls_site ON urls (site);
        PRAGMA user_version = 1;""")
    conn.execute("INSERT INTO urls (url, site, etag, checked, article) VALUES (?, 's', '\"e\"', 1000.0, 1)", (url,))
    conn.commit()
    conn.close()
    log = FetchLog(path)
    assert log.plan(url, RecheckPolicy(3600, 0.5, 7 * DAY), now=1000.0 + 1800).action == SKIP  # kept, not rebuilt
    assert log.plan(url, RecheckPolicy(3600, 0.5, 7 * DAY), now=1000.0 + 7200).action == RECHECK
    log.not_modified(url, None)  # its age now counts from the last check it had
    row = log._conn.execute("SELECT first, checked FROM records WHERE h = ?", (url_hash(url),)).fetchone()
    assert row[0] == 1000.0 and row[1] > 1000.0
    assert log._conn.execute("PRAGMA user_version").fetchone()[0] == 5  # (3: archive table; 4: keyed by digest; 5: packed dates)
    assert {t for (t,) in log._conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")} == {"records", "archived"}
    assert not log.archived(url)
    log.close()
