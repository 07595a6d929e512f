"""The demo site's other pages: home, section indexes, tag and author listings, static pages.

Index pages link to each article with its headline, a shortened headline, or
"Read more"; section indexes are paginated; the Japanese edition's index uses
its own theme.
"""

from __future__ import annotations

import datetime as _dt
import random
from collections.abc import Sequence

from .markup import Doc, esc, short_date, slug
from .sitemodel import SECTION_BY_KEY, SECTIONS, SITE_NAME, Section
from .media import home_block, live_pages, video_pages
from .plan import AUTHOR_ROLES, PlannedArticle, SitePlan
from .themes import english_page, japanese_page

__all__ = ["STATIC_PAGES", "index_pages"]

#: The static pages: path -> (title, paragraphs).
STATIC_PAGES = {
    "/about/": ("About us", (
        "The Meridian Courier is an independent daily founded in 1887 in a harbour town and published online since 1998.",
        "Our newsroom of sixty journalists covers world news, business, technology, sport and culture, with a Japanese edition since 2019.",
        "We are owned by a charitable trust whose only purpose is to secure our editorial independence.")),
    "/contact/": ("Contact the newsroom", (
        "Send news tips to the newsroom desk, which is staffed from six in the morning until midnight.",
        "For subscriptions and delivery questions, please use the subscriber help pages.")),
    "/corrections/": ("Corrections and clarifications", (
        "We aim to correct errors quickly and openly. Corrections are published here and noted on the article concerned.",
        "To report an error, contact the readers' editor, who works independently of the news desks.")),
    "/advertise/": ("Advertise with us", (
        "Reach more than two million readers a month across our websites, newsletters and apps.",
        "Our commercial team can help with display, sponsorship and classified advertising.")),
    "/privacy/": ("Privacy policy", (
        "This policy explains what personal data we collect when you use our websites and how we use it.",
        "We use cookies to keep you signed in, to measure readership and, with your consent, to show relevant adverts.",
        "You can ask for a copy of the data we hold about you at any time.")),
    "/terms/": ("Terms of use", (
        "By using this website you agree to these terms, which were last updated in March 2026.",
        "Content on this site is protected by copyright and may not be republished without permission.")),
    "/subscribe/": ("Subscribe", (
        "Support independent journalism from less than the price of a coffee a week.",
        "Subscribers get unlimited access, the print replica and our weekend supplement.")),
    "/newsletter/": ("The Morning Briefing", (
        "Our editors' pick of the day's most important stories, in your inbox before seven every weekday.",
        "You can unsubscribe at any time with one click.")),
}


def index_pages(plan: SitePlan) -> list[Doc]:
    """Every page but the articles, robots.txt and the sitemap: home, sections, tags, authors, static pages,
    videos and live blogs."""
    docs = [_home(plan)]
    for section in SECTIONS:
        docs += _section_index(plan, section)
    docs += _tags(plan)
    docs += _author_pages(plan)
    docs += [_static(plan, path, title, paras) for path, (title, paras) in STATIC_PAGES.items()]
    return docs + video_pages(plan) + live_pages(plan)


def _card(doc: Doc, rng: random.Random, a: PlannedArticle) -> str:
    """An index card: thumbnail, headline (or shortened), standfirst, byline, sometimes "Read more"."""
    anchor = a.short if rng.random() < 0.2 else a.title
    more = f' {doc.a(a.path, "Read more", "read-more")}' if rng.random() < 0.3 else ""
    img = f'<a class="card-image" href="{a.path}"><img src="/media/{a.id}/thumb.jpg" alt=""></a>'
    doc.links.append((a.path, ""))
    return (
        f'<article class="card card-{a.id}">{img}<div class="card-body">'
        f'<h2 class="card-title">{doc.a(a.path, anchor)}</h2>'
        f'<p class="card-dek">{esc(a.dek)}</p>'
        f'<p class="card-meta">By {esc(a.author or "")} <time>{short_date(a.when)}</time></p>{more}</div></article>\n'
    )


