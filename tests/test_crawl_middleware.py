"""The spider middleware: pages of known sites leave as their articles, the others go on to
the pipeline, and emit requests carry what waits in the learner's outbox."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from scrapy.utils.test import get_crawler

from newsstemmer.crawl.config import Config
from newsstemmer.crawl.items import ArticleItem, FetchedPage
from newsstemmer.crawl.learner import EMIT_META, SiteLearner
from newsstemmer.crawl.middleware import NewsstemmerSpiderMiddleware
from newsstemmer.crawl.outbox import Parcel
from newsstemmer.crawl.rounds import run_round
from newsstemmer.crawl.storage.sqlite_buffer import PageBuffer
from newsstemmer.crawl.testing import build_test_site

SITE = "127.0.0.1:8000"


@pytest.fixture(scope="module")
def pages():
    site = build_test_site(n_articles=16, hostile=False)
    return [FetchedPage("http://127.0.0.1:8000" + path, SITE, body.decode("utf-8"), [site.articles[path][0]])
            for path, (_, _, body) in site.pages.items() if path in site.articles]


def _middleware(tmp_path, pages, monkeypatch) -> NewsstemmerSpiderMiddleware:
    """The middleware of a crawl that starts with the site's patterns learned (no reactor:
    work done at once is awaited as the Deferred it is)."""
    from newsstemmer.crawl import learner as learner_module

    monkeypatch.setattr(learner_module, "maybe_deferred_to_future", lambda d: d)
    config = Config(state_dir=tmp_path / "state", patterns_dir=tmp_path / "patterns")
    buf = PageBuffer(config.buffer_path)
    for p in pages:
        buf.add(p)
    run_round(config, SITE, buf.urls(SITE), None, learn_now=True, save=True)
    buf.delete(SITE, buf.urls(SITE))
    buf.close()
    crawler = get_crawler(settings_dict={
        "NEWSSTEMMER_STATE_DIR": str(config.state_dir), "NEWSSTEMMER_PATTERNS_DIR": str(config.patterns_dir),
    })
    return NewsstemmerSpiderMiddleware.from_crawler(crawler)


def _output(middleware, response, items) -> list:
    """Everything the middleware yields for a response whose callback yielded ``items``
    (driven without a reactor: nothing in it waits)."""

    async def result():
        for x in items:
            yield x

    async def collect():
        return [x async for x in middleware.process_spider_output(response, result())]

    coro = collect()
    with pytest.raises(StopIteration) as stop:
        coro.send(None)
    return stop.value.value


def test_a_known_sites_page_leaves_as_its_article(tmp_path, pages, monkeypatch):
    mw = _middleware(tmp_path, pages, monkeypatch)
    page = pages[0]
    (out,) = _output(mw, SimpleNamespace(meta={}), [page])
    assert isinstance(out, ArticleItem) and out.url == page.url and out.method.startswith("pattern")
    assert not mw.learner.outbox.waiting()


def test_other_pages_and_items_pass_on(tmp_path, pages, monkeypatch):
    mw = _middleware(tmp_path, pages, monkeypatch)
    other = FetchedPage("http://elsewhere.example/a.html", "elsewhere.example", "<p>unknown</p>")
    assert _output(mw, SimpleNamespace(meta={}), [other, {"x": 1}]) == [other, {"x": 1}]


def test_an_emit_request_carries_its_sites_waiting_articles(tmp_path, pages, monkeypatch):
    mw = _middleware(tmp_path, pages, monkeypatch)
    learner: SiteLearner = mw.learner
    waiting = [ArticleItem(url=p.url, site=SITE, title="t", body="b") for p in pages[:2]]
    for item in waiting:
        learner.outbox.put(SITE, Parcel(item, SITE))
    assert _output(mw, SimpleNamespace(meta={EMIT_META: "other"}), []) == []
    assert _output(mw, SimpleNamespace(meta={EMIT_META: SITE}), []) == waiting
    assert _output(mw, SimpleNamespace(meta={EMIT_META: SITE}), []) == []
