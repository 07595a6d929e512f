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
from .days import DEFAULT_SCHEDULE, Schedule, advance, check_day, feed_page, sitemap_pages
from .indexes import index_pages
from .longrun import DemoDays
from .plan import SitePlan
from .serving import robots_and_sitemap, served_page
from .sitemodel import DemoPage, DemoSite

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
        pages[doc.path] = served_page(doc, redesigned)
    if day == 1:
        robots_and_sitemap(pages)
    else:
        pages.update(sitemap_pages(pages, updated, day))
    feed = feed_page(pages, day)
    return DemoSite(seed, dict(sorted(pages.items())), day, updated, {feed.path: feed})
