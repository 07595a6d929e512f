"""Monitoring parts one by one: state stores, change measure, page metadata, feeds and sitemaps,
pattern-file history, health alerts, and the demo's days (new, updated, redesigned; 304s)."""

from __future__ import annotations

import gzip
import json
import sqlite3
import subprocess
import sys
import urllib.error
import urllib.request

import pytest

from newsstemmer.crawl.config import Config
from newsstemmer.crawl.discovery import feed_entries, feed_links, newest_first, robots_sitemaps, sitemap_entries
from newsstemmer.crawl.storage.sqlite_fetchlog import FETCH, RECHECK, SKIP, FetchLog, hint_is_later
from newsstemmer.crawl.storage.sqlite_history import ArticleHistory, Emitted
from newsstemmer.crawl.incremental import article_change, body_change, content_hash
from newsstemmer.crawl.metadata import page_metadata, visible_text
from newsstemmer.crawl.monitor import health_alerts
from newsstemmer.crawl.storage.sqlite_runlog import RunLog
from newsstemmer.crawl.storage.sqlite_files import StateError
from newsstemmer.crawl.testing import REPO_ROOT
from newsstemmer.demo import DemoServer, build_site
from newsstemmer.demo.days import NEW_PER_DAY, UPDATES_PER_DAY
from newsstemmer.dom.parse import parse_html
from newsstemmer.layout.patterns import LayoutPattern, LayoutSection, PatternFileError, SitePatterns

BASE = "http://127.0.0.1:8765"


# -- state stores --------------------------------------------------------------------------------


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
    h.put(Emitted(BASE + "/a", "s", BASE + "/a", "abc", "Body text", 2, "2026-11-22T06:00:00+00:00", None, "page"))
    got = h.get(BASE + "/a")
    assert (got.body, got.version, got.page_text) == ("Body text", 2, "page")
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


# -- what counts as a change -------------------------------------------------------------------


PARAS = ["The council met on Monday to discuss the new harbour plan and its costs for the town.",
         "Residents said the ferry timetable had been changed three times since the summer.",
         "The mayor promised a public consultation before any contract is signed next year."]


def test_change_measure_tells_an_update_from_a_body_cut_anew():
    page = "Most read Menu " + " ".join(PARAS) + " Related stories Footer"
    body = "\n".join(PARAS)
    assert content_hash(body) == content_hash("  " + body.replace("\n", " \n ")) != content_hash(body + " x")
    assert body_change(body, body) == 0.0 and body_change("", "") == 0.0 and body_change(body, "") == 1.0
    # a redesign: the new layout also takes the page's menu line, the old one missed a paragraph
    assert article_change("\n".join(PARAS[:2]), page, "Menu\n" + body, page) < 0.02
    # an update: a new passage in the first paragraph
    update = PARAS[0] + " Update: the vote was postponed after a late objection from the fishing association."
    new_page = page.replace(PARAS[0], update)
    assert article_change(body, page, "\n".join([update, *PARAS[1:]]), new_page) > 0.2
    # a removal counts too
    assert article_change(body, page, PARAS[0], "Most read " + PARAS[0]) > 0.5


# -- page metadata -------------------------------------------------------------------------------


@pytest.mark.parametrize("head, body, expected", [
    ('<meta property="article:published_time" content="2026-11-22T06:00:00+00:00">', "", "2026-11-22T06:00:00+00:00"),
    ('<script type="application/ld+json">{"@graph": [{"@type": "WebPage"}, {"@type": "NewsArticle", '
     '"datePublished": "2026-11-21"}]}</script>', "", "2026-11-21"),
    ("", '<p>x</p><time datetime="2026-01-01">then</time><time class="published" datetime="2026-11-20T10:00">',
     "2026-11-20T10:00"),
    ('<script type="application/ld+json">{broken</script>', "<p>No date here.</p>", None),
])
def test_published_date_from_page_metadata(head, body, expected):
    tree = parse_html(f'<html><head>{head}<link rel="Canonical" href="/a/b.html"></head><body>{body}</body></html>')
    meta = page_metadata(tree, BASE + "/a/b.html?utm=1")
    assert meta.published == expected and meta.canonical == BASE + "/a/b.html"


def test_visible_text_is_the_body_text_with_element_boundaries_kept():
    tree = parse_html("<html><head><title>T</title></head><body><p>Hello <b>there</b></p><p>Bye</p></body></html>")
    assert visible_text(tree).split() == ["Hello", "there", "Bye"]
    assert "thereBye" not in visible_text(tree)


# -- feeds and sitemaps --------------------------------------------------------------------------


