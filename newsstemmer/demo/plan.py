"""Planning the demo site: which articles it has, in which sections, by whom, when, saying what.

:class:`SitePlan` draws everything from the seed before any page is written:
article ids, dates, headlines, standfirsts, bodies, authors, tags, comments, and
the pools the "most read" and ranking boxes pick from.  The page renderers
(:mod:`.articles`, :mod:`.indexes`, :mod:`.themes`) read the plan; each page
draws its own random choices from :meth:`SitePlan.page_rng`, so pages do not
depend on one another.
"""

from __future__ import annotations

import datetime as _dt
import random
from dataclasses import dataclass
from typing import Any

from . import japanese as ja
from . import text as en
from .sitemodel import EDITION_DATE, SECTION_BY_KEY, SECTIONS

__all__ = ["AUTHOR_ROLES", "CREDITS_PEOPLE", "PlannedArticle", "SitePlan", "allocate", "article_path"]

_START = _dt.datetime(2026, 8, 3, 6, 0, tzinfo=_dt.timezone.utc)
_SPAN_MINUTES = 110 * 24 * 60

_TAGS: dict[str, tuple[str, ...]] = {
    "world": ("Elections", "Floods", "Diplomacy", "Protests"),
    "business": ("Markets", "Jobs", "Energy", "Retail"),
    "tech": ("Privacy", "Start-ups", "Security", "Transport"),
    "sport": ("Football", "Athletics", "Transfers"),
    "opinion": ("Housing", "Climate", "Public services"),
    "photos": ("Festivals", "Weather"),
}
#: The job title under English bylines, by section.
AUTHOR_ROLES = {
    "world": "World correspondent", "business": "Business reporter", "tech": "Technology editor",
    "sport": "Sports writer", "photos": "Picture editor",
}
_COLUMNIST_BIOS = (
    "{name} writes about cities, housing and the people who keep them running.",
    "{name} is a former teacher and writes a weekly column on education and family life.",
    "{name} covered politics for twenty years before turning to comment.",
    "{name} is an economist and writes about work, wages and the cost of living.",
)
#: Photographers named in picture credits.
CREDITS_PEOPLE = ("Ana Ruiz", "Tom Achebe", "Lucia Marin", "Jon Eskildsen", "Mei Lin", "Paolo Serra", "Ruth Adeyemi")


@dataclass
class PlannedArticle:
    """One planned article: where it is, when, and what it says (its true title and body)."""

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
        """The true body: the items' texts joined by ``"\\n"``."""
        return "\n".join(t for _, t in self.items)


def article_path(key: str, when: _dt.datetime, title: str, ident: int) -> str:
    """An article's URL path: its section, publication date, headline's slug and id (Japanese: the id only)."""
    date_path = f"{when.year:04d}/{when.month:02d}/{when.day:02d}"
    if SECTION_BY_KEY[key].layout == "japanese":
        return f"/ja/{date_path}/k{ident:08d}.html"
    return f"/{key}/{date_path}/{en.slugify(title)}-{ident}.html"


def allocate(total: int) -> dict[str, int]:
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


class SitePlan:
    """The articles, authors and box pools of a site of ``n_articles`` articles, drawn from ``seed``."""

    def __init__(self, seed: int, n_articles: int) -> None:
        if n_articles < 1:
            raise ValueError("articles must be at least 1")
        self.seed = seed
        self.rng = random.Random(f"meridian:{seed}")
        self.articles: list[PlannedArticle] = []
        self.by_section: dict[str, list[PlannedArticle]] = {}
        self.authors: dict[str, list[str]] = {}
        self.bios: dict[str, str] = {}
        self.edition_date = EDITION_DATE  # the masthead's date (a later demo day shows its own)
        self.feed_link = False  # <link rel="alternate"> to the RSS feed on the home page (demo days >= 2)
        self.listing: int | None = None  # listings show this many newest articles (None: all; long runs)
        self._plan(n_articles)
        self._titles = {a.title for a in self.articles}

    def page_rng(self, path: str) -> random.Random:
        """The random source of one page: its choices depend on the seed and its path only."""
        return random.Random(f"meridian:{self.seed}:{path}")

    def _plan(self, n: int) -> None:
        rng = self.rng
        counts = allocate(n)
        for key, section in SECTION_BY_KEY.items():
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
            art = self.plan_article(rng, ident, key, when, titles)
            self.articles.append(art)
            self.by_section.setdefault(key, []).append(art)
        self.by_id = {a.id: a for a in self.articles}
        english = [a for a in self.articles if a.section != "ja"]
        self.most_read_pool = rng.sample(english, min(24, len(english)))
        jas = self.by_section.get("ja", [])
        self.ja_ranking_pool = rng.sample(jas, min(10, len(jas)))

    def newest(self, arts: list[PlannedArticle]) -> list[PlannedArticle]:
        """``arts`` (in plan order) newest first, cut to :attr:`listing`."""
        if self.listing is not None:
            arts = arts[-self.listing:] if self.listing else []
        return sorted(arts, key=lambda a: -a.id)

    def add_article(self, rng: random.Random, key: str, when: _dt.datetime) -> PlannedArticle:
        """Plan one more article of section ``key`` (a later demo day), after every planned one."""
        ident = self.articles[-1].id + rng.randint(1, 37)  # ids grow with the plan
        art = self.plan_article(rng, ident, key, when, self._titles)
        self.articles.append(art)
        self.by_section.setdefault(key, []).append(art)
        self.by_id[art.id] = art
        return art

    def plan_article(self, rng: random.Random, ident: int, key: str, when: _dt.datetime, titles: Any) -> PlannedArticle:
        """Draw one article of section ``key`` with id ``ident`` (``titles``: the headlines taken, a set or alike)."""
        section = SECTION_BY_KEY[key]
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
            return PlannedArticle(
                ident, key, section.layout, when, title, ja.ja_short_headline(title), "",
                article_path(key, when, title, ident), None, (), items, [], None, [], ctx,
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
                credits.append(f"Photograph: {rng.choice(CREDITS_PEOPLE)}/{rng.choice(en.AGENCIES)}")
        path = article_path(key, when, title, ident)
        return PlannedArticle(ident, key, section.layout, when, title, en.short_headline(title), dek, path, author,
                        tags, items, credits, lead_caption, comments, ctx)

    def _comments(self, rng: random.Random) -> list[tuple[str, str]]:
        handles = ("harbourwatcher", "jm_1974", "Old Reader", "northern_light", "K. Brennan", "sceptic42")
        out = []
        for _ in range(rng.randint(2, 9)):
            name = en.person_name(rng) if rng.random() < 0.6 else rng.choice(handles)
            out.append((name, en.comment(rng)))
        return out

