"""A scheduled (incremental) crawl killed with SIGKILL and run again: no article lost, none repeated
beyond the README's bound (the articles whose feed line was written just before the kill)."""

from __future__ import annotations

import signal
import subprocess
from urllib.parse import urlsplit

from newsstemmer.crawl.testing import REPO_ROOT, crawl_command, run_crawl
from newsstemmer.demo import DemoServer, build_site
from newsstemmer.demo.scoring import score_day

from test_crawl_resume import _read, _wait_for
import pytest

pytestmark = pytest.mark.crawl


def test_killed_incremental_run_loses_no_article_and_repeats_none(tmp_path):
    day1, day2 = build_site(), build_site(day=2)
    settings = {"NEWSSTEMMER_STATE_DIR": str(tmp_path / "state"), "NEWSSTEMMER_PATTERNS_DIR": str(tmp_path / "patterns"),
                "CONCURRENT_REQUESTS": "4"}
    out1, out2, out3 = (tmp_path / f"out{n}.jsonl" for n in (1, 2, 3))
    with DemoServer(day1) as server:
        start = [server.base_url + "/"]
        first = run_crawl(start, out1, settings)
        assert first.returncode == 0, first.stderr[-3000:]
        server.switch(day2, delay=0.1)  # the next day, served slowly so that the crawl is killed midway
        proc = subprocess.Popen(crawl_command(start, out2, settings), cwd=REPO_ROOT, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True)
        try:
            _wait_for(lambda: len(_read(out2)) >= 5, proc, timeout=60)
        finally:
            proc.send_signal(signal.SIGKILL)
            proc.communicate(timeout=30)
        killed = _read(out2)
        server.switch(day2, delay=0.0)
        again = run_crawl(start, out3, settings)
    assert again.returncode == 0, again.stderr[-3000:]
    assert "resuming an interrupted crawl (killed)" in again.stderr
    rest = _read(out3)
    assert 5 <= len(killed) < 17  # killed midway through the day's 12 new and 5 updated articles
    score = score_day(killed + rest, day1, day2)
    assert score["delivered"] == score["expected"], score  # nothing lost
    assert score["repeated"] == 0, score  # no unchanged article sent again
    paths = [urlsplit(i["url"]).path for i in killed + rest]
    twice = len(paths) - len(set(paths))
    assert twice <= 1  # at most one: its feed line was written, its record not yet
