"""The demo site over several days: new articles, corrected ones, and a redesign.

Day 1 is the original site, byte for byte.  Each later day ``d``:

* publishes :data:`NEW_PER_DAY` new articles (dated the day before the edition, so
  they top the home page, the section indexes, the feed and the sitemaps);
* updates :data:`UPDATES_PER_DAY` older English news stories and columns: their
  first paragraph is rewritten, an ``Update, <date>:`` passage added to it (the truth
  changes with it, and :attr:`~newsstemmer.demo.sitemodel.DemoSite.updated` records the day);
* serves its sitemaps as a sitemap index (``/sitemap.xml`` → articles, other pages)
  plus a Google News sitemap of the last two days (both listed in ``robots.txt``),
  each URL with the date of its last change (``lastmod``), and links the RSS feed
  from the home page (``<link rel="alternate">``).

From :data:`REDESIGN_DAY` on every page is served in a new design
(:mod:`.redesign`: other class names, nesting and box order).

A :class:`Schedule` changes these numbers (more days, more new or updated articles a
day, the redesign on another day or never); :meth:`Schedule.long` is the one of long
runs (:mod:`.longrun`: listings show recent articles only, updates hit recent ones).

Every day serves ``/feed.xml`` (RSS 2.0, the newest :data:`FEED_ITEMS` articles);
on day 1 it is linked from nowhere (the pages of day 1 do not change).
"""

from __future__ import annotations

import datetime as _dt
import random
from dataclasses import dataclass
from email.utils import format_datetime

from . import text as en
from .markup import esc
from .sitemodel import BASE_PLACEHOLDER, SECTION_BY_KEY, SITE_NAME, DemoPage
from .plan import PlannedArticle, SitePlan, allocate

__all__ = [
    "FEED_ITEMS",
    "MAX_DAY",
    "NEW_PER_DAY",
    "REDESIGN_DAY",
    "UPDATES_PER_DAY",
    "Schedule",
    "advance",
    "advance_day",
    "day_start",
    "edition_date",
    "feed_page",
    "monthly_sitemaps",
    "sitemap_pages",
    "updatable",
]

NEW_PER_DAY = 12
UPDATES_PER_DAY = 5
REDESIGN_DAY = 3
MAX_DAY = 30
FEED_ITEMS = 30
#: Day 1's edition is Sunday 22 November 2026; its newest article is from the day before.
_DAY1 = _dt.datetime(2026, 11, 22, 6, 0, tzinfo=_dt.timezone.utc)
_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")


def day_start(day: int) -> _dt.datetime:
    """06:00 UTC on the edition date of ``day`` (day 1: 22 November 2026)."""
    return _DAY1 + _dt.timedelta(days=day - 1)


def edition_date(day: int) -> str:
    """``Monday 23 November 2026``: the masthead's date on ``day``."""
    d = day_start(day)
    return f"{_WEEKDAYS[d.weekday()]} {d.day} {_MONTHS[d.month - 1]} {d.year}"


@dataclass(frozen=True)
class Schedule:
    """How the demo site changes after day 1 (the defaults: the demo days the crawl tests use).

    Each day publishes ``new_per_day`` articles and updates ``updates_per_day`` English news
    stories and columns (drawn from those published in the last ``update_window`` days;
    None: from every earlier one); pages are redesigned from ``redesign_day`` on (None:
    never); days run to ``last_day``.  ``listing`` caps how many of the newest articles a
    section, tag or author listing shows (None: all of them).
    """

    new_per_day: int = NEW_PER_DAY
    updates_per_day: int = UPDATES_PER_DAY
    redesign_day: int | None = REDESIGN_DAY
    last_day: int = MAX_DAY
    update_window: int | None = None
    listing: int | None = None

    def __post_init__(self) -> None:
        if not 0 <= self.new_per_day <= 1000:
            raise ValueError(f"new articles per day must be from 0 to 1000, got {self.new_per_day!r}")
        if self.updates_per_day < 0 or self.last_day < 1 or (self.redesign_day is not None and self.redesign_day < 2):
            raise ValueError(f"invalid demo schedule: {self!r}")

    @classmethod
    def long(cls, new_per_day: int = NEW_PER_DAY, updates_per_day: int = UPDATES_PER_DAY,
             redesign_day: int | None = None, last_day: int = 3650) -> "Schedule":
        """A schedule for months of days: listings of the newest 30 articles, updates of the last 7 days' stories."""
        return cls(new_per_day, updates_per_day, redesign_day, last_day, update_window=7, listing=30)


#: The demo days of the crawl tests and ``NEWSSTEMMER_DEMO_DAY``.
DEFAULT_SCHEDULE = Schedule()


def check_day(day: int, schedule: Schedule = DEFAULT_SCHEDULE) -> int:
    if not isinstance(day, int) or not 1 <= day <= schedule.last_day:
        raise ValueError(f"demo day must be a whole number from 1 to {schedule.last_day}, got {day!r}")
    return day


