"""End-to-end tests of learning (SPEC §2.3–2.5) and pattern extraction (§2.6) on a generated site."""

from __future__ import annotations

import dataclasses
import json
import random
from dataclasses import dataclass

import pytest

from newsstemmer import ExtractOptions, LearnOptions, Page, SitePatterns, extract_with_patterns, learn, templates
from newsstemmer.combine import learn as combine_learn
from newsstemmer.combine.learn import template_groups
from newsstemmer.layout.blocks import blocks_of
from newsstemmer.layout.learning import learn as learn_layouts
from newsstemmer.layout.matching import match_all

WORDS = (
    "council budget river station school market winter league players museum festival power grid "
    "railway farmers harvest doctors hospital election mayor storm coast bridge library quickly "
    "announced yesterday residents expect change during summer while officials warned about delays "
    "water prices rising thousands gathered near harbour protest against plans stadium construction "
    "scientists discovered unusual fossil layer beneath quarry volunteers helped clean beaches after "
    "spill economy grew slowly third quarter exports fell sharply analysts predicted recovery "
    "the of and a to in on for with by"
).split()
NAV = ["Home", "World News", "Business", "Technology", "Sport", "Culture", "Opinion"]
LOGO = "Example Daily News Network"
BYLINE = "By our staff reporter"
FOOTER = "Copyright 2024 Example Daily News. All rights reserved. Contact the newsroom"
MOST_READ_HEADING = "Most read today"


@dataclass
class ArticlePage:
    url: str
    html: str
    headline: str
    paragraphs: list[str]
    most_read: list[str]


def sentence(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n)).capitalize() + "."


def make_article(rng: random.Random, k: int, headline_tag: str = "h1", page_title: bool = True) -> ArticlePage:
    headline = f"{sentence(rng, rng.randint(5, 9))[:-1]} number {k}"
    paragraphs = [
        " ".join(sentence(rng, rng.randint(8, 16)) for _ in range(rng.randint(2, 4)))
        for _ in range(rng.randint(3, 9))
    ]
    most_read = [f"{sentence(rng, 5)[:-1]} {k}{i}" for i in range(4)]
    nav = "".join(f'<li><a href="/{n.lower().replace(" ", "-")}/">{n}</a></li>' for n in NAV)
    body = "".join(f"<p>{p}</p>" for p in paragraphs)
    links = "".join(f'<li><a href="/news/{k}/{i}.html">{t}</a></li>' for i, t in enumerate(most_read))
    title = f"{headline} - Example Daily" if page_title else "Example Daily"
    html = f"""<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>{title}</title>
<script>window.dataLayer = [{{"page": {k}}}];</script></head>
<body>
<div id="header"><div class="logo">{LOGO}</div><ul class="nav">{nav}</ul></div>
<div id="content">
 <div class="article post-{1000 + 37 * k}">
  <{headline_tag} class="headline">{headline}</{headline_tag}>
  <div class="byline">{BYLINE}</div>
  <div class="body">{body}</div>
 </div>
 <div class="mostread"><h3>{MOST_READ_HEADING}</h3><ul>{links}</ul></div>
</div>
<div id="footer"><p>{FOOTER}</p></div>
</body></html>"""
    return ArticlePage(f"http://www.example.com/news/2024/{k:03d}.html", html, headline, paragraphs, most_read)


def make_index(rng: random.Random, k: int) -> tuple[str, str]:
    rows = "".join(
        f'<tr><td class="date">2024-05-{10 + i}</td><td><a href="/news/2024/{i:03d}.html">{sentence(rng, 6)}</a></td></tr>'
        for i in range(10)
    )
    html = f"""<html><head><title>Example Daily - section {k}</title></head><body>
<table class="frontpage"><tr><th>Latest headlines in section {k}</th></tr>{rows}</table>
<span class="small">Index pages of Example Daily, all rights reserved</span></body></html>"""
    return f"http://www.example.com/section{k}/index.html", html


def make_site(seed: int = 7, n_articles: int = 8, n_index: int = 3, **kw) -> tuple[list[ArticlePage], list[Page]]:
    rng = random.Random(seed)
    articles = [make_article(rng, k, **kw) for k in range(n_articles)]
    pages = [Page(a.html, url=a.url) for a in articles]
    for k in range(n_index):
        url, html = make_index(rng, k)
        pages.append(Page(html, url=url))
    return articles, pages


