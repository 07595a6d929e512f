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

Every day serves ``/feed.xml`` (RSS 2.0, the newest :data:`FEED_ITEMS` articles);
on day 1 it is linked from nowhere (the pages of day 1 do not change).
"""

from __future__ import annotations

import datetime as _dt
import random
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
    "advance",
    "day_start",
    "edition_date",
    "feed_page",
    "sitemap_pages",
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


def check_day(day: int) -> int:
    if not isinstance(day, int) or not 1 <= day <= MAX_DAY:
        raise ValueError(f"demo day must be a whole number from 1 to {MAX_DAY}, got {day!r}")
    return day


def advance(plan: SitePlan, day: int) -> dict[str, int]:
    """Bring ``plan`` (as planned for day 1) to ``day``; return ``{path: day of last update}``."""
    check_day(day)
    updated: dict[str, int] = {}
    for d in range(2, day + 1):
        rng = random.Random(f"meridian:{plan.seed}:day{d}")
        counts = allocate(NEW_PER_DAY)
        sections = [k for k, c in counts.items() for _ in range(c)]
        rng.shuffle(sections)
        minutes = sorted(rng.sample(range(24 * 60 - 30), len(sections)))
        older = [a for a in plan.articles if a.layout in ("standard", "opinion")]
        for key, minute in zip(sections, minutes):
            plan.add_article(rng, key, day_start(d - 1) + _dt.timedelta(minutes=minute))
        for art in rng.sample(older, UPDATES_PER_DAY):
            _update(rng, art, d)
            updated[art.path] = d
    if day > 1:
        plan.edition_date = edition_date(day)
        plan.feed_link = True
    return updated


def _update(rng: random.Random, art: PlannedArticle, day: int) -> None:
    """Rewrite the article's first paragraph with an update passage."""
    text = en.news_paragraph(rng, art.section if art.section != "opinion" else "world", art.ctx, set())
    i = next(k for k, (kind, _) in enumerate(art.items) if kind in ("p", "lede"))
    kind, first = art.items[i]
    art.items[i] = (kind, f"{first} Update, {edition_date(day)}: {text}")


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
