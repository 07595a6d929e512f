"""The page type of a learned layout's pages, decided once at learning by their vote.

Pages a site builds from one template are of one kind: its article pages, or its tag
pages, or its section fronts.  So after the layouts are learned, the learning pages are
matched again and each page a layout matches fully is typed by the page-type model as
extraction would type it without the vote (:func:`newsstemmer.pagetype.page_type`, the
layout's article flag moving the threshold); the layout keeps the counts of
the kinds (``LayoutPattern.page_types``) and the median article score (``page_score``) in
the pattern file.  At extraction, a page a layout matches fully is given the layout's vote
where its pages all agree (:func:`newsstemmer.pagetype.layout_vote`) and the page declares
no kind of its own: its features are not computed and the model is not run, which was most
of the cost of typing a page.  A mixed layout, a loose match, a layout learned before the
vote (no ``page_types``) and a page no layout matches are typed page by page, as before.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from statistics import median

from ..article import Article
from ..layout.matching import LayoutExtractOptions, extract_with_layouts
from ..layout.patterns import LayoutPattern, SitePatterns
from ..page import Page
from ..pagetype import PageType, declared_kind, layout_vote, page_type, voted_type

__all__ = ["MAX_PAGES", "layout_page_type", "type_layouts"]

#: Pages per layout typed at learning (the first ones it matches, in page order).
MAX_PAGES = 60


def type_layouts(site: SitePatterns, pages: Iterable[Page]) -> None:
    """Give each of the site's layouts the page types of the ``pages`` (those it was
    learned from) it matches fully: ``page_types`` (kind -> pages) and ``page_score``
    (their median article score); layouts matching none keep None.  Each page is typed as
    extraction types it one by one, with the layout's article flag moving the threshold; a
    page that declares its own kind (:func:`~newsstemmer.pagetype.declared_kind`) is left
    out, as extraction gives it that kind whatever the vote."""
    typed: dict[str, list[PageType]] = {p.id: [] for p in site.patterns}
    opts = LayoutExtractOptions()
    for page in pages:
        try:  # (matched as extraction matches it: an article layout finding no main text does not cover it)
            article = extract_with_layouts(page, site, opts)
        except (ValueError, TypeError):
            continue
        if not _full_match(article):
            continue
        rows = typed.get(article.pattern or "")
        if rows is not None and len(rows) < MAX_PAGES and declared_kind(page) is None:
            rows.append(page_type(page, article.is_article))
    for p in site.patterns:
        rows = typed[p.id]
        if rows:
            p.page_types = dict(sorted(Counter(t.kind for t in rows).items()))
            p.page_score = round(median(t.score for t in rows), 4)


def layout_page_type(page: Page, article: Article, layout: LayoutPattern | None) -> PageType | None:
    """The type of ``page`` by the vote of ``layout``, the layout that matched it
    (``article``: what it extracted), or None where the page is to be typed alone: no
    layout, a loose match, no clear vote (:func:`~newsstemmer.pagetype.layout_vote`)."""
    if layout is None or not _full_match(article) or layout.page_score is None:
        return None
    vote = _vote_of(layout)
    return None if vote is None else voted_type(page, vote, layout.page_score)


def _vote_of(layout: LayoutPattern) -> str | None:
    """:func:`~newsstemmer.pagetype.layout_vote` of ``layout``, worked out once per layout
    (kept beside its fields, not in them: not saved; worked out again where its
    ``page_types`` or article flag were replaced)."""
    kept = layout.__dict__.get(_VOTE_KEY)
    if kept is not None and kept[0] is layout.page_types and kept[1] == layout.article:
        return kept[2]
    vote = layout_vote(layout.page_types, layout.article)
    layout.__dict__[_VOTE_KEY] = (layout.page_types, layout.article, vote)
    return vote


_VOTE_KEY = "_layout_vote"


def _full_match(article: Article) -> bool:
    """Whether a layout matched the page fully (not a loose match to the nearest layout)."""
    return article.matched and (article.method or "").split("+")[0] == "pattern"
