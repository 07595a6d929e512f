"""The run monitor's parts: pattern-file history and retirement, health alerts."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from newsstemmer.crawl.config import Config
from newsstemmer.crawl.monitor import health_alerts
from newsstemmer.crawl.testing import REPO_ROOT
from newsstemmer.layout.patterns import LayoutPattern, LayoutSection, PatternFileError, SitePatterns


def _layout(i: str, **kw) -> LayoutPattern:
    return LayoutPattern(i, 150.0, 3, [LayoutSection("div.x", 0.9, 90.0, "main")], main_section=0, **kw)


def test_pattern_history_and_retirement_round_trip(tmp_path):
    old_style = SitePatterns("s", [_layout("p0"), _layout("p1")], pages=["u1", "u2"], created="2026-11-01T00:00:00+00:00")
    path = old_style.save(tmp_path / "s.json")
    raw = json.loads(path.read_text())
    assert "history" not in raw and "retired" not in raw and "version" not in raw["patterns"][0]  # old shape kept
    sp = SitePatterns.load(path)
    assert sp.revision == 1 and sp.history == []
    sp.patterns.append(_layout("p2", version=2, learned_at="2026-11-24T00:00:00+00:00"))
    sp.add_version({"version": 2, "learned_at": "2026-11-24T00:00:00+00:00", "pages": 30, "reason": "drift",
                    "added": ["p2"]})
    gone = sp.retire(["p0"], "2026-12-01T00:00:00+00:00", "no page matched for 10 runs")
    assert [p.id for p in gone] == ["p0"] and [p.id for p in sp.patterns] == ["p1", "p2"]
    sp.save(path)
    back = SitePatterns.load(path)
    assert [h["version"] for h in back.history] == [1, 2, 3] and back.revision == 3
    assert back.history[0]["added"] == ["p0", "p1"] and back.history[2]["retired"] == ["p0"]
    assert [(p.id, p.retired_at) for p in back.retired] == [("p0", "2026-12-01T00:00:00+00:00")]
    assert back.patterns[1].version == 2 and back.patterns[1].learned_at == "2026-11-24T00:00:00+00:00"
    out = subprocess.run([sys.executable, "-m", "newsstemmer", "patterns", "history", str(path)],
                         capture_output=True, text=True, cwd=REPO_ROOT)
    assert out.returncode == 0, out.stderr
    assert "version 3, 2 layouts in use, 1 retired" in out.stdout and "retired p0" in out.stdout
    assert "drift: added p2" in out.stdout
    js = subprocess.run([sys.executable, "-m", "newsstemmer", "patterns", "history", "--json", str(path)],
                        capture_output=True, text=True, cwd=REPO_ROOT)
    data = json.loads(js.stdout)
    assert data["version"] == 3 and {r["id"]: r["state"] for r in data["layouts"]} == {
        "p1": "in use", "p2": "in use", "p0": "retired"}


@pytest.mark.parametrize("change, message", [
    ({"history": {"version": 1}}, "history"),
    ({"history": [{"version": 0}]}, "positive whole number"),
    ({"retired": [{"id": "p9"}]}, "retired layout #0"),
])
def test_bad_history_gives_a_clear_error(tmp_path, change, message):
    data = SitePatterns("s", [_layout("p0")]).to_dict() | change
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(PatternFileError, match=message):
        SitePatterns.load(path)


def test_health_alerts():
    config = Config()
    healthy = {"new_articles": 3, "updates": 0, "coverage": 0.95, "article_pages": 20, "error_rate": 0.0}
    assert health_alerts(healthy, [], config) == []
    quiet = dict(healthy, new_articles=0)
    assert health_alerts(quiet, [{"new_articles": 0}], config) == []  # one past run says nothing
    assert health_alerts(quiet, [{"new_articles": 4}, {"new_articles": 2}], config) == ["no new articles (usually 3)"]
    assert health_alerts(dict(healthy, coverage=0.5), [], config) == ["coverage 0.50 below 0.80"]
    assert health_alerts(dict(healthy, coverage=0.5, article_pages=2), [], config) == []  # too few pages to tell
    assert health_alerts(dict(healthy, error_rate=0.25), [], config) == ["error rate 0.25 above 0.10"]


def test_a_layout_added_then_retired_in_one_run_is_not_named_as_added():
    """A thin layout learned again in the run that learned it: the health record's
    ``layouts_added`` name only layouts in use (the file's), the replaced one is retired."""
    from newsstemmer.crawl.monitor import RunMonitor

    class Stats:
        def inc_value(self, *a, **k):
            pass

    monitor = RunMonitor(Stats(), Config(), {})
    monitor.learned("s", ["p0", "p1"], revision=1, in_use=["p0", "p1"])
    monitor.site("s").counts["pages"] = 3
    monitor.retired("s", ["p1"], revision=2)
    monitor.learned("s", ["p2"], revision=2, in_use=["p0", "p2"])
    (record,) = monitor.records()
    assert record["drift"]["layouts_added"] == ["p0", "p2"]
    assert record["drift"]["layouts_retired"] == ["p1"]
