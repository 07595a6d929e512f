"""A layout learned from a few pages is learned again from more of them (issue #26).

A 4-site × 8-day soak missed 17 of its 18 updates on one site: its opinion layout was
learned on day 1 from 3 pages, whose ledes (drawn from a small pool of sentences) shared
sentences, so the lede's section scored DiffScore 0.489 and was taken for template.  Every
update of a column goes into its lede: the body never changed, and nothing was sent.

Here a purpose-made site has a news layout (many stories) and a column layout: day 1 has
three columns whose ledes share sentences pairwise, day 2 nine more columns with ledes of
their own, day 3 an update added to the lede of two columns (one of day 1, one of day 2).
A layout learned from fewer than :data:`~newsstemmer.crawl.rounds.THIN_LAYOUT_PAGES` pages
holds its articles until enough of them wait, and is learned again from them.
"""

from __future__ import annotations

import html
import json
import random
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from newsstemmer.crawl.testing import REPRODUCIBLE_SETTINGS, TestSite, run_crawl, serve

WORDS = ("council river budget school harbour election minister storm bridge museum farmers hospital railway "
         "festival court market tunnel library teachers energy coast union village plan report vote season rescue "
         "flood mayor contract airport science team orchestra ferry lighthouse").split()
#: The three day-1 columns' ledes: three sentences each of these four, every pair of ledes sharing two.
POOL = ("We should stop pretending that the new ferry timetable will fix the harbour on its own.",
        "Anyone who has waited for a late train this winter knows exactly what is at stake here.",
        "The council has promised answers before, and the answers have never quite arrived on time.",
        "It is time for a plan that the people who live by the water can believe in.")
NEWS, DAY1_COLUMNS, COLUMNS = 24, 3, 12
STAMP = "Update, Tuesday 24 November 2026:"
UPDATE = ("Since this column was written the mayor has announced a review of the ferry contract, "
          "with a report due before the spring budget vote.")
UPDATED = ("/opinion/column-0.html", "/opinion/column-5.html")


def _sentence(rng: random.Random, n: int = 12) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n)).capitalize() + "."


def _lede(rng: random.Random, i: int) -> str:
    if i < DAY1_COLUMNS:
        return " ".join(POOL[(i + k) % 4] for k in range(3))
    return f"{_sentence(rng, 14)} {_sentence(rng, 13)}"


def build_site(day: int) -> TestSite:
    """Day 1: :data:`NEWS` stories and :data:`DAY1_COLUMNS` columns; day 2: all
    :data:`COLUMNS` columns; day 3: the columns :data:`UPDATED` with a passage added to their lede."""
    rng = random.Random(2626)
    site = TestSite()
    news = [f"/news/story-{i}.html" for i in range(NEWS)]
    columns = [f"/opinion/column-{i}.html" for i in range(COLUMNS if day > 1 else DAY1_COLUMNS)]
    for i, path in enumerate(news):
        head = " ".join(rng.choice(WORDS) for _ in range(7)).capitalize() + f" in district {i}"
        paras = [" ".join(_sentence(rng) for _ in range(4)) for _ in range(6)]
        main = (f'<article class="story"><h1 class="headline">{html.escape(head)}</h1>'
                f'<p class="byline">By Reporter {i % 4}</p><div class="story-body">'
                + "".join(f"<p>{html.escape(p)}</p>" for p in paras) + "</div></article>")
        site.pages[path] = (200, "text/html; charset=utf-8", _page(head, main))
        site.articles[path] = (head, "\n".join(paras))
    for i in range(COLUMNS):
        head = f"Why the {rng.choice(WORDS)} matters more than the {rng.choice(WORDS)} (column {i})"
        lede = _lede(rng, i)
        paras = [" ".join(_sentence(rng) for _ in range(3)) for _ in range(5)]
        if i >= len(columns):
            continue
        path = columns[i]
        if day > 2 and path in UPDATED:
            lede = f"{lede} {STAMP} {UPDATE}"
        main = (f'<article class="column opinion-piece"><div class="column-head"><h1 class="column-title">'
                f'{html.escape(head)}</h1></div><div class="columnist"><p class="columnist-name">By Columnist {i % 3}'
                f'</p></div><div class="column-text"><p class="lede">{html.escape(lede)}</p>'
                + "".join(f"<p>{html.escape(p)}</p>" for p in paras) + "</div></article>")
        site.pages[path] = (200, "text/html; charset=utf-8", _page(head, main))
        site.articles[path] = (head, "\n".join([lede, *paras]))
    links = "".join(f'<li><a href="{p}">{html.escape(site.articles[p][0])}</a></li>' for p in [*columns, *news])
    for path, title in (("/", "Front page"), ("/news/", "News")):
        site.pages[path] = (200, "text/html; charset=utf-8", _page(title, f'<h1>{title}</h1><ul class="teasers">{links}</ul>'))
    return site


