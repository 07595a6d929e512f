"""Which held articles of thin layouts are due for a round (``newsstemmer.crawl.relearn``)."""

from __future__ import annotations

from newsstemmer.crawl.relearn import Relearning, needed
from newsstemmer.crawl.rounds import RELEARN_PAGES, THIN_LAYOUT_PAGES
from newsstemmer.layout.patterns import LayoutPattern, LayoutSection

SITE = "news.test"


def _layout(pid: str, pages: int, article: bool = True) -> LayoutPattern:
    return LayoutPattern(pid, 100.0, pages, [LayoutSection("body/p", 0.7, 80.0, "main")], article=article)


def test_only_article_layouts_learned_from_few_pages_hold_their_articles():
    r = Relearning()
    assert r.wants(SITE, _layout("p1", THIN_LAYOUT_PAGES - 1))
    assert not r.wants(SITE, _layout("p0", THIN_LAYOUT_PAGES))
    assert not r.wants(SITE, _layout("p2", 2, article=False)) and not r.wants(SITE, None)


def test_a_thin_layout_is_learned_again_once_enough_of_its_articles_wait_and_then_only_once():
    r, layouts = Relearning(), {"p1": _layout("p1", 3), "p2": _layout("p2", 2)}
    for i in range(RELEARN_PAGES - 1):
        r.hold(SITE, "p1", f"http://{SITE}/c{i}")
    r.hold(SITE, "p1", f"http://{SITE}/c0")  # (the same article twice: once)
    r.hold(SITE, "p2", f"http://{SITE}/g0")
    assert r.due(SITE, layouts.get, final=False) is None
    r.hold(SITE, "p1", f"http://{SITE}/c{RELEARN_PAGES}")
    lid, urls, again = r.due(SITE, layouts.get, final=False)
    assert (lid, len(urls), again) == ("p1", RELEARN_PAGES, True)
    assert not r.wants(SITE, layouts["p1"])  # tried in this crawl: its later articles go out as they are
    # the crawl's end: too few to learn from, so only extracted
    assert r.due(SITE, layouts.get, final=True) == ("p2", [f"http://{SITE}/g0"], False)
    assert r.due(SITE, layouts.get, final=True) is None


def test_at_the_crawls_end_a_layout_is_learned_again_from_fewer():
    r, layouts = Relearning(), {"p1": _layout("p1", 3), "p2": _layout("p2", 5)}
    for i in range(THIN_LAYOUT_PAGES):
        r.hold(SITE, "p1", f"http://{SITE}/a{i}")
    for i in range(THIN_LAYOUT_PAGES - 1):
        r.hold(SITE, "p2", f"http://{SITE}/b{i}")
    assert r.due(SITE, layouts.get, final=False) is None
    assert r.due(SITE, layouts.get, final=True)[::2] == ("p1", True)
    assert r.due(SITE, layouts.get, final=True)[::2] == ("p2", False)
    assert r.due(SITE, layouts.get, final=True) is None


def test_a_layout_is_learned_again_only_from_twice_its_pages():
    """A layout of 5 pages waits for 10 (8 would be the first crawl's second pass of a small site)."""
    r, layouts = Relearning(), {"p1": _layout("p1", 5)}
    assert needed(layouts["p1"], final=False) == needed(layouts["p1"], final=True) == 10
    for i in range(9):
        r.hold(SITE, "p1", f"http://{SITE}/a{i}")
    assert r.due(SITE, layouts.get, final=False) is None
    assert r.due(SITE, layouts.get, final=True)[::2] == ("p1", False)  # only extracted
    r2 = Relearning()
    for i in range(10):
        r2.hold(SITE, "p1", f"http://{SITE}/a{i}")
    assert r2.due(SITE, layouts.get, final=False)[::2] == ("p1", True)


def test_held_articles_are_given_back_as_their_thin_layout_read_them():
    """Not learned again, they are sent as read (not extracted twice); each is given back once."""
    from newsstemmer.crawl.rounds import EXTRACTED, Outcome

    r = Relearning()
    outs = [Outcome(f"http://{SITE}/a{i}", EXTRACTED) for i in range(3)]
    for o in outs:
        r.hold(SITE, "p1", o.url, o)
    r.hold(SITE, "p1", f"http://{SITE}/x")  # (held without its outcome)
    assert r.read([o.url for o in outs]) == outs
    assert r.read([outs[0].url]) is None and r.read([f"http://{SITE}/x"]) is None


def test_the_articles_of_a_layout_gone_meanwhile_are_only_extracted_at_once():
    r = Relearning()
    r.hold(SITE, "p9", f"http://{SITE}/gone")
    assert r.due(SITE, {}.get, final=False) == ("p9", [f"http://{SITE}/gone"], False)


def test_a_layout_kept_after_a_full_try_is_marked_saved_and_not_tried_again(tmp_path):
    from newsstemmer import SitePatterns
    from newsstemmer.crawl.patternfiles import kept_after_relearning

    current = SitePatterns(SITE, [_layout("p0", 3), _layout("p1", 4)], history=[{"version": 1, "added": ["p0", "p1"]}])
    kept = kept_after_relearning(current, "p0")
    assert kept.layout("p0").relearn_kept and kept.layout("p1").relearn_kept is None
    assert current.layout("p0").relearn_kept is None  # (a copy)
    assert kept_after_relearning(current, "p9") is None
    again = SitePatterns.load(kept.save(tmp_path / "site.json"))
    assert again.layout("p0").relearn_kept == kept.layout("p0").relearn_kept
    assert not Relearning().wants(SITE, again.layout("p0")) and Relearning().wants(SITE, again.layout("p1"))
    assert "relearn_kept" not in (tmp_path / "site.json").read_text().split('"p1"')[1]  # (absent when not set)
