"""The long-run demo's pages made on request (issue #26): the same bytes as pages made and kept,
a journal that lets another process go on at the day reached, and memory that does not grow
with the pages served."""

from __future__ import annotations

import gc
import http.client
import json
import tracemalloc
from pathlib import Path

import pytest

from demo_stored_days import StoredDays
from newsstemmer.crawl.testing import free_port
from newsstemmer.demo import DemoServer, longrun
from newsstemmer.demo.days import Schedule
from newsstemmer.demo.longrun import DemoDays, LongRunSite
from newsstemmer.demo.sitemodel import DemoSite

FIELDS = ("path", "content_type", "kind", "title", "text", "layout", "section", "charset", "lang", "article_id",
          "published", "links")


def assert_same(stored: DemoSite, made: DemoSite) -> None:
    """Every page (and the feed) served alike: bytes, headers' content type, truth, links."""
    assert isinstance(made, LongRunSite)
    assert list(made.pages) == list(stored.pages) and len(made) == len(stored)
    for path in stored.pages:
        a, b = stored[path], made[path]
        assert [getattr(a, f) for f in FIELDS] == [getattr(b, f) for f in FIELDS], path
        assert made.render(path, "http://127.0.0.1:9") == stored.render(path, "http://127.0.0.1:9"), path
    assert made.extras.keys() == stored.extras.keys()
    for path in stored.extras:
        assert made.render(path, "http://127.0.0.1:9") == stored.render(path, "http://127.0.0.1:9")
    assert (made.day, made.seed, made.updated) == (stored.day, stored.seed, stored.updated)
    assert [p.path for p in made.articles()] == [p.path for p in stored.articles()]


@pytest.mark.parametrize("seed, articles, schedule, days", [
    (1, 120, Schedule.long(20, 6, None, 400), 6),  # the soak's kind of schedule
    (7, 30, Schedule.long(6, 3, 4, 400), 6),  # a redesign on day 4: every page written again
    (4, 50, Schedule(new_per_day=1, updates_per_day=100, redesign_day=None, last_day=3, update_window=None,
                     listing=30), 3),  # updates of any article, however old
])
def test_pages_made_on_request_are_the_pages_made_and_kept(seed, articles, schedule, days):
    stored, made = StoredDays(seed, articles, schedule), DemoDays(seed, articles, schedule)
    for day in range(1, days + 1):
        assert_same(stored.site(day), made.site(day))


def test_articles_drawn_again_from_the_seed(monkeypatch):
    """With no day and no page cached, every article (and its updates) is drawn again: the same bytes."""
    monkeypatch.setattr(longrun, "CACHED_DAYS", 1)
    monkeypatch.setattr(longrun, "CACHED_PAGES", 1)
    s = Schedule.long(20, 6, None, 400)
    stored, made = StoredDays(3, 60, s), DemoDays(3, 60, s)
    for day in range(1, 7):
        assert_same(stored.site(day), made.site(day))
    assert_same(StoredDays(3, 60, s).site(4), made.site(4))  # an earlier day, asked after a later one


def test_a_journal_lets_another_process_go_on(tmp_path: Path):
    s = Schedule.long(20, 6, None, 400)
    journal = tmp_path / "site-3.jsonl"
    first = DemoDays(3, 60, s, journal=journal)
    first.site(5)
    lines = journal.read_bytes().split(b"\n")
    assert len(lines) == 1 + 4 + 1 and json.loads(lines[1])["day"] == 2  # header, days 2-5, end
    # a stop while day 6 was written: its line cut short, dropped, the day made again
    first.site(6)
    whole = journal.read_bytes()
    journal.write_bytes(whole[:-30])
    again = DemoDays(3, 60, s, journal=journal)
    assert again.day == 5 and len(again.refs) == len(first.refs) - 20
    stored = StoredDays(3, 60, s)
    for day in (5, 6, 7, 8):
        assert_same(stored.site(day), again.site(day))
    assert journal.read_bytes().startswith(whole)  # day 6 written again as it was, day 7-8 after it
    with pytest.raises(ValueError, match="another demo run"):
        DemoDays(4, 60, s, journal=journal)
    with pytest.raises(ValueError, match="another demo run"):
        DemoDays(3, 60, Schedule.long(21, 6, None, 400), journal=journal)


def test_memory_per_day_is_what_the_day_adds_not_its_pages(monkeypatch):
    """Before, every page served stayed in memory (~1.5 MB a day at 50 new articles); now what stays
    of an article is its ref (~1 KB with the sitemap's line), once the cache of recent days is full."""
    monkeypatch.setattr(longrun, "CACHED_DAYS", 8)
    days = DemoDays(1, schedule=Schedule.long(50, 10, None, 400))

    def serve(day: int) -> None:
        site = days.site(day)
        for page in site.articles()[-60:]:
            site.render(page.path, "http://127.0.0.1:9")
        for path in list(site.pages._others):
            site.render(path, "http://127.0.0.1:9")

    tracemalloc.start()  # from day 1: what is freed later must have been counted when made
    try:
        for day in range(1, 11):
            serve(day)
        gc.collect()
        start = tracemalloc.get_traced_memory()[0]
        for day in range(11, 23):
            serve(day)
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - start
    finally:
        tracemalloc.stop()
    assert grown / 12 < 100_000, f"{grown / 12 / 1e3:.0f} KB a day"


def _answers(site: DemoSite, port: int, paths: list[str]) -> list[tuple]:
    """Every path's answer on ``port``: status, headers (but the date) and body; for a page, the answers
    to its conditional requests and to HEAD."""
    def fetch(path: str, headers: dict[str, str] | None = None, method: str = "GET") -> tuple:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        try:
            conn.request(method, path, headers=headers or {})
            resp = conn.getresponse()
            return resp.status, [(k, v) for k, v in resp.getheaders() if k != "Date"], resp.read()
        finally:
            conn.close()

    out = []
    with DemoServer(site, port=port):
        for path in paths:
            got = fetch(path)
            out.append(got)
            if got[0] == 200:
                head = dict(got[1])
                out.append(fetch(path, {"If-None-Match": head["ETag"]}))
                out.append(fetch(path, {"If-Modified-Since": head["Last-Modified"]}))
                out.append(fetch(path, method="HEAD"))
    return out


def test_the_server_answers_alike():
    """Served on the same port (absolute URLs and ETags carry it): the same answers, headers included."""
    s = Schedule.long(6, 3, None, 400)
    stored, made = StoredDays(2, 30, s), DemoDays(2, 30, s)
    port = free_port()
    for day in (1, 2, 4):
        a, b = stored.site(day), made.site(day)
        paths = [*a.pages, "/feed.xml", "/world", "/nope", "/world/2026/11/20/no-such-story-1.html"]
        assert _answers(b, port, paths) == _answers(a, port, paths)
