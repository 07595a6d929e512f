"""State that survives months of runs (issue #13, point 7): a corrupt or foreign state
database never stops a crawl with a traceback, and never loses what it held.

A real ``scrapy crawl`` against the local test site, with every state file of the state
folder replaced by garbage before it starts; the stores alone with garbage, another
program's table of the same name, and a newer schema.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from newsstemmer.crawl.storage.sqlite_buffer import PageBuffer
from newsstemmer.crawl.storage.sqlite_frontier import Frontier
from newsstemmer.crawl.storage.sqlite_anchors import LinkInfo
from newsstemmer.crawl.storage.sqlite_files import StateError, open_versioned
from newsstemmer.crawl.testing import build_test_site, crawl_stats, run_crawl, serve

pytestmark = pytest.mark.crawl

STATE_FILES = ("buffer.sqlite", "linkinfo.sqlite", "frontier.sqlite", "history.sqlite", "fetchlog.sqlite", "runs.sqlite")


def _foreign_db(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE pages (id INTEGER PRIMARY KEY, note TEXT)")  # same name, other columns
    conn.execute("INSERT INTO pages (note) VALUES ('not newsstemmer')")
    conn.commit()
    conn.close()


@pytest.mark.parametrize("kind", ["garbage", "foreign"])
def test_buffer_unreadable_is_moved_aside_never_deleted(tmp_path, caplog, kind):
    path = tmp_path / "buffer.sqlite"
    if kind == "garbage":
        path.write_bytes(b"\x00\xffnot sqlite at all" * 500)
    else:
        _foreign_db(path)
    before = path.read_bytes()
    with caplog.at_level("ERROR"):
        buffer = PageBuffer(path)
    aside = [p for p in tmp_path.iterdir() if p.name.startswith("buffer.sqlite.unreadable-") and not p.name.endswith(("-wal", "-shm"))]
    assert len(aside) == 1 and aside[0].read_bytes() == before
    assert "page buffer" in caplog.text and str(aside[0]) in caplog.text
    assert any(r.levelname == "ERROR" for r in caplog.records)
    assert buffer.count() == 0


def test_rebuildable_stores_are_rebuilt_with_a_warning(tmp_path, caplog):
    for name in ("linkinfo.sqlite", "frontier.sqlite"):
        (tmp_path / name).write_bytes(b"garbage" * 100)
    with caplog.at_level("WARNING"):
        LinkInfo(tmp_path / "linkinfo.sqlite")
        Frontier(tmp_path / "frontier.sqlite")
    assert caplog.text.count("was moved to") == 2
    assert all(r.levelname == "WARNING" for r in caplog.records if "moved to" in r.getMessage())


def test_old_files_are_migrated_forward(tmp_path):
    """A file made before schema versions (user_version 0, same tables) is kept and stamped."""
    path = tmp_path / "linkinfo.sqlite"
    LinkInfo(path).add("s", "http://s/", [("http://s/a", "An anchor")])
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 0")
    conn.close()
    again = LinkInfo(path)
    assert again.anchors("http://s/a") == ["An anchor"]
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
    conn.close()


def test_newer_schema_is_refused_and_left_alone(tmp_path):
    path = tmp_path / "buffer.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 7")
    conn.close()
    with pytest.raises(StateError, match="newer than this newsstemmer"):
        PageBuffer(path)
    (tmp_path / "x.sqlite").write_bytes(b"junk" * 50)
    with pytest.raises(StateError, match="not a usable thing database"):
        open_versioned(tmp_path / "x.sqlite", "CREATE TABLE t (a)", 1, "thing")  # the default: refuse
    assert path.exists() and not list(tmp_path.glob("buffer.sqlite.unreadable-*"))


def test_crawl_with_every_state_file_corrupt(tmp_path):
    site = build_test_site(n_articles=12, hostile=False)
    state = tmp_path / "state"
    state.mkdir()
    for name in STATE_FILES:
        (state / name).write_bytes(b"garbage " * 2000)
    out = tmp_path / "items.jsonl"
    with serve(site) as base:
        proc = run_crawl(
            [base + "/"],
            out,
            {
                "NEWSSTEMMER_STATE_DIR": str(state),
                "NEWSSTEMMER_PATTERNS_DIR": str(tmp_path / "patterns"),
                "NEWSSTEMMER_MIN_PAGES": "5",
            },
            timeout=120,
        )
    log = proc.stderr
    assert proc.returncode == 0, log[-3000:]
    assert "Traceback" not in log, log[-3000:]
    items = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert sum(1 for i in items if i.get("body")) >= 10
    assert crawl_stats(log).get("finish_reason") == "finished"
    for name in STATE_FILES:
        assert list(state.glob(name + ".unreadable-*")), f"{name} not moved aside"
        assert f"{state / name} is not a usable" in log
