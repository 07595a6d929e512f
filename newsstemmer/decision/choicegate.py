"""When the per-page choice (:mod:`newsstemmer.decision.pagechoice`) runs: a cheap test
with no model and no numpy, made on every page a layout matches."""

from __future__ import annotations

from ..article import Article
from ..dom.text import weight

__all__ = ["AGREEMENT_KEY", "DISAGREEING", "SHORT_BODY", "layout_text", "needs_region"]

#: Key of ``SitePatterns.extras`` holding each layout's agreement with region.
AGREEMENT_KEY = "region_agreement"
#: A layout whose bodies agree with region's less than this (mean shingle F1 over its
#: sampled pages) has region checked on every page it extracts.
DISAGREEING = 0.9
#: A layout text weighing less than this share of the page's text has region checked too.
SHORT_BODY = 0.3


def layout_text(article: Article) -> str:
    """What a layout's article gives to read: its title and body (a layout's title
    section may hold more than the headline)."""
    return f"{article.title}\n{article.body}" if article.title else article.body


def needs_region(article: Article, agreements: dict[str, float], page_weight: int) -> bool:
    """Whether the region extractor could change a matched ``article`` (cheap: no model):
    its layout disagreed with region at learning time (``agreements``: the site's
    ``extras["region_agreement"]``), or its text is short against the page's."""
    if agreements.get(article.pattern or "", 1.0) < DISAGREEING:
        return True
    return weight(layout_text(article)) < SHORT_BODY * page_weight
