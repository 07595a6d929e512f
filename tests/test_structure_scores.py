"""The structure scores of issue #25 (benchmarks/shared/structure.py) and the per-set
conventions (benchmarks/shared/conventions.py), on small hand-made pages: no data set."""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path

import pytest

from newsstemmer.blocks import Block
from newsstemmer.evaluation import tokens

# loaded under a name of its own, as tests/test_benchmark_cache.py does (the scripts must
# not shadow other modules for the rest of the session)
_SHARED = Path(__file__).resolve().parent.parent / "benchmarks" / "shared"
if "benchmarks_shared" not in sys.modules:
    _spec = importlib.util.spec_from_file_location(
        "benchmarks_shared", _SHARED / "__init__.py", submodule_search_locations=[str(_SHARED)])
    sys.modules["benchmarks_shared"] = importlib.util.module_from_spec(_spec)
    _spec.loader.exec_module(sys.modules["benchmarks_shared"])
structure = importlib.import_module("benchmarks_shared.structure")
conventions = importlib.import_module("benchmarks_shared.conventions")
data = importlib.import_module("benchmarks_shared.data")

P1 = "The council met on Monday to discuss the new budget for the coming year."
P2 = "Residents asked why the library would close two days a week from March."
P3 = "The mayor said no decision had been taken and more meetings would follow."

GOLD_HTML = f"""<div id="readability-page-1" class="page"><section>
  <h2>What the <em>council</em> decided</h2>
  <p>{P1}</p>
  <p>{P2} <a href="/x">More</a></p>
  <ul><li>Library hours cut</li><li>Parks kept open<ul><li>two new benches</li></ul></li></ul>
  <figure><img src="a.jpg"><figcaption>The town hall at night</figcaption></figure>
  <pre><code>x = 1</code></pre>
  <blockquote><p>{P3}</p></blockquote>
  loose text after the quote, long enough to be a paragraph of its own
  <table><tr><th>Year</th><th>Budget</th></tr><tr><td>2025</td><td>10</td></tr></table>
</section></div>"""


def kinds(blocks):
    return [b.kind for b in blocks]


def test_gold_html_becomes_typed_blocks_in_order():
    blocks = structure.blocks_from_html(GOLD_HTML)
    assert kinds(blocks) == ["heading", "paragraph", "paragraph", "list", "figure", "code", "quote", "paragraph",
                             "table"]
    heading, _, p2, lst, fig, code, quote, loose, table = blocks
    assert (heading.text, heading.level) == ("What the council decided", 2)
    assert p2.text == P2 + " More"
    assert lst.items == ["Library hours cut", "Parks kept open", "two new benches"] and not lst.ordered
    assert (fig.caption, fig.src) == ("The town hall at night", "a.jpg")
    assert code.text == "x = 1" and quote.text == P3
    assert loose.text.startswith("loose text after the quote")
    assert table.rows == [["Year", "Budget"], ["2025", "10"]]


def test_a_layout_table_is_read_as_a_container():
    blocks = structure.blocks_from_html(f"<table><tr><td><h3>Inside</h3><p>{P1}</p></td></tr></table>")
    assert kinds(blocks) == ["heading", "paragraph"]


def test_fundus_gold_blocks_map_summary_to_lead():
    blocks = structure.blocks_from_json([{"kind": "summary", "text": "A short  standfirst."},
                                         {"kind": "heading", "text": "Why"}, {"kind": "paragraph", "text": P1}])
    assert kinds(blocks) == ["lead", "heading", "paragraph"] and blocks[0].text == "A short standfirst."
    with pytest.raises(ValueError):
        structure.blocks_from_json([{"kind": "sidebar", "text": "x"}])


def gold():
    return [Block("heading", "What the council decided", level=2), Block("paragraph", P1), Block("paragraph", P2),
            Block("list", "Library hours cut\nParks kept open", items=["Library hours cut", "Parks kept open"]),
            Block("quote", P3)]


def test_the_gold_itself_scores_one():
    s = structure.score_structure(gold(), gold())
    assert (s.heading_recall, s.list_recall, s.paragraph_precision, s.paragraph_recall) == (1.0, 1.0, 1.0, 1.0)
    assert (s.gold_headings, s.gold_items, s.gold_paragraphs) == (1, 2, 3)


def test_plain_lines_find_no_heading_and_no_list_item():
    plain = conventions.body_blocks("\n".join(b.text for b in gold()))
    s = structure.score_structure(plain, gold())
    assert s.heading_recall == 0.0 and s.list_recall == 0.0
    # every gold paragraph is found, but the heading and the two items are wrong paragraphs
    assert s.paragraph_recall == 1.0 and s.paragraph_precision == pytest.approx(3 / 6)


def test_heading_text_must_match():
    out = [Block("heading", "What the mayor said", level=2)] + gold()[1:]
    assert structure.score_structure(out, gold()).heading_recall == 0.0
    # punctuation and spacing do not matter, words do
    out = [Block("heading", "What the council decided:", level=3)] + gold()[1:]
    assert structure.score_structure(out, gold()).heading_recall == 1.0


def test_half_the_list_items_found():
    out = gold()[:3] + [Block("list", "Library hours cut", items=["Library hours cut"]), Block("paragraph", "Parks kept open")]
    assert structure.score_structure(out, gold()).list_recall == 0.5


def test_two_paragraphs_glued_are_found_but_the_glued_one_is_not_right():
    two = [Block("paragraph", f"{P1} {P2}"), Block("quote", P3)]
    s = structure.score_structure(two, gold())
    # recall forgives gluing two gold paragraphs; precision does not (no gold paragraph covers it)
    assert s.paragraph_recall == 1.0 and s.paragraph_precision == 0.5
    three = [Block("paragraph", f"{P1} {P2} {P3}")]
    s = structure.score_structure(three, gold())
    assert s.paragraph_recall == 0.0 and s.paragraph_precision == 0.0