def test_sitemaps_of_the_demo_days():
    day1, day2 = build_site(), build_site(day=2)
    assert robots_sitemaps(day1.render("/robots.txt", BASE), BASE) == [BASE + "/sitemap.xml"]
    kind, entries = sitemap_entries(day1.render("/sitemap.xml", BASE), BASE + "/sitemap.xml")
    assert kind == "urlset" and len(entries) == len(day1.articles()) + sum(p.kind == "index" for p in day1)
    assert robots_sitemaps(day2.render("/robots.txt", BASE), BASE) == [BASE + "/sitemap.xml", BASE + "/sitemaps/news.xml"]
    kind, index = sitemap_entries(day2.render("/sitemap.xml", BASE), BASE + "/sitemap.xml")
    assert kind == "sitemapindex" and [e.url for e in index] == [BASE + "/sitemaps/articles.xml", BASE + "/sitemaps/pages.xml"]
    kind, news = sitemap_entries(day2.render("/sitemaps/news.xml", BASE), BASE + "/sitemaps/news.xml")
    new_paths = {p.path for p in day2.articles()} - {p.path for p in day1.articles()}
    assert kind == "urlset" and {e.url for e in news} == {BASE + p for p in new_paths}
    assert all(e.published and e.published.startswith("2026-11-2") for e in news)  # Google News publication_date
    _, arts = sitemap_entries(gzip.compress(day2.render("/sitemaps/articles.xml", BASE)), BASE + "/a.xml.gz")
    updated = {BASE + p for p in day2.updated}
    assert {e.url for e in newest_first(arts)[:len(updated) + len(new_paths)]} >= updated  # newest first
    with pytest.raises(ValueError):
        sitemap_entries(b"<html><body>not a sitemap</body></html>", BASE + "/x")
    with pytest.raises(ValueError):
        sitemap_entries(b"", BASE + "/x")


def test_feeds_rss_atom_and_links():
    day2 = build_site(day=2)
    rss = feed_entries(day2.render("/feed.xml", BASE), BASE + "/feed.xml")
    newest = sorted(day2.articles(), key=lambda p: p.published or "", reverse=True)[0]
    assert len(rss) == 30 and rss[0].url == BASE + newest.path and rss[0].published == newest.published
    atom = (b'<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>t</title>'
            b'<entry><title>A</title><link href="/a.html"/><id>1</id><updated>2026-11-20T10:00:00Z</updated></entry>'
            b'<entry><title>B</title><link href="/b.html"/><id>2</id><updated>2026-11-21T10:00:00Z</updated></entry></feed>')
    entries = newest_first(feed_entries(atom, BASE + "/atom.xml"))
    assert [e.url for e in entries] == [BASE + "/b.html", BASE + "/a.html"]
    with pytest.raises(ValueError):
        feed_entries(b"<html><body><p>no feed</p></body></html>", BASE + "/x")
    home = parse_html(day2.render("/", BASE).decode())
    assert feed_links(home, BASE + "/") == [BASE + "/feed.xml"]
    assert feed_links(parse_html(build_site().render("/", BASE).decode()), BASE + "/") == []  # day 1 unchanged


# -- pattern files keep their history ----------------------------------------------------------


def _layout(i: str, **kw) -> LayoutPattern:
    return LayoutPattern(i, 150.0, 3, [LayoutSection("div.x", 0.9, 90.0, "main")], main_section=0, **kw)


def test_pattern_history_and_retirement_round_trip(tmp_path):
    old_style = SitePatterns("s", [_layout("p0"), _layout("p1")], pages=["u1", "u2"], created="2026-11-01T00:00:00+00:00")
    path = old_style.save(tmp_path / "s.json")
    raw = json.loads(path.read_text())
    assert "history" not in raw and "retired" not in raw and "version" not in raw["patterns"][0]  # old shape kept
    sp = SitePatterns.load(path)
    assert sp.revision == 1 and sp.history == []
    sp.patterns.append(_layout("p2", version=2, learned_at="2026-11-24T00:00:00+00:00"))
    sp.add_version({"version": 2, "learned_at": "2026-11-24T00:00:00+00:00", "pages": 30, "reason": "drift",
                    "added": ["p2"]})
    gone = sp.retire(["p0"], "2026-12-01T00:00:00+00:00", "no page matched for 10 runs")
    assert [p.id for p in gone] == ["p0"] and [p.id for p in sp.patterns] == ["p1", "p2"]
    sp.save(path)
    back = SitePatterns.load(path)
    assert [h["version"] for h in back.history] == [1, 2, 3] and back.revision == 3
    assert back.history[0]["added"] == ["p0", "p1"] and back.history[2]["retired"] == ["p0"]
    assert [(p.id, p.retired_at) for p in back.retired] == [("p0", "2026-12-01T00:00:00+00:00")]
    assert back.patterns[1].version == 2 and back.patterns[1].learned_at == "2026-11-24T00:00:00+00:00"
    out = subprocess.run([sys.executable, "-m", "newsstemmer", "patterns", "history", str(path)],
                         capture_output=True, text=True, cwd=REPO_ROOT)
    assert out.returncode == 0, out.stderr
    assert "version 3, 2 layouts in use, 1 retired" in out.stdout and "retired p0" in out.stdout
    assert "drift: added p2" in out.stdout
    js = subprocess.run([sys.executable, "-m", "newsstemmer", "patterns", "history", "--json", str(path)],
                        capture_output=True, text=True, cwd=REPO_ROOT)
    data = json.loads(js.stdout)
    assert data["version"] == 3 and {r["id"]: r["state"] for r in data["layouts"]} == {
        "p1": "in use", "p2": "in use", "p0": "retired"}


