"""The item pipeline: pages no known layout matches go to the buffer, articles pass on
with incremental runs' verdict."""

from __future__ import annotations

import pytest
from scrapy.utils.test import get_crawler

from newsstemmer.crawl.items import ArticleItem, FetchedPage
from newsstemmer.crawl.pipeline import Buffered, NewsstemmerPipeline


def _pipeline(tmp_path, **settings) -> NewsstemmerPipeline:
    crawler = get_crawler(settings_dict={
        "NEWSSTEMMER_STATE_DIR": str(tmp_path / "state"), "NEWSSTEMMER_PATTERNS_DIR": str(tmp_path / "patterns"),
        "NEWSSTEMMER_MIN_PAGES": 100, **settings,
    })
    return NewsstemmerPipeline.from_crawler(crawler)


def test_a_page_is_buffered_and_leaves_the_item_flow(tmp_path):
    pipe = _pipeline(tmp_path)
    page = FetchedPage("http://a.example/1.html", "a.example", "<p>one</p>")
    with pytest.raises(Buffered, match="buffered until a.example is learned"):
        pipe.process_item(page)
    assert pipe.learner.buffer.urls("a.example") == [page.url]
    assert pipe.crawler.stats.get_value("newsstemmer/pages_buffered") == 1


def test_an_article_passes_and_is_counted_new(tmp_path):
    pipe = _pipeline(tmp_path)
    item = ArticleItem(url="http://a.example/1.html", site="a.example", title="T", body="B")
    assert pipe.process_item(item) is item
    assert pipe.crawler.stats.get_value("newsstemmer/items_new") == 1
    assert pipe.process_item({"other": "item"}) == {"other": "item"}
