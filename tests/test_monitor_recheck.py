"""Re-checks of known articles never crowd out new ones (issue #26).

Day 1 of the demo site, then day 2 with every known article due for a re-check
(``NEWSSTEMMER_RECHECK_AFTER`` and ``_BACKOFF`` 0) and a page limit just above what
day 2 has that is not a known article: re-checks stop at ``NEWSSTEMMER_MAX_RECHECKS_PER_SITE``
and do not count toward ``NEWSSTEMMER_MAX_PAGES_PER_SITE``, so every new article is sent.
Before, each due article took one of the site's pages: the site reached its limit with
re-checks, and pages found after them (new articles linked from listings, updated
articles a sitemap announced) were left over it.
"""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from newsstemmer.crawl.testing import crawl_demo_day, free_port
from newsstemmer.demo import build_site
from newsstemmer.demo.scoring import score_day

pytestmark = pytest.mark.crawl

RECHECKS = 12


def _crawl(work, day: int, port: int, extra: dict[str, str]) -> tuple[list[dict], dict]:
    items, stats, _ = crawl_demo_day(work, day, port, settings=extra)
    return items, stats


def test_rechecks_are_capped_and_leave_the_page_limit_to_new_articles(tmp_path):
    port = free_port()
    day1, day2 = build_site(day=1), build_site(day=2)
    _crawl(tmp_path, 1, port, {})
    known = {p.path for p in day1.articles()}
    not_known = sum(1 for path in day2.pages if path not in known)  # new articles, listings, service pages
    items, stats = _crawl(tmp_path, 2, port, {
        "NEWSSTEMMER_RECHECK_AFTER": "0", "NEWSSTEMMER_RECHECK_BACKOFF": "0",
        "NEWSSTEMMER_MAX_RECHECKS_PER_SITE": str(RECHECKS), "NEWSSTEMMER_MAX_PAGES_PER_SITE": str(not_known + 5)})
    assert len(known) > 5 * RECHECKS  # every known article was due: far more than the cap
    assert stats["newsstemmer/rechecked"] == RECHECKS
    assert stats["newsstemmer/rechecks_over_limit"] >= len(known) - RECHECKS - 20
    assert stats.get("newsstemmer/pages_over_limit", 0) == 0  # the limit was left to pages not known
    new = {p.path for p in day2.articles() if p.path not in day1.pages}
    sent = {urlsplit(i["url"]).path for i in items}
    assert len(new) >= 10 and new <= sent, sorted(new - sent)  # every new article sent
    assert score_day(items, day1, day2)["repeated"] == 0
