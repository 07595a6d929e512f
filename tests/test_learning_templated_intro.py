"""A section of sentence templates learned from three pages: the cause of the monitor test's flaky day 3.

``tests/test_monitor_crawl.py::test_day3_redesign_is_detected_and_relearned_within_the_run``
failed once in CI (11 of the day's 12 new articles at F1 >= 0.97).  The article that loses is
the day's one new gallery (``/photos/…-43278.html``): its intro paragraph (``album-intro``) is
left out, F1 0.933.  The relearning round after the redesign learns the gallery layout from
the new gallery and the galleries among the known articles fetched again (the 20 most recently
sent: which day-1 articles close that list depends on the order day 1 sent them in, i.e. on
timing).  The demo writes gallery intros from five sentence templates
(``newsstemmer.demo.text.GALLERY_INTROS``); when the sample holds two galleries whose intros
use the same templates (only the place names differ), the intro's DiffScore over the three
pages is 0.45, under the 0.5 that makes a section varying, and the layout calls it static.
With two pages (no such pair) it is 0.66 and the intro is kept.  Reproduced in 2 of 18 runs
of days 1-3 (session 19, branch monitor60), both with that sample, and here without a crawl.

Fixed in session 21 (branch shortdiff2): a section is static only if its text has a near copy
on ``static_need(n)`` of the layout's pages (every page of a layout of 3: ``diff_score``), so
one pair sharing a template among three pages no longer makes it static.
"""

from __future__ import annotations

from newsstemmer.combine.extract import extract_with_patterns
from newsstemmer.combine.learn import learn
from newsstemmer.demo import build_site
from newsstemmer.demo.scoring import f1
from newsstemmer.page import Page

BASE = "http://127.0.0.1:8000"
NEW = "/photos/2026/11/23/the-week-in-photos-a-week-of-storms-43278.html"
SAME_TEMPLATES = ("/photos/2026/11/22/in-pictures-the-city-marathon-in-valparaiso-42920.html",
                  "/photos/2026/08/13/the-week-in-photos-the-night-shift-40943.html")


def _f1_of_new_gallery(paths: list[str]) -> float:
    site = build_site(day=3)
    pages = [Page(html=site.pages[p].decoded, url=BASE + p) for p in paths]
    patterns = learn(pages, site="127.0.0.1:8000")
    art = extract_with_patterns(Page(html=site.pages[NEW].decoded, url=BASE + NEW), patterns)
    truth = {a.path: a for a in site.articles()}[NEW].text
    return f1(art.body, truth)


def test_a_gallery_layout_from_two_pages_keeps_the_intro():
    assert _f1_of_new_gallery([NEW, SAME_TEMPLATES[0]]) >= 0.97


def test_a_gallery_layout_from_three_pages_two_of_one_template_keeps_the_intro():
    assert _f1_of_new_gallery([NEW, *SAME_TEMPLATES]) >= 0.97


# The same with a line: a stock quote of the demo's tech stories on two of three pages of the
# layout was a static line (on half its pages), dropped from both (session 20: the drift sample
# ordered by run and URL holds this trio on day 3).
SABLE = "/tech/2026/11/23/sable-pharmaceuticals-drops-plan-to-scan-customers-messages-43178.html"
TECH = ("/tech/2026/11/22/lumora-founders-say-a-speech-model-for-call-43024.html",
        "/tech/2026/11/23/northwind-logistics-unveils-mortgages-with-focus-on-battery-43311.html")


def test_a_stock_quote_on_two_of_three_pages_is_not_boilerplate():
    site = build_site(day=3)
    quote = "Nobody wanted it to come to this"
    assert quote in site.pages[SABLE].decoded and quote in site.pages[TECH[0]].decoded
    assert quote not in site.pages[TECH[1]].decoded
    pages = [Page(html=site.pages[p].decoded, url=BASE + p) for p in (SABLE, *TECH)]
    patterns = learn(pages, site="127.0.0.1:8000")
    art = extract_with_patterns(Page(html=site.pages[SABLE].decoded, url=BASE + SABLE), patterns)
    assert quote in art.body
    assert f1(art.body, {a.path: a for a in site.articles()}[SABLE].text) >= 0.97