def article_pattern(site: SitePatterns):
    arts = [p for p in site.patterns if p.article]
    assert len(arts) == 1, [(p.id, p.score, p.article, p.pages) for p in site.patterns]
    return arts[0]


@pytest.fixture(scope="module")
def learned() -> tuple[list[ArticlePage], SitePatterns]:
    articles, pages = make_site()
    return articles, learn(pages)


# -- learning ------------------------------------------------------------------------


def test_learn_site_and_pages(learned) -> None:
    articles, site = learned
    assert site.site == "example.com"
    assert len(site.pages) == 11
    assert set(a.url for a in articles) <= set(site.pages)


def test_learn_gives_one_article_pattern(learned) -> None:
    articles, site = learned
    pat = article_pattern(site)
    assert pat.pages == len(articles)
    assert pat.score >= LearnOptions().score_threshold


def test_article_pattern_title_section_is_headline(learned) -> None:
    _, site = learned
    pat = article_pattern(site)
    assert pat.title_section is not None
    sec = pat.sections[pat.title_section]
    assert sec.role == "title"
    assert sec.path.endswith("h1:class=headline")
    assert [s.role for s in pat.sections].count("title") == 1


def test_article_pattern_has_main_sections(learned) -> None:
    _, site = learned
    pat = article_pattern(site)
    mains = [s for s in pat.sections if s.role == "main"]
    assert mains
    assert any(s.path.endswith("div:class=body/p") for s in mains)
    assert pat.main_section is not None
    assert pat.sections[pat.main_section].path.endswith("div:class=body/p")
    # the title comes before the main text
    assert pat.title_section < pat.main_section


def test_static_sections_are_static(learned) -> None:
    _, site = learned
    pat = article_pattern(site)
    roles = {s.path: s.role for s in pat.sections}
    for path, role in roles.items():
        if "ul:class=nav" in path or "div:id=footer" in path or path.endswith("div:class=logo") or "byline" in path:
            assert role == "static", (path, role)
    footer = [s for s in pat.sections if "div:id=footer" in s.path]
    assert footer and footer[0].diff_score == 0.0


def test_index_pages_are_not_article_pattern(learned) -> None:
    _, site = learned
    for p in site.patterns:
        if any("section" in u for u in p.sample_urls):
            assert not p.article


def test_learned_patterns_survive_save_load(learned, tmp_path) -> None:
    articles, site = learned
    site.save(tmp_path / "example.com.json")
    loaded = SitePatterns.load(tmp_path / "example.com.json")
    assert loaded.patterns == site.patterns
    assert loaded.to_dict() == json.loads(site.to_json())  # settings tuples come back as lists
    a = articles[0]
    assert extract_with_patterns(Page(a.html, url=a.url), loaded).title == a.headline


# -- extraction ----------------------------------------------------------------------


def test_extract_each_article(learned) -> None:
    articles, site = learned
    for a in articles:
        art = extract_with_patterns(Page(a.html, url=a.url), site)
        assert art.matched, a.url
        assert art.is_article
        assert art.title == a.headline
        for p in a.paragraphs:
            assert p in art.body, (a.url, p)
        for junk in [*NAV, LOGO, FOOTER, BYLINE, MOST_READ_HEADING, "window.dataLayer"]:
            assert junk not in art.body, (a.url, junk)
        for link in a.most_read:
            assert link not in art.body
        assert a.headline not in art.body


def test_extract_new_article_of_same_layout(learned) -> None:
    _, site = learned
    rng = random.Random(12345)
    for k in range(100, 104):
        a = make_article(rng, k)
        art = extract_with_patterns(Page(a.html, url=a.url), site)
        assert art.matched
        assert art.title == a.headline
        assert all(p in art.body for p in a.paragraphs)
        assert FOOTER not in art.body and "World News" not in art.body


def test_cached_pattern_codes_follow_changes_to_the_patterns(learned) -> None:
    """Extraction keeps the patterns' path codes on the site object between pages:
    replacing or emptying the pattern list must not leave stale codes behind."""
    import copy

    articles, site = learned
    site = copy.deepcopy(site)
    a = articles[0]
    first = extract_with_patterns(Page(a.html, url=a.url), site)
    assert first.matched and site.match_cache is not None
    site.patterns = [p for p in site.patterns if p.id != first.pattern]  # the matching layout removed
    again = extract_with_patterns(Page(a.html, url=a.url), site)
    assert again.pattern != first.pattern
    site.patterns = []
    assert not extract_with_patterns(Page(a.html, url=a.url), site).matched
    # the cache is no part of the file
    assert "match_cache" not in site.to_json()


