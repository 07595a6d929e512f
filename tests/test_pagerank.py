"""Tests of DOM PageRank + DensitySum single-page extraction (SPEC §4)."""

from __future__ import annotations

import random
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from newsstemmer.dom.parse import HTMLParseError, parse_html
from newsstemmer.single.pagerank import (
    PageRankOptions,
    PageRankResult,
    dom_pagerank,
    pagerank_extract,
    solve_tree,
)

#: The document's own method: text-uniform weights, α = 0.5, the DensitySum core alone.
PAPER = PageRankOptions(
    alpha=0.5,
    weighting="uniform",
    text_weight="unit",
    similarity="dice",
    link_weight=1.0,
    comment_weight=1.0,
    sidebar_weight=1.0,
    headline_weight=0.0,
    to_container=False,
    climb_share=0.0,
    link_density=1.0,
    drop_comments=False,
    drop_named=False,
)

LOREM = (
    "The council met on Tuesday to discuss the new budget for the harbour district, "
    "and members argued for three hours about the cost of repairing the old sea wall. "
)


def para(i: int, topic: str = "harbour") -> str:
    return f"<p>Paragraph {i}: {LOREM.replace('harbour', topic)}</p>"


def page(body: str, title: str = "Harbour wall repairs approved", head: str = "") -> str:
    return f"<html><head><title>{title} - Daily Bugle</title>{head}</head><body>{body}</body></html>"


NEWS_PAGE = page(
    """
    <div id="top"><ul class="menu">
      <li><a href="/">Home</a></li><li><a href="/world">World</a></li>
      <li><a href="/sport">Sport</a></li><li><a href="/culture">Culture</a></li>
    </ul></div>
    <div id="layout">
      <div id="story">
        <h1>Harbour wall repairs approved</h1>
        <p class="byline">By Ann Writer</p>
        """
    + "".join(para(i) for i in range(6))
    + """
        <div class="share"><a href="#">Share on Facebook</a> <a href="#">Tweet this</a></div>
      </div>
      <div id="side">
        <h3>Most read</h3>
        <ul>"""
    + "".join(f'<li><a href="/s{i}">Another story number {i} about something else</a></li>' for i in range(8))
    + """</ul>
        <p>Subscribe to our newsletter for daily updates.</p>
      </div>
    </div>
    <div id="footer"><p>Copyright 2024 Daily Bugle. All rights reserved.</p>
      <a href="/about">About</a> <a href="/contact">Contact</a></div>
    """
)


# -- the solver ------------------------------------------------------------------------


def random_forest(n: int, rng: random.Random, roots: int = 1) -> list[int]:
    parent = [-1] * n
    for i in range(roots, n):
        # Mix deep chains and bushy nodes.
        parent[i] = i - 1 if rng.random() < 0.3 else rng.randrange(i)
    return parent


def dense_solution(parent: list[int], u: list[float], alpha: float):
    sparse = pytest.importorskip("scipy.sparse")
    linalg = pytest.importorskip("scipy.sparse.linalg")
    np = pytest.importorskip("numpy")
    n = len(parent)
    rows = [i for i, p in enumerate(parent) if p >= 0]
    cols = [p for p in parent if p >= 0]
    adj = sparse.coo_matrix((np.ones(len(rows)), (rows, cols)), shape=(n, n)).tocsr()
    adj = adj + adj.T
    lap = sparse.diags(np.asarray(adj.sum(axis=1)).ravel()) - adj
    system = (sparse.identity(n) + alpha * lap).tocsc()
    return linalg.spsolve(system, np.asarray(u, dtype=float))


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("alpha", [0.0, 0.5, 5.0, 100.0])
def test_solver_equals_sparse_solve_on_random_trees(seed: int, alpha: float):
    rng = random.Random(seed)
    n = rng.choice([1, 2, 3, 17, 200, 1500])
    parent = random_forest(n, rng)
    u = [rng.random() if rng.random() < 0.6 else 0.0 for _ in range(n)]
    expected = dense_solution(parent, u, alpha)
    got = solve_tree(parent, u, alpha)
    assert len(got) == n
    assert max(abs(a - b) for a, b in zip(got, expected)) < 1e-9


