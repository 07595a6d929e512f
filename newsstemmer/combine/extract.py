"""The method chain: learned layouts first, then a single-page method for the pages
no layout covers.

This is the one place that knows about more than one extraction method: the
layout engine (:mod:`newsstemmer.layout`) and the single-page methods
(:mod:`newsstemmer.single`) never import each other.  Every method reads the
page's one parsed tree (:attr:`newsstemmer.page.Page.tree`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lxml import etree

from ..article import METADATA_FIELDS, Article, body_formats
from ..blocks import kept_kinds
from ..dom.walk import element_text
from ..layout.blocks import BlockOptions, blocks_of
from ..layout.matching import LayoutExtractOptions, extract_with_layouts
from ..layout.patterns import LayoutPattern, SitePatterns
from ..metadata import article_metadata
from ..page import Page
from .metasections import apply_layout_metadata

from ..single import DEFAULT_SINGLE_PAGE_METHOD, extract_single

if TYPE_CHECKING:
    from ..rules import RuleSet

__all__ = ["ExtractOptions", "add_metadata", "add_page_type", "extract", "extract_with_patterns", "extract_with_rules"]


@dataclass(frozen=True)
class ExtractOptions(LayoutExtractOptions):
    """Every setting of extraction: the layouts' thresholds
    (:class:`~newsstemmer.layout.matching.LayoutExtractOptions`) and the chain's own."""

    # Single-page method for pages no layout matches ("region", "pagerank"...), or None:
    # unmatched pages then come back with an empty body.
    fallback: str | None = None
    # After a layout matched, let the learned per-page choice (newsstemmer.combine.pagechoice)
    # check the region extractor's body where it could be the better one.  It acts only on
    # layouts for which the choice took region's body at learning time (the pattern file's
    # extras["region_choice"], written by `learn` with the section decision); others are
    # extracted as the layouts give them.
    page_choice: bool = True
    # Give each article the page's own metadata (authors, dates, language, section, tags,
    # description, image, canonical URL, site name: newsstemmer.metadata) from the same
    # parse.  Pages typed as not articles get none.
    metadata: bool = True
    # Type every page (newsstemmer.pagetype): ``is_article`` and ``page_type`` from the
    # page's own evidence, with the matched layout's article flag moving the threshold.
    # Off: ``is_article`` is the layout's flag (unmatched pages: false, or the single-page
    # method's true).
    page_type: bool = True
    # Type a page a layout matched by the vote of the layout's learning pages where they
    # agree (newsstemmer.combine.layouttypes): no per-page model.  False: every page alone.
    layout_vote: bool = True
    # Optional block kinds the body keeps beside the news convention's paragraphs,
    # headings, lists, quotes and tables (newsstemmer.blocks.OPTIONAL_KINDS: "caption",
    # "code", "figure", "byline", ...; a comma-separated string or a collection).
    keep: frozenset[str] = frozenset()
    # The body formats an article's record carries (Article.to_json_dict): "text" always,
    # "markdown", "html", "blocks" when named (a comma-separated string or a collection).
    formats: tuple[str, ...] = ("text",)

    def __post_init__(self) -> None:
        object.__setattr__(self, "keep", kept_kinds(self.keep))  # (ValueError for an unknown kind)
        object.__setattr__(self, "formats", body_formats(self.formats))

    def apply_body_options(self, article: Article) -> Article:
        """Give ``article`` this extraction's convention (``keep``) and formats."""
        if self.keep:
            article.keep_kinds(self.keep)
        article.formats = self.formats
        return article


def add_metadata(article: Article, page: Page) -> Article:
    """Fill ``article``'s metadata fields from ``page`` (its parsed tree); returns ``article``."""
    from ..pagetype import facts_of

    # (the facts its type read; the title model is not asked: the article's title is the extraction's)
    meta = article_metadata(page.tree, page.url, facts=facts_of(page), html=page.html, learned_title=False)
    for name in METADATA_FIELDS:
        setattr(article, name, getattr(meta, name))
    article.meta_source.pop("title", None)  # (the article's title is the extraction's)
    return article


