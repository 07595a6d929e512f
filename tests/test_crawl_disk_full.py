"""The state folder's disk filling up under a running crawl (a file-size limit, ``RLIMIT_FSIZE``,
stands in for a full disk: SQLite and the files meet the same errors): the crawl stops with
one clear error naming the folder and a failing exit status, no traceback per page, the
feed and the state stay readable, and the next run with space sends what was left."""

from __future__ import annotations

import json
import resource
import subprocess
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from newsstemmer.crawl.storage.retention import census
from newsstemmer.crawl.testing import REPO_ROOT, crawl_command, crawl_stats, run_crawl
from newsstemmer.demo import DemoServer, build_site

pytestmark = pytest.mark.crawl
LIMIT = 400_000  # bytes: the buffer of a few pages, the feed of a few articles


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (LIMIT, LIMIT))


def _items(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()] if path.exists() else []


def test_a_full_state_disk_stops_the_crawl_once_and_the_next_run_loses_nothing(tmp_path):
    site = build_site()
    settings = {"NEWSSTEMMER_STATE_DIR": str(tmp_path / "state"), "NEWSSTEMMER_PATTERNS_DIR": str(tmp_path / "patterns")}
    out1, out2 = tmp_path / "out1.jsonl", tmp_path / "out2.jsonl"
    with DemoServer(site) as server:
        start = [server.base_url + "/"]
        full = subprocess.run(crawl_command(start, out1, settings), cwd=REPO_ROOT, capture_output=True, text=True,
                              timeout=180, preexec_fn=_limited)
        again = run_crawl(start, out2, settings, timeout=180)
    log = full.stderr
    assert full.returncode == 1, log[-3000:]
    assert crawl_stats(log).get("finish_reason") == "state_disk_full"
    assert log.count("cannot write to the state folder") == 1 and str(tmp_path / "state") in log
    assert "Traceback" not in log, log[-3000:]
    assert all(c.error is None for c in census(tmp_path / "state"))  # every store still opens
    assert again.returncode == 0, again.stderr[-3000:]
    truth = set(site.truth())
    paths = [urlsplit(i["url"]).path for i in _items(out1) + _items(out2)]
    assert truth <= set(paths), sorted(truth - set(paths))[:10]  # nothing lost
    assert len([p for p in paths if p in truth]) - len(truth) <= 2  # (a feed line written, its record not)
