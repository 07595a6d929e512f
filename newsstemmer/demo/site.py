"""A bundled demo news site, generated in memory: "The Meridian Courier".

``build_site(seed, articles)`` plans a set of articles (sections, dates, ids, headlines,
standfirsts, bodies) and renders every page of the site as bytes, the way its server
sends them: a home page (also reached as ``/?view=mobile`` and ``/?iid=badge_money``),
paginated section indexes, tag and author pages, static pages, video pages, rolling live
blogs (:mod:`.media`), ``/robots.txt`` and ``/sitemap.xml``, and the articles in four layouts:

* ``standard`` (world, business, tech, sport): WordPress-like markup with per-article
  ids in ``id``/``class`` (``post-40213``, ``category-world``, ``tag-floods``), kicker,
  standfirst, byline, an optional lead photo, an inline advert inside long bodies,
  sub-headings, tags, share tools, related stories and, on some, a comment thread;
* ``opinion``: a column with a styled first paragraph, a columnist box (photo, bio),
  a disclaimer and "more from this columnist";
* ``gallery`` (photos): intro text and a variable number of slides, each an image with
  a caption and a photo credit; the body is the intro plus the captions;
* ``japanese`` (``/ja/``): a Japanese edition with its own older template, served in
  Shift_JIS (declared with ``<meta http-equiv>``; the header names the charset only on
  its index pages).

Every page carries navigation (with the current section marked), adverts whose copy
varies from page to page, a "most read" box drawn per page from a pool of popular
stories, and a footer.  Index pages link to each article with its headline, a shortened
headline, or "Read more".

The true title and body of every article are kept (``DemoPage.title`` / ``.text``):
the body is the article's paragraphs (sub-headings included; standfirst, captions of
lead photos, credits, adverts and boxes excluded) joined by ``"\\n"``, exactly as the
text of the page's elements reads once parsed.

The same seed always gives the same bytes (no clock, no locale, no hash randomisation).

Modules: :mod:`.sitemodel` (sections, ``DemoPage``, ``DemoSite``), :mod:`.plan` (the
articles, drawn from the seed), :mod:`.markup` (writing HTML), :mod:`.themes` (the
English and Japanese page frames), :mod:`.articles` and :mod:`.indexes` (the pages),
:mod:`.text` and :mod:`.japanese` (the words); this module puts the site together.
"""

from __future__ import annotations

from .articles import article_page
from .days import (DEFAULT_SCHEDULE, FEED_ITEMS, Schedule, advance, advance_day, check_day, edition_date, feed_page,
                   monthly_sitemaps, sitemap_pages)
from .indexes import index_pages
from .markup import Doc, esc
from .sitemodel import BASE_PLACEHOLDER, SECTION_BY_KEY, DemoPage, DemoSite, codec
from .plan import SitePlan
from .redesign import redesign

__all__ = ["DemoDays", "build_site"]


def build_site(seed: int = 7, articles: int = 120, day: int = 1, schedule: Schedule | None = None) -> DemoSite:
    """Generate the demo site as served on ``day`` (see :mod:`.days`; 1: the original site).

    ``schedule``: how the site changes from day to day (default: the demo days of the
    crawl tests); a schedule with a ``listing`` cap (:meth:`Schedule.long`) is built day
    by day by :class:`DemoDays`.  The same arguments always give the same bytes.
    """
    schedule = schedule or DEFAULT_SCHEDULE
    if schedule.listing is not None:
        return DemoDays(seed, articles, schedule).site(check_day(day, schedule))
    plan = SitePlan(seed, articles)
    updated = advance(plan, check_day(day, schedule), schedule)
    redesigned = schedule.redesign_day is not None and day >= schedule.redesign_day
    pages: dict[str, DemoPage] = {}
    for doc in [article_page(plan, art) for art in plan.articles] + index_pages(plan):
        pages[doc.path] = _served(doc, redesigned)
    if day == 1:
        _add_robots_and_sitemap(pages)
    else:
        pages.update(sitemap_pages(pages, updated, day))
    feed = feed_page(pages, day)
    return DemoSite(seed, dict(sorted(pages.items())), day, updated, {feed.path: feed})


