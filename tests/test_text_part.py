"""The ``text`` part (issue #25): running text the single-page methods leave out of the
article (a section the cleaning judged outside it, the article's continuation in an element
beside the chosen one) comes back typed, out of the default body, for the conventions that
keep it (Mozilla Readability's); and formulas (MathML) are article text."""

from __future__ import annotations

from newsstemmer import Page
from newsstemmer.blocks import OPTIONAL_KINDS, blocks_text, in_convention, kept_kinds
from newsstemmer.blockwalk import typed_blocks
from newsstemmer.dom.parse import parse_html
from newsstemmer.leftout import item_list, running_text
from newsstemmer.single import extract_single
from newsstemmer.single.continuation import continuation
from newsstemmer.single.pagerank import BLOCK_TAGS, DROP_TAGS, pagerank_analysis

SENTENCE = ("The committee met again on Tuesday to weigh the new figures from the survey, "
            "and its members disagreed on what they mean for next year. ")


def para(n: int = 1) -> str:
    return f"<p>{SENTENCE * n}</p>"


def test_a_left_out_section_of_running_text_is_the_text_part() -> None:
    """A left-out element no name types that holds paragraphs with few links comes back
    with its structure as the ``text`` part; a gallery (paragraphs in list items), a short
    line and a left-out list stay what they were."""
    html = ("<body>" + para(2) +
            "<div class='section'><h2>What the survey found</h2>" + para(2) + para(1) + "<pre>rate = 0.4</pre></div>"
            "<div class='slides'><ul><li><p>" + SENTENCE * 3 + "</p></li><li><p>" + SENTENCE * 3 + "</p></li></ul></div>"
            "<div class='box'><p>Advertisement</p></div>" + para(1) + "</body>")
    root = parse_html(html)
    left = set(root.xpath("//div"))
    blocks = typed_blocks(root.xpath("//body")[0], left, set(), DROP_TAGS, BLOCK_TAGS, None, "https://site.example/")
    body = blocks_text(in_convention(blocks))
    assert body == f"{SENTENCE * 2}\n{SENTENCE}".replace(" \n", "\n").strip()
    text = [b for b in blocks if b.part == "text"]
    assert [b.kind for b in text] == ["heading", "paragraph", "paragraph"] and text[0].level == 2
    assert not any(b.is_body() for b in text)
    (code,) = [b for b in blocks if b.kind == "code"]  # (a listing in the part keeps its own kind)
    assert code.part is None and not code.is_body()
    kept = blocks_text(in_convention(blocks, kept_kinds("text"))).split("\n")
    assert kept[1] == "What the survey found" and len(kept) == 5
    assert "text" in OPTIONAL_KINDS
    slides, box = root.xpath("//div[@class='slides']")[0], root.xpath("//div[@class='box']")[0]
    assert not running_text(slides) and not running_text(box)
    assert [b.text for b in blocks if b.kind == "boilerplate"] == ["Advertisement"]


def continued_page() -> str:
    first = "".join(f"<p>Part one, paragraph {k}. {SENTENCE}</p>" for k in range(3))
    second = "".join(f"<p>Part two, paragraph {k}. {SENTENCE * 2}</p>" for k in range(8))
    comments = "".join(f"<p>Reader {k} says: {SENTENCE}</p>" for k in range(4))
    return ("<html><head><title>Survey</title></head><body><div class='menu'><a href='/'>Home</a></div>"
            "<article><div class='wrap'><div class='story-body story-body-1'>" + first + "</div></div>"
            "<div class='ad'>Advertisement</div>"
            "<div class='wrap'><div class='story-body story-body-2'>" + second + "</div></div>"
            "<div class='wrap'><div class='story-body story-comments'>" + comments + "</div></div>"
            "</article></body></html>")


def test_the_continuation_beside_the_articles_element_is_the_text_part() -> None:
    """Elements near the article's element with its tag and a class word, holding running
    text, come back in page order as the ``text`` part; one named as comments does not."""
    an = pagerank_analysis(parse_html(continued_page()), "https://site.example/survey")
    elements = an.scores.graph.elements
    node = next(i for i, el in enumerate(elements) if el is not None and "story-body-2" in (el.get("class") or ""))
    before, after = continuation(an, node, "https://site.example/survey")
    assert after == []
    assert [b.text.split(".")[0] for b in before] == [f"Part one, paragraph {k}" for k in range(3)]
    assert all(b.part == "text" and b.kind == "paragraph" and not b.is_body() for b in before)
    lone = next(i for i, el in enumerate(elements) if el is not None and el.get("class") == "menu")
    assert continuation(an, lone) == ([], [])  # (no class word shared with running text)