def test_solver_handles_forests():
    rng = random.Random(42)
    parent = random_forest(300, rng, roots=4)
    u = [rng.random() for _ in range(300)]
    expected = dense_solution(parent, u, 0.5)
    assert max(abs(a - b) for a, b in zip(solve_tree(parent, u, 0.5), expected)) < 1e-9


def test_solver_on_a_path_of_two():
    # (1 + α) f0 − α f1 = 1, −α f0 + (1 + α) f1 = 0, α = 1  →  f = (2/3, 1/3).
    assert solve_tree([-1, 0], [1.0, 0.0], 1.0) == pytest.approx([2 / 3, 1 / 3], abs=1e-12)


def test_solver_keeps_mass():
    # 1ᵀ(I + αL) = 1ᵀ, so Σf = Σu whatever the tree.
    rng = random.Random(7)
    parent = random_forest(500, rng)
    u = [rng.random() for _ in range(500)]
    assert sum(solve_tree(parent, u, 3.0)) == pytest.approx(sum(u), rel=1e-12)


def test_solver_on_a_deep_chain_is_iterative():
    n = 200_000
    f = solve_tree([i - 1 for i in range(n)], [1.0] * n, 0.5)
    assert all(abs(x - 1.0) < 1e-9 for x in f)  # a constant u is a fixed point


@pytest.mark.parametrize(
    ("parent", "u"),
    [([-1, 0], [1.0]), ([-1, 1], [1.0, 1.0]), ([0], [1.0])],
)
def test_solver_rejects_malformed_input(parent, u):
    with pytest.raises(ValueError):
        solve_tree(parent, u, 0.5)


# -- the graph ---------------------------------------------------------------------------


def test_graph_nodes_follow_the_walk_and_subtrees_are_ranges():
    scores = dom_pagerank(parse_html(NEWS_PAGE))
    graph = scores.graph
    n = len(graph.parent)
    assert graph.parent[0] == -1 and all(0 <= graph.parent[i] < i for i in range(1, n))
    # elements in document order (those of the graph: scripts, <head> etc. are not in it)
    in_graph = [el for el in graph.elements if el is not None]
    order = {el: k for k, el in enumerate(scores.root.iter())}
    assert [order[el] for el in in_graph] == sorted(order[el] for el in in_graph)
    # the subtree of every node is the range of numbers from it up to its size
    size = [1] * n
    for i in range(n - 1, 0, -1):
        size[graph.parent[i]] += size[i]
    for i in range(n):
        for j in range(i + 1, i + size[i]):
            k = j
            while k > i:
                k = graph.parent[k]
            assert k == i


def test_text_and_tail_hang_on_the_right_nodes():
    root = parse_html("<html><body><div>lead words<b>bold words</b>tail words</div>after</body></html>")
    graph = dom_pagerank(root, PAPER).graph
    body, div, b = root[0], root[0][0], root[0][0][0]
    index = {el: i for i, el in enumerate(graph.elements) if el is not None}
    texts = [(graph.parent[i], graph.chars[i]) for i, el in enumerate(graph.elements) if el is None]
    # "lead words" and "tail words" on the div, "bold words" on b, "after" on body
    assert texts == [(index[div], 9), (index[b], 9), (index[div], 9), (index[body], 5)]


def test_roles_come_from_the_first_of_the_class_id_style_attributes():
    from newsstemmer.single.signals.page_signals import BOILER, HIDDEN, IN_COMMENTS, IN_SIDEBAR, role_of

    assert role_of("div", [("class", "comments-area")]) == IN_COMMENTS
    assert role_of("div", [("id", "sidebar"), ("class", "share-buttons")]) == IN_SIDEBAR | BOILER
    assert role_of("div", [("hidden", "")]) == HIDDEN
    assert role_of("div", [("style", "color: red; display : none")]) == HIDDEN
    assert role_of("div", [("aria-hidden", "false"), ("href", "/comments")]) == 0
    assert role_of("body", [("class", "comments sidebar")]) == 0  # page-level names say nothing
    assert role_of("div", [("class", "comments"), ("class", "story")]) == IN_COMMENTS


