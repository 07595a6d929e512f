"""The kind of a page that is not an article, told from its features by plain rules
(the model decides article or not; these only name what else the page is)."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from ..metadata import PageFacts

__all__ = ["ARTICLE", "NON_ARTICLE_KINDS", "SERVICE_PAGES", "declared_media", "is_service_address", "non_article_kind"]

ARTICLE = "article"
#: The kinds of non-article pages: home, section, tag, author, archive, search and
#: pagination pages (``listing``), video, gallery and podcast pages (``media``),
#: about, contact, legal and subscription pages (``service``), discussion threads
#: (``forum``), shop pages (``product``), manuals and references (``documentation``),
#: not-found or near-empty pages (``error``), and live blogs (``live``: a rolling page of
#: short timestamped updates, changed all day; declared ``LiveBlogPosting``).
NON_ARTICLE_KINDS = ("listing", "media", "service", "forum", "product", "documentation", "error", "live")
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
    return bool(segs) and re.sub(r"\.(?:html?|php|aspx?)$", "", segs[-1]) in SERVICE_PAGES


def declared_media(x: dict[str, float]) -> bool:
    """Whether a page declares itself a video, gallery or podcast (``og:type`` video, a
    JSON-LD ``VideoObject``, ``ImageGallery``, ...) and holds no paragraph of article
    length (150 characters): a player or a gallery with a caption, not an article.  (On the
    dev sets, the article pages that declare a video all hold such paragraphs.)"""
    return bool((x["og_video"] or x["ld_media"]) and x["long_paras"] == 0)


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
