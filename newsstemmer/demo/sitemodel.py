"""The demo site's model: its sections, its pages as served, and the site as a whole.

A :class:`DemoSite` is a dict of :class:`DemoPage` (bytes as the server sends
them, plus the truth about each page) keyed by URL path; :data:`SECTIONS` lists
the site's sections and the layout each one uses.  Generating the pages is the
job of :mod:`.site` (``build_site``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator

__all__ = [
    "BASE_PLACEHOLDER",
    "EDITION_DATE",
    "SECTIONS",
    "SECTION_BY_KEY",
    "SITE_NAME",
    "SITE_NAME_JA",
    "DemoPage",
    "DemoSite",
    "Section",
    "codec",
]

SITE_NAME = "The Meridian Courier"
SITE_NAME_JA = "メリディアン・クーリエ日本語版"
#: Absolute URLs (robots.txt, sitemap.xml) are written with this origin; the server
#: replaces it with its own (see :meth:`DemoSite.render`).
BASE_PLACEHOLDER = "http://meridian-courier.invalid"
EDITION_DATE = "Sunday 22 November 2026"


@dataclass(frozen=True)
class Section:
    """A section of the site: its URL key, name, article layout and share of the articles."""

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
#: The sections by key.
SECTION_BY_KEY = {s.key: s for s in SECTIONS}


@dataclass(frozen=True)
class DemoPage:
    """One page of the demo site, as served.

    ``kind``: ``index`` (home, sections, tags, authors, the video index), ``article``,
    ``static``, ``video``, ``live`` (a live blog), ``robots``, ``sitemap`` or ``feed``.  For an article, ``title`` and ``text`` are its true
    headline and body; ``layout`` is its template (``standard``, ``opinion``,
    ``gallery``, ``japanese``; ``home``, ``section-index``, ``tag-index``,
    ``author-index``, ``ja-index``, ``static``, ``video-index``, ``video``, ``liveblog``
    for other pages).
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
        return self.body.decode(codec(self.charset))


def codec(charset: str) -> str:
    """The Python codec to decode a page declared in ``charset`` with (what a browser, and w3lib, reads)."""
    return "cp932" if charset.lower().replace("-", "_") in ("shift_jis", "sjis") else charset


@dataclass
class DemoSite:
    """The generated site: ``pages`` keyed by URL path."""

    seed: int
    pages: dict[str, DemoPage] = field(default_factory=dict)
    day: int = 1  # the demo day served (1: the original site; see :mod:`.days`)
    updated: dict[str, int] = field(default_factory=dict)  # article path -> day of its last change
    #: Served but not one of the site's pages (``/feed.xml``): day 1's pages stay as they were.
    extras: dict[str, DemoPage] = field(default_factory=dict)

    def __getitem__(self, path: str) -> DemoPage:
        return self.pages[path]

    def __contains__(self, path: object) -> bool:
        return path in self.pages

    def __iter__(self) -> Iterator[DemoPage]:
        return iter(self.pages.values())

    def __len__(self) -> int:
        return len(self.pages)

    def get(self, path: str) -> DemoPage | None:
        """The page (or extra file, such as the feed) served at ``path``."""
        return self.pages.get(path) or self.extras.get(path)

    def articles(self) -> list[DemoPage]:
        """The article pages, in URL order."""
        return [p for _, p in sorted(self.pages.items()) if p.kind == "article"]

    def truth(self) -> dict[str, tuple[str, str]]:
        """``{path: (title, body)}`` for every article (body paragraphs joined by ``"\\n"``)."""
        return {p.path: (p.title or "", p.text or "") for p in self.articles()}

    def truth_records(self) -> list[dict[str, object]]:
        """One record per article live on this day: ``path``, ``title``, ``body``, ``published``
        (ISO 8601) and ``updated`` (the demo day of its last change, or None)."""
        return [{"path": p.path, "title": p.title or "", "body": p.text or "", "published": p.published,
                 "updated": self.updated.get(p.path)} for p in self.articles()]

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
        page = self.pages.get(path) or self.extras[path]
        if base_url and page.kind in ("robots", "sitemap", "feed"):
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

