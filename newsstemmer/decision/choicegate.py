"""When the per-page choice (:mod:`newsstemmer.decision.pagechoice`) runs: a cheap test
with no model and no numpy, made on every page a layout matches."""

from __future__ import annotations

from ..article import Article
from ..dom.text import weight

__all__ = ["AGREEMENT_KEY", "SHORT_BODY", "layout_text", "needs_region"]

#: Key of ``SitePatterns.extras`` holding each layout's agreement with region (a feature
#: of the choice; a pattern file without it gets no choice: it was learned without the
#: section decision).
AGREEMENT_KEY = "region_agreement"
#: A layout text weighing less than this share of the page's text has region checked.
SHORT_BODY = 0.3


def layout_text(article: Article) -> str:
    """What a layout's article gives to read: its title and body (a layout's title
    section may hold more than the headline)."""
    return f"{article.title}\n{article.body}" if article.title else article.body


def needs_region(article: Article, page_weight: int) -> bool:
    """Whether the region extractor could change a matched ``article`` (cheap: no model):
    its text is short against the page's (``page_weight``: the page's blocks' total
    weight).  (Running region also on every page of a layout that disagreed with region
    at learning time, mean agreement under 0.9, ran it on 31% of the matched dataset pages
    instead of 27%, on 8% of big9-05's instead of 3%, and changed no CV figure.)"""
    return weight(layout_text(article)) < SHORT_BODY * page_weight
