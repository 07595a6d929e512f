"""The spider's parts without a crawl: items, start URLs, ignored extensions."""

from __future__ import annotations

import pytest
from scrapy.exceptions import UsageError

from newsstemmer.crawl.items import ArticleItem, FetchedPage
from newsstemmer.crawl.spiders.news import read_start_urls


def test_article_field_order_is_the_jsonl_order():
    assert list(ArticleItem.__dataclass_fields__)[:8] == [
        "url", "site", "title", "body", "method", "pattern", "score", "fetched_at"
    ]


def test_fetched_page_repr_is_short():
    page = FetchedPage("http://a/", "a", "<p>" * 10000)
    assert len(repr(page)) < 100


@pytest.mark.parametrize("path", [
    "/story.html", "/scan.PDF", "/photo.jpg;v=2", "/photo.jpg?w=300", "/files/a.tar.gz", "/.jpg", "/pdf", "/dir.zip/",
])
def test_ignored_extensions_are_scrapys(path):
    from scrapy.linkextractors import IGNORED_EXTENSIONS
    from scrapy.utils.url import url_has_any_extension

    from newsstemmer.crawl.spiders.news import _ignored_extension

    url = "http://a.example" + path + "#top"
    assert _ignored_extension(url) == url_has_any_extension(url, {"." + e for e in IGNORED_EXTENSIONS})


def test_start_urls_from_arguments_and_file(tmp_path):
    f = tmp_path / "sites.txt"
    f.write_text("# news sites\nhttps://example.com/\n\nexample.org  # bare host\nhttps://example.com/\n")
    assert read_start_urls("http://a.test/,http://b.test/x", str(f)) == [
        "http://a.test/", "http://b.test/x", "https://example.com/", "http://example.org/"
    ]
    assert read_start_urls() == []
    with pytest.raises(UsageError, match="cannot read"):
        read_start_urls(sites=str(tmp_path / "nope.txt"))
    with pytest.raises(UsageError, match="http"):
        read_start_urls("ftp://example.com/")
