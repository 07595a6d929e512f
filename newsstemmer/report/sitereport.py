"""What a site's report says: its layouts, the pages each covers, a sample of each,
and the pages no layout covers with the fallback's result.

Every page goes through :func:`newsstemmer.combine.extract.extract_with_patterns`, so the
report shows what extraction gives, layout choice and fallback included.  Only the
sample of each layout is looked at again, block by block (:mod:`.sample`).
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from ..dom.parse import HTMLParseError
from ..layout.blocks import blocks_of
from ..combine.extract import ExtractOptions, extract_with_patterns
from ..layout.matching import match_all
from ..layout.patterns import LayoutPattern, SitePatterns
from ..page import Page
from .sample import Sample, marked_sample

__all__ = ["LayoutView", "PageResult", "SiteReport", "build_site_report"]

#: Characters of body text kept per page in the report (the pages' lists).
EXCERPT_CHARS = 240
#: Pages larger than this are not taken as a layout's sample (the report stays small).
MAX_SAMPLE_CHARS = 1_500_000


@dataclass
class PageResult:
    """What extraction gave for one page."""

    source: str
    url: str | None
    method: str | None = None  # pattern, pattern-loose, a single-page method (region, pagerank...), or None
    layout: str | None = None  # id of the layout that gave the article
    coverage: float | None = None  # share of the page's weight that layout covers
    nearest: str | None = None  # for pages no layout covers: the closest layout
    nearest_coverage: float | None = None
    is_article: bool = False
    title: str = ""
    body_chars: int = 0
    excerpt: str = ""
    error: str | None = None

    @property
    def matched(self) -> bool:
        return self.layout is not None


@dataclass
class LayoutView:
    """One layout: the pattern, the given pages it covers, and its sample page."""

    pattern: LayoutPattern
    pages: list[PageResult] = field(default_factory=list)
    sample: Sample | None = None


@dataclass
class SiteReport:
    """Everything a site's report shows."""

    site: SitePatterns
    patterns_source: str
    layouts: list[LayoutView]
    unmatched: list[PageResult]
    errors: list[PageResult]
    fallback: str | None
    generated: str = ""
    #: The crawl's own figures of the site (pages crawled, articles sent, non-articles, ...,
    #: ``layouts_used``: pages each layout matched in the crawl) when a crawl made the
    #: report; the other figures are those of the pages kept for it (its sample).
    crawl: dict[str, Any] | None = None

    @property
    def readable(self) -> int:
        return sum(len(v.pages) for v in self.layouts) + len(self.unmatched)

    @property
    def matched(self) -> int:
        return sum(len(v.pages) for v in self.layouts)

    @property
    def articles(self) -> int:
        return sum(1 for v in self.layouts for p in v.pages if p.is_article)

    @property
    def coverage(self) -> float | None:
        """Share of the readable pages a learned layout covers (None without pages)."""
        return self.matched / self.readable if self.readable else None


def build_site_report(
    site: SitePatterns,
    pages: Iterable[Page],
    *,
    patterns_source: str = "",
    fallback: str | None = "region",
    options: ExtractOptions | None = None,
    errors: Iterable[tuple[str, str]] = (),
    progress: Callable[[str, int, int], None] | None = None,
    total: int = 0,
    crawl: dict[str, Any] | None = None,
) -> SiteReport:
    """Extract every page with the site's layouts (then ``fallback``) and gather the
    report; ``errors`` are (source, reason) of pages that could not be read; ``crawl``
    the crawl's own figures of the site (:attr:`SiteReport.crawl`).

    Each layout's sample is the page it covers best (pages over
    :data:`MAX_SAMPLE_CHARS` are passed over).  Trees of other pages are let go as
    soon as they are extracted, so memory stays that of a few pages.
    """
    opts = options or ExtractOptions()
    opts = dataclasses.replace(opts, fallback=fallback)
    views = {p.id: LayoutView(p) for p in site.patterns}
    best: dict[str, tuple[float, Page]] = {}
    unmatched: list[PageResult] = []
    failed = [PageResult(source, None, error=reason) for source, reason in errors]
    n = 0
    for page in pages:
        n += 1
        result = _extract(page, site, opts)
        if result.error:
            failed.append(result)
        elif result.layout in views:
            views[result.layout].pages.append(result)
            held = best.get(result.layout)
            if len(page.html) <= MAX_SAMPLE_CHARS and (held is None or (result.coverage or 0) > held[0]):
                if held is not None:
                    held[1].forget_tree()
                best[result.layout] = (result.coverage or 0.0, page)
            else:
                page.forget_tree()
        else:
            unmatched.append(result)
            page.forget_tree()
        if progress:
            progress("reading pages", n, max(total, n))
    for k, (layout, (_, page)) in enumerate(best.items(), 1):
        views[layout].sample = marked_sample(page, site, layout)
        page.forget_tree()
        if progress:
            progress("marking samples", k, len(best))
    return SiteReport(
        site=site,
        patterns_source=patterns_source,
        layouts=list(views.values()),
        unmatched=unmatched,
        errors=failed,
        fallback=fallback,
        generated=_dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat(),
        crawl=crawl,
    )


def _extract(page: Page, site: SitePatterns, opts: ExtractOptions) -> PageResult:
    """One page through the extraction chain, as a :class:`PageResult` (never raises
    for a bad page: the error is kept)."""
    source = page.name
    try:
        art = extract_with_patterns(page, site, opts)
        nearest = nearest_cov = None
        if not art.matched and site.patterns:
            pb = blocks_of(page, site.block_options())  # (cut already, kept on the page)
            m = max(match_all(pb, site), key=lambda m: m.coverage)
            nearest, nearest_cov = m.pattern.id, m.coverage
    except HTMLParseError as exc:
        return PageResult(source, page.url, error=str(exc))
    except (Exception, RecursionError) as exc:  # a core bug on one page must not stop the report
        return PageResult(source, page.url, error=f"internal error: {type(exc).__name__}: {exc}")
    body = art.body or ""
    return PageResult(
        source=source,
        url=page.url,
        method=art.method,
        layout=art.pattern if art.matched else None,
        coverage=art.score,
        nearest=nearest,
        nearest_coverage=nearest_cov,
        is_article=bool(art.is_article),
        title=art.title or "",
        body_chars=len(body),
        excerpt=" ".join(body[: EXCERPT_CHARS * 2].split())[:EXCERPT_CHARS],
    )
