"""``benchmarks/soak.py --keep DIR --resume``: a soak run in parts gives the figures of one run straight.

A year of monitoring does not fit in one session: the kept folder records its run (arguments,
the sites' ports, the finished days' figures) and a resumed run continues after its last
finished day, a day stopped half-way again from the state it started from.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.soak import DAY_START, DEMO_DIR, RUN_FILE, faketime_lib, restore_day_start, save_day_start
from newsstemmer.crawl.testing import REPO_ROOT

#: One small site, learning the same on every run (one request at a time, no second process).
ARGS = ["--sites", "1", "--new-per-day", "6", "--updates-per-day", "2", "--seed", "3",
        "--set", "CONCURRENT_REQUESTS_PER_DOMAIN=1", "--set", "NEWSSTEMMER_SIDECAR=False"]
#: The figures of a day that the crawl decides (not its times or memory).
DECIDED = ("pages", "requests", "not_modified", "items", "new", "updated", "new_sent", "updated_sent", "repeats",
           "missed", "extra", "tracebacks")


def soak(*extra: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([sys.executable, "benchmarks/soak.py", *ARGS, *extra], cwd=REPO_ROOT,
                          capture_output=True, text=True, timeout=900)
    if check and proc.returncode not in (0, 1):  # 1: some target not met (a short run)
        raise AssertionError(f"soak failed ({proc.returncode}):\n{proc.stdout[-2000:]}\n{proc.stderr[-3000:]}")
    return proc


def decided(path: Path) -> list[dict[str, object]]:
    return [{k: day[k] for k in ("day", *DECIDED)} for day in json.loads(path.read_text())["days"]]


NEEDS = ("libfaketime not found: the soak sets each day's clock with it "
         "(Debian: apt-get install faketime, as in the README's test command)")


def needs_faketime() -> None:
    """Skip without libfaketime; under CI (which installs it) fail instead, so the test
    cannot be skipped there unnoticed."""
    if faketime_lib() is None:
        if os.environ.get("CI"):
            pytest.fail(f"under CI: {NEEDS}")
        pytest.skip(NEEDS)


@pytest.mark.crawl
def test_days_resumed_are_the_days_straight(tmp_path: Path) -> None:
    needs_faketime()
    straight = tmp_path / "straight.json"
    soak("--days", "3", "--keep", str(tmp_path / "a"), "--json", str(straight))
    parts = tmp_path / "parts.json"
    soak("--days", "2", "--keep", str(tmp_path / "b"), "--json", str(parts))
    assert [d["day"] for d in json.loads(parts.read_text())["days"]] == [1, 2]
    record = json.loads((tmp_path / "b" / RUN_FILE).read_text())
    assert [d["day"] for d in record["days"]] == [1, 2] and len(record["ports"]) == 1
    assert not (tmp_path / "b" / DAY_START).exists()  # only while a day runs
    journal = tmp_path / "b" / DEMO_DIR / "site-3.jsonl"  # the demo's days: header, day 2
    assert [json.loads(line).get("day") for line in journal.read_text().splitlines()] == [None, 2]
    proc = soak("--days", "3", "--keep", str(tmp_path / "b"), "--json", str(parts), "--resume")
    assert "demo sites at day 2 from their journals" in proc.stderr  # not made again from day 1
    assert [json.loads(line).get("day") for line in journal.read_text().splitlines()] == [None, 2, 3]
    got, want = decided(parts), decided(straight)
    assert [d["day"] for d in got] == [1, 2, 3]
    assert got == want
    assert sum(d["new_sent"] for d in got) == 6 * 3 + 120 - 6  # day 1: the whole site (120 articles)
    # the run's arguments are the kept run's, or it does not resume
    proc = soak("--days", "4", "--keep", str(tmp_path / "b"), "--resume", "--new-per-day", "7", check=False)
    assert proc.returncode != 0 and "new_per_day" in proc.stderr
    assert len(json.loads((tmp_path / "b" / RUN_FILE).read_text())["days"]) == 3


def test_a_day_stopped_half_way_starts_again_from_its_state(tmp_path: Path) -> None:
    worker = tmp_path / "w1"
    (worker / "state").mkdir(parents=True)
    (worker / "state" / "history.sqlite").write_bytes(b"before day 5")
    (worker / "patterns").mkdir()
    save_day_start(tmp_path, [worker], 5)
    (worker / "state" / "history.sqlite").write_bytes(b"half of day 5")
    (worker / "state" / "buffer.sqlite").write_bytes(b"made on day 5")
    assert restore_day_start(tmp_path, [worker], 5)
    assert (worker / "state" / "history.sqlite").read_bytes() == b"before day 5"
    assert not (worker / "state" / "buffer.sqlite").exists()
    assert (worker / "patterns").is_dir()
    # a copy left by a finished day (stopped before it was removed) is not put back
    save_day_start(tmp_path, [worker], 5)
    (worker / "state" / "history.sqlite").write_bytes(b"after day 5")
    assert not restore_day_start(tmp_path, [worker], 6)
    assert (worker / "state" / "history.sqlite").read_bytes() == b"after day 5"
    assert not (tmp_path / DAY_START).exists()
