"""What the crawl passes around: fetched pages (spider → middleware → buffer) and articles (→ feeds).

Both are dataclasses (itemadapter exports them); the field order of
:class:`ArticleItem` is the key order of each JSONL line.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass, field
from typing import Any, Sequence

from lxml import etree

from ..page import Page

__all__ = ["Article", "ArticleItem", "FetchedPage", "NonArticleItem", "utc_now"]


def utc_now() -> str:
    """The current time as an ISO 8601 UTC timestamp (seconds)."""
    return _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat()


@dataclass
class FetchedPage:
    """A fetched HTML page on its way to extraction or to the buffer.

    ``html`` was decoded once, by Scrapy (``response.text``: BOM, header, meta,
    then fallbacks).  ``anchor_texts`` are the texts of the same-site links to
    ``url`` seen so far (linkinfo), the best evidence of its headline.
    With ``NEWSSTEMMER_ENABLED = False`` these items go to the feeds as they are.

    ``tree`` is the page's parse (:func:`~newsstemmer.dom.parse.parse_html`) when
    the spider made one for its links, so that extraction does not parse the page
    again.  It is not a field: never exported, never buffered.
    """

    url: str
    site: str
    html: str = field(repr=False)
    anchor_texts: list[str] = field(default_factory=list)
    fetched_at: str = field(default_factory=utc_now)

    def __post_init__(self) -> None:
        self.tree: etree._Element | None = None

    def core_page(self) -> Page:
        """The page as the core reads it, with the spider's tree when there is one."""
        page = Page(self.html, url=self.url, anchor_texts=list(self.anchor_texts))
        return page if self.tree is None else page.with_tree(self.tree)

    @classmethod
    def from_response(cls, response: Any, anchor_texts: Sequence[str] = ()) -> "FetchedPage":
        """The page of a Scrapy ``TextResponse``: what a spider of one's own yields for newsstemmer."""
        from ..layout.learning import site_of

        return cls(response.url, site_of(response.url), response.text, list(anchor_texts))

    def __repr__(self) -> str:  # short: Scrapy logs dropped items at DEBUG
        return f"FetchedPage(url={self.url!r}, site={self.site!r}, {len(self.html)} chars)"


#: The fields an :class:`ArticleItem` has only when ``NEWSSTEMMER_BODY_FORMATS`` asks for them.
BODY_FORMAT_FIELDS = ("body_markdown", "body_html", "blocks", "captions", "images")


def _absent() -> None:
    return None


@dataclass
class ArticleItem:
    """One page of the crawl as it reaches the feeds.

    ``method`` is ``pattern`` (a learned layout applied), ``pattern-loose`` (the
    nearest article layout applied to a page whose layout shifted a little) or
    null (no layout applied; ``reason`` says why and ``body`` is empty).
    ``score`` is the share of the page's text the layout covers.  ``detail`` says what
    changed the method's plain path (``loose-partial``: the nearest layout left out a
    fifth or more of the body-like text, the article may be longer than ``body``; the
    single-page method's own choices), else null.

    ``first_seen`` is when a crawl first emitted the article; ``content_hash`` a
    digest of the body; ``version`` counts the versions emitted (``update`` is true
    from the second on: the article changed since it was last emitted).  See
    :mod:`newsstemmer.crawl.incremental`.

    Then the page's own metadata (:mod:`newsstemmer.metadata`, the fields of
    :class:`newsstemmer.Article`): ``published`` (its metadata, else a feed's or
    sitemap's date), ``modified``, ``authors``, ``language``, ``section``, ``tags``,
    ``description``, ``image``, ``canonical_url``, ``site_name`` and ``meta_source``
    (each filled field's source; ``canonical_url``, else the URL, is the key of
    incremental runs).  ``page_text`` (the page's visible text) is kept on the object,
    not exported.

    ``is_article`` and ``page_type`` (``article``) say what the page is
    (:mod:`newsstemmer.pagetype`): only articles reach the feed as this class; the
    other pages, counted, go out as :class:`NonArticleItem` with
    ``NEWSSTEMMER_INCLUDE_NON_ARTICLES``.

    The body in other formats comes only when ``NEWSSTEMMER_BODY_FORMATS`` asks
    (feeds stay small): ``body_markdown``, ``body_html``, ``blocks`` (the typed blocks),
    and with any of them ``captions`` and ``images`` (the pictures' captions and absolute
    URLs).  An item not given them has no such fields at all (not even null ones).
    """

    url: str
    site: str
    title: str
    body: str
    method: str | None = None
    pattern: str | None = None
    score: float | None = None
    fetched_at: str | None = None
    is_article: bool | None = None
    page_type: str | None = None
    reason: str | None = None
    detail: str | None = None
    anchor_count: int = 0
    first_seen: str | None = None
    content_hash: str | None = None
    version: int | None = None
    update: bool | None = None
    published: str | None = None
    modified: str | None = None
    authors: list[str] = field(default_factory=list)
    language: str | None = None
    section: str | None = None
    tags: list[str] = field(default_factory=list)
    description: str | None = None
    image: str | None = None
    canonical_url: str | None = None
    site_name: str | None = None
    meta_source: dict[str, str] = field(default_factory=dict)
    # (fields absent unless set: see the class docstring and __post_init__)
    body_markdown: str | None = field(default_factory=_absent, compare=False, repr=False)
    body_html: str | None = field(default_factory=_absent, compare=False, repr=False)
    blocks: list[dict[str, Any]] | None = field(default_factory=_absent, compare=False, repr=False)
    captions: list[str] | None = field(default_factory=_absent, compare=False, repr=False)
    images: list[str] | None = field(default_factory=_absent, compare=False, repr=False)

    def __post_init__(self) -> None:
        self.page_text: str = ""  # the page's visible text (to tell a changed article from a body cut anew)
        # A field given no value is removed from the object: Scrapy's exporters write the
        # fields an item has (a dataclass field made by a factory has no class default).
        for name in BODY_FORMAT_FIELDS:
            if getattr(self, name) is None:
                delattr(self, name)


@dataclass
class NonArticleItem:
    """A page the crawl typed as not an article (``NEWSSTEMMER_INCLUDE_NON_ARTICLES``):
    its own class, so that a feed's ``item_classes`` can route it apart from the articles.

    ``page_type`` is its kind (``listing``, ``media``, ``service``, ``forum``,
    ``product``, ``documentation``, ``error``: :data:`newsstemmer.pagetype.KINDS`);
    ``page_score`` the page-type model's probability that it is an article;
    ``method`` and ``pattern`` the layout that matched it (null if none did), ``reason``
    why it is not emitted as an article.
    """

    url: str
    site: str
    page_type: str
    title: str
    body: str = ""
    method: str | None = None
    pattern: str | None = None
    page_score: float | None = None
    is_article: bool = False
    reason: str | None = None
    fetched_at: str | None = None
    anchor_count: int = 0
    canonical_url: str | None = None

    def __post_init__(self) -> None:
        # a kind the page declares itself (newsstemmer.pagetype.declared_kind): a leaf, not
        # fetched again while checked recently; not exported
        self.leaf: bool = False

    @classmethod
    def of(cls, item: ArticleItem, page_score: float | None = None) -> "NonArticleItem":
        """The non-article item of a page first extracted as ``item``."""
        return cls(item.url, item.site, item.page_type or "listing", item.title, item.body, item.method, item.pattern,
                   page_score, False, item.reason, item.fetched_at, item.anchor_count, item.canonical_url)


#: The name this item had first (README, users' pipelines): the same class.
Article = ArticleItem
