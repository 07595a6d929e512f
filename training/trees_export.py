"""Turn a trained LightGBM booster into newsstemmer's tree model (training only).

The package reads tree models with numpy alone (:class:`newsstemmer.trees.TreeModel`);
the trainers (LightGBM) flatten their boosters with :func:`from_lightgbm` and write the
result with ``TreeModel.to_json()``.  This file lives outside the package because only
training needs it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from newsstemmer.trees import ModelFileError, TreeModel

__all__ = ["from_lightgbm"]


def from_lightgbm(dump: dict[str, Any], features: Sequence[str], kind: str = "") -> TreeModel:
    """Flatten a LightGBM ``Booster.dump_model()`` (numerical splits only) into a
    :class:`TreeModel` over ``features``; ``kind`` names the shipped model it becomes
    (a key of :data:`newsstemmer.trees.SHIPPED`, written into its file)."""
    names = list(dump.get("feature_names") or features)
    if list(features) != names:
        raise ModelFileError("the model's features are not the ones given")
    feature: list[int] = []
    threshold: list[float] = []
    left: list[int] = []
    right: list[int] = []
    missing_left: list[bool] = []
    value: list[float] = []
    roots: list[int] = []
    depth = 0

    def add(node: dict[str, Any], level: int) -> int:
        """Append ``node`` (and below it) to the flat arrays; its index.  A leaf points
        to itself, so a walk of ``depth`` steps from any root ends on a leaf."""
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
                raise ModelFileError("categorical splits are not supported")
            depth = max(depth, level + 1)
            feature[i] = int(node["split_feature"])
            threshold[i] = float(node["threshold"])
            # LightGBM: with missing type NaN or Zero, a NaN goes the node's default way;
            # otherwise a NaN is read as 0.
            if node.get("missing_type", "None") in ("NaN", "Zero"):
                missing_left[i] = bool(node.get("default_left", True))
            else:
                missing_left[i] = 0.0 <= threshold[i]
            value[i] = 0.0
            left[i] = add(node["left_child"], level + 1)
            right[i] = add(node["right_child"], level + 1)
        return i

    for tree in dump["tree_info"]:
        roots.append(add(tree["tree_structure"], 0))
    arrays = [np.asarray(a) for a in (roots, feature, threshold, left, right, missing_left, value)]
    return TreeModel(names, *arrays, depth, {"trees": len(roots)}, kind)
