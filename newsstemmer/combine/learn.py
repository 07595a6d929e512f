"""The public ``newsstemmer.learn``: the layout engine with what is done around it.

The layout engine (``layout/``) learns the layouts; this module adds what combines it
with other methods: with ``LearnOptions(pregroup=True)`` the pages are first
partitioned by shared template (``templates/``: tag skeletons, substring
amplification, SPEC §3) and layouts are clustered within each group only; with
``LearnOptions(section_model=True)`` (the default) the learned section decision
(:mod:`.sections`) corrects the layouts' roles and the per-page choice's agreement
figures are stored with them (:mod:`.pagechoice`), and every layout keeps the page types
of the learning pages it matches (:mod:`.layouttypes`), which type its pages at extraction::

    from newsstemmer import LearnOptions, learn
    site = learn(pages, LearnOptions(pregroup=True))
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..layout.learning import LayoutLearnOptions, PageGrouper, Progress
from ..layout.learning import learn as learn_layouts
from ..layout.patterns import SitePatterns
from ..page import Page
from .layouttypes import type_layouts
from .metasections import mark_meta_sections

log = logging.getLogger(__name__)

__all__ = ["LearnOptions", "learn", "no_layout_reason", "template_grouper", "template_groups"]


@dataclass(frozen=True)
class LearnOptions(LayoutLearnOptions):
    """Every setting of :func:`learn`: the layout engine's thresholds
    (:class:`~newsstemmer.layout.learning.LayoutLearnOptions`) and what is done around it."""

    # Pre-group pages by shared template (substring amplification, SPEC §3) and cluster
    # layouts within each group: for large, mixed crawls.  Off by default: on a site's
    # few hundred pages it saves no time (benchmarks/amplification.py).
    pregroup: bool = False
    # Decide the roles of the article layouts' sections again with the learned section
    # model (``newsstemmer.combine.sections``), after the layout engine's hand rules.
    # False keeps the unsupervised Webstemmer roles.
    section_model: bool = True

    def as_dict(self) -> dict[str, object]:
        """JSON-ready settings, in the order pattern files have always listed them (the
        segmenter's ``blocks`` last)."""
        d = super().as_dict()
        d["blocks"] = d.pop("blocks")
        return d


def template_groups(pages: Sequence[Page], options: LearnOptions | None = None) -> list[list[int]]:
    """Partition ``pages`` by shared template (indices, every page once; linear time).

    A site with fewer than twice ``min_cluster_pages`` pages stays one group: it
    could not be split into groups that each still yield a layout.
    """
    opts = options or LearnOptions()
    if len(pages) < 2 * opts.min_cluster_pages:
        return [list(range(len(pages)))]
    from ..templates import pregroup  # numpy and a suffix array: only when asked for

    return pregroup([p.html for p in pages])


def template_grouper(options: LearnOptions | None = None) -> PageGrouper:
    """:func:`template_groups` with ``options`` fixed, in the form ``learn(grouper=...)`` takes."""

    def grouper(pages: Sequence[Page]) -> list[list[int]]:
        return template_groups(pages, options)

    return grouper


def learn(
    pages: Iterable[Page],
    options: LearnOptions | None = None,
    site: str | None = None,
    progress: Progress | None = None,
) -> SitePatterns:
    """Learn the layout patterns of one site (see :func:`newsstemmer.layout.learning.learn`).

    With ``options.pregroup``, layouts are clustered within the template groups
    of :func:`template_groups` (computed over the pages that could be read).
    """
    opts = options or LearnOptions()
    grouper = template_grouper(opts) if opts.pregroup else None
    page_list = list(pages)
    learned = learn_layouts(page_list, opts, site=site, progress=progress, grouper=grouper)
    if opts.section_model:
        from .pagechoice import store_agreement  # numpy and the models: only when asked for
        from .sections import PageEvidence, decide_site

        evidence = PageEvidence()
        decide_site(learned, page_list, evidence=evidence)
        # The layouts' agreement with region on the same sample, for the page choice.
        store_agreement(learned, page_list, evidence.region)
    if not learned.patterns:
        log.warning("%s", no_layout_reason(learned.site, len(page_list), opts))
    else:
        mark_meta_sections(learned, page_list)  # the byline's and the date line's sections
        if opts.section_model:  # (the page-type model, as the section model: none without them)
            type_layouts(learned, page_list)  # each layout's vote on its pages' type
    return learned


def no_layout_reason(site: str, pages: int, options: LayoutLearnOptions) -> str:
    """Why learning from ``pages`` pages of ``site`` gave no layout, and what to do (one sentence)."""
    need = options.min_cluster_pages
    if pages < need:
        return (f"learned no layout for site {site} from {pages} page{'' if pages == 1 else 's'}: a layout "
                f"needs {need} pages or more that share it; give more pages of the site (a folder is read "
                "with its sub-folders).")
    return (f"learned no layout for site {site} from {pages} pages: no {need} of them share a layout holding "
            "a main text; give more pages of the same kind (articles of one site).")
