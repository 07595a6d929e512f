"""Unit tests of the Scrapy layer's plain parts: config, stores, start URLs, rounds, add-on."""

from __future__ import annotations

import dataclasses

import json
import sqlite3
from pathlib import Path

import pytest
from scrapy.exceptions import UsageError
from scrapy.settings import Settings

from newsstemmer import SitePatterns
from newsstemmer.crawl.addon import NewsstemmerAddon
from newsstemmer.crawl.storage.sqlite_buffer import PageBuffer
from newsstemmer.crawl.config import DEFAULTS, Config
from newsstemmer.crawl.extension import NewsstemmerExtension
from newsstemmer.crawl.items import Article, FetchedPage
from newsstemmer.crawl.learner import (
    EXTRACTED,
    FAILED,
    NON_ARTICLE,
    UNMATCHED,
    Outcome,
    extract_page,
    load_patterns,
    merge_patterns,
    patterns_path,
    run_round,
)
from newsstemmer.crawl.storage.sqlite_anchors import LinkInfo
from newsstemmer.crawl.middleware import NewsstemmerSpiderMiddleware
from newsstemmer.crawl.pipeline import NewsstemmerPipeline
from newsstemmer.crawl.spiders.news import read_start_urls
from newsstemmer.crawl.testing import build_test_site

SITE = "127.0.0.1:8000"


def _pages(site, base="http://127.0.0.1:8000"):
    out = []
    for path, (_, _, body) in site.pages.items():
        if path in site.articles or path.endswith("/"):
            out.append(FetchedPage(base + path, SITE, body.decode("utf-8"), [site.articles.get(path, ("",))[0]]))
    return out


@pytest.fixture(scope="module")
def test_site():
    return build_test_site(n_articles=24, hostile=False)


def _config(tmp_path: Path, **kw) -> Config:
    return Config(state_dir=tmp_path / "state", patterns_dir=tmp_path / "patterns", **kw)


# -- config and items ---------------------------------------------------------------------


def test_config_defaults_and_settings():
    assert Config.from_settings(Settings()) == Config()
    assert set(DEFAULTS) == {f"NEWSSTEMMER_{f.upper()}" for f in Config.__dataclass_fields__}
    c = Config.from_settings(Settings({"NEWSSTEMMER_MIN_PAGES": "7", "NEWSSTEMMER_ENABLED": "False",
                                       "NEWSSTEMMER_STATE_DIR": "/tmp/x"}))
    assert (c.min_pages, c.enabled, c.buffer_path) == (7, False, Path("/tmp/x/buffer.sqlite"))


def test_article_field_order_is_the_jsonl_order():
    assert list(Article.__dataclass_fields__)[:8] == [
        "url", "site", "title", "body", "method", "pattern", "score", "fetched_at"
    ]


def test_fetched_page_repr_is_short():
    page = FetchedPage("http://a/", "a", "<p>" * 10000)
    assert len(repr(page)) < 100


# -- stores ------------------------------------------------------------------------------------


def test_linkinfo_keeps_every_anchor_text(tmp_path):
    li = LinkInfo(tmp_path / "l.sqlite")
    li.add("a", "http://a/", [("http://a/x", "Storm closes  coast road"), ("http://a/x", "Read more"), ("http://a/y", "")])
    li.add("a", "http://a/news/", [("http://a/x", "Coast road closed"), ("http://a/x", "Storm closes coast road")])
    li.add("a", "http://a/news/", [("http://a/x", "Coast road closed")])  # the same link seen again
    assert li.anchors("http://a/x") == ["Storm closes coast road", "Read more", "Coast road closed"]
    assert len(li.sources("http://a/x")) == 4
    assert li.anchors("http://a/y") == []
    assert li.anchors(["http://a/old", "http://a/x"])[0] == "Storm closes coast road"
    n = li.export_jsonl("a", tmp_path / "links.jsonl")
    assert n == 1
    assert json.loads((tmp_path / "links.jsonl").read_text())["anchors"][2] == "Coast road closed"
    li.close()


