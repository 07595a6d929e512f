"""newsstemmer: learn news sites' layouts while crawling and extract clean articles.

The core (this package minus ``newsstemmer.crawl``) imports nothing from Scrapy::

    from newsstemmer import Page, learn, extract
    site = learn([Page(html, url=url) for url, html in pages])
    article = site.extract(html, url=url)

The public names below are imported on first use (PEP 562), so that ``import
newsstemmer`` (and ``newsstemmer --version``) costs nothing; ``from newsstemmer import
learn`` imports what ``learn`` needs and no more.  Every exception newsstemmer raises
derives from :class:`NewsstemmerError`.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

#: Public name -> the module (relative to this package) that defines it.
_HOMES: dict[str, str] = {
    # pages and results
    "Page": ".page",
    "Article": ".article",
    # the article as typed blocks (issue #25)
    "Block": ".blocks",
    "BODY_KINDS": ".blocks",
    "OPTIONAL_KINDS": ".blocks",
    "in_convention": ".blocks",
    # learning and extraction (the combinations of methods)
    "learn": ".combine.learn",
    "LearnOptions": ".combine.learn",
    "extract": ".combine.extract",
    "extract_with_patterns": ".combine.extract",
    "extract_with_rules": ".combine.extract",
    "ExtractOptions": ".combine.extract",
    "learn_site_rules": ".combine.site_rules",
    # what kind of page a page is
    "page_type": ".pagetype",
    "PageType": ".pagetype",
    # single-page methods
    "extract_single": ".single",
    "SINGLE_PAGE_METHODS": ".single",
    "pagerank_extract": ".single.pagerank",
    "PageRankOptions": ".single.pagerank",
    "PageRankResult": ".single.pagerank",
    # the layout engine's objects
    "SitePatterns": ".layout.patterns",
    "LayoutPattern": ".layout.patterns",
    "LayoutSection": ".layout.patterns",
    "BlockOptions": ".layout.blocks",
    "LayoutBlock": ".layout.blocks",
    "PageBlocks": ".layout.blocks",
    "page_blocks": ".layout.blocks",
    "site_of": ".layout.learning",
    # errors
    "NewsstemmerError": ".errors",
    "UnknownMethodError": ".errors",
    "HTMLParseError": ".dom.parse",
    "PatternFileError": ".layout.patterns",
    "ModelFileError": ".trees",
}

__all__ = sorted(_HOMES)

if TYPE_CHECKING:  # what type checkers and IDEs see; at run time __getattr__ imports on demand
    from .article import Article
    from .blocks import BODY_KINDS, OPTIONAL_KINDS, Block, in_convention
    from .combine.extract import ExtractOptions, extract, extract_with_patterns, extract_with_rules
    from .combine.learn import LearnOptions, learn
    from .combine.site_rules import learn_site_rules
    from .dom.parse import HTMLParseError
    from .errors import NewsstemmerError, UnknownMethodError
    from .layout.blocks import BlockOptions, LayoutBlock, PageBlocks, page_blocks
    from .layout.learning import site_of
    from .layout.patterns import LayoutPattern, LayoutSection, PatternFileError, SitePatterns
    from .page import Page
    from .pagetype import PageType, page_type
    from .single import SINGLE_PAGE_METHODS, extract_single
    from .single.pagerank import PageRankOptions, PageRankResult, pagerank_extract
    from .trees import ModelFileError


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(home, __name__), name)
    globals()[name] = value  # found once: later lookups do not come here
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