def advance(plan: SitePlan, day: int, schedule: Schedule = DEFAULT_SCHEDULE) -> dict[str, int]:
    """Bring ``plan`` (as planned for day 1) to ``day``; return ``{path: day of last update}``."""
    check_day(day, schedule)
    updated: dict[str, int] = {}
    for d in range(2, day + 1):
        for art in advance_day(plan, d, schedule):
            updated[art.path] = d
    if day > 1:
        plan.edition_date = edition_date(day)
        plan.feed_link = True
    return updated


def advance_day(plan: SitePlan, d: int, schedule: Schedule = DEFAULT_SCHEDULE) -> list[PlannedArticle]:
    """Publish and update day ``d``'s articles in ``plan`` (at day ``d - 1``); return the updated ones."""
    rng = random.Random(f"meridian:{plan.seed}:day{d}")
    counts = allocate(schedule.new_per_day)
    sections = [k for k, c in counts.items() for _ in range(c)]
    rng.shuffle(sections)
    minutes = sorted(rng.sample(range(24 * 60 - 30), len(sections)))
    older = updatable(plan, d, schedule.update_window)
    for key, minute in zip(sections, minutes):
        plan.add_article(rng, key, day_start(d - 1) + _dt.timedelta(minutes=minute))
    hit = rng.sample(older, min(schedule.updates_per_day, len(older)))
    for art in hit:
        _update(rng, art, d)
    return hit


def updatable(plan: SitePlan, d: int, window: int | None) -> list[PlannedArticle]:
    """English news stories and columns an update may hit on day ``d`` (published in the window)."""
    if window is None:
        return [a for a in plan.articles if a.layout in ("standard", "opinion")]
    since, out = day_start(d - window), []
    for a in reversed(plan.articles):  # the plan is in publication order
        if a.when < since:
            break
        if a.layout in ("standard", "opinion"):
            out.append(a)
    return out[::-1]


def _update(rng: random.Random, art: PlannedArticle, day: int) -> None:
    """Rewrite the article's first paragraph with an update passage."""
    apply_update(art.items, update_passage(rng, art, day))


def update_passage(rng: random.Random, art: PlannedArticle, day: int) -> str:
    """The passage an update on ``day`` adds to the article's first paragraph (drawn from ``rng``)."""
    text = en.news_paragraph(rng, art.section if art.section != "opinion" else "world", art.ctx, set())
    return f" Update, {edition_date(day)}: {text}"


def apply_update(items: list[tuple[str, str]], passage: str) -> None:
    """Add an update ``passage`` to the first paragraph of an article's ``items`` (in place)."""
    i = next(k for k, (kind, _) in enumerate(items) if kind in ("p", "lede"))
    kind, first = items[i]
    items[i] = (kind, first + passage)


def last_change(page: DemoPage, updated: dict[str, int], day: int) -> _dt.datetime:
    """When the page last changed: an article's publication or update, else the day's edition."""
    if page.kind == "article" and page.published:
        if page.path in updated:
            return day_start(updated[page.path])
        return _dt.datetime.fromisoformat(page.published)
    return day_start(day)