def _pagination(doc: Doc, base: str, page: int, pages: int) -> str:
    """The pager of a paginated index (empty for one page)."""
    if pages <= 1:
        return ""

    def href(n: int) -> str:
        return base if n == 1 else f"{base}page/{n}/"

    parts = []
    if page > 1:
        parts.append(doc.a(href(page - 1), "Newer stories", "prev"))
    for n in range(1, pages + 1):
        parts.append(f'<span class="current">{n}</span>' if n == page else doc.a(href(n), str(n)))
    if page < pages:
        parts.append(doc.a(href(page + 1), "Older stories", "next"))
    return '<nav class="pagination">' + " ".join(parts) + "</nav>\n"


def _section_index(plan: SitePlan, section: Section) -> list[Doc]:
    """The section's index pages, newest articles first."""
    arts = plan.newest(plan.by_section.get(section.key, []))
    pages = max(1, -(-len(arts) // section.per_page))
    base = f"/{section.key}/"
    docs = []
    for n in range(1, pages + 1):
        path = base if n == 1 else f"{base}page/{n}/"
        chunk = arts[(n - 1) * section.per_page : n * section.per_page]
        if section.layout == "japanese":
            doc = Doc(path, title="新着ニュース", layout="ja-index", section=section.key, header_charset=True)
        else:
            doc = Doc(path, title=section.name, layout="section-index", section=section.key)
        docs.append(doc)
        rng = plan.page_rng(path)
        suffix = "" if n == 1 else f" (page {n})"
        if section.layout == "japanese":
            items = []
            for a in chunk:
                w = a.when + _dt.timedelta(hours=9)
                anchor = a.short if rng.random() < 0.25 else a.title
                items.append(f'<li><span class="date">{w.month}月{w.day}日 {w.hour}時{w.minute}分</span> '
                             f'{doc.a(a.path, anchor)} <span class="cat">[{esc(a.category)}]</span></li>\n')
            pager = _pagination(doc, base, n, pages).replace("Newer stories", "前へ").replace(
                "Older stories", "次へ")
            main = (f'<h1 class="page-title">新着ニュース{"" if n == 1 else f"({n}ページ目)"}</h1>\n'
                    f'<ul class="news-list">\n{"".join(items)}</ul>\n{pager}')
            japanese_page(plan, doc, rng, "新着ニュース" + ("" if n == 1 else f"({n}ページ目)"), main, None, None)
            continue
        main = (
            '<main id="content" class="site-main archive">\n'
            f'<header class="archive-header"><h1 class="archive-title">{esc(section.name)}{suffix}</h1>\n'
            f'<p class="archive-description">{esc(section.description)}</p></header>\n'
            '<div class="card-list">\n' + "".join(_card(doc, rng, a) for a in chunk) + "</div>\n"
            + _pagination(doc, base, n, pages) + "</main>\n"
        )
        english_page(plan, doc, rng, section.name + suffix, section.description, section.key, main,
                     body_class=f"archive category section-{section.key}", japanese_box=False)
    return docs


def _listing(plan: SitePlan, path: str, heading: str, description: str, arts: Sequence[PlannedArticle], layout: str,
             extra: str = "") -> Doc:
    """A listing of articles (tag, author), newest first."""
    doc = Doc(path, title=heading, layout=layout)
    rng = plan.page_rng(path)
    arts = plan.newest(list(arts))
    main = (
        '<main id="content" class="site-main archive">\n'
        f'<header class="archive-header"><h1 class="archive-title">{esc(heading)}</h1>\n'
        f'<p class="archive-description">{esc(description)}</p>{extra}</header>\n'
        '<div class="card-list">\n' + "".join(_card(doc, rng, a) for a in arts) + "</div>\n</main>\n"
    )
    english_page(plan, doc, rng, heading, description, None, main, body_class="archive")
    return doc


def _tags(plan: SitePlan) -> list[Doc]:
    """One listing per tag."""
    by_tag: dict[str, list[PlannedArticle]] = {}
    for a in plan.articles:
        for t in a.tags:
            by_tag.setdefault(t, []).append(a)
    return [_listing(plan, f"/tag/{slug(t)}/", t, f"All our coverage of {t.lower()}.", arts, "tag-index")
            for t, arts in sorted(by_tag.items())]


def _author_pages(plan: SitePlan) -> list[Doc]:
    """One listing per author (columnists with their bio)."""
    by_author: dict[str, list[PlannedArticle]] = {}
    for a in plan.articles:
        if a.author:
            by_author.setdefault(a.author, []).append(a)
    docs = []
    for name, arts in sorted(by_author.items()):
        key = arts[0].section
        role = "Columnist" if key == "opinion" else AUTHOR_ROLES[key]
        extra = f'<p class="author-bio">{esc(plan.bios[name])}</p>' if name in plan.bios else ""
        docs.append(_listing(plan, f"/authors/{slug(name)}/", name, f"{role}, {SITE_NAME}", arts, "author-index", extra))
    return docs


def _home(plan: SitePlan) -> Doc:
    """The home page: top stories and a block per English section."""
    doc = Doc("/", title=SITE_NAME, layout="home", header_charset=False)
    rng = plan.page_rng("/")
    english = sorted((a for a in plan.articles if a.section != "ja"), key=lambda a: -a.id)
    lead, top = english[0], english[1:9]
    top_items = "".join(
        f'<li class="story story-{a.id}">{doc.a(a.path, a.short if rng.random() < 0.4 else a.title)} '
        f'<span class="story-section">{SECTION_BY_KEY[a.section].name}</span></li>\n' for a in top
    )
    blocks = []
    for s in SECTIONS:
        if s.layout == "japanese":
            continue
        arts = sorted(plan.by_section.get(s.key, []), key=lambda a: -a.id)[:5]
        items = "".join(f"<li>{doc.a(a.path, a.short if rng.random() < 0.5 else a.title)}</li>" for a in arts)
        blocks.append(
            f'<section class="section-block section-block-{s.key}"><h2 class="section-heading">'
            f'{doc.a(f"/{s.key}/", s.name)}</h2><ul>{items}</ul>'
            f'{doc.a(f"/{s.key}/", f"More {s.name.lower()}", "more-link")}'
            + (doc.a("/?iid=badge_money", "Money", "badge") if s.key == "business" else "") + "</section>\n"
        )
    main = (
        '<main id="content" class="site-main home">\n'
        '<section class="top-stories"><h2 class="section-heading">Top stories</h2>\n'
        f'<article class="lead-story story-{lead.id}"><h3 class="story-title">{doc.a(lead.path, lead.title)}</h3>\n'
        f'<p class="story-dek">{esc(lead.dek)}</p>{doc.a(lead.path, "Read more", "read-more")}</article>\n'
        f'<ul class="story-list">\n{top_items}</ul></section>\n' + "".join(blocks) + home_block(plan, doc)
        + "</main>\n"
    )
    english_page(plan, doc, rng, SITE_NAME, "Independent news from the Meridian Courier: world, business, technology, "
                 "sport, opinion and photos.", "home", main, body_class="home", japanese_box=True)
    return doc


def _static(plan: SitePlan, path: str, title: str, paras: Sequence[str]) -> Doc:
    """A static page (about, contact, policies...)."""
    doc = Doc(path, kind="static", title=title, layout="static", header_charset=True)
    rng = plan.page_rng(path)
    main = (
        '<main id="content" class="site-main page">\n'
        f'<article class="page-content"><h1 class="page-title">{esc(title)}</h1>\n'
        + "".join(f"<p>{esc(p)}</p>\n" for p in paras) + "</article>\n</main>\n"
    )
    english_page(plan, doc, rng, title, paras[0], None, main, body_class="page")
    return doc
