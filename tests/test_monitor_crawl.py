"""Scheduled monitoring end to end: ``scrapy crawl news`` on the demo site's days, state kept.

Day 1 (the original site), day 2 (new and updated articles, a feed and a sitemap
index), day 3 (a redesign), then day 3 again with every article due for a re-check:
conditional requests answered ``304``, no new article (a health alert, and the
Spidermon suite fails), and the layouts of the old design retired.  The issue's
targets are checked with the same scoring as ``benchmarks/monitor.py``.
"""

from __future__ import annotations

import datetime as dt
import json
import socket
import subprocess
import sys
from urllib.parse import urlsplit

import pytest

from newsstemmer.crawl.testing import REPO_ROOT, crawl_demo_day, crawl_stats
from newsstemmer.demo import build_site
from newsstemmer.demo.scoring import score_day
from newsstemmer.layout.patterns import SitePatterns

pytestmark = pytest.mark.crawl

SPIDERMON = {
    "SPIDERMON_ENABLED": "True",
    "EXTENSIONS": json.dumps({"spidermon.contrib.scrapy.extensions.Spidermon": 500}),
    "SPIDERMON_ENGINE_STOP_MONITORS": "newsstemmer.crawl.spidermon_suite.NewsstemmerMonitorSuite",
}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def days(tmp_path_factory):
    work = tmp_path_factory.mktemp("monitor")
    port = _free_port()
    out = {"work": work}
    runs = [(1, {}), (2, {}), (3, {}), ("3b", {"NEWSSTEMMER_RECHECK_AFTER": "0", "NEWSSTEMMER_RECHECK_BACKOFF": "0",
                                                   "NEWSSTEMMER_RETIRE_AFTER_RUNS": "2"})]
    for name, extra in runs:
        day = 3 if name == "3b" else name
        items, stats, log = crawl_demo_day(work, day, port, f"day{name}", {**SPIDERMON, **extra})
        out[name] = {"items": items, "stats": stats, "log": log}
        (work / f"day{name}.log").write_text(log, encoding="utf-8")
    out["sites"] = {d: build_site(day=d) for d in (1, 2, 3)}
    out["health"] = [json.loads(x) for x in (work / "state" / "health.jsonl").read_text().splitlines()]
    (out["pattern_file"],) = (work / "patterns").glob("*.json")
    return out


def test_day1_emits_every_article_with_its_dates_and_hash(days):
    score = score_day(days[1]["items"], None, days["sites"][1])
    assert score["delivered_share"] >= 0.97, score
    truth = {p.path: p for p in days["sites"][1].articles()}
    for item in days[1]["items"]:
        assert item["version"] == 1 and item["update"] is False and len(item["content_hash"]) == 32
        assert item["first_seen"] == item["fetched_at"]
        path = urlsplit(item["url"]).path
        if path in truth and truth[path].lang == "en":
            assert item["published"] == truth[path].published  # article:published_time
            assert item["authors"] and item["language"] == "en" and item["site_name"] == "The Meridian Courier"
            assert item["meta_source"]["authors"] == "json-ld" and item["canonical_url"] == item["url"]
        elif path in truth:  # Japanese: the only date is the line under the headline, in Tokyo time
            shown = dt.datetime.fromisoformat(truth[path].published).astimezone(dt.timezone(dt.timedelta(hours=9)))
            assert item["published"] == shown.strftime("%Y-%m-%dT%H:%M"), path
            assert item["meta_source"]["published"] == "text" and item["language"] == "ja"
    assert sum(truth[urlsplit(i["url"]).path].lang == "ja" for i in days[1]["items"]
               if urlsplit(i["url"]).path in truth) >= 20
    assert "new articles where there usually are some... OK" in days[1]["log"]
    assert "... FAIL" not in days[1]["log"]


