"""A layout learned from two pages must not hide a section's articles (issue #26).

The soak (``benchmarks/soak.py --redis``) missed about half of one demo site's Japanese
articles, day after day: the crawl's first learning round (``NEWSSTEMMER_MIN_PAGES``
pages, whichever came first) held two of them, the layout learned from those two scored
as "not articles", and that layout matched every later Japanese article, whose page type
then needed a score of 0.95 to count as an article.  Here the first round is that same
set of demo pages (the rest of the section is held back until the site's patterns are in
Redis): every Japanese article must come out, once.
"""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from newsstemmer.crawl.testing import REPO_ROOT, crawl_command, crawl_stats, serve

from demo_first_round import FIRST_ROUND, first_round_site  # noqa: E402
from redis_fixture import flush  # noqa: E402

pytestmark = [pytest.mark.crawl, pytest.mark.redis]


def test_two_pages_of_a_section_do_not_type_its_articles_as_listings(redis_url, tmp_path):
    import redis

    flush(redis_url)
    r = redis.Redis.from_url(redis_url)
    site, ja = first_round_site()
    assert len(ja) == 20 and set(FIRST_ROUND) <= set(site.pages)
    held = set(ja) - set(FIRST_ROUND)

    def gate(path: str) -> None:  # the rest of the section once the first round's patterns are in Redis
        end = time.monotonic() + 60
        while path in held and not r.hlen("newsstemmer:patterns") and time.monotonic() < end:
            time.sleep(0.02)

    settings = {"NEWSSTEMMER_REDIS_URL": redis_url, "NEWSSTEMMER_STATE_DIR": str(tmp_path / "state"),
                "NEWSSTEMMER_PATTERNS_DIR": str(tmp_path / "patterns"), "NEWSSTEMMER_WORKER_TIMEOUT": "3",
                "NEWSSTEMMER_MIN_PAGES": str(len(FIRST_ROUND)), "CONCURRENT_REQUESTS": "4"}
    with serve(site, gate=gate) as base:
        out = tmp_path / "out.jsonl"
        done = subprocess.run(crawl_command([base + "/"], out, settings), cwd=REPO_ROOT, capture_output=True,
                              text=True, timeout=240)
    log = done.stderr
    assert done.returncode == 0 and "Traceback" not in log, log[-3000:]
    stats = crawl_stats(log)
    items = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines() if line.strip()]
    sent = [urlsplit(i["url"]).path for i in items]
    assert sorted(p for p in sent if p in set(ja)) == sorted(ja)  # every Japanese article, once
    assert stats["newsstemmer/learning_rounds"] >= 2  # the first round, then the held pages'
    patterns = json.loads(next((tmp_path / "patterns").glob("*.json")).read_text(encoding="utf-8"))
    assert all(p["article"] or p["pages"] >= 3 for p in patterns["patterns"])
