"""Roles of page elements that DOM PageRank zeroes: comment threads by their shape, not their name."""

from __future__ import annotations

from lxml import etree

from newsstemmer.dom.parse import parse_html
from newsstemmer.single.signals.page_signals import (
    GALLERY,
    IN_COMMENTS,
    gallery_of,
    named_gallery,
    role_of,
    thread_shaped,
)
from newsstemmer.single.pagerank import (
    PageRankOptions,
    dom_pagerank,
    pagerank_analysis,
    pagerank_extract,
    region_cleaning,
    region_paragraphs,
)

OPINION = (
    "Cities that let the harbour wall crumble pay twice: once for the flood, once for the repair, "
    "and the council should say so plainly before the budget vote next week. "
)


def opinion_page(body_class: str = "content__main tonal__main--tone-comment") -> str:
    paragraphs = "".join(f"<p>Argument {i}: {OPINION}</p>" for i in range(7))
    related = "".join(f'<li><a href="/r{i}">Related story {i}</a></li>' for i in range(6))
    return (
        "<html><head><title>The harbour wall deserves better | Opinion</title></head><body>"
        "<nav><a href='/'>Home</a> <a href='/opinion'>Opinion</a></nav>"
        f"<article><h1>The harbour wall deserves better</h1><div class='{body_class}'>{paragraphs}</div></article>"
        f"<aside><ul>{related}</ul></aside></body></html>"
    )


def thread(n: int, paragraphs: int = 1) -> str:
    """A reader thread: ``n`` repeated items with author, time, text and a reply link."""
    items = []
    for i in range(n):
        text = "".join(f"<p>Reader {i} part {k}: {OPINION}</p>" for k in range(paragraphs))
        items.append(
            f'<li class="comment" id="comment-{i}"><div class="comment-author"><a href="/u{i}">user{i}</a></div>'
            f'<time datetime="2024-01-0{i % 9 + 1}">Jan {i + 1}</time><div class="comment-body">{text}</div>'
            f'<a class="reply" href="#r{i}">Reply</a></li>'
        )
    return f'<ol class="commentlist">{"".join(items)}</ol>'


def element(html: str, xpath: str) -> etree._Element:
    return parse_html(html).xpath(xpath)[0]


def test_the_names_still_flag_comments():
    assert role_of("div", [("class", "tonal__main--tone-comment")]) & IN_COMMENTS
    assert role_of("ol", [("class", "commentlist")]) & IN_COMMENTS


def test_a_run_of_paragraphs_under_a_comment_name_is_a_body_not_a_thread():
    el = element(opinion_page(), "//div[contains(@class, 'tone-comment')]")
    assert not thread_shaped(el)


def test_a_list_of_repeated_comments_is_a_thread():
    html = f"<html><body><div id='comments'>{thread(4)}</div></body></html>"
    assert thread_shaped(element(html, "//div[@id='comments']"))
    assert thread_shaped(element(html, "//ol"))


def test_one_long_comment_in_a_list_is_still_a_thread():
    html = f"<html><body><div id='comments'>{thread(1, paragraphs=4)}</div></body></html>"
    assert thread_shaped(element(html, "//div[@id='comments']"))


def test_a_comment_among_siblings_of_its_kind_is_a_thread_item():
    """Comments as sibling divs (no list), each with several paragraphs: items of a thread."""
    comments = "".join(
        f'<div class="commentbody by-user{i}">' + "".join(f"<p>Reader {i}: {OPINION}</p>" for _ in range(4)) + "</div>"
        for i in range(3)
    )
    html = f"<html><body><div id='main'>{comments}</div></body></html>"
    assert thread_shaped(element(html, "//div[contains(@class, 'by-user1')]"))


def test_a_comment_form_is_not_taken_for_a_body():
    form = (
        "<div id='respond'><h3>Leave a Reply</h3><form>"
        "<p class='comment-form-author'><label>Name</label> <input name='author'></p>"
        "<p class='comment-form-email'><label>Email</label> <input name='email'></p>"
        "<p class='comment-form-url'><label>Website</label> <input name='url'></p>"
        "<p><textarea name='comment'></textarea></p></form></div>"
    )
    assert thread_shaped(element(f"<html><body>{form}</body></html>", "//div[@id='respond']"))


def test_an_opinion_article_under_a_comment_name_is_extracted():
    html = opinion_page()
    res = pagerank_extract(html)
    assert "Argument 0:" in res.body and "Argument 6:" in res.body
    assert "Related story" not in res.body
    # The name alone (the rule before) gives the body no weight and leaves it out.
    old = pagerank_extract(html, options=PageRankOptions(comment_shape=False))
    assert "Argument 3:" not in old.body
    # Its role is cleared in the graph, so the learned steps see no comment flag.
    scores = dom_pagerank(html)
    i = next(k for k, el in enumerate(scores.graph.elements) if el is not None and "tone-comment" in (el.get("class") or ""))
    assert not scores.graph.roles[i] & IN_COMMENTS


