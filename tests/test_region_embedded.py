"""The article a page carries only as script data (issue 23): Next.js streamed payloads
(``self.__next_f.push``) and JSON state objects read when the markup's body is near-empty,
and left unread when the markup shows a text of its own or the data is not this page's
article.  Pages are built here; nothing is read from the datasets.
"""

from __future__ import annotations

import json

from newsstemmer import Page
from newsstemmer.single import extract_single
from newsstemmer.single.region.embedded import embedded_article_html
from newsstemmer.dom.parse import parse_html
from tests.test_region_nearempty import TITLE, _menu, _page, _paragraphs, _recall


def _article_html(text: list[str]) -> str:
    return '<div class="img"><img src="/a.jpg"></div>' + "".join(f'<p class="editor-p">{p}</p>' for p in text)


def flight_page(seed: int = 0, title: str = TITLE) -> tuple[str, list[str]]:
    """A Next.js App Router page: the headline in the markup, the article's HTML inside a
    JSON record inside the string a ``self.__next_f.push`` call streams (escaped twice)."""
    text = _paragraphs(seed)
    record = json.dumps({"title": title, "subTitle": "A short summary", "contentHtml": _article_html(text)})
    record = record.replace("<", "\\u003c")  # (as Next.js writes it: no "<" inside a script)
    chunk = "5:[\"$\",\"div\",null," + record + "]\n"
    script = "self.__next_f.push(" + json.dumps([1, chunk]) + ")"
    html = _page(f'{_menu()}<main><h1>{TITLE}</h1><div id="article"></div></main>'
                 f"<script>{script}</script>")
    return html, text


def state_page(seed: int = 0, visible: str = "", n: int = 8) -> tuple[str, list[str]]:
    """A page whose state object (``window.__STATE__``) holds the article once escaped."""
    text = _paragraphs(seed, n)
    state = json.dumps({"article": {"headline": TITLE, "body": _article_html(text)}})
    html = _page(f"{_menu()}<main><h1>{TITLE}</h1>{visible}</main><script>window.__STATE__ = {state};</script>")
    return html, text


def test_a_streamed_nextjs_article_is_read() -> None:
    html, text = flight_page()
    article = extract_single(Page(html=html, url="https://news.example/a/1"))
    assert article.detail is not None and "embedded" in article.detail
    assert _recall(article.body, text) > 0.9
    assert "A short summary" not in article.body  # (the record's other fields are not body)


def test_an_article_in_a_state_object_is_read() -> None:
    html, text = state_page(1)
    article = extract_single(Page(html=html, url="https://news.example/a/2"))
    assert article.detail == "embedded"
    assert _recall(article.body, text) > 0.9


def test_the_markup_text_wins_where_the_page_shows_one() -> None:
    """Three paragraphs shown beside a data article ten times as long: the page is what it shows."""
    shown = _paragraphs(7, n=3)
    html, _ = state_page(2, visible="".join(f"<p>{p}</p>" for p in shown), n=30)
    article = extract_single(Page(html=html, url="https://news.example/a/3"))
    assert article.detail is None
    assert _recall(article.body, shown) > 0.9


def test_data_beside_another_title_is_not_this_pages_article() -> None:
    """A terms-of-service dialog's HTML or another story's record stays unread."""
    html, text = flight_page(3, title="Terms of service and privacy notice of this website")
    article = extract_single(Page(html=html, url="https://news.example/a/4"))
    assert article.detail is None or "embedded" not in article.detail
    assert _recall(article.body, text) < 0.1


def test_broken_or_hostile_script_data_reads_as_nothing() -> None:
    bad = [
        '"' + "\\u00zz<p>x</p>" * 100 + '"',  # bad escapes
        '"' + "\\" * 5000 + '"',
        "[" * 20000 + '"<p>a</p><p>b</p>' + "y" * 500 + '"',  # deep brackets are only text here
        '"' + "<p>" * 3000 + '"',  # paragraphs without words
    ]
    for data in bad:
        root = parse_html(_page(f"<h1>{TITLE}</h1><script>var s = {data};</script>"))
        assert embedded_article_html(root, TITLE) is None


def test_a_page_without_a_headline_reads_no_data() -> None:
    html, _ = state_page(4)
    assert embedded_article_html(parse_html(html), "") is None
    assert embedded_article_html(parse_html(html), TITLE) is not None


def test_the_script_data_article_gives_typed_blocks() -> None:
    """The blocks of a script-data body come from the article that data holds."""
    html, text = flight_page(5)
    article = extract_single(Page(html=html, url="https://news.example/a/5"))
    paragraphs = [b.text for b in article.blocks if b.kind == "paragraph"]
    assert len(paragraphs) >= len(text) - 1
    assert _recall("\n".join(paragraphs), text) > 0.9