def _page(title: str, main: str) -> bytes:
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)} | The Harbour Times'
            '</title></head><body><header><a href="/">The Harbour Times</a><nav><a href="/news/">News</a></nav></header>'
            f'<main>{main}</main><footer><p>Copyright The Harbour Times. All rights reserved.</p></footer></body></html>'
            ).encode("utf-8")


def _crawl(work: Path, url: str, day: int) -> list[dict]:
    feed = work / f"day{day}.jsonl"
    proc = run_crawl([url], feed, {**REPRODUCIBLE_SETTINGS, "NEWSSTEMMER_STATE_DIR": str(work / "state"),
                                   "NEWSSTEMMER_PATTERNS_DIR": str(work / "patterns"),
                                   "NEWSSTEMMER_RECHECK_AFTER": "0", "NEWSSTEMMER_RECHECK_BACKOFF": "0"}, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return [json.loads(line) for line in feed.read_text(encoding="utf-8").splitlines()]


def test_the_day_1_columns_make_a_thin_layout_that_takes_the_lede_for_template():
    """Without a crawl: the three day-1 columns alone make the lede's section static; eight
    columns (those three among them) make it main text."""
    from newsstemmer.combine.learn import LearnOptions, learn
    from newsstemmer.page import Page

    def lede_role(site: TestSite, paths: list[str]) -> tuple[int, str]:
        pages = [Page(url="http://harbour.test" + p, html=site.pages[p][2].decode()) for p in paths]
        (layout,) = learn(pages, LearnOptions(), site="harbour.test").patterns
        return layout.pages, next(s.role for s in layout.sections if s.path.endswith("p:class=lede"))

    day1, day2 = build_site(1), build_site(2)
    assert lede_role(day1, [p for p in day1.pages if p.startswith("/opinion/")]) == (3, "static")
    assert lede_role(day2, [p for p in day2.pages if p.startswith("/opinion/")][:8]) == (8, "main")


@pytest.mark.crawl
def test_a_layout_learned_from_three_pages_is_learned_again_and_its_lede_updates_are_sent(tmp_path):
    days = [build_site(d) for d in (1, 2, 3)]
    site = TestSite(pages=dict(days[0].pages), articles=dict(days[0].articles))
    feeds = []
    with serve(site) as base:
        for d, day in enumerate(days, 1):
            site.pages.update(day.pages)  # (the server reads the same dict)
            feeds.append({urlsplit(i["url"]).path: i for i in _crawl(tmp_path, base + "/", d)})
    first, second, third = feeds
    assert set(first) >= set(days[0].articles)
    # day 2: the new columns are read with their ledes (before: the thin layout left them out)
    new_columns = sorted(set(days[1].articles) - set(days[0].articles))
    assert len(new_columns) == 9 and set(second) == set(new_columns), sorted(second)
    for path in new_columns:
        lede = days[1].articles[path][1].split("\n")[0]
        assert second[path]["body"].startswith(lede), path
    # the layout was learned again: the thin one retired, the new one saved
    (saved,) = [json.loads(p.read_text()) for p in (tmp_path / "patterns").glob("*.json")]
    assert any("relearned" in h.get("reason", "") for h in saved["history"]), saved["history"]
    # day 3: both lede updates are sent, and only they
    assert {p for p, i in third.items() if i["update"]} == set(UPDATED) == set(third), sorted(third)
    for path in UPDATED:
        assert STAMP in third[path]["body"]