def test_entity_nodes_give_their_tail_once():
    root = etree.Element("html")
    body = etree.SubElement(root, "body")
    p = etree.SubElement(body, "p")
    p.text = "Fish "
    amp = etree.Entity("amp")
    amp.tail = " chips for supper tonight, " + LOREM
    p.append(amp)
    res = pagerank_extract(root)
    assert res.body.count("chips for supper") == 1


# -- finding the main content ------------------------------------------------------------


def test_main_element_is_the_article_div():
    res = pagerank_extract(NEWS_PAGE)
    assert isinstance(res, PageRankResult)
    assert res.xpath.endswith("div[2]/div[1]")  # div#story inside div#layout
    assert "Paragraph 0:" in res.body and "Paragraph 5:" in res.body
    for noise in ("Most read", "Another story", "Copyright", "Sport", "Share on Facebook"):
        assert noise not in res.body
    assert res.title == "Harbour wall repairs approved"
    assert res.score > 0


def test_document_method_also_finds_the_article():
    res = pagerank_extract(NEWS_PAGE, options=PAPER)
    assert "Paragraph 3:" in res.body
    assert "Another story" not in res.body


def test_body_is_one_line_per_block_and_keeps_inline_words_whole():
    html = page(
        "<div>"
        + "".join(para(i) for i in range(3))
        + "<p>Con<b>cat</b>enated and <a href='#'>linked</a> words.</p></div>"
    )
    res = pagerank_extract(html)
    lines = res.body.split("\n")
    assert lines[0].startswith("Paragraph 0:")
    assert "Concatenated and linked words." in lines
    assert res.paragraphs == lines
    assert all(line == " ".join(line.split()) for line in lines)


def test_article_split_into_sections_is_taken_whole():
    sections = "".join(
        f"<section><h2>Part {k}</h2>" + "".join(para(10 * k + i) for i in range(2)) + "</section>" for k in range(4)
    )
    html = page(f"<nav><a href='/'>Home</a> <a href='/x'>News</a></nav><article>{sections}</article>")
    res = pagerank_extract(html)
    for k in range(4):
        assert f"Paragraph {10 * k}:" in res.body
    assert "Home" not in res.body


def test_reader_comments_and_link_lists_are_left_out():
    comments = "".join(
        f'<li class="comment"><p>Reader {i} says: I think the council wasted money on the harbour wall.</p></li>'
        for i in range(4)
    )
    links = "".join(f'<li><a href="/t{i}">Tag number {i}</a></li>' for i in range(10))
    html = page(
        "<div id='post'>"
        + "".join(para(i) for i in range(6))
        + f"<ul class='links'>{links}</ul><ol id='comments'>{comments}</ol></div>"
    )
    res = pagerank_extract(html)
    assert "Paragraph 5:" in res.body
    assert "Reader 1 says" not in res.body
    assert "Tag number" not in res.body


def test_hidden_elements_are_skipped():
    html = page("<div>" + "".join(para(i) for i in range(4)) + "<p hidden>Secret text</p>"
                "<div style='display: none'>Invisible text</div></div>")
    res = pagerank_extract(html)
    assert "Paragraph 2:" in res.body
    assert "Secret" not in res.body and "Invisible" not in res.body


def test_image_led_page_picks_the_gallery_with_media_weight():
    """The document's case: captions and images are the content, a profile box is the text."""
    figures = "".join(
        f'<figure><img src="/photo{i}.jpg" width="600" height="400">'
        f"<figcaption>{i}. Two cats asleep</figcaption></figure>"
        for i in range(1, 13)
    )
    profile = "".join(
        f"<p>Our editor {i} loves animals, writes about cats and dogs every day, and has kept a blog "
        "for ten years about life with pets in a small flat in the middle of the city.</p>"
        for i in range(5)
    )
    html = page(
        f'<div id="wrap"><div id="gallery">{figures}</div><div id="profile">{profile}</div></div>',
        title="Twelve pairs of animals that never leave each other",
    )
    plain = pagerank_extract(html)
    assert "Our editor" in plain.body  # text alone points at the profile box
    res = pagerank_extract(html, options=PageRankOptions(media_weight=1.0))
    assert res.xpath.endswith("div[1]")  # the gallery
    assert "1. Two cats asleep" in res.body and "12. Two cats asleep" in res.body
    assert "Our editor" not in res.body


