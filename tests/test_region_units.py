"""One article per body (``newsstemmer.single.region.units``): a region holding two
articles gives way to the one holding the headline; teaser cards and live blogs stay whole.

Pages are built here; nothing is read from the datasets.
"""

from __future__ import annotations

from newsstemmer.dom.parse import parse_html
from newsstemmer.single.pagerank import pagerank_analysis
from newsstemmer.single.region.candidates import RegionView
from newsstemmer.single.region.extractor import RegionExtractor
from newsstemmer.single.region.units import headline_article

_WORDS = "the council approved a new bridge over the river after a long fight about its budget".split()


def _text(n: int, k: int) -> str:
    return " ".join(_WORDS[(i + k) % len(_WORDS)] for i in range(n)).capitalize() + "."


def _article(title: str, k: int, tag: str = "h1", paragraphs: int = 6) -> str:
    body = "".join(f"<p>{_text(40, k + j)}</p>" for j in range(paragraphs))
    return f"<article><{tag}>{title}</{tag}>{body}</article>"


def _page(main: str, title: str = "Council approves the bridge") -> str:
    return (f"<html><head><title>{title} | The Daily</title></head><body>"
            f'<div id="nav"><a href="/">Home</a></div><main>{main}</main></body></html>')


def _view_and_main(html: str) -> tuple[RegionView, int]:
    an = pagerank_analysis(parse_html(html), None, text=False)
    view = RegionView.of(an)
    main = next(i for i, t in enumerate(view.tags) if t == "main")
    return view, main


def test_two_articles_give_way_to_the_headline_one() -> None:
    html = _page(_article("Council approves the bridge", 0)
                 + '<div class="next">' + _article("Another story entirely", 5, "h2") + "</div>")
    view, main = _view_and_main(html)
    node = headline_article(view, main)
    assert view.tags[node] == "article"
    assert node < main + view.size[main] and view.headline in range(node, node + int(view.size[node]))
    els = view.an.scores.graph.elements
    assert "Another story" not in "".join(els[node].itertext())


def test_teaser_cards_and_a_headline_outside_keep_the_region() -> None:
    cards = "".join(f'<article><a href="/p/{i}">{_text(8, i)}</a></article>' for i in range(8))
    view, main = _view_and_main(_page(_article("Council approves the bridge", 0) + cards))
    assert headline_article(view, main) == main
    posts = "".join(_article(f"Update {i}", i, "h3", 2) for i in range(4))
    view, main = _view_and_main(_page("<h1>Council approves the bridge</h1>" + posts))
    assert headline_article(view, main) == main


def test_the_detail_names_the_step_and_the_rule_can_be_turned_off() -> None:
    html = _page(_article("Council approves the bridge", 0)
                 + '<div class="next">' + _article("Another story entirely", 5, "h2") + "</div>")
    ex = RegionExtractor(region=False)  # PageRank's own element: here the <main> of both
    view, main = _view_and_main(html)
    assert view.an.main == main
    title, body, detail = ex.extract_detail(html)
    assert detail == "article" and "Another story" not in body
    ex.one_article = False
    assert ex.extract_detail(html)[2] is None
