"""The compiled tree walk (``newsstemmer._trees``) gives the very leaves of numpy's walk
(``TreeModel._leaf_values_numpy``, the reference), so the very sums and decisions, on made
models (uneven trees, NaN routing, infinite thresholds, ties) and on the shipped ones; the
package falls back to numpy's walk when it is not built."""

from __future__ import annotations

import importlib.abc
import logging
import os
import pickle
import subprocess
import sys
import types
from pathlib import Path

import numpy as np
import pytest

from newsstemmer import trees
from newsstemmer.trees import TreeModel, TreeModelError

ROOT = Path(__file__).resolve().parent.parent

compiled = pytest.mark.skipif(trees._trees is None, reason="the compiled tree walk is not built here")


def _random_model(rng: np.random.Generator, n_trees: int, n_features: int, depth: int) -> TreeModel:
    """Trees of random shapes (some a lone leaf, some shallower than ``depth``), thresholds
    drawn from a few values (ties with the rows) with some infinite, NaN sent either way."""
    roots, feature, threshold, left, right, missing, value = [], [], [], [], [], [], []

    def grow(level: int) -> int:
        i = len(feature)
        feature.append(0), threshold.append(np.inf), left.append(i), right.append(i)
        missing.append(False), value.append(float(rng.normal()))
        if level < depth and rng.random() < 0.8:
            feature[i] = int(rng.integers(n_features))
            threshold[i] = float(rng.choice([-1.0, 0.0, 0.5, 1.0, 2.5, np.inf, -np.inf]))
            missing[i] = bool(rng.random() < 0.5)
            a = grow(level + 1)
            b = grow(level + 1)
            left[i], right[i] = a, b
        return i

    for _ in range(n_trees):
        roots.append(grow(0))
    arrays = [np.asarray(a) for a in (roots, feature, threshold, left, right, missing, value)]
    return TreeModel([f"f{k}" for k in range(n_features)], *arrays, depth)


def _rows(rng: np.random.Generator, n: int, width: int) -> np.ndarray:
    X = rng.choice([-1.0, 0.0, 0.5, 1.0, 2.5, 3.0, np.inf, -np.inf], size=(n, width))
    X += rng.choice([0.0, 1e-12, -1e-12], size=(n, width))
    X[rng.random(X.shape) < 0.1] = np.nan
    return X


def _bits(a: np.ndarray) -> list[int]:
    return np.ascontiguousarray(a, dtype=np.float64).view(np.int64).ravel().tolist()


@compiled
@pytest.mark.filterwarnings("ignore:invalid value:RuntimeWarning")  # (numpy's one-row path sums ±inf)
@pytest.mark.parametrize("seed", range(6))
def test_compiled_leaves_equal_numpys_on_made_models(seed):
    rng = np.random.default_rng(seed)
    model = _random_model(rng, n_trees=int(rng.integers(1, 60)), n_features=7, depth=int(rng.integers(0, 7)))
    assert model._forest is not None
    for n in (0, 1, 2, 9, 150):
        X = _rows(rng, n, 7)
        for rows in (X, X.astype(np.float32), np.asfortranarray(X), X[::-1]):
            compiled_leaves = model._leaf_values(rows)
            numpy_leaves = model._leaf_values_numpy(rows)
            assert compiled_leaves.shape == numpy_leaves.shape == (n, len(model.roots))
            assert _bits(compiled_leaves) == _bits(numpy_leaves)
            assert _bits(model.raw(rows)) == _bits(numpy_leaves.sum(axis=1))


@compiled
def test_compiled_sums_equal_numpys_on_the_shipped_models():
    """The region and cleaning models (what a single page runs), the page-type model (one
    row at a time) and the kind model (per class): the same bits, rows drawn from each
    model's own thresholds, a hair either side, some missing."""
    from newsstemmer.pagetype import shared_model
    from newsstemmer.pagetype.kinds import LEARNED_KINDS, shared_kind_model
    from newsstemmer.single.region.extractor import RegionExtractor

    ex = RegionExtractor()
    rng = np.random.default_rng(1)
    for model in (ex.region, ex.clean, shared_model(), shared_kind_model()):
        assert model._forest is not None
        thresholds = model.threshold[np.isfinite(model.threshold)]
        X = rng.choice(thresholds, size=(300, len(model.features))) + rng.choice([0.0, 1e-9, -1e-9], size=(300, 1))
        X[rng.random(X.shape) < 0.05] = np.nan
        assert _bits(model._leaf_values(X)) == _bits(model._leaf_values_numpy(X))
        for rows in (X[:1], X[:14], X[:30], X):
            assert _bits(model.raw(rows)) == _bits(model._leaf_values_numpy(rows).sum(axis=1))
    kinds = shared_kind_model()
    assert _bits(kinds.raw_by_class(X[:5], len(LEARNED_KINDS))) == _bits(
        kinds._leaf_values_numpy(X[:5]).reshape(5, -1, len(LEARNED_KINDS)).sum(axis=1))