def test_media_weight_ignores_icons_and_pixels():
    icons = "".join(f'<img src="/i{i}.png" width="16" height="16">' for i in range(40))
    html = page(f"<div id='icons'>{icons}</div><div id='text'>" + "".join(para(i) for i in range(5)) + "</div>")
    res = pagerank_extract(html, options=PageRankOptions(media_weight=1.0))
    assert "Paragraph 4:" in res.body


def test_japanese_page():
    body = "".join(
        f"<p>東京都は{i}日、湾岸地区の防潮堤の修理に関する予算を承認した。議会では三時間にわたり費用について議論が続いた。</p>"
        for i in range(5)
    )
    side = "".join(f"<li><a href='/r{i}'>人気記事その{i}</a></li>" for i in range(10))
    html = page(
        f"<div id='main'><h1>防潮堤の修理予算を承認</h1>{body}</div><ul id='rank'>{side}</ul>",
        title="防潮堤の修理予算を承認",
    )
    res = pagerank_extract(html)
    assert res.title == "防潮堤の修理予算を承認"
    assert "湾岸地区の防潮堤" in res.body
    assert "人気記事" not in res.body


# -- the title ---------------------------------------------------------------------------


def test_title_prefers_the_heading_that_matches_title():
    html = page("<h1>Daily Bugle</h1><div><h2>Harbour wall repairs approved</h2>" + para(1) + "</div>")
    assert pagerank_extract(html).title == "Harbour wall repairs approved"


def test_title_falls_back_to_og_title_then_title_segment():
    og = '<meta property="og:title" content="Harbour wall repairs approved at last">'
    assert pagerank_extract(page(para(1), head=og)).title == "Harbour wall repairs approved at last"
    assert pagerank_extract(page(para(1))).title == "Harbour wall repairs approved"


def test_title_line_is_not_repeated_in_the_body():
    res = pagerank_extract(NEWS_PAGE)
    assert not res.body.startswith("Harbour wall repairs approved")


# -- robustness --------------------------------------------------------------------------


def test_deep_nesting_does_not_recurse():
    root = etree.Element("html")
    body = etree.SubElement(root, "body")
    el = body
    for _ in range(10_000):
        el = etree.SubElement(el, "div")
    for i in range(3):
        p = etree.SubElement(el, "p")
        p.text = f"Deep paragraph {i}: " + LOREM
    res = pagerank_extract(root)
    assert "Deep paragraph 2:" in res.body
    scores = dom_pagerank(root)
    assert len(scores.f) == len(scores.g) > 10_000


@pytest.mark.parametrize("bad", ["", "   \n\t ", b"", b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8, b"\x00" * 64])
def test_empty_or_binary_input_raises_parse_error(bad):
    with pytest.raises(HTMLParseError), warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # (bytes)
        pagerank_extract(bad)
    assert issubclass(HTMLParseError, ValueError)


def test_bytes_are_deprecated_but_still_decoded():
    with pytest.warns(DeprecationWarning, match="bytes"):
        from_bytes = pagerank_extract(NEWS_PAGE.encode("cp1252"))
    with pytest.warns(DeprecationWarning):
        scores = dom_pagerank(NEWS_PAGE.encode("utf-8"))
    assert from_bytes == pagerank_extract(NEWS_PAGE)
    assert scores.signals.headline == "Harbour wall repairs approved"


def test_other_input_types_are_refused():
    with pytest.raises(TypeError):
        pagerank_extract(12345)  # type: ignore[arg-type]


def test_text_and_tree_input_give_the_same_result():
    from_text = pagerank_extract(NEWS_PAGE)
    tree = parse_html(NEWS_PAGE)
    before = etree.tostring(tree)
    assert pagerank_extract(tree) == from_text
    assert etree.tostring(tree) == before  # the caller's tree is left alone


