"""The tree model format of the learned decisions: gradient-boosted trees evaluated with
numpy, read from (and written to) a JSON file.

The trees are trained by LightGBM (the trainers flatten a booster with
``training/trees_export.py``) and shipped as a small JSON file of flat node arrays,
so that using a model needs numpy only.  All trees are walked at once, one level per
step, over every row.  Where the optional extension ``_trees`` is built, each row walks
each tree in C instead (~3× less time for a page's rows: numpy's cost is per call, not per
node); its leaves are numpy's walk's bit for bit and are summed by numpy alike, so the
scores are the same.  :func:`newsstemmer.shipped.load_model` reads a shipped one.
"""

from __future__ import annotations

import importlib
import json
import logging
import math
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from .errors import NewsstemmerError

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

__all__ = ["COMPILED_LAYOUT", "FORMAT", "TREE_EVALUATOR", "VERSION", "ModelFileError", "TreeModel",
           "TreeModelError"]

log = logging.getLogger(__name__)

#: The node layout this code packs for the compiled leaves; ``_trees.LAYOUT`` (compiled into
#: the extension) must be the same, else the build is older or newer than this code: not used.
COMPILED_LAYOUT = 1


def _load_compiled() -> Any:
    """The compiled leaves (``_trees``, Cython, built by ``pip install`` beside the graph walk),
    or None for numpy's walk (the reference the compiled one is tested against,
    tests/test_trees_compiled.py): quietly (a debug line) when it is not built or turned off by
    ``NEWSSTEMMER_PURE_PYTHON=1``, with a warning when a build is there but cannot be used."""
    name = f"{__package__}._trees"
    if os.environ.get("NEWSSTEMMER_PURE_PYTHON", "") not in ("", "0"):
        log.debug("tree models: numpy walk (NEWSSTEMMER_PURE_PYTHON is set)")
        return None
    try:
        # (by name: the optional extension is a module of this package, not a dependency of it)
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:  # (built, but something it imports is missing)
            log.warning("newsstemmer: the compiled tree models do not import (%s): numpy's walk is used", exc)
        else:  # (not built: no compiler)
            log.debug("tree models: numpy walk (%s is not built)", name)
        return None
    except Exception as exc:  # (built, but broken: another Python's build, a missing symbol...)
        log.warning("newsstemmer: the compiled tree models do not import (%s): numpy's walk is used; "
                    "rebuild them (pip install)", exc)
        return None
    layout = getattr(module, "LAYOUT", None)
    if layout != COMPILED_LAYOUT:
        log.warning("newsstemmer: the compiled tree models have node layout %s, this code packs %s: "
                    "numpy's walk is used; rebuild them (pip install)", layout, COMPILED_LAYOUT)
        return None
    log.debug("tree models: compiled walk (%s)", module.__file__)
    return module


_trees = _load_compiled()

#: Which walk :meth:`TreeModel.raw` uses: ``"compiled"`` or ``"numpy"``.
TREE_EVALUATOR = "numpy" if _trees is None else "compiled"

#: The format name a tree model file carries (files of the first release say
#: ``newsstemmer-decision-trees``: the same format, still read).
FORMAT = "newsstemmer-trees"
_FORMATS = (FORMAT, "newsstemmer-decision-trees")
VERSION = 1


class ModelFileError(NewsstemmerError, ValueError):
    """A model file is missing, unreadable, corrupt, or does not fit this version's features."""


class TreeModelError(NewsstemmerError, ValueError):
    """Node arrays no walk can follow, or feature rows of a shape a model cannot read."""


