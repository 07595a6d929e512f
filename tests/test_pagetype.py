"""Page types: the features of small purpose-made pages, the kinds of non-articles, the
shipped model's decisions through the extraction chain and the CLI's JSON."""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys

import pytest

from newsstemmer import ExtractOptions, Page, extract
from newsstemmer.metadata import page_facts
from newsstemmer.pagetype import FEATURES, KINDS, PageType, decide, declared_kind, page_type, shared_model
from newsstemmer.pagetype.features import page_type_features, url_words

WORDS = ("harbour council budget ferry museum election storm bridge farmers railway festival court market "
         "tunnel library teachers energy coast village mayor contract airport orchestra lighthouse").split()


def _para(k: int, n: int = 60) -> str:
    return " ".join(WORDS[(k * 7 + i) % len(WORDS)] for i in range(n)).capitalize() + "."


def _frame(title: str, main: str, head: str = "") -> str:
    return (f"<html><head><title>{title} | Valley Post</title>{head}</head><body><header><a href='/'>Valley Post"
            "</a><nav><a href='/news/'>News</a> <a href='/sport/'>Sport</a> <a href='/about/'>About</a></nav>"
            f"</header><main>{main}</main><footer><p>Valley Post, 2 Quay Street.</p></footer></body></html>")


ARTICLE = _frame("Ferry returns to the harbour", (
    "<article><h1>Ferry returns to the harbour</h1><p class='byline'>By Ann Lee, March 3, 2026</p>"
    + "".join(f"<p>{_para(k)}</p>" for k in range(7)) + "</article>"),
    "<meta property='og:type' content='article'>"
    "<meta property='article:published_time' content='2026-03-03T10:00:00Z'>")
LISTING = _frame("News", "<h1>News</h1>" + "".join(
    f"<div class='card'><h2><a href='/news/2026/03/0{k}/story-{k}.html'>{_para(k, 9)}</a></h2>"
    f"<p>{_para(k + 1, 14)}</p><a href='/news/2026/03/0{k}/story-{k}.html'>Read more</a></div>" for k in range(9)))
ABOUT = _frame("About us", "<h1>About us</h1><p>The Valley Post is the valley's newspaper since 1921.</p>"
               "<p>Write to us at the address below.</p>")


def test_features_are_the_models_columns_and_read_the_page():
    page = Page(LISTING, url="https://valley.example/news/")
    x = page_type_features(page.tree, page.url, page_facts(page.tree))
    assert tuple(x) == FEATURES
    assert x["read_more"] == 9 and x["linked_heads"] == 9 and x["role_card"] >= 9
    assert x["url_listing"] == 0 and x["url_post"] == 1 and x["url_depth"] == 1
    art = Page(ARTICLE, url="https://valley.example/news/2026/03/03/ferry-returns.html")
    y = page_type_features(art.tree, art.url, page_facts(art.tree))
    assert y["og_article"] == 1 and y["meta_published"] == 1 and y["url_date"] == 1
    assert y["long_paras"] == 7 and y["run_share"] > 0.8 and y["title_h1"] > 0.8
    assert y["link_share"] < x["link_share"]
    # The article's date line is under its headline; the listing has no date by its <h1>.
    assert y["date_near_h1"] == 1 and x["date_near_h1"] == 0 and 0 < y["h1_at"] < 0.2
    assert y["tel_links"] == x["tel_links"] == 0
    shop = Page(_frame("Call us", "<h1>Call us</h1><p><a href='tel:+15550100'>555 0100</a> "
                       "<a href='mailto:desk@valley.example'>desk</a> <a href='tel:+15550100'>again</a></p>"))
    z = page_type_features(shop.tree, None, page_facts(shop.tree))
    assert z["tel_links"] == 1 and z["mail_links"] == 1  # (distinct addresses)
    bare = Page("<html><body><p>No headline at all.</p></body></html>")
    w = page_type_features(bare.tree, None, page_facts(bare.tree))
    assert w["date_near_h1"] == w["h1_at"] == w["after_h1_log"] == -1


