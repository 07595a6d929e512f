"""What kind of page a page is: an article, or one of the pages a news crawl meets that
are not (listings, service pages, media pages, forums, products, documentation, error
stubs, live blogs).

A learned model (``models/pagetype.json``, trained by ``training/train_pagetype.py``)
says how likely the page is an article from its URL, declared types and the shape of
its text and links, before and whatever a method extracts from it (:mod:`.features`);
where a site's learned layout has a say, its article flag moves the threshold
(:func:`decide`).  The kind of a non-article comes from the same evidence, by a second
learned model (``models/pagekind.json``) and two rules (:func:`.kinds.non_article_kind`).
Three things the page says of itself decide before the model: a declared live blog (``LiveBlogPosting``) is kind ``live``, not an
article (the feed holds articles, and a live blog's rolling updates would be sent again
on every crawl); a service address (``/about/``, ``/terms/``) and a declared video,
gallery or podcast without a paragraph of article length are ``service`` and ``media``
when the page declares no article (:func:`declared_kind`).

    from newsstemmer.pagetype import page_type
    pt = page_type(page)
    pt.kind, pt.is_article, pt.score
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..metadata import PageFacts, page_facts
from ..page import Page
from .features import FEATURES, declared_signs, declared_types, page_type_features
from .kinds import ARTICLE, NON_ARTICLE_KINDS, declared_media, is_service_address, non_article_kind

if TYPE_CHECKING:
    from ..trees import TreeModel

__all__ = ["ARTICLE", "FEATURES", "KINDS", "MIN_VOTE_PAGES", "NON_ARTICLE_KINDS", "THRESHOLD", "VOTE_SHARE", "PageType",
           "decide", "declared_kind", "facts_of", "layout_vote", "page_type", "page_type_features", "shared_model",
           "voted_type"]

#: Every kind a page may be given, ``article`` first.
KINDS = (ARTICLE, *NON_ARTICLE_KINDS)
#: The model's score at or above which a page no layout speaks for is an article.
THRESHOLD = 0.5
#: Where a learned layout says "article", the page is one unless the model is this sure
#: it is not (a short post under long comments stays an article) ...
LAYOUT_ARTICLE_THRESHOLD = 0.2
#: ... and where the layout says "not articles", the page is one only if the model is this sure.
LAYOUT_OTHER_THRESHOLD = 0.95
#: A learned layout types its pages by its vote (:func:`layout_vote`) where at least this
#: many of the pages it was learned from were typed, all alike.
MIN_VOTE_PAGES = 3
#: A "not articles" layout whose typed learning pages are all non-articles votes its most
#: common kind where at least this share of them have it (an index template typed listing
#: 28 times and media once): the vote then only names the kind of pages the feed leaves
#: out either way.  An article layout's pages must all agree (a page of it typed a
#: non-article would otherwise be sent as an article).
VOTE_SHARE = 0.9


@dataclass(frozen=True)
class PageType:
    """A page's type: ``kind`` is ``article`` or a non-article kind (:data:`KINDS`);
    ``score`` the model's probability that the page is an article."""

    kind: str
    score: float

    @property
    def is_article(self) -> bool:
        return self.kind == ARTICLE


def shared_model() -> TreeModel:
    """The shipped page-type model (loaded once per process)."""
    from ..shipped import load_model

    return load_model("pagetype", FEATURES)


def decide(score: float, layout_article: bool | None = None) -> bool:
    """Whether a page with the model's ``score`` is an article; ``layout_article`` is the
    flag of the learned layout that matched it (None: no layout did)."""
    if layout_article is None:
        return score >= THRESHOLD
    return score >= (LAYOUT_ARTICLE_THRESHOLD if layout_article else LAYOUT_OTHER_THRESHOLD)


def facts_of(page: Page) -> PageFacts:
    """The page's :func:`~newsstemmer.metadata.page_facts`, gathered once per page: its
    type and its metadata read the same ones."""
    return page.memo(_FACTS_KEY, lambda: page_facts(page.tree, page.html))


_FACTS_KEY = "page-facts"