class TreeModel:
    """A sum of binary decision trees over named features, with a logistic link.

    Nodes of all trees are stored in flat arrays; a leaf points to itself, so walking
    ``depth`` steps from every root ends on a leaf whatever the tree's shape.
    ``missing_left`` says where a ``NaN`` feature goes at each split.
    """

    def __init__(
        self,
        features: Sequence[str],
        roots: np.ndarray,
        feature: np.ndarray,
        threshold: np.ndarray,
        left: np.ndarray,
        right: np.ndarray,
        missing_left: np.ndarray,
        value: np.ndarray,
        depth: int,
        info: dict[str, Any] | None = None,
        kind: str = "",
    ) -> None:
        self.features = tuple(features)
        self.roots = roots.astype(np.int32)
        self.feature = feature.astype(np.int32)
        self.threshold = threshold.astype(np.float64)
        self.left = left.astype(np.int32)
        self.right = right.astype(np.int32)
        self.missing_left = missing_left.astype(bool)
        self.value = value.astype(np.float64)
        self.depth = int(depth)
        self.info = dict(info or {})
        #: Which shipped model this is (a key of :data:`newsstemmer.shipped.SHIPPED`; "" if none said).
        self.kind = kind
        self._check()
        # Children side by side (right, left): a step is one gather at 2·node + went_left
        # (numpy's own index type: take() need not convert them).
        self._children = np.stack((self.right, self.left), axis=1).ravel().astype(np.intp)
        # The one-row path's arrays as numpy's own index type (take() need not convert them).
        self._one_row = tuple(a.astype(np.intp) for a in (self.roots, self.feature, self.left, self.right))
        self._left_step = self._one_row[2] - self._one_row[3]  # left child minus right child, per node
        #: Columns a row needs: the highest feature index read, plus one.
        self._width = int(self.feature.max()) + 1
        self._forest = self._compiled()

    def _check(self) -> None:
        """Refuse node arrays no walk could follow (:class:`TreeModelError`): unequal lengths,
        no node or root, a negative depth, a child or root outside the nodes, a feature not
        among :attr:`features` (the compiled walk reads rows unchecked: checked here once)."""
        n = len(self.feature)
        if not (len(self.threshold) == len(self.left) == len(self.right) == len(self.missing_left)
                == len(self.value) == n):
            raise TreeModelError("not a tree model: node arrays of unequal length")
        if n == 0 or len(self.roots) == 0 or self.depth < 0:
            raise TreeModelError(f"not a tree model: {n} nodes, {len(self.roots)} roots, depth {self.depth}")
        for what, a, end in (("root", self.roots, n), ("left child", self.left, n), ("right child", self.right, n),
                             ("feature", self.feature, len(self.features))):
            bad = np.flatnonzero((a < 0) | (a >= end))
            if len(bad):
                raise TreeModelError(f"not a tree model: {what} index {int(a[bad[0]])} out of range (0..{end - 1})")

    def _compiled(self) -> Any:
        """The nodes packed for the compiled walk (None where it is not built)."""
        if _trees is None:
            return None
        return _trees.Forest(self.roots, self.feature, self.threshold, self.left, self.right,
                             self.missing_left, self.value, self.depth)

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without the compiled nodes (built again on unpickling)."""
        return {k: v for k, v in self.__dict__.items() if k != "_forest"}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        if "_width" not in state:  # (pickled by a version before the compiled walk)
            self._width = int(self.feature.max()) + 1
        self._forest = self._compiled()

    # -- use ----------------------------------------------------------------------
    def raw(self, X: np.ndarray) -> np.ndarray:
        """The summed tree outputs (log-odds) of every row of ``X``."""
        return self._leaf_values(X).sum(axis=1)

    def raw_by_class(self, X: np.ndarray, classes: int) -> np.ndarray:
        """The tree outputs of every row of ``X`` summed per class, shape (rows, ``classes``):
        a multiclass booster's trees, ``classes`` a round, tree ``t`` being class ``t % classes``'s."""
        values = self._leaf_values(X)
        return values.reshape(values.shape[0], len(self.roots) // classes, classes).sum(axis=1)

    def _leaf_values(self, X: np.ndarray) -> np.ndarray:
        """The value of the leaf each tree gives every row of ``X``, shape (rows, trees): by the
        compiled walk where it is built, else by numpy's (:meth:`_leaf_values_numpy`); the
        same values either way (comparisons only), summed by numpy either way."""
        if X.ndim != 2 or X.shape[1] < self._width:
            raise TreeModelError(f"feature rows of shape {X.shape}; the model reads {self._width} columns")
        if self._forest is not None:
            return self._forest.leaves(np.ascontiguousarray(X, dtype=np.float64))
        return self._leaf_values_numpy(X)

    def _leaf_values_numpy(self, X: np.ndarray) -> np.ndarray:
        """:meth:`_leaf_values` by numpy: the reference, and the walk where the compiled one is
        not built."""
        n = X.shape[0]
        if n == 0:
            return np.zeros((0, len(self.roots)))
        if n == 1:
            return self._leaves_one(X)
        # Every row walks every tree at once, one level a step; ``take`` on index arrays of
        # numpy's own type (no conversion, no fancy-indexing set-up) is what keeps a step cheap.
        roots, feature = self._one_row[:2]
        flat = np.ascontiguousarray(X, dtype=np.float64).ravel()
        offsets = (np.arange(n) * X.shape[1])[:, None]
        threshold, children = self.threshold, self._children
        nodes = np.broadcast_to(roots, (n, len(roots)))
        if not np.isnan(flat).any():  # (the common case: no missing value to route)
            for _ in range(self.depth):
                went_left = flat.take(offsets + feature.take(nodes)) <= threshold.take(nodes)
                nodes = children.take(2 * nodes + went_left)
            return self.value.take(nodes)
        missing_left = self.missing_left
        for _ in range(self.depth):
            x = flat.take(offsets + feature.take(nodes))
            # (a missing value compares False: it goes where the split sends missing values)
            went_left = (x <= threshold.take(nodes)) | (np.isnan(x) & missing_left.take(nodes))
            nodes = children.take(2 * nodes + went_left)
        return self.value.take(nodes)

    def _leaves_one(self, X: np.ndarray) -> np.ndarray:
        """:meth:`_leaf_values` of one row (a page typed, a page's choice).  The row's next
        node is first worked out for every node at once, so that a step down all the trees is one gather: ~3× faster for one row than deciding at
        each step on the trees' current nodes (numpy's cost per call, not per node, is
        what counts here).  The next node is the right child plus, where the row goes
        left, the step to the left one (integer arithmetic, cheaper than ``np.where``);
        missing values are looked for only when the row's sum says there may be one."""
        roots, feature, left, right = self._one_row
        x = np.asarray(X[0], dtype=np.float64)
        went_left = x.take(feature) <= self.threshold
        if math.isnan(x.sum()):  # (NaN only if a value is NaN, or infinities of both signs)
            went_left = np.where(np.isnan(x).take(feature), self.missing_left, went_left)
        after = right + went_left * self._left_step  # each node's next node (a leaf's: itself)
        nodes = roots
        for _ in range(self.depth):
            nodes = after.take(nodes)
        return self.value.take(nodes)[None, :]

    def predict(self, X: np.ndarray) -> np.ndarray:
        """The probability (logistic link) of every row of ``X``."""
        return 1.0 / (1.0 + np.exp(-self.raw(X)))

    # -- files ----------------------------------------------------------------------
    def to_json(self) -> str:
        """The model as JSON (what :meth:`load` reads)."""
        return json.dumps(
            {
                "format": FORMAT,
                "version": VERSION,
                **({"kind": self.kind} if self.kind else {}),
                "features": list(self.features),
                "depth": self.depth,
                "info": self.info,
                "roots": self.roots.tolist(),
                "feature": self.feature.tolist(),
                "threshold": [t if np.isfinite(t) else None for t in self.threshold.tolist()],
                "left": self.left.tolist(),
                "right": self.right.tolist(),
                "missing_left": [int(m) for m in self.missing_left.tolist()],
                "value": [round(v, 7) for v in self.value.tolist()],
            },
            separators=(",", ":"),
        )

    @classmethod
    def load(cls, path: "str | os.PathLike[str] | Traversable", features: Sequence[str]) -> "TreeModel":
        """Read a model file (a path, or a package resource: also inside a zipped egg);
        :class:`ModelFileError` if it is corrupt or its features are not ``features`` (a
        model trained for another version of the features)."""
        try:
            source = path if hasattr(path, "read_text") else Path(path)
            data = json.loads(source.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ModelFileError(f"{path}: model file not found") from None
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ModelFileError(f"{path}: not a readable tree model ({exc})") from exc
        if not isinstance(data, dict) or data.get("format") not in _FORMATS or data.get("version") != VERSION:
            raise ModelFileError(f"{path}: not a newsstemmer tree model (format {FORMAT} v{VERSION})")
        if data.get("features") != list(features):
            raise ModelFileError(f"{path}: trained on other features than this version computes; retrain it")
        try:
            n = len(data["feature"])
            arrays = [np.asarray(data[k]) for k in ("feature", "left", "right", "missing_left", "value")]
            threshold = np.asarray([np.inf if t is None else t for t in data["threshold"]], dtype=np.float64)
            roots = np.asarray(data["roots"], dtype=np.int64)
            depth = int(data["depth"])
        except (KeyError, TypeError, ValueError) as exc:
            raise ModelFileError(f"{path}: corrupt tree model ({exc})") from exc
        feature, left, right, missing_left, value = arrays
        ok = (
            all(len(a) == n for a in (*arrays, threshold))
            and n > 0
            and 0 <= depth <= 64
            and roots.size > 0
            and ((0 <= roots) & (roots < n)).all()
            and ((0 <= left) & (left < n)).all()
            and ((0 <= right) & (right < n)).all()
            and ((0 <= feature) & (feature < len(features))).all()
        )
        if not ok:
            raise ModelFileError(f"{path}: corrupt tree model (node indices out of range)")
        return cls(features, roots, feature, threshold, left, right, missing_left, value, depth, data.get("info"),
                   str(data.get("kind", "")))