def test_buffer_round_trip_survives_reopening(tmp_path):
    buf = PageBuffer(tmp_path / "b.sqlite")
    buf.add(FetchedPage("http://a/1", "a", "<p>one</p>", ["One"], "2026-01-01T00:00:00+00:00"))
    buf.add(FetchedPage("http://a/2", "a", "<p>two</p>"))
    buf.add(FetchedPage("http://b/1", "b", "<p>b</p>"))
    buf.add(FetchedPage("http://a/1", "a", "<p>one again</p>", ["One"]))  # replaces
    buf.close()
    buf = PageBuffer(tmp_path / "b.sqlite")
    assert buf.sites() == {"a": 2, "b": 1}
    assert buf.urls("a") == ["http://a/2", "http://a/1"]
    (p,) = buf.get("a", ["http://a/1", "http://a/missing"])
    assert (p.html, p.anchor_texts) == ("<p>one again</p>", ["One"])
    assert buf.delete("a", ["http://a/1", "http://a/missing"]) == 1
    assert buf.count() == 2
    mode = sqlite3.connect(tmp_path / "b.sqlite").execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"


# -- start URLs and links -------------------------------------------------------------------------


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
        "http://a.test/", "http://b.test/x", "https://example.com/", "https://example.org/"
    ]
    assert read_start_urls() == []
    with pytest.raises(UsageError, match="cannot read"):
        read_start_urls(sites=str(tmp_path / "nope.txt"))
    with pytest.raises(UsageError, match="http"):
        read_start_urls("ftp://example.com/")


# -- rounds (what the worker thread runs) ---------------------------------------------------------


def test_learning_round_learns_saves_and_extracts(tmp_path, test_site):
    config = _config(tmp_path)
    buf = PageBuffer(config.buffer_path)
    pages = _pages(test_site)
    for p in pages:
        buf.add(p)
    urls = buf.urls(SITE)
    result = run_round(config, SITE, urls, None, learn_now=True, save=True)
    assert result.changed and result.saved == patterns_path(config.patterns_dir, SITE)
    assert SitePatterns.load(result.saved).site == SITE
    by_url = {o.url: o for o in result.outcomes}
    assert len(by_url) == len(pages)
    for path, (title, body) in test_site.articles.items():
        o = by_url["http://127.0.0.1:8000" + path]
        assert o.kind == EXTRACTED and o.item.method.startswith("pattern")
        assert o.item.title == title
        assert " ".join(o.item.body.split()) == " ".join(body.split())
    assert {o.kind for o in result.outcomes} <= {EXTRACTED, NON_ARTICLE, UNMATCHED}
    # a retry round with the patterns learned extracts without learning again
    again = run_round(config, SITE, urls[:3], result.patterns, learn_now=False, save=False)
    assert not again.changed and len(again.outcomes) == 3


@pytest.mark.parametrize("on", [False, True])
def test_section_model_setting_reaches_learning(tmp_path, test_site, on):
    """NEWSSTEMMER_SECTION_MODEL (off by default) decides whether a round's learning applies
    the learned section decision; a file learned with it carries the layouts' agreement
    with the region extractor."""
    settings = {} if not on else {"NEWSSTEMMER_SECTION_MODEL": True}
    assert Config.from_settings(Settings(settings)).section_model is on
    config = dataclasses.replace(_config(tmp_path), section_model=on)
    buf = PageBuffer(config.buffer_path)
    for p in _pages(test_site):
        buf.add(p)
    result = run_round(config, SITE, buf.urls(SITE), None, learn_now=True, save=True)
    saved = SitePatterns.load(result.saved)
    assert ("region_agreement" in saved.extras) is on