def test_path_codes_are_distinct_when_shared_by_threads() -> None:
    import threading

    from newsstemmer.layout.alignment import PathCodes

    codes = PathCodes()
    paths = [f"html/body/div.c{i}" for i in range(2000)]

    def work(offset: int) -> None:
        for k in range(len(paths)):
            codes.code(paths[(k * 7 + offset) % len(paths)])

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    got = [codes.code(p) for p in paths]
    assert len(set(got)) == len(paths) == len(codes)


def test_unrelated_layout_not_matched(learned) -> None:
    _, site = learned
    other = """<html><head><title>Forum</title></head><body>
<table class="threads"><tr><td>Thread about gardening and tomato plants in spring</td></tr>
<tr><td>Another thread about repairing bicycles at home</td></tr></table>
<form><textarea>Write your reply about anything you like</textarea></form>
<pre>some preformatted code listing with many words in it</pre>
<address>Forum administrators can be reached by post</address></body></html>"""
    art = extract_with_patterns(Page(other, url="http://www.example.com/forum/1"), site)
    assert art.matched is False
    assert art.title == "Forum" and art.body == ""  # the page's own <title>, no body


def test_strict_mode_needs_every_section(learned) -> None:
    articles, site = learned
    a = articles[0]
    no_footer = a.html.replace(f'<div id="footer"><p>{FOOTER}</p></div>', "")
    assert extract_with_patterns(Page(no_footer, url=a.url), site).matched
    strict = extract_with_patterns(Page(no_footer, url=a.url), site, ExtractOptions(strict=True))
    assert not strict.matched


def test_include_sub_adds_varying_boxes(learned) -> None:
    articles, site = learned
    a = articles[1]
    art = extract_with_patterns(Page(a.html, url=a.url), site, ExtractOptions(include_sub=True))
    assert art.matched
    assert all(p in art.body for p in a.paragraphs)
    assert any(link in art.body for link in a.most_read)
    assert FOOTER not in art.body


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_other_random_sites(seed: int) -> None:
    articles, pages = make_site(seed=seed, n_articles=9, n_index=3)
    site = learn(pages)
    article_pattern(site)
    for a in articles:
        art = extract_with_patterns(Page(a.html, url=a.url), site)
        assert art.matched and art.title == a.headline
        assert all(p in art.body for p in a.paragraphs)
        assert not any(n in art.body for n in [*NAV, FOOTER, LOGO])


# -- anchor texts --------------------------------------------------------------------


def test_title_with_anchor_texts() -> None:
    articles, pages = make_site(seed=11)
    by_url = {a.url: a for a in articles}
    for p in pages:
        if p.url in by_url:
            p.anchor_texts = [by_url[p.url].headline, "Read more"]
    site = learn(pages)
    pat = article_pattern(site)
    assert pat.sections[pat.title_section].role == "title"
    for a in articles:
        art = extract_with_patterns(Page(a.html, url=a.url), site)
        assert art.title == a.headline
        assert all(p in art.body for p in a.paragraphs)


def test_title_from_anchor_texts_alone() -> None:
    # No <title>/h1 states the headline: only the links pointing at the page do.
    articles, pages = make_site(seed=5, headline_tag="div", page_title=False)
    by_url = {a.url: a for a in articles}
    for p in pages:
        if p.url in by_url:
            p.anchor_texts = [by_url[p.url].headline]
    site = learn(pages)
    pat = article_pattern(site)
    assert pat.title_section is not None
    assert pat.sections[pat.title_section].path.endswith("div:class=headline")
    for a in articles:
        assert extract_with_patterns(Page(a.html, url=a.url), site).title == a.headline


# -- options -------------------------------------------------------------------------


def test_huge_score_threshold_gives_no_article_patterns() -> None:
    articles, pages = make_site()
    site = learn(pages, LearnOptions(score_threshold=1e12))
    assert site.patterns
    assert not any(p.article for p in site.patterns)
    assert site.settings["score_threshold"] == 1e12
    a = articles[0]
    untyped = ExtractOptions(page_type=False)  # the layouts' word alone
    art = extract_with_patterns(Page(a.html, url=a.url), site, untyped)
    assert not art.is_article
    assert art.body == ""
    art = extract_with_patterns(Page(a.html, url=a.url), site, dataclasses.replace(untyped, include_non_articles=True))
    assert art.body != ""
    # typed (the default), the page is still an article by its own evidence: the single-page body
    art = extract_with_patterns(Page(a.html, url=a.url), site)
    assert art.is_article and art.page_type == "article" and art.method.endswith("+region")
    assert all(p in art.body for p in a.paragraphs)


