"""The two themes of the demo site: the page frames its templates put around the main content.

* the English theme (:func:`english_page`): WordPress-like markup with a head full of
  metadata, a masthead with the section menu (current section marked), a leaderboard
  advert, a sidebar ("most read", an advert, the newsletter box, on the home page the
  latest Japanese headlines) and a footer;
* the Japanese edition's older theme (:func:`japanese_page`): HTML 4.01, Shift_JIS
  declared with ``<meta http-equiv>``, a ranking box and one advert.

Adverts (:func:`ad`) and the "most read" picks vary from page to page (each page's
own random source), as on a real news site.
"""

from __future__ import annotations

import json
import random

from . import japanese as ja
from . import text as en
from .markup import Doc, attr, esc
from .sitemodel import SECTION_BY_KEY, SECTIONS, SITE_NAME, SITE_NAME_JA
from .plan import PlannedArticle, SitePlan

__all__ = ["ad", "english_page", "japanese_page"]

_WEATHER = ("showers", "sunny spells", "cloudy", "light rain", "clear", "windy", "fog early")
_FOOTER_LINKS = (
    ("/about/", "About us"), ("/contact/", "Contact the newsroom"), ("/corrections/", "Corrections"),
    ("/advertise/", "Advertise with us"), ("/privacy/", "Privacy policy"), ("/terms/", "Terms of use"),
    ("/video/", "Video"), ("/?view=mobile", "Mobile site"),
)


def _most_read(plan: SitePlan, doc: Doc, rng: random.Random, exclude: int | None) -> str:
    """The "most read" box: five picks from the pool, never the page's own article."""
    pool = [a for a in plan.most_read_pool if a.id != exclude]
    picks = rng.sample(pool, min(5, len(pool)))
    items = "".join(
        f'<li class="most-read-item"><span class="rank">{i}</span> '
        f"{doc.a(a.path, a.short if rng.random() < 0.3 else a.title)}</li>\n"
        for i, a in enumerate(picks, 1)
    )
    return (
        '<section class="widget widget-most-read">\n<h2 class="widget-title">Most read</h2>\n'
        f'<ol class="most-read-list">\n{items}</ol>\n</section>\n'
    )


def ad(doc: Doc, rng: random.Random, slot: str) -> str:
    """An advert for ``slot`` (``leaderboard``, ``inline`` in an article's text, else the sidebar's)."""
    brand, copy, cta = rng.choice(en.AD_COPY)
    n = rng.randint(1000, 9999)
    href = f"https://ads.example/click?c={n}&amp;s={slot}"
    if slot == "leaderboard":
        return (
            f'<div class="ad-slot ad-leaderboard" id="div-gpt-ad-{n}-0"><span class="ad-label">Advertisement</span>\n'
            f'<a class="ad-link" href="{href}" rel="sponsored nofollow"><strong class="ad-brand">{esc(brand)}</strong> '
            f'<span class="ad-copy">{esc(copy)}</span> <span class="ad-cta">{esc(cta)}</span></a></div>\n'
        )
    if slot == "inline":
        return (
            f'<aside class="ad-slot ad-inline" id="ad-inline-{n}"><span class="ad-label">Advertisement</span>'
            f'<p class="ad-copy"><strong>{esc(brand)}</strong> {esc(copy)}</p>'
            f'<a class="ad-cta" href="{href}" rel="sponsored nofollow">{esc(cta)}</a></aside>\n'
        )
    return (
        f'<div class="ad-slot ad-mpu" id="div-gpt-ad-{n}-1"><span class="ad-label">Advertisement</span>\n'
        f'<div class="ad-creative"><p class="ad-brand">{esc(brand)}</p><p class="ad-copy">{esc(copy)}</p>'
        f'<a class="ad-cta" href="{href}" rel="sponsored nofollow">{esc(cta)}</a></div></div>\n'
    )


