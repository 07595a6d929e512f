"""An update that repeats the article's own sentences is sent as an update (issue #26).

A 4-site × 8-day soak missed one such update (demo seed 3, day 6): ``Update, <date>:`` and
two sentences of the story itself added to its first paragraph, the first sentence ending
one of its paragraphs and the second starting like the next one ("… had been affected. The
…").  On the page the paragraphs run together, so the shingle across them ("had been
affected The") was on the old page but not in the body: the change sketch kept it as page
text near the body, and the one sampled shingle of the grown paragraph, that one, made it
look like a body cut anew (not counted).  Sketch version 4 marks such shingles of the page's
sample (a bit each) and the lines no longer take them for page text.

Here a purpose-made site (one layout, long stories of 12 paragraphs) is crawled, then
six of its stories get such an update (three paragraph junctions of the story repeated
after a date), and the site is crawled again with the same state folder.
"""

from __future__ import annotations

import html
import random
from urllib.parse import urlsplit

import lxml.html
import pytest

from newsstemmer.crawl.testing import TestSite, crawl_site_day, news_page, serve

SITE_NAME = "The Valley Post"
WORDS = ("council river budget school harbour election minister storm bridge museum farmers hospital railway "
         "festival court market tunnel library teachers energy coast union village plan report vote season rescue "
         "flood mayor contract airport science team orchestra ferry lighthouse").split()
STARTS = ("The", "A", "Officials", "Residents")
UPDATED = 6
STAMP = "Update, Monday 23 November 2026:"


def _story(rng: random.Random) -> list[list[str]]:
    """12 paragraphs of 5 sentences (~720 words), each sentence starting with one of a few words."""
    return [[f"{rng.choice(STARTS)} {' '.join(rng.choice(WORDS) for _ in range(11))}." for _ in range(5)]
            for _ in range(12)]


def _updated(story: list[list[str]]) -> list[list[str]]:
    """The story with a dated passage added to its first paragraph: for three paragraph ends, the
    paragraph's last sentence and the next paragraph's first (the story's own text)."""
    passage = " ".join(f"{story[k][-1]} {story[k + 1][0]}" for k in (2, 5, 8))
    return [story[0] + [STAMP, passage], *story[1:]]


def build_site(day: int, n: int = 12) -> TestSite:
    """Day 1: ``n`` long stories, a front page and a section page; day 2: the first
    :data:`UPDATED` stories updated."""
    rng = random.Random(26)
    site = TestSite()
    paths = [f"/news/2026/story-{2000 + i}.html" for i in range(n)]
    heads = [" ".join(rng.choice(WORDS) for _ in range(8)).capitalize() + f" in district {i}" for i in range(n)]
    for i, (path, head) in enumerate(zip(paths, heads)):
        story = _story(rng)
        if day > 1 and i < UPDATED:
            story = _updated(story)
        paras = [" ".join(p) for p in story]
        rel = "".join(f'<li><a href="{paths[(i + k) % n]}">{html.escape(heads[(i + k) % n])}</a></li>' for k in (1, 2))
        main = (f'<article class="story"><h1 class="headline">{html.escape(head)}</h1>'
                f'<p class="byline">By Reporter {i % 4}</p><div class="story-body">'
                + "".join(f"<p>{html.escape(p)}</p>" for p in paras)
                + f'</div></article><aside class="related"><h2>Related</h2><ul>{rel}</ul></aside>')
        site.pages[path] = (200, "text/html; charset=utf-8", news_page(SITE_NAME, head, main))
        site.articles[path] = (head, "\n".join(paras))
    links = "".join(f'<li><a href="{p}">{html.escape(h)}</a></li>' for p, h in zip(paths, heads))
    for path, title in (("/", "Front page"), ("/news/", "News")):
        index = f'<h1>{title}</h1><ul class="teasers">{links}</ul>'
        site.pages[path] = (200, "text/html; charset=utf-8", news_page(SITE_NAME, title, index))
    return site


def test_the_updates_repeat_paragraph_junctions_that_the_old_sketch_took_for_page_text():
    """Without a crawl: on the true texts, each update is told (sketch version 4)."""
    from newsstemmer.crawl.changesketch import EDIT_MIN_WORDS, ChangeSketch
    from newsstemmer.dom.text import visible_text

    day1, day2 = build_site(1), build_site(2)
    for path in list(day1.articles)[:UPDATED]:
        old_page, new_page = (visible_text(lxml.html.fromstring(s.pages[path][2])) for s in (day1, day2))
        sketch = ChangeSketch.from_bytes(ChangeSketch.of(day1.articles[path][1], old_page).to_bytes())
        body = day2.articles[path][1]
        assert sketch.change(body, new_page) >= 0.02 or sketch.added_words(body) >= EDIT_MIN_WORDS, path


@pytest.mark.crawl
def test_an_update_repeating_the_storys_own_sentences_is_sent_as_one(tmp_path):
    day1, day2 = build_site(1), build_site(2)
    updated = set(list(day1.articles)[:UPDATED])
    site = TestSite(pages=dict(day1.pages), articles=dict(day1.articles))
    with serve(site) as base:
        first = crawl_site_day(tmp_path, base + "/", 1)
        assert {urlsplit(i["url"]).path for i in first} >= set(day1.articles)
        site.pages.update(day2.pages)  # (the server reads the same dict)
        items = crawl_site_day(tmp_path, base + "/", 2)
    sent = {urlsplit(i["url"]).path: i for i in items}
    assert {p for p, i in sent.items() if i["update"]} == updated, sorted(sent)  # before: some judged unchanged
    assert set(sent) == updated  # the unchanged stories are not sent again
    for path in updated:
        assert STAMP in sent[path]["body"] and sent[path]["version"] == 2