def test_url_features_say_nothing_without_a_url_and_read_archived_urls():
    page = Page(ARTICLE)
    x = page_type_features(page.tree, None, page_facts(page.tree))
    assert all(v == -1.0 for k, v in x.items() if k.startswith("url_"))
    archived = "http://web.archive.org/web/20050101000000/http://www.example.com/tag/storms/"
    y = page_type_features(page.tree, archived, page_facts(page.tree))
    assert y["url_listing"] == 1 and y["url_depth"] == 2
    assert "privacy" in url_words("https://x.example/legal/privacy-policy.html")


def test_prices_dates_and_shop_phrases_are_counted_as_the_regexes_count_them():
    """The counts look only where the words a match needs appear (signs, years, phrases):
    they must be the regexes' own counts on the whole text, lines and cases included."""
    import random

    from newsstemmer.pagetype.features import _CART, _CART_PHRASES, _CASE_FOLDED, _DATE_TEXT, _PRICE, _text_counts

    texts = ["$\n5 and 5\nEUR", "5EUR 5 EURO €5 5€ ¥ 7 £3.50 $$5 5 USD5", "Jan 2, 2024\n2 Jan 2024 5 days ago",
             "2024-01-02 1/2/2020 x2020-01-02 20 minutes ago 19", "ADD TO CART, Add To Bag; in stock out of stock",
             "İn stock, ın stock, out of ſtock, stocK", "checkouts free shipping! buy nowhere", ""]
    pieces = ["$", "5", "€", "12", "EUR", "USD", " ", "\n", "2020", "19", "20", "-01", "/3/", " ago", " days", "Jan ",
              "March", "3,", "add to ", "cart", "BAG", "in ", "stock", "İ", "ſ", "x", "Buy Now", "checkout", "a"]
    rnd = random.Random(0)
    texts += ["".join(rnd.choice(pieces) for _ in range(rnd.randint(1, 25))) for _ in range(3000)]
    for text in texts:
        assert _text_counts(text) == (len(_PRICE.findall(text)), len(_DATE_TEXT.findall(text)),
                                      len(_CART.findall(text))), text
    # every character the case-blind regex takes for a letter of a phrase is lower-cased to
    # that letter, or is one of those the count checks for on its own
    letters = set("".join(_CART_PHRASES))
    one = re.compile("[%s]" % "".join(sorted(letters)), re.I)
    for code in range(128, 0x110000):
        ch = chr(code)
        if one.fullmatch(ch) and ch.lower() not in letters:
            assert ch in _CASE_FOLDED, hex(code)


def test_comments_hidden_elements_and_nested_links_count_as_before():
    """What the walk skips (scripts, svg, ... and the text after a comment or a processing
    instruction) and how nested links and paragraphs count: the features the model was
    trained on.  (An XML parse: the HTML parser drops comments and splits nested links.)"""
    from lxml import etree

    tree = etree.fromstring(
        "<html><body><p>One <!-- c -->two <a href='/a'>three <a href='/b'>four</a> five</a> six</p>"
        "<script>var x = 1;</script>after script<svg class='card'><text>icon</text></svg><?pi x?>pi tail"
        "<ul><li><a href='/a'>Read more</a></li><li>no link</li></ul>"
        "<h2><a href='/c'>A headline that is long enough to count</a></h2><nav>menu</nav></body>tail</html>")
    x = page_type_features(tree, None, page_facts(tree))
    # read: "One", "three", "four", "five", "six", "after script", "Read more", "no link", the
    # headline, "menu" and the body's tail; not "two", "var x = 1;", "icon" nor "pi tail"
    assert x["text_log"] == pytest.approx(math.log1p(3 + 5 + 4 + 4 + 3 + 12 + 9 + 7 + 39 + 4 + 4))
    assert x["link_share"] == pytest.approx((5 + 4 + 4 + 9 + 39) / 94)
    assert x["para_share"] == pytest.approx(19 / 94) and x["boiler_share"] == pytest.approx(4 / 94)
    assert x["paras"] == 1 and x["read_more"] == 1 and x["headline_links"] == 1 and x["linked_heads"] == 1
    assert x["lis"] == 2 and x["li_link_share"] == 0.5 and x["role_card"] == 0 and x["repeated_hrefs"] == 1


