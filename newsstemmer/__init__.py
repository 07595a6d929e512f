"""newsstemmer: learn news sites' layouts while crawling and extract clean articles.

The core (this package minus ``newsstemmer.crawl``) imports nothing from Scrapy::

    from newsstemmer import Page, learn, extract
    site = learn([Page(html, url=url) for url, html in pages])
    article = site.extract(html, url=url)

The public names below are imported on first use (PEP 562), so that ``import
newsstemmer`` (and ``newsstemmer --version``) costs nothing; ``from newsstemmer import
learn`` imports what ``learn`` needs and no more.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

#: Public name -> the module (relative to this package) that defines it.
_HOMES: dict[str, str] = {
    "Article": ".article",
    "BlockOptions": ".layout.blocks",
    "ExtractOptions": ".combine.extract",
    "HTMLParseError": ".dom.parse",
    "LayoutBlock": ".layout.blocks",
    "LayoutPattern": ".layout.patterns",
    "LayoutSection": ".layout.patterns",
    "LearnOptions": ".combine.learn",
    "Page": ".page",
    "PageBlocks": ".layout.blocks",
    "PatternFileError": ".layout.patterns",
    "SitePatterns": ".layout.patterns",
    "extract": ".combine.extract",
    "extract_single": ".single",
    "extract_with_patterns": ".combine.extract",
    "pagerank_extract": ".single.pagerank",
    "PageRankOptions": ".single.pagerank",
    "PageRankResult": ".single.pagerank",
    "learn": ".combine.learn",  # the layout engine, with template pre-grouping when asked for
    "page_blocks": ".layout.blocks",
    "site_of": ".layout.learning",
}

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

if TYPE_CHECKING:  # what type checkers and IDEs see; at run time __getattr__ imports on demand
    from .article import Article
    from .combine.extract import extract, extract_with_patterns
    from .single import extract_single
    from .dom.parse import HTMLParseError
    from .layout.blocks import BlockOptions, LayoutBlock, PageBlocks, page_blocks
    from .combine.learn import learn
    from .combine.learn import LearnOptions
    from .layout.learning import site_of
    from .combine.extract import ExtractOptions
    from .layout.patterns import LayoutPattern, LayoutSection, PatternFileError, SitePatterns
    from .page import Page
    from .single.pagerank import PageRankOptions, PageRankResult, pagerank_extract

# Names whose objects lead to a SitePatterns: resolving one also gives the class its
# ``extract`` method (which needs the method chain, a layer above the layout engine).
_SITE_NAMES = frozenset({"SitePatterns", "LayoutPattern", "LayoutSection", "PatternFileError", "learn"})


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(home, __name__), name)
    if name in _SITE_NAMES:
        _give_site_patterns_extract()
    globals()[name] = value  # found once: later lookups do not come here
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


def _give_site_patterns_extract() -> None:
    """Add ``SitePatterns.extract(html, url=None, options=None)``: :func:`extract` for this site."""
    from .layout.patterns import SitePatterns

    if "extract" in SitePatterns.__dict__:
        return

    def extract(self: SitePatterns, html: str, url: str | None = None, options: Any = None) -> Any:
        """Extract a page of this site (see :func:`newsstemmer.extract`)."""
        from .combine.extract import extract as chain_extract

        return chain_extract(html, self, url=url, options=options)

    SitePatterns.extract = extract  # type: ignore[attr-defined]
