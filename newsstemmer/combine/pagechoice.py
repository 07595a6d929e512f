"""The learned per-page choice between a layout's article and the region extractor's.

A learned layout decides its sections once for all the site's pages
(:mod:`newsstemmer.combine.sections`); on some pages it still gives the wrong text
(a near-empty body when the article sits in a part of the page the layout judged not
main, a box of varying text kept as main), where the single-page region extractor
(:mod:`newsstemmer.single.region.extractor`) finds the article, and on others the reverse.
A small tree model trained on the gold of many sites (``training/train_pagechoice.py``,
site-grouped) decides per page which of the two bodies to return.

Running region on every page would cost more than the layout itself, so it runs only
where it can change the answer (:func:`~newsstemmer.combine.pagechoice_gate.needs_region`):
on pages whose layout text is short against the page's text, of layouts where the
choice took region's body on at least one page of the section decision's evidence
sample at learning time (kept in the pattern file, ``extras["region_choice"]``: pattern
id -> share of the sampled pages).  Each layout's agreement with region on the same
sample (``extras["region_agreement"]``: pattern id -> mean shingle F1 of the two bodies)
is a feature.  Pattern files without these get no choice.

Features of a page (:data:`PAGE_FEATURES`): both bodies' weights and ratio, their
shingle overlap both ways and their overlap in significant characters (any script),
where region's extra text comes from on this page (lines the layout holds as the site's
boilerplate, its SUB sections, or blocks it never saw: :func:`where_features`), the
match's coverage and kind (pattern or loose), the layout's agreement with region, and
the page's own text weight.  Region's body is never taken empty or made mostly of the
layout's boilerplate (:func:`admissible`), nor where it only adds text around a body
the layout already has whole (:func:`extends_only`: a byline, a footer, a sidebar).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from ..article import Article
from ..dom.text import significant, weight
from ..layout.blocks import blocks_of, line_digest
from ..layout.matching import LayoutExtractOptions, block_roles, extract_with_layouts, match_pattern
from ..layout.patterns import SitePatterns
from ..page import Page
from .pagechoice_gate import AGREEMENT_KEY, CHOICE_KEY, layout_text
from ..shipped import load_model
from ..trees import TreeModel
from .sections import TextReference

__all__ = [
    "PAGE_FEATURES",
    "MOSTLY_BOILERPLATE",
    "admissible",
    "agreement",
    "extends_only",
    "lines_found",
    "choose_body",
    "layout_agreement",
    "line_roles",
    "page_features",
    "where_features",
    "without_known",
    "choose",
    "shared_choice_model",
    "store_agreement",
    "takes_region",
]

PAGE_FEATURES: tuple[str, ...] = (
    "log_layout_weight",
    "log_region_weight",
    "log_ratio",
    "layout_in_region",
    "region_in_layout",
    "coverage",
    "loose",
    "layout_agreement",
    "log_page_weight",
    "layout_page_share",
    "region_page_share",
    "layout_in_region_chars",
    "region_in_layout_chars",
    "extra_static",
    "extra_sub",
    "extra_unknown",
)

#: Page lines with fewer significant characters than this are not looked for in region's
#: body (a short line occurs inside any text by chance).
MIN_LINE_CHARS = 6


def agreement(layout_body: str, region_body: str) -> float:
    """Shingle F1 of two bodies (1.0 when both are empty)."""
    if not layout_body and not region_body:
        return 1.0
    if not layout_body or not region_body:
        return 0.0
    p = TextReference(region_body).share(layout_body)
    r = TextReference(layout_body).share(region_body)
    return 2 * p * r / (p + r) if p + r else 0.0


def layout_agreement(bodies: dict[str, list[tuple[str, str]]]) -> dict[str, float]:
    """Per layout id, the mean :func:`agreement` of its (layout body, region body) pairs."""
    return {pid: round(sum(agreement(a, b) for a, b in pairs) / len(pairs), 4)
            for pid, pairs in bodies.items() if pairs}


def line_roles(page: Page, site: SitePatterns, article: Article) -> list[tuple[str, str]]:
    """(role, significant characters) of every line of the page's blocks under the
    layout that gave ``article``: ``title``/``main``/``sub``/``static`` as the layout
    aligns them (a line among the layout's ``static_lines`` is ``static``), ``none`` for
    blocks the layout never saw.  Empty if the layout is not the site's."""
    pattern = next((p for p in site.patterns if p.id == article.pattern), None)
    if pattern is None:
        return []
    pb = blocks_of(page, site.block_options())
    roles = block_roles(pb, match_pattern(pb, pattern))
    static = set(pattern.static_lines)
    out = []
    for block, role in zip(pb.blocks, roles):
        for line in block.text.split("\n"):
            sig = significant(line)
            if sig:
                out.append(("static" if static and line_digest(line) in static else (role or "none"), sig))
    return out


def without_known(text: str, lines: Sequence[tuple[str, str]], roles: frozenset[str] = frozenset({"static"})) -> str:
    """``text`` without its lines that are, on this page, lines the layout knows as
    ``roles`` (default: boilerplate, i.e. repeated on the site's pages): region's body
    must not bring back what the site's own pages showed to be boilerplate."""
    known = {sig for role, sig in lines if role in roles}
    if not known:
        return text
    kept = [line for line in text.split("\n") if significant(line) not in known]
    return "\n".join(kept)


def lines_found(text: str, within: str) -> tuple[int, int]:
    """(significant characters of ``text``'s lines found whole in ``within``, of all its
    lines): ``within`` is already reduced to significant characters."""
    total = hit = 0
    for line in text.split("\n"):
        sig = significant(line)
        total += len(sig)
        if sig and sig in within:
            hit += len(sig)
    return hit, total

def where_features(layout_text: str, region_body: str, lines: Sequence[tuple[str, str]]) -> tuple[float, ...]:
    """Where the two bodies differ, in significant characters (any script):
    the share of the layout's text found in region's body and the reverse, and the
    shares of region's body that are text outside the layout's made of lines the layout
    knows as not the article on this page (``lines`` from :func:`line_roles`): its
    boilerplate (``static``: repeated on the site's pages), its SUB sections (text that
    varies but is not main), and of other text (blocks the layout never saw, or text
    its blocks do not hold as lines)."""
    sig_layout, sig_region = significant(layout_text), significant(region_body)
    lin, lt = lines_found(layout_text, sig_region)
    rin, rt = lines_found(region_body, sig_layout)
    if not rt:
        return (lin / lt if lt else 0.0, 0.0, 0.0, 0.0, 0.0)
    extra = rt - rin
    known = {"static": 0, "sub": 0}
    for role, sig in set(lines):
        if role in known and len(sig) >= MIN_LINE_CHARS and sig in sig_region and sig not in sig_layout:
            known[role] += len(sig)
    static = min(known["static"], extra)
    sub = min(known["sub"], extra - static)
    return (lin / lt if lt else 0.0, rin / rt, static / rt, sub / rt, (extra - static - sub) / rt)


def page_features(
    layout_text: str,
    region_body: str,
    coverage: float | None,
    method: str | None,
    layout_agreement: float | None,
    page_weight: int,
    lines: Sequence[tuple[str, str]] = (),
) -> np.ndarray:
    """The feature row of one page (:data:`PAGE_FEATURES`); ``layout_text``: see
    :func:`layout_text`; ``lines``: :func:`line_roles`."""
    layout_body = layout_text
    lw, rw = weight(layout_body), weight(region_body)
    row = np.zeros(len(PAGE_FEATURES), dtype=np.float64)
    row[0] = math.log1p(lw)
    row[1] = math.log1p(rw)
    row[2] = math.log((rw + 1) / (lw + 1))
    row[3] = TextReference(region_body).share(layout_body) if layout_body else 0.0
    row[4] = TextReference(layout_body).share(region_body) if region_body else 0.0
    row[5] = coverage if coverage is not None else np.nan
    row[6] = float(method == "pattern-loose")
    row[7] = layout_agreement if layout_agreement is not None else np.nan
    row[8] = math.log1p(page_weight)
    row[9] = lw / page_weight if page_weight else 0.0
    row[10] = rw / page_weight if page_weight else 0.0
    row[11:16] = where_features(layout_body, region_body, lines)
    return row


def shared_choice_model() -> TreeModel:
    """The process's page-choice model (the shipped one, loaded on first use)."""
    return load_model("pagechoice", PAGE_FEATURES)


#: A region body whose text is at least this share of lines the layout knows as the
#: site's boilerplate on this page is not an article body, whatever the model says.
MOSTLY_BOILERPLATE = 0.5


def admissible(rows: np.ndarray) -> np.ndarray:
    """Per feature row, whether region's body may be taken at all: not empty, and not
    mostly text the site's own pages showed to be boilerplate (``extra_static``)."""
    return (rows[:, PAGE_FEATURES.index("log_region_weight")] > 0) & ~(
        rows[:, PAGE_FEATURES.index("extra_static")] >= MOSTLY_BOILERPLATE)


#: :func:`extends_only`: the share of the layout's body (significant characters of its
#: lines) region's body must hold for the layout's body to count as held whole ...
EDGE_COVER = 0.95
#: ... and the share of region's body under which its extra text between the lines it
#: shares with the layout counts as none (region then only adds text at the edges).
EDGE_INNER = 0.05


def extends_only(layout_body: str, region_body: str) -> bool:
    """Whether region's body holds the layout's body whole (:data:`EDGE_COVER`) and adds
    text only before or after it (extra lines between the lines the two share: under
    :data:`EDGE_INNER` of region's body).  Such a body cannot be the better one where the
    layout's is right (what it adds is a byline, a footer, a sidebar's text), and where
    the layout's body lacks the article's end or start region's guess of where the
    article ends is no safer than the layout's: the layout's body is kept.  Text region
    finds *inside* the layout's body (lines the layout took as boilerplate or SUB between
    its paragraphs) is what the choice is for.  Compared by lines of significant
    characters (any script)."""
    sig_region = significant(region_body)
    if not sig_region:
        return False
    held, total = lines_found(layout_body, sig_region)
    if not total or held < EDGE_COVER * total:
        return False
    sig_layout = significant(layout_body)
    lines = [sig for sig in map(significant, region_body.split("\n")) if sig]
    shared = [sig in sig_layout for sig in lines]
    if not any(shared):
        return False
    first, last = shared.index(True), len(shared) - 1 - shared[::-1].index(True)
    inner = sum(len(sig) for i, sig in enumerate(lines[first:last], first) if not shared[i])
    return inner < EDGE_INNER * len(sig_region)


def choose_body(rows: np.ndarray, model: TreeModel | None = None, threshold: float | None = None) -> np.ndarray:
    """Per feature row, whether region's body is the one to return: the model's
    P(region's is better) at or above its threshold, for an :func:`admissible` body."""
    model = model or shared_choice_model()
    t = float(model.info.get("threshold", 0.5)) if threshold is None else threshold
    return (model.predict(rows) >= t) & admissible(rows)


def pairs_by_layout(pattern_ids: Sequence[str], layout_bodies: Sequence[str],
                    region_bodies: Sequence[str]) -> dict[str, list[tuple[str, str]]]:
    """(layout body, region body) pairs grouped by layout id, for :func:`layout_agreement`."""
    out: dict[str, list[tuple[str, str]]] = {}
    for pid, a, b in zip(pattern_ids, layout_bodies, region_bodies):
        out.setdefault(pid, []).append((a, b))
    return out


def store_agreement(site: SitePatterns, pages: Sequence[Page], region_bodies: dict[int, str],
                    model: TreeModel | None = None) -> dict[str, float]:
    """Measure each layout's agreement with region on the pages whose region body is
    known (page number -> body: the section decision's evidence sample) and keep it in
    ``site.extras`` (:data:`AGREEMENT_KEY`); then run the choice itself on those pages
    and keep, per layout, the share of them where it took region's body
    (:data:`CHOICE_KEY`): extraction runs region only on the pages of layouts where that
    share is not 0 (:func:`~newsstemmer.combine.pagechoice_gate.needs_region`)."""
    taken = []
    opts = LayoutExtractOptions()
    for n, body in sorted(region_bodies.items()):
        art = extract_with_layouts(pages[n], site, opts)
        if art.matched and art.pattern and art.is_article:
            taken.append((n, art, body))
    found = layout_agreement(pairs_by_layout([a.pattern for _, a, _ in taken], [layout_text(a) for _, a, _ in taken],
                                             [b for _, _, b in taken]))
    site.extras[AGREEMENT_KEY] = found
    chosen: dict[str, list[bool]] = {}
    for n, art, body in taken:
        pw = blocks_of(pages[n], site.block_options()).total_weight
        chosen.setdefault(art.pattern or "", []).append(takes_region(pages[n], site, art, body, pw, model))
    site.extras[CHOICE_KEY] = {pid: round(sum(c) / len(c), 4) for pid, c in chosen.items()}
    return found


def takes_region(page: Page, site: SitePatterns, article: Article, region_body: str, page_weight: int,
                 model: TreeModel | None = None) -> bool:
    """Whether the choice returns region's body (``region_body``) for this page rather
    than the layout's ``article``: the model says region's is better, it is
    :func:`admissible`, and it does more than extend the layout's at the edges
    (:func:`extends_only`)."""
    agreements = site.extras.get(AGREEMENT_KEY) or {}
    row = page_features(layout_text(article), region_body, article.score, article.method,
                        agreements.get(article.pattern or ""), page_weight, line_roles(page, site, article))
    return bool(choose_body(row[None, :], model)[0]) and not extends_only(article.body, region_body)


def choose(page: Page, site: SitePatterns, article: Article, page_weight: int,
           model: TreeModel | None = None) -> Article:
    """The page's article after the learned choice: ``article`` (a layout's, matched) as
    it is, or with region's body where the model judges region's the better one (and
    region's does not merely add text around the layout's: :func:`extends_only`).  The
    caller runs it where :func:`~newsstemmer.combine.pagechoice_gate.needs_region` says it
    could change the answer (``page_weight``: the page's blocks' total weight)."""
    from ..single import extract_single  # numpy and the region models: only when needed

    region = extract_single(page, "region")
    region_body = region.body
    if takes_region(page, site, article, region_body, page_weight, model):
        article.take_body(region)
        article.method = f"{article.method}+region"
    return article
