"""Sitemaps read in full are asked for conditionally by the next run (issue #26).

A year of monitoring leaves a site with a dozen monthly sitemaps of articles that no
longer change; reading each one every run cost a parse and a fetch-log lookup per entry
(and the URLs held in memory), so a run's cost grew with the site's age.  A finished
crawl records the validators of the URL sets it read; the next run sends them, and a
``304`` means none of the set's entries changed.  The demo serves ETags for its sitemaps:
day 2 crawled twice (the second run: every URL set answered ``304``, nothing sent), then
day 3 (its changed sitemaps read again: every new article sent, none twice).
"""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from newsstemmer.crawl.storage.sqlite_fetchlog import FetchLog
from newsstemmer.crawl.testing import crawl_demo_day, free_port
from newsstemmer.demo import build_site
from newsstemmer.demo.scoring import score_day

pytestmark = pytest.mark.crawl


def _crawl(work, day: int, port: int, run: str) -> tuple[list[dict], dict]:
    items, stats, _ = crawl_demo_day(work, day, port, run, timeout=240)
    return items, stats


def test_unchanged_sitemaps_answer_304_and_changed_ones_are_read(tmp_path):
    port = free_port()
    day2, day3 = build_site(day=2), build_site(day=3)
    first, stats = _crawl(tmp_path, 2, port, "day2")
    assert first and "newsstemmer/sitemaps_unchanged" not in stats
    log = FetchLog(tmp_path / "state" / "fetchlog.sqlite")
    base = f"http://127.0.0.1:{port}"
    assert "If-None-Match" in log.validators(base + "/sitemaps/articles.xml")  # a URL set read in full
    assert log.validators(base + "/sitemap.xml") == {}  # the index: always read (it names the sets)
    log.close()

    again, stats = _crawl(tmp_path, 2, port, "day2-again")
    assert again == [] and stats["newsstemmer/sitemaps_unchanged"] >= 2  # articles.xml, news.xml, pages.xml
    assert stats["newsstemmer/sitemaps"] == 1  # only the index was parsed

    items, stats = _crawl(tmp_path, 3, port, "day3")
    new = {p.path for p in day3.articles() if p.path not in day2.pages}
    sent = {urlsplit(i["url"]).path for i in items}
    assert len(new) >= 10 and new <= sent, sorted(new - sent)
    assert score_day(items, day2, day3)["repeated"] == 0
    assert stats["newsstemmer/sitemaps"] >= 2  # the changed URL sets read again
