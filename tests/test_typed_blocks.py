"""Typed blocks (issue #25): the single-page methods' bodies as paragraphs, headings,
lists, tables, figures, quotes and code, with the same lines as the plain body."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from newsstemmer import Page
from newsstemmer.blocks import BODY_KINDS, OPTIONAL_KINDS, Block, blocks_text, in_convention, kept_kinds
from newsstemmer import blockwalk
from newsstemmer.dom import walk as dom_walk
from newsstemmer.blockwalk import typed_blocks
from newsstemmer.demo import build_site
from newsstemmer.dom.decoding import decode_html
from newsstemmer.dom.parse import parse_html
from newsstemmer.formats import markdown
from newsstemmer.single import extract_single
from newsstemmer.single.pagerank import BLOCK_TAGS, DROP_TAGS, pagerank_analysis, region_element, region_paragraphs
from newsstemmer.single.typed import region_block_maker, region_blocks, with_left_out_pictures

ARTICLE = Path(__file__).parent / "fixtures" / "structure" / "article.html"
URL = "https://valley.example/news/river-towns"


def walk_blocks(html: str, left_out_xpath: str | None = None, title: str | None = None) -> list[Block]:
    root = parse_html(html)
    main = root.xpath("//body")[0]
    left = set(root.xpath(left_out_xpath)) if left_out_xpath else set()
    return typed_blocks(main, left, set(), DROP_TAGS, BLOCK_TAGS, title, "https://site.example/a/b")


@pytest.fixture(scope="module", params=["region", "pagerank"])
def article(request):
    return extract_single(Page(ARTICLE.read_text(encoding="utf-8"), url=URL), request.param)


def test_the_fixture_article_comes_as_typed_blocks(article) -> None:
    assert article.typed
    kinds = [b.kind for b in article.blocks]
    for kind in ("paragraph", "heading", "list", "table", "quote", "code", "figure"):
        assert kind in kinds, kind
    headings = [(b.text, b.level) for b in article.blocks if b.kind == "heading"]
    assert headings == [("What the towns will pay", 2), ("The three stages of the works", 3)]
    (table,) = [b for b in article.blocks if b.kind == "table"]
    assert table.header and table.rows[0] == ["Town", "Share"] and table.rows[-1] == ["Crane Hill", "28 %"]
    (steps,) = [b for b in article.blocks if b.kind == "list"]
    assert steps.ordered and steps.item_depths == [0, 0, 1, 1, 0]
    assert steps.items[2] == "the north meadow at Ashby"
    (figure,) = [b for b in article.blocks if b.kind == "figure"]
    assert figure.src == "https://valley.example/media/bridge.jpg"
    assert article.images == ["https://valley.example/media/bridge.jpg"]
    assert article.captions == ["The old bridge under water in February. Photo: Lena Park"]
    (code,) = [b for b in article.blocks if b.kind == "code"]
    assert code.text.splitlines() == ["level_cm = gauge.read()", "if level_cm > 420: warn(residents)"]
    paragraph = next(b for b in article.blocks if "engineers' report" in b.text)
    assert ("The engineers' report", "https://example.org/report.pdf") in paragraph.links
    byline = article.blocks[0]
    assert byline.kind == "byline" and byline.text == "By Ana Ruiz, environment reporter"


def test_the_default_body_is_the_blocks_the_cleaning_kept(article) -> None:
    """Typing changes no line of the body; the headline, the menu, the related box and
    the footer stay out of it, the related box coming back only when kept."""
    assert blocks_text(in_convention(article.blocks)) == article.body
    assert "River towns plan for a wetter decade" not in article.body
    assert "Home" not in article.body.split("\n") and "About us" not in article.body
    assert "Bridge reopens after repairs" not in article.body


def test_left_out_parts_come_back_by_kind() -> None:
    html = ("<p>Lead paragraph of the story, long enough.</p><figure><img src='/p.jpg'>"
            "<figcaption>A caption</figcaption></figure><p class='byline'>By Kim Lee</p>"
            "<div class='related-links'><p>Other story</p></div><pre>x = 1</pre><p>End.</p>")
    blocks = walk_blocks(html, "//figcaption|//div[@class='related-links']|//pre|//p[@class='byline']")
    assert blocks_text(in_convention(blocks)) == "Lead paragraph of the story, long enough.\nEnd."
    out = {b.kind: b.text for b in blocks if not b.is_body()}
    assert out == {"caption": "A caption", "related": "Other story", "code": "x = 1", "byline": "By Kim Lee"}
    kept = in_convention(blocks, {"caption", "code"})
    assert [b.text for b in kept if b.text] == ["Lead paragraph of the story, long enough.", "A caption", "x = 1", "End."]
    assert [b.kind for b in blocks][:2] == ["paragraph", "figure"]
    assert blocks[1].src == "https://site.example/p.jpg" and blocks[1].is_body() and blocks[1].text == ""


def test_a_left_out_link_list_keeps_its_structure_as_the_links_part() -> None:
    """A left-out part no name types, made of lists or links (a table of contents, a "see
    also" list), comes back as ``list``/``heading`` blocks of the ``links`` part, out of the
    default body and kept by ``links`` alone; a left-out list named as the site's sharing
    buttons, one in an ``<aside>``, and a lone link stay ``boilerplate``."""
    html = ("<p>First paragraph of the story, long enough.</p>"
            "<div id='toc'><h2>Contents</h2><img src='/map.png'><ul><li><a href='#o'>Origins</a><ul><li><a href='#e'>Early days</a></li>"
            "</ul></li><li><a href='#t'>Today</a></li></ul></div><p>Second paragraph.</p>"
            "<ul class='share-tools'><li><a href='/fb'>Facebook</a></li></ul>"
            "<aside><ul><li><a href='/x'>Elsewhere</a></li></ul></aside>"
            "<div class='box'><a href='/i'>View image</a></div>"
            "<ol><li><a href='/one'>One source</a></li><li><a href='/two'>Another</a></li></ol><p>End.</p>")
    blocks = walk_blocks(html, "//div[@id='toc']|//ul[@class='share-tools']|//aside|//div[@class='box']|//ol")
    body = ["First paragraph of the story, long enough.", "Second paragraph.", "End."]
    assert blocks_text(in_convention(blocks)).split("\n") == body
    part = [b for b in blocks if b.part == "links"]
    assert [(b.kind, b.text) for b in part] == [
        ("heading", "Contents"), ("list", "Origins\nEarly days\nToday"), ("list", "One source\nAnother")]
    toc, sources = part[1], part[2]
    assert toc.items == ["Origins", "Early days", "Today"] and toc.item_depths == [0, 1, 0] and not toc.ordered
    assert sources.ordered and sources.links == [("One source", "https://site.example/one"),
                                                 ("Another", "https://site.example/two")]
    assert not any(b.is_body() for b in part) and part[0].level == 2
    assert [b.text for b in blocks if b.kind == "boilerplate"] == ["Facebook", "Elsewhere", "View image"]
    kept = blocks_text(in_convention(blocks, kept_kinds("links"))).split("\n")
    assert kept == [body[0], "Contents", "Origins", "Early days", "Today", body[1], "One source", "Another", body[2]]
    assert blocks_text(in_convention(blocks, {"boilerplate"})).split("\n") == [
        *body[:2], "Facebook", "Elsewhere", "View image", body[2]]
    assert toc.to_json_dict()["part"] == "links" and "part" not in blocks[0].to_json_dict()
    (picture,) = [b for b in blocks if b.kind == "figure"]  # (kept by its own name, as anywhere)
    assert picture.part is None and not picture.is_body() and picture in in_convention(blocks, {"figure"})
    assert "## Contents\n\n- Origins\n  - Early days\n- Today" in markdown(in_convention(blocks, {"links"}))
    assert "Contents" not in markdown(in_convention(blocks))
    with pytest.raises(ValueError):
        Block("links", "x")
    with pytest.raises(ValueError):
        Block("list", "x", part="related")


def test_nested_lists_keep_their_depth_and_order() -> None:
    html = "<ul><li>a<ol><li>a1</li><li>a2<ul><li>a2x</li></ul></li></ol></li><li>b</li></ul>"
    (block,) = walk_blocks(html)
    assert block.kind == "list" and not block.ordered
    assert block.items == ["a", "a1", "a2", "a2x", "b"] and block.item_depths == [0, 1, 1, 2, 0]


def test_a_definition_list_is_a_list_of_its_terms_and_definitions() -> None:
    (block,) = walk_blocks("<dl><dt>Latency</dt><dd>The time a request takes.</dd><dt>Traffic</dt><dd>Demand.</dd></dl>")
    assert block.kind == "list"
    assert block.items == ["Latency", "The time a request takes.", "Traffic", "Demand."]


def test_a_bold_line_before_running_text_is_a_heading() -> None:
    """``<p><strong>...</strong></p>`` and a ``<b>`` alone between line breaks head the text
    after them; bold words inside a line, a bold line before no text, a bold sentence and
    a run of bold lines stay paragraphs; the lines are the plain text's either way."""
    html = ("<p><strong>Water woes </strong></p><p><strong>W</strong>orld Vision built <b>a</b> well.</p>"
            "<p>Line one<br><b>Su <i>titre</i></b><br>after it</p>"
            "<p><b>A bold sentence that ends.</b></p><p>Text.</p>"
            "<p><b>One of two</b></p><p><b>bold lines</b></p><p>Text.</p>"
            "<p><b>Before a list</b></p><ul><li>item</li></ul><p><b>Last bold</b></p>")
    blocks = walk_blocks(html)
    assert [(b.kind, b.text) for b in blocks] == [
        ("heading", "Water woes"), ("paragraph", "World Vision built a well."), ("paragraph", "Line one"),
        ("heading", "Su titre"), ("paragraph", "after it"), ("paragraph", "A bold sentence that ends."),
        ("paragraph", "Text."), ("paragraph", "One of two"), ("paragraph", "bold lines"), ("paragraph", "Text."),
        ("paragraph", "Before a list"), ("list", "item"), ("paragraph", "Last bold"),
    ]
    an = pagerank_analysis(parse_html(html), None, text=False)
    body = next(i for i, el in enumerate(an.scores.graph.elements) if el is not None and el.tag == "body")
    assert blocks_text(in_convention(region_blocks(an, body, []))).split("\n") == region_paragraphs(an, body, [])


def test_a_layout_table_is_not_a_data_table() -> None:
    html = "<table><tr><td><p>First paragraph.</p><p>Second one.</p></td><td><table><tr><td>x</td></tr></table></td></tr></table>"
    blocks = walk_blocks(html)
    assert [b.kind for b in blocks] == ["paragraph", "paragraph", "paragraph"]
    assert blocks_text(blocks) == "First paragraph.\nSecond one.\nx"


def test_a_table_with_text_outside_its_cells_keeps_its_lines_but_no_rows() -> None:
    (block,) = walk_blocks("<table><caption>Results</caption><tr><td>1</td><td>2</td></tr></table>")
    assert block.kind == "table" and block.rows == [] and block.text == "Results\n1\n2"


def test_lines_split_as_the_plain_text_splits_them() -> None:
    """Newlines in the page's text split lines (as the plain body does) within one block;
    an inline left-out element leaves the line around it whole."""
    blocks = walk_blocks("<p>one\ntwo <span class='ad'>AD</span>three</p><h2>Head\nline</h2>",
                         "//span[@class='ad']")
    assert [(b.kind, b.text) for b in blocks if b.is_body()] == [("paragraph", "one\ntwo three"), ("heading", "Head\nline")]
    assert [(b.kind, b.text, b.is_body()) for b in blocks if not b.is_body()] == [("boilerplate", "AD", False)]


def test_the_title_line_is_dropped_as_the_plain_text_drops_it() -> None:
    blocks = walk_blocks("<h1>The Headline</h1><p>Text.</p>", title="the  headline")
    assert [b.text for b in blocks] == ["Text."]


def test_scripts_and_hidden_elements_never_come_back() -> None:
    root = parse_html("<body><p>Shown.</p><script>var x='<p>no</p>'</script><div id='h'>Hidden</div></body>")
    hidden = set(root.xpath("//div[@id='h']"))
    blocks = typed_blocks(root.xpath("//body")[0], set(), hidden, DROP_TAGS, BLOCK_TAGS)
    assert [b.text for b in blocks] == ["Shown."]


def test_keep_names_are_checked() -> None:
    assert kept_kinds("captions, code") == {"caption", "code"}
    with pytest.raises(ValueError, match="cannot keep headlines: the kinds that may be kept are"):
        kept_kinds("headlines")
    assert not (BODY_KINDS & OPTIONAL_KINDS)


def _demo_pages(count: int) -> list[tuple[str, str]]:
    site = build_site(3, 12)
    pages = [p for p in site if p.content_type.startswith("text/html")][:count]
    return [(f"http://demo.example{p.path}", decode_html(p.body, p.content_type).text) for p in pages]


def test_blocks_give_the_lines_of_any_element_with_any_parts_left_out() -> None:
    """For any element of a page and any set of its descendants left out, the typed
    blocks' body lines are exactly the plain text's lines (the demo site's pages and the
    fixture, random choices)."""
    rng = random.Random(25)
    docs = _demo_pages(8) + [(URL, ARTICLE.read_text(encoding="utf-8"))]
    tried = 0
    for url, html in docs:
        an = pagerank_analysis(parse_html(html), url, text=False)
        elements = an.scores.graph.elements
        nodes = [i for i, el in enumerate(elements) if el is not None]
        for _ in range(12):
            node = rng.choice(nodes)
            inside = [i for i in range(node + 1, node + an.size[node]) if elements[i] is not None]
            skip = rng.sample(inside, min(len(inside), rng.randint(0, 6)))
            lines = region_paragraphs(an, node, skip)
            blocks = region_blocks(an, node, skip, url)
            assert blocks_text(in_convention(blocks)).split("\n") == (lines or [""]), (url, node, skip)
            tried += 1
    assert tried == 9 * 12


def test_the_blocks_are_made_from_the_plain_walk_that_gave_the_body(monkeypatch) -> None:
    """The block maker reads the events of the walk that gave the body's lines: it walks
    the left-out parts (the plain walk passed over them), never the body's element again,
    and gives the same blocks as a fresh walk."""
    an = pagerank_analysis(parse_html(ARTICLE.read_text(encoding="utf-8")), URL, text=False)
    element = an.scores.graph.elements[an.main]
    node_of = an.node_of()
    skip = [node_of[el] for el in element.xpath(".//figcaption | .//pre | .//p[@class='byline']")]
    lines = region_paragraphs(an, an.main, skip)
    _, left_out = region_element(an, an.main, skip)
    assert len(left_out) >= 3 and an.walked(an.main, skip) is not None
    walked_from: list = []
    real_walk = blockwalk.walk
    monkeypatch.setattr(blockwalk, "walk", lambda root: walked_from.append(root) or real_walk(root))
    monkeypatch.setattr(dom_walk, "walk", lambda root: walked_from.append(root) or real_walk(root))  # (walk_text's)
    blocks = region_block_maker(an, an.main, skip, URL)()
    assert len(walked_from) == len(left_out) and all(root in left_out for root in walked_from)
    assert an.walks == {}  # (the maker keeps the one walk it needs)
    assert blocks_text(in_convention(blocks)).split("\n") == lines
    assert {"caption", "code", "byline"} <= {b.kind for b in blocks if b.in_body is False}
    assert blocks == region_blocks(an, an.main, skip, URL)  # (walked afresh: the analysis keeps it no more)


def test_a_figure_is_one_block_whatever_the_order_of_picture_and_caption() -> None:
    blocks = walk_blocks("<figure><figcaption>Caption first</figcaption><img src='x.jpg'></figure><p>After.</p>"
                         "<p>Inline <img src='data:image/gif;base64,AA' data-src='/lazy.jpg'> picture.</p>"
                         "<img src='/pixel.gif' width='1' height='1'>")
    assert [(b.kind, b.text, b.src) for b in blocks] == [
        ("figure", "Caption first", "https://site.example/a/x.jpg"), ("paragraph", "After.", None),
        ("figure", "", "https://site.example/lazy.jpg"), ("paragraph", "Inline picture.", None)]


_WORDS = ("harbour council budget ferry museum election storm bridge farmers railway festival court market "
          "tunnel library teachers energy coast village mayor contract airport orchestra lighthouse").split()


def _layout_pages(n: int = 6, bold: str = "") -> list[Page]:
    """Pages of one template: a byline, paragraphs, a subheading, a list and a table (and
    ``bold`` between the first paragraphs and the subheading)."""
    rng = random.Random(7)
    words = lambda k: " ".join(rng.choice(_WORDS) for _ in range(k)).capitalize()  # noqa: E731
    pages = []
    for i in range(n):
        body = (f"<p class='byline'>By {words(2)}</p>" + "".join(f"<p>{words(30)}.</p>" for _ in range(3))
                + bold.format(i=i) + f"<h2>{words(4)}</h2><p>{words(25)}.</p><ul><li>{words(6)}</li><li>{words(5)}<ol><li>{words(4)}</li>"
                f"</ol></li></ul><table><tr><th>{words(1)}</th><th>{words(1)}</th></tr><tr><td>{words(2)}</td>"
                f"<td>{words(2)} {i}</td></tr></table><p>{words(28)}.</p>")
        html = (f"<html><head><title>{words(6)}</title></head><body><nav><a href='/'>Home</a> <a href='/a'>About</a>"
                f"</nav><h1>{words(6)}</h1><div class='story'>{body}</div><footer>The Harbour Times</footer>"
                "</body></html>")
        pages.append(Page(html, url=f"https://harbour.example/news/{i}.html"))
    return pages


def test_a_layout_body_comes_as_typed_blocks() -> None:
    import newsstemmer

    pages = _layout_pages()
    site = newsstemmer.learn(pages)
    article = newsstemmer.extract(pages[2].html, site, url=pages[2].url,
                                  options=newsstemmer.ExtractOptions(fallback="region", page_choice=False,
                                                                     include_sub=True))  # (short parts: SUB)
    assert article.matched and article.typed, article.method
    assert blocks_text(in_convention(article.blocks)) == article.body
    by_kind = {}
    for b in article.blocks:
        by_kind.setdefault(b.kind, []).append(b)
    (listing,) = by_kind["list"]
    assert listing.item_depths == [0, 0, 1] and listing.item_ordered == [False, False, True]
    (table,) = by_kind["table"]
    assert table.header and len(table.rows) == 2 and table.rows[1][1].endswith(" 2")
    assert all(b.is_body() for b in article.blocks if b.kind in ("paragraph", "list", "table"))



def test_a_layout_types_a_bold_line_heading_running_text_as_a_heading() -> None:
    import newsstemmer

    rng = random.Random(11)
    words = lambda k: " ".join(rng.choice(_WORDS) for _ in range(k)).capitalize()  # noqa: E731
    pages = []
    for i in range(6):
        story = (f"<p>{words(30)}.</p><p><strong>{words(4)} {i}</strong></p><p>{words(28)}.</p>"
                 f"<p><b>{words(9)} {i}.</b></p><p>{words(26)}.</p>")
        html = (f"<html><head><title>{words(6)}</title></head><body><nav><a href='/'>Home</a> <a href='/a'>About</a>"
                f"</nav><h1>{words(6)}</h1><div class='story'>{story}</div><footer>The Harbour Times</footer>"
                "</body></html>")
        pages.append(Page(html, url=f"https://harbour.example/news/{i}.html"))
    site = newsstemmer.learn(pages)
    article = newsstemmer.extract(pages[2].html, site, url=pages[2].url,
                                  options=newsstemmer.ExtractOptions(fallback="region", page_choice=False))
    assert article.matched and article.typed, article.method
    assert blocks_text(in_convention(article.blocks)) == article.body
    kinds = [(b.kind, b.level, b.text.split()[-1]) for b in article.blocks]
    assert ("heading", 3, "2") in kinds  # the short bold line before the paragraph
    assert ("paragraph", None, "2.") in kinds  # a bold sentence stays a paragraph


def test_body_blocks_alone_are_the_body_blocks_among_all() -> None:
    """typed_blocks(left_out_blocks=False) gives the blocks of the body the full walk gives,
    the left-out parts untyped but still parting the lines around them (a left-out box
    between two lines of one element, an inline one inside a line, one after a bold line,
    empty and hidden ones that part nothing)."""
    from newsstemmer.dom.parse import parse_html

    page = parse_html(
        "<html><body><div id=main><p>First line of text here.</p>"
        "<div class=txt>Before the box<div class=ad>Advert <b>now</b></div>after the box</div>"
        "<p>Inline <span class=ad>AD</span> inside a line.</p>"
        "<p><strong>A bold line</strong></p><div class=ad>box after bold</div><p>Running text after it.</p>"
        "<p><strong>Another bold line</strong></p><div class=ad>  </div><p>Running text again.</p>"
        "<p><b>Bold three</b></p><div class=ad><script>x()</script><span class=h>hidden</span></div>"
        "<p>More running text.</p><div class=ad><img src=/p.png></div><p>Last words.</p>"
        "</div></body></html>")
    main = page.find(".//div[@id='main']")
    left_out = set(main.iterfind(".//*[@class='ad']"))
    hidden = set(main.iterfind(".//*[@class='h']"))
    drop = frozenset({"script", "style"})
    tags = frozenset({"p", "div"})
    full = typed_blocks(main, left_out, hidden, drop, tags, base_url="http://example.com/a")
    alone = typed_blocks(main, left_out, hidden, drop, tags, base_url="http://example.com/a", left_out_blocks=False)
    assert any(not b.in_body for b in full)
    assert alone == [b for b in full if b.in_body]  # (every field: Block compares them all)
    assert [b.text for b in alone if b.kind == "heading"] == ["Another bold line", "Bold three"]


def test_left_out_pictures_alone_are_the_full_walks_figures_and_captions() -> None:
    """The body's blocks with the left-out parts' figures and captions put back at their
    marks (single.typed.with_left_out_pictures) hold the full walk's figure and caption blocks,
    in the same places among the body's: a picture in a link list (a ``links`` part), a
    caption named so, a figure with its caption, one inside a hidden part (never back), a
    figcaption inside a list, and boxes with none (not walked)."""
    page = parse_html(
        "<html><body><div id=main><p>First line of text here.</p>"
        "<ul class=ad><li><a href=/a>One link</a></li><li><a href=/b>Two</a><img src=/l.png></li></ul>"
        "<p>Second line of running text.</p><div class=photo-caption>A caption named so.</div>"
        "<div class=ad>Advert <b>now</b></div><p>Third line.</p>"
        "<div class=ad><figure><img src=/f.jpg><figcaption>Fig caption.</figcaption></figure></div>"
        "<p>Fourth line.</p><div class=ad><span class=h><img src=/hidden.png></span>Only text.</div>"
        "<div class=ad><ul><li><figcaption>Caption in a list</figcaption> item</li></ul></div>"
        "<figure><img src=/kept.jpg><figcaption>Kept caption.</figcaption></figure><p>Last words.</p>"
        "</div></body></html>")
    main = page.find(".//div[@id='main']")
    left_out = set(main.iterfind(".//*[@class='ad']")) | set(main.iterfind(".//*[@class='photo-caption']"))
    hidden = set(main.iterfind(".//*[@class='h']"))
    drop = frozenset({"script", "style"})
    tags = frozenset({"p", "div", "ul", "li", "figure", "figcaption"})
    base = "http://example.com/a"
    full = typed_blocks(main, left_out, hidden, drop, tags, base_url=base)
    marks: list = []
    alone = typed_blocks(main, left_out, hidden, drop, tags, base_url=base, left_out_blocks=False, marks=marks)
    assert len(marks) == 6  # (every left-out part: each gives a line or a picture)
    pictures = with_left_out_pictures(alone, marks, hidden, drop, tags, base)
    wanted = [b for b in full if b.in_body or b.kind in ("figure", "caption")]
    assert pictures == wanted
    assert [b.src for b in pictures if b.src] == [
        "http://example.com/l.png", "http://example.com/f.jpg", "http://example.com/kept.jpg"]
    assert [b.text for b in pictures if b.kind == "caption"] == ["A caption named so.", "Caption in a list"]
    assert with_left_out_pictures(alone, [], hidden, drop, tags, base) is alone


def test_captions_and_pictures_are_the_same_from_the_body_blocks_as_from_all() -> None:
    """An article's captions and pictures asked after its Markdown (the body's blocks and
    the left-out parts' figures and captions alone) are those of its full blocks."""
    html = ("<html><head><title>T</title></head><body><article class=story>"
            + "".join(f"<p>Paragraph {k} of the story, with enough words to be running text here.</p>" for k in range(8))
            + "<div class=related><img src=/r.jpg><a href=/x>Related story</a></div>"
            "<div class=caption>Photo: a left-out caption of the story's picture.</div>"
            + "".join(f"<p>More text {k}, the story goes on with further sentences.</p>" for k in range(6))
            + "</article><footer>Footer links</footer></body></html>")
    fast = extract_single(Page(html, url="http://example.com/s"))
    fast.body_markdown
    full = extract_single(Page(html, url="http://example.com/s"))
    full.blocks  # noqa: B018
    assert (fast.captions, fast.images) == (full.captions, full.images) == (
        ["Photo: a left-out caption of the story's picture."], ["http://example.com/r.jpg"])
    assert fast._blocks is None  # (the full blocks were never made: the pictures' own path)
    assert fast.body_markdown == full.body_markdown and fast.body_html == full.body_html


def test_gives_text_agrees_with_the_written_text():
    from newsstemmer.blocks import Block, blocks_text, gives_text

    blocks = [Block("paragraph", "One."), Block("heading", ""), Block("list", "a\nb"), Block("paragraph", "Two.")]
    for body in ("One.\na\nb\nTwo.", "One.\na\nb\nTwo", "One.\na\nb\nTwo.\n", "One.a\nb\nTwo.", "", "One.\n\na\nb\nTwo."):
        for picked in (blocks, blocks[:1], blocks[1:2], [], blocks[2:]):
            assert gives_text(picked, body) == (blocks_text(picked) == body), (picked, body)


@pytest.mark.parametrize("names, kind", [
    ({"class": "story-Byline top"}, "byline"), ({"class": "caption byline"}, "caption"),
    ({"class": "x-dateline-caption"}, "dateline"), ({"class": "text", "id": "byline"}, "paragraph"),
    ({"id": "photo-CAPTION"}, "caption"), ({}, "paragraph"), ({"class": ""}, "paragraph"),
    ({"class": "\u00e9l\u00e9ment BYLINE"}, "byline"), ({"class": "bylıne"}, "byline"),
    ({"class": "BYL\u0130NE"}, "byline"), ({"class": "capt\u0131on"}, "caption"), ({"class": "rubrique"}, "paragraph"),
])
def test_kept_names_type_a_kept_block_as_the_regex_does(names: dict, kind: str) -> None:
    """``kept_name_kind`` (substring look-ups for ASCII names) gives the case-blind regex's
    answer: the leftmost word of the class, else of the id; non-ASCII names folded as the
    regex folds them (dotless and dotted i match ``i``), the kind named as blocks name it
    (before, such a name gave an unknown kind, "bylıne", and the blocks failed)."""
    import re

    from lxml import etree

    from newsstemmer.leftout import kept_name_kind

    el = etree.Element("p", **names)
    assert kept_name_kind(el) == kind
    value = names.get("class") or names.get("id")
    found = re.search(r"byline|dateline|caption", value or "", re.I)
    assert kind == ({"b": "byline", "d": "dateline", "c": "caption"}[found.group(0)[0].lower()] if found
                    else "paragraph")


def test_a_layout_line_kind_is_the_same_with_parents_remembered() -> None:
    """The layouts' line kinds with the nearest deciding ancestor remembered per parent (one
    dict for the page's lines) are those found by walking up from each line's element."""
    from newsstemmer.dom.parse import parse_html
    from newsstemmer.layout.typed import _line_kind, _links

    tree = parse_html(
        "<html><body><div><p>a</p><p>b <a href='/x'>x</a></p><blockquote><p>q</p><div><p>q2</p></div></blockquote>"
        "<ul><li>i<ul><li><p>j</p></li></ul></li></ul><ol><li>k</li></ol>"
        "<table><tr><th>h</th><td><span>c</span></td></tr></table><table><tr><td><p>layout</p></td></tr></table>"
        "<figure><img src='/p.jpg'><figcaption><span>cap</span></figcaption></figure><pre><b>code</b></pre>"
        "<h2>head</h2><a href='/alone'>alone</a></div></body></html>")
    nearest: dict = {}
    tables: dict = {}
    elements = list(tree.iter())
    for el in elements + elements[::-1]:
        assert _line_kind(el, nearest, tables) == _line_kind(el), el.tag
    assert sorted(tables.values()) == [False, True]  # (the layout table, the data table)
    assert _line_kind(None, nearest) == ("paragraph", None, None)
    (alone,) = [a for a in tree.iter("a") if a.get("href") == "/alone"]
    assert _links([alone, alone.getparent().find("p")], None, None) == [("alone", "/alone")]


@pytest.mark.parametrize("html, links", [
    ("<p>One line.</p> <a href='https://e.example/x'><div>Card title</div></a><p>After.</p>", []),
    ("<p>One line.</p><a href='https://e.example/x'><div>Card title</div></a><p>After.</p>",
     [("Card title", "https://e.example/x")]),
    ("<p>One line.</p> <a href='https://e.example/x'> <div>Card title</div></a> <p>After.</p>", []),
])
def test_whitespace_passed_over_keeps_a_block_links_where_they_were(html: str, links: list) -> None:
    """Whitespace opening a run of text makes no line and is passed over; a link noted in such
    a run still ends with it (it never reaches the next run's line), as when the run was
    made: with and without the plain walk's lines, and with the left-out parts typed."""
    from newsstemmer.dom.parse import parse_html

    main = parse_html(f"<html><body><main>{html}</main></body></html>").find(".//main")
    walked = blockwalk.walk_text(main, set(), DROP_TAGS, BLOCK_TAGS)
    walked.lines()
    for blocks in (typed_blocks(main, (), set(), DROP_TAGS, BLOCK_TAGS, None, "https://e.example/"),
                   typed_blocks(main, (), set(), DROP_TAGS, BLOCK_TAGS, None, "https://e.example/", walked,
                                left_out_blocks=False, marks=[])):
        assert [(b.text, list(b.links)) for b in blocks] == [("One line.", []), ("Card title", links), ("After.", [])]


def test_lines_of_other_kinds_left_unmade_change_no_figure_or_caption() -> None:
    """``typed_blocks(only_kinds=...)`` (the pictures' walk of a left-out part) gives the
    figure and caption blocks of the full walk, links included: a link around a figure
    (its link reaches the caption's line), a caption after a bold line, a picture alone."""
    page = parse_html(
        "<html><body><div id=main><p>Body line.</p><div class=ad><p>Intro <b>bold</b> text.</p>"
        "<a href=/big.jpg><figure><img src=/f.jpg><figcaption>Linked <a href=/c>caption</a>.</figcaption></figure></a>"
        " Between <a href=/y>a link</a><p><strong>Bold line</strong></p><figcaption>Second caption.</figcaption>"
        "<p>Last <img src=/alone.png> words</p></div></div></body></html>")
    main = page.find(".//div[@id='main']")
    part = main.find(".//div[@class='ad']")
    drop = frozenset({"script", "style"})
    tags = frozenset({"p", "div", "figure", "figcaption"})
    base = "http://example.com/a"
    kinds = frozenset({"figure", "caption"})
    full = [b for b in typed_blocks(part, (part,), set(), drop, tags, base_url=base, left_out_parts=False)
            if b.kind in kinds]
    only = [b for b in typed_blocks(part, (part,), set(), drop, tags, base_url=base, left_out_parts=False,
                                    only_kinds=kinds) if b.kind in kinds]
    assert only == full and len(full) == 3
    assert [list(b.links) for b in full][0] == [("Linked caption.", "http://example.com/big.jpg"),
                                                ("caption", "http://example.com/c")]
def test_walked_lines_equal_the_normalised_lines() -> None:
    """``WalkedText.lines`` (whitespace-only lines passed over before the split) gives what
    ``_norm`` of each line, empty ones dropped, gives: every kind of whitespace str.split reads."""
    import random

    from newsstemmer.blockwalk import WalkedText, _norm

    pieces = ["a", "bé", "东京", " ", "\t", "\n", "\r", "\x0b", "\x0c", "\x1c", "\x1f", "\x85", "\xa0", "\u2003",
              "\u2028", "\u3000", "\u200b", "\ufeff", "", "x y", "\n\n"]
    rng = random.Random(23)
    for _ in range(500):
        parts = [rng.choice(pieces) for _ in range(rng.randrange(0, 30))]
        walked = WalkedText(parts, [], [])
        assert walked.lines() == [line for line in map(_norm, "".join(parts).split("\n")) if line]
