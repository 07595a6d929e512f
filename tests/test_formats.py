"""The body as Markdown and HTML (issue #25): structure written, hostile text escaped,
and both give back exactly the body's text."""

from __future__ import annotations

import re

from pathlib import Path

import pytest
from lxml import html as lxml_html
from markdown_it import MarkdownIt

from newsstemmer import Page
from newsstemmer.blocks import OPTIONAL_KINDS, Block
from newsstemmer.demo import build_site
from newsstemmer.dom.decoding import decode_html
from newsstemmer.formats import html, markdown
from newsstemmer.single import extract_single

ARTICLE = Path(__file__).parent / "fixtures" / "structure" / "article.html"
URL = "https://valley.example/news/river-towns"
#: CommonMark with GitHub's pipe tables: what Markdown readers render.
MD = MarkdownIt("commonmark").enable("table")
ALLOWED = {"p", "h2", "h3", "h4", "ul", "ol", "li", "blockquote", "table", "thead", "tbody", "tr", "th", "td",
           "pre", "code", "figure", "figcaption", "img", "a", "br", "div"}


def markdown_words(text: str) -> str:
    """The words a Markdown reader shows for ``text`` (pictures' alternative text included)."""
    out: list[str] = []
    for token in MD.parse(text):
        if token.type == "inline":
            for child in token.children or []:
                if child.type in ("text", "code_inline"):
                    out.append(child.content)
                elif child.type == "image":
                    out.append("".join(c.content for c in child.children or []))
                elif child.type in ("softbreak", "hardbreak"):
                    out.append(" ")
            out.append(" ")
        elif token.type in ("fence", "code_block"):
            out.append(token.content + " ")
    return " ".join("".join(out).split())


def html_words(text: str) -> str:
    return " ".join(lxml_html.fromstring(f"<div>{text}</div>").text_content().split()) if text else ""


