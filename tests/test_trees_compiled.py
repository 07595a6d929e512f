"""The compiled tree walk (``newsstemmer._trees``) gives the very leaves of numpy's walk
(``TreeModel._leaf_values_numpy``, the reference), so the very sums and decisions, on made
models (uneven trees, NaN routing, infinite thresholds, ties) and on the shipped ones; the
package falls back to numpy's walk when it is not built."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from newsstemmer import trees
from newsstemmer.trees import TreeModel

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


def test_rows_too_narrow_and_bad_arrays_are_refused_clearly():
    model = _random_model(np.random.default_rng(3), n_trees=5, n_features=4, depth=3)
    with pytest.raises(ValueError, match="reads 4 columns"):
        model.raw(np.zeros((3, 2)))
    with pytest.raises(ValueError, match="reads 4 columns"):
        model.raw(np.zeros(4))
    one = np.zeros(1, dtype=int)
    with pytest.raises(ValueError, match="index out of range"):
        TreeModel(["a"], one, one, np.zeros(1), one + 1, one, np.zeros(1), np.zeros(1), 1)
    with pytest.raises(ValueError, match="unequal length"):
        TreeModel(["a"], one, one, np.zeros(2), one, one, np.zeros(1), np.zeros(1), 1)


def test_a_model_pickles_and_walks_the_same_after():
    model = _random_model(np.random.default_rng(4), n_trees=12, n_features=5, depth=4)
    again = pickle.loads(pickle.dumps(model))
    X = _rows(np.random.default_rng(5), 40, 5)
    assert _bits(again.raw(X)) == _bits(model.raw(X))
    assert (again._forest is None) == (trees._trees is None)


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
    """A compiled module without the ``Forest`` this code calls leaves the models on numpy's
    walk, with a warning."""
    code = ("import sys, types; sys.modules['newsstemmer._trees'] = types.ModuleType('newsstemmer._trees');"
            "from newsstemmer import trees; print(trees.TREE_EVALUATOR, trees._trees)")
    env = {k: v for k, v in os.environ.items() if k != "NEWSSTEMMER_PURE_PYTHON"} | {"PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["numpy", "None"]
    assert "older than this code" in out.stderr