def test_huge_main_threshold_leaves_only_the_largest_section_main() -> None:
    # (choice of the core: the largest section is always main text; -M adds further sections)
    articles, pages = make_site()
    default = article_pattern(learn(pages))
    site = learn(pages, LearnOptions(main_threshold=1e9))
    for p in site.patterns:
        mains = [i for i, s in enumerate(p.sections) if s.role == "main"]
        assert mains in ([], [p.main_section])
    pat = article_pattern(site)
    assert sum(s.role == "main" for s in pat.sections) <= sum(s.role == "main" for s in default.sections)
    a = articles[0]
    assert all(p in extract_with_patterns(Page(a.html, url=a.url), site).body for p in a.paragraphs)


def test_settings_recorded() -> None:
    _, pages = make_site()
    opts = LearnOptions(diff_threshold=0.4, main_threshold=30.0, cluster_threshold=0.9)
    site = learn(pages, opts)
    assert site.settings["diff_threshold"] == 0.4
    assert site.settings["main_threshold"] == 30.0
    assert site.settings["cluster_threshold"] == 0.9


def test_min_cluster_pages_option() -> None:
    _, pages = make_site()
    site = learn(pages, LearnOptions(min_cluster_pages=4))
    # the 3 index pages form no pattern, the 8 articles still do
    assert len(site.patterns) == 1
    assert site.patterns[0].article


def test_site_option_and_no_pages() -> None:
    _, pages = make_site()
    assert learn(pages, site="daily.example").site == "daily.example"
    empty = learn([])
    assert empty.patterns == []


def test_unparsable_pages_skipped() -> None:
    articles, pages = make_site()
    pages.append(Page("", url="http://www.example.com/empty.html"))
    site = learn(pages)
    assert "http://www.example.com/empty.html" not in site.pages
    article_pattern(site)


# -- template pre-grouping (newsstemmer.combine.learn: templates/ feeding layout/) -------------------


def test_learning_with_template_pregrouping_finds_the_same_article_layout(learned) -> None:
    articles, site = learned
    _, pages = make_site()
    grouped = combine_learn.learn(pages, LearnOptions(pregroup=True))
    assert any(p.article for p in grouped.patterns)
    for art in articles:
        page = Page(art.html, url=art.url)
        a, b = extract_with_patterns(page, site), extract_with_patterns(page, grouped)
        assert b.matched and (a.title, a.body) == (b.title, b.body)


def test_pregroup_groups_the_readable_pages_with_amplification(monkeypatch) -> None:
    _, pages = make_site()
    pages.append(Page("", url="http://www.example.com/empty.html"))
    seen: list[list[str]] = []

    def fake_pregroup(texts):
        seen.append(list(texts))
        return [list(range(len(texts)))]

    monkeypatch.setattr(templates, "pregroup", fake_pregroup)
    with_groups = combine_learn.learn(pages, LearnOptions(pregroup=True))
    assert seen == [[p.html for p in pages[:-1]]]  # the unreadable page is not grouped
    # one group holding every page: the same layouts as learning without groups
    assert with_groups.patterns == learn(pages).patterns


def test_the_public_learn_is_the_one_that_pregroups() -> None:
    import newsstemmer

    assert newsstemmer.learn is combine_learn.learn


def test_without_pregroup_grouping_learn_is_the_layout_engine(learned) -> None:
    _, site = learned
    _, pages = make_site()
    assert combine_learn.learn(pages).patterns == site.patterns


def test_layouts_are_clustered_within_the_given_groups() -> None:
    _, pages = make_site()
    alone = learn_layouts(pages, grouper=lambda ps: [[i] for i in range(len(ps))])
    assert alone.patterns == []  # a page alone makes no layout
    with pytest.raises(ValueError, match="exactly once"):
        learn_layouts(pages, grouper=lambda ps: [list(range(len(ps) - 1))])


