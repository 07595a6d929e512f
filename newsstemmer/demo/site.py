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
from .days import REDESIGN_DAY, advance, check_day, feed_page, sitemap_pages
from .indexes import index_pages
from .markup import Doc, esc
from .sitemodel import BASE_PLACEHOLDER, SECTION_BY_KEY, DemoPage, DemoSite, codec
from .plan import SitePlan
from .redesign import redesign

__all__ = ["build_site"]


def build_site(seed: int = 7, articles: int = 120, day: int = 1) -> DemoSite:
    """Generate the demo site as served on ``day`` (see :mod:`.days`; 1: the original site).

    The same ``seed``, ``articles`` and ``day`` always give the same bytes.
    """
    plan = SitePlan(seed, articles)
    updated = advance(plan, check_day(day))
    pages: dict[str, DemoPage] = {}
    for doc in [article_page(plan, art) for art in plan.articles] + index_pages(plan):
        pages[doc.path] = _served(doc, day >= REDESIGN_DAY)
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