@pytest.mark.parametrize("change, message", [
    ({"history": {"version": 1}}, "history"),
    ({"history": [{"version": 0}]}, "positive whole number"),
    ({"retired": [{"id": "p9"}]}, "retired layout #0"),
])
def test_bad_history_gives_a_clear_error(tmp_path, change, message):
    data = SitePatterns("s", [_layout("p0")]).to_dict() | change
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(PatternFileError, match=message):
        SitePatterns.load(path)


# -- health alerts -----------------------------------------------------------------------------


def test_health_alerts():
    config = Config()
    healthy = {"new_articles": 3, "updates": 0, "coverage": 0.95, "article_pages": 20, "error_rate": 0.0}
    assert health_alerts(healthy, [], config) == []
    quiet = dict(healthy, new_articles=0)
    assert health_alerts(quiet, [{"new_articles": 0}], config) == []  # one past run says nothing
    assert health_alerts(quiet, [{"new_articles": 4}, {"new_articles": 2}], config) == ["no new articles (usually 3)"]
    assert health_alerts(dict(healthy, coverage=0.5), [], config) == ["coverage 0.50 below 0.80"]
    assert health_alerts(dict(healthy, coverage=0.5, article_pages=2), [], config) == []  # too few pages to tell
    assert health_alerts(dict(healthy, error_rate=0.25), [], config) == ["error rate 0.25 above 0.10"]


# -- the demo's days ---------------------------------------------------------------------------


def test_demo_days_publish_update_and_redesign():
    day1, day2, day3 = build_site(), build_site(day=2), build_site(day=3)
    paths1, paths2 = {p.path for p in day1.articles()}, {p.path for p in day2.articles()}
    assert len(paths2 - paths1) == NEW_PER_DAY >= 10 and paths1 < paths2
    assert len(day2.updated) == UPDATES_PER_DAY and set(day2.updated.values()) == {2}
    for path in day2.updated:
        assert day2[path].text != day1[path].text and "Update, Monday 23 November 2026:" in day2[path].text
    records = day3.truth_records()
    assert len(records) == len(day3.articles()) and {r["updated"] for r in records} == {None, 2, 3}
    # day 3 is a redesign: no class name of day 1's article template is left, the truth is the same text
    std = next(p for p in day3.articles() if p.layout == "standard" and p.path in paths1 and p.path not in day3.updated)
    assert b'class="entry-content"' in day1[std.path].body and b"entry-content" not in std.body
    assert std.text == day1[std.path].text
    out = subprocess.run([sys.executable, "-m", "newsstemmer.demo", "truth", "--day", "2"], capture_output=True,
                         text=True, cwd=REPO_ROOT)
    lines = [json.loads(x) for x in out.stdout.splitlines()]
    assert len(lines) == len(paths2) and set(lines[0]) == {"path", "title", "body", "published", "updated"}
    with pytest.raises(ValueError):
        build_site(day=0)


def _get(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict, bytes]:
    req = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as err:
        return err.code, dict(err.headers), err.read()


def test_demo_server_validators_304_and_day_switch():
    day1 = build_site()
    art = day1.articles()[0]
    with DemoServer(day1) as server:
        status, headers, body = _get(server.url(art.path))
        assert status == 200 and headers["ETag"] and headers["Last-Modified"].endswith("GMT")
        assert _get(server.url(art.path), {"If-None-Match": headers["ETag"]})[0] == 304
        assert _get(server.url(art.path), {"If-Modified-Since": headers["Last-Modified"]})[0] == 304
        assert _get(server.url(art.path), {"If-None-Match": '"other"'})[0] == 200
        assert _get(server.url("/feed.xml"))[0] == 200
        server.switch(build_site(day=3))
        status, _, body3 = _get(server.url(art.path), {"If-None-Match": headers["ETag"]})
        assert status == 200 and body3 != body  # redesigned: new bytes, new ETag
