"""The crawl's second process (``NEWSSTEMMER_SIDECAR``): same articles as on the reactor,
nothing lost when it is killed, and its protocol.

The crawls are real (``scrapy crawl news`` in a subprocess, against a local site).
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from newsstemmer.combine.extract import ExtractOptions
from newsstemmer.crawl.storage.sqlite_buffer import PageBuffer
from newsstemmer.crawl.config import DEFAULTS, Config
from newsstemmer.crawl.rounds import answer, extract_page, read_frame, run_round, write_frame
from newsstemmer.crawl.testing import (
    REPO_ROOT, build_test_site, crawl_command, crawl_stats, hold_articles, run_crawl, serve,
)

pytestmark = pytest.mark.crawl

SITE = "127.0.0.1:8000"


def _read(path):
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


_COMPARED = ("title", "body", "method", "pattern", "is_article")


def _key(item):
    return (urlsplit(item["url"]).path, *(item[f] for f in _COMPARED))


def _differences(ours: list[dict], theirs: list[dict]) -> list[str]:
    """Per page, the compared fields that differ (short, so a failure says what moved)."""
    a = {urlsplit(i["url"]).path: i for i in ours}
    b = {urlsplit(i["url"]).path: i for i in theirs}
    out = [f"{p}: only {'with' if p in a else 'without'}" for p in sorted(set(a) ^ set(b))]
    for p in sorted(set(a) & set(b)):
        for f in _COMPARED:
            if a[p][f] != b[p][f]:
                show = (lambda v: v if not isinstance(v, str) or len(v) < 80 else f"{v[:60]!r}... ({len(v)} chars)")
                out.append(f"{p} {f}: {show(a[p][f])} / {show(b[p][f])}")
    return out


@pytest.fixture(scope="module")
def site():
    return build_test_site()


# -- the protocol, without a crawl ------------------------------------------------------------


def test_frames_round_trip_and_end():
    stream = io.BytesIO()
    write_frame(stream, ("extract", 1, {"a": [1, 2]}))
    write_frame(stream, "second")
    stream.seek(0)
    assert read_frame(stream) == ("extract", 1, {"a": [1, 2]})
    assert read_frame(stream) == "second"
    with pytest.raises(EOFError):
        read_frame(stream)
    cut = io.BytesIO(stream.getvalue()[:-3])  # a process killed while it wrote
    read_frame(cut)
    with pytest.raises(EOFError):
        read_frame(cut)


def test_a_crawl_gone_before_the_answer_is_no_error(tmp_path):
    """The crawl ended while the second process started: its READY (and any reply) goes
    into a closed pipe; the process ends quietly (a traceback in the crawl's log was
    what a short crawl under load showed)."""
    config = Config(state_dir=tmp_path / "state", patterns_dir=tmp_path / "patterns", min_pages=5)
    stdin = io.BytesIO()
    write_frame(stdin, config)
    stdin.seek(0)
    read_end, write_end = os.pipe()
    os.close(read_end)
    code = (
        "import io, os, sys\n"
        "from newsstemmer.crawl.rounds import serve\n"
        "serve(io.BytesIO(sys.stdin.buffer.read()), os.fdopen(%d, 'wb'))\n" % write_end
    )
    proc = subprocess.run([sys.executable, "-c", code], input=stdin.getvalue(), capture_output=True,
                          pass_fds=(write_end,), cwd=REPO_ROOT, timeout=60)
    os.close(write_end)
    assert proc.returncode == 0, proc.stderr.decode()
    assert b"Traceback" not in proc.stderr and b"BrokenPipe" not in proc.stderr, proc.stderr.decode()


def test_answers_are_what_the_reactor_would_compute(tmp_path, site):
    config = Config(state_dir=tmp_path / "state", patterns_dir=tmp_path / "patterns", min_pages=5)
    pages = _fetched(site)
    buf = PageBuffer(config.buffer_path)
    for p in pages:
        buf.add(p)
    urls = buf.urls(SITE)
    buf.close()
    here = run_round(config, SITE, urls, None, True, False)
    patterns: dict = {}
    rid, ok, there = answer(config, patterns, ("round", 7, (SITE, urls, None, True, False)))
    assert (rid, ok) == (7, True) and there.changed and here.changed
    assert [(o.url, o.kind, o.item) for o in there.outcomes] == [(o.url, o.kind, o.item) for o in here.outcomes]
    options = ExtractOptions()
    assert answer(config, patterns, ("patterns", SITE, here.patterns)) is None
    for page in pages[:5]:
        data = (page.url, page.site, page.html, page.anchor_texts, page.fetched_at)
        rid, ok, outcome = answer(config, patterns, ("extract", 3, data, options))
        expected = extract_page(page, here.patterns, options)
        assert ok and outcome.kind == expected.kind and outcome.item == expected.item
        assert outcome.item.page_text == expected.item.page_text
    rid, ok, error = answer(config, patterns, ("nonsense", 9))
    assert (rid, ok) == (9, False) and "nonsense" in error
    rid, ok, error = answer(config, patterns, ("round", 10, (SITE,)))  # a request that raises
    assert (rid, ok) == (10, False) and "TypeError" in error


def test_the_second_process_is_a_setting():
    assert DEFAULTS["NEWSSTEMMER_SIDECAR"] == "auto"
    from scrapy.settings import Settings

    def config(value):
        return Config.from_settings(Settings({"NEWSSTEMMER_SIDECAR": value}))

    assert config("True").sidecar is True and config(True).sidecar is True
    assert config("False").sidecar is False and config(False).sidecar is False
    assert config("auto").sidecar is (len(os.sched_getaffinity(0)) >= 2)
    with pytest.raises(ValueError, match="NEWSSTEMMER_SIDECAR"):
        config("sometimes")


def _fetched(site):
    from newsstemmer.crawl.items import FetchedPage

    out = []
    for path, (_, _, body) in site.pages.items():
        if path in site.articles:
            out.append(FetchedPage(f"http://{SITE}{path}", SITE, body.decode("utf-8")))
    return out[:12]


# -- real crawls ---------------------------------------------------------------------------------


def test_a_crawl_extracts_the_same_articles_in_the_second_process(tmp_path, site):
    """Patterns learned by a first crawl; then the same crawl twice, with and without the
    second process: the same items."""
    patterns = tmp_path / "patterns"
    # With the second process, article pages wait until it is ready (its log says so):
    # the crawl sends it pages whatever the machine's speed.
    waiting_for: dict[str, Path | None] = {}

    def ready() -> bool:
        log_file = waiting_for.get("log")
        return log_file is None or (log_file.exists() and "second process is ready" in log_file.read_text())

    with serve(site, gate=hold_articles(site, ready)) as base:
        first = run_crawl([base + "/"], tmp_path / "first.jsonl", {
            "NEWSSTEMMER_STATE_DIR": str(tmp_path / "state0"), "NEWSSTEMMER_PATTERNS_DIR": str(patterns),
            "NEWSSTEMMER_SIDECAR": "False", "CONCURRENT_REQUESTS_PER_DOMAIN": "1",
        })
        assert first.returncode == 0, first.stderr[-3000:]
        out = {}
        for mode in ("True", "False"):
            copy = tmp_path / f"patterns-{mode}"
            shutil.copytree(patterns, copy)
            log_file = tmp_path / f"{mode}.log"
            waiting_for["log"] = log_file if mode == "True" else None
            result = run_crawl([base + "/"], tmp_path / f"{mode}.jsonl", {
                "NEWSSTEMMER_STATE_DIR": str(tmp_path / f"state-{mode}"), "NEWSSTEMMER_PATTERNS_DIR": str(copy),
                "NEWSSTEMMER_SIDECAR": mode, "LOG_FILE": str(log_file),
            })
            text = log_file.read_text()
            assert result.returncode == 0, text[-3000:]
            out[mode] = (_read(tmp_path / f"{mode}.jsonl"), crawl_stats(text), text)
    items, stats, log = out["True"]
    assert "in a second process (pid" in log and "is gone" not in log
    # (pages that arrive before the process is ready are extracted on the reactor: how many
    # depends on the machine's load)
    assert stats["newsstemmer/sidecar_requests"] >= 1
    assert stats["newsstemmer/pages_left_in_buffer"] == 0 and "newsstemmer/sidecar_lost" not in stats
    articles = [i for i in items if urlsplit(i["url"]).path in site.articles]
    assert sorted(urlsplit(i["url"]).path for i in articles) == sorted(site.articles)  # each once
    assert sorted(map(_key, items)) == sorted(map(_key, out["False"][0])), _differences(items, out["False"][0])
    assert "sidecar_requests" not in " ".join(out["False"][1])


def test_a_killed_second_process_loses_no_page(tmp_path, site):
    """Kill -9 the second process in the middle of a crawl: its open requests and all later
    work run on the reactor; every article comes out once."""
    state, out = tmp_path / "state", tmp_path / "out.jsonl"
    settings = {
        "NEWSSTEMMER_STATE_DIR": str(state), "NEWSSTEMMER_PATTERNS_DIR": str(tmp_path / "patterns"),
        "NEWSSTEMMER_SIDECAR": "True", "NEWSSTEMMER_MIN_PAGES": "8", "CONCURRENT_REQUESTS": "4",
    }
    # Article pages past the 18th wait until the process is killed: the crawl has work
    # left for it then, whatever the machine's speed.
    killed = threading.Event()
    with serve(site, delay=0.03, gate=hold_articles(site, killed.is_set, free=18)) as base:
        proc = subprocess.Popen(crawl_command([base + "/"], out, settings), cwd=REPO_ROOT,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        log = []
        try:
            pid = None
            for line in proc.stderr:  # the log names the process
                log.append(line)
                found = re.search(r"in a second process \(pid (\d+)\)", line)
                if found:
                    pid = int(found.group(1))
                if pid and "learned from" in line:  # its first round is done: it has work in hand
                    break
            assert pid, "".join(log)[-3000:]
            end = time.monotonic() + 30
            while len(_read(out)) < 5 and time.monotonic() < end:
                time.sleep(0.02)
            os.kill(pid, signal.SIGKILL)
            killed.set()
            _, rest = proc.communicate(timeout=60)
        finally:
            killed.set()
            if proc.poll() is None:
                proc.kill()
    text = "".join(log) + rest
    assert proc.returncode == 0, text[-3000:]
    assert "is gone" in text and "run on the reactor" in text
    stats = crawl_stats(text)
    assert stats["finish_reason"] == "finished"
    assert stats["newsstemmer/sidecar_lost"] == 1
    assert stats.get("newsstemmer/pages_left_in_buffer") == 0, text[-8000:]
    items = _read(out)
    articles = sorted(urlsplit(i["url"]).path for i in items if urlsplit(i["url"]).path in site.articles)
    assert articles == sorted(site.articles)  # every article, once
    for item in items:
        path = urlsplit(item["url"]).path
        if path in site.articles:
            assert item["title"] == site.articles[path][0]


@pytest.mark.skipif(not hasattr(os, "getpriority"), reason="Unix process priorities")
def test_the_second_process_runs_at_a_lower_priority():
    """The reactor paces the crawl: the second process yields the CPU to it (CHILD_NICE)."""
    from newsstemmer.crawl.sidecar import CHILD_CODE, CHILD_NICE

    assert CHILD_NICE > 0
    mine = os.getpriority(os.PRIO_PROCESS, 0)
    child = subprocess.Popen([sys.executable, "-c", CHILD_CODE], cwd=REPO_ROOT, stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 20
        while os.getpriority(os.PRIO_PROCESS, child.pid) == mine and time.monotonic() < deadline:
            time.sleep(0.05)
        assert os.getpriority(os.PRIO_PROCESS, child.pid) == min(mine + CHILD_NICE, 19)
    finally:
        child.stdin.close()  # no config: it exits
        assert child.wait(timeout=20) == 0