def test_a_split_paragraph_is_not_found():
    half = len(P1) // 2
    out = [Block("paragraph", P1[:half]), Block("paragraph", P1[half:]), Block("paragraph", P2), Block("quote", P3)]
    s = structure.score_structure(out, gold())
    assert s.paragraph_recall == pytest.approx(2 / 3)
    # precision forgives a split in two (both halves are covered by the same gold paragraph)...
    assert s.paragraph_precision == 1.0
    third = len(P1) // 3
    out = [Block("paragraph", P1[i * third:(i + 1) * third if i < 2 else None]) for i in range(3)] + out[2:]
    s = structure.score_structure(out, gold())
    # ... not a split in three
    assert s.paragraph_recall == pytest.approx(2 / 3) and s.paragraph_precision == pytest.approx(2 / 5)


def test_an_empty_output_finds_nothing():
    s = structure.score_structure([], gold())
    assert s.paragraph_precision is None and s.paragraph_recall == 0.0 and s.heading_recall == 0.0


def test_a_short_paragraph_is_found_inside_a_longer_line():
    assert structure.covered("Parks kept", "Library hours cut and Parks kept open") == 1.0
    assert structure.covered("Parks closed", "Library hours cut and Parks kept open") == 0.0


def test_set_means_skip_pages_without_the_kind():
    with_lists = structure.score_structure(gold(), gold())
    without = structure.score_structure([Block("paragraph", P1)], [Block("paragraph", P1)])
    m = structure.mean_structure([with_lists, without])
    assert m["list_recall"] == 1.0 and m["list_pages"] == 1 and m["paragraph_f1"] == 1.0
    half = structure.score_structure([Block("paragraph", f"{P1} {P2} {P3}")], gold())
    assert structure.mean_structure([with_lists, half])["paragraph_f1"] < 1.0


def test_conventions_cut_the_blocks_each_set_keeps():
    blocks = [Block("byline", "By Ann Smith"), Block("paragraph", P1), Block("figure", "The town hall", caption="x"),
              Block("code", "x = 1"), Block("lead", "A standfirst here")]
    entry = data.Entry("readability", "s", "1", Path("x"), Path("y"), None, False)
    own = data.prediction("Title", "", False, blocks, conventions.keep_of(entry, "own"))
    assert own.splitlines() == [P1, "The town hall", "x = 1"]
    assert data.prediction("Title", "", False, blocks, conventions.keep_of(entry, "news")) == P1
    cttf = data.Entry("cttf", "s", "1", Path("x"), Path("y"), None, True)
    assert data.prediction("Title", "", True, blocks, conventions.keep_of(cttf, "own")).splitlines() == [
        "Title", "By Ann Smith", P1]
    assert conventions.keep_of(data.Entry("fundus-recent", "s", "1", Path("x"), Path("y"), None, False),
                               "own") == {"lead"}
    assert conventions.convention_of("dragnet-single") is conventions.CONVENTIONS["dragnet"]


def test_without_blocks_the_plain_body_is_read_as_paragraphs():
    class Old:  # an extraction result from before typed blocks
        body = f"{P1}\n\n{P2}\n"

    class Empty:  # a method that leaves the blocks empty beside its body
        body = P1
        blocks: list = []

    assert kinds(conventions.article_blocks(Old())) == ["paragraph", "paragraph"]
    assert [b.text for b in conventions.article_blocks(Empty())] == [P1]
    typed = type("Typed", (), {"body": P1, "blocks": [Block("heading", "H", level=2)]})()
    assert kinds(conventions.article_blocks(typed)) == ["heading"]
    # the plain body scores the same whichever convention: every convention keeps paragraphs
    blocks = conventions.article_blocks(Old())
    assert (tokens(data.prediction("", "", False, blocks, frozenset({"code"})))
            == tokens(data.prediction("", Old.body, False)))


def test_trafilatura_xml_becomes_typed_blocks():
    xml = (f'<doc><main><head rend="h3">Why</head><p>{P1}</p><list><item>one</item><item>two</item></list>'
           f'<quote><p>{P3}</p></quote><code>x = 1</code><graphic src="a.jpg" title="Hall"/></main></doc>')
    blocks = structure.blocks_from_xml(xml)
    assert kinds(blocks) == ["heading", "paragraph", "list", "quote", "code", "figure"]
    assert blocks[0].level == 3 and blocks[2].items == ["one", "two"] and blocks[5].caption == "Hall"
    assert structure.blocks_from_xml(None) == []


def test_repeated_and_short_paragraphs_are_no_sign_of_gluing():
    page = [Block("paragraph", f"{P1} More links"), Block("paragraph", "Links"), Block("paragraph", "link"),
            Block("paragraph", "link"), Block("paragraph", "link")]
    s = structure.score_structure(page, page)
    assert s.paragraph_precision == 1.0 and s.paragraph_recall == 1.0
    # the whole page in one line still finds nothing
    one = [Block("paragraph", " ".join(b.text for b in page))]
    s = structure.score_structure(one, page)
    assert s.paragraph_recall == 0.0 and s.paragraph_precision == 0.0


def test_a_line_break_inside_a_paragraph_does_not_end_it():
    out = [Block("paragraph", f"{P1}\n{P2}")]  # one block: the page broke its line
    assert structure.paragraphs(out) == [f"{P1} {P2}"]
    assert structure.paragraphs([Block("quote", f"{P1}\n{P2}")]) == [P1, P2]
