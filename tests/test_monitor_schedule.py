"""Scheduling recipes, run for real: the cron/systemd script, and Scrapyd (deploy, schedule.json).

The script runs the incremental crawl of the demo site into the day's dated JSON
Lines file, twice (day 1, then day 2: only what is new or updated is appended), then
a third time with nothing new: its health alert makes it exit 3.

Scrapyd is started on a free loopback port with its own folders, the project egg
(``scripts/build_egg.py``) is deployed with ``addversion.json``, a crawl of the demo
site is scheduled with ``schedule.json``, and the job's items file is read.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
import uuid
from pathlib import Path

import pytest

from newsstemmer.crawl.testing import REPRODUCIBLE_SETTINGS, REPO_ROOT

pytestmark = [pytest.mark.crawl, pytest.mark.scrapyd]

SCRIPT = REPO_ROOT / "scripts" / "scheduled-crawl.sh"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _settings_args(settings: dict[str, str]) -> list[str]:
    return [a for k, v in settings.items() for a in ("-s", f"{k}={v}")]


def test_scheduled_crawl_script_writes_dated_feeds_and_fails_on_alerts(tmp_path):
    if shutil.which("flock") is None:
        pytest.fail("flock (Debian package util-linux) is needed by scripts/scheduled-crawl.sh")
    port = _free_port()
    env = {**os.environ, "NEWSSTEMMER_DATA": str(tmp_path / "data"), "PYTHON": sys.executable,
           "NEWSSTEMMER_FAIL_ON_ALERTS": "1"}
    counts = []
    for day in (1, 2, 2):
        args = _settings_args({**REPRODUCIBLE_SETTINGS, "NEWSSTEMMER_DEMO_PORT": str(port), "NEWSSTEMMER_DEMO_DAY": str(day)})
        proc = subprocess.run(["bash", str(SCRIPT), *args], env=env, capture_output=True, text=True, timeout=120)
        feed = tmp_path / "data" / "feeds" / f"articles-{dt.datetime.now(dt.timezone.utc):%Y-%m-%d}.jsonl"
        counts.append((proc.returncode, len(feed.read_text().splitlines())))
        assert "scheduled-crawl:" in proc.stderr and "No such file" not in proc.stderr, proc.stderr
    # day 1: every article; day 2: only the new and updated ones appended; day 2 again: nothing, an alert
    (rc1, n1), (rc2, n2), (rc3, n3) = counts
    assert rc1 == 0 and n1 >= 117
    assert rc2 == 0 and 15 <= n2 - n1 <= 20
    assert rc3 == 3 and n3 == n2
    logs = list((tmp_path / "data" / "logs").glob("crawl-*.log"))
    assert len(logs) == 3 and all("Spider closed (finished)" in p.read_text() for p in logs)
    health = (tmp_path / "data" / "state" / "health.jsonl").read_text().splitlines()
    assert len(health) == 3 and "no new articles" in health[-1]
    assert list((tmp_path / "data" / "patterns").glob("*.json"))


# -- Scrapyd ---------------------------------------------------------------------------------


def _api(base: str, path: str, data: dict | None = None, files: dict | None = None) -> dict:
    if files:
        boundary = uuid.uuid4().hex
        body = b""
        for name, value in (data or {}).items():
            body += f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
        for name, (filename, content) in files.items():
            body += (f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
                     "Content-Type: application/octet-stream\r\n\r\n").encode() + content + b"\r\n"
        body += f"--{boundary}--\r\n".encode()
        req = urllib.request.Request(base + path, body, {"Content-Type": f"multipart/form-data; boundary={boundary}"})
    elif data is not None:
        req = urllib.request.Request(base + path, urllib.parse.urlencode(data, doseq=True).encode())
    else:
        req = urllib.request.Request(base + path)
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def test_scrapyd_deploys_the_egg_and_runs_a_scheduled_crawl(tmp_path):
    egg = subprocess.run([sys.executable, str(REPO_ROOT / "scripts" / "build_egg.py"), str(tmp_path / "dist")],
                         capture_output=True, text=True, check=True).stdout.strip()
    port, demo_port = _free_port(), _free_port()
    (tmp_path / "scrapyd.conf").write_text(
        "[scrapyd]\nbind_address = 127.0.0.1\n"
        f"http_port = {port}\npoll_interval = 0.2\neggs_dir = eggs\nlogs_dir = logs\nitems_dir = items\n"
        "dbs_dir = dbs\njobs_to_keep = 5\n"
    )
    server = subprocess.Popen([sys.executable, "-m", "scrapyd"], cwd=tmp_path, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(150):
            try:
                if _api(base, "/daemonstatus.json")["status"] == "ok":
                    break
            except OSError:
                time.sleep(0.1)
        else:
            pytest.fail("scrapyd did not start")
        added = _api(base, "/addversion.json", {"project": "newsstemmer", "version": "1"},
                     {"egg": (Path(egg).name, Path(egg).read_bytes())})
        assert added["status"] == "ok" and added["spiders"] >= 1, added
        assert "news" in _api(base, "/listspiders.json?project=newsstemmer")["spiders"]
        settings = {**REPRODUCIBLE_SETTINGS, "NEWSSTEMMER_DEMO_PORT": str(demo_port),
                    "NEWSSTEMMER_STATE_DIR": str(tmp_path / "state"), "NEWSSTEMMER_PATTERNS_DIR": str(tmp_path / "patterns")}
        job = _api(base, "/schedule.json", {"project": "newsstemmer", "spider": "news",
                                            "setting": [f"{k}={v}" for k, v in settings.items()]})
        assert job["status"] == "ok", job
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            jobs = _api(base, "/listjobs.json?project=newsstemmer")
            if any(j["id"] == job["jobid"] for j in jobs["finished"]):
                break
            time.sleep(0.3)
        else:
            pytest.fail(f"the job did not finish: {jobs}")
        items_file = tmp_path / "items" / "newsstemmer" / "news" / f"{job['jobid']}.jl"
        log = (tmp_path / "logs" / "newsstemmer" / "news" / f"{job['jobid']}.log").read_text()
        assert items_file.exists(), log[-3000:]
        items = [json.loads(line) for line in items_file.read_text().splitlines()]
        assert len(items) >= 117 and all(i["body"] and i["version"] == 1 for i in items if i["is_article"])
        assert "Spider closed (finished)" in log and (tmp_path / "state" / "health.jsonl").exists()
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
