"""Everything the block decision looks at on one page: blocks, layout match, PageRank.

:func:`page_evidence` gathers it once per page (the page's one tree, its cached
layout blocks), for inference (:mod:`.extractor`) and for training
(:mod:`.dataset`) alike, so both see exactly the same features.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..layout.blocks import BlockOptions, PageBlocks, blocks_of
from ..layout.matching import ExtractOptions, PatternMatch, block_roles, choose_match, extract_with_layouts
from ..layout.patterns import SitePatterns
from ..page import Page
from ..layout.blocks import block_elements
from ..single.pagerank import pagerank_analysis
from .features import LAYOUT_COLUMNS, LayoutEvidence, block_features

__all__ = ["PageEvidence", "layout_evidence", "page_evidence"]


@dataclass
class PageEvidence:
    """A page's blocks with their feature rows and the titles found for it.

    ``X`` has layout features when ``layout`` is set (``NaN`` otherwise);
    ``pagerank_title`` / ``pagerank_body`` are DOM PageRank's result (None when it was
    not run), ``layout_title`` the matched layout's title ("" if none).
    """

    blocks: PageBlocks
    X: np.ndarray
    layout: LayoutEvidence | None
    layout_title: str
    pagerank_title: str | None
    pagerank_body: str | None

    def single_page_rows(self) -> np.ndarray:
        """The rows with the layout features blanked, as for a page of an unknown site."""
        X = self.X.copy()
        X[:, LAYOUT_COLUMNS] = np.nan
        return X


def layout_evidence(pb: PageBlocks, match: PatternMatch) -> LayoutEvidence:
    """The roles and aligned sections of a page's blocks under a layout match."""
    sections: list[int | None] = [None] * len(pb.blocks)
    for s, b in enumerate(match.blocks):
        if b is not None:
            sections[b] = s
    return LayoutEvidence(match.pattern, match.coverage, block_roles(pb, match), sections)


def page_evidence(
    page: Page,
    site: SitePatterns | None = None,
    options: ExtractOptions | None = None,
    pagerank: bool | None = None,
) -> PageEvidence:
    """Gather the block decision's evidence of one page.

    With ``site``, the layout that applies (:func:`~newsstemmer.layout.matching.choose_match`)
    gives the layout features.  ``pagerank`` runs DOM PageRank for its features (default:
    only when no layout applies, since it costs more than the rest together).
    """
    opts = options or ExtractOptions()
    block_opts = (site.block_options() if site is not None else None) or BlockOptions()
    if pagerank is None and site is None:
        pagerank = True
    elements = None
    if pagerank:
        # One walk gives the blocks and their elements; the layout-blocks cache gets
        # the same blocks (what ``blocks_of`` would have cut).
        pb, elements = page.memo(("layout-block-elements", block_opts), lambda: block_elements(page.tree, block_opts))
        page.memo(("layout-blocks", block_opts), lambda: pb)
    pb = blocks_of(page, block_opts)
    layout = None
    layout_title = ""
    if site is not None:
        chosen = choose_match(pb, site, opts)
        if chosen is not None:
            layout = layout_evidence(pb, chosen[0])
            article = extract_with_layouts(page, site, opts)
            layout_title = article.title
    if pagerank is None:
        pagerank = layout is None
    pr_title = pr_body = None
    headline = layout_title
    analysis = None
    if pagerank:
        if elements is None:
            pb, elements = page.memo(("layout-block-elements", block_opts), lambda: block_elements(page.tree, block_opts))
        analysis = pagerank_analysis(page.tree, page.url)
        pr_title, pr_body = analysis.result.title, analysis.result.body
        headline = headline or pr_title
    if not headline:
        headline = next((t for t in (pb.meta_title, *pb.h1, pb.title) if t), "")
    X = block_features(pb, headline, pr_body, layout, elements, analysis)
    return PageEvidence(pb, X, layout, layout_title, pr_title, pr_body)
