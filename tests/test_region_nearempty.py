"""No near-empty body from ``region`` on today's markup (issue 23): hidden content read as a
browser shows it, page-builder class names that name no role, the guard that keeps a longer
body, and the paragraph region that replaces a near-empty one.

Pages are built here; nothing is read from the datasets.
"""

from __future__ import annotations

import random

from newsstemmer import Page
from newsstemmer.dom.parse import parse_html
from newsstemmer.evaluation import shingle_prf
from newsstemmer.single import extract_single
from newsstemmer.single.pagerank import pagerank_analysis
from newsstemmer.single.region.extractor import RegionExtractor
from newsstemmer.single.region.fallback import near_empty_alternative, paragraph_region
from newsstemmer.single.region.reveal import revealed
from newsstemmer.single.signals.page_signals import BOILER, IN_COMMENTS, IN_SIDEBAR, role_of

_WORDS = ("the of and a to in is was for on that with as by at from river council budget school plan water "
          "road market hospital court police energy transport housing").split()
TITLE = "Council approves the new river bridge after a long budget fight"


def _paragraphs(seed: int, n: int = 8) -> list[str]:
    rng = random.Random(seed)
    return [" ".join(" ".join(rng.choice(_WORDS) for _ in range(rng.randint(12, 20))).capitalize() + "."
                     for _ in range(3)) for _ in range(n)]


def _recall(body: str, gold: list[str]) -> float:
    return shingle_prf(body, "\n".join(gold))[1]


def _menu(k: int = 10) -> str:
    return '<nav><ul class="menu">' + "".join(f'<li><a href="/s{i}">Section {i}</a></li>' for i in range(k)) + "</ul></nav>"


def _page(body: str) -> str:
    return f"<html><head><title>{TITLE} | The Daily</title></head><body>{body}</body></html>"


# -- reveal -----------------------------------------------------------------------------------


def react_page(seed: int = 0) -> tuple[str, list[str]]:
    """React streaming SSR: the article sits in a hidden segment at the end of the body,
    its placeholder template inside <main>."""
    text = _paragraphs(seed)
    segment = "".join(f"<p>{p}</p>" for p in text)
    html = _page(f"""{_menu()}<main><h1>{TITLE}</h1><!--$?--><template id="B:0"></template>
<div class="spinner">Loading</div><!--/$--></main>
<footer class="footer"><p>Copyright 2026 The Daily. All rights reserved by its owners.</p></footer>
<div hidden id="S:0"><article class="post">{segment}</article></div>
<script>$RC("B:0","S:0")</script>""")
    return html, text


def test_react_segments_take_their_placeholders_place() -> None:
    html, text = react_page()
    root = parse_html(html)
    shown, steps = revealed(root)
    assert steps == ["react"] and shown is not root
    segment = shown.find(".//article").getparent()
    assert segment.get("hidden") is None and segment.getparent().tag == "main"
    assert root.find(".//div[@hidden]") is not None  # (the caller's tree is left as parsed)
    title, body, detail = RegionExtractor().extract_detail(html)
    assert detail is not None and "react" in detail.split("+")
    assert _recall(body, text) > 0.95


def test_before_the_fix_the_hidden_segment_was_lost() -> None:
    html, text = react_page()
    an = pagerank_analysis(html)  # PageRank alone reads no hidden element
    assert _recall(an.result.body, text) < 0.1


def noscript_page(seed: int = 0, duplicate: bool = False) -> tuple[str, list[str]]:
    """Teasers in the visible page, the article in <noscript> (or, with ``duplicate``, the
    noscript repeats the visible article)."""
    text = _paragraphs(seed)
    article = "".join(f"<p>{p}</p>" for p in text)
    teasers = "".join(f'<div class="teaser"><a href="/t{i}">{p[:60]}</a></div>' for i, p in enumerate(_paragraphs(9, 4)))
    visible = f"<article>{article}</article>" if duplicate else f'<div id="app">{teasers}</div>'
    html = _page(f"{_menu()}<h1>{TITLE}</h1>{visible}<noscript><div class='story'>{article}</div></noscript>")
    return html, text


def test_a_noscript_article_is_read() -> None:
    html, text = noscript_page()
    title, body, detail = RegionExtractor().extract_detail(html)
    assert detail == "noscript"
    assert _recall(body, text) > 0.95


def test_a_noscript_copy_of_the_visible_text_stays_unread() -> None:
    html, _ = noscript_page(duplicate=True)
    root = parse_html(html)
    assert revealed(root) == (root, [])


