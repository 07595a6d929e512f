"""The per-page choice between a layout's article and region's (combine/pagechoice.py)."""

from __future__ import annotations

import sys
from pathlib import Path

from newsstemmer import ExtractOptions, Page, extract_with_patterns, learn
from newsstemmer.article import Article
from newsstemmer.combine.pagechoice_gate import AGREEMENT_KEY, CHOICE_KEY, needs_region
from newsstemmer.combine.pagechoice import PAGE_FEATURES, agreement, page_features

sys.path.insert(0, str(Path(__file__).parent / "fixtures"))
from hard_structures import inline_box_site  # noqa: E402


def test_agreement_and_features():
    assert agreement("a b c d e f", "a b c d e f") == 1.0
    assert agreement("a b c d e f", "") == 0.0
    row = page_features("one two three four five", "one two three four five six seven", 1.0, "pattern-loose", 0.5, 100)
    assert row.shape == (len(PAGE_FEATURES),)
    assert row[PAGE_FEATURES.index("layout_in_region")] == 1.0
    assert row[PAGE_FEATURES.index("loose")] == 1.0


def test_gate_runs_region_only_where_it_could_change_the_answer():
    art = Article("u", "Title", "word " * 100, matched=True, pattern="p0")
    assert not needs_region(art, 600, {"p0": 0.25})
    assert needs_region(art, 5000, {"p0": 0.25})  # a short body on a long page
    # ... of a layout where the choice never took region's body at learning time
    assert not needs_region(art, 5000, {"p0": 0.0})
    assert not needs_region(art, 5000, {})


def test_learn_stores_agreements_and_the_choice_keeps_matched_articles():
    fixture = inline_box_site(teaser=True)
    pages = [Page(p.html, url=p.url) for p in fixture]
    site = learn(pages)
    agreements = site.extras[AGREEMENT_KEY]
    assert agreements and all(0.0 <= v <= 1.0 for v in agreements.values())
    chosen = site.extras[CHOICE_KEY]
    assert set(chosen) <= set(agreements) and all(0.0 <= v <= 1.0 for v in chosen.values())
    for page in pages:
        on = extract_with_patterns(page, site, ExtractOptions(page_choice=True))
        off = extract_with_patterns(page, site)
        assert on.matched and off.matched and on.title == off.title
        assert on.body == off.body or on.method.endswith("+region")


def test_where_features_tell_known_boilerplate_from_unseen_text():
    from newsstemmer.combine.pagechoice import where_features
    from newsstemmer.dom.text import significant

    layout = "Harbour library opens late\n市立図書館は今月から閲覧室の開館時間を延長した。"
    lines = [("title", significant("Harbour library opens late")),
             ("static", significant("By Staff Reporter 1077")),
             ("main", significant("市立図書館は今月から閲覧室の開館時間を延長した。")),
             ("none", significant("A box the layout never saw on its pages"))]
    # region adds the byline the layout knows as boilerplate on this page
    l_in_r, r_in_l, known, sub, unknown = where_features(
        layout, "By Staff Reporter 1077\n市立図書館は今月から閲覧室の開館時間を延長した。", lines)
    assert l_in_r < 1.0 and 0.0 < r_in_l < 1.0  # the title is not in region's body
    assert known > 0.3 and sub == unknown == 0.0
    # region adds text from a block the layout never saw
    _, r_in_l, known, sub, unknown = where_features(
        layout, "市立図書館は今月から閲覧室の開館時間を延長した。\nA box the layout never saw on its pages", lines)
    assert known == sub == 0.0 and unknown > 0.3
    # the same body, in a script written without spaces: full overlap both ways
    body = "市立図書館は今月から閲覧室の開館時間を延長した。"
    assert where_features(body, body, lines) == (1.0, 1.0, 0.0, 0.0, 0.0)
    assert where_features(body, "", lines)[:2] == (0.0, 0.0)


def test_an_empty_or_boilerplate_region_body_is_never_taken():
    import numpy as np

    from newsstemmer.combine.pagechoice import admissible

    def row(region: str, lines) -> np.ndarray:
        return page_features("Harbour library opens late at night for students", region, 1.0, "pattern", 0.5, 400,
                             lines)[None, :]

    from newsstemmer.dom.text import significant

    menu = [("static", significant("Home News Sport Weather and the rest of the menu"))]
    assert not admissible(row("", menu))[0]
    assert not admissible(row("Home News Sport Weather and the rest of the menu", menu))[0]
    assert admissible(row("Harbour library opens late at night for students and more", menu))[0]


def test_region_never_replaces_a_body_it_only_extends_at_the_edges():
    from newsstemmer.combine.pagechoice import extends_only

    body = ("市立図書館は今月から閲覧室の開館時間を延長した。\n"
            "館長は「夜でも静かに勉強できる場所を増やしたい」と話した。\n"
            "利用者は初週だけで前年同期の二倍に増えた。")
    # a byline before and a footer after the layout's whole body: keep the layout's
    assert extends_only(body, "By Staff Reporter 1077\n" + body + "\nShare this story on every network")
    assert extends_only(body, body)
    # region finds a paragraph inside the layout's body (one the layout took as boilerplate)
    lines = body.split("\n")
    inner = "\n".join([lines[0], "The council said the plan had been discussed for two whole years.", *lines[1:]])
    assert not extends_only(body, inner)
    # region's body lacks part of the layout's, or shares nothing with it, or is empty
    assert not extends_only(body, "\n".join(lines[1:]) + "\nA footer line")
    assert not extends_only(body, "Something else entirely, in another part of the page.")
    assert not extends_only(body, "")
    assert not extends_only("", "Some text")