def test_page_type_and_metadata_share_the_page_facts():
    from newsstemmer.combine.extract import add_metadata
    from newsstemmer.article import Article
    from newsstemmer.pagetype import facts_of

    page = Page(ARTICLE, url="https://valley.example/news/2026/03/03/ferry-returns.html")
    page_type(page)
    facts = facts_of(page)
    assert facts is facts_of(page) and facts.title
    article = add_metadata(Article(page.url, "", "", matched=False), page)
    assert facts_of(page) is facts and article.published and article.published.startswith("2026-03-03")


def _hood_pages() -> list[tuple[str, object]]:
    """(name, tree) of pages whose headline neighbourhood is read in the ways it can be."""
    from lxml import etree

    def filler(n: int = 420) -> str:
        return "".join(f"<p class='{'author-box' if k % 50 == 7 else 'x'}'>Line {k}</p>" for k in range(n))

    html = {
        "h1 agreeing": ARTICLE,
        "h1 after a logo h1": _frame("Ferry returns", "<h1>Valley Post</h1><div class='author'>Desk</div>"
                                     "<h1>Ferry returns</h1><p>By Ann Lee</p><a href='/author/ann-lee'>Ann Lee</a>"
                                     "<p>March 3, 2026</p>", "<meta property='og:site_name' content='Valley Post'>"),
        "h1 not agreeing": _frame("Other", "<h1>Something else</h1><span id='byline'>Bo Ek</span>" + filler()),
        "h2 headline, no h1": _frame("Storm closes the bridge", "<div class='byline'>Up top</div>" + filler(100)
                                     + "<h2>Storm closes the bridge</h2><p class='postuser'>By Bo Ek</p>"
                                     "<a href='/authors/bo-ek'>Bo Ek</a>" + filler()),
        "no headline": _frame("Nothing", filler()),
        "empty h1 first, headline later": _frame("Storm closes the bridge", "<h1></h1><p class='byline'>x</p>"
                                                 + filler(40) + "<h1>Other</h1><a href='/author/a'>A</a>"
                                                 + filler(100) + "<h1>Storm closes the bridge</h1>"
                                                 "<a href='/author/b'>B</a>" + filler()),
        "h1 past 300 lines": _frame("Storm closes the bridge", filler(320) + "<h1>Storm closes the bridge</h1>"
                                    "<a href='/author/b'>B</a>" + filler(50)),
        "h1 in noscript": _frame("Storm", "<noscript><h1>Storm</h1></noscript>" + filler(20)
                                 + "<h1>Storm</h1><a href='/author/c'>C</a>" + filler()),
        "skipped parts": _frame("Ferry returns", "<iframe class='author'>framed text</iframe> after frame "
                                "<select><option>One</option><option>Two<script>x</script>2b</option></select>"
                                "<script class='byline'>s</script>after script<h1>Ferry returns</h1>"
                                "<noscript><a href='/author/x'>X</a></noscript>tail <a href='?author=3'>Cy</a>"),
    }
    pages = [(name, Page(text, url="https://valley.example/a").tree) for name, text in html.items()]
    xml = ("<html><head><title>Ferry returns | V</title></head><body><p class='byline'>One <!-- c -->two</p>"
           "<?pi x?>pi tail<h1>Ferry returns</h1>after<iframe><!-- c -->in frame<b>b</b>frame tail</iframe>"
           "iframe tail<a href='/author/ann'>Ann</a></body>body tail</html>")
    return pages + [("xml with comments", etree.fromstring(xml))]