def _head(doc: Doc, title: str, description: str, art: PlannedArticle | None = None, feed: bool = False) -> str:
    """The English ``<head>``; article pages add Open Graph, article metadata and JSON-LD."""
    full = f"{title} | {SITE_NAME}" if title != SITE_NAME else SITE_NAME
    meta = [
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{esc(full)}</title>",
        f'<meta name="description" content="{attr(description)}">',
        f'<meta property="og:site_name" content="{SITE_NAME}">',
        f'<link rel="canonical" href="{attr(doc.path)}">',
        '<link rel="stylesheet" href="/static/css/main.4f2a91.css">',
    ]
    if feed:
        meta.append(f'<link rel="alternate" type="application/rss+xml" title="{SITE_NAME}" href="/feed.xml">')
    if art is not None:
        meta += [
            f'<meta property="og:title" content="{attr(art.title)}">',
            '<meta property="og:type" content="article">',
            f'<meta property="article:published_time" content="{art.when.isoformat()}">',
            f'<meta property="article:section" content="{attr(SECTION_BY_KEY[art.section].name)}">',
            '<script type="application/ld+json">' + json.dumps({
                "@context": "https://schema.org", "@type": "NewsArticle", "headline": art.title,
                "datePublished": art.when.isoformat(), "author": {"@type": "Person", "name": art.author},
                "publisher": {"@type": "Organization", "name": SITE_NAME},
            }) + "</script>",
        ]
    meta.append(
        "<script>window.dataLayer=window.dataLayer||[];dataLayer.push({'event':'pageview','section':'"
        + (art.section if art else "none") + "'});</script>"
    )
    return "<head>\n" + "\n".join(meta) + "\n</head>\n"


def _masthead(plan: SitePlan, doc: Doc, rng: random.Random, current: str | None) -> str:
    """Skip link, top bar (date, weather), logo, section menu and, sometimes, a breaking-news ticker."""
    city = rng.choice(en.CITIES)[0]
    weather = f"{city} {rng.randint(3, 24)}&#176;C, {rng.choice(_WEATHER)}"
    items = [f'<li class="menu-item{" current-menu-item" if current == "home" else ""}">{doc.a("/", "Home")}</li>']
    for s in SECTIONS:
        cls = "menu-item current-menu-item" if s.key == current else "menu-item"
        items.append(f'<li class="{cls}">{doc.a(f"/{s.key}/", s.name)}</li>')
    ticker = ""
    if rng.random() < 0.3:
        story = rng.choice(plan.articles[-15:])
        if story.section != "ja":
            ticker = f'<div class="breaking-ticker"><span class="label">Breaking</span> {doc.a(story.path, story.title)}</div>\n'
    return (
        f'<a class="skip-link" href="#content">Skip to content</a>\n'
        f'<div class="topbar"><div class="wrap"><span class="edition-date">{plan.edition_date}</span> '
        f'<span class="weather">{weather}</span> {doc.a("/subscribe/", "Subscribe")} {doc.a("/newsletter/", "Newsletters")}</div></div>\n'
        f'<header class="masthead" role="banner"><div class="wrap">{doc.a("/", SITE_NAME, "logo")}\n'
        f'<p class="tagline">Independent journalism since 1887</p></div>\n'
        f'<nav class="primary-nav" aria-label="Sections"><ul class="menu">\n' + "\n".join(items) + "\n</ul></nav>\n"
        "</header>\n" + ticker
    )


def _footer(doc: Doc) -> str:
    """The English footer: section and company links, legal line, script."""
    sections = "".join(f"<li>{doc.a(f'/{s.key}/', s.name)}</li>" for s in SECTIONS)
    links = "".join(f"<li>{doc.a(h, t)}</li>" for h, t in _FOOTER_LINKS)
    return (
        '<footer class="site-footer" role="contentinfo"><div class="wrap">\n'
        f'<div class="footer-col"><h2 class="footer-title">Sections</h2><ul class="footer-links">{sections}</ul></div>\n'
        f'<div class="footer-col"><h2 class="footer-title">The Courier</h2><ul class="footer-links">{links}</ul></div>\n'
        '<p class="legal">&#169; 2026 The Meridian Courier Ltd. Registered in England and Wales, company no. 00481516. '
        "Registered office: 1 Quay Street, Harbourside.</p>\n"
        "</div></footer>\n"
        '<script src="/static/js/app.91c3e.js" async></script>\n'
    )


