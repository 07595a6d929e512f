"""The learned block decision: features, the tree model and its file, the extractor."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from newsstemmer import Page, learn
from newsstemmer.chain import SINGLE_PAGE_METHODS, extract_single
from newsstemmer.decision.dataset import gold_shares, page_rows
from newsstemmer.decision.evidence import page_evidence
from newsstemmer.decision.extractor import DecisionExtractor, default_model_path
from newsstemmer.decision.features import FEATURE_NAMES, LAYOUT_COLUMNS, block_features
from newsstemmer.decision.model import DecisionModelError, TreeModel, body_of
from newsstemmer.evaluation import shingle_prf
from newsstemmer.layout.blocks import page_blocks

sys.path.insert(0, str(Path(__file__).parent / "fixtures"))
from hard_structures import inline_box_site, varying_boilerplate_site  # noqa: E402

# -- the tree model -------------------------------------------------------------------

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
    model = TreeModel.from_lightgbm(DUMP, ["a", "b"])
    rows = [(0.0, 0.0), (2.0, 0.0), (2.0, 3.0), (float("nan"), 3.0), (float("nan"), float("nan")), (1.0, -1.0), (5.0, -1.0)]
    X = np.array(rows, dtype=np.float32)
    expected = [_by_hand(a, b) for a, b in rows]
    assert model.raw(X).tolist() == pytest.approx(expected)
    assert model.predict(X).tolist() == pytest.approx([1 / (1 + math.exp(-v)) for v in expected])
    assert model.raw(np.zeros((0, 2), dtype=np.float32)).shape == (0,)


def test_tree_model_file_round_trip(tmp_path):
    model = TreeModel.from_lightgbm(DUMP, ["a", "b"])
    path = tmp_path / "m.json"
    path.write_text(model.to_json(), encoding="utf-8")
    again = TreeModel.load(path, ["a", "b"])
    X = np.array([(2.0, 3.0), (float("nan"), 0.0), (0.0, -2.0)], dtype=np.float32)
    assert again.raw(X).tolist() == pytest.approx(model.raw(X).tolist())


@pytest.mark.parametrize(
    "mangle, message",
    [
        (lambda d: "{not json", "not a readable"),
        (lambda d: json.dumps({**d, "format": "other"}), "not a newsstemmer decision model"),
        (lambda d: json.dumps({**d, "features": ["x", "y"]}), "other features"),
        (lambda d: json.dumps({**d, "left": [99] * len(d["left"])}), "out of range"),
        (lambda d: json.dumps({k: v for k, v in d.items() if k != "value"}), "corrupt"),
        (lambda d: json.dumps([1, 2, 3]), "not a newsstemmer decision model"),
    ],
)
def test_corrupt_model_files_are_refused_clearly(tmp_path, mangle, message):
    data = json.loads(TreeModel.from_lightgbm(DUMP, ["a", "b"]).to_json())
    path = tmp_path / "bad.json"
    path.write_text(mangle(data), encoding="utf-8")
    with pytest.raises(DecisionModelError, match=message):
        TreeModel.load(path, ["a", "b"])


def test_categorical_splits_are_refused():
    dump = json.loads(json.dumps(DUMP))
    dump["tree_info"][0]["tree_structure"]["decision_type"] = "=="
    with pytest.raises(DecisionModelError, match="categorical"):
        TreeModel.from_lightgbm(dump, ["a", "b"])


def test_shipped_model_fits_this_version_of_the_features():
    model = TreeModel.load(default_model_path(), FEATURE_NAMES)
    assert model.features == FEATURE_NAMES
    assert default_model_path().stat().st_size < 2_000_000


# -- body assembly ----------------------------------------------------------------------


def test_body_keeps_the_chosen_texts_in_order_without_the_headline():
    long = "A paragraph of the article that is long enough to count as a copy. " * 4
    texts = ["Site menu", "The Headline", "First paragraph.", "* * *", long, "* * *", long, "Footer"]
    p = np.array([0.1, 0.9, 0.8, 0.7, 0.9, 0.6, 0.95, 0.2])
    body = body_of(texts, p, 0.5, "the headline")
    assert body.split("\n") == ["First paragraph.", "* * *", long, "* * *"]


# -- features ---------------------------------------------------------------------------


def _article_html(extra: str = "") -> str:
    paras = "".join(f"<p>Paragraph {i} of the story tells what the council said about the bridge.</p>" for i in range(6))
    return (
        "<html><head><title>Bridge to close - Town News</title></head><body>"
        "<div id='nav'><a href='/'>Home</a> <a href='/news'>News</a> <a href='/sport'>Sport</a></div>"
        f"<div class='story'><h1>Bridge to close</h1>{paras}{extra}</div>"
        "<div class='footer'>Copyright Town News, all rights reserved</div></body></html>"
    )


def test_features_have_one_finite_row_per_block_and_no_layout_part_alone():
    page = Page(_article_html(), url="http://town.example/a")
    ev = page_evidence(page, None, pagerank=True)
    assert ev.X.shape == (len(ev.blocks.blocks), len(FEATURE_NAMES))
    assert np.isnan(ev.X[:, LAYOUT_COLUMNS]).all()
    others = [i for i in range(len(FEATURE_NAMES)) if i not in LAYOUT_COLUMNS]
    assert np.isfinite(ev.X[:, others]).all()
    # Without PageRank its columns are missing, not zero.
    X = block_features(page_blocks(page.tree))
    assert np.isnan(X[:, FEATURE_NAMES.index("pagerank_share")]).all()


def test_layout_features_are_filled_where_a_layout_applies():
    site = inline_box_site(pages=8, teaser=False)
    pages = [Page(p.html, url=p.url) for p in site]
    patterns = learn(pages)
    ev = page_evidence(pages[0], patterns)
    assert ev.layout is not None
    roles = ev.X[:, FEATURE_NAMES.index("role_main") - 1 : FEATURE_NAMES.index("role_none") + 1]
    assert np.isfinite(ev.X[:, LAYOUT_COLUMNS][:, :5]).all()
    assert (roles.sum(axis=1) == 1).all()  # exactly one role per block
    assert ev.X[:, FEATURE_NAMES.index("role_main")].max() == 1.0


def test_gold_labels_share_of_shingles():
    gold = "The council said the bridge will close in June for repairs\nshort line"
    shares = gold_shares(["The council said the bridge will close", "Buy tickets now for the show", "short line", "nav"], gold)
    assert shares.tolist() == [1.0, 0.0, 1.0, 0.0]
    rows = page_rows(Page(_article_html()), None, gold)
    assert rows.single.shape[0] == len(rows.texts) == len(rows.labels)


# -- the extractor ----------------------------------------------------------------------


def test_decision_is_a_single_page_method():
    assert "decision" in SINGLE_PAGE_METHODS


@pytest.mark.parametrize("site", [inline_box_site(pages=4), varying_boilerplate_site(pages=4)], ids=["inline", "varying"])
def test_decision_extracts_the_article_of_unseen_pages(site):
    """Pages of fixture sites the model never saw: the body is found, boilerplate mostly not."""
    f1s = []
    for fp in site:
        art = extract_single(Page(fp.html, url=fp.url), "decision")
        assert art.method == "decision" and not art.matched
        precision, recall = shingle_prf(art.body, fp.body)
        f1s.append(2 * precision * recall / (precision + recall) if precision and recall else 0.0)
        assert "Copyright" not in art.body
    assert sum(f1s) / len(f1s) >= 0.85, f1s


@pytest.mark.parametrize(
    "html",
    [
        "<html><body></body></html>",
        "<html><body>" + "<div>" * 3000 + "deep text in many divs" + "</div>" * 3000 + "</body></html>",
        "<html><body><p>\x00\x01 odd \ufffd bytes</p><table><tr><td>cell</td></tr></table></body></html>",
    ],
    ids=["empty", "deep", "odd"],
)
def test_decision_survives_awkward_pages(html):
    art = extract_single(Page(html), "decision")
    assert isinstance(art.body, str)


def test_extractor_refuses_a_corrupt_model(tmp_path):
    bad = tmp_path / "model.json"
    bad.write_bytes(b"\x89PNG not a model")
    with pytest.raises(DecisionModelError):
        DecisionExtractor(bad)


def test_cli_extract_with_the_decision(tmp_path):
    page = tmp_path / "story.html"
    page.write_text(_article_html(), encoding="utf-8")
    out = subprocess.run(
        [sys.executable, "-m", "newsstemmer", "extract", "--method", "decision", str(page)],
        capture_output=True,
        text=True,
        check=True,
    )
    record = json.loads(out.stdout.splitlines()[0])
    assert record["method"] == "decision"
    assert "Paragraph 3 of the story" in record["body"]
    assert "Copyright" not in record["body"]