def _served(doc: Doc, redesigned: bool = False) -> DemoPage:
    """The page as served: encoded in its section's charset, with its content type."""
    art = doc.article
    section = SECTION_BY_KEY.get(doc.section or (art.section if art else ""), None)
    charset = section.charset if section else "utf-8"
    header_charset = section.header_charset if section else False
    if doc.header_charset is not None:
        header_charset = doc.header_charset
    text = doc.html()
    if redesigned:
        text = redesign(text)
    body = text.encode(charset)
    if body.decode(codec(charset)) != text:  # pragma: no cover - guards the word lists
        raise ValueError(f"{doc.path}: text does not round-trip through {charset}")
    label = "Shift_JIS" if charset == "shift_jis" else charset
    ctype = f"text/html; charset={label}" if header_charset else "text/html"
    if art is not None:
        return DemoPage(doc.path, body, ctype, "article", art.title, art.body, art.layout, art.section,
                        charset=label, lang=SECTION_BY_KEY[art.section].lang, article_id=art.id,
                        published=art.when.isoformat(), links=tuple(doc.links))
    return DemoPage(doc.path, body, ctype, doc.kind, doc.title, None, doc.layout, doc.section, charset=label,
                    lang=section.lang if section else "en", links=tuple(doc.links))


def _add_robots_and_sitemap(pages: dict[str, DemoPage]) -> None:
    """``/robots.txt`` and ``/sitemap.xml`` (every index and article page), on ``BASE_PLACEHOLDER``."""
    robots = f"User-agent: *\nAllow: /\n\nSitemap: {BASE_PLACEHOLDER}/sitemap.xml\n"
    pages["/robots.txt"] = DemoPage("/robots.txt", robots.encode(), "text/plain; charset=utf-8", "robots")
    urls = []
    for path, page in sorted(pages.items()):
        if page.kind in ("index", "article"):
            lastmod = page.published[:10] if page.published else "2026-11-22"
            urls.append(f"<url><loc>{BASE_PLACEHOLDER}{esc(path)}</loc><lastmod>{lastmod}</lastmod></url>")
    xml = ('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
           + "\n".join(urls) + "\n</urlset>\n")
    pages["/sitemap.xml"] = DemoPage("/sitemap.xml", xml.encode(), "application/xml", "sitemap")


class DemoDays:
    """The demo site day after day for long runs: each day is made from the day before.

    Only the day's new and updated articles and the listings are rendered; other article
    pages keep the bytes of the day they were last written (as a real site's do), so a day
    costs the same on day 300 as on day 3.  Listings show recent articles only (the
    schedule's ``listing``), articles' sitemaps are split by month.  Days go forward only::

        days = DemoDays(seed=7, schedule=Schedule.long(new_per_day=50, updates_per_day=10))
        for day in range(1, 366):
            site = days.site(day)
    """

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
        """The site as served on ``day`` (not before the last day asked for)."""
        check_day(day, self.schedule)
        if day < self.day:
            raise ValueError(f"DemoDays goes forward only: day {day} asked after day {self.day}")
        while self.day < day:
            self._step()
        assert self._site is not None
        return self._site

    def _redesigned(self, day: int) -> bool:
        return self.schedule.redesign_day is not None and day >= self.schedule.redesign_day

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
        redesigned = self._redesigned(day)
        for art in fresh:
            self._articles[art.path] = _served(article_page(plan, art), redesigned)
        pages = dict(self._articles)
        for doc in index_pages(plan):
            pages[doc.path] = _served(doc, redesigned)
        if day == 1:
            _add_robots_and_sitemap(pages)
        else:
            pages.update(monthly_sitemaps(self._articles, pages, self.updated, day, self._months))
        recent = {a.path: self._articles[a.path] for a in plan.articles[-FEED_ITEMS:]}
        feed = feed_page(recent, day)
        self.day = day
        self._site = DemoSite(plan.seed, dict(sorted(pages.items())), day, dict(self.updated), {feed.path: feed})