def test_the_default_body_does_not_change_with_the_text_part() -> None:
    """Whatever element the region extractor takes, the continuation adds no line to the
    default body; kept, it adds the other piece's text."""
    article = extract_single(Page(continued_page(), url="https://site.example/survey"), "region")
    assert blocks_text(in_convention(article.blocks)) == article.body
    kept = blocks_text(in_convention(article.blocks, {"text"}))
    for k in range(3):
        assert f"Part one, paragraph {k}." in kept
    for k in range(8):
        assert f"Part two, paragraph {k}." in kept
    assert not any("Reader 0 says" in b.text for b in article.blocks if b.part == "text")


def review_page() -> str:
    body = "".join(f"<p>Review paragraph {k}. {SENTENCE * 2}</p>" for k in range(6))
    return ("<html><head><title>Review</title></head><body><div class='page'>"
            "<header class='x1'><h1>Review</h1><ul class='x2'><li><time>Feb. 21, 2019</time></li></ul>"
            "<ul class='share-tools'><li>Share</li><li>Tweet</li></ul></header>"
            "<div class='story'>" + body + "</div>"
            "<div class='box'><h5>Pros</h5><ul class='x3'><li>Fast hardware</li><li>Quiet fan</li></ul>"
            "<h5>Cons</h5><ol><li>Expensive</li></ol>"
            "<ul class='x4'><li><a href='/a'>Another review of a console</a></li><li><a href='/b'>And one more</a></li></ul>"
            "<div class='related'><ul><li>Related story text</li></ul></div></div>"
            "</div><ul class='x5'><li>Outside the article's parent</li></ul></body></html>")


def test_lists_of_items_beside_the_articles_element_are_the_text_part() -> None:
    """Lists of items in the elements beside the article's element (under its parent: a date
    line set as a list, pros and cons) come back in page order as the ``text`` part, out of
    the default body; lists of links, lists named as the site's furniture or under a named
    box, and lists farther away do not."""
    html = review_page()
    an = pagerank_analysis(parse_html(html), "https://site.example/review")
    elements = an.scores.graph.elements
    node = next(i for i, el in enumerate(elements) if el is not None and el.get("class") == "story")
    before, after = continuation(an, node, "https://site.example/review")
    assert [(b.kind, b.items, b.part, b.is_body()) for b in before] == [("list", ["Feb. 21, 2019"], "text", False)]
    assert [(b.kind, b.items, b.part) for b in after] == [("list", ["Fast hardware", "Quiet fan"], "text"),
                                                          ("list", ["Expensive"], "text")]
    root = parse_html(html)
    assert item_list(root.xpath("//ul[@class='x3']")[0])
    assert not item_list(root.xpath("//ul[@class='x4']")[0])  # (links)
    assert not item_list(root.xpath("//ul[@class='share-tools']")[0])  # (the site's furniture by name)
    article = extract_single(Page(html, url="https://site.example/review"), "region")
    assert blocks_text(in_convention(article.blocks)) == article.body and "Expensive" not in article.body
    assert "Expensive" in blocks_text(in_convention(article.blocks, {"text"}))


def test_formulas_are_article_text() -> None:
    """MathML's tokens are read as text (Readability's gold keeps them); hidden MathML
    (a fallback beside a picture) stays out."""
    html = ("<html><body><article>" + para(2) +
            "<p>The roots of <math><mi>a</mi><msup><mi>x</mi><mn>2</mn></msup><mo>+</mo><mi>c</mi></math> "
            "are found below.</p>"
            "<p>Hidden: <span style='display: none'><math><mi>q</mi><mo>=</mo><mn>7</mn></math></span>"
            " shown as a picture.</p>" + para(2) + "</article></body></html>")
    body = extract_single(Page(html), "region").body
    assert "The roots of ax2+c are found below." in body
    assert "q=7" not in body and "Hidden: shown as a picture." in body