def test_day2_sends_only_what_is_new_or_updated_with_half_the_downloads(days):
    score = score_day(days[2]["items"], days["sites"][1], days["sites"][2])
    assert score["delivered_share"] >= 0.97, score
    assert score["repeated_share"] <= 0.02, score
    assert score["new"] >= 10 and score["updated"] >= 3
    d1, d2 = days[1]["stats"], days[2]["stats"]
    assert d2["downloader/response_status_count/200"] <= d1["downloader/response_status_count/200"] / 2
    # the day-1 articles and the leaf pages (videos, live blogs, service pages) are not downloaded again
    assert d2["newsstemmer/skipped_fresh"] >= 130 and d2["newsstemmer/feeds"] >= 1 and d2["newsstemmer/sitemaps"] >= 3
    first = {i["url"]: i for i in days[1]["items"]}
    updates = [i for i in days[2]["items"] if i["update"]]
    assert len(updates) == score["updated"]
    for item in updates:
        assert item["version"] == 2 and item["first_seen"] == first[item["url"]]["first_seen"]
        assert "Update, Monday 23 November 2026:" in item["body"]


def test_day3_redesign_is_detected_and_relearned_within_the_run(days):
    stats, log = days[3]["stats"], days[3]["log"]
    assert stats["newsstemmer/drift_detected"] == 1 and stats["newsstemmer/drift_relearned"] == 1
    assert "drift detected" in log and "relearned after drift" in log
    score = score_day(days[3]["items"], days["sites"][2], days["sites"][3])
    assert score["new_f1_ok_share"] >= 0.95, score
    assert score["delivered_share"] >= 0.95 and score["repeated"] <= 2, score
    (record,) = [r for r in days["health"] if r["run"] == 3]
    assert record["drift"]["detected"] and record["drift"]["relearned"]
    assert record["drift"]["coverage_before"] < 0.6 <= record["drift"]["coverage_after"]
    # one new version of the file for the new design (thin layouts learned again from more of their
    # pages add versions of their own, before and after it: "relearned pX ...")
    history = SitePatterns.load(days["pattern_file"]).history
    (drift,) = [h for h in history if h["reason"].startswith("drift")]
    assert record["drift"]["layouts_added"] and drift["version"] <= record["patterns_version"]
    assert all(h["reason"].startswith("relearned") for h in history
               if drift["version"] < h["version"] <= record["patterns_version"])


def test_health_records_one_per_site_and_run(days):
    health = days["health"]
    assert [r["run"] for r in health] == [1, 2, 3, 4]
    keys = {"run", "site", "started", "finished", "reason", "pages", "not_modified", "skipped_fresh", "new_articles",
            "updates", "unchanged", "failures", "error_rate", "article_pages", "coverage", "methods", "body_chars",
            "patterns_version", "drift", "alerts"}
    assert all(keys <= set(r) for r in health)
    assert health[0]["new_articles"] >= 117 and health[0]["coverage"] >= 0.95 and health[0]["alerts"] == []
    assert health[1]["updates"] >= 3 and health[1]["skipped_fresh"] >= 100


def test_a_quiet_run_rechecks_with_304_alerts_and_retires_the_old_layouts(days):
    stats, log = days["3b"]["stats"], days["3b"]["log"]
    assert days["3b"]["items"] == []  # nothing new, nothing changed
    # every known article re-checked with a conditional request: those fetched on day 3 are
    # answered 304, the others (validators of an earlier day's bytes) come again, unchanged
    assert stats["newsstemmer/rechecked"] >= len(days["sites"][3].articles()) - 5
    assert stats["newsstemmer/not_modified"] >= 30
    # (and the sitemap URL sets read in full by day 3's run, unchanged since)
    assert stats.get("downloader/response_status_count/304", 0) == (stats["newsstemmer/not_modified"]
                                                                    + stats.get("newsstemmer/sitemaps_unchanged", 0))
    # (leaf pages that declare what they are, videos, live blogs, service pages, are re-checked too)
    leaves = sum(stats.get(f"newsstemmer/non_articles/{kind}", 0) for kind in ("media", "live", "service"))
    assert leaves >= 10
    assert (stats["newsstemmer/items_unchanged"] + stats["newsstemmer/not_modified"] + leaves
            >= stats["newsstemmer/rechecked"] - 5)
    last = days["health"][-1]
    assert last["new_articles"] == 0 and any("no new articles" in a for a in last["alerts"])
    assert "new articles where there usually are some... FAIL" in log and "[Spidermon] FAILED (failures=1)" in log
    sp = SitePatterns.load(days["pattern_file"])
    # the old design's layouts matched nothing on day 3 nor now: retired (kept, dated); so is any
    # layout of the new design that never matched a page; those that did stay in use
    # (thin layouts learned again from more of their pages were retired when replaced: "relearned")
    (drift,) = [h for h in sp.history if h["reason"].startswith("drift")]
    assert 1 in {p.version for p in sp.retired} and all(p.retired_at for p in sp.retired)
    assert all(p.version >= drift["version"] for p in sp.patterns) and any(p.article for p in sp.patterns)
    assert sum(p.article for p in sp.patterns) >= 4 and sum(not p.article for p in sp.patterns) >= 3
    last = sp.history[-1]
    assert last["reason"].startswith("no page matched") and last["version"] == sp.revision
    replaced = {i for h in sp.history if h["reason"].startswith("relearned") for i in h["retired"]}
    assert {p.id for p in sp.retired} == set(last["retired"]) | replaced
    out = subprocess.run([sys.executable, "-m", "newsstemmer", "patterns", "history", str(days["pattern_file"])],
                         capture_output=True, text=True, cwd=REPO_ROOT)
    assert out.returncode == 0 and f"{len(sp.retired)} retired" in out.stdout and "drift" in out.stdout