def test_the_layout_engine_options_leave_grouping_and_the_section_model_to_learn() -> None:
    from newsstemmer.layout.learning import LayoutLearnOptions

    assert not hasattr(LayoutLearnOptions(), "pregroup") and not hasattr(LayoutLearnOptions(), "section_model")
    opts = LearnOptions(pregroup=True, section_model=False, min_cluster_pages=3)
    assert isinstance(opts, LayoutLearnOptions)
    keys = list(opts.as_dict())  # (the order pattern files list their settings in)
    assert keys[-3:] == ["pregroup", "section_model", "blocks"] and keys[0] == "cluster_threshold"


def test_small_sites_stay_one_template_group() -> None:
    _, pages = make_site(n_articles=2, n_index=1)
    assert template_groups(pages, LearnOptions(min_cluster_pages=2)) == [[0, 1, 2]]


def test_static_tagline_sharing_a_path_with_the_body_does_not_hide_it() -> None:
    # One <p> path holds a fixed tagline and, a few blocks later, the post's text;
    # the body is one paragraph and most of its text lies elsewhere (a quote).  The
    # paragraph must stay varying: pooling its path must not pull it down to static.
    rng = random.Random(7)
    pages = []
    for k in range(4):
        intro = sentence(rng, 14)
        quote = " ".join(sentence(rng, 14) for _ in range(6))
        html = f"""<html><head><title>Post {k}</title></head><body>
<div class="body"><p>A personal blog about rivers, bridges and the people who build them.</p>
<h2>November {k + 1}, 2012</h2><h3>{sentence(rng, 6)[:-1]} {k}</h3>
<p>{intro}</p><blockquote>{quote}</blockquote>
<p class="posted">Posted on November {k + 1}, 2012</p></div></body></html>"""
        pages.append((Page(html, url=f"http://blog.example/{k}.html"), intro, quote))
    site = learn([p for p, _, _ in pages])
    for page, intro, quote in pages:
        art = extract_with_patterns(page, site)
        assert art.matched, page.url
        assert intro in art.body and quote in art.body, page.url
        assert "A personal blog about rivers" not in art.body


def test_equal_coverage_prefers_the_layout_seen_on_more_pages(learned) -> None:
    # A layout learned from two pages may know the same paths as the site's main
    # layout but judge them worse; on a tie the one with more evidence wins.
    articles, site = learned
    good = article_pattern(site)
    weak = dataclasses.replace(
        good,
        id="weak",
        pages=2,
        sections=[dataclasses.replace(s, role="static") if s.role == "main" else s for s in good.sections],
        free_paths={p: "static" for p in good.free_paths},
    )
    both = SitePatterns(site.site, [weak, *site.patterns], site.settings, site.pages)
    page = Page(articles[0].html, url=articles[0].url)
    art = extract_with_patterns(page, both)
    assert art.pattern == good.id
    assert articles[0].paragraphs[0] in art.body


def test_equal_coverage_prefers_the_layout_that_aligns_the_article(learned) -> None:
    # A layout that knows the article's paragraphs only by a free path it learned as
    # boilerplate covers the page as fully as the layout that aligns them to its main
    # section; with the same coverage, the aligned weight decides before the page count.
    articles, site = learned
    good = article_pattern(site)
    body = {s.path for s in good.sections if s.role == "main"}
    stray = dataclasses.replace(
        good,
        id="stray",
        pages=good.pages + 5,
        sections=[s for s in good.sections if s.path not in body],
        free_paths={**good.free_paths, **{p: "static" for p in body}},
    )
    both = SitePatterns(site.site, [stray, *site.patterns], site.settings, site.pages)
    page = Page(articles[0].html, url=articles[0].url)
    matches = {m.pattern.id: m for m in match_all(blocks_of(page, both.block_options()), both)}
    assert matches["stray"].coverage == matches[good.id].coverage
    assert matches["stray"].aligned < matches[good.id].aligned
    art = extract_with_patterns(page, both)
    assert art.pattern == good.id
    assert articles[0].paragraphs[0] in art.body


