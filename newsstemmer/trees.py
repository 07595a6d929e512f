"""The block decision's model: gradient-boosted trees evaluated with numpy.

The trees are trained by LightGBM (``benchmarks/train_decision.py``) and shipped as a
small JSON file of flat node arrays, so that using the model needs numpy only.  All
trees are walked at once, one level per step, over every block of a page.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["DecisionModelError", "TreeModel", "body_of", "shipped_model", "shipped_model_path"]

_FORMAT = "newsstemmer-decision-trees"
_VERSION = 1
_REPEAT_MIN = 200  # characters: a repeated text this long is a copy, given once


class DecisionModelError(ValueError):
    """A decision model file is unreadable or does not fit this version's features."""


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
        # Children side by side (right, left): a step is one gather at 2·node + went_left.
        self._children = np.stack((self.right, self.left), axis=1).ravel()

    # -- use ----------------------------------------------------------------------
    def raw(self, X: np.ndarray) -> np.ndarray:
        """The summed tree outputs (log-odds) of every row of ``X``."""
        n = X.shape[0]
        if n == 0:
            return np.zeros(0)
        if not np.isnan(X).any():  # (the common case: no missing value to route)
            flat = np.ascontiguousarray(X, dtype=np.float64).ravel()
            offsets = (np.arange(n) * X.shape[1])[:, None]
            nodes = np.broadcast_to(self.roots, (n, len(self.roots)))
            feature, threshold, children = self.feature, self.threshold, self._children
            for _ in range(self.depth):
                went_left = flat[offsets + feature[nodes]] <= threshold[nodes]
                nodes = children[2 * nodes + went_left]
            return self.value[nodes].sum(axis=1)
        nodes = np.broadcast_to(self.roots, (n, len(self.roots))).copy()
        rows = np.arange(n)[:, None]
        for _ in range(self.depth):
            x = X[rows, self.feature[nodes]]
            nan = np.isnan(x)
            go_left = np.where(nan, self.missing_left[nodes], x <= self.threshold[nodes])
            nodes = np.where(go_left, self.left[nodes], self.right[nodes])
        return self.value[nodes].sum(axis=1)

    def predict(self, X: np.ndarray) -> np.ndarray:
        """P(article text) of every row of ``X``."""
        return 1.0 / (1.0 + np.exp(-self.raw(X)))

    # -- building and files ---------------------------------------------------------
    @classmethod
    def from_lightgbm(cls, dump: dict[str, Any], features: Sequence[str]) -> "TreeModel":
        """Flatten a LightGBM ``Booster.dump_model()`` (numerical splits only)."""
        names = list(dump.get("feature_names") or features)
        if list(features) != names:
            raise DecisionModelError("the model's features are not the ones given")
        feature: list[int] = []
        threshold: list[float] = []
        left: list[int] = []
        right: list[int] = []
        missing_left: list[bool] = []
        value: list[float] = []
        roots: list[int] = []
        depth = 0

        def add(node: dict[str, Any], level: int) -> int:
            nonlocal depth
            i = len(feature)
            feature.append(0)
            threshold.append(np.inf)
            left.append(i)
            right.append(i)
            missing_left.append(True)
            value.append(float(node.get("leaf_value", 0.0)))
            if "split_feature" in node:
                if node.get("decision_type", "<=") != "<=":
                    raise DecisionModelError("categorical splits are not supported")
                depth = max(depth, level + 1)
                feature[i] = int(node["split_feature"])
                threshold[i] = float(node["threshold"])
                missing = node.get("missing_type", "None")
                # LightGBM: with missing type NaN, NaN goes the default way; otherwise a
                # NaN is read as 0 (and with type Zero, 0 goes the default way).
                if missing == "NaN" or (missing == "Zero"):
                    missing_left[i] = bool(node.get("default_left", True))
                else:
                    missing_left[i] = 0.0 <= threshold[i]
                value[i] = 0.0
                left[i] = add(node["left_child"], level + 1)
                right[i] = add(node["right_child"], level + 1)
            return i

        for tree in dump["tree_info"]:
            roots.append(add(tree["tree_structure"], 0))
        arr = np.asarray
        return cls(
            names,
            arr(roots),
            arr(feature),
            arr(threshold),
            arr(left),
            arr(right),
            arr(missing_left),
            arr(value),
            depth,
            {"trees": len(roots)},
        )

    def to_json(self) -> str:
        """The model as JSON (what :meth:`load` reads)."""
        return json.dumps(
            {
                "format": _FORMAT,
                "version": _VERSION,
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
    def load(cls, path: str | os.PathLike[str], features: Sequence[str]) -> "TreeModel":
        """Read a model file; :class:`DecisionModelError` if it is corrupt or its features
        are not ``features`` (a model trained for another version of the features)."""
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise DecisionModelError(f"{path}: not a readable decision model ({exc})") from exc
        if not isinstance(data, dict) or data.get("format") != _FORMAT or data.get("version") != _VERSION:
            raise DecisionModelError(f"{path}: not a newsstemmer decision model (format {_FORMAT} v{_VERSION})")
        if data.get("features") != list(features):
            raise DecisionModelError(f"{path}: trained on other features than this version computes; retrain it")
        try:
            n = len(data["feature"])
            arrays = [np.asarray(data[k]) for k in ("feature", "left", "right", "missing_left", "value")]
            threshold = np.asarray([np.inf if t is None else t for t in data["threshold"]], dtype=np.float64)
            roots = np.asarray(data["roots"], dtype=np.int64)
            depth = int(data["depth"])
        except (KeyError, TypeError, ValueError) as exc:
            raise DecisionModelError(f"{path}: corrupt decision model ({exc})") from exc
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
            raise DecisionModelError(f"{path}: corrupt decision model (node indices out of range)")
        return cls(features, roots, feature, threshold, left, right, missing_left, value, depth, data.get("info"))


def shipped_model_path(name: str) -> Path:
    """The path of a model file shipped in the package (``newsstemmer/models/NAME``)."""
    return Path(str(resources.files("newsstemmer") / "models" / name))


_SHIPPED: dict[str, TreeModel] = {}
_SHIPPED_LOCK = threading.Lock()


def shipped_model(name: str, features: Sequence[str]) -> TreeModel:
    """The shipped model file ``name``, read once per process (first use) and shared by
    every thread (a :class:`TreeModel` holds no per-call state)."""
    model = _SHIPPED.get(name)
    if model is None:
        with _SHIPPED_LOCK:
            model = _SHIPPED.get(name)
            if model is None:
                model = _SHIPPED[name] = TreeModel.load(shipped_model_path(name), features)
    return model


def body_of(texts: Sequence[str], p: np.ndarray, threshold: float, title: str = "") -> str:
    """The article body: the texts whose probability reaches ``threshold``, in page
    order, without the headline itself and without repeating a long text (short
    ones, such as a refrain or a separator, may recur in an article)."""
    title_key = " ".join(title.split()).lower()
    seen: set[str] = set()
    out: list[str] = []
    for text, prob in zip(texts, p):
        if prob < threshold or not text:
            continue
        key = text.lower()
        if key == title_key or key in seen:
            continue
        if len(key) >= _REPEAT_MIN:  # a second copy of the article (print or preview copy)
            seen.add(key)
        out.append(text)
    return "\n".join(out)