def test_a_reader_thread_below_the_article_is_still_left_out():
    paragraphs = "".join(f"<p>Argument {i}: {OPINION}</p>" for i in range(5))
    html = (
        "<html><head><title>The harbour wall deserves better</title></head><body>"
        f"<div id='post'><h1>The harbour wall deserves better</h1>{paragraphs}"
        f"<div id='comments'><h3>6 comments</h3>{thread(6, paragraphs=2)}</div></div></body></html>"
    )
    res = pagerank_extract(html)
    assert "Argument 4:" in res.body
    assert "Reader 2 part" not in res.body
    scores = dom_pagerank(html)
    roles = {el.get("id"): r for el, r in zip(scores.graph.elements, scores.graph.roles) if el is not None}
    assert roles["comments"] & IN_COMMENTS


# -- galleries ---------------------------------------------------------------------------------


def gallery_page() -> str:
    """An article of plain paragraphs with an embedded photo gallery of long captions."""
    slides = "".join(
        f'<div class="slide gallery-slide{" active" if i == 0 else ""}"><img src="/p{i}.jpg" width="600" height="400">'
        f'<div class="caption">Slide {i}: a long caption about another show to watch this weekend, '
        "with the cast, the channel and why it is worth your evening.</div><span>Photo: Agency</span></div>"
        for i in range(12)
    )
    paragraphs = "".join(f"<p>Argument {i}: {OPINION}</p>" for i in range(4))
    return (
        "<html><head><title>The harbour wall deserves better</title></head><body><article>"
        f"<h1>The harbour wall deserves better</h1>{paragraphs}"
        f'<div class="gallery"><div class="viewport">{slides}</div></div></article></body></html>'
    )


def test_a_gallery_is_found_from_its_images():
    root = parse_html(gallery_page())
    seen: dict = {}
    found = {gallery_of(img, seen) for img in root.iter("img")}
    assert [(g.tag, g.get("class")) for g in found] == [("div", "viewport")]


def test_figures_between_paragraphs_are_not_a_gallery():
    figures = "".join(
        f"<p>Argument {i}: {OPINION}</p><figure><img src='/f{i}.jpg'><figcaption>Figure {i}</figcaption></figure>"
        for i in range(5)
    )
    root = parse_html(f"<html><body><div class='story'>{figures}</div></body></html>")
    seen: dict = {}
    assert all(gallery_of(img, seen) is None for img in root.iter("img"))


def test_galleries_are_flagged_in_the_graph_and_can_be_left_out():
    html = gallery_page()
    assert not any(r & GALLERY for r in dom_pagerank(html, PageRankOptions(galleries=False)).graph.roles)
    scores = dom_pagerank(html, PageRankOptions(galleries=True))
    flagged = [el.get("class") for el, r in zip(scores.graph.elements, scores.graph.roles) if el is not None and r & GALLERY]
    assert flagged == ["viewport"]
    assert "Slide 3:" in pagerank_extract(html, options=PageRankOptions(galleries=True)).body  # flagged only
    res = pagerank_extract(html, options=PageRankOptions(galleries=True, gallery_weight=0.3, drop_galleries=True))
    assert "Argument 3:" in res.body and "Slide 3:" not in res.body


def carousel_page(slide: str, box: str = "rail", item: str = "item") -> str:
    """An article with a carousel of five short items (a title, a caption, a counter)
    between its paragraphs; ``slide`` is put in each item: a player, an image or nothing."""
    slides = "".join(
        f'<div class="{item}">{slide}<div class="title">Clip {i}: the council meeting in full</div>'
        f'<p class="caption">What the mayor said of the harbour wall, and what the council will do.</p>'
        f"<span>{i + 1} / 5</span></div>"
        for i in range(5)
    )
    first = "".join(f"<p>Argument {i}: {OPINION}</p>" for i in range(3))
    rest = "".join(f"<p>Argument {i}: {OPINION}</p>" for i in range(3, 7))
    return (
        "<html><head><title>The harbour wall deserves better</title></head><body><article>"
        f"<h1>The harbour wall deserves better</h1><div class='story'>{first}"
        f'<div class="{box}">{slides}</div>{rest}</div></article></body></html>'
    )


def _flagged(html: str) -> list:
    scores = dom_pagerank(html, PageRankOptions(galleries=True))
    return [el.get("class") for el, r in zip(scores.graph.elements, scores.graph.roles) if el is not None and r & GALLERY]


