"""The method chain: learned layouts first, then a single-page method for the pages
no layout covers.

This is the one place that knows about more than one extraction method: the
layout engine (:mod:`newsstemmer.layout`) and the single-page methods
(:mod:`newsstemmer.single`) never import each other.  Every method reads the
page's one parsed tree (:attr:`newsstemmer.page.Page.tree`).
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from lxml import etree

from .article import Article
from .dom.parse import HTMLParseError
from .dom.walk import element_text
from .layout.blocks import BlockOptions, blocks_of
from .layout.matching import ExtractOptions, extract_with_layouts
from .layout.patterns import SitePatterns
from .page import Page

if TYPE_CHECKING:
    from .rules import RuleSet
    from .single.crf import CRFExtractor

__all__ = [
    "DEFAULT_SINGLE_PAGE_METHOD",
    "SINGLE_PAGE_METHODS",
    "ExtractOptions",
    "extract",
    "extract_single",
    "extract_with_patterns",
    "extract_with_rules",
    "learn_site_rules",
    "load_single",
]

#: Single-page extractors, best first (``benchmarks/cv.py`` measures them under
#: site-grouped cross-validation); ``auto`` falls back to the first.
SINGLE_PAGE_METHODS = ("region", "pagerank", "crf", "decision")
#: The single-page method used when none is named.
DEFAULT_SINGLE_PAGE_METHOD = SINGLE_PAGE_METHODS[0]

_CRF = threading.local()  # crfsuite taggers are not thread-safe: one extractor per thread


def shared_crf() -> "CRFExtractor":
    """This thread's CRF extractor with the shipped model (loaded on first use)."""
    extractor = getattr(_CRF, "extractor", None)
    if extractor is None:
        from .single.crf import CRFExtractor  # crfsuite and a model: only when asked for

        extractor = _CRF.extractor = CRFExtractor()
    return extractor


def load_single(method: str = DEFAULT_SINGLE_PAGE_METHOD) -> None:
    """Import a single-page method and load its shared model now rather than at its first
    page (a crawl does it at start: a tenth of a second of imports, numpy and the models,
    would otherwise stall its downloads in the middle of the run).  Raises what the first
    page would (an unknown method, an unreadable model)."""
    if method == "region":
        from .decision.regional import shared_region

        shared_region()
    elif method == "pagerank":
        from .single import pagerank  # noqa: F401
    elif method == "crf":
        shared_crf()  # (this thread's; crfsuite taggers are per thread)
    elif method == "decision":
        from .decision.extractor import shared_decision

        shared_decision()
    else:
        raise ValueError(f"unknown single-page method {method!r} (expected one of {', '.join(SINGLE_PAGE_METHODS)})")


def extract_single(page: Page, method: str = DEFAULT_SINGLE_PAGE_METHOD, crf: "CRFExtractor | None" = None) -> Article:
    """Extract a page on its own, with no learned layout (SPEC §4–§5).

    ``region`` (the default): DOM PageRank with a learned choice of the article's
    element and of what to leave out of it (:mod:`newsstemmer.decision.regional`);
    ``pagerank``: DOM PageRank + DensitySum alone; ``crf``: CRF block labelling with
    hierarchical relabelling, by ``crf`` or else the shipped model; ``decision``: the
    learned per-block decision (:mod:`newsstemmer.decision`).  ``matched``
    stays False (no pattern applied); ``method`` names the extractor.
    """
    if method == "pagerank":
        from .single.pagerank import pagerank_extract

        result = pagerank_extract(page.tree, page.url)
        title, body = result.title, result.body
    elif method == "region":
        from .decision.regional import shared_region  # numpy and the models: only when asked for

        title, body = shared_region().extract(page.tree, page.url)
    elif method == "crf":
        title, body = (crf or shared_crf()).extract(page.tree)
    elif method == "decision":
        from .decision.extractor import shared_decision  # numpy and the model: only when asked for

        title, body = shared_decision().extract(page)
    else:
        raise ValueError(f"unknown single-page method {method!r} (expected one of {', '.join(SINGLE_PAGE_METHODS)})")
    return Article(page.url, title, body, matched=False, method=method, source=page.source)


