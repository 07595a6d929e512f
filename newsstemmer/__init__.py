"""newsstemmer: learn news sites' layouts while crawling and extract clean articles.

The core (this package minus ``newsstemmer.scrapy``) imports nothing from Scrapy::

    from newsstemmer import Page, learn, extract
    site = learn([Page(html, url=url) for url, html in pages])
    article = site.extract(html, url=url)
"""

from .blocks import BlockOptions, HTMLParseError, LayoutBlock, PageBlocks, page_blocks
from .extraction import Article, ExtractOptions, extract_with_patterns
from .learning import LearnOptions, learn, site_of
from .page import Page
from .patterns import LayoutPattern, LayoutSection, PatternFileError, SitePatterns

__version__ = "0.1.0"


def extract(
    html: str,
    patterns: SitePatterns | None = None,
    url: str | None = None,
    options: ExtractOptions | None = None,
) -> Article:
    """Extract one page: with ``patterns`` if they match, else ``matched=False``."""
    page = Page(html, url=url)
    if patterns is None:
        return Article(url, "", "", matched=False)
    return extract_with_patterns(page, patterns, options)


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
    "extract_with_patterns",
    "learn",
    "page_blocks",
    "site_of",
]
