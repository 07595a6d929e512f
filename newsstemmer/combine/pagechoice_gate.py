"""When the per-page choice (:mod:`newsstemmer.combine.pagechoice`) runs: a cheap test
with no model and no numpy, made on every page a layout matches."""

from __future__ import annotations

from ..article import Article
from ..dom.text import weight

__all__ = ["AGREEMENT_KEY", "CHOICE_KEY", "SHORT_BODY", "layout_text", "needs_region"]

#: Key of ``SitePatterns.extras`` holding each layout's agreement with region (a feature
#: of the choice; a pattern file without it gets no choice: it was learned without the
#: section decision).
AGREEMENT_KEY = "region_agreement"
#: Key of ``SitePatterns.extras`` holding, per layout, the share of its sampled pages at
#: learning time where the choice took region's body (no key: no choice).
CHOICE_KEY = "region_choice"
#: A layout text weighing less than this share of the page's text has region checked.
SHORT_BODY = 0.3


def layout_text(article: Article) -> str:
    """What a layout's article gives to read: its title and body (a layout's title
    section may hold more than the headline)."""
    return f"{article.title}\n{article.body}" if article.title else article.body


def needs_region(article: Article, page_weight: int, chosen: dict[str, float]) -> bool:
    """Whether the region extractor could change a matched ``article`` (cheap: no model):
    at learning time the choice took region's body on some sampled page of its layout
    (``chosen``: the site's ``extras["region_choice"]``), and its text is short against
    the page's (``page_weight``: the page's blocks' total weight).  Region costs about
    10 ms a page, several times the layout's extraction: on the datasets' matched pages
    this runs it on ~1% of them (the short-text test alone: 27%) for the same CV figures."""
    if not chosen.get(article.pattern or "", 0.0):
        return False
    return weight(layout_text(article)) < SHORT_BODY * page_weight