def test_a_carousel_of_players_is_a_gallery():
    # iframes and objects are not in the graph; their items are slides all the same
    for player in ('<iframe src="https://video.example/embed/1"></iframe>', '<video src="/c.mp4"></video>',
                   '<object data="/c.swf"></object>'):
        assert _flagged(carousel_page(player)) == ["rail"], player
    assert _flagged(carousel_page("")) == []  # no player, no name: repeated blocks, not a gallery


def test_a_carousel_named_so_needs_no_images():
    assert _flagged(carousel_page("", box="video-carousel")) == ["video-carousel"]  # the box named
    assert _flagged(carousel_page("", item="swiper-slide")) == ["rail"]  # the items named
    root = parse_html(carousel_page("", box="slideshow"))
    box = next(el for el in root.iter("div") if el.get("class") == "slideshow")
    assert named_gallery(box, {}) is box
    # a name alone is not a gallery: two paragraphs in a box named so are no run of items
    one = parse_html(f"<html><body><div class='gallery-intro'><p>{OPINION}</p><p>{OPINION}</p></div></body></html>")
    assert named_gallery(next(one.iter("div")), {}) is None


def test_the_region_cleaning_leaves_a_carousel_out_and_pagerank_keeps_it():
    html = carousel_page('<iframe src="https://video.example/embed/1"></iframe>')
    an = pagerank_analysis(html)
    left = [an.scores.graph.elements[i].get("class") for i in region_cleaning(an, an.main)]
    assert left == ["rail"]
    assert "Clip 3:" in pagerank_extract(html).body  # PageRank's own cleaning only flags it
    # the region's text without it keeps every argument
    text = "\n".join(region_paragraphs(an, an.main))
    assert "Clip 3:" not in text and all(f"Argument {i}:" in text for i in range(7))


def test_the_region_cleaning_keeps_a_list_of_pictured_items():
    # how-to steps with a picture each: flagged as a gallery, but not slides (no player, no
    # slideshow name): the learned cleaning decides, as before
    steps = "".join(f"<li><img src='/s{i}.jpg' width='600' height='400'><p>Step {i}: {OPINION}</p></li>" for i in range(5))
    html = (
        "<html><head><title>The harbour wall deserves better</title></head><body><article>"
        f"<h1>The harbour wall deserves better</h1><div class='story'><p>Argument 0: {OPINION}</p>"
        f"<p>Argument 1: {OPINION}</p><ol class='steps'>{steps}</ol><p>Argument 2: {OPINION}</p></div></article></body></html>"
    )
    assert _flagged(html) == ["steps"]
    an = pagerank_analysis(html)
    assert region_cleaning(an, an.main) == []
    assert "Step 4:" in "\n".join(region_paragraphs(an, an.main))


def test_slide_names_seed_galleries_but_leave_no_role_behind():
    # the walk reads slide names through the role memo (SLIDES_NAMED); the graph keeps none
    from newsstemmer.single.signals.page_signals import SLIDES_NAMED

    html = carousel_page("", item="swiper-slide")
    for galleries in (True, False):
        scores = dom_pagerank(html, PageRankOptions(galleries=galleries))
        assert not any(r & SLIDES_NAMED for r in scores.graph.roles)
        flagged = [el.get("class") for el, r in zip(scores.graph.elements, scores.graph.roles)
                   if el is not None and r & GALLERY]
        assert flagged == (["rail"] if galleries else [])


def test_slide_names_read_per_value_as_joined() -> None:
    """``_named_slides`` (class and id looked up apart) gives the verdict of the two values
    joined by a space, lower-cased and searched as one: names cut anywhere, cased letters
    whose lower case is ASCII or context-bound (Kelvin sign, dotted I, final sigma), empty values."""
    import random

    from newsstemmer.single.signals import page_signals as s

    def joined(cls, ident):
        return bool(s._SLIDES_NAME.search(" ".join(v for v in (cls, ident) if v).lower()))

    bits = ["slide", "SLI", "de", "Gal", "lery", "swiper", "carou", "sel", "\u212a", "\u0130", "\u03a3", "x", " ",
            "-", "", "post-12", "Slider_main", "s", "lide"]
    rng = random.Random(23)
    values = [None, ""] + ["".join(rng.choice(bits) for _ in range(rng.randrange(1, 5))) for _ in range(400)]
    for _ in range(3000):
        cls, ident = rng.choice(values), rng.choice(values)
        assert s._named_slides(cls, ident) == joined(cls, ident), (cls, ident)
    assert s._named_slides("hero slideshow", None) and s._named_slides(None, "Gallery-1")
    assert not s._named_slides("sli", "de") and not s._named_slides(None, None)