def test_round_with_one_page_emits_it_unmatched_with_a_reason(tmp_path, test_site):
    config = _config(tmp_path)
    buf = PageBuffer(config.buffer_path)
    page = _pages(test_site)[0]
    buf.add(page)
    result = run_round(config, SITE, [page.url, "http://gone/"], None, learn_now=True, save=False)
    (o,) = result.outcomes
    assert o.kind == UNMATCHED and "no layout learned" in o.item.reason
    # no layout, but the page still gets its single-page extraction
    assert o.item.method == "region" and o.item.body
    assert result.saved is None and not (config.patterns_dir).exists()


@pytest.mark.parametrize("method", ["crf", ""])
def test_single_page_method_setting(tmp_path, test_site, method):
    config = dataclasses.replace(_config(tmp_path), single_page_method=method)
    buf = PageBuffer(config.buffer_path)
    page = _pages(test_site)[0]
    buf.add(page)
    (o,) = run_round(config, SITE, [page.url], None, learn_now=True, save=False).outcomes
    assert o.kind == UNMATCHED
    if method:
        assert o.item.method == "crf" and o.item.body
    else:
        assert o.item.method is None and o.item.body == ""


def test_single_page_method_setting_is_checked():
    assert Config.from_settings(Settings({"NEWSSTEMMER_SINGLE_PAGE_METHOD": "CRF"})).single_page_method == "crf"
    assert Config.from_settings(Settings({"NEWSSTEMMER_SINGLE_PAGE_METHOD": "none"})).single_page_method == ""
    with pytest.raises(ValueError, match="NEWSSTEMMER_SINGLE_PAGE_METHOD.*pagerank"):
        Config.from_settings(Settings({"NEWSSTEMMER_SINGLE_PAGE_METHOD": "readability"}))


def test_extract_page_never_raises(tmp_path):
    sp = SitePatterns(SITE, [])
    assert extract_page(FetchedPage("http://a/", "a", ""), sp).kind == FAILED
    assert extract_page(FetchedPage("http://a/", "a", "<p>hello there friends</p>"), None).kind == UNMATCHED


class _Done:
    """An awaitable that is already finished (stands in for a thread's Deferred without a reactor)."""

    def __init__(self, value):
        self.value = value

    def __await__(self):
        return self.value
        yield  # pragma: no cover - makes this a generator


def _finish(coro):
    """The value of a coroutine that never suspends."""
    with pytest.raises(StopIteration) as stop:
        coro.send(None)
    return stop.value.value


def test_known_layouts_extract_small_pages_at_once_and_large_ones_in_a_thread(tmp_path, test_site, monkeypatch):
    from scrapy.utils.test import get_crawler

    from newsstemmer.crawl import learner as learner_module

    config = _config(tmp_path)
    pages = _pages(test_site)
    buf = PageBuffer(config.buffer_path)
    for p in pages:
        buf.add(p)
    run_round(config, SITE, buf.urls(SITE), None, learn_now=True, save=True)
    buf.close()
    crawler = get_crawler(settings_dict={
        "NEWSSTEMMER_STATE_DIR": str(config.state_dir), "NEWSSTEMMER_PATTERNS_DIR": str(config.patterns_dir),
    })
    learner = learner_module.SiteLearner.for_crawler(crawler)
    article = next(p for p in pages if p.url.endswith(".html"))
    threaded = []

    def to_thread(f, *args, **kwargs):
        threaded.append(args[0].url)
        return _Done(f(*args, **kwargs))

    monkeypatch.setattr(learner_module, "deferToThread", to_thread)
    monkeypatch.setattr(learner_module, "maybe_deferred_to_future", lambda d: d)
    at_once = _finish(learner.process(article))
    assert isinstance(at_once, Article) and at_once.method.startswith("pattern") and threaded == []
    monkeypatch.setattr(learner_module, "INLINE_MAX_CHARS", len(article.html) - 1)
    assert _finish(learner.process(article)) == at_once and threaded == [article.url]