@compiled
def test_compiled_leaves_equal_numpys_on_real_pages(monkeypatch):
    """The rows the shipped region and cleaning models get from real pages (the fixture site,
    hard structures): every call walked both ways, the same bits."""
    from newsstemmer.single.region.extractor import RegionExtractor

    monkeypatch.syspath_prepend(str(ROOT / "tests" / "fixtures"))
    from hard_structures import inline_box_site, inline_links_site, varying_boilerplate_site

    walked = []
    both = TreeModel._leaf_values

    def checked(self, X):
        leaves = both(self, X)
        assert _bits(leaves) == _bits(self._leaf_values_numpy(X))
        walked.append(len(X))
        return leaves

    monkeypatch.setattr(TreeModel, "_leaf_values", checked)
    pages = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "tests/fixtures/site").glob("*.html"))]
    pages += [p.html for make in (inline_box_site, inline_links_site, varying_boilerplate_site) for p in make(4)]
    ex = RegionExtractor()
    for html in pages:
        ex.extract(html)
    assert len(walked) >= len(pages) and sum(walked) > 10 * len(pages)


def _numpy_only(model: TreeModel) -> TreeModel:
    """``model`` as numpy walks it (the compiled nodes left out)."""
    again = pickle.loads(pickle.dumps(model))
    again._forest = None
    return again


@pytest.mark.parametrize("X", [np.zeros((3, 2)), np.zeros(4), np.zeros((2, 2, 4)), np.zeros((0, 3))],
                         ids=["narrow", "one-dimensional", "three-dimensional", "no-rows-narrow"])
def test_rows_of_a_bad_shape_are_refused_alike_by_both_walks(X):
    model = _random_model(np.random.default_rng(3), n_trees=5, n_features=4, depth=3)
    messages = set()
    for walk in {model, _numpy_only(model)}:
        for call in (walk.raw, walk.predict, lambda X: walk.raw_by_class(X, 5)):
            with pytest.raises(ValueError, match="reads 4 columns") as caught:
                call(X)
            assert isinstance(caught.value, TreeModelError)
            messages.add(str(caught.value))
    assert len(messages) == 1
    if model._forest is not None and X.ndim == 2:  # (the compiled walk alone says the same)
        with pytest.raises(ValueError) as caught:
            model._forest.leaves(np.ascontiguousarray(X))
        assert str(caught.value) in messages


def test_node_arrays_no_walk_can_follow_are_refused():
    one = np.zeros(1, dtype=int)
    with pytest.raises(TreeModelError, match="feature index 1 out of range"):
        TreeModel(["a"], one, one + 1, np.zeros(1), one, one, np.zeros(1), np.zeros(1), 1)
    with pytest.raises(TreeModelError, match="feature index -1 out of range"):
        TreeModel(["a"], one, one - 1, np.zeros(1), one, one, np.zeros(1), np.zeros(1), 1)
    with pytest.raises(TreeModelError, match="left child index 1 out of range"):
        TreeModel(["a"], one, one, np.zeros(1), one + 1, one, np.zeros(1), np.zeros(1), 1)
    with pytest.raises(TreeModelError, match="root index 2 out of range"):
        TreeModel(["a"], one + 2, one, np.zeros(1), one, one, np.zeros(1), np.zeros(1), 1)
    with pytest.raises(TreeModelError, match="unequal length"):
        TreeModel(["a"], one, one, np.zeros(2), one, one, np.zeros(1), np.zeros(1), 1)
    with pytest.raises(TreeModelError, match="depth -1"):
        TreeModel(["a"], one, one, np.zeros(1), one, one, np.zeros(1), np.zeros(1), -1)
    with pytest.raises(ValueError):  # (what TreeModelError also is)
        TreeModel([], one, one, np.zeros(1), one, one, np.zeros(1), np.zeros(1), 1)


def test_a_model_pickles_and_walks_the_same_after():
    model = _random_model(np.random.default_rng(4), n_trees=12, n_features=5, depth=4)
    again = pickle.loads(pickle.dumps(model))
    X = _rows(np.random.default_rng(5), 40, 5)
    assert _bits(again.raw(X)) == _bits(model.raw(X))
    assert (again._forest is None) == (trees._trees is None)


