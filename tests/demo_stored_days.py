"""The demo's long-run days as they were made before pages were made on request (session 21's
``DemoDays``): every article page rendered on its day and kept.  The reference the on-request
demo (``newsstemmer.demo.longrun``) must serve byte for byte (``tests/test_demo_ondemand.py``)."""

from __future__ import annotations

from newsstemmer.demo.articles import article_page
from newsstemmer.demo.days import FEED_ITEMS, Schedule, advance_day, check_day, edition_date, feed_page, monthly_sitemaps
from newsstemmer.demo.indexes import index_pages
from newsstemmer.demo.plan import SitePlan
from newsstemmer.demo.serving import robots_and_sitemap, served_page
from newsstemmer.demo.sitemodel import DemoPage, DemoSite


class StoredDays:
    """Each day made from the day before; article pages kept with the bytes of the day they were written."""

    def __init__(self, seed: int = 7, articles: int = 120, schedule: Schedule | None = None) -> None:
        self.schedule = schedule or Schedule.long()
        self.plan = SitePlan(seed, articles)
        self.plan.listing = self.schedule.listing
        self.day = 0
        self.updated: dict[str, int] = {}
        self._articles: dict[str, DemoPage] = {}
        self._months: dict[str, tuple[object, DemoPage]] = {}
        self._site: DemoSite | None = None

    def site(self, day: int) -> DemoSite:
        check_day(day, self.schedule)
        if day < self.day:
            raise ValueError(f"forward only: day {day} asked after day {self.day}")
        while self.day < day:
            self._step()
        assert self._site is not None
        return self._site

    def _step(self) -> None:
        day, plan = self.day + 1, self.plan
        fresh = list(plan.articles)
        if day > 1:
            before = len(plan.articles)
            changed = advance_day(plan, day, self.schedule)
            for art in changed:
                self.updated[art.path] = day
            plan.edition_date = edition_date(day)
            plan.feed_link = True
            fresh = plan.articles[before:] + list({a.path: a for a in changed}.values())
            if day == self.schedule.redesign_day:
                fresh = list(plan.articles)
        redesigned = self.schedule.redesign_day is not None and day >= self.schedule.redesign_day
        for art in fresh:
            self._articles[art.path] = served_page(article_page(plan, art), redesigned)
        pages = dict(self._articles)
        for doc in index_pages(plan):
            pages[doc.path] = served_page(doc, redesigned)
        if day == 1:
            robots_and_sitemap(pages)
        else:
            pages.update(monthly_sitemaps(self._articles, pages, self.updated, day, self._months))
        recent = {a.path: self._articles[a.path] for a in plan.articles[-FEED_ITEMS:]}
        feed = feed_page(recent, day)
        self.day = day
        self._site = DemoSite(plan.seed, dict(sorted(pages.items())), day, dict(self.updated), {feed.path: feed})