def _evidence(page: Page, facts: PageFacts | None) -> tuple[PageFacts, dict[str, float]]:
    """The page's facts and features, computed once per :class:`~newsstemmer.page.Page`."""

    def compute() -> tuple[PageFacts, dict[str, float]]:
        found = facts if facts is not None else facts_of(page)
        return found, page_type_features(page.tree, page.url, found)

    return page.memo("pagetype.evidence", compute)


def declared_kind(page: Page, facts: PageFacts | None = None) -> str | None:
    """The kind the page gives itself, which no model overrules, or None: ``live`` (a
    declared ``LiveBlogPosting``), ``service`` (a service address such as ``/about/``) or
    ``media`` (a declared video, gallery or podcast without a paragraph of article
    length), the last two only where the page declares no article.  These kinds are sure
    enough for a crawl to treat the page as a leaf (not re-fetched while fresh).

    Read from the page's facts; its body is walked (:func:`_evidence`) only for a page
    that declares a video, gallery or podcast and no article (is there a long paragraph?)."""
    facts = facts if facts is not None else facts_of(page)
    if "liveblogposting" in declared_types(facts):
        return "live"  # a live blog: its text changes all day (not sent as an article)
    declares_article, declares_media = declared_signs(facts)
    if declares_article:
        return None
    if is_service_address(page.url):
        return "service"  # /about/, /terms/, ... that declare no article
    if declares_media and declared_media(_evidence(page, facts)[1]):
        return "media"  # a video, gallery or podcast page with no article text
    return None


def layout_vote(types: Mapping[str, int] | None, layout_article: bool) -> str | None:
    """The kind a learned layout gives every page it matches, or None where its pages are
    to be typed one by one.  ``types`` are the kinds its learning pages were typed alone
    (kind -> pages; ``LayoutPattern.page_types``), ``layout_article`` its article flag.

    An article layout votes ``article`` where :data:`MIN_VOTE_PAGES` or more pages were
    typed and all were articles.  A "not articles" layout votes its most common kind
    where that kind has :data:`MIN_VOTE_PAGES` or more pages and at least
    :data:`VOTE_SHARE` of them, and none was typed an article (a page of it that reads as
    an article keeps it typed page by page: a layout never withholds an article).  Any
    other layout (mixed, too few pages, an unknown kind) has no vote."""
    if not types:
        return None
    counts = {k: n for k, n in types.items() if n > 0}
    if not counts or any(k not in KINDS for k in counts):
        return None
    kind, n = max(counts.items(), key=lambda kv: kv[1])
    if n < MIN_VOTE_PAGES:
        return None
    if layout_article:
        return kind if kind == ARTICLE and len(counts) == 1 else None
    if ARTICLE in counts or n < VOTE_SHARE * sum(counts.values()):
        return None
    return kind


def voted_type(page: Page, vote: str, score: float, facts: PageFacts | None = None) -> PageType:
    """The type of a page a layout matched whose pages vote ``vote`` (:func:`layout_vote`;
    ``score``: the median of their article scores): the vote, unless the page declares a
    kind of its own (:func:`declared_kind`).  The page's features are not computed and
    the model is not run: a site's pages of one template share their kind."""
    declared = declared_kind(page, facts)
    return PageType(declared if declared is not None else vote, score)


def page_type(page: Page, layout_article: bool | None = None, facts: PageFacts | None = None) -> PageType:
    """The type of ``page`` (its one parse is read, never changed).

    ``layout_article`` is the article flag of the site's layout that matched the page
    (None if none did); ``facts`` the page's :func:`~newsstemmer.metadata.page_facts`
    if already gathered (else :func:`facts_of`).
    """
    import numpy as np

    facts, x = _evidence(page, facts)
    declared = declared_kind(page, facts)
    row = np.fromiter(map(x.__getitem__, FEATURES), float, len(FEATURES)).reshape(1, -1)
    score = float(shared_model().predict(row)[0])
    if declared is not None:
        return PageType(declared, score)
    if decide(score, layout_article):
        return PageType(ARTICLE, score)
    return PageType(non_article_kind(x, page.url, facts, row), score)
