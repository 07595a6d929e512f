"""The part's context in the article region (``newsstemmer.single.region.context``), a
column group of the learned cleaning's features.  Pages are built here."""

from __future__ import annotations

import numpy as np
import pytest

from newsstemmer.single.region.cleaning import CLEAN_FEATURES, cleaning_features
from newsstemmer.single.region.context import CONTEXT_FEATURES, part_context
from newsstemmer.single.region.candidates import RegionView
from newsstemmer.single.pagerank import pagerank_analysis

_WORDS = "the council approved a new bridge over the river after a long fight about its budget".split()


def _text(n: int, k: int) -> str:
    return " ".join(_WORDS[(i + k) % len(_WORDS)] for i in range(n)).capitalize() + "."


def _page() -> str:
    paragraphs = "".join(f"<p>{_text(40, k)}</p>" for k in range(4))
    return f"""<html><head><title>Bridge</title></head><body><div id="nav"><a href="/">Home</a></div>
<article id="story"><h1>Council approves the bridge</h1>
{paragraphs}
<figure class="photo"><img src="a.jpg"><figcaption><p class="credit">{_text(12, 3)}</p></figcaption></figure>
<blockquote class="twitter-tweet"><p>{_text(14, 5)}</p></blockquote>
<div class="post-author"><p>{_text(16, 7)}</p></div>
</article></body></html>"""


def _rows() -> tuple[RegionView, int, dict[str, int], np.ndarray]:
    an = pagerank_analysis(_page(), text=False)
    view = RegionView.of(an)
    elements = an.scores.graph.elements
    region = elements.index(an.scores.root.find(".//article"))
    nodes = {}
    for k, el in enumerate(elements):
        if el is not None and el.tag == "p":
            key = el.get("class") or el.getparent().get("class") or f"body{len(nodes)}"
            nodes[key] = k
    J = np.array(sorted(nodes.values()), dtype=np.int64)
    return view, region, nodes, J


def _col(name: str) -> int:
    return CONTEXT_FEATURES.index(name)


def test_ancestor_hints_name_the_container_of_a_plain_paragraph() -> None:
    view, region, nodes, J = _rows()
    X = part_context(view, region, J)
    row = {k: X[list(J).index(n)] for k, n in nodes.items()}
    assert row["twitter-tweet"][_col("anc_hint_share")] == 1.0
    assert row["post-author"][_col("anc_hint_meta")] == 1.0
    assert row["credit"][_col("anc_hint_caption")] == 1.0  # (class "photo" of the figure)
    # A body paragraph's only ancestor below the region is none: no hint at all.
    assert not row["body0"][_col("anc_hint_content"):].any()
    # The region's own hints ("story") are not the part's.
    assert row["body0"][_col("anc_hint_content")] == 0.0


def test_inside_a_figure_and_standing_among_siblings() -> None:
    view, region, nodes, J = _rows()
    X = part_context(view, region, J)
    row = {k: X[list(J).index(n)] for k, n in nodes.items()}
    assert row["credit"][_col("in_figure")] == 1.0
    assert row["body0"][_col("in_figure")] == 0.0 and row["twitter-tweet"][_col("in_figure")] == 0.0
    # Article children: h1, four p, figure, blockquote, div (8 elements).
    body = row["body1"]
    assert body[_col("sib_same_tag_share")] == 4 / 8
    assert body[_col("sib_position")] == (2 + 0.5) / 8
    assert body[_col("sib_count")] == np.log1p(8)
    assert 0.5 < body[_col("sib_p_chars_share")] < 1.0
    # The tweet's paragraph is its container's only child, all of its text a paragraph.
    tweet = row["twitter-tweet"]
    assert tweet[_col("sib_same_tag_share")] == 1.0 and tweet[_col("sib_position")] == 0.5
    assert tweet[_col("sib_p_chars_share")] == 1.0


def test_cleaning_rows_end_with_the_context_columns() -> None:
    view, region, _, J = _rows()
    assert CLEAN_FEATURES[-len(CONTEXT_FEATURES):] == CONTEXT_FEATURES
    X = cleaning_features(view, region, J)
    assert np.array_equal(X[:, -len(CONTEXT_FEATURES):], part_context(view, region, J))
    assert part_context(view, region, J[:0]).shape == (0, len(CONTEXT_FEATURES))


def test_parts_must_lie_inside_the_region() -> None:
    view, region, _, J = _rows()
    for outside in (region, region + int(view.size[region])):
        with pytest.raises(ValueError, match="outside region"):
            part_context(view, region, np.append(J, outside))


def test_nested_containers_add_their_hints_to_every_part_below() -> None:
    """Hints of two containers between a part and the region: both on the part's row, and
    on a second part under the same containers (the memo of ancestors' hints)."""
    html = f"""<html><body><article id="story"><h1>T</h1><p>{_text(40, 0)}</p>
<div class="share"><div class="post-author"><p>{_text(14, 1)}</p><p>{_text(15, 2)}</p></div></div>
<p>{_text(40, 3)}</p></article></body></html>"""
    an = pagerank_analysis(html, text=False)
    view = RegionView.of(an)
    elements = an.scores.graph.elements
    region = elements.index(an.scores.root.find(".//article"))
    inner = [k for k, el in enumerate(elements) if el is not None and el.tag == "p"
             and el.getparent().get("class") == "post-author"]
    X = part_context(view, region, np.array(inner, dtype=np.int64))
    for row in X:
        assert row[_col("anc_hint_share")] == 1.0 and row[_col("anc_hint_meta")] == 1.0
    assert X[0][_col("sib_position")] == 0.25 and X[1][_col("sib_position")] == 0.75