def sitemap_pages(pages: dict[str, DemoPage], updated: dict[str, int], day: int) -> dict[str, DemoPage]:
    """``robots.txt`` and the sitemaps of a day after the first (see the module docstring)."""
    base = BASE_PLACEHOLDER
    robots = f"User-agent: *\nAllow: /\n\nSitemap: {base}/sitemap.xml\nSitemap: {base}/sitemaps/news.xml\n"
    out = {"/robots.txt": DemoPage("/robots.txt", robots.encode(), "text/plain; charset=utf-8", "robots")}
    listed = sorted((p for p in pages.values() if p.kind in ("index", "article")),
                    key=lambda p: last_change(p, updated, day), reverse=True)

    def urlset(items: list[DemoPage]) -> bytes:
        rows = [f"<url><loc>{base}{esc(p.path)}</loc><lastmod>{last_change(p, updated, day).date()}</lastmod></url>"
                for p in items]
        return ('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
                + "\n".join(rows) + "\n</urlset>\n").encode()

    files = {"/sitemaps/articles.xml": [p for p in listed if p.kind == "article"],
             "/sitemaps/pages.xml": [p for p in listed if p.kind == "index"]}
    for path, items in files.items():
        out[path] = DemoPage(path, urlset(items), "application/xml", "sitemap")
    index = "\n".join(f"<sitemap><loc>{base}{path}</loc><lastmod>{day_start(day).date()}</lastmod></sitemap>"
                      for path in files)
    out["/sitemap.xml"] = DemoPage("/sitemap.xml", (
        '<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        + index + "\n</sitemapindex>\n").encode(), "application/xml", "sitemap")
    recent = [p for p in listed if p.kind == "article" and p.published
              and _dt.datetime.fromisoformat(p.published) >= day_start(day - 2)]
    news = "\n".join(
        f"<url><loc>{base}{esc(p.path)}</loc><news:news><news:publication><news:name>{SITE_NAME}</news:name>"
        f"<news:language>{p.lang}</news:language></news:publication>"
        f"<news:publication_date>{p.published}</news:publication_date><news:title>{esc(p.title or '')}</news:title>"
        "</news:news></url>" for p in recent)
    out["/sitemaps/news.xml"] = DemoPage("/sitemaps/news.xml", (
        '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
        'xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">\n' + news + "\n</urlset>\n").encode(),
        "application/xml", "sitemap")
    return out


def _urlset(rows: list[str]) -> bytes:
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
            + "\n".join(rows) + "\n</urlset>\n").encode()


def monthly_sitemaps(articles: dict[str, DemoPage], pages: dict[str, DemoPage], updated: dict[str, int], day: int,
                     cache: dict[str, tuple[object, DemoPage]]) -> dict[str, DemoPage]:
    """``robots.txt`` and the sitemaps of a long run's day (:class:`~newsstemmer.demo.site.DemoDays`).

    As :func:`sitemap_pages`, but the articles are listed in one sitemap per month of their
    last change (``/sitemaps/articles-2026-11.xml``), as large sites do, so that a day's
    sitemaps cost what changed that day.  ``articles`` is in publication order; ``cache``
    keeps each month's file (and its key) from one day to the next.
    """
    base = BASE_PLACEHOLDER
    robots = f"User-agent: *\nAllow: /\n\nSitemap: {base}/sitemap.xml\nSitemap: {base}/sitemaps/news.xml\n"
    out = {"/robots.txt": DemoPage("/robots.txt", robots.encode(), "text/plain; charset=utf-8", "robots")}
    months: dict[str, list[tuple[str, str]]] = {}
    for path, page in articles.items():
        when = day_start(updated[path]).isoformat() if path in updated else page.published or ""
        months.setdefault(when[:7], []).append((when[:10], path))
    index = []
    for month, rows in sorted(months.items()):
        path = f"/sitemaps/articles-{month}.xml"
        key = (len(rows), max(rows), sum(hash(p) for _, p in rows))
        if path not in cache or cache[path][0] != key:
            ordered = sorted(rows, reverse=True)
            body = _urlset([f"<url><loc>{base}{esc(p)}</loc><lastmod>{d}</lastmod></url>" for d, p in ordered])
            cache[path] = (key, DemoPage(path, body, "application/xml", "sitemap"))
        out[path] = cache[path][1]
        index.append((path, max(rows)[0]))
    listings = sorted(p.path for p in pages.values() if p.kind == "index")
    out["/sitemaps/pages.xml"] = DemoPage("/sitemaps/pages.xml", _urlset(
        [f"<url><loc>{base}{esc(p)}</loc><lastmod>{day_start(day).date()}</lastmod></url>" for p in listings]),
        "application/xml", "sitemap")
    index.append(("/sitemaps/pages.xml", str(day_start(day).date())))
    out["/sitemap.xml"] = DemoPage("/sitemap.xml", (
        '<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        + "\n".join(f"<sitemap><loc>{base}{p}</loc><lastmod>{d}</lastmod></sitemap>" for p, d in index)
        + "\n</sitemapindex>\n").encode(), "application/xml", "sitemap")
    since, recent = day_start(day - 2), []
    for path in reversed(articles):
        page = articles[path]
        if not page.published or _dt.datetime.fromisoformat(page.published) < since:
            break
        recent.append(page)
    news = "\n".join(
        f"<url><loc>{base}{esc(p.path)}</loc><news:news><news:publication><news:name>{SITE_NAME}</news:name>"
        f"<news:language>{p.lang}</news:language></news:publication>"
        f"<news:publication_date>{p.published}</news:publication_date><news:title>{esc(p.title or '')}</news:title>"
        "</news:news></url>" for p in recent[::-1])
    out["/sitemaps/news.xml"] = DemoPage("/sitemaps/news.xml", (
        '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
        'xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">\n' + news + "\n</urlset>\n").encode(),
        "application/xml", "sitemap")
    return out


def feed_page(pages: dict[str, DemoPage], day: int) -> DemoPage:
    """``/feed.xml``: RSS 2.0 of the newest :data:`FEED_ITEMS` articles, newest first."""
    arts = sorted((p for p in pages.values() if p.kind == "article" and p.published),
                  key=lambda p: p.published or "", reverse=True)[:FEED_ITEMS]
    items = []
    for p in arts:
        when = format_datetime(_dt.datetime.fromisoformat(p.published or ""))
        section = SECTION_BY_KEY[p.section or "world"].name
        items.append(f"<item><title>{esc(p.title or '')}</title><link>{BASE_PLACEHOLDER}{esc(p.path)}</link>"
                     f'<guid isPermaLink="true">{BASE_PLACEHOLDER}{esc(p.path)}</guid>'
                     f"<category>{esc(section)}</category><pubDate>{when}</pubDate></item>")
    xml = ('<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel>\n'
           f"<title>{SITE_NAME}</title><link>{BASE_PLACEHOLDER}/</link>"
           f"<description>The latest news from {SITE_NAME}</description>"
           f"<lastBuildDate>{format_datetime(day_start(day))}</lastBuildDate>\n"
           + "\n".join(items) + "\n</channel></rss>\n")
    return DemoPage("/feed.xml", xml.encode(), "application/rss+xml; charset=utf-8", "feed")
