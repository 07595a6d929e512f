"""A bundled demo news site, generated in memory: "The Meridian Courier".

``build_site(seed, articles)`` plans a set of articles (sections, dates, ids, headlines,
standfirsts, bodies) and renders every page of the site as bytes, the way its server
sends them: a home page, paginated section indexes, tag and author pages, static
pages, ``/robots.txt`` and ``/sitemap.xml``, and the articles in four layouts:

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
"""

from __future__ import annotations

import datetime as _dt
import html
import json
import random
from dataclasses import dataclass, field
from typing import Iterator, Sequence

from . import japanese as ja
from . import text as en

__all__ = ["BASE_PLACEHOLDER", "DemoPage", "DemoSite", "build_site", "SECTIONS", "Section"]

SITE_NAME = "The Meridian Courier"
SITE_NAME_JA = "メリディアン・クーリエ日本語版"
#: Absolute URLs (robots.txt, sitemap.xml) are written with this origin; the server
#: replaces it with its own (see :meth:`DemoSite.render`).
BASE_PLACEHOLDER = "http://meridian-courier.invalid"
EDITION_DATE = "Sunday 22 November 2026"
_START = _dt.datetime(2026, 8, 3, 6, 0, tzinfo=_dt.timezone.utc)
_SPAN_MINUTES = 110 * 24 * 60

_WEEKDAY_ABBR = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTH_ABBR = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


@dataclass(frozen=True)
class Section:
    key: str
    name: str
    layout: str
    share: float  # share of the site's articles
    per_page: int  # cards per index page
    description: str
    lang: str = "en"
    charset: str = "utf-8"
    header_charset: bool = True  # the HTTP header names the charset (else only <meta>)


SECTIONS: tuple[Section, ...] = (
    Section("world", "World", "standard", 0.18, 10, "News and analysis from around the world."),
    Section("business", "Business", "standard", 0.15, 10, "Markets, companies and the economy."),
    Section("tech", "Technology", "standard", 0.14, 10, "Start-ups, gadgets, privacy and the internet."),
    Section("sport", "Sport", "standard", 0.13, 10, "Results, transfers and the stories behind them."),
    Section("opinion", "Opinion", "opinion", 0.13, 8, "Columns and comment from our writers.", header_charset=False),
    Section("photos", "Photos", "gallery", 0.10, 8, "The world in pictures.", header_charset=False),
    Section("ja", "日本語", "japanese", 0.17, 12, "日本語版の最新ニュース", lang="ja", charset="shift_jis",
            header_charset=False),
)
_SECTION = {s.key: s for s in SECTIONS}

_TAGS: dict[str, tuple[str, ...]] = {
    "world": ("Elections", "Floods", "Diplomacy", "Protests"),
    "business": ("Markets", "Jobs", "Energy", "Retail"),
    "tech": ("Privacy", "Start-ups", "Security", "Transport"),
    "sport": ("Football", "Athletics", "Transfers"),
    "opinion": ("Housing", "Climate", "Public services"),
    "photos": ("Festivals", "Weather"),
}
_AUTHOR_ROLES = {
    "world": "World correspondent", "business": "Business reporter", "tech": "Technology editor",
    "sport": "Sports writer", "photos": "Picture editor",
}
_COLUMNIST_BIOS = (
    "{name} writes about cities, housing and the people who keep them running.",
    "{name} is a former teacher and writes a weekly column on education and family life.",
    "{name} covered politics for twenty years before turning to comment.",
    "{name} is an economist and writes about work, wages and the cost of living.",
)
_CREDITS_PEOPLE = ("Ana Ruiz", "Tom Achebe", "Lucia Marin", "Jon Eskildsen", "Mei Lin", "Paolo Serra", "Ruth Adeyemi")
_WEATHER = ("showers", "sunny spells", "cloudy", "light rain", "clear", "windy", "fog early")
_FOOTER_LINKS = (
    ("/about/", "About us"), ("/contact/", "Contact the newsroom"), ("/corrections/", "Corrections"),
    ("/advertise/", "Advertise with us"), ("/privacy/", "Privacy policy"), ("/terms/", "Terms of use"),
)
_STATIC = {
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


@dataclass(frozen=True)
class DemoPage:
    """One page of the demo site, as served.

    ``kind``: ``index`` (home, sections, tags, authors), ``article``, ``static``,
    ``robots`` or ``sitemap``.  For an article, ``title`` and ``text`` are its true
    headline and body; ``layout`` is its template (``standard``, ``opinion``,
    ``gallery``, ``japanese``; ``home``, ``section-index``, ``tag-index``,
    ``author-index``, ``ja-index``, ``static`` for other pages).
    """

    path: str
    body: bytes
    content_type: str
    kind: str
    title: str | None = None
    text: str | None = None
    layout: str | None = None
    section: str | None = None
    charset: str = "utf-8"
    lang: str = "en"
    article_id: int | None = None
    published: str | None = None  # ISO 8601
    links: tuple[tuple[str, str], ...] = ()  # (href, anchor text) of the page's <a href>

    @property
    def decoded(self) -> str:
        """The page's text, decoded with its own charset."""
        return self.body.decode(_codec(self.charset))


def _codec(charset: str) -> str:
    # What a browser (and w3lib) reads "Shift_JIS" as.
    return "cp932" if charset.lower().replace("-", "_") in ("shift_jis", "sjis") else charset


@dataclass
class DemoSite:
    """The generated site: ``pages`` keyed by URL path."""

    seed: int
    pages: dict[str, DemoPage] = field(default_factory=dict)

    def __getitem__(self, path: str) -> DemoPage:
        return self.pages[path]

    def __contains__(self, path: object) -> bool:
        return path in self.pages

    def __iter__(self) -> Iterator[DemoPage]:
        return iter(self.pages.values())

    def __len__(self) -> int:
        return len(self.pages)

    def get(self, path: str) -> DemoPage | None:
        return self.pages.get(path)

    def articles(self) -> list[DemoPage]:
        """The article pages, in URL order."""
        return [p for _, p in sorted(self.pages.items()) if p.kind == "article"]

    def truth(self) -> dict[str, tuple[str, str]]:
        """``{path: (title, body)}`` for every article (body paragraphs joined by ``"\\n"``)."""
        return {p.path: (p.title or "", p.text or "") for p in self.articles()}

    def anchor_texts(self) -> dict[str, list[str]]:
        """For every page: the texts of the site's links pointing at it (linkinfo)."""
        out: dict[str, list[str]] = {}
        for page in self.pages.values():
            for href, anchor in page.links:
                if href in self.pages and anchor:
                    out.setdefault(href, []).append(anchor)
        return out

    @property
    def total_bytes(self) -> int:
        return sum(len(p.body) for p in self.pages.values())

    def render(self, path: str, base_url: str | None = None) -> bytes:
        """The body to serve for ``path``, with absolute URLs on ``base_url``."""
        page = self.pages[path]
        if base_url and page.kind in ("robots", "sitemap"):
            return page.body.replace(BASE_PLACEHOLDER.encode(), base_url.rstrip("/").encode())
        return page.body

    def save(self, directory: str) -> int:
        """Write the site under ``directory`` (``/`` → ``index.html``); return the file count."""
        import os

        n = 0
        for path, page in self.pages.items():
            rel = path.lstrip("/")
            if not rel or rel.endswith("/"):
                rel += "index.html"
            target = os.path.join(directory, *rel.split("/"))
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "wb") as f:
                f.write(page.body)
            n += 1
        return n


