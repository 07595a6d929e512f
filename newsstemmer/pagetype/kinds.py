"""The kind of a page that is not an article, told from its features by plain rules
(the model decides article or not; these only name what else the page is)."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from ..metadata import PageFacts

__all__ = ["ARTICLE", "NON_ARTICLE_KINDS", "non_article_kind"]

ARTICLE = "article"
#: The kinds of non-article pages: home, section, tag, author, archive, search and
#: pagination pages (``listing``), video, gallery and podcast pages (``media``),
#: about, contact, legal and subscription pages (``service``), discussion threads
#: (``forum``), shop pages (``product``), manuals and references (``documentation``),
#: and not-found or near-empty pages (``error``).
NON_ARTICLE_KINDS = ("listing", "media", "service", "forum", "product", "documentation", "error")
_ERROR_TITLE = re.compile(r"\b(?:404|not found|page not found|error|access denied|forbidden)\b", re.I)


def non_article_kind(x: dict[str, float], url: str | None, facts: PageFacts) -> str:
    """The kind (one of :data:`NON_ARTICLE_KINDS`) of a page typed non-article, from its
    features ``x`` (:func:`~newsstemmer.pagetype.features.page_type_features`)."""
    if x["text_log"] < 5.3 or _ERROR_TITLE.search(facts.title or "") and x["text_log"] < 7.5:
        return "error"  # fewer than ~200 characters of text, or a short page titled as an error
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
