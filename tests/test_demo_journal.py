"""The long-run demo's journal (issue #26): a stop at any moment leaves a journal that goes on; anything
else that does not read is refused, naming the file and line, and ``soak.py --resume`` says so plainly."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.soak import DEMO_DIR, RUN_ARGS, RUN_FILE
from newsstemmer.crawl.testing import REPO_ROOT, free_port
from newsstemmer.demo import journal as journal_module
from newsstemmer.demo.days import Schedule
from newsstemmer.demo.journal import DayJournal, JournalError
from newsstemmer.demo.longrun import DemoDays
from newsstemmer.errors import NewsstemmerError

SCHEDULE = Schedule.long(8, 3, None, 400)


def made(path: Path, days: int = 4, seed: int = 3) -> DemoDays:
    """A journal of days 2..``days`` at ``path``."""
    demo = DemoDays(seed, 40, SCHEDULE, journal=path)
    demo.site(days)
    return demo


def edit_line(path: Path, n: int, edit) -> None:
    """Line ``n`` (1: the header) replaced by ``edit(its JSON)`` (a str: written as is)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    new = edit(json.loads(lines[n - 1]))
    lines[n - 1] = new if isinstance(new, str) else json.dumps(new)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_a_damaged_line_is_refused_with_its_file_and_line(tmp_path):
    path = tmp_path / "site-3.jsonl"
    made(path)
    edit_line(path, 3, lambda line: json.dumps(line)[:-9] + "#garbage")  # day 3 of days 2-4
    with pytest.raises(JournalError, match=rf"{path.name}, line 3: damaged") as err:
        DemoDays(3, 40, SCHEDULE, journal=path)
    assert isinstance(err.value, NewsstemmerError) and isinstance(err.value, ValueError)


def test_a_damaged_last_line_is_refused_too_when_whole(tmp_path):
    """A line that ends is not a stop's cut: dropping it would hide damage."""
    path = tmp_path / "site-3.jsonl"
    made(path)
    edit_line(path, 4, lambda line: "{not json")
    with pytest.raises(JournalError, match=r"line 4: damaged"):
        DemoDays(3, 40, SCHEDULE, journal=path)


def test_a_cut_last_line_is_dropped_with_a_warning(tmp_path, caplog):
    path = tmp_path / "site-3.jsonl"
    first = made(path, 5)
    whole = path.read_bytes()
    path.write_bytes(whole[:-40])  # day 5's line cut short by a stop
    with caplog.at_level(logging.WARNING, logger="newsstemmer.demo.journal"):
        again = DemoDays(3, 40, SCHEDULE, journal=path)
    assert again.day == 4 and "line 5: cut short" in caplog.text
    assert path.read_bytes() == whole[: whole.rindex(b"\n", 0, len(whole) - 1) + 1]  # the cut part gone
    again.site(5)
    assert path.read_bytes() == whole and len(again.refs) == len(first.refs)


@pytest.mark.parametrize("edit, message", [
    (lambda line: [1, 2], "not a day's line"),
    (lambda line: {**line, "day": 7}, "day 7 follows day 2"),
    (lambda line: {k: v for k, v in line.items() if k != "new"}, "not a day's line"),
    (lambda line: {**line, "new": [[*line["new"][0][:1], "no-such-section", *line["new"][0][2:]]]},
     "not a day's line"),
    (lambda line: {**line, "new": line["new"][::-1]}, "ids grow"),
    (lambda line: {**line, "updated": ["/world/2026/11/30/nothing-here-5.html"]}, "no article at that path"),
    (lambda line: {**line, "new": [[*line["new"][0][:3], "Another headline", *line["new"][0][4:]],
                                   *line["new"][1:]]}, "drawn again differ"),  # the last day is drawn again at open
])
def test_a_line_that_is_not_the_day_it_says_is_refused(tmp_path, edit, message):
    path = tmp_path / "site-3.jsonl"
    made(path, 3)
    edit_line(path, 3, edit)  # day 3: the last one
    with pytest.raises(JournalError, match=rf"{path.name}, line 3: .*{message}"):
        DemoDays(3, 40, SCHEDULE, journal=path)