def add_page_type(article: Article, page: Page, fallback: str | None = DEFAULT_SINGLE_PAGE_METHOD,
                  layout: LayoutPattern | None = None) -> Article:
    """Set ``article.is_article``, ``page_type`` and ``page_score`` from the page's type
    (:func:`newsstemmer.pagetype.page_type`; a matched layout's article flag moves the
    threshold); returns the article.  ``layout`` is the layout that matched the page: where
    its learning pages agree on their type, the page gets their vote without the model
    (:func:`~newsstemmer.combine.layouttypes.layout_page_type`; ``page_score`` is then
    their median score).

    A page of a layout learned as "not articles" that its own evidence calls an article
    is given the single-page method's body (``fallback``; ``method`` then ends in
    ``+region``, or the method's name): a site's layout never withholds an article.
    """
    from ..pagetype import page_type
    from .layouttypes import layout_page_type

    flag = article.is_article if article.matched else None
    kind = layout_page_type(page, article, layout)  # (None: no layout, or no clear vote)
    if kind is None:
        kind = page_type(page, flag)
    if flag is False and kind.is_article and fallback:
        alone = extract_single(page, fallback)
        article.take_body(alone)
        article.method = f"{article.method}+{alone.method}"
        article.title = article.title or alone.title
    article.is_article, article.page_type, article.page_score = kind.is_article, kind.kind, round(kind.score, 4)
    return article


def _finished(article: Article, page: Page, opts: ExtractOptions, site: SitePatterns | None = None) -> Article:
    """The chain's last steps: the page's type (by the vote of ``site``'s layout that
    matched it, where it has one), for an article its metadata, and the body's convention
    and formats."""
    if opts.page_type and not article.error:
        layout = site.layout(article.pattern) if site is not None and opts.layout_vote else None
        add_page_type(article, page, opts.fallback or DEFAULT_SINGLE_PAGE_METHOD, layout)
    if opts.metadata and (article.is_article or not (article.matched or opts.page_type)) and not article.error:
        add_metadata(article, page)
        if article.matched:
            apply_layout_metadata(article)  # the template's byline and date line, where the page lacks them
    return opts.apply_body_options(article)


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
    (:mod:`newsstemmer.combine.pagechoice`; ``method`` then ends in ``+region``).
    """
    opts = options or ExtractOptions()
    article = extract_with_layouts(page, site, opts, block_options)
    if not article.matched:
        return _finished(extract_single(page, opts.fallback) if opts.fallback else article, page, opts)
    if not opts.page_choice or not article.is_article:
        return _finished(article, page, opts, site)
    from .pagechoice_gate import CHOICE_KEY, needs_region  # no numpy: a cheap test first

    chosen = site.extras.get(CHOICE_KEY)
    # (pattern files learned without the section decision, or before the choice was
    # measured at learning, carry none: their articles are returned as the layouts give them)
    if chosen and chosen.get(article.pattern or ""):
        pw = blocks_of(page, block_options or site.block_options()).total_weight
        if needs_region(article, pw, chosen):
            from .pagechoice import choose  # numpy and the models: only when needed

            article = choose(page, site, article, pw)
    return _finished(article, page, opts, site)


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
        article = extract_single(page, opts.fallback) if opts.fallback else Article(url, "", "", matched=False)
        return _finished(article, page, opts)
    return extract_with_patterns(page, patterns, opts)


def extract_with_rules(page: Page, site: SitePatterns | RuleSet, options: object = None) -> Article:
    """Extract one page with the site's rules alone (``newsstemmer extract --method rules``).

    Same call shape as :func:`extract_with_patterns` (``options``
    is accepted and ignored).  ``method`` is ``"rules"``; ``matched`` is whether any rule
    found text.  When no title rule matches, the title is the page's own (``og:title``,
    first ``h1``, ``<title>``).  Raises :class:`~newsstemmer.rules.RulesError` if the site
    has no valid rules (``newsstemmer.rules.rules_of`` checks them) and
    :class:`~newsstemmer.dom.parse.HTMLParseError` for an unreadable page.
    """
    from ..rules import apply_rules, parse_page, rules_of  # parsel and cssselect: only for this method

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
