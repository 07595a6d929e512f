"""Story cards and author bios told by their shape (newsstemmer.combine.boxes and the
section decision's rules over them), on small purpose-made pages and sites."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from lxml import html as lxml_html

from newsstemmer import LearnOptions, Page, learn
from newsstemmer.combine.boxes import (
    byline_lines,
    carries,
    lead_name,
    opens_with_link,
    picture_holders,
)
from newsstemmer.shipped import model_path
from newsstemmer.trees import TreeModel
from newsstemmer.combine.sections import (
    SECTION_FEATURES,
    SIGNALS,
    main_units,
    page_evidence,
    section_units,
    unit_features,
    unit_signals,
)
from newsstemmer.layout.blocks import blocks_of

sys.path.insert(0, str(Path(__file__).parent / "fixtures"))
from hard_structures import inline_box_site, varying_boilerplate_site  # noqa: E402


def _blocks(body: str):
    return blocks_of(Page(f"<html><body>{body}</body></html>", url="http://x.example/a.html")).blocks


def _block(body: str, starting: str):
    return next(b for b in _blocks(body) if b.text.startswith(starting))


def test_opens_with_link_wants_a_wholly_linked_headline_and_more_text():
    card = _block('<div class="c"><p><a href="/s/1.html">Harbour ferry strike ends</a></p>'
                  "<p>The union said the strike was over.</p></div>", "Harbour")
    assert opens_with_link(card)
    # a paragraph that only mentions a link, a linked sentence, a lone link: not a card
    assert not opens_with_link(_block('<div><p>See <a href="/s/2.html">the ferry story</a> for more</p>'
                                      "<p>Another line here.</p></div>", "See"))
    assert not opens_with_link(_block('<div><p><a href="/s/3.html">The ferry strike ended today.</a></p>'
                                      "<p>Another line here.</p></div>", "The ferry"))
    assert not opens_with_link(_block('<div><p><a href="/s/4.html">Harbour ferry strike ends</a></p></div>',
                                      "Harbour"))


def test_lead_name_is_a_short_capitalised_run():
    def name(text: str):
        return lead_name(_block(f"<div><p>{text}</p></div>", text[:5]))

    assert name("Ada Morgan is our harbour correspondent.") == ("Ada", "Morgan")
    assert name("Lee Hutchinson / Lee is the reviews editor.") == ("Lee", "Hutchinson")
    assert name("Mary-Ann O. Lind, who writes on courts.") == ("Mary", "Ann", "O", "Lind")
    assert name("The council said on Monday.") is None  # one capitalised word
    assert name("Harbour Ferry Strike Ends After Talks With Union") is None  # a title-cased headline
    assert name("ferry strike ends") is None


def test_byline_lines_skip_headings_and_long_lines():
    blocks = _blocks("<h1>Ada Morgan wins the prize</h1><p>By Ada Morgan | 7 July 2023</p>"
                     "<div><p>" + "word " * 20 + "Ben Okafor</p></div><div><p>Ada Morgan is a writer.</p></div>")
    lines = byline_lines(blocks, 0, len(blocks) - 1)
    assert carries(lines, ("Ada", "Morgan"))
    assert not carries(lines, ("Ben", "Okafor"))  # on a line of 22 words
    assert not carries(byline_lines(blocks, 0, 1), ("Ada", "Morgan"))  # the heading alone
    assert not carries(lines, ("Morgan", "Ada"))


def test_picture_holders_are_linked_pictures_and_their_ancestors():
    root = lxml_html.fromstring('<div><div id="card"><a href="/s.html"><img src="a.jpg"></a><p>x</p></div>'
                                '<div id="photo"><img src="b.jpg"><p>y</p></div></div>')
    held = picture_holders(root)
    assert root.get_element_by_id("card") in held and root in held
    assert root.get_element_by_id("photo") not in held


def _signals(pages_fixture):
    pages = [Page(p.html, url=p.url) for p in pages_fixture]
    site = learn(pages, LearnOptions(section_model=False))
    units, matched = section_units(site, pages)
    ev = page_evidence(site, pages, matched)
    return units, unit_features(units, matched, ev), unit_signals(units, matched, ev)


def _keeping_all() -> TreeModel:
    """The shipped model with a threshold of 0: it demotes nothing, only the rules do."""
    model = TreeModel.load(model_path("sections"), SECTION_FEATURES)
    model.info["threshold"] = 0.0
    return model


def test_the_card_is_a_card_and_taken_out_of_main_by_rule():
    units, X, S = _signals(inline_box_site(teaser=True))
    assert S.shape == (len(units), len(SIGNALS))
    card = [u for u, unit in enumerate(units) if "related" in unit.path]
    assert len(card) == 1 and S[card[0], 0] == 1.0
    assert S[[u for u in range(len(units)) if u not in card], 0].max() == 0.0
    assert S[:, 1].max() == 0.0  # no bio here
    main = main_units(_keeping_all(), X, S)
    roles = [u.role for u in units]
    assert [u for u in range(len(units)) if roles[u] == "main" and not main[u]] == card
    assert main_units(_keeping_all(), X).sum() == roles.count("main")  # no signals: no rule


def test_the_bio_opens_with_the_byline_name_and_is_taken_out_of_main_by_rule():
    units, X, S = _signals(varying_boilerplate_site())
    bio = [u for u, unit in enumerate(units) if " is our " in unit.occurrences[0][1].text]
    assert len(bio) == 1 and S[bio[0], 1] == 1.0
    assert S[[u for u in range(len(units)) if u not in bio], 1].max() == 0.0
    main = main_units(_keeping_all(), X, S)
    assert not main[bio[0]]
    largest = int(np.flatnonzero(X[:, SECTION_FEATURES.index("largest")] == 1)[0])
    assert main[largest]
