"""Extraction with learned layout patterns (SPEC §2.6).

A page is cut into blocks and aligned to every pattern of its site; a pattern
applies when the blocks aligned to its sections carry more than
``pattern_threshold`` of the page's weight (in strict mode, every section must
also find a block).  The best-covering pattern wins, and its TITLE, MAIN and
SUB sections give the article.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..article import Article
from ..page import Page
from .alignment import PathCodes, align
from .blocks import BlockOptions, PageBlocks, blocks_of, layout_weight, line_digest
from .patterns import LayoutPattern, LayoutSection, SitePatterns
from .typed import LayoutBody

__all__ = [
    "EncodedPage",
    "LayoutExtractOptions",
    "PatternMatch",
    "block_roles",
    "choose_match",
    "extract_with_layouts",
    "extracted_roles",
    "match_all",
    "match_pattern",
]


@dataclass(frozen=True)
class LayoutExtractOptions:
    """Thresholds of extraction with layouts; defaults from SPEC §2.6.  What is done with
    the pages no layout covers, and after a layout matched, is the extraction chain's
    (:class:`newsstemmer.combine.extract.ExtractOptions`, which extends this)."""

    pattern_threshold: float = 0.8  # share of the page's weight a pattern must cover
    strict: bool = False  # reject a pattern if any of its sections finds no block
    include_sub: bool = False  # append SUB sections to the body
    include_non_articles: bool = False  # extract pages whose layout is not an article layout
    # Below the pattern threshold, the nearest article layout is still used when it
    # covers more than this share and finds main text (0 turns this off).
    loose_threshold: float = 0.5


@dataclass
class PatternMatch:
    """How well one pattern fits a page, with the page block aligned to each section."""

    pattern: LayoutPattern
    coverage: float  # share of the page's weight in blocks the pattern knows (its sections and free paths)
    blocks: list[int | None]  # page block index per section
    # share of the page's weight aligned to the pattern's sections alone, each block counted
    # up to what its section held when learned (section_weight_cap)
    aligned: float = 0.0

    @property
    def complete(self) -> bool:
        return all(b is not None for b in self.blocks)


class EncodedPage:
    """A page's block paths as codes, with their layout weights, made once so that the
    page can be matched against every pattern of its site without encoding it again."""

    def __init__(self, page: PageBlocks, codes: PathCodes) -> None:
        blocks = page.blocks
        self.codes = codes.encode([b.path for b in blocks])
        self.weights = [layout_weight(b) for b in blocks]
        self.plain = [0 if b.in_comments else b.plain_weight for b in blocks]
        self.total = sum(self.weights)
        self.by_path: dict[str, list[int]] = {}
        for i, b in enumerate(blocks):
            self.by_path.setdefault(b.path, []).append(i)


#: Share of the body-like text a loose match may leave out before the article says so
#: (``Article.detail``: ``loose-partial``).
LOST_BODY_SHARE = 0.2

#: A block's plain (non-anchor) text counts as aligned to a section (``PatternMatch.aligned``)
#: up to this many times the plain weight the section held on average on the pages it was
#: learned from (``main_score / diff_score``): a layout that aligns a page's long article to a section
#: that held a short header line explains the page no better than one that knows the
#: article's block by a free path (choice: 10 moves cttf's forbes.com-2005 and nymag.com-2000 and no page
#: down; 4 and 2 cost pages).
ALIGNED_WEIGHT_CAP = 10.0

#: Distinct paths a site's cached codes may hold before they are made anew.
_MAX_CACHED_PATHS = 100_000


def _site_codes(site: SitePatterns) -> tuple[PathCodes, list[list[int]]]:
    """The codes of a site's pattern paths, kept on the site between pages.

    A crawl extracts every page of a site with the same patterns: their paths are
    encoded once, not once per page and pattern.  Made anew if the patterns change
    (another list, other pattern objects or sections) or too many page paths piled up.
    """
    key = tuple((id(p), len(p.sections)) for p in site.patterns)
    cached = site.match_cache
    if cached is not None and cached[0] == key and len(cached[1]) <= _MAX_CACHED_PATHS:
        return cached[1], cached[2]
    codes = PathCodes()
    coded = [codes.encode(p.paths) for p in site.patterns]
    site.match_cache = (key, codes, coded)
    return codes, coded


def match_pattern(
    page: PageBlocks,
    pattern: LayoutPattern,
    codes: PathCodes | None = None,
    encoded: EncodedPage | None = None,
    pattern_codes: list[int] | None = None,
) -> PatternMatch:
    """Align a page to one pattern and measure the share of its weight covered.

    ``encoded`` is the page already encoded with ``codes`` (:class:`EncodedPage`)
    and ``pattern_codes`` the pattern's paths, for callers that match many pages
    against many patterns.
    """
    codes = codes or PathCodes()
    if encoded is None:
        encoded = EncodedPage(page, codes)
    if pattern_codes is None:
        pattern_codes = codes.encode(pattern.paths)
    weights = encoded.weights
    sections = pattern.sections
    per_section: list[int | None] = [None] * len(sections)
    covered = 0
    aligned = 0.0
    for s, b in align(pattern_codes, encoded.codes):
        per_section[s] = b
        covered += weights[b]
        aligned += weights[b] - max(0.0, encoded.plain[b] - section_weight_cap(sections[s]))
    free = pattern.free_paths
    if free:
        taken = {b for b in per_section if b is not None}
        for path in encoded.by_path.keys() & free.keys():
            covered += sum(weights[i] for i in encoded.by_path[path] if i not in taken)
    total = encoded.total
    if not total:
        return PatternMatch(pattern, 0.0, per_section, 0.0)
    return PatternMatch(pattern, covered / total, per_section, aligned / total)


def section_weight_cap(section: LayoutSection) -> float:
    """The most plain (non-anchor) weight of a block aligned to ``section`` that counts in
    ``PatternMatch.aligned``: ``ALIGNED_WEIGHT_CAP`` times the section's learned mean plain
    weight per page (its MainScore over its DiffScore, which are learned from plain weights);
    unbounded where that is unknown (DiffScore 0)."""
    if section.diff_score <= 0 or not ALIGNED_WEIGHT_CAP:
        return float("inf")
    return ALIGNED_WEIGHT_CAP * max(section.main_score / section.diff_score, 1.0)


def block_roles(page: PageBlocks, match: PatternMatch) -> list[str | None]:
    """The role of every page block under a match (None: unknown to the pattern)."""
    roles: list[str | None] = [match.pattern.free_paths.get(b.path) for b in page.blocks]
    for sec, b in zip(match.pattern.sections, match.blocks):
        if b is not None:
            roles[b] = sec.role
    _fill_body_gaps(page, roles)
    return roles


def extracted_roles(page: PageBlocks, match: PatternMatch) -> list[str | None]:
    """The roles as extraction applies them (:func:`block_roles`), where a block made only
    of the layout's boilerplate lines (``static_lines``, dropped even from main text)
    counts as static: what a picture of the extraction should show."""
    roles = block_roles(page, match)
    static = set(match.pattern.static_lines)
    if static:
        for i, (block, role) in enumerate(zip(page.blocks, roles)):
            if role not in (None, "static") and not _without_lines(block.text, static):
                roles[i] = "static"
    return roles


def _fill_body_gaps(page: PageBlocks, roles: list[str | None]) -> None:
    """Blocks the pattern has never seen, lying between main blocks, are main text.

    A layout learned from few pages misses some paragraph paths (a quote, a list in
    the body); inside the body they are article text unless they are mostly links.
    """
    mains = [i for i, r in enumerate(roles) if r == "main"]
    if len(mains) < 2:
        return
    for i in range(mains[0] + 1, mains[-1]):
        b = page.blocks[i]
        if roles[i] is None and not b.in_comments and b.plain_weight * 2 >= b.weight:
            roles[i] = "main"


def match_all(page: PageBlocks, site: SitePatterns) -> list[PatternMatch]:
    """The page matched against every pattern of its site, in the site's order; the
    page is encoded once and the patterns' codes come from the site's cache."""
    codes, coded = _site_codes(site)
    encoded = EncodedPage(page, codes)
    return [match_pattern(page, p, codes, encoded, c) for p, c in zip(site.patterns, coded)]


def choose_match(pb: PageBlocks, site: SitePatterns, opts: LayoutExtractOptions) -> tuple[PatternMatch, str] | None:
    """The layout that applies to a page, with how (``"pattern"`` or ``"pattern-loose"``),
    or None.

    The best-covering pattern above ``opts.pattern_threshold``; else, unless strict, the
    nearest article layout above ``opts.loose_threshold`` that finds main text in the page.
    Ties in coverage (common: with their free paths, several layouts of a site often know
    every block of a page) go to the layout that aligns more of the page's weight to its
    sections, then to the one learned from more pages (choice, beyond the original, whose
    coverage was the aligned weight alone: a layout that knows the page's article block
    only by a free path, or aligns it to a section that held a short line on the pages it
    was learned from, took pages of another layout that aligns the article to its main
    section; cttf's forbes.com-2000 and nymag.com-2000).  A block counts as aligned only up
    to a few times what its section held when learned (:func:`section_weight_cap`).
    """
    best: PatternMatch | None = None
    nearest: PatternMatch | None = None
    for m in match_all(pb, site):
        if nearest is None or m.coverage > nearest.coverage:
            nearest = m
        if m.coverage <= opts.pattern_threshold or (opts.strict and not m.complete):
            continue
        if best is None or (m.coverage, m.aligned, m.pattern.pages) > (best.coverage, best.aligned, best.pattern.pages):
            best = m
    if best is not None:
        return best, "pattern"
    if nearest is not None and opts.loose_threshold and not opts.strict:
        # A page of a known site whose layout shifted a little: the nearest layout still
        # knows which of its blocks are the article (choice; reported as its own method).
        if nearest.coverage > opts.loose_threshold and nearest.pattern.article and _has_main(nearest):
            return nearest, "pattern-loose"
    return None


def extract_with_layouts(
    page: Page,
    site: SitePatterns,
    options: LayoutExtractOptions | None = None,
    block_options: BlockOptions | None = None,
) -> Article:
    """Extract title and body with the site's learned layouts alone.

    ``matched`` is False (and the body empty) if no layout gives the page's article;
    Pages no layout covers come back unmatched: :func:`newsstemmer.combine.extract.extract_with_patterns`
    chains the single-page method after this.
    """
    opts = options or LayoutExtractOptions()
    pb = blocks_of(page, block_options or site.block_options())
    chosen = choose_match(pb, site, opts)
    if chosen is None:
        return _unmatched(page, pb, opts)
    best, method = chosen
    p = best.pattern
    roles = block_roles(pb, best)
    sections: list[tuple[str, str]] = []
    title = ""
    body_parts: list[str] = []
    seen: set[str] = set()
    static = set(p.static_lines)
    typed = LayoutBody(static)  # (what the body's typed blocks are made from, on first use)
    for index, (block, role) in enumerate(zip(pb.blocks, roles)):
        if role is None or role == "static":
            continue
        text = _without_lines(block.text, static) if static else block.text
        if not text:
            continue
        sections.append((role, text))
        if role == "title":
            title = title or text
        elif role == "main" or (role == "sub" and opts.include_sub):
            # Pages that repeat their article (print or preview copies) give it once.
            if text not in seen:
                seen.add(text)
                body_parts.append(text)
                typed.parts.append(index)
                if text is block.text:  # (no static line in it: its typed blocks need not look)
                    typed.whole[index] = text
    if p.article and not any(role == "main" for role, _ in sections):
        # An article layout that finds no main text in this page (an index page that
        # shares the site's frame, a one-off page) does not cover it.
        return _unmatched(page, pb, opts)
    if not title:
        title = _page_title(pb)
    for role, s in (("byline", p.byline_section), ("date", p.date_section)):
        # what the template's byline and date line say on this page (read by the chain's metadata step)
        b = best.blocks[s] if s is not None and s < len(best.blocks) else None
        if b is not None:
            sections.append((role, pb.blocks[b].text))
            setattr(typed, "byline" if role == "byline" else "dateline", b)
    lost = _lost_share(pb, roles) if method == "pattern-loose" else 0.0
    article = Article(
        page.url,
        title,
        "\n".join(body_parts),
        matched=True,
        method=method,
        pattern=p.id,
        score=best.coverage,
        is_article=p.article,
        source=page.source,
        sections=sections,
    )
    article.set_block_maker(typed.maker(page, block_options or site.block_options()))
    if lost >= LOST_BODY_SHARE:
        # The nearest layout leaves out text beside the body it knows: the page's article
        # may be longer than what it gives (the user is told; the body is left as it is).
        article.detail = "loose-partial"
    if not p.article and not opts.include_non_articles:
        article.body = ""
    return article


def _unmatched(page: Page, pb: PageBlocks, opts: LayoutExtractOptions) -> Article:
    """No layout of the site gives this page's article."""
    return Article(page.url, _page_title(pb), "", matched=False, is_article=False, source=page.source)


def _without_lines(text: str, static: set[str]) -> str:
    """The text without the lines the layout repeats on most pages."""
    lines = text.split("\n")
    kept = [line for line in lines if line_digest(line) not in static]
    return text if len(kept) == len(lines) else "\n".join(kept)


def _lost_share(pb: PageBlocks, roles: list[str | None]) -> float:
    """The share of a page's body-like text that a loose match leaves out: blocks the
    layout does not know, mostly plain text and outside comments, running on from its
    first or last main block (up to the next block it knows)."""
    mains = [i for i, r in enumerate(roles) if r == "main"]
    if not mains:
        return 0.0
    kept = sum(pb.blocks[i].plain_weight for i in mains)
    lost = 0
    for run in (range(mains[-1] + 1, len(roles)), range(mains[0] - 1, -1, -1)):
        for i in run:
            if roles[i] is not None:
                break
            b = pb.blocks[i]
            if not b.in_comments and b.plain_weight * 2 >= b.weight:
                lost += b.plain_weight
    return lost / (lost + kept) if lost + kept else 0.0


def _has_main(match: PatternMatch) -> bool:
    return any(s.role == "main" and b is not None for s, b in zip(match.pattern.sections, match.blocks))


def _page_title(pb: PageBlocks) -> str:
    """The page's own headline when the pattern has no title section."""
    for t in (pb.meta_title, *pb.h1, pb.title):
        if t:
            return t
    return ""
