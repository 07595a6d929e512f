"""End-to-end: ``scrapy crawl news`` (the real engine, in a subprocess) against a local generated site.

Crawl 1 starts with nothing: it buffers pages, learns the site, saves its
patterns and emits every article through the engine.  Crawl 2 starts with those
patterns and extracts at once.  Both meet hostile pages on the way.
"""

from __future__ import annotations

import json
import sqlite3
from urllib.parse import urlsplit

import pytest

from newsstemmer import SitePatterns
from newsstemmer.crawl.testing import REPRODUCIBLE_SETTINGS, build_test_site, crawl_stats, run_crawl, serve

pytestmark = pytest.mark.crawl

MAXSIZE = "200000"  # below the site's oversized page
# One request at a time, no second process (REPRODUCIBLE_SETTINGS): the pages the first
# learning round sees then do not depend on timing, so a failure here reproduces.  (With 8
# at a time, some orders, 2 crawls in 24, learned a layout that took the inline fact box
# as main text; fixed in session 7: text inside an <aside> is never main, 0 failures in 48
# such crawls; tests/test_few_pages.py learns from one such first round's pages.)


def _norm(text: str) -> str:
    return " ".join(text.split())


def _read(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.fixture(scope="module")
def site():
    return build_test_site()


@pytest.fixture(scope="module")
def crawls(site, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("crawl")
    patterns = tmp / "patterns"
    out = {}
    with serve(site) as base:
        for n in (1, 2):
            result = run_crawl(
                [base + "/"],
                tmp / f"out{n}.jsonl",
                {
                    "NEWSSTEMMER_STATE_DIR": str(tmp / f"state{n}"),
                    "NEWSSTEMMER_PATTERNS_DIR": str(patterns),
                    "DOWNLOAD_MAXSIZE": MAXSIZE,
                    **REPRODUCIBLE_SETTINGS,
                },
            )
            assert result.returncode == 0, result.stderr[-3000:]
            out[n] = {
                "items": _read(tmp / f"out{n}.jsonl"),
                "stats": crawl_stats(result.stderr),
                "log": result.stderr,
                "state": tmp / f"state{n}",
            }
    out["patterns"] = patterns
    return out


def _articles(items, site):
    return {urlsplit(i["url"]).path: i for i in items if urlsplit(i["url"]).path in site.articles}


@pytest.mark.parametrize("n", [1, 2])
def test_every_article_is_extracted_once_with_its_title_and_body(crawls, site, n):
    items = crawls[n]["items"]
    got = _articles(items, site)
    assert set(got) == set(site.articles)
    assert len([i for i in items if urlsplit(i["url"]).path in site.articles]) == len(site.articles)
    for path, (title, body) in site.articles.items():
        item = got[path]
        assert item["method"] in ("pattern", "pattern-loose") and item["is_article"] is True
        assert item["title"] == title
        assert _norm(item["body"]) == _norm(body), path
        assert item["site"].startswith("127.0.0.1:") and item["fetched_at"].endswith("+00:00")
    bodies = " ".join(i["body"] for i in items)
    for box in site.box_texts + ["Related stories", "All rights reserved"]:
        assert box not in bodies


def test_first_crawl_buffers_learns_and_saves_patterns(crawls):
    stats = crawls[1]["stats"]
    assert stats["finish_reason"] == "finished"
    assert stats["newsstemmer/pages_buffered"] >= 20
    assert stats["newsstemmer/sites_learned"] == 1
    assert stats["newsstemmer/patterns_loaded"] == 0
    assert stats["newsstemmer/pages_left_in_buffer"] == 0
    (saved_file,) = crawls["patterns"].glob("127.0.0.1_*.json")  # the site key keeps the port
    saved = SitePatterns.load(saved_file)
    assert any(p.article for p in saved.patterns)
    # nothing was lost: every page is an item, a counted non-article, or a counted failure
    html_pages = stats["newsstemmer/pages"]
    emitted = len(crawls[1]["items"])
    assert emitted + stats.get("newsstemmer/non_articles", 0) + stats.get("newsstemmer/pages_failed/extraction", 0) == html_pages


def test_second_crawl_starts_with_the_patterns_and_extracts_at_once(crawls, site):
    stats = crawls[2]["stats"]
    assert stats["newsstemmer/patterns_loaded"] == 1
    assert stats["newsstemmer/items_extracted"] >= len(site.articles)
    # only the few pages of no known layout (front page, odd pages) wait in the buffer
    assert stats.get("newsstemmer/pages_buffered", 0) <= 4
    assert "sites_learned" not in " ".join(stats)


def test_linkinfo_records_every_anchor_text(crawls, site):
    db = sqlite3.connect(crawls[1]["state"] / "linkinfo.sqlite")
    rows = db.execute("SELECT url, text FROM anchors").fetchall()
    texts: dict[str, set[str]] = {}
    for url, text in rows:
        texts.setdefault(urlsplit(url).path, set()).add(text)
    # at the crawl's close the anchors of sent articles are pruned but for the site's
    # NEWSSTEMMER_DRIFT_SAMPLE (20) latest, the pages a drift fetches again to relearn from
    # (the site's other sent pages, e.g. its odd pages, may be among those 20)
    kept = [path for path in site.articles if path in texts]
    assert 15 <= len(kept) <= 20
    for path in kept:
        title = site.articles[path][0]
        # the full headline (front page, related boxes) and the short one (section page)
        assert {title, site.short_titles[path]} <= texts[path], path
    got = _articles(crawls[1]["items"], site)
    assert all(got[p]["anchor_count"] >= 1 for p in got)
    assert sum(got[p]["anchor_count"] >= 2 for p in got) >= len(got) // 2


def test_hostile_pages_are_counted_and_the_crawl_completes(crawls):
    for n in (1, 2):
        stats = crawls[n]["stats"]
        assert stats["finish_reason"] == "finished"
        assert stats["newsstemmer/pages_failed/binary"] == 1
        assert stats["newsstemmer/pages_failed/not_html"] == 1
        assert stats["newsstemmer/pages_failed/download"] == 1  # over DOWNLOAD_MAXSIZE
        assert stats["newsstemmer/http_errors"] == 1
        assert "Traceback" not in crawls[n]["log"]
    paths = {urlsplit(i["url"]).path for i in crawls[1]["items"]}
    # odd but HTML: read, and emitted as articles or counted as pages of another type (the
    # 5,000-level page holds one short line, the mislabelled one a price list)
    odd = {"/deep", "/mislabelled"}
    assert crawls[1]["stats"].get("newsstemmer/non_articles", 0) >= len(odd - paths)
    assert {"/files/scan", "/data/feed", "/big"}.isdisjoint(paths)


def test_disabled_crawl_emits_raw_pages(tmp_path):
    small = build_test_site(n_articles=4, hostile=False)
    with serve(small) as base:
        result = run_crawl(
            [base + "/"],
            tmp_path / "raw.jsonl",
            {"NEWSSTEMMER_ENABLED": "False", "NEWSSTEMMER_STATE_DIR": str(tmp_path / "state"),
             "NEWSSTEMMER_PATTERNS_DIR": str(tmp_path / "patterns")},
        )
    assert result.returncode == 0, result.stderr[-3000:]
    items = _read(tmp_path / "raw.jsonl")
    assert len(items) == 4 + 3 + 1
    assert all(set(i) == {"url", "site", "html", "anchor_texts", "fetched_at"} for i in items)
    assert not (tmp_path / "patterns").exists()


def test_depth_and_page_limits_and_a_site_too_small_to_save(tmp_path):
    small = build_test_site(hostile=False)
    with serve(small) as base:
        result = run_crawl(
            [base + "/"],
            tmp_path / "out.jsonl",
            {"NEWSSTEMMER_STATE_DIR": str(tmp_path / "state"), "NEWSSTEMMER_PATTERNS_DIR": str(tmp_path / "patterns"),
             "NEWSSTEMMER_MAX_DEPTH": "1", "NEWSSTEMMER_MAX_PAGES_PER_SITE": "10"},
        )
    assert result.returncode == 0, result.stderr[-3000:]
    stats = crawl_stats(result.stderr)
    # front page + 3 sections + 12 top stories within depth 1, of which 10 fit the limit
    assert stats["newsstemmer/pages"] == 10 and stats["newsstemmer/pages_over_limit"] == 6
    assert stats["request_depth_max"] == 1
    # fewer pages than NEWSSTEMMER_MIN_PAGES: learned at the end for this crawl, not saved
    assert not (tmp_path / "patterns").exists() and "used, not saved" in result.stderr
    items = _read(tmp_path / "out.jsonl")
    assert len(items) + stats.get("newsstemmer/non_articles", 0) == 10
    assert stats["newsstemmer/pages_left_in_buffer"] == 0


SPIDER_OF_ONES_OWN = '''
import scrapy
from newsstemmer.crawl.items import FetchedPage


class MySpider(scrapy.Spider):
    name = "mine"
    allowed_domains = ["127.0.0.1"]
    custom_settings = {"ADDONS": {"newsstemmer.crawl.addon.NewsstemmerAddon": 0}}  # the one line

    def __init__(self, start, **kw):
        super().__init__(**kw)
        self.start_urls = [start]

    def parse(self, response):
        yield FetchedPage.from_response(response)
        yield from response.follow_all(css="a", callback=self.parse)
'''


def test_the_addon_turns_a_spider_of_ones_own_into_a_newsstemmer_crawl(tmp_path):
    import subprocess
    import sys

    small = build_test_site(hostile=False)
    (tmp_path / "myspider.py").write_text(SPIDER_OF_ONES_OWN)
    with serve(small) as base:
        cmd = [sys.executable, "-m", "scrapy", "runspider", "myspider.py", "-a", f"start={base}/", "-O", "out.jsonl",
               "-s", "NEWSSTEMMER_STATE_DIR=state", "-s", "NEWSSTEMMER_PATTERNS_DIR=patterns",
               "-s", "TELNETCONSOLE_ENABLED=False", "-s", "LOG_LEVEL=INFO"]
        result = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr[-3000:]
    got = _articles(_read(tmp_path / "out.jsonl"), small)
    assert set(got) == set(small.articles)
    assert all(got[p]["title"] == small.articles[p][0] for p in got)
    assert list((tmp_path / "patterns").glob("127.0.0.1_*.json"))
