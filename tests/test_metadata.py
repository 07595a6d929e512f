"""Article metadata from one page: dates, names, each field's source (newsstemmer.metadata)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from newsstemmer import Page
from newsstemmer.evaluation import author_f1, normalise_title, same_day
from newsstemmer.metadata import article_metadata
from newsstemmer.metadata.dates import date_in_text, date_in_url, parse_date
from newsstemmer.metadata.people import names_from_ld, names_in_text, split_names


@pytest.mark.parametrize("text, iso", [
    ("2024-05-02T10:11:12Z", "2024-05-02T10:11:12+00:00"),
    ("2024-05-02T10:11:12+0200", "2024-05-02T10:11:12+02:00"),
    ("Mon, 13 May 2019 16:45:01 GMT", "2019-05-13T16:45"),
    ("20240502", "2024-05-02"),
    ("not a date", None),
    ("2024-13-45", None),
])
def test_machine_dates(text: str, iso: str | None) -> None:
    assert parse_date(text) == iso


@pytest.mark.parametrize("line, iso", [
    ("Published August 7, 2026", "2026-08-07"),
    ("7. August 2026, 11:21 Uhr", "2026-08-07T11:21"),
    ("7 de agosto de 2026", "2026-08-07"),
    ("2026年8月7日 11時21分", "2026-08-07T11:21"),
    ("2026년 1월 29일 오전", "2026-01-29"),
    ("Posted 07.08.2026", "2026-08-07"),
    ("Submitted by ann on Wed, 10/17/2018 - 12:17", "2018-10-17"),
    ("Saturday, May 18th, 2019 at 3:16pm", "2019-05-18T15:16"),
    ("May 18, 2019 12:05 a.m.", "2019-05-18T00:05"),
    ("Posted 07.08.2026 9:05 PM", "2026-08-07T21:05"),
    ("No date here, only 2018 campaigns", None),
])
def test_written_dates(line: str, iso: str | None) -> None:
    assert date_in_text(line) == iso


def test_dates_in_urls() -> None:
    assert date_in_url("https://x.test/news/2024/05/02/story") == "2024-05-02"
    assert date_in_url("https://x.test/20240502/story.html") == "2024-05-02"
    assert date_in_url("https://x.test/news/story-12345") is None


def test_names() -> None:
    assert split_names("By Ann Lee and Bo Kim") == ["Ann Lee", "Bo Kim"]
    assert split_names("Von Anna Berg und Jonas Ek") == ["Anna Berg", "Jonas Ek"]
    assert split_names("https://www.facebook.com/someone") == []
    assert names_from_ld([{"@type": "Person", "name": "Ann Lee"}, {"name": "Bo Kim"}]) == ["Ann Lee", "Bo Kim"]
    assert names_in_text("By Jane Doe Twitter | Updated May 3, 2024") == ["Jane Doe"]
    # bylines whose parts were glued together by the markup, or end with a date
    assert names_in_text("Written byAAA Travel Editor") == ["AAA Travel Editor"]
    assert names_in_text("Scott MattonMarch 4, 2026") == ["Scott Matton"]
    assert names_in_text("Cazzy MagennisLast Updated:August 3") == ["Cazzy Magennis"]
    assert names_in_text("Oleg Parashchak Jul 3, 2025") == ["Oleg Parashchak"]
    assert names_in_text("Pamela Geller - on November 3, 2019") == ["Pamela Geller"]
    assert names_in_text("By Theresa May") == ["Theresa May"] and names_in_text("Byron Smith") == ["Byron Smith"]
    assert names_in_text("By Rachel MacDonald") == ["Rachel MacDonald"]
    # acronyms and names that open like a by-word keep their letters; a remark in brackets goes
    assert split_names("AFP Deutschland") == ["AFP Deutschland"]
    assert split_names("DeAndre Hopkins") == ["DeAndre Hopkins"]
    assert split_names("Mike Dennison (MTN News)") == ["Mike Dennison"]


def test_labels_job_titles_and_date_pieces_around_a_name_go() -> None:
    assert split_names("Author: Ann Lee") == ["Ann Lee"] and split_names("AuthorVenteur") == ["Venteur"]
    assert split_names("Authorson Lee") == ["Authorson Lee"]  # (a name that opens like the label)
    assert split_names("Maria &amp; Katerina") == ["Maria", "Katerina"]  # (an entity escaped twice)
    assert split_names("Meghan Neville Content Marketing Coordinator") == ["Meghan Neville"]
    assert split_names("Top Growth Marketing") == ["Top Growth Marketing"]  # (one word after: a name's own)
    assert split_names("David Jackson - FullStack Editorial Team") == ["David Jackson"]
    assert split_names("Dr. Vahid Osman - Mar") == ["Dr. Vahid Osman"]
    assert split_names("Jason Bates June") == ["Jason Bates"] and split_names("Ann June") == ["Ann June"]
    assert split_names("Outer Armatonisdaristan » Tue Aug") == ["Outer Armatonisdaristan"]
    # a job title glued to the last name by the markup; one-word handles and brands stay whole
    assert names_in_text("Liza BurkeMarketing Director") == ["Liza Burke"]
    assert names_in_text("Joakim EdinResearch & Development") == ["Joakim Edin"]
    assert names_in_text("Team SimplyThrilled") == ["Team SimplyThrilled"]
    assert names_in_text("By Ann McKenzie and Leo DiCaprio") == ["Ann McKenzie", "Leo DiCaprio"]
    assert names_in_text("Submitted by MAGA Student") == ["MAGA Student"]
    # the writer's outlet after a bar or slash, or after "for", is no second writer
    assert split_names("Meg Kinnard | Associated Press") == ["Meg Kinnard"]
    assert names_in_text("By Mike Dennison/MTN News") == ["Mike Dennison"]
    assert split_names("Mathatisi Sebusi/Mohalenyane Phakela") == ["Mathatisi Sebusi", "Mohalenyane Phakela"]
    assert names_in_text("By Ann Lee for The Times") == ["Ann Lee"]


def test_a_role_account_signs_only_where_no_person_does() -> None:
    signed = '<h1>Rain all week</h1><p class="byline">By <span class="author">Admin</span></p><p>Text.</p>'
    assert _meta(signed).authors == ["Admin"]
    # structured data naming the role account gives way to a person the byline names
    account = '<script type="application/ld+json">{"@type": "NewsArticle", "author": {"name": "Editor"}}</script>'
    person = '<h1>Rain all week</h1><p class="byline">By Ann Lee</p><p>Text.</p>'
    assert _meta(person, head=account).authors == ["Ann Lee"] and _meta("<p>Text.</p>", head=account).authors == ["Editor"]
    assert split_names("Staff Writer") == [] and split_names("Contributing Writer") == []


def test_a_bold_name_opening_the_article_is_its_byline_where_nothing_else_names_a_person() -> None:
    prose = "<p>" + "The rain fell on the town all week and the river rose over its banks. " * 3 + "</p>"
    signed = f"<h1>Rain all week</h1><p><strong>Mikael Thalen</strong><br>Paper.test</p>{prose}"
    assert _meta(signed).authors == ["Mikael Thalen"]
    # a bold lead-in of common words, and a bold line after the prose began, are not bylines
    assert _meta(f"<h1>Rain all week</h1><p><strong>Start Small</strong></p>{prose}<p>start small today</p>").authors == []
    assert _meta(f"<h1>Rain all week</h1>{prose}<p><strong>Mikael Thalen</strong></p>").authors == []


def test_one_word_in_the_text_does_not_outrank_the_house_name_in_structured_data() -> None:
    house = '<script type="application/ld+json">{"@type": "NewsArticle", "author": {"name": "Paper"}}</script>'
    assert _meta('<h1>Rain all week</h1><p class="author">APA</p><p>Text.</p>', head=house).authors == ["Paper"]
    assert _meta('<h1>Rain all week</h1><p class="author">Ann Lee</p><p>Text.</p>', head=house).authors == ["Ann Lee"]


def _meta(body: str, head: str = "", url: str = "https://paper.test/story") -> object:
    html = f"<html><head><title>Rain all week | Paper</title>{head}</head><body>{body}</body></html>"
    page = Page(html, url=url)
    return article_metadata(page.tree, url, html=page.html)


def test_a_link_to_the_authors_page_under_the_headline_names_the_author() -> None:
    body = ('<nav><a href="/author/editors/">Our Editors</a></nav><h1>Rain all week</h1>'
            '<div><span>By</span> <a href="/author/ann-lee/">Ann Lee</a> and '
            '<a href="/author/bo-kim/">Bo Kim</a></div><p>It rained.</p>'
            '<aside><a href="/author/cy-dee/">Cy Dee</a></aside>')
    meta = _meta(body)
    assert meta.authors == ["Ann Lee", "Bo Kim"] and meta.meta_source["authors"] == "html"


def test_a_date_in_a_marked_element_after_the_article_and_the_sites_own_meta_names() -> None:
    body = "<h1>Rain all week</h1>" + "<p>It rained again.</p>" * 80 + '<div class="post-date"><i></i>March 4, 2025</div>'
    meta = _meta(body)
    assert meta.published == "2025-03-04" and meta.meta_source["published"] == "text"
    meta = _meta("<h1>Rain all week</h1><p>x</p>", head='<meta name="w-published-date" content="2021-02-16T06:03:43Z">')
    assert meta.published.startswith("2021-02-16") and meta.meta_source["published"] == "meta"
    meta = _meta("<h1>Rain all week</h1><p>x</p>", head='<meta property="article:modified_time" content="2023-06-12">')
    assert meta.published is None and meta.modified == "2023-06-12"  # (the crawl's feed or first version decides)


def test_of_several_time_elements_the_one_the_headline_shows_is_the_articles() -> None:
    body = ('<aside><h3>Most read</h3><time class="entry-date" datetime="2013-06-21T18:47:41+00:00">June 21, 2013'
            '</time></aside><h1>Rain all week</h1><p>By Ann Lee</p>'
            '<p><time class="entry-date" datetime="2016-11-06T20:33:59+00:00">November 6, 2016</time></p>'
            '<p>It rained.</p>')
    meta = _meta(body)
    assert meta.published == "2016-11-06T20:33:59+00:00" and meta.meta_source["published"] == "html"
    alone = _meta('<h1>Rain all week</h1><p>x</p><time datetime="2013-06-21T18:47:41Z">then</time>')
    assert alone.published == "2013-06-21T18:47:41+00:00"  # (one <time>: no question to ask)


def test_a_numeric_machine_date_is_read_month_first_where_the_date_line_shows_that_day() -> None:
    head = '<meta property="article:published_time" content="03-09-2026">'
    shown = _meta("<h1>Rain all week</h1><div>Published March 9, 2026</div><p>x</p>", head=head)
    assert shown.published == "2026-03-09" and shown.meta_source["published"] == "opengraph"
    unshown = _meta("<h1>Rain all week</h1><p>x</p>", head=head)
    assert unshown.published == "2026-09-03"  # (day first where nothing tells: most of the world's order)
    told = _meta("<h1>Rain all week</h1><div>March 9, 2026</div>",
                 head='<meta property="article:published_time" content="23-09-2026">')
    assert told.published == "2026-09-23"  # (23 cannot be a month: no question)


def test_microdata_dates_are_taken_in_the_pages_order_whatever_their_property() -> None:
    body = ('<div itemscope itemtype="https://schema.org/Question"><h1 itemprop="name">How to back up?</h1>'
            '<time itemprop="dateCreated" datetime="2010-10-16T21:58:06Z">Oct 16, 2010</time></div>'
            '<div itemscope itemtype="https://schema.org/Answer"><p>Use rsync.</p>'
            '<time itemprop="datePublished" datetime="2010-10-17T01:03:31Z">Oct 17, 2010</time></div>')
    meta = _meta(body)
    assert meta.published.startswith("2010-10-16") and meta.meta_source["published"] == "microdata"


def test_a_json_ld_date_written_in_words_gives_way_to_the_date_line_the_reader_sees() -> None:
    def ld(value: str) -> str:
        return ('<script type="application/ld+json">{"@context": "https://schema.org", "@type": "BlogPosting", '
                f'"headline": "Rain all week", "datePublished": "{value}"}}</script>')
    body = "<h1>Rain all week</h1><div>August 25, 2024</div><p>It rained.</p>"
    meta = _meta(body, head=ld("Jun 24, 2025"))  # (a template's text: the CMS item's last publish)
    assert meta.published == "2024-08-25" and meta.meta_source["published"] == "text"
    meta = _meta(body, head=ld("2025-06-24T10:00:00Z"))  # (a machine's: it stands)
    assert meta.published.startswith("2025-06-24") and meta.meta_source["published"] == "json-ld"
    meta = _meta("<h1>Rain all week</h1><p>It rained.</p>", head=ld("Jun 24, 2025"))  # (nothing shown)
    assert meta.published == "2025-06-24" and meta.meta_source["published"] == "json-ld"


def test_title_without_a_kicker_or_the_site_name() -> None:
    meta = _meta("<h1>Olympics: Rain stops the final again</h1>",
                 head='<meta property="og:title" content="Rain stops the final again">')
    assert meta.title == "Rain stops the final again"
    meta = _meta("<h1>Olympics: Rain stops the final again</h1>",
                 head='<meta property="og:title" content="Olympics: Rain stops the final again">')
    assert meta.title == "Olympics: Rain stops the final again"
    meta = _meta("<p>x</p>", head='<meta property="og:title" content="Rain all week - Die Neue Südtiroler Tageszeitung">',
                 url="https://www.tageszeitung.test/rain")
    assert meta.title == "Rain all week"


PAGE = """<html lang="de_DE"><head><title>Großer Brand - Die Zeitung</title>
<meta property="og:site_name" content="Die Zeitung">
<meta property="og:title" content="Großer Brand | Die Zeitung">
<meta property="article:section" content="Lokales">
<meta property="article:tag" content="Feuer"><meta property="article:tag" content="Stadt">
<meta property="og:image" content="/img/brand.jpg">
<link rel="canonical" href="/2024/05/02/brand">
{ld}
</head><body><header>Menu</header><h1>Großer Brand</h1>
<p class="meta">Von Anna Berg | 2. Mai 2024, 10:15 Uhr</p>
<p>Ein Feuer ...</p>
<div class="comments"><span itemprop="author">troll42</span></div></body></html>"""

LD = """<script type="application/ld+json">{"@context": "https://schema.org", "@graph": [
 {"@type": "WebSite", "name": "Die Zeitung"},
 {"@type": "NewsArticle", "headline": "Großer Brand", "datePublished": "2024-05-02T10:15:00+02:00",
  "dateModified": "2024-05-03T08:00:00+02:00", "author": {"@type": "Person", "name": "Anna Berg"}}]}</script>"""


def test_structured_data_comes_first() -> None:
    url = "https://zeitung.test/2024/05/02/brand"
    meta = article_metadata(Page(PAGE.format(ld=LD), url=url).tree, url)
    assert meta.title == "Großer Brand" and meta.authors == ["Anna Berg"]
    assert meta.published == "2024-05-02T10:15+02:00" or meta.published.startswith("2024-05-02T10:15")
    assert meta.modified.startswith("2024-05-03")
    assert meta.language == "de-DE" and meta.section == "Lokales" and meta.tags == ["Feuer", "Stadt"]
    assert meta.image == "https://zeitung.test/img/brand.jpg"
    assert meta.canonical_url == "https://zeitung.test/2024/05/02/brand"
    assert meta.site_name == "Die Zeitung"
    assert meta.meta_source["authors"] == "json-ld" and meta.meta_source["published"] == "json-ld"


def test_without_structured_data_the_visible_lines_decide() -> None:
    url = "https://zeitung.test/brand"
    meta = article_metadata(Page(PAGE.format(ld=""), url=url).tree, url)
    assert meta.published == "2024-05-02T10:15" and meta.meta_source["published"] == "text"
    assert meta.title == "Großer Brand"  # the h1 that agrees with og:title, not "... | Die Zeitung"


def test_broken_json_ld_and_empty_pages_are_no_error() -> None:
    meta = article_metadata(Page("<html><head><script type='application/ld+json'>{oops</script></head>"
                                 "<body><p>x</p></body></html>").tree, None)
    assert meta.authors == [] and meta.published is None and meta.meta_source == {}
    assert article_metadata(None).title is None


def test_metadata_scores() -> None:
    assert normalise_title("  The  Story: Part 1! ") == "the story part 1"
    assert same_day("2024-05-02T10:00", "2024-05-02") and not same_day(None, "2024-05-02")
    assert author_f1(["Ann Lee"], ["By Ann Lee", "Bo Kim"]) == pytest.approx(2 / 3)
    assert author_f1([], []) == 1.0


def test_the_demo_japanese_articles_get_their_date_line_with_its_time() -> None:
    from newsstemmer.demo.site import build_site

    site = build_site()
    japanese = [p for p in site.articles() if p.lang == "ja"]
    assert len(japanese) >= 20
    for p in japanese:
        url = "http://127.0.0.1:8000" + p.path
        meta = article_metadata(Page(p.decoded, url=url).tree, url)
        # the page's only date is "2026年8月7日 11時21分" under the headline (Tokyo time, no zone
        # written) and the day in its URL
        shown = datetime.fromisoformat(p.published).astimezone(timezone(timedelta(hours=9)))
        assert meta.published == shown.strftime("%Y-%m-%dT%H:%M"), p.path
        assert meta.meta_source["published"] == "text"
        assert meta.language == "ja" and meta.canonical_url == url


def test_the_chain_gives_articles_their_metadata_unless_told_not_to() -> None:
    import json

    from newsstemmer import extract
    from newsstemmer.combine.extract import ExtractOptions

    url = "https://zeitung.test/2024/05/02/brand"
    html = PAGE.format(ld=LD)
    article = extract(html, url=url)
    assert article.authors == ["Anna Berg"] and article.published.startswith("2024-05-02T10:15")
    assert article.language == "de-DE" and article.site_name == "Die Zeitung" and article.tags == ["Feuer", "Stadt"]
    assert article.meta_source["authors"] == "json-ld" and "title" not in article.meta_source
    record = article.to_json_dict()
    keys = list(record)
    assert keys[:10] == ["source", "url", "title", "body", "matched", "method", "pattern", "score", "is_article",
                         "page_type"]
    assert keys[10:] == ["published", "modified", "authors", "language", "section", "tags", "description", "image",
                        "canonical_url", "site_name", "meta_source"]
    json.dumps(record)
    bare = extract(html, url=url, options=ExtractOptions(fallback="region", metadata=False))
    assert bare.body == article.body and bare.authors == [] and bare.published is None and bare.meta_source == {}


def test_the_metadata_fields_are_the_same_in_every_record() -> None:
    """``Article``, the crawl's ``ArticleItem`` and ``ArticleMetadata`` each declare the
    metadata fields (in their own field order); ``METADATA_FIELDS`` is the one list they
    must all hold, as the chain copies field by field."""
    from dataclasses import fields

    from newsstemmer.article import METADATA_FIELDS, Article
    from newsstemmer.crawl.items import ArticleItem
    from newsstemmer.metadata import ArticleMetadata

    names = set(METADATA_FIELDS)
    for cls in (Article, ArticleItem):
        declared = [f.name for f in fields(cls)]
        assert names <= set(declared), cls
        assert [n for n in declared if n in names] == list(METADATA_FIELDS), cls  # same order in output
    assert names <= {f.name for f in fields(ArticleMetadata)}


def test_the_learned_title_choice_takes_a_short_headline_the_page_titles_extend() -> None:
    """The rules keep ``og:title`` where no ``<h1>`` agrees with it; the shipped title model
    prefers the ``<h1>`` that the page's titles open with (a docs page's "Flexbox")."""
    from newsstemmer.metadata import page_facts
    from newsstemmer.metadata.fields import page_titles
    from newsstemmer.metadata.titles import choose_title

    url = "https://developer.docs.test/learn/flexbox"
    html = ('<html><head><title>Flexbox - Learn web development | Docs</title>'
            '<meta property="og:title" content="Flexbox - Learn web development | Docs"></head>'
            '<body><nav>Menu</nav><h1>Flexbox</h1><p>Flexbox lays out items in one dimension.</p></body></html>')
    page = Page(html, url=url)
    candidates, rules, site = page_titles(page_facts(page.tree, page.html), "developer.docs.test")
    assert rules == "Flexbox - Learn web development"  # (the site's part cut)
    assert ("h1-first", "Flexbox") in candidates and choose_title(candidates, rules, site, "developer.docs.test")
    meta = article_metadata(page.tree, url, html=page.html)
    assert meta.title == "Flexbox" and meta.meta_source["title"] == "html"
    # where every title the page gives says the same, the model is not asked
    assert choose_title([("h1", "Rain all week"), ("og", "Rain all week")], "Rain all week", None, "") is None
    assert _meta("<h1>Rain all week</h1>").title == "Rain all week"
