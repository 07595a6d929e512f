"""The infrastructure failing under a running crawl shared through Redis: a real
``redis-server`` killed and started again mid-crawl, a real ``scrapy crawl`` worker.

A server that comes back **empty** (a crash without persistence) has lost the crawl's
queue: the worker must say so and exit with an error, never take the empty queue for a
finished crawl.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest

from newsstemmer.crawl.testing import REPO_ROOT, build_test_site, crawl_command, crawl_stats, free_port, serve

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