def button_page(seed: int = 0) -> tuple[str, list[str]]:
    """A header button holding an unclosed div: libxml2 puts the rest of the page in it."""
    text = _paragraphs(seed)
    article = "".join(f"<p>{p}</p>" for p in text)
    html = _page(f"""<header><button class="menu-toggle"><div><div class="icon"></button>
<a href="/">Skip to content</a></header><main><h1>{TITLE}</h1><article>{article}</article></main>""")
    return html, text


def test_a_page_swallowed_by_a_button_is_read() -> None:
    html, text = button_page()
    root = parse_html(html)
    assert root.find(".//button//article") is not None  # (the parser's doing, not the page's)
    title, body, detail = RegionExtractor().extract_detail(html)
    assert detail == "button"
    assert _recall(body, text) > 0.95


def test_small_buttons_and_plain_pages_are_left_as_they_are() -> None:
    html = _page(f"{_menu()}<button><div>Menu</div></button><article>"
                 + "".join(f"<p>{p}</p>" for p in _paragraphs(1)) + "</article>")
    root = parse_html(html)
    assert revealed(root) == (root, [])
    assert RegionExtractor().extract_detail(html)[2] is None


# -- role names -------------------------------------------------------------------------------


def test_page_builder_names_and_state_flags_name_no_role() -> None:
    for cls in ("elementor-widget-container", "elementor-element elementor-widget elementor-widget-text-editor",
                "widget-span widget-type-cell", "hs_cos_wrapper hs_cos_wrapper_widget",
                "article-body container-widget-content", "interior-page-content-has-sidebar",
                "comments-enabled", "post-123 post type-post status-publish hentry tag-diet category-food"):
        assert role_of("div", [("class", cls)]) == 0, cls
    # real sidebars, widgets, tag boxes and threads keep their roles
    assert role_of("div", [("class", "sidebar")]) & IN_SIDEBAR
    assert role_of("div", [("class", "widget_text")]) & IN_SIDEBAR
    assert role_of("div", [("class", "featured-stories-widget")]) & IN_SIDEBAR
    assert role_of("div", [("class", "tag-list")]) & BOILER
    assert role_of("div", [("id", "comments")]) & IN_COMMENTS
    # a builder name beside a role word: the role word still counts
    assert role_of("div", [("class", "elementor-widget-container sidebar")]) & IN_SIDEBAR


def test_roles_of_class_and_id_words_add_up_whatever_was_seen_before() -> None:
    """The role of a class and id pair is that of its words put together, whether the
    pair, the class value or its words were met before (the memos) or not."""
    from newsstemmer.single.signals import page_signals

    cases = [
        ([("class", "story sidebar-left"), ("id", "main")], IN_SIDEBAR | BOILER),
        ([("class", "story"), ("id", "comments")], IN_COMMENTS),
        ([("class", "elementor-widget story"), ("id", "related-links")], BOILER),
        ([("class", "post-77 hentry"), ("id", "comments")], 0),  # WordPress post_class: no role at all
        ([("class", "Post-77 sidebar")], IN_SIDEBAR | BOILER),  # (the signature is lower-case)
        ([("id", "sidebar"), ("class", "")], IN_SIDEBAR | BOILER),
        ([("class", "share-tools comment-list")], IN_COMMENTS | BOILER),
    ]
    for clear in (True, False):
        for attrs, want in cases:
            if clear:
                for memo in (page_signals.ROLE_MEMO, page_signals._CLASS_CACHE, page_signals._ID_CACHE,
                             page_signals._CLASS_WORD_CACHE):
                    memo.clear()
            assert role_of("div", attrs) == want, attrs
            assert role_of("body", attrs) == 0, attrs  # page-level elements name no part
    assert role_of("div", [("class", "sidebar"), ("style", "display: none")]) == IN_SIDEBAR | BOILER | page_signals.HIDDEN


def elementor_page(seed: int = 0) -> tuple[str, list[str]]:
    """An Elementor page: every block, the article's too, is an ``elementor-widget``."""
    text = _paragraphs(seed)
    rng = random.Random(seed + 1)
    links = "".join(f'<li><a href="/p{i}">{" ".join(rng.choice(_WORDS) for _ in range(5))}</a></li>' for i in range(15))

    def widget(kind: str, inner: str) -> str:
        return (f'<div class="elementor-element elementor-widget elementor-widget-{kind}">'
                f'<div class="elementor-widget-container">{inner}</div></div>')

    column = (widget("heading", f"<h1>{TITLE}</h1>")
              + "".join(widget("text-editor", f"<p>{p}</p><p>{q}</p>") for p, q in zip(text[::2], text[1::2])))
    html = _page(f"""{_menu()}<div class="elementor elementor-123 elementor-location-single">
<div class="e-con e-parent"><div class="e-con-inner"><div class="elementor-widget-wrap">{column}</div></div></div>
<aside class="sidebar"><h3>Popular</h3><ul>{links}</ul></aside></div>""")
    return html, text


