"""The spider reads links from the page's one parse: the links Scrapy's LinkExtractor finds, and
the tree goes on to extraction instead of a second parse."""

from __future__ import annotations

from itemadapter import ItemAdapter
from scrapy.http import HtmlResponse, Request
from scrapy.linkextractors import LinkExtractor
from scrapy.utils.response import get_base_url

from newsstemmer import SitePatterns
from newsstemmer.crawl.items import FetchedPage
from newsstemmer.crawl.learner import extract_page
from newsstemmer.crawl.link_reading import tree_links
from newsstemmer.demo import build_site
from newsstemmer.dom.parse import parse_html

URL = "http://news.example/section/page.html"


def _scrapy_links(response: HtmlResponse) -> list[tuple[str, str]]:
    return [(link.url, link.text) for link in LinkExtractor(unique=False, deny_extensions=()).extract_links(response)]


def _tree_links(response: HtmlResponse) -> list[tuple[str, str]]:
    return tree_links(parse_html(response.text), response.url, get_base_url(response), response.encoding)


def _response(html: str, encoding: str = "utf-8", url: str = URL) -> HtmlResponse:
    return HtmlResponse(url, body=html.encode(encoding), encoding=encoding, request=Request(url))


AWKWARD = """<html><head><title>t</title></head><body>
<a href="/a">Plain</a>
<a href=" other.html#top ">Relative, <b>bold</b> <!-- a comment --> text</a>
<A HREF="../up?q=café&amp;x=1">Upper case, accents</A>
<a href="//cdn.example/img.png"><img src="x.png" alt="picture"></a>
<a href="javascript:void(0)">script</a><a href="mailto:a@news.example">mail</a>
<a href="http://news.example:99999/">bad port</a>
<a name="anchor-without-href">no href</a>
<map><area href="/map-target" alt="region"></map>
<a href="/a">Plain</a><a href="/a">Again, another text</a>
<a href="ftp://files.example/x">ftp</a><a href="">empty href</a>
<!-- <a href="/commented-out">hidden</a> -->
<p>text <a href="/in-text">in a paragraph</a> tail</p>
</body></html>"""


def test_the_same_links_as_scrapys_link_extractor():
    for encoding in ("utf-8", "cp1252"):
        response = _response(AWKWARD, encoding)
        found = _tree_links(response)
        assert found == _scrapy_links(response)
        assert ("http://news.example/a", "Plain") in found and found.count(("http://news.example/a", "Plain")) == 2
        assert all("commented-out" not in url for url, _ in found)


def test_a_base_href_is_followed():
    html = '<html><head><base href="http://other.example/dir/"></head><body><a href="x">X</a></body></html>'
    response = _response(html)
    assert _tree_links(response) == _scrapy_links(response) == [("http://other.example/dir/x", "X")]


ROOTED = """<html><head>{base}</head><body>
<a href="/news/a">A</a><a href=" /news/b?q=café ">B</a><a href="/x/../y/./z">dots</a>
<a href="http://news.example/c">C</a><a href="HTTPS://news.example/d">D</a><a href="http:///e">no host</a>
<a href="https://other.example:99999/">bad port</a><a href="//cdn.example/f">scheme-relative</a>
<a href="rel">relative</a></body></html>"""


def test_links_from_the_root_are_the_same_from_any_page_that_shares_them():
    # the URLs of root paths and whole URLs are kept between pages of one scheme and host:
    # the pages below share their hrefs but not their URL, scheme, host, base or encoding
    pages = [("http://news.example/one.html", "", "utf-8"), ("http://news.example/s/two.html", "", "utf-8"),
             ("https://news.example/three.html", "", "utf-8"), ("http://news.example:8080/four", "", "utf-8"),
             ("http://news.example/five", '<base href="https://other.example/dir/">', "utf-8"),
             ("https://other.example/six", '<base href="http://news.example/">', "utf-8"),
             ("http://news.example/seven", "", "cp1252"), ("http://news.example/one.html", "", "utf-8")]
    for url, base, encoding in pages:
        response = _response(ROOTED.format(base=base), encoding, url)
        assert _tree_links(response) == _scrapy_links(response), (url, base, encoding)


def test_the_same_links_on_every_demo_page():
    site = build_site()
    checked = 0
    for page in site:
        if page.kind in ("robots", "sitemap"):
            continue
        response = HtmlResponse("http://127.0.0.1:8765" + page.path, body=page.body,
                                headers={"Content-Type": page.content_type})
        assert _tree_links(response) == _scrapy_links(response), page.path
        checked += 1
    assert checked > 100


def test_links_after_an_early_end_of_document_are_found():
    # libxml2 (and so Scrapy) drops what follows an early </body></html>; browsers, and
    # newsstemmer's parse, do not
    html = ('<html><body><a href="/before">Before</a></body></html>'
            '<div><a href="/after">After</a></div></body></html>')
    response = _response(html)
    assert _scrapy_links(response) == [("http://news.example/before", "Before")]
    assert _tree_links(response) == [("http://news.example/before", "Before"), ("http://news.example/after", "After")]


def test_the_spiders_tree_is_extractions_tree_and_never_exported():
    html = "<html><body><h1>Title</h1><p>" + "Some words of a body. " * 20 + "</p></body></html>"
    page = FetchedPage(URL, "news.example", html, ["Title"])
    assert page.tree is None and not page.core_page().parsed  # no tree: the core parses
    page.tree = parse_html(html)
    core = page.core_page()
    assert core.parsed and core.tree is page.tree
    assert set(ItemAdapter(page).asdict()) == {"url", "site", "html", "anchor_texts", "fetched_at"}
    outcome = extract_page(page, SitePatterns("news.example", []))
    assert outcome.kind == "unmatched"


def test_the_spider_hands_its_parse_and_the_links_on(tmp_path):
    from scrapy.utils.test import get_crawler

    from newsstemmer.crawl.spiders.news import NewsSpider

    settings = {"NEWSSTEMMER_STATE_DIR": str(tmp_path / "state"), "NEWSSTEMMER_PATTERNS_DIR": str(tmp_path / "p")}
    crawler = get_crawler(NewsSpider, settings)
    spider = NewsSpider.from_crawler(crawler, urls="http://news.example/")
    crawler.spider = spider
    try:
        out = list(spider.parse(_response(AWKWARD)))
    finally:
        spider._spider_closed("finished")
    page = out[0]
    assert isinstance(page, FetchedPage) and page.tree is not None
    assert page.tree.findtext(".//title") == "t"
    assert sorted(r.url for r in out[1:]) == [
        "http://news.example/a", "http://news.example/in-text", "http://news.example/map-target",
        "http://news.example/section/other.html", "http://news.example/up?q=caf%C3%A9&x=1",
    ]