def extract_with_patterns(
    page: Page,
    site: SitePatterns,
    options: ExtractOptions | None = None,
    block_options: BlockOptions | None = None,
) -> Article:
    """Extract title and body with the site's layouts, else with ``options.fallback``.

    ``matched`` is False if no layout applies; the page then gets the single-page
    method named by ``options.fallback``, or an empty body if that is None.  With
    ``options.page_choice`` (the default) a matched article's body may be replaced by
    the region extractor's where the learned per-page choice judges it better
    (:mod:`newsstemmer.decision.pagechoice`; ``method`` then ends in ``+region``).
    """
    opts = options or ExtractOptions()
    article = extract_with_layouts(page, site, opts, block_options)
    if not article.matched:
        return extract_single(page, opts.fallback) if opts.fallback else article
    if not opts.page_choice or not article.is_article:
        return article
    from .decision.choicegate import CHOICE_KEY, needs_region  # no numpy: a cheap test first

    chosen = site.extras.get(CHOICE_KEY)
    # (pattern files learned without the section decision, or before the choice was
    # measured at learning, carry none: their articles are returned as the layouts give them)
    if chosen and chosen.get(article.pattern or ""):
        pw = blocks_of(page, block_options or site.block_options()).total_weight
        if needs_region(article, pw, chosen):
            from .decision.pagechoice import choose  # numpy and the models: only when needed

            article = choose(page, site, article, pw)
    return article


def extract(
    html: str,
    patterns: SitePatterns | None = None,
    url: str | None = None,
    options: ExtractOptions | None = None,
) -> Article:
    """Extract one page: with the site's ``patterns`` if one matches, else on its own
    (the default single-page method; ``matched=False``, ``method="region"``).  Pass
    ``ExtractOptions(fallback="crf")`` for the CRF instead, or
    ``ExtractOptions(fallback=None)`` to get an empty body for unmatched pages."""
    page = Page(html, url=url)
    opts = options or ExtractOptions(fallback=DEFAULT_SINGLE_PAGE_METHOD)
    if patterns is None:
        return extract_single(page, opts.fallback) if opts.fallback else Article(url, "", "", matched=False)
    return extract_with_patterns(page, patterns, opts)


def learn_site_rules(
    pages: "list[Page]",
    patterns: SitePatterns | None = None,
    options: object = None,
    evidence: str | None = DEFAULT_SINGLE_PAGE_METHOD,
) -> "RuleSet":
    """Learn a site's CSS rules from a few of its pages (:mod:`newsstemmer.rules`), with
    a single-page extractor's decisions as evidence of the article.

    ``evidence`` names the single-page method run on each page (:func:`extract_single`;
    default: the learned ``region`` extractor): the blocks it keeps are the article's,
    and ``options`` (a :class:`~newsstemmer.rules.RuleOptions`, its ``content``) says
    how that combines with the paper's unique-block test.  ``None``: the unique-block
    test alone (SPEC §6 as the paper has it).  ``patterns`` are the site's layouts if
    known.  Raises ``ValueError`` for fewer than 2 readable pages.
    """
    from .rules import learn_ruleset

    bodies: list[str | None] | None = None
    if evidence is not None:
        bodies = []
        for page in pages:
            try:
                bodies.append(extract_single(page, evidence).body)
            except HTMLParseError:
                bodies.append(None)
    return learn_ruleset(pages, patterns, options, bodies)  # type: ignore[arg-type]


def extract_with_rules(page: Page, site: SitePatterns | RuleSet, options: object = None) -> Article:
    """Extract one page with the site's rules alone (``newsstemmer extract --method rules``).

    Same call shape as :func:`extract_with_patterns` (``options``
    is accepted and ignored).  ``method`` is ``"rules"``; ``matched`` is whether any rule
    found text.  When no title rule matches, the title is the page's own (``og:title``,
    first ``h1``, ``<title>``).  Raises :class:`~newsstemmer.rules.RulesError` if the site
    has no valid rules (``newsstemmer.rules.rules_of`` checks them) and
    :class:`~newsstemmer.dom.parse.HTMLParseError` for an unreadable page.
    """
    from .rules import apply_rules, parse_page, rules_of  # parsel and cssselect: only for this method

    rules = rules_of(site)
    # Rules select what a CSS engine finds in parsel's (Scrapy's) parse of the page, the
    # tree they were learned on (see newsstemmer.rules.blocks), not the core's parse.
    root = parse_page(page.html)
    title, body = apply_rules(root, rules)
    matched = bool(title or body)
    if not title:
        title = _own_title(root)
    return Article(
        page.url,
        title,
        body,
        matched=matched,
        method="rules" if matched else None,
        pattern=None,
        score=None,
        is_article=bool(body),
        source=page.source,
    )


def _own_title(root: etree._Element) -> str:
    """The page's own headline: og:title, else the first h1, else <title>."""
    for query in ('//meta[@property="og:title"]/@content', "//h1", "//title"):
        for found in root.xpath(query):
            text = " ".join(found.split()) if isinstance(found, str) else element_text(found)
            if text:
                return text
    return ""
