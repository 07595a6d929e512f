"""newsstemmer: learn news sites' layouts while crawling and extract clean articles.

The core (this package minus ``newsstemmer.crawl``) imports nothing from Scrapy::

    from newsstemmer import Page, learn, extract
    site = learn([Page(html, url=url) for url, html in pages])
    article = site.extract(html, url=url)
"""

from .blocks import BlockOptions, HTMLParseError, LayoutBlock, PageBlocks, page_blocks
from .extraction import Article, ExtractOptions, extract_single, extract_with_patterns
from .learning import LearnOptions, learn, site_of
from .page import Page
from .pagerank import PageRankOptions, PageRankResult, pagerank_extract
from .patterns import LayoutPattern, LayoutSection, PatternFileError, SitePatterns

__version__ = "0.1.0"


def extract(
    html: str,
    patterns: SitePatterns | None = None,
    url: str | None = None,
    options: ExtractOptions | None = None,
) -> Article:
    """Extract one page: with the site's ``patterns`` if one matches, else on its own
    (DOM PageRank; ``matched=False``, ``method="pagerank"``).  Pass
    ``ExtractOptions(fallback="crf")`` for the CRF instead, or
    ``ExtractOptions(fallback=None)`` to get an empty body for unmatched pages."""
    page = Page(html, url=url)
    opts = options or ExtractOptions(fallback="pagerank")
    if patterns is None:
        return extract_single(page, opts.fallback) if opts.fallback else Article(url, "", "", matched=False)
    return extract_with_patterns(page, patterns, opts)


def _site_extract(self: SitePatterns, html: str, url: str | None = None, options: ExtractOptions | None = None) -> Article:
    """Extract a page of this site (see :func:`newsstemmer.extract`)."""
    return extract(html, self, url=url, options=options)


SitePatterns.extract = _site_extract  # type: ignore[attr-defined]

__all__ = [
    "Article",
    "BlockOptions",
    "ExtractOptions",
    "HTMLParseError",
    "LayoutBlock",
    "LayoutPattern",
    "LayoutSection",
    "LearnOptions",
    "Page",
    "PageBlocks",
    "PatternFileError",
    "SitePatterns",
    "extract",
    "extract_single",
    "extract_with_patterns",
    "pagerank_extract",
    "PageRankOptions",
    "PageRankResult",
    "learn",
    "page_blocks",
    "site_of",
]