def test_a_journal_of_another_site_or_run_is_refused_at_open(tmp_path):
    path = tmp_path / "site-3.jsonl"
    made(path, 3)
    before = path.read_bytes()
    with pytest.raises(JournalError, match=r"line 1: a journal of another demo run: seed 3 in the journal, 4 in this run"):
        DemoDays(4, 40, SCHEDULE, journal=path)
    with pytest.raises(JournalError, match=r"articles 40 in the journal, 41"):
        DemoDays(3, 41, SCHEDULE, journal=path)
    with pytest.raises(JournalError, match=r"line 1: .*new_per_day"):
        DemoDays(3, 40, Schedule.long(9, 3, None, 400), journal=path)
    assert path.read_bytes() == before  # left as it was
    path.write_bytes(b'{"demo": "newsst')  # a header never written whole
    with pytest.raises(JournalError, match=r"line 1: the header is cut short"):
        DemoDays(3, 40, SCHEDULE, journal=path)


def test_the_header_appears_whole_or_not_at_all(tmp_path, monkeypatch):
    path = tmp_path / "demo" / "site-3.jsonl"

    def stopped(src, dst):
        raise RuntimeError("stopped before the rename")

    monkeypatch.setattr(journal_module.os, "replace", stopped)
    with pytest.raises(RuntimeError, match="stopped"):
        DemoDays(3, 40, SCHEDULE, journal=path)
    assert not path.exists()  # only the temporary file, written again next time
    monkeypatch.undo()
    DemoDays(3, 40, SCHEDULE, journal=path)
    assert [json.loads(line)["seed"] for line in path.read_text().splitlines()] == [3]
    assert sorted(p.name for p in path.parent.iterdir()) == ["site-3.jsonl"]


def test_each_day_is_one_appending_write_then_on_disk(tmp_path, monkeypatch):
    path = tmp_path / "site-3.jsonl"
    demo = DemoDays(3, 40, SCHEDULE, journal=path)
    calls: list[str] = []
    real_open, real_write, real_fsync = os.open, os.write, os.fsync

    def opened(file, flags, *a):
        calls.append("append" if flags & os.O_APPEND and not flags & os.O_TRUNC else f"open {flags:#o}")
        return real_open(file, flags, *a)

    def written(fd, data):
        calls.append("write")
        return real_write(fd, data)

    def synced(fd):
        calls.append("fsync")
        return real_fsync(fd)

    monkeypatch.setattr(journal_module.os, "open", opened)
    monkeypatch.setattr(journal_module.os, "write", written)
    monkeypatch.setattr(journal_module.os, "fsync", synced)
    demo.site(4)
    assert calls == ["append", "write", "fsync"] * 3  # days 2, 3, 4
    monkeypatch.undo()
    assert [json.loads(line).get("day") for line in path.read_text().splitlines()] == [None, 2, 3, 4]


def test_day_journal_alone(tmp_path):
    path = tmp_path / "j.jsonl"
    j = DayJournal(path, {"seed": 1})
    j.append({"day": 2, "x": "é"})
    assert list(DayJournal(path, {"seed": 1}).days()) == [(2, {"day": 2, "x": "é"})]
    with pytest.raises(JournalError, match=r"j.jsonl, line 1: a journal of another demo run: seed 1 in the journal, 2"):
        DayJournal(path, {"seed": 2})


def test_soak_resume_says_plainly_that_a_journal_is_damaged(tmp_path):
    """No traceback: the file, the line, and what to do."""
    args = ["--sites", "1", "--new-per-day", "8", "--updates-per-day", "3", "--seed", "3", "--no-clock"]
    run = {"sites": 1, "new_per_day": 8, "updates_per_day": 3, "redesign_day": None, "seed": 3, "redis": False,
           "no_clock": True, "settings": {}}
    assert set(run) == set(RUN_ARGS)
    (tmp_path / RUN_FILE).write_text(json.dumps({"run": run, "ports": [free_port()], "days": [{"day": 1}, {"day": 2}]}))
    path = tmp_path / DEMO_DIR / "site-3.jsonl"
    DemoDays(3, schedule=Schedule.long(8, 3, None, 4), journal=path).site(3)
    edit_line(path, 2, lambda line: "{damaged")
    proc = subprocess.run([sys.executable, "benchmarks/soak.py", *args, "--days", "4", "--keep", str(tmp_path),
                           "--resume"], cwd=REPO_ROOT, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(REPO_ROOT)})
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    assert f"a demo journal cannot be continued: {path}, line 2: damaged" in proc.stderr
    assert f"remove {tmp_path / DEMO_DIR}" in proc.stderr