def test_small_learning_rounds_run_at_once_and_large_ones_in_a_thread(tmp_path, test_site, monkeypatch):
    from scrapy.utils.test import get_crawler
    from twisted.internet.defer import succeed

    from newsstemmer.crawl import learner as learner_module

    config = _config(tmp_path)
    crawler = get_crawler(settings_dict={
        "NEWSSTEMMER_STATE_DIR": str(config.state_dir), "NEWSSTEMMER_PATTERNS_DIR": str(config.patterns_dir),
        "NEWSSTEMMER_MIN_PAGES": 1000,  # no round of its own: the test starts them
    })
    learner = learner_module.SiteLearner.for_crawler(crawler)
    pages = _pages(test_site)
    for p in pages:
        learner.buffer_page(p)
    urls = learner.buffer.urls(SITE)
    size = learner.buffer.size(SITE, urls)
    assert size == sum(len(p.html) for p in pages) and learner.buffer.size(SITE, urls[:1]) == len(pages[0].html)
    threaded = []

    def to_thread(f, *args, **kwargs):
        threaded.append(args[1])
        return succeed(f(*args, **kwargs))

    monkeypatch.setattr(learner_module, "deferToThread", to_thread)
    monkeypatch.setattr(learner_module, "ROUND_INLINE_MAX_CHARS", size)
    learner._start_round(SITE, urls, learn_now=True, save=False)
    assert threaded == [] and SITE in learner.patterns and SITE not in learner._busy
    left = learner.buffer.urls(SITE)  # (pages that gave no item have left the buffer)
    monkeypatch.setattr(learner_module, "ROUND_INLINE_MAX_CHARS", learner.buffer.size(SITE, left) - 1)
    learner._start_round(SITE, left, learn_now=True, save=False)
    assert threaded == [SITE] and SITE not in learner._busy


def test_the_last_round_waits_for_pages_still_in_the_second_process(tmp_path, test_site):
    """At the crawl's end a site's buffered pages are learned together: not in two rounds
    because some of them came back from the second process later (a flaky crawl test)."""
    from scrapy.utils.test import get_crawler

    from newsstemmer.crawl import learner as learner_module

    config = _config(tmp_path)
    crawler = get_crawler(settings_dict={
        "NEWSSTEMMER_STATE_DIR": str(config.state_dir), "NEWSSTEMMER_PATTERNS_DIR": str(config.patterns_dir),
    })
    learner = learner_module.SiteLearner.for_crawler(crawler)
    rounds = []
    learner._start_round = lambda site, urls, learn_now, save: rounds.append(len(urls))
    pages = _pages(test_site)[:4]
    learner.final = True
    for p in pages[2:]:
        learner._aside[id(p)] = p  # out in the second process
    for p in pages[:2]:
        learner.buffer_page(p)
    assert rounds == []
    learner._extracted_aside(Outcome(pages[2].url, UNMATCHED), pages[2])  # back, to the buffer
    assert rounds == []  # (one page still out)
    learner._extracted_aside(Outcome(pages[3].url, NON_ARTICLE), pages[3])  # back, not buffered
    assert rounds == [3]


def test_merge_and_load_patterns(tmp_path, test_site):
    config = _config(tmp_path)
    buf = PageBuffer(config.buffer_path)
    for p in _pages(test_site):
        buf.add(p)
    first = run_round(config, SITE, buf.urls(SITE), None, True, True).patterns
    merged = merge_patterns(first, first)
    ids = [p.id for p in merged.patterns]
    assert len(ids) == 2 * len(first.patterns) and len(set(ids)) == len(ids)
    # the added layouts are the file's next version; a first learning is version 1
    assert [p.version for p in merged.patterns] == [1] * len(first.patterns) + [2] * len(first.patterns)
    assert [h["version"] for h in merged.history] == [1, 2]
    alone = merge_patterns(None, first)
    assert [p.id for p in alone.patterns] == [p.id for p in first.patterns] and alone.revision == 1
    (config.patterns_dir / "broken.json").write_text("{not json")
    (config.patterns_dir / "README.md").write_text("not a pattern file")
    loaded = load_patterns(config.patterns_dir)
    assert list(loaded) == [SITE]
    assert load_patterns(tmp_path / "none") == {}


