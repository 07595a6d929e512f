"""Page types by a layout's vote: a learned layout keeps how its learning pages were typed,
and the pages it matches are given that type without the per-page model where the pages
agreed; a mixed layout, a page declaring its own kind and an old pattern file without the
vote are typed page by page."""

from __future__ import annotations

import json
import random

import pytest

from newsstemmer import ExtractOptions, Page, SitePatterns, extract, learn
from newsstemmer.combine.extract import extract_with_patterns
from newsstemmer.layout.patterns import PatternFileError
from newsstemmer.pagetype import MIN_VOTE_PAGES, VOTE_SHARE, layout_vote, page_type

WORDS = ("harbour council budget ferry museum election storm bridge farmers railway festival court market "
         "tunnel library teachers energy coast village mayor contract airport orchestra lighthouse").split()
SITE = "https://valley.example"
EVIDENCE = "pagetype.evidence"  # (the Page memo key of the page's features: set only where the model ran)


def _para(k: int, n: int = 60) -> str:
    rnd = random.Random(k)
    return " ".join(rnd.choice(WORDS) for _ in range(n)).capitalize() + "."


def _frame(title: str, main: str, head: str = "") -> str:
    return (f"<html><head><title>{title} | Valley Post</title>{head}</head><body><header><a href='/'>Valley Post"
            "</a><nav><a href='/news/'>News</a> <a href='/sport/'>Sport</a> <a href='/about/'>About</a></nav>"
            f"</header><main>{main}</main><footer><p>Valley Post, 2 Quay Street.</p></footer></body></html>")


def _article(k: int, head: str = "") -> tuple[str, str]:
    title = f"{_para(k, 6)[:-1]} story {k}"
    html = _frame(title, (
        f"<article><h1>{title}</h1><p class='byline'>By Ann Lee, March {k + 1}, 2026</p>"
        + "".join(f"<p>{_para(k * 5 + j)}</p>" for j in range(4 + k % 3))
        + "</article><aside class='related'><h3>More news</h3><a href='/news/'>All news</a></aside>"),
        "<meta property='og:type' content='article'>" + head)
    return f"{SITE}/news/2026/03/{k + 1:02d}/story-{k}.html", html


def _listing(k: int) -> tuple[str, str]:
    cards = "".join(
        f"<div class='card'><h2><a href='/news/2026/03/{j + 1:02d}/story-{j}.html'>{_para(k + j, 9)}</a></h2>"
        f"<p>{_para(k * 3 + j, 14)}</p><a href='/news/2026/03/{j + 1:02d}/story-{j}.html'>Read more</a></div>"
        for j in range(8))
    return f"{SITE}/topic/topic-{k}/", _frame(f"Topic {k}", f"<h1>Topic {k}</h1><section class='list'>{cards}</section>")


@pytest.fixture(scope="module")
def site() -> SitePatterns:
    pages = [_article(k) for k in range(8)] + [_listing(k) for k in range(6)]
    return learn([Page(html, url=url) for url, html in pages], site="valley.example")


def _article_layout(site: SitePatterns):
    return next(p for p in site.patterns if p.article and p.page_types)


def test_learning_keeps_how_each_layouts_pages_were_typed(site):
    layout = _article_layout(site)
    assert layout.page_types == {"article": 8}
    # the median of the pages' own scores, each page typed alone
    scores = sorted(page_type(Page(html, url=url)).score for url, html in (_article(k) for k in range(8)))
    assert layout.page_score == pytest.approx((scores[3] + scores[4]) / 2, abs=1e-4)
    assert layout_vote(layout.page_types, layout.article) == "article"


def test_a_layouts_vote_types_its_pages_without_the_model(site):
    layout = _article_layout(site)
    url, html = _article(11)  # a new page of the article template
    page = Page(html, url=url)
    art = extract_with_patterns(page, site, ExtractOptions(fallback="region"))
    assert art.matched and art.pattern == layout.id
    assert (art.is_article, art.page_type, art.page_score) == (True, "article", layout.page_score)
    assert EVIDENCE not in page._memo  # no features computed, no model run
    assert art.published and art.authors  # the article still gets its metadata
    # the same page typed alone (every page by the model, as before the vote): same kind, its own score
    alone = extract_with_patterns(Page(html, url=url), site, ExtractOptions(fallback="region", layout_vote=False))
    assert (alone.is_article, alone.page_type) == (True, "article") and alone.page_score != layout.page_score
    # the listing layout's pages: typed listing by their vote, with no metadata
    listing = next(p for p in site.patterns if not p.article)
    assert listing.page_types == {"listing": 6}
    url, html = _listing(9)
    page = Page(html, url=url)
    art = extract_with_patterns(page, site, ExtractOptions(fallback="region"))
    assert art.pattern == listing.id and (art.is_article, art.page_type) == (False, "listing")
    assert art.page_score == listing.page_score and EVIDENCE not in page._memo and art.published is None