# --------------------------------------------------------------------------------------------
# Planning


@dataclass
class _Article:
    id: int
    section: str
    layout: str
    when: _dt.datetime
    title: str
    short: str
    dek: str
    path: str
    author: str | None
    tags: tuple[str, ...]
    items: list[tuple[str, str]]  # ("p" | "lede" | "h2" | "caption", text) in page order
    credits: list[str]  # gallery: one credit per caption
    lead_caption: str | None
    comments: list[tuple[str, str]]
    ctx: dict
    category: str = ""  # Japanese category label

    @property
    def body(self) -> str:
        return "\n".join(t for _, t in self.items)


def _esc(s: str) -> str:
    return html.escape(s, quote=False)


def _attr(s: str) -> str:
    return html.escape(s, quote=True)


def _slug(name: str) -> str:
    return en.slugify(name, 6)


def _allocate(total: int) -> dict[str, int]:
    """Article count per section (largest remainder, each section at least 2 when possible)."""
    raw = {s.key: s.share * total for s in SECTIONS}
    counts = {k: int(v) for k, v in raw.items()}
    for k in sorted(raw, key=lambda k: raw[k] - counts[k], reverse=True)[: total - sum(counts.values())]:
        counts[k] += 1
    for k in counts:  # small sites: make sure every layout has two pages to learn from
        while counts[k] < 2 and total >= 2 * len(SECTIONS):
            donor = max(counts, key=counts.get)  # type: ignore[arg-type]
            counts[donor] -= 1
            counts[k] += 1
    return counts


