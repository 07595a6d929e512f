"""Many workers, one crawl: ``scrapy crawl news`` processes sharing a real Redis server.

Two workers crawl the local test site together: every article comes out once, the
site is learned once, both workers do part of the work, and the crawl's run records
are gone at the end.  Then one of two workers is killed with SIGKILL mid-crawl and a
replacement started: its requests in flight go back to the queue, nothing is lost,
and duplicates stay within the documented bound.
"""

from __future__ import annotations

import json
import signal
import subprocess
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from newsstemmer.crawl.testing import REPO_ROOT, build_test_site, crawl_command, crawl_stats, hold_articles, serve

from redis_fixture import flush  # noqa: E402

pytestmark = [pytest.mark.crawl, pytest.mark.redis]


def _read(path: Path) -> list[dict]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _start(n: int, tmp: Path, base: str, url: str, **extra: str) -> subprocess.Popen:
    settings = {
        "NEWSSTEMMER_REDIS_URL": url,
        "NEWSSTEMMER_STATE_DIR": str(tmp / f"state{n}"),  # each worker its own folder: nothing shared on disk
        "NEWSSTEMMER_PATTERNS_DIR": str(tmp / f"patterns{n}"),
        "NEWSSTEMMER_WORKER_TIMEOUT": "3",
        "CONCURRENT_REQUESTS": "4",
        **extra,
    }
    cmd = crawl_command([base + "/"], tmp / f"out{n}.jsonl", settings)
    return subprocess.Popen(cmd, cwd=REPO_ROOT, stdout=subprocess.DEVNULL, stderr=open(tmp / f"log{n}", "w"))


def _finish(procs: list[subprocess.Popen], tmp: Path, numbers: list[int]) -> dict[int, dict]:
    out = {}
    for proc, n in zip(procs, numbers):
        code = proc.wait(timeout=150)
        log = (tmp / f"log{n}").read_text(encoding="utf-8")
        assert code == 0, log[-3000:]
        assert "Traceback" not in log, log[-3000:]
        out[n] = {"stats": crawl_stats(log), "items": _read(tmp / f"out{n}.jsonl"), "log": log}
    return out


def _articles(items: list[dict], site) -> dict[str, list[dict]]:
    got: dict[str, list[dict]] = {}
    for item in items:
        path = urlsplit(item["url"]).path
        if path in site.articles:
            got.setdefault(path, []).append(item)
    return got


def _total(runs: dict[int, dict], name: str) -> int:
    return sum(int(r["stats"].get(f"newsstemmer/{name}", 0)) for r in runs.values())