def test_a_page_declaring_its_own_kind_is_not_given_the_vote(site):
    live = "<script type='application/ld+json'>{\"@type\": \"LiveBlogPosting\"}</script>"
    url, html = _article(12, live)
    art = extract(html, site, url=url)
    assert art.matched and art.pattern == _article_layout(site).id
    assert (art.is_article, art.page_type) == (False, "live")


def test_a_mixed_layout_types_its_pages_one_by_one(site, tmp_path):
    path = site.save(tmp_path / "valley.json")
    data = json.loads(path.read_text())
    layout = _article_layout(site)
    raw = next(p for p in data["patterns"] if p["id"] == layout.id)
    raw["page_types"] = {"article": 6, "listing": 2}  # learned from pages that were not all articles
    path.write_text(json.dumps(data))
    mixed = SitePatterns.load(path)
    assert layout_vote(mixed.layout(layout.id).page_types, True) is None
    url, html = _article(13)
    page = Page(html, url=url)
    art = extract_with_patterns(page, mixed, ExtractOptions(fallback="region"))
    assert art.pattern == layout.id and art.is_article and EVIDENCE in page._memo  # the model ran
    assert art.page_score == round(page_type(Page(html, url=url), True).score, 4)


def test_an_old_pattern_file_without_the_vote_loads_and_types_pages_alone(site, tmp_path):
    path = site.save(tmp_path / "valley.json")
    data = json.loads(path.read_text())
    assert any("page_types" in p and "page_score" in p for p in data["patterns"])
    for p in data["patterns"]:
        p.pop("page_types", None)
        p.pop("page_score", None)
    path.write_text(json.dumps(data))
    old = SitePatterns.load(path)
    assert all(p.page_types is None and p.page_score is None for p in old.patterns)
    assert "page_types" not in old.to_json()  # saved again as it was
    url, html = _article(14)
    before = extract(html, old, url=url, options=ExtractOptions(fallback="region", layout_vote=False))
    now = extract(html, old, url=url, options=ExtractOptions(fallback="region"))
    assert now.matched and now.to_json_dict() == before.to_json_dict()


@pytest.mark.parametrize("types", [["article"], {"article": "8"}, {"article": -1}, {"article": True}, "article"])
def test_a_broken_vote_in_a_pattern_file_is_named(site, tmp_path, types):
    path = site.save(tmp_path / "valley.json")
    data = json.loads(path.read_text())
    data["patterns"][0]["page_types"] = types
    path.write_text(json.dumps(data))
    with pytest.raises(PatternFileError, match="page_types"):
        SitePatterns.load(path)


def test_the_vote_needs_enough_pages_that_agree_with_the_layouts_flag():
    n = MIN_VOTE_PAGES
    assert layout_vote({"article": n}, True) == "article"
    assert layout_vote({"listing": n}, False) == "listing"
    assert layout_vote({"article": n - 1}, True) is None  # too few pages typed
    assert layout_vote({"article": n, "listing": 1}, True) is None  # mixed
    assert layout_vote({"article": n, "listing": 0}, True) == "article"
    assert layout_vote({"article": n}, False) is None  # a "not articles" layout whose pages read as articles
    assert layout_vote({"listing": n}, True) is None
    assert layout_vote({"nonsense": n}, False) is None and layout_vote(None, True) is None and layout_vote({}, True) is None


def test_a_not_articles_layout_votes_the_kind_nearly_all_its_pages_share():
    # the demo's index template: 28 pages typed listing, 1 media -> every page a listing
    assert layout_vote({"listing": 28, "media": 1}, False) == "listing"
    assert layout_vote({"media": 1, "listing": 28}, False) == "listing"  # (not the first kind named)
    # below the share: typed page by page
    assert 8 / 10 < VOTE_SHARE and layout_vote({"listing": 8, "media": 2}, False) is None
    # a page typed an article in a "not articles" layout keeps its pages typed one by one
    assert layout_vote({"listing": 40, "article": 1}, False) is None
    # the share needs MIN_VOTE_PAGES of the kind too
    assert layout_vote({"listing": MIN_VOTE_PAGES - 1}, False) is None
    # an article layout still needs every page to agree (a non-article of it would be sent)
    assert layout_vote({"article": 40, "listing": 1}, True) is None
    assert layout_vote({"listing": 40, "media": 1}, True) is None
    assert layout_vote({"listing": 40, "nonsense": 1}, False) is None  # an unknown kind: no vote


def test_the_vote_is_worked_out_again_when_the_layouts_types_are_replaced():
    from newsstemmer.combine.layouttypes import _vote_of
    from newsstemmer.layout.patterns import LayoutPattern

    layout = LayoutPattern(id="p0", score=1.0, pages=5, sections=[], article=False,
                           page_types={"listing": 28, "media": 1}, page_score=0.3)
    assert _vote_of(layout) == "listing"
    layout.page_types = {"listing": 5, "media": 5}  # (relearned: a new mapping)
    assert _vote_of(layout) is None
    layout.page_types, layout.article = {"article": 4}, True
    assert _vote_of(layout) == "article"
    layout.article = False
    assert _vote_of(layout) is None
