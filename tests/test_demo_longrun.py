"""The demo site's long-run options (issue #26): schedules, DemoDays, determinism, defaults unchanged."""

from __future__ import annotations

import hashlib
import math

import pytest

from newsstemmer.demo import build_site
from newsstemmer.demo.days import DEFAULT_SCHEDULE, MAX_DAY, Schedule, day_start
from newsstemmer.demo.site import DemoDays
from newsstemmer.demo.sitemodel import SECTION_BY_KEY, DemoSite


#: A page's fields besides its body (a long run's article pages are made on request: no ``vars``).
FIELDS = ("path", "content_type", "kind", "title", "text", "layout", "section", "charset", "lang", "article_id",
          "published", "links")


def _digest(site: DemoSite) -> str:
    h = hashlib.sha256()
    for page in list(site) + list(site.extras.values()):
        meta = {k: getattr(page, k) for k in FIELDS}
        h.update(f"{page.path}\0{meta!r}\0".encode() + site.render(page.path, "http://x") + b"\0")
    h.update(repr(sorted(site.updated.items())).encode())
    return h.hexdigest()


def test_the_default_schedule_is_the_demo_days():
    assert Schedule() == DEFAULT_SCHEDULE and DEFAULT_SCHEDULE.last_day == MAX_DAY
    assert _digest(build_site(day=2, schedule=Schedule())) == _digest(build_site(day=2))
    with pytest.raises(ValueError):
        build_site(day=MAX_DAY + 1)
    with pytest.raises(ValueError):
        Schedule(new_per_day=-1)


def test_a_schedule_sets_new_and_updated_articles_and_the_redesign():
    s = Schedule(new_per_day=20, updates_per_day=8, redesign_day=None)
    day1, day2, day4 = (build_site(3, 40, day=d, schedule=s) for d in (1, 2, 4))
    assert len(day2.articles()) - len(day1.articles()) == 20 and len(day4.articles()) == len(day1.articles()) + 60
    assert sorted(day2.updated.values()) == [2] * 8
    art = next(p for p in day4.articles() if p.layout == "standard")
    assert b'class="entry-content"' in art.body  # never redesigned
    assert b"entry-content" not in build_site(3, 40, day=4, schedule=Schedule(redesign_day=4))[art.path].body


def test_demo_days_are_deterministic_and_go_past_day_30():
    s = Schedule.long(new_per_day=6, updates_per_day=3, last_day=400)
    a, b, c = DemoDays(7, 30, schedule=s), DemoDays(7, 30, schedule=s), DemoDays(8, 30, schedule=s)
    for day in (1, 2, 5):
        assert _digest(a.site(day)) == _digest(b.site(day))
    assert _digest(c.site(5)) != _digest(a.site(5))
    assert _digest(build_site(7, 30, day=5, schedule=s)) == _digest(a.site(5))
    site = a.site(33)
    assert site.day == 33 and len(site.articles()) == 30 + 32 * 6
    assert _digest(a.site(32)) == _digest(DemoDays(7, 30, schedule=s).site(32))  # an earlier day, asked after


def test_demo_days_render_only_what_changed_and_list_recent_articles():
    s = Schedule.long(new_per_day=30, updates_per_day=5)
    days = DemoDays(3, 40, schedule=s)
    d3 = days.site(3)
    old3 = {p.path: p.body for p in d3.articles()}
    d8 = days.site(8)
    assert len(d8.articles()) == len(d3.articles()) + 5 * 30
    changed = [p for p in d3.articles() if d8[p.path].body != old3[p.path]]
    assert {p.path for p in changed} <= {p for p, d in d8.updated.items() if d > 3}
    # updates hit articles of the last week only
    for path, d in d8.updated.items():
        assert d8[path].published >= day_start(d - 7).isoformat()
    # listings: the newest 30 articles of the section, paginated
    world = [p for p in d8 if p.path.startswith("/world/page/")]
    assert len(world) == math.ceil(30 / SECTION_BY_KEY["world"].per_page) - 1
    # articles' sitemaps by month, listed in the sitemap index
    index = d8.render("/sitemap.xml").decode()
    months = [p for p in d8.pages if p.startswith("/sitemaps/articles-")]
    assert months and all(m in index for m in months)
    listed = sum(d8.render(m).count(b"<url>") for m in months)
    assert listed == len(d8.articles())
