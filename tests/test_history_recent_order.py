"""Which articles a drift fetches again (``history.recent``) depends on what the runs sent,
not on the instants they sent it: the latest run's articles first, one run's by URL, in
both stores and in the same order (issue #26, the flaky day-3 monitor test of session 19)."""

from __future__ import annotations

import time

import pytest

from newsstemmer.crawl.config import Config
from newsstemmer.crawl.storage import Storage
from newsstemmer.crawl.storage.records import Emitted
from newsstemmer.crawl.storage.redis_keys import Keys, client
from newsstemmer.crawl.storage.sqlite_history import ArticleHistory

from redis_fixture import flush  # noqa: E402

DAY1 = [f"http://s/2026/11/0{d}/story-{n}.html" for d, n in ((1, 40943), (2, 42920), (1, 40007), (3, 41001))]
DAY2 = ["http://s/2026/11/22/story-43278.html", "http://s/2026/11/21/story-43100.html"]
# The latest run's articles, then the run before's, each run's by URL in reverse order.
EXPECTED = sorted(DAY2, reverse=True) + sorted(DAY1, reverse=True)


def _sent(url: str) -> Emitted:
    return Emitted(url, "s", url, "h-" + url[-10:], b"", 1, "2026-11-01")


def _sqlite_runs(state, order) -> list[str]:
    """Day 1 then day 2 sent through the SQLite store, each run's articles in ``order``'s order."""
    for urls in (DAY1, DAY2):
        history = ArticleHistory(state / "history.sqlite")  # (the pipeline opens one handle a crawl)
        for url in order(urls):
            history.put(_sent(url))
            time.sleep(0.002)
        history.close()
        time.sleep(0.01)
    history = ArticleHistory(state / "history.sqlite")
    try:
        return history.recent("s", 10)
    finally:
        history.close()


@pytest.mark.parametrize("order", [list, lambda urls: list(reversed(urls))], ids=["sent-in-order", "sent-reversed"])
def test_sqlite_recent_is_the_latest_run_first_then_by_url(tmp_path, order):
    assert _sqlite_runs(tmp_path, order) == EXPECTED
    assert _sqlite_runs(tmp_path / "again", order) == EXPECTED  # (a fresh state folder: the same)


def test_sqlite_handles_of_one_run_tie(tmp_path):
    started = time.time()
    first = ArticleHistory(tmp_path / "history.sqlite", run_started=started)
    second = ArticleHistory(tmp_path / "history.sqlite", run_started=started)
    first.put(_sent(DAY1[0]))
    time.sleep(0.01)
    second.put(_sent(DAY1[1]))
    assert first.recent("s", 5) == sorted(DAY1[:2], reverse=True)
    first.close()
    second.close()


@pytest.mark.redis
@pytest.mark.parametrize("order", [list, lambda urls: list(reversed(urls))], ids=["sent-in-order", "sent-reversed"])
def test_redis_recent_orders_as_sqlite_across_workers(redis_url, tmp_path, order):
    flush(redis_url)
    config = Config(state_dir=tmp_path / "state", redis_url=redis_url, redis_prefix="t", worker_timeout=2)
    redis, keys = client(redis_url), Keys("t")
    for urls in (DAY1, DAY2):
        # two workers of one run, taking turns: the run's start (P:run:started) is their articles' time
        workers = [Storage(config).history(), Storage(config).history()]
        for i, url in enumerate(order(urls)):
            workers[i % 2].put(_sent(url))
            time.sleep(0.002)
        assert redis.exists(keys.started)
        redis.delete(keys.started)  # (the run's end: its last worker clears the run's keys)
        time.sleep(0.01)
    assert Storage(config).history().recent("s", 10) == EXPECTED