def _sidebar(plan: SitePlan, doc: Doc, rng: random.Random, exclude: int | None, japanese_box: bool = False) -> str:
    """The English sidebar: most read, an advert, the newsletter box (and the Japanese headlines)."""
    out = ['<aside class="sidebar" role="complementary">\n', _most_read(plan, doc, rng, exclude),
           ad(doc, rng, "mpu"),
           '<section class="widget widget-newsletter"><h2 class="widget-title">The Morning Briefing</h2>\n'
           "<p>Our editors' pick of the day's news, in your inbox before 7am.</p>"
           f'{doc.a("/newsletter/", "Sign up", "button")}</section>\n']
    jas = plan.by_section.get("ja", [])
    if japanese_box and jas:
        items = "".join(f"<li>{doc.a(a.path, a.title)}</li>" for a in jas[-1:-4:-1])
        out.append(f'<section class="widget widget-japanese" lang="ja"><h2 class="widget-title">日本語ニュース</h2><ul>{items}</ul>'
                   f'{doc.a("/ja/", "日本語版へ")}</section>\n')
    out.append("</aside>\n")
    return "".join(out)


def english_page(plan: SitePlan, doc: Doc, rng: random.Random, title: str, description: str, current: str | None,
                 main: str, art: PlannedArticle | None = None, body_class: str = "", exclude: int | None = None,
                 japanese_box: bool = False) -> None:
    """Write ``doc``: the English frame around ``main`` (``current``: the section marked in the menu).

    ``art``: the article of an article page (its metadata go into the head);
    ``exclude``: an article id the boxes must not list (the page's own).
    """
    doc.parts.append(f'<!DOCTYPE html>\n<html lang="en">\n{_head(doc, title, description, art, plan.feed_link and doc.path == "/")}')
    doc.parts.append(f'<body class="{body_class}">\n')
    doc.parts.append(_masthead(plan, doc, rng, current))
    doc.parts.append(ad(doc, rng, "leaderboard"))
    doc.parts.append('<div class="wrap page-body">\n')
    doc.parts.append(main)
    doc.parts.append(_sidebar(plan, doc, rng, exclude, japanese_box))
    doc.parts.append("</div>\n")
    doc.parts.append(_footer(doc))
    doc.parts.append("</body>\n</html>\n")


def japanese_page(plan: SitePlan, doc: Doc, rng: random.Random, title: str, main: str, og_title: str | None,
                  exclude: int | None) -> None:
    """Write ``doc``: the Japanese edition's frame around ``main`` (``exclude``: as in :func:`english_page`)."""
    head = [
        '<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">',
        f"<title>{esc(title)} | {SITE_NAME_JA}</title>",
        f'<link rel="canonical" href="{attr(doc.path)}">',
        '<link rel="stylesheet" href="/static/ja/common.css">',
    ]
    if og_title:
        head.append(f'<meta property="og:title" content="{attr(og_title)}">')
    nav = "".join(
        f"<li>{doc.a(h, t)}</li>" for h, t in (("/ja/", "トップ"), ("/ja/", "社会"), ("/ja/", "経済"),
                                            ("/ja/", "国際"), ("/ja/", "スポーツ"), ("/", "English"))
    )
    pool = [a for a in plan.ja_ranking_pool if a.id != exclude]
    ranking = "".join(f"<li>{doc.a(a.path, a.short if rng.random() < 0.5 else a.title)}</li>"
                      for a in rng.sample(pool, min(5, len(pool))))
    brand, copy, cta = rng.choice(ja.JA_ADS)
    n = rng.randint(1000, 9999)
    doc.parts.append(
        '<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN">\n<html lang="ja">\n<head>\n'
        + "\n".join(head) + "\n</head>\n<body>\n"
        f'<div id="header"><div class="logo">{doc.a("/ja/", "メリディアン・クーリエ 日本語版")}</div>\n'
        f'<ul id="gnav">{nav}</ul></div>\n'
        '<div id="wrapper">\n'
        f'<div id="main">\n{main}</div>\n'
        '<div id="side">\n'
        f'<div class="ranking"><h2>アクセスランキング</h2><ol>{ranking}</ol></div>\n'
        f'<div class="ad" id="ad{n}"><p class="ad-label">広告</p><p class="ad-text">{esc(brand)}:{esc(copy)}</p>'
        f'<a href="https://ads.example/click?c={n}">{esc(cta)}</a></div>\n'
        "</div>\n</div>\n"
        f'<div id="footer"><p>{doc.a("/about/", "会社概要")} | {doc.a("/privacy/", "個人情報の取り扱い")} | '
        f'{doc.a("/contact/", "お問い合わせ")}</p>\n'
        "<p class=\"copyright\">Copyright 2026 The Meridian Courier. 記事・写真の無断転載を禁じます。</p></div>\n"
        "</body>\n</html>\n"
    )