@pytest.mark.parametrize(
    "html",
    [
        "just some words, no markup at all",
        "<p>unclosed <b>tags <i>everywhere",
        "<html><head><title>Only a title</title></head></html>",
        "<table><tr><td>cell</td></tr></table>" * 50,
        "<div>" * 3000 + "text" + "</div>" * 3000,
        "<script>var x = '<p>not text</p>';</script><p>visible</p>",
        "<html><body><form><p>" + LOREM + "</p></form></body></html>",
    ],
)
def test_odd_pages_do_not_raise(html):
    res = pagerank_extract(html)
    assert isinstance(res.body, str) and isinstance(res.title, str)


def test_scripts_never_reach_the_body():
    res = pagerank_extract("<script>var x = '<p>not text</p>';</script><p>visible</p>")
    assert res.body == "visible"


_PIECES = list("<>/=\"' abcdiv p&;\n\x00é日") + ["<p>", "</div>", "<a href=x>", "<!--"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=120))
def test_any_text_gives_a_result_or_a_parse_error(pieces):
    text = "".join(pieces)
    try:
        res = pagerank_extract(text)
    except HTMLParseError:
        return
    assert isinstance(res, PageRankResult)


@pytest.mark.parametrize(
    "options",
    [
        PageRankOptions(weighting="nope"),
        PageRankOptions(text_weight="nope"),
        PageRankOptions(similarity="nope"),
    ],
)
def test_unknown_option_values_are_rejected(options):
    with pytest.raises(ValueError):
        pagerank_extract(NEWS_PAGE, options=options)


def test_graph_roles_and_title_weights_match_their_definitions():
    """The graph's walk reads a role only where an element has an attribute a role comes
    from, and tests a text's words against the title and description together first:
    every element's role is still ``element_role``'s, and every text node's weight u the
    capped length times (1 − β) + β · (title cover + description cover)."""
    from newsstemmer.single.domgraph import build_graph
    from newsstemmer.single.signals.page_signals import WORD, element_role, page_signals, terms

    html = (
        "<html><head><title>Harbour budget approved</title>"
        "<meta name='description' content='The council approved the harbour budget on Tuesday'></head>"
        "<body><div class='sidebar-right'><a href='/x'>Other news today</a></div>"
        "<div id='footer-links' data-x='1'><span title='t'>Contact us</span></div>"
        "<p style='color: red'>The harbour budget was approved.</p><p aria-hidden='false'>Nothing alike here.</p>"
        "<section class='related-posts' lang='en'><p>Council meets again soon</p></section>"
        "<img src='a.jpg' alt='a'><p>Numbers: 2026 and more</p></body></html>"
    )
    root = parse_html(html)
    opts = PageRankOptions()
    sig = page_signals(root)
    graph = build_graph(root.find("body"), opts, sig)
    title, desc = terms(sig.meta_title or sig.title), terms(sig.description)
    for i, el in enumerate(graph.elements):
        if el is not None:
            assert graph.roles[i] == element_role(el.tag, el), el.tag
    assert any(graph.roles)  # (the sidebar, the footer id and the related section have roles)
    texts = [t for t in root.find("body").itertext() if t.strip()]
    weights = []
    for text in texts:
        words = WORD.findall(text.lower())
        n = len("".join(words))
        sim = len(title & set(words)) / len(title) + len(desc & set(words)) / len(desc)
        weights.append(min(n, opts.text_cap) / opts.text_cap * ((1 - opts.beta) + opts.beta * sim))
    got = [graph.u[i] for i, el in enumerate(graph.elements) if el is None]
    assert len(got) == len(weights)
    for text in ("The harbour budget was approved.", "Nothing alike here.", "Numbers: 2026 and more"):
        k = texts.index(text)  # (text outside links, sidebars and comments: no factor)
        assert got[k] == pytest.approx(weights[k]), text
    assert weights[texts.index("Nothing alike here.")] == pytest.approx(16 / 100 * (1 - opts.beta))
    assert weights[texts.index("The harbour budget was approved.")] > 27 / 100 * (1 - opts.beta)