def test_articles_found_only_in_a_feed_given_with_a_spider_argument(tmp_path):
    from email.utils import format_datetime
    import datetime as dt

    from newsstemmer.crawl.testing import build_test_site, run_crawl, serve

    site = build_test_site(hostile=False)
    when = {path: dt.datetime(2026, 11, 1, tzinfo=dt.timezone.utc) + dt.timedelta(hours=i)
            for i, path in enumerate(sorted(site.articles))}
    entries = "".join(f"<item><title>{title}</title><link>{{base}}{path}</link><pubDate>{format_datetime(when[path])}"
                      f"</pubDate></item>" for path, (title, _) in site.articles.items())
    site.pages["/about"] = (200, "text/html; charset=utf-8", b"<html><body><p>About the Tribune.</p></body></html>")
    with serve(site) as base:
        rss = f'<?xml version="1.0"?><rss version="2.0"><channel><title>T</title>{entries}</channel></rss>'
        site.pages["/rss.xml"] = (200, "application/rss+xml", rss.replace("{base}", base).encode())
        result = run_crawl([base + "/about"], tmp_path / "out.jsonl",
                           {"NEWSSTEMMER_STATE_DIR": str(tmp_path / "state"),
                            "NEWSSTEMMER_PATTERNS_DIR": str(tmp_path / "patterns"), "NEWSSTEMMER_MIN_PAGES": "10",
                            "NEWSSTEMMER_SITEMAPS": "False"}, extra_args=["-a", f"feeds={base}/rss.xml"])
    assert result.returncode == 0, result.stderr[-3000:]
    items = {urlsplit(i["url"]).path: i for i in map(json.loads, (tmp_path / "out.jsonl").read_text().splitlines())}
    assert set(site.articles) <= set(items)  # the start page links none of them: all came from the feed
    for path in site.articles:
        assert items[path]["published"] == when[path].isoformat()  # the page has no date: the feed's
    stats = crawl_stats(result.stderr)
    assert stats["newsstemmer/feeds"] == 1 and stats["newsstemmer/discovered"] == len(site.articles)


def test_incremental_runs_can_be_turned_off(tmp_path):
    from newsstemmer.crawl.testing import build_test_site, run_crawl, serve

    site = build_test_site(hostile=False)
    settings = {"NEWSSTEMMER_STATE_DIR": str(tmp_path / "state"), "NEWSSTEMMER_PATTERNS_DIR": str(tmp_path / "patterns")}
    counts = []
    with serve(site) as base:
        for n, extra in enumerate(({}, {}, {"NEWSSTEMMER_INCREMENTAL": "False"})):
            out = tmp_path / f"out{n}.jsonl"
            result = run_crawl([base + "/"], out, {**settings, **extra})
            assert result.returncode == 0, result.stderr[-3000:]
            paths = [urlsplit(json.loads(x)["url"]).path for x in out.read_text().splitlines()]
            counts.append(sum(p in site.articles for p in paths))
    # first run: every article; the same site again: none; incremental off: every article again
    assert counts == [len(site.articles), 0, len(site.articles)]
