"""One count, one meaning: the crawl's closing summary, its stats, ``health.jsonl`` and the
feed agree, on a first crawl and on a re-run that finds every article known."""

from __future__ import annotations

import json
import re

import pytest

from newsstemmer.crawl.testing import REPRODUCIBLE_SETTINGS, build_test_site, crawl_stats, run_crawl, serve

pytestmark = pytest.mark.crawl

SUMMARY = re.compile(
    r"newsstemmer: (?P<pages>\d+) pages crawled, (?P<pages_failed>\d+) failed; articles sent: (?P<sent>\d+) "
    r"\((?P<items_new>\d+) new, (?P<items_updated>\d+) updated\); known and not sent: (?P<items_unchanged>\d+) "
    r"unchanged, (?P<skipped_fresh>\d+) not fetched \(checked recently\), (?P<not_modified>\d+) not modified; "
    r"pages read: (?P<items_extracted>\d+) articles by a learned layout, (?P<items_unmatched>\d+) unmatched "
    r"\(single-page method\), (?P<non_articles>\d+) non-articles; (?P<pages_buffered>\d+) buffered, "
    r"(?P<sites_learned>\d+) sites learned"
)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("counts")
    settings = {"NEWSSTEMMER_STATE_DIR": str(tmp / "state"), "NEWSSTEMMER_PATTERNS_DIR": str(tmp / "patterns"),
                **REPRODUCIBLE_SETTINGS}
    out = []
    with serve(build_test_site(n_articles=24, hostile=False)) as base:
        for n in (1, 2):
            result = run_crawl([base + "/"], tmp / f"out{n}.jsonl", settings)
            assert result.returncode == 0, result.stderr[-3000:]
            health = [json.loads(line) for line in (tmp / "state" / "health.jsonl").read_text().splitlines()]
            files = sorted((tmp / "patterns").glob("*.json"))
            saved = json.loads(files[0].read_text()) if files else None
            out.append({"log": result.stderr, "stats": crawl_stats(result.stderr), "health": health[-1],
                        "feed": (tmp / f"out{n}.jsonl").read_text().splitlines(), "saved": saved})
    return out


@pytest.mark.parametrize("n", [0, 1])
def test_summary_stats_health_and_feed_agree(runs, n):
    run = runs[n]
    (match,) = SUMMARY.finditer(run["log"])
    said = {k: int(v) for k, v in match.groupdict().items()}
    stats = {k.removeprefix("newsstemmer/"): v for k, v in run["stats"].items() if k.startswith("newsstemmer/")}
    for name, value in said.items():
        if name != "sent":
            assert value == stats.get(name, 0), name
    assert said["sent"] == said["items_new"] + said["items_updated"] == len(run["feed"])
    # every page read as an article (by a layout or alone) was either sent or known unchanged
    assert said["items_extracted"] + said["items_unmatched"] == said["sent"] + said["items_unchanged"]
    health = run["health"]
    assert (health["new_articles"], health["updates"], health["unchanged"]) == (
        said["items_new"], said["items_updated"], said["items_unchanged"])
    assert (health["extracted"], health["unmatched"], health["non_articles"], health["skipped_fresh"]) == (
        said["items_extracted"], said["items_unmatched"], said["non_articles"], said["skipped_fresh"])


def test_a_re_run_says_what_it_knew(runs):
    first, again = (SUMMARY.search(r["log"]) for r in runs)
    assert int(first["items_new"]) >= 20
    assert int(again["sent"]) == 0  # nothing changed on the site
    # the articles of the first run are known: not fetched again, or fetched and unchanged
    known = int(again["skipped_fresh"]) + int(again["items_unchanged"]) + int(again["not_modified"])
    assert known >= int(first["items_new"])


@pytest.mark.parametrize("n", [0, 1])
def test_health_names_the_saved_file_version_and_its_layouts(runs, n):
    """``patterns_version`` and ``layouts_added`` speak of the file on disk; layouts used but
    not saved are listed apart."""
    health, saved = runs[n]["health"], runs[n]["saved"]
    assert saved is not None
    versions = [h.get("version", 1) for h in saved.get("history", [])] or [1]
    ids = {p["id"] for p in saved["patterns"]}
    assert health["patterns_version"] == max(versions)
    assert set(health["drift"]["layouts_added"]) <= ids
    assert not set(health["layouts_not_saved"]) & set(health["drift"]["layouts_added"])
    if n == 1:
        assert health["drift"]["layouts_added"] == []  # nothing new learned on a re-run


def test_layouts_learned_from_too_few_pages_are_used_and_said_unsaved(tmp_path):
    settings = {"NEWSSTEMMER_STATE_DIR": str(tmp_path / "state"), "NEWSSTEMMER_PATTERNS_DIR": str(tmp_path / "patterns"),
                **REPRODUCIBLE_SETTINGS, "NEWSSTEMMER_MIN_PAGES": 200}
    with serve(build_test_site(n_articles=24, hostile=False)) as base:
        result = run_crawl([base + "/"], tmp_path / "out.jsonl", settings)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "used, not saved" in result.stderr
    assert not list((tmp_path / "patterns").glob("*.json"))
    (health,) = [json.loads(line) for line in (tmp_path / "state" / "health.jsonl").read_text().splitlines()]
    assert health["layouts_not_saved"] and health["drift"]["layouts_added"] == []
    assert health["patterns_version"] is None