def test_two_workers_share_one_crawl(redis_url, tmp_path):
    import redis

    flush(redis_url)
    r = redis.Redis.from_url(redis_url)
    site = build_test_site(n_articles=60)
    # Past the first 30 article pages, the site answers once both workers have joined and the
    # shared patterns exist: both then hold pages to extract with them, whatever the machine's
    # speed (a worker slow to start under load found the queue empty: CI, session 14; the
    # test checks that the worker which did not learn loads the patterns).
    joined = [False]  # both workers seen in the crawl's worker set (it empties when the crawl ends)

    def both_in_and_patterns() -> bool:
        joined[0] = joined[0] or r.scard("newsstemmer:workers") >= 2
        return joined[0] and bool(r.hlen("newsstemmer:patterns"))

    server = serve(site, gate=hold_articles(site, both_in_and_patterns, free=30))
    base = server.__enter__()
    try:
        procs = [_start(n, tmp_path, base, redis_url, DOWNLOAD_MAXSIZE="200000") for n in (1, 2)]
        runs = _finish(procs, tmp_path, [1, 2])
        # the next run (one new worker, its own new state folder), same site
        again = _finish([_start(3, tmp_path, base, redis_url, DOWNLOAD_MAXSIZE="200000")], tmp_path, [3])[3]
    finally:
        server.__exit__(None, None, None)
    got = _articles([i for r in runs.values() for i in r["items"]], site)
    assert set(got) == set(site.articles)  # every article...
    assert all(len(v) == 1 for v in got.values())  # ...once
    for path, (title, body) in site.articles.items():
        assert got[path][0]["title"] == title
        assert " ".join(got[path][0]["body"].split()) == " ".join(body.split())
    # each page fetched by one worker; both worked
    assert all(r["stats"]["newsstemmer/pages"] >= 5 for r in runs.values())
    assert _total(runs, "pages") == len(site.articles) + 3 + 1 + 2  # articles, sections, front, /deep, /mislabelled
    # the site learned once, by one worker, which wrote the pattern file; the other loaded it
    assert _total(runs, "sites_learned") == 1 and _total(runs, "learning_rounds") == 1
    learner = 1 if runs[1]["stats"].get("newsstemmer/sites_learned") else 2
    assert list((tmp_path / f"patterns{learner}").glob("127.0.0.1_*.json"))
    assert "learned by another worker loaded" in runs[3 - learner]["log"]
    assert _total(runs, "pages_failed/binary") == 1 and _total(runs, "http_errors") == 1
    assert all(r["stats"]["finish_reason"] == "finished" for r in runs.values())
    # the last worker cleared the crawl's run records; learned patterns and linkinfo stay
    assert not list(r.scan_iter("newsstemmer:run:*")) and not r.exists("newsstemmer:news:requests")
    assert r.hlen("newsstemmer:patterns") == 1 and r.scard("newsstemmer:li:sites") == 1
    assert r.scard("newsstemmer:buf:sites") == 0
    # the next run: the articles the two workers emitted are known from the shared history and
    # fetch records (a new worker, with a new state folder): none is sent again
    assert _articles(again["items"], site) == {}
    st = again["stats"]
    assert st.get("newsstemmer/skipped_fresh", 0) + st.get("newsstemmer/items_unchanged", 0) >= len(site.articles) - 3
    assert st["newsstemmer/patterns_loaded"] == 1 and not st.get("newsstemmer/sites_learned")


def test_a_worker_killed_mid_crawl_loses_nothing(redis_url, tmp_path):
    import redis

    flush(redis_url)
    r = redis.Redis.from_url(redis_url)
    site = build_test_site(n_articles=80, hostile=False)
    # pages after the first 30 come slowly once the site is learned: worker 1 has written
    # articles and still waits for pages when it is killed, whatever the machine's speed
    learned = hold_articles(site, lambda: bool(r.hlen("newsstemmer:patterns")), free=30, then=0.3)
    with serve(site, delay=0.02, gate=learned) as base:
        procs = [_start(n, tmp_path, base, redis_url) for n in (1, 2)]
        end = time.monotonic() + 60
        # kill worker 1 once it wrote articles and holds requests in flight
        while time.monotonic() < end:
            inflight = [k for k in r.scan_iter("newsstemmer:run:inflight:*") if r.hlen(k)]
            if len(_read(tmp_path / "out1.jsonl")) >= 3 and inflight:
                break
            assert procs[0].poll() is None, (tmp_path / "log1").read_text()[-3000:]
            time.sleep(0.05)
        else:
            pytest.fail("worker 1 never wrote 3 articles")
        procs[0].send_signal(signal.SIGKILL)
        procs[0].wait(timeout=30)
        killed = _read(tmp_path / "out1.jsonl")
        replacement = _start(3, tmp_path, base, redis_url)
        runs = _finish([procs[1], replacement], tmp_path, [2, 3])
    got = _articles(killed + [i for r_ in runs.values() for i in r_["items"]], site)
    assert set(got) == set(site.articles)  # nothing lost
    for path, (title, _) in site.articles.items():
        assert all(i["title"] == title for i in got[path])
    duplicates = sum(len(v) - 1 for v in got.values())
    assert duplicates <= 2  # only an article written in the instant before the kill may come twice
    assert _total(runs, "requests_recovered") >= 1
    assert "is gone" in runs[2]["log"] + runs[3]["log"]
    assert _total(runs, "pages_left_in_buffer") == 0
    assert not list(r.scan_iter("newsstemmer:run:*"))