def test_article_aligned_to_a_short_section_counts_up_to_its_learned_weight(learned) -> None:
    # A layout that aligns the article's paragraphs to sections that held a short header
    # line on the pages it was learned from (low DiffScore and MainScore: a few characters
    # a page) knows the page by the same paths as the main layout; the article counts as
    # aligned there only up to a few times what those sections held, so the layout that
    # learned the paragraphs as its body wins the tie (cttf's forbes.com-2005).
    articles, site = learned
    good = article_pattern(site)
    header = dataclasses.replace(
        good,
        id="header",
        pages=good.pages + 5,
        sections=[dataclasses.replace(s, role="static", diff_score=0.4, main_score=0.4 * 12) if s.role == "main" else s
                  for s in good.sections],
    )
    both = SitePatterns(site.site, [header, *site.patterns], site.settings, site.pages)
    page = Page(articles[0].html, url=articles[0].url)
    matches = {m.pattern.id: m for m in match_all(blocks_of(page, both.block_options()), both)}
    assert matches["header"].coverage == matches[good.id].coverage
    assert matches["header"].aligned < matches[good.id].aligned
    art = extract_with_patterns(page, both)
    assert art.pattern == good.id
    assert articles[0].paragraphs[0] in art.body


def test_title_found_when_the_main_text_lies_on_free_paths() -> None:
    # Each post wraps its text in a differently named div: no body path is common to
    # the pages, the main text lies on free paths only, and the headline is the
    # layout's largest section.  It still has to be found.
    rng = random.Random(3)
    tags = ["recipe", "review", "travel", "garden", "essay"]
    side = "".join(f"<li>{sentence(rng, 12)}</li>" for _ in range(8))
    pages, heads = [], []
    for k, tag in enumerate(tags):
        head = f"{sentence(rng, 6)[:-1]} {k}"
        paras = "".join(f"<p>{sentence(rng, 14)}</p>" for _ in range(2))
        html = f"""<html><head><title>{head} - Demo Blog</title></head><body>
<div id="post"><h2>{head}</h2><div class="kind-{tag}">{paras}</div></div>
<ul id="side">{side}</ul>
<div id="footer"><p>Demo Blog is written by one person. All rights reserved.</p></div></body></html>"""
        pages.append(Page(html, url=f"http://blog.example/{k}.html"))
        heads.append(head)
    site = learn(pages)
    for page, head in zip(pages, heads):
        art = extract_with_patterns(page, site)
        assert art.matched and art.title == head, (page.url, art.title)


def test_article_layout_without_main_text_does_not_cover_the_page(learned) -> None:
    # The site's frame with an empty body (a page that shares the frame but holds no
    # article): the article layout finds no main text, so it does not apply.
    articles, site = learned
    a = articles[0]
    start, end = a.html.index('<div class="body">'), a.html.index('<div class="mostread">')
    hollow = a.html[:start] + '<div class="body"></div></div>' + a.html[end:]
    art = extract_with_patterns(Page(hollow, url=a.url + "?hollow"), site)
    assert not art.matched and art.body == ""
    art = extract_with_patterns(Page(hollow, url=a.url + "?hollow"), site, ExtractOptions(fallback="pagerank"))
    assert not art.matched and art.method == "pagerank"


# -- picture captions ----------------------------------------------------------------


def _with_figures(rng: random.Random, a: ArticlePage, gallery: bool) -> tuple[str, list[str]]:
    """The article's page with a captioned photo after its first paragraph, or (``gallery``)
    with its body made of captioned photos alone; the captions."""
    n = len(a.paragraphs) if gallery else 1
    caps = [" ".join(sentence(rng, rng.randint(8, 14)) for _ in range(2)) for _ in range(n)]
    figs = [f'<figure><img src="/img/{i}.jpg" alt=""><figcaption>{c}</figcaption></figure>' for i, c in enumerate(caps)]
    body = "".join(f"<p>{p}</p>" for p in a.paragraphs)
    first = f"<p>{a.paragraphs[0]}</p>"
    new = "".join(figs) if gallery else first + figs[0] + body[len(first):]
    return a.html.replace(f'<div class="body">{body}</div>', f'<div class="body">{new}</div>'), caps


@pytest.mark.parametrize("gallery", [False, True], ids=["article", "gallery"])
def test_captions_are_main_only_in_a_gallery(gallery: bool) -> None:
    """A photo caption beside an article's text is not main text (its <figure> is referred
    to from the text, as an <aside> is); in a gallery the captions are the story."""
    rng = random.Random(5)
    articles, _ = make_site(seed=11, n_articles=8, n_index=0)
    pages = [(a, *_with_figures(rng, a, gallery)) for a in articles]
    site = learn([Page(html, url=a.url) for a, html, _ in pages])
    for a, html, caps in pages:
        body = extract_with_patterns(Page(html, url=a.url), site).body
        for cap in caps:
            assert (cap in body) == gallery, (a.url, cap[:40])
        if not gallery:
            assert all(p in body for p in a.paragraphs), a.url
