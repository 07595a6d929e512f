"""newsstemmer: learn news sites' layouts while crawling and extract clean articles.

The core (this package minus ``newsstemmer.crawl``) imports nothing from Scrapy::

    from newsstemmer import Page, learn, extract
    site = learn([Page(html, url=url) for url, html in pages])
    article = site.extract(html, url=url)
"""

from .layout.blocks import BlockOptions, LayoutBlock, PageBlocks, page_blocks
from .dom.parse import HTMLParseError
from .article import Article
from .layout.matching import ExtractOptions
from .chain import extract, extract_single, extract_with_patterns
from .layout.learning import LearnOptions, learn, site_of
from .page import Page
from .single.pagerank import PageRankOptions, PageRankResult, pagerank_extract
from .layout.patterns import LayoutPattern, LayoutSection, PatternFileError, SitePatterns

__version__ = "0.1.0"


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
