"""One body cut into parallel parts (``newsstemmer.single.region.parallel``): a region
that is the first of several blocks of one template is widened to hold the others; a
block above the headline, a comment of the same class under other tags and a teaser
of another class set stay out.

Pages are built here; nothing is read from the datasets.
"""

from __future__ import annotations

from newsstemmer.dom.parse import parse_html
from newsstemmer.single.pagerank import pagerank_analysis
from newsstemmer.single.region.candidates import RegionView
from newsstemmer.single.region.extractor import RegionExtractor
from newsstemmer.single.region.parallel import parallel_parts

_WORDS = "the council approved a new bridge over the river after a long fight about its budget".split()


def _text(n: int, k: int) -> str:
    return " ".join(_WORDS[(i + k) % len(_WORDS)] for i in range(n)).capitalize() + "."


def _block(marker: str, k: int, paragraphs: int = 3, classes: str = "block-content") -> str:
    body = "".join(f"<p>{marker} {_text(30, k + j)}</p>" for j in range(paragraphs))
    return f'<div class="story-block"><div class="{classes}">{body}</div></div>'


def _page() -> str:
    article = ("<article>"
               + _block("Welcome", 9, 2)  # (above the headline: a box, not the article)
               + "<h1>Council approves the bridge</h1>"
               + _block("First", 0, 8)
               + '<div class="slot"><a href="/ad">Advertisement</a></div>'
               + _block("Second", 3)
               + _block("Teaser", 6, classes="block-content teaser")
               + _block("Third", 5)
               + "</article>")
    comments = ('<section><div class="comment">'
                f'<div class="block-content"><p>Reader {_text(40, 1)}</p><p>Reader {_text(40, 2)}</p></div>'
                "</div></section>")
    return ("<html><head><title>Council approves the bridge | The Daily</title></head><body>"
            f'<div id="nav"><a href="/">Home</a></div><main>{article}{comments}</main></body></html>')


def _first_block(view: RegionView) -> int:
    els = view.an.scores.graph.elements
    return next(i for i, el in enumerate(els)
                if el is not None and el.get("class") == "block-content" and "First" in "".join(el.itertext()))


def test_parts_are_the_same_template_after_the_headline() -> None:
    view = RegionView.of(pagerank_analysis(parse_html(_page()), None, text=False))
    first = _first_block(view)
    top, parts = parallel_parts(view, first)
    els = view.an.scores.graph.elements
    assert els[top].tag == "article"
    texts = ["".join(els[p].itertext()) for p in parts]
    assert [t.split()[0] for t in texts] == ["Second", "Third"]


def test_the_region_widens_to_the_parts_and_the_rule_can_be_turned_off() -> None:
    html = _page()
    ex = RegionExtractor(region=False)
    ex.choose_region = _first_block  # (the ranker's smaller choice: the first block alone)
    title, body, detail = ex.extract_detail(html)
    assert detail == "parts"
    assert "First" in body and "Second" in body and "Third" in body
    for left_out in ("Welcome", "Teaser", "Reader", "Advertisement"):
        assert left_out not in body
    assert body.index("First") < body.index("Second") < body.index("Third")
    ex.parallel_parts = False
    title, body, detail = ex.extract_detail(html)
    assert detail is None and "First" in body and "Second" not in body
