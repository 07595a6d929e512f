"""When the per-page choice (:mod:`newsstemmer.combine.pagechoice`) runs: a cheap test
with no model and no numpy, made on every page a layout matches."""

from __future__ import annotations

from ..article import Article
from ..dom.text import weight

__all__ = ["AGREEMENT_KEY", "CHOICE_KEY", "SHORT_BODY", "TINY_BODY", "layout_text", "needs_region", "runs_region"]

#: Key of ``SitePatterns.extras`` holding each layout's agreement with region (a feature
#: of the choice; a pattern file without it gets no choice: it was learned without the
#: section decision).
AGREEMENT_KEY = "region_agreement"
#: Key of ``SitePatterns.extras`` holding, per layout, the share of its sampled pages at
#: learning time where the choice took region's body (no key: no choice).
CHOICE_KEY = "region_choice"
#: A layout text weighing less than this share of the page's text has region checked
#: on the layouts where the choice took region's body at learning time ...
SHORT_BODY = 0.3
#: ... and on every layout when it weighs less than this share (0: never).  Meant for a
#: layout that returns a small part of the article on pages unlike its sampled ones; off:
#: at 0.1 it changed no CV figure (the model, not the gate, keeps the layout's body on
#: those pages) and ran region on 28 more of dragnet's 466 matched pages (session 15,
#: benchmarks/README.md, "Per-page choice").
TINY_BODY = 0.0


def layout_text(article: Article) -> str:
    """What a layout's article gives to read: its title and body (a layout's title
    section may hold more than the headline)."""
    return f"{article.title}\n{article.body}" if article.title else article.body


def runs_region(layout_share: float, flagged: bool, tiny: float = TINY_BODY) -> bool:
    """The gate's rule from a layout text's share of the page's text and whether the
    choice took region's body on a sampled page of its layout at learning time (``tiny``:
    the share under which region runs on any layout)."""
    return layout_share < (SHORT_BODY if flagged else tiny)


def needs_region(article: Article, page_weight: int, chosen: dict[str, float]) -> bool:
    """Whether the region extractor could change a matched ``article`` (cheap: no model):
    its text is short against the page's (``page_weight``: the page's blocks' total
    weight) and at learning time the choice took region's body on some sampled page of
    its layout (``chosen``: the site's ``extras["region_choice"]``), or its text is a
    tiny share of the page's whatever its layout did (:data:`TINY_BODY`, off:
    :func:`runs_region`).  Region
    costs about 10 ms a page, several times the layout's extraction: see
    benchmarks/README.md ("Per-page choice") for the share of matched pages it runs on."""
    if not page_weight:
        return False
    share = weight(layout_text(article)) / page_weight
    return runs_region(share, bool(chosen.get(article.pattern or "", 0.0)))
