"""The kind of a page that is not an article, told from its features: a near-empty or
error page and a media page by plain rules, the others (listing, service, forum,
product, documentation) by a learned model (``models/pagekind.json``, trained with the
page-type model by ``training/train_pagetype.py``); the article-or-not model decides
whether a page is an article, these only name what else it is.  :func:`rule_kind`, the
rules alone, is kept for comparison (``benchmarks/pagetype.py``)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from ..metadata import PageFacts

if TYPE_CHECKING:
    from ..trees import TreeModel

__all__ = ["ARTICLE", "LEARNED_KINDS", "NON_ARTICLE_KINDS", "SERVICE_PAGES", "declared_media", "is_service_address",
           "learned_kind", "non_article_kind", "rule_kind"]

ARTICLE = "article"
#: The kinds of non-article pages: home, section, tag, author, archive, search and
#: pagination pages (``listing``), video, gallery and podcast pages (``media``),
#: about, contact, legal and subscription pages (``service``), discussion threads
#: (``forum``), shop pages (``product``), manuals and references (``documentation``),
#: not-found or near-empty pages (``error``), and live blogs (``live``: a rolling page of
#: short timestamped updates, changed all day; declared ``LiveBlogPosting``).
NON_ARTICLE_KINDS = ("listing", "media", "service", "forum", "product", "documentation", "error", "live")
#: The kinds the kind model tells apart, in its classes' order (the pages of the
#: development data labelled so: a shop's category page, labelled ``collection``, is a
#: ``product`` page, a shop page).
LEARNED_KINDS = ("listing", "service", "forum", "product", "documentation")
#: The last path segments of a site's service pages: such a page that declares no
#: article (``og:type`` article, a JSON-LD article) is one, whatever its text's shape.
SERVICE_PAGES = frozenset(
    "about about-us aboutus contact contact-us contactus terms terms-of-service terms-of-use terms-and-conditions "
    "privacy privacy-policy cookies cookie-policy imprint impressum legal advertise advertising subscribe "
    "subscription newsletter newsletters corrections accessibility careers jobs login signin sign-in register "
    "signup sign-up sitemap faq faqs help disclaimer".split())
_ERROR_TITLE = re.compile(r"\b(?:404|not found|page not found|error|access denied|forbidden)\b", re.I)


def is_service_address(url: str | None) -> bool:
    """Whether ``url``'s last path segment (extension aside) names a service page (:data:`SERVICE_PAGES`)."""
    segs = [s for s in urlsplit(url or "").path.lower().split("/") if s]
    return bool(segs) and _PAGE_EXTENSION.sub("", segs[-1]) in SERVICE_PAGES


_PAGE_EXTENSION = re.compile(r"\.(?:html?|php|aspx?)$")


def declared_media(x: dict[str, float]) -> bool:
    """Whether a page declares itself a video, gallery or podcast (``og:type`` video, a
    JSON-LD ``VideoObject``, ``ImageGallery``, ...) and holds no paragraph of article
    length (150 characters): a player or a gallery with a caption, not an article.  (On the
    dev sets, the article pages that declare a video all hold such paragraphs.)"""
    return bool((x["og_video"] or x["ld_media"]) and x["long_paras"] == 0)


def shared_kind_model() -> TreeModel:
    """The shipped kind model (loaded once per process)."""
    from ..shipped import load_model
    from .features import FEATURES

    return load_model("pagekind", FEATURES)


def learned_kind(row: Any, model: TreeModel | None = None) -> str:
    """The likeliest of :data:`LEARNED_KINDS` for a page's feature ``row`` (a numpy
    array of one row of :data:`~newsstemmer.pagetype.features.FEATURES`)."""
    scores = (model or shared_kind_model()).raw_by_class(row, len(LEARNED_KINDS))[0]
    return LEARNED_KINDS[int(scores.argmax())]


def non_article_kind(x: dict[str, float], url: str | None, facts: PageFacts, row: Any = None) -> str:
    """The kind (one of :data:`NON_ARTICLE_KINDS`) of a page typed non-article, from its
    features ``x`` (:func:`~newsstemmer.pagetype.features.page_type_features`; ``row``:
    the same as a one-row numpy array, made here if not given): ``error`` and ``media``
    by rule, the others by the kind model (site-grouped CV on wcxb-dev's non-articles:
    0.83 of kinds right, where :func:`rule_kind` names 0.50)."""
    if _is_error(x, facts):
        return "error"
    if x["ld_media"] or x["og_video"] or x["url_media"] == 1 and x["url_listing"] != 1:
        return "media"  # (a /photos/page/2/ is a listing of galleries)
    if row is None:
        import numpy as np

        from .features import FEATURES

        row = np.array([[x[n] for n in FEATURES]], dtype=float)
    return learned_kind(row)


def _is_error(x: dict[str, float], facts: PageFacts) -> bool:
    """Fewer than ~200 characters of text, or a short page titled as an error."""
    return x["text_log"] < 5.3 or bool(_ERROR_TITLE.search(facts.title or "")) and x["text_log"] < 7.5


def rule_kind(x: dict[str, float], url: str | None, facts: PageFacts) -> str:
    """The kind of a non-article by plain rules alone (the kinds before the kind model,
    kept to compare with it)."""
    if _is_error(x, facts):
        return "error"
    if x["url_root"] or x["url_listing"] or x["url_page_query"] or x["ld_listing"]:
        return "listing"
    if x["url_service"] or x["ld_service"]:
        return "service"
    if x["url_media"] or x["ld_media"] or x["og_video"]:
        return "media"
    if x["ld_forum"] or x["url_forum"] or x["role_forum"] >= 3:
        return "forum"
    if x["ld_product"] or x["og_product"] or x["url_product"] or x["prices"] >= 5:
        return "product"
    if x["url_docs"] or x["ld_docs"] or x["pres"] >= 5:
        return "documentation"
    if not urlsplit(url or "").path.strip("/"):
        return "listing"
    return "listing" if x["headline_links"] >= 8 or x["linked_heads"] >= 4 else "service"
