"""The tree model format (newsstemmer.trees), the one loader of shipped models, and the
trainers' export from LightGBM (training/trees_export.py)."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import numpy as np
import pytest

from newsstemmer.errors import NewsstemmerError
from newsstemmer.shipped import SHIPPED, UnknownModelError, load_model, model_path
from newsstemmer.trees import ModelFileError, TreeModel

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "training"))
from trees_export import from_lightgbm  # noqa: E402

# Two trees in LightGBM's dump format: tree 0 splits on feature 0 (NaN goes right),
# tree 1 on feature 1 (missing type None: NaN is read as 0).
DUMP = {
    "feature_names": ["a", "b"],
    "tree_info": [
        {
            "tree_structure": {
                "split_feature": 0,
                "threshold": 1.5,
                "decision_type": "<=",
                "default_left": False,
                "missing_type": "NaN",
                "left_child": {"leaf_value": -1.0},
                "right_child": {
                    "split_feature": 1,
                    "threshold": 0.5,
                    "decision_type": "<=",
                    "default_left": True,
                    "missing_type": "NaN",
                    "left_child": {"leaf_value": 0.5},
                    "right_child": {"leaf_value": 2.0},
                },
            }
        },
        {
            "tree_structure": {
                "split_feature": 1,
                "threshold": -0.5,
                "decision_type": "<=",
                "default_left": True,
                "missing_type": "None",
                "left_child": {"leaf_value": 0.25},
                "right_child": {"leaf_value": -0.25},
            }
        },
    ],
}


def _by_hand(a: float, b: float) -> float:
    if math.isnan(a) or a > 1.5:
        t0 = 0.5 if (math.isnan(b) or b <= 0.5) else 2.0
    else:
        t0 = -1.0
    t1 = 0.25 if (0.0 if math.isnan(b) else b) <= -0.5 else -0.25
    return t0 + t1


def test_tree_model_matches_the_trees_walked_by_hand():
    model = from_lightgbm(DUMP, ["a", "b"])
    rows = [(0.0, 0.0), (2.0, 0.0), (2.0, 3.0), (float("nan"), 3.0), (float("nan"), float("nan")), (1.0, -1.0), (5.0, -1.0)]
    X = np.array(rows, dtype=np.float32)
    expected = [_by_hand(a, b) for a, b in rows]
    assert model.raw(X).tolist() == pytest.approx(expected)
    assert model.predict(X).tolist() == pytest.approx([1 / (1 + math.exp(-v)) for v in expected])
    assert model.raw(np.zeros((0, 2), dtype=np.float32)).shape == (0,)


def test_a_multiclass_model_sums_each_class_trees():
    """A multiclass booster's trees come a round at a time, one per class: with two
    classes, DUMP's tree 0 is class 0's and tree 1 class 1's (the kind model's layout)."""
    model = from_lightgbm(DUMP, ["a", "b"])
    rows = [(0.0, 0.0), (2.0, 3.0), (float("nan"), -1.0), (5.0, -1.0)]
    X = np.array(rows, dtype=np.float64)
    by_class = model.raw_by_class(X, 2)
    assert by_class.shape == (4, 2)
    assert by_class.sum(axis=1).tolist() == pytest.approx(model.raw(X).tolist())
    assert by_class[:, 1].tolist() == pytest.approx([0.25 if b <= -0.5 else -0.25 for _, b in rows])
    for i in range(len(rows)):  # one row alone: the same as in the batch
        assert model.raw_by_class(X[i:i + 1], 2)[0].tolist() == pytest.approx(by_class[i].tolist())
    assert model.raw_by_class(np.zeros((0, 2)), 2).shape == (0, 2)


def test_one_row_is_scored_as_in_a_batch():
    """A single row takes its own path (every node's next node first): it must give the
    batch's outputs exactly, missing values included, on the shipped page-type model too."""
    from newsstemmer.pagetype import shared_model

    for model in (from_lightgbm(DUMP, ["a", "b"]), shared_model()):
        rng = np.random.default_rng(0)
        thresholds = model.threshold[np.isfinite(model.threshold)]
        X = rng.choice(thresholds, size=(200, len(model.features))) + rng.choice([0.0, 1e-9, -1e-9], size=(200, 1))
        X[rng.random(X.shape) < 0.05] = np.nan
        for rows in (X, X.astype(np.float32)):
            batch = model.raw(rows)
            assert [model.raw(rows[i:i + 1])[0] for i in range(len(rows))] == batch.tolist()


def test_tree_model_file_round_trip(tmp_path):
    model = from_lightgbm(DUMP, ["a", "b"], kind="sections")
    path = tmp_path / "m.json"
    path.write_text(model.to_json(), encoding="utf-8")
    again = TreeModel.load(path, ["a", "b"])
    X = np.array([(2.0, 3.0), (float("nan"), 0.0), (0.0, -2.0)], dtype=np.float32)
    assert again.raw(X).tolist() == pytest.approx(model.raw(X).tolist())
    assert again.kind == "sections"


def test_files_of_the_first_release_still_load(tmp_path):
    data = json.loads(from_lightgbm(DUMP, ["a", "b"]).to_json())
    assert data["format"] == "newsstemmer-trees" and "kind" not in data
    path = tmp_path / "old.json"
    path.write_text(json.dumps({**data, "format": "newsstemmer-decision-trees"}), encoding="utf-8")
    assert TreeModel.load(path, ["a", "b"]).depth == 2


@pytest.mark.parametrize(
    "mangle, message",
    [
        (lambda d: "{not json", "not a readable"),
        (lambda d: json.dumps({**d, "format": "other"}), "not a newsstemmer tree model"),
        (lambda d: json.dumps({**d, "features": ["x", "y"]}), "other features"),
        (lambda d: json.dumps({**d, "left": [99] * len(d["left"])}), "out of range"),
        (lambda d: json.dumps({k: v for k, v in d.items() if k != "value"}), "corrupt"),
        (lambda d: json.dumps([1, 2, 3]), "not a newsstemmer tree model"),
    ],
)
def test_corrupt_model_files_are_refused_clearly(tmp_path, mangle, message):
    data = json.loads(from_lightgbm(DUMP, ["a", "b"]).to_json())
    path = tmp_path / "bad.json"
    path.write_text(mangle(data), encoding="utf-8")
    with pytest.raises(ModelFileError, match=message) as info:
        TreeModel.load(path, ["a", "b"])
    assert str(path) in str(info.value) and isinstance(info.value, NewsstemmerError)


def test_a_missing_file_is_named(tmp_path):
    with pytest.raises(ModelFileError, match="gone.json: model file not found"):
        TreeModel.load(tmp_path / "gone.json", ["a", "b"])


def test_categorical_splits_are_refused():
    dump = json.loads(json.dumps(DUMP))
    dump["tree_info"][0]["tree_structure"]["decision_type"] = "=="
    with pytest.raises(ModelFileError, match="categorical"):
        from_lightgbm(dump, ["a", "b"])


def test_every_shipped_model_has_its_file_and_an_unknown_name_is_refused():
    for name in SHIPPED:
        assert model_path(name).is_file(), name
    with pytest.raises(UnknownModelError, match="no shipped model 'decision'"):
        model_path("decision")


def test_shipped_tree_models_load_once_and_say_what_they_are():
    from newsstemmer.combine.pagechoice import PAGE_FEATURES
    from newsstemmer.combine.sections import SECTION_FEATURES
    from newsstemmer.metadata.titles import FEATURES as TITLE_FEATURES
    from newsstemmer.single.region.candidates import REGION_FEATURES
    from newsstemmer.single.region.cleaning import CLEAN_FEATURES

    for name, features in (("region", REGION_FEATURES), ("region-clean", CLEAN_FEATURES),
                           ("sections", SECTION_FEATURES), ("pagechoice", PAGE_FEATURES),
                           ("titles", TITLE_FEATURES)):
        model = load_model(name, features)
        assert load_model(name, features) is model
        assert model.kind == name


def test_shipped_models_load_from_a_zipped_package(tmp_path):
    """Scrapyd runs the project from a zipped egg: the models are read as package
    resources there, not as files (a crawl from the egg typed no page before)."""
    import subprocess
    import zipfile

    repo = Path(__file__).resolve().parents[1]
    egg = tmp_path / "newsstemmer.zip"
    with zipfile.ZipFile(egg, "w") as z:
        for path in sorted((repo / "newsstemmer").rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                z.write(path, path.relative_to(repo).as_posix())
    probe = ("import sys; sys.path.insert(0, sys.argv[1]); import newsstemmer; assert '.zip' in newsstemmer.__file__\n"
             "from newsstemmer.pagetype import shared_model\nfrom newsstemmer.single import load_single\n"
             "print(shared_model().kind); load_single('region')")
    done = subprocess.run([sys.executable, "-c", probe, str(egg)], capture_output=True, text=True, timeout=120,
                          cwd=tmp_path)
    assert done.returncode == 0 and done.stdout.strip() == "pagetype", done.stderr[-2000:]