def words(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture(scope="module")
def article():
    return extract_single(Page(ARTICLE.read_text(encoding="utf-8"), url=URL), "region")


def test_markdown_writes_the_structure(article) -> None:
    md = article.body_markdown
    assert "## What the towns will pay" in md and "### The three stages of the works" in md
    assert "1. Raising the embankments" in md and "\n   - the north meadow at Ashby" in md
    assert "3. Installing the gauges" in md
    assert "> We cannot keep rebuilding" in md
    assert "| Town | Share |\n|---|---|\n| Millford | 46 % |" in md
    assert "```\nlevel_cm = gauge.read()\nif level_cm > 420: warn(residents)\n```" in md
    assert "[The engineers' report](<https://example.org/report.pdf>)" in md
    assert "![" not in md  # pictures only when kept
    tokens = {t.type for t in MD.parse(md)}
    assert {"heading_open", "ordered_list_open", "bullet_list_open", "blockquote_open", "table_open", "fence"} <= tokens


def test_html_writes_clean_semantic_elements(article) -> None:
    out = article.body_html
    assert "<h2>What the towns will pay</h2>" in out and "<h3>The three stages of the works</h3>" in out
    assert "<ol><li>Raising" in out and "<ul><li>the north meadow at Ashby</li>" in out
    assert "<thead><tr><th>Town</th><th>Share</th></tr></thead>" in out
    assert '<a href="https://example.org/report.pdf">The engineers&#x27; report</a>' in out
    assert "<pre><code>level_cm = gauge.read()\nif level_cm &gt; 420: warn(residents)</code></pre>" in out
    root = lxml_html.fromstring(f"<div>{out}</div>")
    assert {el.tag for el in root.iter()} <= ALLOWED
    assert {name for el in root.iter() for name in el.attrib} <= {"href", "src", "alt"}


def test_kept_figures_are_written_as_pictures(article) -> None:
    article.keep_kinds("figure,caption")
    try:
        # (the picture in the body with its caption left out, or the whole figure left out
        # with its caption as the picture's text: which one is the cleaning model's call)
        assert re.search(r"!\[[^\]]*\]\(<https://valley\.example/media/bridge\.jpg>\)", article.body_markdown)
        assert '<img src="https://valley.example/media/bridge.jpg" alt="' in article.body_html
        assert "The old bridge under water in February. Photo: Lena Park" in article.body
    finally:
        article.keep_kinds(())
    assert "The old bridge under water" not in article.body


HOSTILE = [
    Block("paragraph", "<script>alert(1)</script> *not bold* _nor this_ `tick` [x](javascript:alert(1))"),
    Block("paragraph", "# not a heading\n1. not a list\n- nor this\n> nor a quote\n=== \\escaped\\ &amp; &lt;b&gt;"),
    Block("heading", "Heading <img src=x onerror=alert(1)>", level=2),
    Block("list", "a|b\n2) two", items=["a|b", "2) two"], ordered=False),
    Block("table", "|pipe|\n<td>", rows=[["|pipe|", "<td>"]], header=False),
    Block("quote", "\"quoted\" & 'single'"),
    Block("code", "```\n</pre><script>x</script>"),
    Block("paragraph", "see the site", links=[("the site", 'https://e.example/?a=1&b="2"<x>')]),
]


def test_hostile_text_is_text_in_markdown() -> None:
    md = markdown(HOSTILE)
    tokens = [t for t in MD.parse(md)]
    inline = [c for t in tokens if t.type == "inline" for c in t.children or []]
    assert not any(c.type in ("html_inline", "em_open", "strong_open", "image") for c in inline)
    assert [c.attrs["href"] for c in inline if c.type == "link_open"] == [
        "https://e.example/?a=1&b=%222%22%3Cx%3E"]
    assert not any(t.type in ("html_block", "ordered_list_open", "hr", "fence_open") for t in tokens)
    assert sum(t.type == "heading_open" for t in tokens) == 1
    assert sum(t.type == "bullet_list_open" for t in tokens) == 1  # (the list block's own)
    assert sum(t.type == "blockquote_open" for t in tokens) == 1  # (the quote block's own)
    assert markdown_words(md) == words(" ".join(b.text for b in HOSTILE))


def test_hostile_text_is_text_in_html() -> None:
    out = html(HOSTILE)
    root = lxml_html.fromstring(f"<div>{out}</div>")
    assert {el.tag for el in root.iter()} <= ALLOWED
    assert not root.xpath("//script") and not root.xpath("//@onerror")
    assert root.xpath("//a/@href") == ['https://e.example/?a=1&b="2"<x>']
    assert html_words(out).replace(" ", "") == words(" ".join(b.text for b in HOSTILE)).replace(" ", "")


def test_javascript_links_are_not_kept() -> None:
    page = Page("<html><body><div><p>" + "Some article text here. " * 20 +
                "<a href='javascript:alert(1)'>click</a> <a href='/ok'>fine</a></p></div></body></html>",
                url="https://e.example/x/")
    a = extract_single(page, "region")
    assert [link for b in a.blocks for link in b.links] == [("fine", "https://e.example/ok")]
    assert "javascript" not in a.body_html and "javascript" not in a.body_markdown


#: Markdown line starts as the writers escaped them before the first-character test skipped
#: the regex (its \\s is ``str.isspace``, its \\d ``str.isdecimal``: "²" and "Ⅳ" open no list).
_LINE_STARTS = {
    "1. one": "1\\. one", "12) two": "12\\) two", "- dash": "\\- dash", "+ plus": "\\+ plus",
    "= equals": "\\= equals", ": colon": "\\: colon", "\u0663. Arabic-Indic": "\u0663\\. Arabic-Indic",
    "\u00b2. superscript": "\u00b2. superscript", "\u2163. numeral": "\u2163. numeral", "1 no mark": "1 no mark",
    "word - dash": "word - dash", "x": "x",
}


@pytest.mark.parametrize("line", sorted(_LINE_STARTS))
def test_a_line_start_that_opens_markup_is_escaped(line: str) -> None:
    assert markdown([Block("paragraph", line)]) == _LINE_STARTS[line]
    assert markdown([Block("paragraph", "a\n" + line)]) == "a\n" + _LINE_STARTS[line]  # (each line's start)
    assert markdown([Block("byline", line)]) == _LINE_STARTS[line]


def test_one_line_blocks_are_written_as_every_block_is() -> None:
    """The one-plain-line shortcut gives what the lines' path gives (empty text: nothing)."""
    assert markdown([Block("paragraph", "a <b> & [c]"), Block("paragraph", ""), Block("lead", "*d*")]) == \
        "a \\<b\\> \\& \\[c\\]\n\n\\*d\\*"
    assert html([Block("paragraph", "a <b> & \"c\""), Block("paragraph", ""), Block("caption", "d")]) == \
        "<p>a &lt;b&gt; &amp; &quot;c&quot;</p>\n<p>d</p>"
    assert html([Block("figure", "cap", src="https://e.example/p.jpg", caption="cap")]) == "<p>cap</p>"
    assert markdown([Block("figure", "cap", src="https://e.example/p.jpg", caption="cap")], images=True) == \
        "![cap](<https://e.example/p.jpg>)"


def _pages() -> list[tuple[str, str]]:
    site = build_site(5, 16)
    pages = [(f"http://demo.example{p.path}", decode_html(p.body, p.content_type).text)
             for p in site if p.content_type.startswith("text/html")]
    return pages + [(URL, ARTICLE.read_text(encoding="utf-8"))]


@pytest.mark.parametrize("keep", [(), tuple(sorted(OPTIONAL_KINDS))], ids=["default", "all-kept"])
def test_markdown_and_html_give_back_the_body(keep) -> None:
    """Rendering ``body_markdown`` (a CommonMark reader) or ``body_html`` to text gives
    ``body`` up to whitespace, on every page of a demo site and on the fixture."""
    checked = 0
    for url, text in _pages():
        for method in ("region", "pagerank"):
            a = extract_single(Page(text, url=url), method).keep_kinds(keep)
            assert a.typed
            assert markdown_words(a.body_markdown) == words(a.body), url
            assert html_words(a.body_html).replace(" ", "") == words(a.body).replace(" ", ""), url
            checked += 1
    assert checked > 30


# -- generated pages -------------------------------------------------------------------

from hypothesis import given, settings, strategies as st  # noqa: E402

from newsstemmer.blocks import blocks_text, in_convention  # noqa: E402
from newsstemmer.dom.parse import parse_html  # noqa: E402
from newsstemmer.single.pagerank import pagerank_analysis, region_paragraphs  # noqa: E402
from newsstemmer.single.typed import region_blocks  # noqa: E402

#: Words with every character that could make Markdown or HTML markup, and newlines.
_TEXT = st.text(alphabet=st.sampled_from(list("ab cd\n*_`#>-+=|[]()!<&;.1\\~:")), min_size=0, max_size=12)


def _tree(depth: int):
    leaf = _TEXT.map(html_escape_text)
    if depth == 0:
        return leaf
    inner = st.lists(_tree(depth - 1), min_size=1, max_size=3).map("".join)
    wrap = st.sampled_from(["p", "div", "h2", "h3", "blockquote", "pre", "figcaption", "figure", "span", "b", "li",
                            "td", "th", "section"])
    wrapped = st.tuples(wrap, inner).map(lambda t: f"<{t[0]}>{t[1]}</{t[0]}>")
    lists = st.tuples(st.sampled_from(["ul", "ol"]), st.lists(inner, min_size=1, max_size=3)).map(
        lambda t: f"<{t[0]}>" + "".join(f"<li>{x}</li>" for x in t[1]) + f"</{t[0]}>")
    tables = st.lists(st.lists(leaf, min_size=2, max_size=3), min_size=1, max_size=3).map(
        lambda rows: "<table>" + "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in rows)
        + "</table>")
    extras = st.sampled_from(["<br>", "<img src='/p.jpg'>", "<a href='/x'>link text</a>", "<script>x<y</script>"])
    return st.one_of(leaf, wrapped, lists, tables, extras)


def html_escape_text(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;")


@settings(max_examples=150, deadline=None)
@given(body=st.lists(_tree(3), min_size=1, max_size=5).map("".join), seed=st.integers(0, 10_000))
def test_generated_pages_blocks_lines_and_markdown_round_trip(body: str, seed: int) -> None:
    """Any generated body, any element of it with any parts left out: the typed blocks
    give the plain text's lines, and Markdown and HTML give back their words."""
    import random

    rng = random.Random(seed)
    an = pagerank_analysis(parse_html(f"<html><body><main>{body}</main></body></html>"), None, text=False)
    elements = an.scores.graph.elements
    nodes = [i for i, el in enumerate(elements) if el is not None]
    node = rng.choice(nodes)
    inside = [i for i in range(node + 1, node + an.size[node]) if elements[i] is not None]
    skip = rng.sample(inside, min(len(inside), rng.randint(0, 3)))
    blocks = region_blocks(an, node, skip, "https://g.example/a/")
    assert blocks_text(in_convention(blocks)).split("\n") == (region_paragraphs(an, node, skip) or [""])
    kept = in_convention(blocks, OPTIONAL_KINDS)
    text = words(blocks_text(kept))
    assert markdown_words(markdown(kept, images=False)) == text
    assert html_words(html(kept)).replace(" ", "") == text.replace(" ", "")


@settings(max_examples=150, deadline=None)
@given(body=st.lists(_tree(3), min_size=1, max_size=5).map("".join), seed=st.integers(0, 10_000))
def test_the_body_blocks_take_the_lines_the_plain_walk_made(body: str, seed: int) -> None:
    """The body's blocks read the plain walk's lines instead of making them again: the same
    blocks as made from the text (and, given lines that do not match, made from the text)."""
    import random

    rng = random.Random(seed)
    an = pagerank_analysis(parse_html(f"<html><body><main>{body}</main></body></html>"), None, text=False)
    elements = an.scores.graph.elements
    node = rng.choice([i for i, el in enumerate(elements) if el is not None])
    inside = [i for i in range(node + 1, node + an.size[node]) if elements[i] is not None]
    skip = rng.sample(inside, min(len(inside), rng.randint(0, 3)))
    region_paragraphs(an, node, skip)
    walked = an.walked(node, skip)
    assert walked is not None and walked.made is not None
    made = walked.made
    taken = region_blocks(an, node, skip, "https://g.example/a/", walked, False, [])
    walked.made = None
    assert taken == region_blocks(an, node, skip, "https://g.example/a/", walked, False, [])
    for wrong in (made + ("one more",), made[:-1]):
        walked.made = wrong
        assert taken == region_blocks(an, node, skip, "https://g.example/a/", walked, False, [])