def test_typing_reads_the_metadata_neighbourhood_its_own_walk_reads():
    """Page typing's one walk of the body gives the metadata the same headline
    neighbourhood (lines, headline, bylines, author links) as the metadata's own walk,
    and the chain's metadata, read after typing, is the metadata read alone."""
    from newsstemmer.metadata import article_metadata
    from newsstemmer.metadata.fields import headline_neighbourhood, neighbourhood_walk

    for name, tree in _hood_pages():
        alone = page_facts(tree)
        own = neighbourhood_walk(alone)
        own.walk(tree.find("body"))
        facts = page_facts(tree)
        page_type_features(tree, "https://valley.example/a", facts)
        assert headline_neighbourhood(tree, facts) == own.result(), name
        assert facts.neighbourhood.lines, name
        chained = article_metadata(tree, "https://valley.example/a", facts=facts)
        assert chained == article_metadata(tree, "https://valley.example/a"), name
    shapes = {name: page_facts(tree) for name, tree in _hood_pages()}
    for name, facts in shapes.items():
        page_type_features(facts.tree, None, facts)
    hoods = {name: headline_neighbourhood(facts.tree, facts) for name, facts in shapes.items()}
    assert hoods["h2 headline, no h1"].at > 60 and hoods["h2 headline, no h1"].author_links
    assert hoods["no headline"].at == -1 and len(hoods["no headline"].lines) == 301
    assert hoods["h1 after a logo h1"].lines[hoods["h1 after a logo h1"].at] == "Ferry returns"
    assert "framed text" in hoods["skipped parts"].lines and "s" not in hoods["skipped parts"].lines
    assert "pi tail" not in hoods["xml with comments"].lines and "in frame" not in hoods["xml with comments"].lines
    # a page that declares its date and author: typing leaves the neighbourhood to the
    # metadata, which seldom needs it (read by its own walk where it does)
    declared = Page(_frame("Ferry returns", "<h1>Ferry returns</h1><p>By Ann Lee</p>",
                           "<meta name='author' content='Ann Lee'><meta property='article:published_time' "
                           "content='2026-03-03'>"), url="https://valley.example/a").tree
    facts = page_facts(declared)
    page_type_features(declared, None, facts)
    assert facts.neighbourhood is None
    assert article_metadata(declared, None, facts=facts) == article_metadata(declared, None)


def test_an_empty_body_and_a_page_without_body_are_read():
    for html in ("<html><head><title>t</title></head></html>", "<html><body></body></html>"):
        page = Page(html, url="https://x.example/")
        pt = page_type(page)
        assert pt.kind in KINDS and 0.0 <= pt.score <= 1.0


def test_the_shipped_model_types_articles_listings_and_service_pages():
    assert shared_model().kind == "pagetype"
    art = page_type(Page(ARTICLE, url="https://valley.example/news/2026/03/03/ferry-returns.html"))
    assert art == PageType("article", art.score) and art.is_article and art.score > 0.5
    home = page_type(Page(LISTING, url="https://valley.example/"))
    assert home.kind == "listing" and not home.is_article
    about = page_type(Page(ABOUT, url="https://valley.example/about/"))
    assert about.kind in ("service", "error") and not about.is_article


def test_the_kind_of_a_non_article_is_the_kind_models_but_for_error_and_media_pages():
    from newsstemmer.pagetype.kinds import LEARNED_KINDS, non_article_kind, rule_kind, shared_kind_model

    model = shared_kind_model()
    assert model.kind == "pagekind" and model.info["classes"] == list(LEARNED_KINDS)
    page = Page(LISTING, url="https://valley.example/business/")
    facts = page_facts(page.tree)
    x = page_type_features(page.tree, page.url, facts)
    assert non_article_kind(x, page.url, facts) == "listing"
    # Two rules come first: a near-empty page is an error page, a gallery a media page ...
    assert non_article_kind({**x, "text_log": 4.0}, page.url, facts) == "error" == rule_kind(
        {**x, "text_log": 4.0}, page.url, facts)
    assert non_article_kind({**x, "og_video": 1.0}, page.url, facts) == "media"
    # ... but a listing's address that names media (a gallery index's page 2) stays with the model.
    listed = {**x, "url_media": 1.0, "url_listing": 1.0}
    assert non_article_kind(listed, "https://valley.example/photos/page/2/", facts) in LEARNED_KINDS


