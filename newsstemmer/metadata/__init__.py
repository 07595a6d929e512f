"""An article's metadata from the page alone: title, authors, dates, language, section,
tags, description, image, canonical URL and site name, each with where it came from.

Sources, most trusted first: JSON-LD (``json-ld``), microdata (``microdata``),
OpenGraph / Twitter ``<meta property>`` (``opengraph``), other ``<meta>`` tags (``meta``),
the page's markup (``html``: ``<h1>``, ``<time>``, ``<link rel>``, ``lang``), the URL
(``url``) and the visible text (``text``: a byline or date line).  The crawl adds the
layout's own evidence (``layout``) where a site's template shows it.

    from newsstemmer.metadata import article_metadata
    meta = article_metadata(page.tree, page.url)
    meta.authors, meta.published, meta.meta_source["published"]
"""

from __future__ import annotations

from .fields import ArticleMetadata, article_metadata, structured_people_and_date
from .facts import PageFacts, page_facts

__all__ = ["ArticleMetadata", "PageFacts", "article_metadata", "page_facts", "structured_people_and_date"]