def test_a_model_pickled_before_the_compiled_walk_still_walks():
    model = _random_model(np.random.default_rng(7), n_trees=6, n_features=3, depth=3)
    old = model.__getstate__()
    del old["_width"]
    again = TreeModel.__new__(TreeModel)
    again.__setstate__(old)
    X = _rows(np.random.default_rng(8), 10, 3)
    assert _bits(again.raw(X)) == _bits(model._leaf_values_numpy(X).sum(axis=1))


@compiled
def test_a_forest_is_not_pickled_alone():
    with pytest.raises(TypeError, match="not pickled"):
        pickle.dumps(_random_model(np.random.default_rng(6), 2, 2, 2)._forest)


def test_falls_back_to_numpys_walk():
    """Without the extension (``NEWSSTEMMER_PURE_PYTHON=1`` stands for it) the models walk by
    numpy; ``TREE_EVALUATOR`` says which walk is used."""
    code = ("from newsstemmer import trees; import numpy as np;"
            "from newsstemmer.single.region.extractor import RegionExtractor;"
            "m = RegionExtractor().region; print(trees.TREE_EVALUATOR, trees._trees, m._forest,"
            " m.raw(np.zeros((2, len(m.features)))).shape)")
    env = dict(os.environ, NEWSSTEMMER_PURE_PYTHON="1", PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["numpy", "None", "None", "(2,)"]


def test_an_older_build_is_not_used():
    """A compiled module of another node layout than this code packs for (here: none at all,
    as a build older than the layout constant) leaves the models on numpy's walk, with a
    warning, when the package is imported."""
    code = ("import sys, types; sys.modules['newsstemmer._trees'] = types.ModuleType('newsstemmer._trees');"
            "from newsstemmer import trees; print(trees.TREE_EVALUATOR, trees._trees)")
    env = {k: v for k, v in os.environ.items() if k != "NEWSSTEMMER_PURE_PYTHON"} | {"PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["numpy", "None"]
    assert "node layout None, this code packs 1" in out.stderr


NAME = "newsstemmer._trees"


@pytest.fixture
def loading(monkeypatch, caplog):
    """:func:`trees._load_compiled` run again with the extension as a test makes it, its log
    kept from DEBUG up."""
    monkeypatch.delenv("NEWSSTEMMER_PURE_PYTHON", raising=False)
    monkeypatch.delitem(sys.modules, NAME, raising=False)
    caplog.set_level(logging.DEBUG, logger="newsstemmer.trees")
    return caplog


def _records(caplog) -> list[tuple[int, str]]:
    return [(r.levelno, r.getMessage()) for r in caplog.records if r.name == "newsstemmer.trees"]


def test_not_built_is_quiet(loading, monkeypatch):
    monkeypatch.setitem(sys.modules, NAME, None)  # (how the import system says "no such module")
    assert trees._load_compiled() is None
    [(level, message)] = _records(loading)
    assert level == logging.DEBUG and "not built" in message


def test_turned_off_is_quiet(loading, monkeypatch):
    monkeypatch.setenv("NEWSSTEMMER_PURE_PYTHON", "1")
    assert trees._load_compiled() is None
    assert [level for level, _ in _records(loading)] == [logging.DEBUG]


class _Broken(importlib.abc.MetaPathFinder):
    """Finds the extension but fails to load it, as a build for another Python or with a
    missing symbol does."""

    def find_spec(self, name, path, target=None):
        if name == NAME:
            raise ImportError(f"{NAME}: undefined symbol: PyFoo")
        return None


def test_a_build_that_fails_to_import_warns(loading, monkeypatch):
    monkeypatch.setattr(sys, "meta_path", [_Broken(), *sys.meta_path])
    assert trees._load_compiled() is None
    [(level, message)] = _records(loading)
    assert level == logging.WARNING and "undefined symbol" in message and "numpy's walk is used" in message


@pytest.mark.parametrize("layout", [None, trees.COMPILED_LAYOUT - 1, trees.COMPILED_LAYOUT + 1])
def test_a_build_of_another_layout_warns(loading, monkeypatch, layout):
    fake = types.ModuleType(NAME)
    fake.Forest = object
    if layout is not None:
        fake.LAYOUT = layout
    monkeypatch.setitem(sys.modules, NAME, fake)
    assert trees._load_compiled() is None
    [(level, message)] = _records(loading)
    assert level == logging.WARNING and f"node layout {layout}" in message


@compiled
def test_the_built_extension_is_of_this_layout(loading):
    module = trees._load_compiled()
    assert module is not None and module.LAYOUT == trees.COMPILED_LAYOUT
    assert [level for level, _ in _records(loading)] == [logging.DEBUG]