def test_what_a_page_declares_of_itself_decides_before_the_model():
    url = "https://valley.example/news/2026/03/03/ferry-returns.html"
    video = "<meta property='og:type' content='video.other'>"
    player = _frame("Watch: ferry returns", "<h1>Watch: ferry returns</h1><video></video><p>The ferry is back.</p>"
                    + "".join(f"<p><a href='/video/{k}/'>{_para(k, 6)}</a></p>" for k in range(5)), video)
    for layout_article in (None, True):  # a layout learned as "article" does not make a player one
        assert page_type(Page(player, url=url), layout_article).kind == "media"
    # a page declaring a video and holding an article's paragraphs stays an article
    assert page_type(Page(ARTICLE.replace("content='article'", "content='video.other'"), url=url)).is_article
    live = ARTICLE.replace("</head>", "<script type='application/ld+json'>{\"@type\": \"LiveBlogPosting\"}"
                                      "</script></head>")
    assert page_type(Page(live, url=url), True).kind == "live"
    assert page_type(Page(ABOUT, url="https://valley.example/about/"), True).kind == "service"
    # what the crawl treats as leaves: only these declarations, never the model's guess
    assert declared_kind(Page(player, url=url)) == "media" and declared_kind(Page(live, url=url)) == "live"
    assert declared_kind(Page(LISTING, url="https://valley.example/news/")) is None
    assert declared_kind(Page(ARTICLE, url=url)) is None


def test_a_layouts_flag_moves_the_threshold():
    assert decide(0.3, True) and not decide(0.3, None) and not decide(0.3, False)
    assert decide(0.6, None) and not decide(0.6, False) and decide(0.97, False)


def test_every_extraction_says_what_the_page_is():
    art = extract(ARTICLE, url="https://valley.example/news/2026/03/03/ferry-returns.html")
    assert art.is_article is True and art.page_type == "article" and art.page_score is not None
    assert art.published  # an article gets its metadata
    home = extract(LISTING, url="https://valley.example/")
    assert home.is_article is False and home.page_type == "listing"
    assert home.published is None and home.meta_source == {}  # a non-article gets none
    untyped = extract(LISTING, url="https://valley.example/", options=ExtractOptions(fallback="region",
                                                                                      page_type=False))
    assert untyped.page_score is None


def test_cli_extract_prints_is_article_and_page_type_for_every_page(tmp_path):
    (tmp_path / "a.html").write_text(ARTICLE)
    (tmp_path / "home.html").write_text(LISTING)
    for method in ("auto", "region", "pagerank"):
        out = subprocess.run([sys.executable, "-m", "newsstemmer", "extract", "-q", "-j", "1", "--method", method,
                              str(tmp_path / "a.html"), str(tmp_path / "home.html")],
                             capture_output=True, text=True, check=True).stdout
        lines = {json.loads(x)["source"].rsplit("/", 1)[-1]: json.loads(x) for x in out.splitlines()}
        assert (lines["a.html"]["is_article"], lines["a.html"]["page_type"]) == (True, "article"), method
        assert lines["home.html"]["is_article"] is False and lines["home.html"]["page_type"] in KINDS, method


@pytest.mark.parametrize("html", ["", "<html>"])
def test_unreadable_pages_are_errors_in_the_cli(tmp_path, html):
    (tmp_path / "x.html").write_text(html)
    out = subprocess.run([sys.executable, "-m", "newsstemmer", "extract", "-q", "-j", "1", str(tmp_path / "x.html")],
                         capture_output=True, text=True).stdout
    line = json.loads(out.splitlines()[0])
    assert line["is_article"] in (True, False) and isinstance(line["page_type"], str)
