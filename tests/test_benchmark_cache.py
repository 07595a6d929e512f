"""The benchmarks' training-data caches (benchmarks/shared/cache.py): a cache is read back only
if the same code, models and settings made it, so that a stale one cannot train a model
the checkout would not (the shipped section model was once compared against units made
before the region models were retrained)."""

from __future__ import annotations

import importlib.util
import pickle
import sys
from pathlib import Path

import pytest

# loaded from its folder under a name of its own: putting the checkout's root or benchmarks/
# on sys.path would let the scripts (crawl.py, cv.py, ...) shadow other modules for the
# rest of the session
_SHARED = Path(__file__).resolve().parent.parent / "benchmarks" / "shared"
if "benchmarks_shared" not in sys.modules:
    _spec = importlib.util.spec_from_file_location(
        "benchmarks_shared", _SHARED / "__init__.py", submodule_search_locations=[str(_SHARED)])
    sys.modules["benchmarks_shared"] = importlib.util.module_from_spec(_spec)
    _spec.loader.exec_module(sys.modules["benchmarks_shared"])
_common = importlib.import_module("benchmarks_shared.cache")


@pytest.fixture
def checkout(tmp_path, monkeypatch):
    """A small fake checkout: a package with code, models and a crawl part, and scripts."""
    root = tmp_path / "repo"
    for rel, text in {
        "newsstemmer/__init__.py": "x = 1\n",
        "newsstemmer/combine/sections.py": "def f(): return 1\n",
        "newsstemmer/models/region.json": "{}",
        "newsstemmer/models/sections.json": "{\"trees\": 1}",
        "newsstemmer/models/README.md": "# models\n",
        "newsstemmer/crawl/learner.py": "y = 2\n",
        "training/train_sections.py": "z = 3\n",
        "benchmarks/shared/folds.py": "k = 5\n",
        "experiments/region_reach.py": "q = 1\n",
    }.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    monkeypatch.setattr(_common, "REPO_ROOT", root)
    return root


def test_stamp_follows_code_models_and_scripts_not_the_trained_models(checkout):
    first = _common.code_stamp()
    assert _common.code_stamp() == first
    # what the caches do not depend on: the models the trainers write, the crawl, docs,
    # the experiments (they build no cache)
    (checkout / "newsstemmer/models/sections.json").write_text("{\"trees\": 2}")
    (checkout / "experiments/region_reach.py").write_text("q = 2\n")
    (checkout / "newsstemmer/models/README.md").write_text("# the models\n")
    (checkout / "newsstemmer/crawl/learner.py").write_text("y = 3\n")
    assert _common.code_stamp() == first
    for rel, text in (("newsstemmer/combine/sections.py", "def f(): return 2\n"),
                      ("newsstemmer/models/region.json", "{\"a\": 1}"),
                      ("training/train_sections.py", "z = 4\n"),
                      ("benchmarks/shared/folds.py", "k = 3\n")):
        before = _common.code_stamp()
        (checkout / rel).write_text(text)
        assert _common.code_stamp() != before, rel


def test_cache_is_read_back_only_when_made_by_the_same_code_and_settings(checkout, tmp_path):
    path = str(tmp_path / "units.pkl")
    calls = []

    def build(value):
        def run():
            calls.append(value)
            return {"value": value}
        return run

    assert _common.cached(path, build(1), "units", {"k": 1}) == {"value": 1}
    assert _common.cached(path, build(2), "units", {"k": 1}) == {"value": 1}  # read back
    assert calls == [1]
    assert _common.cached(path, build(3), "units", {"k": 2}) == {"value": 3}  # other settings
    (checkout / "newsstemmer/combine/sections.py").write_text("def f(): return 3\n")
    assert _common.cached(path, build(4), "units", {"k": 2}) == {"value": 4}  # other code
    assert calls == [1, 3, 4]
    assert _common.cached(None, build(5), "units") == {"value": 5}  # nothing kept


def test_a_cache_of_the_old_format_is_made_again(checkout, tmp_path, capsys):
    path = tmp_path / "old.pkl"
    path.write_bytes(pickle.dumps({("dragnet", "site"): {"X": [1]}}))
    assert _common.cached(str(path), lambda: {"new": True}, "section units") == {"new": True}
    assert "made again" in capsys.readouterr().err
    stored = pickle.loads(path.read_bytes())
    assert stored["data"] == {"new": True} and stored["key"]["stamp"] == _common.code_stamp()


def test_caches_live_in_one_folder_named_by_the_environment(tmp_path, monkeypatch):
    monkeypatch.setattr(_common, "CACHE_DIR", tmp_path / "bench")
    path = _common.cache_file("region-data.pkl")
    assert path == tmp_path / "bench" / "region-data.pkl" and path.parent.is_dir()
    assert _common.CACHE_ENV_VAR == "NEWSSTEMMER_BENCH_CACHE"
