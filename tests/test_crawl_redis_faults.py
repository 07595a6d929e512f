"""The infrastructure failing under a running crawl shared through Redis: a real
``redis-server`` killed and started again mid-crawl, a real ``scrapy crawl`` worker.

A server that comes back **empty** (a crash without persistence) has lost the crawl's
queue: the worker must say so and exit with an error, never take the empty queue for a
finished crawl.  And the other way round: a worker taken for dead while alive, which finds
the crawl finished and cleared by the others, exits as a finished crawl, not with that error.
"""

from __future__ import annotations

import json
import shutil
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from newsstemmer.crawl.testing import (REPO_ROOT, build_test_site, crawl_command, crawl_stats, free_port,
                                       hold_articles, serve)

pytestmark = [pytest.mark.crawl, pytest.mark.redis]


def _start_redis(port: int, folder: Path) -> subprocess.Popen:
    """A redis-server on ``port`` without persistence (what comes back empty after a crash)."""
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("needs redis-server: apt-get install redis-server (Debian package)")
    folder.mkdir(parents=True, exist_ok=True)
    proc = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(folder), "--save", "",
                             "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    end = time.monotonic() + 10
    while time.monotonic() < end:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5) as sock:
                sock.sendall(b"PING\r\n")
                if sock.recv(16).startswith(b"+PONG"):
                    return proc
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise RuntimeError(f"redis-server did not start on port {port}")


def test_redis_back_empty_mid_crawl_is_an_error_not_a_finished_crawl(tmp_path):
    port = free_port()
    server = _start_redis(port, tmp_path / "redis")
    site = build_test_site(n_articles=24, hostile=False)
    held, restarted = threading.Event(), threading.Event()

    def gate(path: str) -> None:  # article pages wait until Redis came back empty
        if path in site.articles and not restarted.is_set():
            held.set()
            restarted.wait(60)

    settings = {"NEWSSTEMMER_REDIS_URL": f"redis://127.0.0.1:{port}/0", "NEWSSTEMMER_STATE_DIR": str(tmp_path / "state"),
                "NEWSSTEMMER_PATTERNS_DIR": str(tmp_path / "patterns"), "NEWSSTEMMER_WORKER_TIMEOUT": "20",
                "CONCURRENT_REQUESTS": "2"}
    log_path = tmp_path / "worker.log"
    try:
        with serve(site, gate=gate) as base, log_path.open("w") as log:
            proc = subprocess.Popen(crawl_command([base + "/"], tmp_path / "out.jsonl", settings), cwd=REPO_ROOT,
                                    stdout=subprocess.DEVNULL, stderr=log)
            assert held.wait(60), "the crawl never asked for an article page"
            server.kill()
            server.wait()
            server = _start_redis(port, tmp_path / "redis-again")  # the same address, no data
            restarted.set()
            code = proc.wait(timeout=120)
    finally:
        server.kill()
        server.wait()
    text = log_path.read_text(encoding="utf-8")
    stats = crawl_stats(text)
    assert code == 1, text[-3000:]
    assert stats.get("finish_reason") == "redis_state_lost", text[-3000:]
    assert text.count("the crawl's state in Redis is gone") == 1
    assert "last worker of the finished crawl" not in text



def test_a_live_worker_taken_for_dead_finds_the_crawl_finished_and_exits_finished(redis_url, tmp_path):
    """A worker silent for longer than ``NEWSSTEMMER_WORKER_TIMEOUT`` (here: stopped with
    SIGSTOP, as a loaded machine can starve it) is taken for dead: the other worker takes
    its requests back, finishes the crawl and clears its run records.  When it runs again,
    the crawl's marker is gone: a finished crawl, not lost state (exit 0, reason finished).  (Seen in the soak under load,
    benchmarks/README.md "Soak": the worker exited ``redis_state_lost``, status 1.)"""
    import redis

    redis.Redis.from_url(redis_url).flushdb()
    r = redis.Redis.from_url(redis_url)
    site = build_test_site(n_articles=30, hostile=False)
    joined = [False]

    def both_in() -> bool:  # article pages wait until both workers are in the crawl
        joined[0] = joined[0] or r.scard("newsstemmer:workers") >= 2
        return joined[0]

    procs, logs = [], [tmp_path / "log1", tmp_path / "log2"]
    with serve(site, gate=hold_articles(site, both_in, free=0, then=0.2)) as base:
        for n, log in zip((1, 2), logs):
            settings = {"NEWSSTEMMER_REDIS_URL": redis_url, "NEWSSTEMMER_STATE_DIR": str(tmp_path / f"state{n}"),
                        "NEWSSTEMMER_PATTERNS_DIR": str(tmp_path / f"patterns{n}"),
                        "NEWSSTEMMER_WORKER_TIMEOUT": "3", "CONCURRENT_REQUESTS": "2"}
            procs.append(subprocess.Popen(crawl_command([base + "/"], tmp_path / f"out{n}.jsonl", settings),
                                          cwd=REPO_ROOT, stdout=subprocess.DEVNULL, stderr=log.open("w")))
        try:
            # worker 1 (its id holds its pid) is stopped once both workers are in and it holds
            # requests in flight
            end = time.monotonic() + 90
            while time.monotonic() < end:
                mine = [k for k in r.scan_iter("newsstemmer:run:inflight:*") if f":{procs[0].pid}:".encode() in k]
                if both_in() and mine and r.hlen(mine[0]):
                    break
                assert procs[0].poll() is None, logs[0].read_text()[-3000:]
                time.sleep(0.02)
            else:
                pytest.fail("worker 1 never held a request in flight")
            procs[0].send_signal(signal.SIGSTOP)
            assert procs[1].wait(timeout=120) == 0, logs[1].read_text()[-3000:]
            assert not list(r.scan_iter("newsstemmer:run:*"))  # the crawl is over and cleared
            procs[0].send_signal(signal.SIGCONT)
            code = procs[0].wait(timeout=60)
        finally:
            for proc in procs:
                if proc.poll() is None:
                    proc.send_signal(signal.SIGCONT)
                    proc.kill()
                    proc.wait()
    texts = [log.read_text(encoding="utf-8") for log in logs]
    assert "is gone: " in texts[1]  # worker 2 took worker 1 for dead and took its requests back
    assert "last worker of the finished crawl" in texts[1]
    stats = crawl_stats(texts[0])
    assert "the crawl's state in Redis is gone" not in texts[0], texts[0][-3000:]
    assert code == 0 and stats.get("finish_reason") == "finished", texts[0][-3000:]
    assert "finished by another worker" in texts[0]
    items = [json.loads(line) for n in (1, 2) for line in (tmp_path / f"out{n}.jsonl").read_text().splitlines()
             if line.strip()]
    got = {urlsplit(i["url"]).path for i in items} & set(site.articles)
    assert got == set(site.articles)  # nothing lost
    # what the woken worker wrote after the end (links of its last pages) is cleared again
    assert not list(r.scan_iter("newsstemmer:run:*")) and not r.exists("newsstemmer:news:requests")
