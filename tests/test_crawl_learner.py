"""The learner without a crawl: rounds, extraction of known layouts, where work runs, pattern files."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from scrapy.exceptions import DontCloseSpider
from scrapy.settings import Settings

from newsstemmer import SitePatterns
from newsstemmer.crawl.config import Config
from newsstemmer.crawl.items import ArticleItem, FetchedPage
from newsstemmer.crawl.learner import (
    EXTRACTED, FAILED, NON_ARTICLE, UNMATCHED, Outcome, extract_page, load_patterns, merge_patterns, patterns_path,
    run_round,
)
from newsstemmer.crawl.rounds import MIN_OTHER_LAYOUT_PAGES, without_weak_others
from newsstemmer.demo.sitemodel import codec
from newsstemmer.crawl.storage.sqlite_buffer import PageBuffer
from newsstemmer.crawl.testing import build_test_site

from demo_first_round import FIRST_ROUND, first_round_site  # noqa: E402

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
    from newsstemmer.crawl import work as work_module

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

    monkeypatch.setattr(work_module, "deferToThread", to_thread)
    monkeypatch.setattr(learner_module, "maybe_deferred_to_future", lambda d: d)
    assert _finish(learner.process(article)) is None  # (its article waits for its own response)
    (at_once,) = learner.take(id(article))
    assert isinstance(at_once, ArticleItem) and at_once.method.startswith("pattern") and threaded == []
    # the same article again while the first is on its way: claimed once (emit claims)
    assert _finish(learner.process(article)) is None and learner.take(id(article)) == []
    assert learner.stats.get_value("newsstemmer/duplicates_skipped") == 1
    learner.item_dropped(at_once)  # not sent (a later pipeline dropped it): its claim is given back
    monkeypatch.setattr(work_module, "INLINE_MAX_CHARS", len(article.html) - 1)
    assert _finish(learner.process(article)) is None
    (threaded_item,) = learner.take(id(article))
    assert threaded_item == at_once and threaded == [article.url]
    learner.item_scraped(threaded_item)  # in the feed: not sent again in this crawl
    assert _finish(learner.process(article)) is None and learner.take(id(article)) == []
    assert learner.stats.get_value("newsstemmer/duplicates_skipped") == 2


def test_small_learning_rounds_run_at_once_and_large_ones_in_a_thread(tmp_path, test_site, monkeypatch):
    from scrapy.utils.test import get_crawler
    from twisted.internet.defer import succeed

    from newsstemmer.crawl import learner as learner_module
    from newsstemmer.crawl import work as work_module

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

    monkeypatch.setattr(work_module, "deferToThread", to_thread)
    monkeypatch.setattr(work_module, "ROUND_INLINE_MAX_CHARS", size)
    learner._start_round(SITE, urls, learn_now=True, save=False)
    assert threaded == [] and SITE in learner.patterns and SITE not in learner._busy
    left = learner.buffer.urls(SITE)  # (pages that gave no item have left the buffer)
    monkeypatch.setattr(work_module, "ROUND_INLINE_MAX_CHARS", learner.buffer.size(SITE, left) - 1)
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


def test_the_learner_keeps_at_most_six_private_collections(tmp_path, test_site):
    """Where work runs is the WorkRunner's, what goes back into the crawl the Outbox's: after
    a crawl (driven here without a reactor: rounds run at once) the learner's own private
    collections are few."""
    from scrapy.utils.test import get_crawler

    from newsstemmer.crawl.learner import SiteLearner

    config = _config(tmp_path)
    crawler = get_crawler(settings_dict={
        "NEWSSTEMMER_STATE_DIR": str(config.state_dir), "NEWSSTEMMER_PATTERNS_DIR": str(config.patterns_dir),
        "NEWSSTEMMER_MIN_PAGES": 5,
    })
    learner = SiteLearner.for_crawler(crawler)
    learner.spider_opened()
    pages = _pages(test_site)
    for page in pages[:8]:
        learner.buffer_page(page)  # learned once five wait
    assert SITE in learner.patterns
    for page in pages[8:]:
        unmatched = _finish(learner.process(page))
        if unmatched is not None:
            learner.buffer_page(unmatched)  # (what the pipeline does)
        for item in learner.take(id(page)):
            learner.item_scraped(item)
    with pytest.raises(DontCloseSpider):
        learner.spider_idle()  # the last round's articles wait for their emit request
    for item in learner.take(SITE):
        learner.item_scraped(item)
    learner.spider_idle()
    assert not learner.busy() and learner.buffer.count() == 0
    containers = (dict, set, list, tuple, frozenset)
    private = sorted(k for k, v in vars(learner).items() if k.startswith("_") and isinstance(v, containers))
    assert len(private) <= 6, private
    learner.spider_closed("finished")


def test_a_round_keeps_no_layout_of_two_pages_that_says_not_articles(tmp_path):
    """Two Japanese articles of the demo's first round learn a layout that scores "not
    articles"; kept, it matched the section's later articles and typed half of them
    listings (the soak's missed ``/ja/`` articles).  The round drops it: its two pages are
    typed alone (articles), and a later Japanese article is not matched by it."""
    site, ja = first_round_site()
    config = _config(tmp_path)
    buf = PageBuffer(config.buffer_path)
    host = "127.0.0.1:8000"
    for path in FIRST_ROUND:
        buf.add(FetchedPage(f"http://{host}{path}", host, site.pages[path][2].decode(codec("shift_jis" if "/ja/" in path
                                                                                          else "utf-8"))))
    result = run_round(config, host, buf.urls(host), None, learn_now=True, save=True)
    assert result.changed and result.patterns is not None
    assert all(p.article or p.pages >= MIN_OTHER_LAYOUT_PAGES for p in result.patterns.patterns)
    by_path = {o.url.split(host, 1)[1]: o for o in result.outcomes}
    for path in FIRST_ROUND[7:9]:  # the two Japanese articles
        assert by_path[path].kind in (EXTRACTED, UNMATCHED) and by_path[path].item.is_article
    later = next(p for p in ja if p not in FIRST_ROUND)
    page = FetchedPage(f"http://{host}{later}", host, site.pages[later][2].decode(codec("shift_jis")))
    assert extract_page(page, result.patterns).kind != NON_ARTICLE
    # the ids stay as learned (pattern-file extras are keyed by them); layouts known before stay
    saved = SitePatterns.load(result.saved)
    assert [p.id for p in saved.patterns] == [p.id for p in result.patterns.patterns]
    assert "p4" not in {p.id for p in saved.patterns}  # (p4: the two Japanese articles' layout)
    weak = dataclasses.replace(saved.patterns[0], id="p9", article=False, pages=2)
    grown = dataclasses.replace(saved, patterns=[*saved.patterns, weak], history=[{"added": ["p9"]}])
    assert [p.id for p in without_weak_others(grown, saved).patterns] == [p.id for p in saved.patterns]
    assert grown.history[-1]["added"] == []
    kept = dataclasses.replace(saved, patterns=[*saved.patterns, weak])
    assert without_weak_others(kept, kept).patterns[-1].id == "p9"  # a file's own layouts stay


def test_an_articles_emit_claim_is_keyed_by_its_canonical_url():
    """Two pages of one article (one canonical URL) share a claim; a non-article keeps its own URL
    (a listing's pages often name its first page as canonical)."""
    from newsstemmer.crawl.items import NonArticleItem
    from newsstemmer.crawl.learner import emit_key

    def article(url, canonical=None):
        return ArticleItem(url, SITE, "T", "B", canonical_url=canonical)

    story = "http://127.0.0.1:8000/news/story.html"
    assert emit_key(article(story + "?amp=1", story)) == emit_key(article(story + "?print=1", story)) == story
    assert emit_key(article(story + "?amp=1", story)) != emit_key(article(story + "?amp=1", story + "2"))
    assert emit_key(article(story + "?b=2&a=1")) == story + "?a=1&b=2"  # no canonical URL: the URL, normalised
    listing = NonArticleItem("http://127.0.0.1:8000/news/?page=2", SITE, "listing", "News",
                             canonical_url="http://127.0.0.1:8000/news/")
    assert emit_key(listing) == "http://127.0.0.1:8000/news/?page=2"


def test_a_thin_layout_is_replaced_by_the_one_learned_again_from_its_pages():
    """``relearned_patterns``: the article layout with most pages replaces the thin one (new id,
    same place, one new version); the old one is retired; too few pages change nothing."""
    from newsstemmer.crawl.patternfiles import relearned_patterns
    from newsstemmer.crawl.rounds import THIN_LAYOUT_PAGES, is_thin
    from newsstemmer.layout.patterns import LayoutPattern, LayoutSection

    def layout(pid: str, pages: int, article: bool = True) -> LayoutPattern:
        return LayoutPattern(pid, 100.0 + pages, pages, [LayoutSection("body/p", 0.7, 80.0, "main")], article=article)

    current = SitePatterns(SITE, [layout("p0", 20), layout("p1", 3), layout("p2", 4, article=False)], pages=["a"],
                           history=[{"version": 1, "pages": 27, "reason": "learned", "added": ["p0", "p1", "p2"]}])
    assert is_thin(current.layout("p1")) and not is_thin(current.layout("p0")) and not is_thin(current.layout("p2"))
    learned = SitePatterns(SITE, [layout("p0", 2), layout("p1", 7), layout("p2", 9, article=False)], pages=["b", "c"])
    out = relearned_patterns(current, learned, "p1", THIN_LAYOUT_PAGES, run="r1")
    assert [p.id for p in out.patterns] == ["p0", "p3", "p2"] and out.layout("p3").pages == 7
    assert [p.id for p in out.retired] == ["p1"] and out.retired[0].retired_at
    assert out.history[-1]["added"] == ["p3"] and out.history[-1]["retired"] == ["p1"] and out.revision == 2
    assert out.pages == ["a", "b", "c"]
    assert [p.id for p in current.patterns] == ["p0", "p1", "p2"] and not current.retired  # (not changed)
    too_few = SitePatterns(SITE, [layout("p0", THIN_LAYOUT_PAGES - 1), layout("p1", 9, article=False)])
    assert relearned_patterns(current, too_few, "p1", THIN_LAYOUT_PAGES) is None
    assert relearned_patterns(current, learned, "p9", THIN_LAYOUT_PAGES) is None
