"""``SIGTERM`` (what systemd sends to stop a unit) in the middle of a learning round: the
crawl stops gracefully, and the next run with the same state folder sends every article
that the first did not: nothing lost, nothing sent twice."""

from __future__ import annotations

import json
import signal
import subprocess
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from newsstemmer.crawl.testing import REPO_ROOT, crawl_command, run_crawl
from newsstemmer.demo import DemoServer, build_site

pytestmark = pytest.mark.crawl


def _items(path: Path) -> list[dict]:
    if not path.exists():
        return []
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


@pytest.mark.parametrize("sidecar", ["False", "True"])
def test_sigterm_during_a_learning_round_loses_nothing(tmp_path, sidecar):
    site = build_site()
    settings = {"NEWSSTEMMER_STATE_DIR": str(tmp_path / "state"), "NEWSSTEMMER_PATTERNS_DIR": str(tmp_path / "patterns"),
                "NEWSSTEMMER_SIDECAR": sidecar, "CONCURRENT_REQUESTS": "4"}
    out1, out2, log1 = tmp_path / "out1.jsonl", tmp_path / "out2.jsonl", tmp_path / "run1.log"
    with DemoServer(site) as server:
        start = [server.base_url + "/"]
        with log1.open("w") as log:
            proc = subprocess.Popen(crawl_command(start, out1, settings), cwd=REPO_ROOT, stdout=subprocess.DEVNULL,
                                    stderr=log)
            end = time.monotonic() + 90
            while "newsstemmer: learning " not in log1.read_text(encoding="utf-8"):
                assert proc.poll() is None and time.monotonic() < end, log1.read_text()[-3000:]
                time.sleep(0.01)
            proc.send_signal(signal.SIGTERM)  # a round has just started
            code = proc.wait(timeout=120)
        first = log1.read_text(encoding="utf-8")
        again = run_crawl(start, out2, settings, timeout=180)
    assert code == 0, first[-3000:]
    assert "shutting down gracefully" in first and "(shutdown)" in first
    assert "Traceback" not in first, first[-3000:]
    assert again.returncode == 0, again.stderr[-3000:]
    truth = set(site.truth())
    paths = [urlsplit(i["url"]).path for i in _items(out1) + _items(out2)]
    assert truth <= set(paths), sorted(truth - set(paths))[:10]  # nothing lost
    assert len([p for p in paths if p in truth]) - len(truth & set(paths)) <= 1  # at most the documented one twice