def test_an_elementor_article_is_found() -> None:
    html, text = elementor_page()
    title, body, detail = RegionExtractor().extract_detail(html)
    assert _recall(body, text) > 0.9
    assert "Popular" not in body


# -- the guard and the paragraph region -------------------------------------------------------


def test_the_guard_keeps_a_body_more_than_twice_as_long_as_pageranks() -> None:
    html, _ = elementor_page()
    an = pagerank_analysis(html, text=False)
    ex = RegionExtractor()
    own = "\n".join(ex.guarded(an, ["x"]))  # a body sharing nothing with PageRank's: PageRank's
    assert own and own != "x"
    longer = ["y" * (2 * len(own) + 10)]
    assert ex.guarded(an, longer) is longer


def comments_page(seed: int = 0, body_paragraphs: int = 1) -> tuple[str, list[str]]:
    """A short article under a long reader thread."""
    text = _paragraphs(seed, body_paragraphs)
    thread = "".join(f'<li class="comment"><p>{p}</p></li>' for p in _paragraphs(seed + 5, 20))
    html = _page(f"""{_menu()}<article><h1>{TITLE}</h1>{''.join(f'<p>{p}</p>' for p in text)}</article>
<section id="comments"><ol class="comment-list">{thread}</ol></section>""")
    return html, text


def test_reader_comments_are_never_the_paragraph_region() -> None:
    html, text = comments_page()
    an = pagerank_analysis(html, text=False)
    node, inside, run = paragraph_region(an)
    el = an.scores.graph.elements[node]
    assert el.tag == "article" or any(a.tag == "article" for a in el.iterancestors())  # (not the thread)
    assert near_empty_alternative(an, 0) is None  # one paragraph: not an article's worth
    title, body, detail = RegionExtractor().extract_detail(html)
    assert detail is None and _recall(body, text) > 0.9


def test_a_near_empty_body_gives_way_to_the_paragraph_region() -> None:
    html, text = elementor_page(3)
    an = pagerank_analysis(html, text=False)
    node, inside, run = paragraph_region(an)
    assert inside >= 600 and run == 8
    assert near_empty_alternative(an, 40) is not None  # a standfirst's worth
    assert near_empty_alternative(an, 2000) is None  # a real body stays whatever its share
    assert near_empty_alternative(an, int(0.3 * inside)) is None


def test_the_article_says_which_path_made_the_body() -> None:
    html, _ = react_page()
    article = extract_single(Page(url="https://example.org/a", html=html), "region")
    assert article.method == "region" and article.detail == "react"
    assert article.to_json_dict()["detail"] == "react"
    plain = extract_single(Page(url="https://example.org/b", html=elementor_page()[0]), "region")
    assert plain.detail is None and "detail" not in plain.to_json_dict()
    assert extract_single(Page(url="https://example.org/a", html=html), "pagerank").detail is None


def test_one_long_blurb_is_no_paragraph_region() -> None:
    """A short list post beside a blog's long profile text in its sidebar: one paragraph
    there is a blurb, not a run of them, and the post stays."""
    rng = random.Random(4)
    items = "".join(f'&#8226; <a href="/x{i}">{" ".join(rng.choice(_WORDS) for _ in range(6))}</a> '
                    f'{" ".join(rng.choice(_WORDS) for _ in range(5))}<br>' for i in range(6))
    profile = " ".join(rng.choice(_WORDS) for _ in range(200))
    html = _page(f"""{_menu()}<div class="main"><h3 class="post-title">{TITLE}</h3>
<div class="post-body">{items}</div></div>
<div id="sidebar"><div class="widget Profile"><p class="profile-textblock">{profile}</p></div></div>""")
    an = pagerank_analysis(html, text=False)
    node, inside, run = paragraph_region(an)
    assert inside >= 600 and run == 1
    assert near_empty_alternative(an, 150) is None
    assert RegionExtractor().extract_detail(html)[2] != "paragraphs"
