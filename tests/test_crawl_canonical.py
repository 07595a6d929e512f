"""One article, many pages: pages that name the same canonical URL go out once per crawl.

The real engine (``scrapy crawl news`` in a subprocess) crawls the local test site with two
extra copies of one story that both name ``/dup/story.html`` as their canonical URL (their
texts differ a little, as a site's two copies of a story do) and a third copy naming
another one.  The feed holds the first article once and the third apart from it: one
canonical URL is one article, the same text under another canonical URL is another.
Crawl 1 learns the site (the articles leave in learning rounds, many at once); crawl 2
starts with its patterns and extracts each page as it comes.  With Redis, the emit claims
of the workers (keyed by the canonical URL) do the same.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from newsstemmer.crawl.testing import REPRODUCIBLE_SETTINGS, TestSite, build_test_site, crawl_stats, run_crawl, serve

from redis_fixture import flush  # noqa: E402

pytestmark = pytest.mark.crawl

SAME, OTHER = "/dup/story.html", "/dup/other.html"
COPIES = {"/dup/one.html": SAME, "/dup/two.html": SAME, "/dup/three.html": OTHER}


def _site() -> TestSite:
    """The test site with three copies of one story, linked from the front page."""
    site = build_test_site(n_articles=30, hostile=False)
    story = next(iter(site.articles))
    html = site.pages[story][2].decode("utf-8")
    first = site.articles[story][1].split("\n")[0]
    for n, (path, canonical) in enumerate(COPIES.items()):
        page = html.replace("</head>", f'<link rel="canonical" href="{canonical}"></head>', 1)
        if n == 1:  # the second copy says it differently (as blog1_8 and blog1_15 of cleanportal do)
            page = page.replace(first, first.replace(".", ", the council said.", 1), 1)
        site.pages[path] = (200, "text/html; charset=utf-8", page.encode("utf-8"))
    links = "".join(f'<li><a href="{path}">Copy {n} of the story</a></li>' for n, path in enumerate(COPIES))
    front = site.pages["/"][2].decode("utf-8").replace("</main>", f'<ul class="copies">{links}</ul>\n</main>', 1)
    site.pages["/"] = (200, "text/html; charset=utf-8", front.encode("utf-8"))
    return site


def _crawl(base: str, tmp: Path, name: str, **settings: str) -> dict:
    feed = tmp / f"{name}.jsonl"
    result = run_crawl([base + "/"], feed, {**REPRODUCIBLE_SETTINGS, "NEWSSTEMMER_STATE_DIR": str(tmp / f"state-{name}"),
                                            "NEWSSTEMMER_PATTERNS_DIR": str(tmp / "patterns"), **settings}, timeout=150)
    assert result.returncode == 0, result.stderr[-3000:]
    items = [json.loads(line) for line in feed.read_text(encoding="utf-8").splitlines()]
    return {"items": items, "stats": crawl_stats(result.stderr)}


@pytest.fixture(scope="module")
def crawls(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("canonical")
    with serve(_site()) as base:
        return base, {"learning": _crawl(base, tmp, "learning"), "known": _crawl(base, tmp, "known")}


def _by_canonical(base: str, items: list[dict]) -> Counter:
    return Counter((i.get("canonical_url") or i["url"]).removeprefix(base) for i in items)


@pytest.mark.parametrize("name", ["learning", "known"])
def test_pages_of_one_canonical_url_go_out_once(crawls, name):
    base, runs = crawls
    items, stats = runs[name]["items"], runs[name]["stats"]
    counts = _by_canonical(base, items)
    assert counts[SAME] == 1, [(i["url"], i["version"]) for i in items if i.get("canonical_url") == base + SAME]
    assert counts[OTHER] == 1  # the same text under another canonical URL: another article
    assert len(items) == 30 + 2 and max(counts.values()) == 1
    assert stats.get("newsstemmer/duplicates_skipped") == 1


@pytest.mark.redis
def test_a_worker_sharing_redis_emits_one_canonical_url_once(redis_url, tmp_path):
    flush(redis_url)
    with serve(_site()) as base:
        run = _crawl(base, tmp_path, "redis", NEWSSTEMMER_REDIS_URL=redis_url)
    counts = _by_canonical(base, run["items"])
    assert counts[SAME] == 1 and counts[OTHER] == 1 and max(counts.values()) == 1
    assert run["stats"].get("newsstemmer/duplicates_skipped") == 1