class _Builder:
    def __init__(self, seed: int, n_articles: int) -> None:
        if n_articles < 1:
            raise ValueError("articles must be at least 1")
        self.seed = seed
        self.rng = random.Random(f"meridian:{seed}")
        self.articles: list[_Article] = []
        self.by_section: dict[str, list[_Article]] = {}
        self.authors: dict[str, list[str]] = {}
        self.bios: dict[str, str] = {}
        self.pages: dict[str, DemoPage] = {}
        self._plan(n_articles)

    def page_rng(self, path: str) -> random.Random:
        return random.Random(f"meridian:{self.seed}:{path}")

    # -- plan ---------------------------------------------------------------------------------
    def _plan(self, n: int) -> None:
        rng = self.rng
        counts = _allocate(n)
        for key, section in _SECTION.items():
            if section.layout == "japanese":
                continue
            k = 4 if key == "opinion" else 3
            names: list[str] = []
            while len(names) < k:
                name = en.person_name(rng)
                if name not in names and all(name not in v for v in self.authors.values()):
                    names.append(name)
            self.authors[key] = names
        for i, name in enumerate(self.authors["opinion"]):
            self.bios[name] = _COLUMNIST_BIOS[i % len(_COLUMNIST_BIOS)].format(name=name)
        sections = [k for k, c in counts.items() for _ in range(c)]
        rng.shuffle(sections)
        minutes = sorted(rng.sample(range(_SPAN_MINUTES), n))
        ident = 40000 + rng.randint(0, 900)
        titles: set[str] = set()
        for key, minute in zip(sections, minutes):
            ident += rng.randint(1, 37)
            when = _START + _dt.timedelta(minutes=minute)
            art = self._plan_article(rng, ident, key, when, titles)
            self.articles.append(art)
            self.by_section.setdefault(key, []).append(art)
        self.by_id = {a.id: a for a in self.articles}
        english = [a for a in self.articles if a.section != "ja"]
        self.most_read_pool = rng.sample(english, min(24, len(english)))
        jas = self.by_section.get("ja", [])
        self.ja_ranking_pool = rng.sample(jas, min(10, len(jas)))

    def _plan_article(self, rng: random.Random, ident: int, key: str, when: _dt.datetime, titles: set[str]) -> _Article:
        section = _SECTION[key]
        date_path = f"{when.year:04d}/{when.month:02d}/{when.day:02d}"
        if section.layout == "japanese":
            ctx = ja.ja_context(rng)
            for _ in range(20):
                title = ja.ja_headline(rng, ctx)
                if title not in titles:
                    break
                ctx = ja.ja_context(rng)
            titles.add(title)
            used: set[str] = set()
            n_par = rng.choice((2, 3, 3, 4, 4, 5, 6, 8))
            items = [("p", ja.ja_paragraph(rng, ctx, used)) for _ in range(n_par)]
            return _Article(
                ident, key, section.layout, when, title, ja.ja_short_headline(title), "",
                f"/ja/{date_path}/k{ident:08d}.html", None, (), items, [], None, [], ctx,
                category=rng.choice(ja.JA_CATEGORIES),
            )
        ctx = en.article_context(rng, key)
        for _ in range(20):
            title = en.headline(rng, key, ctx)
            if title not in titles:
                break
            ctx = en.article_context(rng, key)
        titles.add(title)
        dek = en.standfirst(rng, key, ctx)
        author = rng.choice(self.authors[key])
        tags = tuple(sorted(rng.sample(_TAGS[key], rng.choice((1, 1, 2)))))
        used = set()
        items: list[tuple[str, str]] = []
        credits: list[str] = []
        lead_caption = None
        comments: list[tuple[str, str]] = []
        if section.layout == "standard":
            # Brief items of two paragraphs to long reads of twenty.
            n_par = rng.choice((2, 3, 4, 5, 5, 6, 7, 8, 8, 9, 10, 12, 14, 17, 20))
            for i in range(n_par):
                if i >= 3 and n_par >= 8 and rng.random() < 0.12 and items[-1][0] != "h2":
                    items.append(("h2", en.subheading(rng)))
                items.append(("p", en.news_paragraph(rng, key, ctx, used)))
            if rng.random() < 0.6:
                lead_caption = en.caption(rng, ctx)
            if rng.random() < 0.45:
                comments = self._comments(rng)
        elif section.layout == "opinion":
            n_par = rng.choice((4, 5, 6, 7, 8, 9, 10, 12))
            items.append(("lede", en.opinion_paragraph(rng, ctx, used)))
            for _ in range(n_par - 1):
                items.append(("p", en.opinion_paragraph(rng, ctx, used)))
            if rng.random() < 0.7:
                comments = self._comments(rng)
        else:  # gallery
            items.append(("p", en.gallery_intro(rng, ctx, used)))
            long_captions = rng.random() < 0.75  # some desks write one-line captions
            for _ in range(rng.choice((5, 6, 7, 8, 9, 10, 12, 14))):
                items.append(("caption", en.caption(rng, ctx, long_captions)))
                credits.append(f"Photograph: {rng.choice(_CREDITS_PEOPLE)}/{rng.choice(en.AGENCIES)}")
        path = f"/{key}/{date_path}/{en.slugify(title)}-{ident}.html"
        return _Article(ident, key, section.layout, when, title, en.short_headline(title), dek, path, author,
                        tags, items, credits, lead_caption, comments, ctx)

    def _comments(self, rng: random.Random) -> list[tuple[str, str]]:
        handles = ("harbourwatcher", "jm_1974", "Old Reader", "northern_light", "K. Brennan", "sceptic42")
        out = []
        for _ in range(rng.randint(2, 9)):
            name = en.person_name(rng) if rng.random() < 0.6 else rng.choice(handles)
            out.append((name, en.comment(rng)))
        return out

    # -- shared pieces ------------------------------------------------------------------------
    def build(self) -> DemoSite:
        for art in self.articles:
            renderer = {
                "standard": self._standard, "opinion": self._opinion, "gallery": self._gallery,
                "japanese": self._japanese,
            }[art.layout]
            self._add(renderer(art), art)
        self._home()
        for section in SECTIONS:
            self._section_index(section)
        self._tags()
        self._author_pages()
        for path, (title, paras) in _STATIC.items():
            self._static(path, title, paras)
        self._robots_and_sitemap()
        return DemoSite(self.seed, dict(sorted(self.pages.items())))

    def _add(self, doc: "_Doc", art: _Article | None = None, **kw) -> None:
        section = _SECTION.get(kw.get("section") or (art.section if art else ""), None)
        charset = section.charset if section else "utf-8"
        header_charset = section.header_charset if section else False
        if "header_charset" in kw:
            header_charset = kw.pop("header_charset")
        text = doc.html()
        body = text.encode(charset)
        if body.decode(_codec(charset)) != text:  # pragma: no cover - guards the word lists
            raise ValueError(f"{doc.path}: text does not round-trip through {charset}")
        label = "Shift_JIS" if charset == "shift_jis" else charset
        ctype = f"text/html; charset={label}" if header_charset else "text/html"
        if art is not None:
            page = DemoPage(doc.path, body, ctype, "article", art.title, art.body, art.layout, art.section,
                            charset=label, lang=_SECTION[art.section].lang, article_id=art.id,
                            published=art.when.isoformat(), links=tuple(doc.links))
        else:
            page = DemoPage(doc.path, body, ctype, kw.get("kind", "index"), kw.get("title"), None,
                            kw.get("layout"), kw.get("section"), charset=label,
                            lang=section.lang if section else "en", links=tuple(doc.links))
        self.pages[doc.path] = page

    def _most_read(self, doc: "_Doc", rng: random.Random, exclude: int | None) -> str:
        pool = [a for a in self.most_read_pool if a.id != exclude]
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

    def _ad(self, doc: "_Doc", rng: random.Random, slot: str) -> str:
        brand, copy, cta = rng.choice(en.AD_COPY)
        n = rng.randint(1000, 9999)
        href = f"https://ads.example/click?c={n}&amp;s={slot}"
        if slot == "leaderboard":
            return (
                f'<div class="ad-slot ad-leaderboard" id="div-gpt-ad-{n}-0"><span class="ad-label">Advertisement</span>\n'
                f'<a class="ad-link" href="{href}" rel="sponsored nofollow"><strong class="ad-brand">{_esc(brand)}</strong> '
                f'<span class="ad-copy">{_esc(copy)}</span> <span class="ad-cta">{_esc(cta)}</span></a></div>\n'
            )
        if slot == "inline":
            return (
                f'<aside class="ad-slot ad-inline" id="ad-inline-{n}"><span class="ad-label">Advertisement</span>'
                f'<p class="ad-copy"><strong>{_esc(brand)}</strong> {_esc(copy)}</p>'
                f'<a class="ad-cta" href="{href}" rel="sponsored nofollow">{_esc(cta)}</a></aside>\n'
            )
        return (
            f'<div class="ad-slot ad-mpu" id="div-gpt-ad-{n}-1"><span class="ad-label">Advertisement</span>\n'
            f'<div class="ad-creative"><p class="ad-brand">{_esc(brand)}</p><p class="ad-copy">{_esc(copy)}</p>'
            f'<a class="ad-cta" href="{href}" rel="sponsored nofollow">{_esc(cta)}</a></div></div>\n'
        )

    def _head(self, doc: "_Doc", title: str, description: str, art: _Article | None = None) -> str:
        full = f"{title} | {SITE_NAME}" if title != SITE_NAME else SITE_NAME
        meta = [
            '<meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{_esc(full)}</title>",
            f'<meta name="description" content="{_attr(description)}">',
            f'<meta property="og:site_name" content="{SITE_NAME}">',
            f'<link rel="canonical" href="{_attr(doc.path)}">',
            '<link rel="stylesheet" href="/static/css/main.4f2a91.css">',
        ]
        if art is not None:
            meta += [
                f'<meta property="og:title" content="{_attr(art.title)}">',
                '<meta property="og:type" content="article">',
                f'<meta property="article:published_time" content="{art.when.isoformat()}">',
                f'<meta property="article:section" content="{_attr(_SECTION[art.section].name)}">',
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

    def _masthead(self, doc: "_Doc", rng: random.Random, current: str | None) -> str:
        city = rng.choice(en.CITIES)[0]
        weather = f"{city} {rng.randint(3, 24)}&#176;C, {rng.choice(_WEATHER)}"
        items = [f'<li class="menu-item{" current-menu-item" if current == "home" else ""}">{doc.a("/", "Home")}</li>']
        for s in SECTIONS:
            cls = "menu-item current-menu-item" if s.key == current else "menu-item"
            items.append(f'<li class="{cls}">{doc.a(f"/{s.key}/", s.name)}</li>')
        ticker = ""
        if rng.random() < 0.3:
            story = rng.choice(self.articles[-15:])
            if story.section != "ja":
                ticker = f'<div class="breaking-ticker"><span class="label">Breaking</span> {doc.a(story.path, story.title)}</div>\n'
        return (
            f'<a class="skip-link" href="#content">Skip to content</a>\n'
            f'<div class="topbar"><div class="wrap"><span class="edition-date">{EDITION_DATE}</span> '
            f'<span class="weather">{weather}</span> {doc.a("/subscribe/", "Subscribe")} {doc.a("/newsletter/", "Newsletters")}</div></div>\n'
            f'<header class="masthead" role="banner"><div class="wrap">{doc.a("/", SITE_NAME, "logo")}\n'
            f'<p class="tagline">Independent journalism since 1887</p></div>\n'
            f'<nav class="primary-nav" aria-label="Sections"><ul class="menu">\n' + "\n".join(items) + "\n</ul></nav>\n"
            "</header>\n" + ticker
        )

    def _footer(self, doc: "_Doc") -> str:
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

    def _sidebar(self, doc: "_Doc", rng: random.Random, exclude: int | None, japanese_box: bool = False) -> str:
        out = ['<aside class="sidebar" role="complementary">\n', self._most_read(doc, rng, exclude),
               self._ad(doc, rng, "mpu"),
               '<section class="widget widget-newsletter"><h2 class="widget-title">The Morning Briefing</h2>\n'
               "<p>Our editors' pick of the day's news, in your inbox before 7am.</p>"
               f'{doc.a("/newsletter/", "Sign up", "button")}</section>\n']
        jas = self.by_section.get("ja", [])
        if japanese_box and jas:
            items = "".join(f"<li>{doc.a(a.path, a.title)}</li>" for a in jas[-1:-4:-1])
            out.append(f'<section class="widget widget-japanese" lang="ja"><h2 class="widget-title">日本語ニュース</h2><ul>{items}</ul>'
                       f'{doc.a("/ja/", "日本語版へ")}</section>\n')
        out.append("</aside>\n")
        return "".join(out)

    def _page(self, doc: "_Doc", rng: random.Random, title: str, description: str, current: str | None,
              main: str, art: _Article | None = None, body_class: str = "", exclude: int | None = None,
              japanese_box: bool = False) -> None:
        doc.parts.append(f'<!DOCTYPE html>\n<html lang="en">\n{self._head(doc, title, description, art)}')
        doc.parts.append(f'<body class="{body_class}">\n')
        doc.parts.append(self._masthead(doc, rng, current))
        doc.parts.append(self._ad(doc, rng, "leaderboard"))
        doc.parts.append('<div class="wrap page-body">\n')
        doc.parts.append(main)
        doc.parts.append(self._sidebar(doc, rng, exclude, japanese_box))
        doc.parts.append("</div>\n")
        doc.parts.append(self._footer(doc))
        doc.parts.append("</body>\n</html>\n")

    # -- articles -----------------------------------------------------------------------------
    def _body_html(self, doc: "_Doc", rng: random.Random, art: _Article, inline_ad: bool) -> str:
        out: list[str] = []
        paras = [i for i, (k, _) in enumerate(art.items) if k == "p"]
        linked = rng.choice(paras) if paras and rng.random() < 0.6 else None
        ad_after = paras[2] if inline_ad and len(paras) >= 5 else None
        for i, (kind, t) in enumerate(art.items):
            if kind == "h2":
                out.append(f"<h2>{_esc(t)}</h2>")
            elif i == linked:
                out.append(f"<p>{self._inline_link(doc, rng, art, t)}</p>")
            else:
                out.append(f"<p>{_esc(t)}</p>")
            if i == ad_after:
                out.append(self._ad(doc, rng, "inline").rstrip("\n"))
        return "\n".join(out) + "\n"

    def _inline_link(self, doc: "_Doc", rng: random.Random, art: _Article, t: str) -> str:
        """The paragraph with one phrase linked to a related story (the text is unchanged)."""
        for name in (art.ctx.get("company"), art.ctx.get("city"), art.ctx.get("team"), art.ctx.get("person")):
            if name and name in t:
                i = t.index(name)
                others = [a for a in self.by_section[art.section] if a.id != art.id]
                target = rng.choice(others).path if others else f"/{art.section}/"
                return _esc(t[:i]) + doc.a(target, name) + _esc(t[i + len(name):])
        return _esc(t)

    def _related(self, doc: "_Doc", rng: random.Random, art: _Article, heading: str, cls: str) -> str:
        same = [a for a in self.by_section[art.section] if a.id != art.id]
        near = sorted(same, key=lambda a: abs(a.id - art.id))[:3]
        rest = [a for a in same if a not in near]
        picks = near + rng.sample(rest, min(len(rest), rng.randint(0, 2)))
        if not picks:
            return ""
        items = "".join(
            f'<li class="related-item">{doc.a(a.path, a.title)} <span class="related-date">{_short_date(a.when)}</span></li>\n'
            for a in picks
        )
        return f'<section class="{cls} {cls}-{art.id}" id="{cls}-{art.id}"><h2>{heading}</h2>\n<ul>\n{items}</ul></section>\n'

    def _topics(self, doc: "_Doc", art: _Article) -> str:
        links = " ".join(doc.a(f"/tag/{_slug(t)}/", t) for t in art.tags)
        return f'<p class="topics">Topics: {links}</p>\n' if links else ""

    def _comment_thread(self, art: _Article, rng: random.Random) -> str:
        if not art.comments:
            return ""
        cid = art.id * 10
        items = []
        for name, body in art.comments:
            cid += rng.randint(1, 9)
            when = art.when + _dt.timedelta(minutes=rng.randint(20, 3000))
            items.append(
                f'<li id="comment-{cid}" class="comment comment-{cid} depth-1"><article class="comment-body">'
                f'<footer class="comment-meta"><b class="fn">{_esc(name)}</b> <time>{_short_date(when)} at {when:%H:%M}</time></footer>\n'
                f'<div class="comment-content"><p>{_esc(body)}</p></div>'
                f'<a class="comment-reply-link" href="#comment-{cid}">Reply</a></article></li>\n'
            )
        n = len(art.comments)
        return (
            f'<section id="comments" class="comments-area"><h2 class="comments-title">{n} comments</h2>\n'
            f'<ol class="comment-list">\n{"".join(items)}</ol></section>\n'
        )

    def _standard(self, art: _Article) -> "_Doc":
        doc = _Doc(art.path)
        rng = self.page_rng(art.path)
        section = _SECTION[art.section]
        tag_classes = " ".join(f"tag-{_slug(t)}" for t in art.tags)
        kicker = art.tags[0]
        figure = ""
        if art.lead_caption:
            person = rng.choice(_CREDITS_PEOPLE)
            figure = (
                f'<figure class="lead-media"><img src="/media/{art.id}/lead.jpg" alt="" width="1200" height="675">'
                f'<figcaption class="caption">{_esc(art.lead_caption)} <span class="credit">Photograph: {_esc(person)}/'
                f"{rng.choice(en.AGENCIES)}</span></figcaption></figure>\n"
            )
        updated = ""
        if rng.random() < 0.4:
            later = art.when + _dt.timedelta(minutes=rng.randint(30, 600))
            updated = f' <span class="updated">Last modified on {_long_time(later)}</span>'
        tags = "".join(f'<li>{doc.a(f"/tag/{_slug(t)}/", t)}</li>' for t in art.tags)
        author_href = f"/authors/{_slug(art.author or '')}/"
        share = " ".join(doc.a(f"https://social.example/{net}?u={art.id}", label) for net, label in
                         (("fb", "Facebook"), ("x", "X"), ("mail", "Email")))
        main = (
            '<main id="content" class="site-main">\n'
            f'<nav class="breadcrumbs" aria-label="Breadcrumb"><ol><li>{doc.a("/", "Home")}</li>'
            f'<li>{doc.a(f"/{section.key}/", section.name)}</li><li class="crumb-current">{_esc(art.short)}</li></ol></nav>\n'
            f'<article id="post-{art.id}" class="post post-{art.id} type-post status-publish format-standard '
            f'category-{section.key} {tag_classes}">\n'
            '<header class="entry-header">\n'
            f'<span class="kicker">{doc.a(f"/tag/{_slug(kicker)}/", kicker)}</span>\n'
            f'<h1 class="entry-title">{_esc(art.title)}</h1>\n'
            f'<p class="standfirst">{_esc(art.dek)}</p>\n'
            f'<div class="entry-meta"><span class="byline">By {doc.a(author_href, art.author or "", "author")}</span>'
            f' <span class="role">{_AUTHOR_ROLES[section.key]}</span> <time class="published" datetime="{art.when.isoformat()}">'
            f"{_long_time(art.when)}</time>{updated}</div>\n"
            "</header>\n"
            f"{figure}"
            f'<div class="entry-content" itemprop="articleBody">\n{self._body_html(doc, rng, art, inline_ad=True)}</div>\n'
            f'<footer class="entry-footer"><ul class="tag-list">{tags}</ul>\n'
            f'<div class="share-tools"><span>Share this article</span> {share}</div></footer>\n'
            "</article>\n"
            f"{self._related(doc, rng, art, 'Related stories', 'related-stories')}"
            f"{self._comment_thread(art, rng)}"
            "</main>\n"
        )
        self._page(doc, rng, art.title, art.dek, section.key, main, art,
                   f"single single-post postid-{art.id} section-{section.key}", exclude=art.id)
        return doc

    def _opinion(self, art: _Article) -> "_Doc":
        doc = _Doc(art.path)
        rng = self.page_rng(art.path)
        author = art.author or ""
        slug = _slug(author)
        paras = []
        for kind, t in art.items:
            cls = ' class="lede"' if kind == "lede" else ""
            paras.append(f"<p{cls}>{_esc(t)}</p>")
        others = [a for a in self.by_section["opinion"] if a.author == author and a.id != art.id]
        more = ""
        if others:
            picks = sorted(rng.sample(others, min(3, len(others))), key=lambda a: -a.id)
            more = (f'<div class="more-from"><h2>More from {_esc(author)}</h2><ul>'
                    + "".join(f"<li>{doc.a(a.path, a.title)}</li>" for a in picks) + "</ul></div>\n")
        main = (
            '<main id="content" class="site-main opinion-main">\n'
            f'<article id="column-{art.id}" class="column column-{art.id} opinion-piece">\n'
            f'<div class="column-head"><p class="section-label">{doc.a("/opinion/", "Opinion")}</p>\n'
            f'<h1 class="column-title">{_esc(art.title)}</h1>\n'
            f'<p class="column-dek">{_esc(art.dek)}</p></div>\n'
            f'<div class="columnist"><img class="columnist-photo" src="/media/authors/{slug}.jpg" alt="">'
            f'<div class="columnist-info">{doc.a(f"/authors/{slug}/", author, "columnist-name")}'
            f'<p class="columnist-bio">{_esc(self.bios[author])}</p></div>'
            f'<time datetime="{art.when.isoformat()}">{_long_time(art.when)}</time></div>\n'
            f'<div class="column-text">\n' + "\n".join(paras) + "\n</div>\n"
            "<p class=\"disclaimer\">The views expressed in this column are the author's own and do not necessarily "
            "reflect those of The Meridian Courier.</p>\n"
            f"{self._topics(doc, art)}"
            f"{more}"
            "</article>\n"
            f"{self._comment_thread(art, rng)}"
            "</main>\n"
        )
        self._page(doc, rng, art.title, art.dek, "opinion", main, art,
                   f"single single-column postid-{art.id} section-opinion", exclude=art.id)
        return doc

    def _gallery(self, art: _Article) -> "_Doc":
        doc = _Doc(art.path)
        rng = self.page_rng(art.path)
        intro = [t for k, t in art.items if k == "p"]
        captions = [t for k, t in art.items if k == "caption"]
        author_href = f"/authors/{_slug(art.author or '')}/"
        slides = []
        for k, (cap, credit) in enumerate(zip(captions, art.credits), 1):
            slides.append(
                f'<figure class="slide" id="slide-{art.id}-{k}"><img src="/media/{art.id}/{k}.jpg" alt="" loading="lazy">'
                f'<figcaption><span class="slide-count">{k}/{len(captions)}</span>'
                f'<p class="slide-caption">{_esc(cap)}</p><p class="slide-credit">{_esc(credit)}</p></figcaption></figure>'
            )
        main = (
            '<main id="content" class="site-main gallery-main">\n'
            f'<article id="gallery-{art.id}" class="gallery gallery-{art.id} media-gallery">\n'
            f'<header class="gallery-header"><p class="section-label">{doc.a("/photos/", "Photos")}</p>\n'
            f'<h1 class="gallery-title">{_esc(art.title)}</h1>\n'
            f'<p class="gallery-dek">{_esc(art.dek)}</p>\n'
            f'<p class="gallery-meta">{len(captions)} photographs, chosen by {doc.a(author_href, art.author or "")} '
            f'<time datetime="{art.when.isoformat()}">'
            f"{_long_time(art.when)}</time></p></header>\n"
            '<div class="gallery-intro">' + "".join(f"<p>{_esc(t)}</p>" for t in intro) + "</div>\n"
            '<div class="gallery-slides">\n' + "\n".join(slides) + "\n</div>\n"
            f"{self._topics(doc, art)}"
            "</article>\n"
            f"{self._related(doc, rng, art, 'More galleries', 'more-galleries')}"
            "</main>\n"
        )
        self._page(doc, rng, art.title, art.dek, "photos", main, art,
                   f"single single-gallery postid-{art.id} section-photos", exclude=art.id)
        return doc

    # -- the Japanese edition -----------------------------------------------------------------
    def _ja_frame(self, doc: "_Doc", rng: random.Random, title: str, main: str, og_title: str | None,
                  exclude: int | None) -> None:
        head = [
            '<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">',
            f"<title>{_esc(title)} | {SITE_NAME_JA}</title>",
            f'<link rel="canonical" href="{_attr(doc.path)}">',
            '<link rel="stylesheet" href="/static/ja/common.css">',
        ]
        if og_title:
            head.append(f'<meta property="og:title" content="{_attr(og_title)}">')
        nav = "".join(
            f"<li>{doc.a(h, t)}</li>" for h, t in (("/ja/", "トップ"), ("/ja/", "社会"), ("/ja/", "経済"),
                                                ("/ja/", "国際"), ("/ja/", "スポーツ"), ("/", "English"))
        )
        pool = [a for a in self.ja_ranking_pool if a.id != exclude]
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
            f'<div class="ad" id="ad{n}"><p class="ad-label">広告</p><p class="ad-text">{_esc(brand)}:{_esc(copy)}</p>'
            f'<a href="https://ads.example/click?c={n}">{_esc(cta)}</a></div>\n'
            "</div>\n</div>\n"
            f'<div id="footer"><p>{doc.a("/about/", "会社概要")} | {doc.a("/privacy/", "個人情報の取り扱い")} | '
            f'{doc.a("/contact/", "お問い合わせ")}</p>\n'
            "<p class=\"copyright\">Copyright 2026 The Meridian Courier. 記事・写真の無断転載を禁じます。</p></div>\n"
            "</body>\n</html>\n"
        )

    def _japanese(self, art: _Article) -> "_Doc":
        doc = _Doc(art.path)
        rng = self.page_rng(art.path)
        w = art.when + _dt.timedelta(hours=9)  # JST
        date = f"{w.year}年{w.month}月{w.day}日 {w.hour}時{w.minute}分"
        body = "\n".join(f"<p>{_esc(t)}</p>" for _, t in art.items)
        same = [a for a in self.by_section["ja"] if a.id != art.id]
        related = sorted(same, key=lambda a: abs(a.id - art.id))[: rng.randint(2, 4)]
        rel = "".join(f"<li>{doc.a(a.path, a.title)}</li>" for a in related)
        main = (
            f'<div class="topicpath">{doc.a("/ja/", "日本語版トップ")} &gt; {_esc(art.category)}</div>\n'
            f'<div class="entry" id="entry{art.id}">\n'
            f'<h1 class="entry-title">{_esc(art.title)}</h1>\n'
            f'<p class="entry-date">{date}</p>\n'
            f'<div class="entry-body">\n{body}\n</div>\n'
            f'<div class="entry-related"><h2>関連記事</h2><ul>{rel}</ul></div>\n'
            "</div>\n"
        )
        self._ja_frame(doc, rng, art.title, main, art.title, art.id)
        return doc

    # -- index pages --------------------------------------------------------------------------
    def _card(self, doc: "_Doc", rng: random.Random, a: _Article) -> str:
        anchor = a.short if rng.random() < 0.2 else a.title
        more = f' {doc.a(a.path, "Read more", "read-more")}' if rng.random() < 0.3 else ""
        img = f'<a class="card-image" href="{a.path}"><img src="/media/{a.id}/thumb.jpg" alt=""></a>'
        doc.links.append((a.path, ""))
        return (
            f'<article class="card card-{a.id}">{img}<div class="card-body">'
            f'<h2 class="card-title">{doc.a(a.path, anchor)}</h2>'
            f'<p class="card-dek">{_esc(a.dek)}</p>'
            f'<p class="card-meta">By {_esc(a.author or "")} <time>{_short_date(a.when)}</time></p>{more}</div></article>\n'
        )

    def _pagination(self, doc: "_Doc", base: str, page: int, pages: int) -> str:
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

    def _section_index(self, section: Section) -> None:
        arts = sorted(self.by_section.get(section.key, []), key=lambda a: -a.id)
        pages = max(1, -(-len(arts) // section.per_page))
        base = f"/{section.key}/"
        for n in range(1, pages + 1):
            path = base if n == 1 else f"{base}page/{n}/"
            chunk = arts[(n - 1) * section.per_page : n * section.per_page]
            doc = _Doc(path)
            rng = self.page_rng(path)
            suffix = "" if n == 1 else f" (page {n})"
            if section.layout == "japanese":
                items = []
                for a in chunk:
                    w = a.when + _dt.timedelta(hours=9)
                    anchor = a.short if rng.random() < 0.25 else a.title
                    items.append(f'<li><span class="date">{w.month}月{w.day}日 {w.hour}時{w.minute}分</span> '
                                 f'{doc.a(a.path, anchor)} <span class="cat">[{_esc(a.category)}]</span></li>\n')
                pager = self._pagination(doc, base, n, pages).replace("Newer stories", "前へ").replace(
                    "Older stories", "次へ")
                main = (f'<h1 class="page-title">新着ニュース{"" if n == 1 else f"({n}ページ目)"}</h1>\n'
                        f'<ul class="news-list">\n{"".join(items)}</ul>\n{pager}')
                self._ja_frame(doc, rng, "新着ニュース" + ("" if n == 1 else f"({n}ページ目)"), main, None, None)
                self._add(doc, None, kind="index", title="新着ニュース", layout="ja-index", section=section.key,
                          header_charset=True)
                continue
            main = (
                '<main id="content" class="site-main archive">\n'
                f'<header class="archive-header"><h1 class="archive-title">{_esc(section.name)}{suffix}</h1>\n'
                f'<p class="archive-description">{_esc(section.description)}</p></header>\n'
                '<div class="card-list">\n' + "".join(self._card(doc, rng, a) for a in chunk) + "</div>\n"
                + self._pagination(doc, base, n, pages) + "</main>\n"
            )
            self._page(doc, rng, section.name + suffix, section.description, section.key, main,
                       body_class=f"archive category section-{section.key}", japanese_box=False)
            self._add(doc, None, kind="index", title=section.name, layout="section-index", section=section.key)

    def _listing(self, path: str, heading: str, description: str, arts: Sequence[_Article], layout: str,
                 extra: str = "") -> None:
        doc = _Doc(path)
        rng = self.page_rng(path)
        arts = sorted(arts, key=lambda a: -a.id)
        main = (
            '<main id="content" class="site-main archive">\n'
            f'<header class="archive-header"><h1 class="archive-title">{_esc(heading)}</h1>\n'
            f'<p class="archive-description">{_esc(description)}</p>{extra}</header>\n'
            '<div class="card-list">\n' + "".join(self._card(doc, rng, a) for a in arts) + "</div>\n</main>\n"
        )
        self._page(doc, rng, heading, description, None, main, body_class="archive")
        self._add(doc, None, kind="index", title=heading, layout=layout)

    def _tags(self) -> None:
        by_tag: dict[str, list[_Article]] = {}
        for a in self.articles:
            for t in a.tags:
                by_tag.setdefault(t, []).append(a)
        for t, arts in sorted(by_tag.items()):
            self._listing(f"/tag/{_slug(t)}/", t, f"All our coverage of {t.lower()}.", arts, "tag-index")

    def _author_pages(self) -> None:
        by_author: dict[str, list[_Article]] = {}
        for a in self.articles:
            if a.author:
                by_author.setdefault(a.author, []).append(a)
        for name, arts in sorted(by_author.items()):
            key = arts[0].section
            role = "Columnist" if key == "opinion" else _AUTHOR_ROLES[key]
            extra = f'<p class="author-bio">{_esc(self.bios[name])}</p>' if name in self.bios else ""
            self._listing(f"/authors/{_slug(name)}/", name, f"{role}, {SITE_NAME}", arts, "author-index", extra)

    def _home(self) -> None:
        doc = _Doc("/")
        rng = self.page_rng("/")
        english = sorted((a for a in self.articles if a.section != "ja"), key=lambda a: -a.id)
        lead, top = english[0], english[1:9]
        top_items = "".join(
            f'<li class="story story-{a.id}">{doc.a(a.path, a.short if rng.random() < 0.4 else a.title)} '
            f'<span class="story-section">{_SECTION[a.section].name}</span></li>\n' for a in top
        )
        blocks = []
        for s in SECTIONS:
            if s.layout == "japanese":
                continue
            arts = sorted(self.by_section.get(s.key, []), key=lambda a: -a.id)[:5]
            items = "".join(f"<li>{doc.a(a.path, a.short if rng.random() < 0.5 else a.title)}</li>" for a in arts)
            blocks.append(
                f'<section class="section-block section-block-{s.key}"><h2 class="section-heading">'
                f'{doc.a(f"/{s.key}/", s.name)}</h2><ul>{items}</ul>'
                f'{doc.a(f"/{s.key}/", f"More {s.name.lower()}", "more-link")}</section>\n'
            )
        main = (
            '<main id="content" class="site-main home">\n'
            '<section class="top-stories"><h2 class="section-heading">Top stories</h2>\n'
            f'<article class="lead-story story-{lead.id}"><h3 class="story-title">{doc.a(lead.path, lead.title)}</h3>\n'
            f'<p class="story-dek">{_esc(lead.dek)}</p>{doc.a(lead.path, "Read more", "read-more")}</article>\n'
            f'<ul class="story-list">\n{top_items}</ul></section>\n' + "".join(blocks) + "</main>\n"
        )
        self._page(doc, rng, SITE_NAME, "Independent news from the Meridian Courier: world, business, technology, "
                   "sport, opinion and photos.", "home", main, body_class="home", japanese_box=True)
        self._add(doc, None, kind="index", title=SITE_NAME, layout="home", header_charset=False)

    def _static(self, path: str, title: str, paras: Sequence[str]) -> None:
        doc = _Doc(path)
        rng = self.page_rng(path)
        main = (
            '<main id="content" class="site-main page">\n'
            f'<article class="page-content"><h1 class="page-title">{_esc(title)}</h1>\n'
            + "".join(f"<p>{_esc(p)}</p>\n" for p in paras) + "</article>\n</main>\n"
        )
        self._page(doc, rng, title, paras[0], None, main, body_class="page")
        self._add(doc, None, kind="static", title=title, layout="static", header_charset=True)

    def _robots_and_sitemap(self) -> None:
        robots = f"User-agent: *\nAllow: /\n\nSitemap: {BASE_PLACEHOLDER}/sitemap.xml\n"
        self.pages["/robots.txt"] = DemoPage("/robots.txt", robots.encode(), "text/plain; charset=utf-8", "robots")
        urls = []
        for path, page in sorted(self.pages.items()):
            if page.kind in ("index", "article"):
                lastmod = page.published[:10] if page.published else "2026-11-22"
                urls.append(f"<url><loc>{BASE_PLACEHOLDER}{_esc(path)}</loc><lastmod>{lastmod}</lastmod></url>")
        xml = ('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
               + "\n".join(urls) + "\n</urlset>\n")
        self.pages["/sitemap.xml"] = DemoPage("/sitemap.xml", xml.encode(), "application/xml", "sitemap")


class _Doc:
    """An HTML document being written, recording its links."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.parts: list[str] = []
        self.links: list[tuple[str, str]] = []

    def a(self, href: str, label: str, cls: str | None = None) -> str:
        self.links.append((href, label))
        c = f' class="{cls}"' if cls else ""
        return f'<a href="{_attr(href)}"{c}>{_esc(label)}</a>'

    def html(self) -> str:
        return "".join(self.parts)


def _short_date(when: _dt.datetime) -> str:
    return f"{when.day} {_MONTH_ABBR[when.month - 1]} {when.year}"


def _long_time(when: _dt.datetime) -> str:
    return (f"{_WEEKDAY_ABBR[when.weekday()]} {when.day} {_MONTH_ABBR[when.month - 1]} {when.year} "
            f"{when.hour:02d}.{when.minute:02d} GMT")


def build_site(seed: int = 7, articles: int = 120) -> DemoSite:
    """Generate the demo site: the same ``seed`` and ``articles`` always give the same bytes."""
    return _Builder(seed, articles).build()