# -- add-on --------------------------------------------------------------------------------------


def test_addon_registers_the_three_components():
    settings = Settings({"ITEM_PIPELINES": {"scrapy.pipelines.files.FilesPipeline": 300}})
    NewsstemmerAddon().update_settings(settings)
    assert settings.getdict("SPIDER_MIDDLEWARES")[NewsstemmerSpiderMiddleware] > 0
    pipelines = settings.getdict("ITEM_PIPELINES")
    assert pipelines[NewsstemmerPipeline] < pipelines["scrapy.pipelines.files.FilesPipeline"]
    assert NewsstemmerExtension in settings.getdict("EXTENSIONS")


def test_components_are_not_configured_when_disabled():
    from scrapy.exceptions import NotConfigured
    from scrapy.utils.test import get_crawler

    crawler = get_crawler(settings_dict={"NEWSSTEMMER_ENABLED": False})
    for component in (NewsstemmerSpiderMiddleware, NewsstemmerPipeline, NewsstemmerExtension):
        with pytest.raises(NotConfigured):
            component.from_crawler(crawler)


# -- frontier and feeds ---------------------------------------------------------------------------


def test_frontier_resumes_only_interrupted_crawls(tmp_path):
    from newsstemmer.crawl.storage.sqlite_frontier import Frontier

    db = tmp_path / "frontier.sqlite"
    f = Frontier(db)
    assert f.begin() is None  # fresh
    assert f.admit("a", "http://a/", 0, limit=3) and f.admit("a", "http://a/1", 1, limit=3)
    assert not f.admit("a", "http://a/1", 1, limit=3)  # once per crawl
    assert f.admit("a", "http://a/2", 1, limit=3) and not f.admit("a", "http://a/3", 1, limit=3)  # limit
    assert f.admit("b", "http://b/", 0, limit=3)
    f.done(["http://a/", "http://a/unknown"])
    f.close()  # killed: the run never ended

    f = Frontier(db)
    resume = f.begin()
    assert resume is not None and resume.reason is None and resume.done == 1 and not resume.by_scrapy
    assert resume.pending == [("http://a/1", 1), ("http://a/2", 1), ("http://b/", 0)]
    assert f.count("a") == 3 and not f.admit("a", "http://a/", 0)  # done pages are not fetched again
    assert not f.admit("b", "http://b/", 0, limit=3)  # nor pending ones (their site is below its limit)
    assert f.known("http://a/2") and not f.known("http://a/3")  # a/3 was left out by the limit
    f.end("shutdown")
    f.close()

    f = Frontier(db)
    assert f.begin(jobdir="/job").by_scrapy is False  # the stopped run had no JOBDIR
    f.end("shutdown")
    f.close()
    f = Frontier(db)
    assert f.begin(jobdir="/job").by_scrapy is True
    f.end("finished")
    f.close()

    f = Frontier(db)
    assert f.begin(jobdir="/job") is None and f.pending() == 0  # a finished crawl is not resumed
    f.close()


def test_addon_installs_a_flushing_feed_storage_unless_the_project_has_one(tmp_path):
    from newsstemmer.crawl.feeds import FlushingFileFeedStorage

    settings = Settings()
    NewsstemmerAddon().update_settings(settings)
    assert settings.getdict("FEED_STORAGES")["file"] is FlushingFileFeedStorage
    settings = Settings({"FEED_STORAGES": {"file": "myproject.Storage"}})
    NewsstemmerAddon().update_settings(settings)
    assert settings.getdict("FEED_STORAGES")["file"] == "myproject.Storage"

    storage = FlushingFileFeedStorage(str(tmp_path / "out" / "f.jsonl"), feed_options={"overwrite": True})
    fh = storage.open(None)
    fh.write(b'{"a": 1}\n')
    assert (tmp_path / "out" / "f.jsonl").read_bytes() == b'{"a": 1}\n'  # on disk before close
    storage.store(fh)
