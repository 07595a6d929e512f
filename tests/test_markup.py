"""What today's markup says of a part of the article region
(``newsstemmer.single.region.markup``), a column group of the learned cleaning's features.
The page is built here."""

from __future__ import annotations

import numpy as np

from newsstemmer.single.pagerank import pagerank_analysis
from newsstemmer.single.region.candidates import RegionView
from newsstemmer.single.region.cleaning import CLEAN_FEATURES, cleaning_features
from newsstemmer.single.region.markup import MARKUP_FEATURES, markup_features

_WORDS = "the council approved a new bridge over the river after a long fight about its budget".split()


def _text(n: int, k: int) -> str:
    return " ".join(_WORDS[(i + k) % len(_WORDS)] for i in range(n)).capitalize() + "."


def _page() -> str:
    """An article with, between its paragraphs: a consent box where a video would be,
    an embedded player, a photo with its caption as the next paragraph (no figure), a
    fact box as a custom element, a summary with ``role="note"`` and a newsletter form."""
    p = [f"<p>{_text(40, k)}</p>" for k in range(6)]
    return f"""<html><head><title>Bridge</title></head><body><div id="nav"><a href="/">Home</a></div>
<article id="story"><h1>Council approves the bridge</h1>
{p[0]}
<div class="consent"><p>{_text(14, 2)}</p><button>Accept</button><button>Settings</button></div>
{p[1]}
<div class="player"><iframe src="https://video.example/1"></iframe><p class="player-title">{_text(8, 4)}</p></div>
{p[2]}
<div class="photo"><img src="a.jpg"></div>
<p class="caption">{_text(12, 3)}</p>
{p[3]}
<fact-box><div class="facts"><p>{_text(16, 6)}</p></div></fact-box>
<div class="summary" role="note"><p>{_text(18, 7)}</p></div>
{p[4]}
<div class="signup"><p>{_text(10, 8)}</p><form><input type="email"><input type="submit"></form></div>
{p[5]}
</article></body></html>"""


def _rows() -> tuple[RegionView, int, dict[str, int], np.ndarray]:
    """The page's view, its article node and the parts (paragraphs and boxes) by name."""
    an = pagerank_analysis(_page(), text=False)
    view = RegionView.of(an)
    elements = an.scores.graph.elements
    region = elements.index(an.scores.root.find(".//article"))
    nodes: dict[str, int] = {}
    for k, el in enumerate(elements):
        if el is None:
            continue
        if el.tag == "p":
            name = el.get("class") or el.getparent().get("class") or f"body{sum(n.startswith('p:body') for n in nodes)}"
            nodes["p:" + name] = k
        elif el.get("class") in ("consent", "player", "photo", "facts", "summary", "signup"):
            nodes[el.get("class")] = k
    return view, region, nodes, np.array(sorted(nodes.values()), dtype=np.int64)


def _by_name() -> dict[str, dict[str, float]]:
    view, region, nodes, J = _rows()
    X = markup_features(view, region, J)
    rows = {n: X[list(J).index(k)] for n, k in nodes.items()}
    return {n: dict(zip(MARKUP_FEATURES, row)) for n, row in rows.items()}


def test_controls_embeds_and_images_are_counted_in_their_part() -> None:
    row = _by_name()
    assert row["consent"]["form_controls"] == np.log1p(2) and row["consent"]["embeds"] == 0.0
    assert row["player"]["embeds"] == np.log1p(1) and row["player"]["form_controls"] == 0.0
    assert row["photo"]["images"] == np.log1p(1)
    assert row["signup"]["form_controls"] == np.log1p(2)
    # (the paragraph inside a box holds none of the box's controls)
    assert row["p:consent"]["form_controls"] == 0.0
    assert all(row[f"p:body{k}"][c] == 0.0 for k in range(6) for c in ("form_controls", "embeds", "images"))


def test_a_paragraph_just_after_an_image_stands_in_a_caption_place() -> None:
    row = _by_name()
    assert row["p:caption"]["media_before"] == 1.0
    # the player's title follows its frame inside the player
    assert row["p:player-title"]["media_before"] == 1.0
    # a paragraph after the player's box: the box holds more than a few words of text? No:
    # its title is short, so the box is an embed's place too
    assert row["p:body2"]["media_before"] == 1.0
    assert row["p:body0"]["media_before"] == 0.0 and row["p:body3"]["media_before"] == 0.0


def test_paragraph_text_before_and_after_a_part() -> None:
    row = _by_name()
    first, last = row["p:body0"], row["p:body5"]
    assert first["p_before_share"] == 0.0 and last["p_after_share"] == 0.0
    assert 0.0 < first["p_after_share"] < 1.0 and 0.0 < last["p_before_share"] < 1.0
    # (shares of the region's paragraph text: before + the part's own + after = 1)
    assert row["summary"]["p_before_share"] < row["signup"]["p_before_share"]
    assert row["summary"]["p_after_share"] > row["signup"]["p_after_share"]


def test_custom_elements_and_aria_roles() -> None:
    row = _by_name()
    assert row["facts"]["custom_element"] == 1.0 and row["p:facts"]["custom_element"] == 1.0
    assert row["summary"]["aria_role"] == 1.0 and row["p:summary"]["aria_role"] == 1.0
    assert row["p:body0"]["custom_element"] == 0.0 and row["p:body0"]["aria_role"] == 0.0
    assert row["consent"]["aria_role"] == 0.0


def test_a_part_that_holds_a_custom_element_or_role_gets_half() -> None:
    an = pagerank_analysis(f"""<html><body><article><h1>Bridge</h1><p>{_text(40, 0)}</p>
<div class="box"><x-card><span>{_text(12, 1)}</span></x-card></div>
<div class="wrap"><p>{_text(10, 2)}</p><section role="complementary"><p>{_text(10, 3)}</p></section></div>
<p>{_text(40, 4)}</p></article></body></html>""", text=False)
    view = RegionView.of(an)
    elements = an.scores.graph.elements
    region = elements.index(an.scores.root.find(".//article"))
    box = elements.index(an.scores.root.find(".//div[@class='box']"))
    wrap = elements.index(an.scores.root.find(".//div[@class='wrap']"))
    section = elements.index(an.scores.root.find(".//section"))
    X = markup_features(view, region, np.array([box, wrap, section], dtype=np.int64))
    custom, role = MARKUP_FEATURES.index("custom_element"), MARKUP_FEATURES.index("aria_role")
    assert X[0, custom] == 0.5 and X[0, role] == 0.0
    assert X[1, role] == 0.5 and X[1, custom] == 0.0
    assert X[2, role] == 1.0


def test_cleaning_rows_hold_the_markup_columns() -> None:
    view, region, _, J = _rows()
    X = cleaning_features(view, region, J)
    k = CLEAN_FEATURES.index(MARKUP_FEATURES[0])
    assert CLEAN_FEATURES[k:k + len(MARKUP_FEATURES)] == MARKUP_FEATURES
    assert np.array_equal(X[:, k:k + len(MARKUP_FEATURES)], markup_features(view, region, J))
    assert markup_features(view, region, J[:0]).shape == (0, len(MARKUP_FEATURES))
