"""The learned section decision: which parts of a site's layouts are article text.

The layout engine (:mod:`newsstemmer.layout.learning`) gives every section of a layout
a role by hand-set rules (DiffScore >= 0.5 and MainScore >= 50 make MAIN text, with
link density, teaser and recurrence checks).  Text that varies per page but is not
the article (author bios, related-story cards inside the body, gallery captions,
toolbars) passes those rules.  Here a tree model trained on the gold of many sites
(``training/train_sections.py``) decides again, once per *unit* of a layout: a
section (one position of the pattern) or a free path (blocks aligned to no section,
judged by path), over all the site's pages that the layout matches.  The decision is
written into the patterns' roles, so extraction stays what it was (same speed) and
every page of a layout is decided consistently.

Features of a unit (:data:`SECTION_FEATURES`): the hand rules' own role and scores,
how often and how heavily it occurs, its link density, teaser-listing shape and
recurrence across the site, where it stands against the layout's largest section (path
relation, DOM distance, before or after it), the role hints of the ``id``/``class``
names on its own part of the path, its text shape, and how much of it the single-page
region extractor (:mod:`newsstemmer.single.region.extractor`) keeps on the same pages.

Two shapes the training data hold too few of for the trees (a story card inside the
article, an author's bio after it: :mod:`newsstemmer.combine.boxes`) are read per unit
as well (:func:`unit_signals`) and take MAIN away by rule (:func:`main_units`).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ..dom.parse import HTMLParseError
from ..dom.text import significant
from ..evaluation import shingles, tokens
from lxml import etree

from ..layout.blocks import LayoutBlock, PageBlocks, block_elements, blocks_of, line_digest
from ..layout.matching import LayoutExtractOptions, PatternMatch, choose_match
from ..layout.learning import teaser_blocks
from ..layout.patterns import LayoutPattern, SitePatterns
from ..layout.scoring import diff_score, main_score
from ..page import Page
from ..single.signals.hints import HINTS, element_hints, hints
from .boxes import BIO_SHARE, CARD_SHARE, byline_lines, carries, lead_name, opens_with_link, picture_holders
from ..shipped import load_model
from ..trees import TreeModel

__all__ = [
    "SECTION_FEATURES",
    "SIGNALS",
    "SectionUnit",
    "TextReference",
    "decide_sections",
    "decide_site",
    "PageEvidence",
    "page_evidence",
    "unit_labels",
    "EVIDENCE_PAGES",
    "evidence_sample",
    "main_units",
    "section_units",
    "shared_section_model",
    "text_shares",
    "unit_features",
    "unit_signals",
]

_HINT_NAMES = tuple(name for name, _ in HINTS)
_TAGS = ("p", "h", "li", "td", "div", "other")
_TAG_OF = {"p": "p", "li": "li", "dd": "li", "dt": "li", "td": "td", "th": "td"}
_TAG_OF.update((f"h{i}", "h") for i in range(1, 7))
_TAG_OF.update((t, "div") for t in ("div", "section", "article", "main", "blockquote", "center"))
_ROLES = ("title", "main", "sub", "static")
_PUNCT = tuple(".,;:!?\u3002\u3001\uff0c\uff01\uff1f")
_SENTENCE_END = tuple(".!?\u3002\uff01\uff1f\"'\u201d\u2019)")
_SHARED_LINE = 20  # lines shorter than this (significant characters) are not tested for recurrence

SECTION_FEATURES: tuple[str, ...] = (
    *(f"role_{r}" for r in _ROLES),
    "free",
    "largest",
    "diff",
    "main_score_log",
    "occurrence",
    "log_weight",
    "log_weight_max",
    "weight_cv",
    "weight_vs_largest",
    "link_density",
    "comments",
    "listing",
    "recurring",
    "log_lines",
    "log_line_weight",
    "punct",
    "sentence_ends",
    "depth",
    "common_steps",
    "own_steps",
    "largest_own_steps",
    "same_path",
    "same_parent",
    "before_largest",
    "block_gap",
    "log_pattern_pages",
    "pattern_article",
    "pattern_share",
    "region_share",
    "largest_region_share",
    *(f"tag_{t}" for t in _TAGS),
    *(f"own_{h}" for h in _HINT_NAMES),
    *(f"names_{h}" for h in _HINT_NAMES),
    *(f"shared_{h}" for h in _HINT_NAMES),
)
_COL = {name: i for i, name in enumerate(SECTION_FEATURES)}
#: What :func:`unit_signals` gives per unit (not model features: see :mod:`.boxes`).
SIGNALS: tuple[str, ...] = ("card", "bio")


@dataclass
class SectionUnit:
    """One section (``index``) or free path (``path`` with ``index`` None) of a layout,
    with the blocks it holds on each matched page: ``(page number, block)``."""

    pattern: LayoutPattern
    index: int | None
    path: str
    role: str
    occurrences: list[tuple[int, LayoutBlock]] = field(default_factory=list)

    @property
    def key(self) -> tuple[str, str, object]:
        return (self.pattern.id, "s" if self.index is not None else "f", self.index if self.index is not None else self.path)


@dataclass
class _Matched:
    """A page matched to a layout: its blocks, the match, and its main section's block."""

    blocks: PageBlocks
    match: PatternMatch


def _steps(path: str) -> list[str]:
    return path.split("/") if path else []


def section_units(site: SitePatterns, pages: Sequence[Page]) -> tuple[list[SectionUnit], dict[int, _Matched]]:
    """Match every page to the site's layouts (as extraction does) and collect, per
    section and free path of every article layout, its blocks on the matched pages.

    Returns the units and, per page number, its match (pages no layout matches, or
    unreadable ones, are left out).
    """
    opts = LayoutExtractOptions()
    bopts = site.block_options()
    units: dict[tuple, SectionUnit] = {}
    matched: dict[int, _Matched] = {}
    for n, page in enumerate(pages):
        try:
            pb = blocks_of(page, bopts)
        except HTMLParseError:
            continue
        chosen = choose_match(pb, site, opts)
        if chosen is None:
            continue
        match = chosen[0]
        p = match.pattern
        if not p.article:
            continue
        matched[n] = _Matched(pb, match)
        taken: set[int] = set()
        for s, b in enumerate(match.blocks):
            if b is None:
                continue
            taken.add(b)
            sec = p.sections[s]
            unit = units.get((p.id, "s", s))
            if unit is None:
                unit = units[(p.id, "s", s)] = SectionUnit(p, s, sec.path, sec.role)
            unit.occurrences.append((n, pb.blocks[b]))
        free = p.free_paths
        if free:
            for b in pb.blocks:
                role = free.get(b.path)
                if role is None or b.index in taken:
                    continue
                unit = units.get((p.id, "f", b.path))
                if unit is None:
                    unit = units[(p.id, "f", b.path)] = SectionUnit(p, None, b.path, role)
                unit.occurrences.append((n, b))
    return list(units.values()), matched


class TextReference:
    """A reference text's tokens and 4-token shingles, made once to test many texts
    against it (:meth:`share`)."""

    def __init__(self, text: str) -> None:
        self.tokens = tokens(text)
        self.shingles = set(shingles(self.tokens))
        self._short: dict[int, set[tuple[str, ...]]] = {}

    def share(self, text: str) -> float:
        """The share of ``text``'s 4-token shingles found in the reference (a text of 1-3
        tokens: whether it occurs there whole); the evaluation's tokens."""
        toks = tokens(text)
        if not toks:
            return 0.0
        if len(toks) < 4:
            k = len(toks)
            short = self._short.get(k)
            if short is None:
                ref = self.tokens
                short = self._short[k] = {tuple(ref[j : j + k]) for j in range(len(ref) - k + 1)}
            return float(tuple(toks) in short)
        mine = shingles(toks)
        ref_set = self.shingles
        return sum(c for s, c in mine.items() if s in ref_set) / sum(mine.values())


def text_shares(texts: Sequence[str], reference: str | TextReference) -> np.ndarray:
    """Per text, the share of its 4-token shingles found in ``reference`` (a text of 1-3
    tokens: whether it occurs there whole); the evaluation's tokens."""
    ref = reference if isinstance(reference, TextReference) else TextReference(reference)
    return np.array([ref.share(t) for t in texts], dtype=np.float64)


def _recurring_lines(pages: dict[int, _Matched]) -> Counter[str]:
    counts: Counter[str] = Counter()
    for m in pages.values():
        lines = set()
        for b in m.blocks.blocks:
            for line in b.text.split("\n"):
                sig = significant(line)
                if len(sig) >= _SHARED_LINE:
                    lines.add(sig)
        counts.update(lines)
    return counts


@dataclass
class PageEvidence:
    """What the site's pages say beyond their blocks, per page number: the body the
    single-page region extractor gives (``region``) and the role hints of the id/class
    names on each block's own branch of the tree (``names``: per block index, the hints
    of its element and its ancestors below the one it shares with the article core).
    The names are read from the tree, not from the block path, whose steps drop
    per-item tokens (``author-…``, ``tag-…``) and keep only the last levels.
``pictured``: per page, the blocks whose own branch holds a linked picture (a card's
thumbnail, :func:`~newsstemmer.combine.boxes.picture_holders`)."""

    region: dict[int, str] = field(default_factory=dict)
    names: dict[int, dict[int, frozenset[str]]] = field(default_factory=dict)
    pictured: dict[int, set[int]] = field(default_factory=dict)


_MAX_BRANCH = 6  # ancestors climbed from a block's element when reading its names
#: Pages per layout on which the page evidence (region body, branch names) is gathered:
#: a bounded, deterministic sample, so that learning's extra cost does not grow with the
#: site (the features average over the pages that have evidence).
EVIDENCE_PAGES = 8


def evidence_sample(matched: dict[int, _Matched], per_layout: int | None = EVIDENCE_PAGES) -> list[int]:
    """The page numbers that get page evidence: per layout, at most ``per_layout`` of its
    matched pages, evenly spaced in page order (None: every matched page)."""
    by_layout: dict[str, list[int]] = {}
    for n in sorted(matched):
        by_layout.setdefault(matched[n].match.pattern.id, []).append(n)
    chosen: list[int] = []
    for ns in by_layout.values():
        if per_layout is None or len(ns) <= per_layout:
            chosen += ns
        elif per_layout == 1:
            chosen.append(ns[0])
        else:
            step = (len(ns) - 1) / (per_layout - 1)
            chosen += [ns[round(i * step)] for i in range(per_layout)]
    return sorted(chosen)


def _branch_names(el: etree._Element | None, stop: set[etree._Element],
                  pictures: set[etree._Element]) -> tuple[frozenset[str], bool]:
    """The hints of the element's own branch (below ``stop``) and whether an element of
    it holds a linked picture (is in ``pictures``)."""
    found: set[str] = set()
    pictured = False
    steps = 0
    while el is not None and el not in stop and steps < _MAX_BRANCH:
        found.update(element_hints(el))
        pictured = pictured or el in pictures
        el = el.getparent()
        steps += 1
    return frozenset(found), pictured


def page_evidence(site: SitePatterns, pages: Sequence[Page], matched: dict[int, _Matched],
                  region: bool = True, per_layout: int | None = EVIDENCE_PAGES) -> PageEvidence:
    """Region bodies (if ``region``) and branch names of a sample of the matched pages
    (:func:`evidence_sample`; each page's tree is parsed again if it was let go, and let
    go after)."""
    from ..single import extract_single  # numpy and the region models: only when needed

    ev = PageEvidence()
    bopts = site.block_options()
    for n in evidence_sample(matched, per_layout):
        m = matched[n]
        page = pages[n]
        was_parsed = page.parsed
        try:
            tree = page.tree
            if region:
                ev.region[n] = extract_single(page, "region").body  # (on ``tree``, the page's)
            pb, elements = block_elements(tree, bopts)
        except HTMLParseError:
            continue
        finally:
            if not was_parsed:
                page.forget_tree()
        if len(pb.blocks) != len(m.blocks.blocks):
            continue
        s = m.match.pattern.main_section
        core_i = m.match.blocks[s] if s is not None else None
        core_el = next((e for e in elements[core_i] if e is not None), None) if core_i is not None else None
        stop = set(core_el.iterancestors()) if core_el is not None else set()
        if core_el is not None:
            stop.add(core_el)
        pictures = picture_holders(tree)
        branches = [_branch_names(next((e for e in els if e is not None), None), stop, pictures) for els in elements]
        ev.names[n] = {i: names for i, (names, _) in enumerate(branches)}
        ev.pictured[n] = {i for i, (_, pic) in enumerate(branches) if pic}
    return ev


def unit_features(
    units: Sequence[SectionUnit],
    matched: dict[int, _Matched],
    evidence: PageEvidence | None = None,
) -> np.ndarray:
    """The feature rows of the units (:data:`SECTION_FEATURES`).

    ``evidence``: the region extractor's bodies and the blocks' branch names
    (:func:`page_evidence`); the features drawn from them are NaN (region) or 0
    (names) without it.
    """
    region_bodies = evidence.region if evidence is not None and evidence.region else None
    names = evidence.names if evidence is not None else {}
    X = np.zeros((len(units), len(SECTION_FEATURES)), dtype=np.float64)
    recurring = _recurring_lines(matched)
    listings = {n: teaser_blocks(m.blocks) for n, m in matched.items()}
    pattern_pages = Counter(id(m.match.pattern) for m in matched.values())
    # Per page, the block of its layout's largest section (the article's core).
    core: dict[int, LayoutBlock | None] = {}
    for n, m in matched.items():
        s = m.match.pattern.main_section
        b = m.match.blocks[s] if s is not None and s < len(m.match.blocks) else None
        core[n] = m.blocks.blocks[b] if b is not None else None
    refs = {n: TextReference(body) for n, body in region_bodies.items()} if region_bodies is not None else {}
    region_of_core: dict[int, float] = {}
    for n, b in core.items():
        if b is not None and n in refs:
            region_of_core[n] = refs[n].share(b.text)
    page_weight = {n: m.blocks.total_weight for n, m in matched.items()}
    for u, unit in enumerate(units):
        row = X[u]
        p = unit.pattern
        occ = unit.occurrences
        row[_COL[f"role_{unit.role}"]] = 1.0
        row[_COL["free"]] = float(unit.index is None)
        row[_COL["largest"]] = float(unit.index is not None and unit.index == p.main_section)
        weights = np.array([b.weight for _, b in occ], dtype=np.float64)
        plain = [b.plain_weight for _, b in occ]
        by_page: dict[int, list[LayoutBlock]] = {}
        for n, b in occ:
            by_page.setdefault(n, []).append(b)
        page_texts = ["\n".join(b.text for b in bl) for bl in by_page.values()]
        if unit.index is not None:
            sec = p.sections[unit.index]
            d, ms = sec.diff_score, sec.main_score
        else:
            d = diff_score(page_texts)
            ms = main_score(d, [sum(b.plain_weight for b in bl) for bl in by_page.values()])
        row[_COL["diff"]] = d
        row[_COL["main_score_log"]] = math.log1p(max(ms, 0.0))
        n_pages = max(pattern_pages[id(p)], 1)
        row[_COL["occurrence"]] = len(by_page) / n_pages
        per_page_w = np.array([sum(b.weight for b in bl) for bl in by_page.values()], dtype=np.float64)
        mean_w = float(per_page_w.mean()) if len(per_page_w) else 0.0
        row[_COL["log_weight"]] = math.log1p(mean_w)
        row[_COL["log_weight_max"]] = math.log1p(float(per_page_w.max()) if len(per_page_w) else 0.0)
        row[_COL["weight_cv"]] = float(per_page_w.std() / mean_w) if mean_w else 0.0
        core_w = [core[n].weight for n in by_page if core.get(n) is not None]
        row[_COL["weight_vs_largest"]] = mean_w / (sum(core_w) / len(core_w)) if core_w and sum(core_w) else np.nan
        total = float(weights.sum())
        row[_COL["link_density"]] = 1 - sum(plain) / total if total else 0.0
        row[_COL["comments"]] = sum(b.weight for _, b in occ if b.in_comments) / total if total else 0.0
        row[_COL["listing"]] = sum(b.weight for n, b in occ if b.index in listings[n]) / total if total else 0.0
        rec = tot = 0
        lines = punct = ends = 0
        for _, b in occ:
            for line in b.text.split("\n"):
                lines += 1
                if line.endswith(_SENTENCE_END):
                    ends += 1
                sig = significant(line)
                if len(sig) >= _SHARED_LINE:
                    tot += len(sig)
                    if recurring[sig] > 1:
                        rec += len(sig)
            punct += sum(map(b.text.count, _PUNCT))
        row[_COL["recurring"]] = rec / tot if tot else 0.0
        row[_COL["log_lines"]] = math.log1p(lines / max(len(occ), 1))
        row[_COL["log_line_weight"]] = math.log1p(total / max(lines, 1))
        row[_COL["punct"]] = 100.0 * punct / total if total else 0.0
        row[_COL["sentence_ends"]] = ends / lines if lines else 0.0
        # Where the unit stands against the largest section.
        steps = _steps(unit.path)
        largest_path = p.sections[p.main_section].path if p.main_section is not None else ""
        lsteps = _steps(largest_path)
        common = 0
        for a, b in zip(steps, lsteps):
            if a != b:
                break
            common += 1
        row[_COL["depth"]] = len(steps)
        row[_COL["common_steps"]] = common
        row[_COL["own_steps"]] = len(steps) - common
        row[_COL["largest_own_steps"]] = len(lsteps) - common
        row[_COL["same_path"]] = float(unit.path == largest_path)
        row[_COL["same_parent"]] = float(steps[:-1] == lsteps[:-1])
        before = gaps = counted = 0
        for n, b in occ:
            c = core.get(n)
            if c is None:
                continue
            counted += 1
            before += b.index < c.index
            gaps += abs(b.index - c.index)
        row[_COL["before_largest"]] = before / counted if counted else np.nan
        row[_COL["block_gap"]] = math.log1p(gaps / counted) if counted else np.nan
        row[_COL["log_pattern_pages"]] = math.log1p(p.pages)
        row[_COL["pattern_article"]] = float(p.article)
        page_total = [page_weight[k] for k in by_page if k in page_weight]
        row[_COL["pattern_share"]] = mean_w / (sum(page_total) / len(page_total)) if page_total and sum(page_total) else 0.0
        if region_bodies is not None:
            shares = [(b.weight, refs[n].share(b.text)) for n, b in occ if n in refs]
            w = sum(x for x, _ in shares)
            row[_COL["region_share"]] = sum(x * s for x, s in shares) / w if w else np.nan
            cs = [region_of_core[n] for n in by_page if n in region_of_core]
            row[_COL["largest_region_share"]] = sum(cs) / len(cs) if cs else np.nan
        else:
            row[_COL["region_share"]] = row[_COL["largest_region_share"]] = np.nan
        tag = occ[0][1].tag if occ else ""
        row[_COL[f"tag_{_TAG_OF.get(tag, 'other')}"]] = 1.0
        own: set[str] = set()
        for step in steps[common:]:
            for part in step.split(":")[1:]:
                own.update(hints(part.partition("=")[2]))
        shared_h: set[str] = set()
        for step in steps[:common]:
            for part in step.split(":")[1:]:
                shared_h.update(hints(part.partition("=")[2]))
        for h in own:
            row[_COL[f"own_{h}"]] = 1.0
        counts: Counter[str] = Counter()
        seen = 0
        for n, b in occ:
            found = names.get(n, {}).get(b.index)
            if found is not None:
                seen += 1
                counts.update(found)
        for h, c in counts.items():
            row[_COL[f"names_{h}"]] = c / seen
        for h in shared_h:
            row[_COL[f"shared_{h}"]] = 1.0
    return X


def unit_signals(units: Sequence[SectionUnit], matched: dict[int, _Matched],
                 evidence: PageEvidence | None = None) -> np.ndarray:
    """Per unit, the :data:`SIGNALS` (:mod:`newsstemmer.combine.boxes`): ``card``, the
    share of its occurrences on pages with evidence (``evidence.pictured``) that open
    with a wholly linked headline line in a branch holding a linked picture; ``bio``, the
    share of its occurrences after the article's core (the largest section's block) that
    open with a name a byline line between the headline and the core carries."""
    pictured = evidence.pictured if evidence is not None else {}
    out = np.zeros((len(units), len(SIGNALS)), dtype=np.float64)
    bylines: dict[int, list[list[str]]] = {}
    for u, unit in enumerate(units):
        occ = unit.occurrences
        if not occ:
            continue
        shown = [b.index in pictured[n] and opens_with_link(b) for n, b in occ if n in pictured]
        out[u, 0] = sum(shown) / len(shown) if shown else 0.0
        named = 0
        for n, b in occ:
            m = matched[n]
            p = m.match.pattern
            core = m.match.blocks[p.main_section] if p.main_section is not None else None
            name = lead_name(b) if core is not None and b.index > core else None
            if name is None:
                continue
            if n not in bylines:
                heads = [m.match.blocks[i] for i, sec in enumerate(p.sections) if sec.role == "title"]
                start = max((h + 1 for h in heads if h is not None and h < core), default=0)
                bylines[n] = byline_lines(m.blocks.blocks, start, core)
            named += carries(bylines[n], name)
        out[u, 1] = named / len(occ)
    return out


def unit_labels(units: Sequence[SectionUnit], golds: dict[int, str], static_free: bool = True) -> np.ndarray:
    """Per unit, the weighted share of its text (static lines removed) found in the gold
    of its pages: what the training labels are made of."""
    out = np.zeros(len(units), dtype=np.float64)
    for u, unit in enumerate(units):
        static = set(unit.pattern.static_lines) if static_free else set()
        num = den = 0.0
        for n, b in unit.occurrences:
            if n not in golds:
                continue
            text = "\n".join(line for line in b.text.split("\n") if line_digest(line) not in static)
            w = b.weight
            num += w * float(text_shares([text], golds[n])[0])
            den += w
        out[u] = num / den if den else np.nan
    return out


def decide_sections(units: Sequence[SectionUnit], main: np.ndarray) -> int:
    """Write a main / not-main decision per unit into the layouts' roles (title sections
    keep theirs).  A unit made main becomes MAIN; a main unit judged not main becomes
    SUB (varying text, not the article).  Returns how many roles changed."""
    changed = 0
    for unit, is_main in zip(units, main):
        if unit.role == "title":
            continue
        new = "main" if is_main else ("sub" if unit.role == "main" else unit.role)
        if new == unit.role:
            continue
        changed += 1
        if unit.index is not None:
            unit.pattern.sections[unit.index].role = new
        else:
            unit.pattern.free_paths[unit.path] = new
        unit.role = new
    return changed


def main_units(model: TreeModel, X: np.ndarray, signals: np.ndarray | None = None) -> np.ndarray:
    """Per unit (feature rows ``X``), whether it is main: the model's P against its
    threshold; in its ``demote`` mode (the shipped one) only for units the rules made
    MAIN (choice: letting it also promote units scored under the rules in CV, big9 0.971
    against 0.978).  With ``signals`` (:func:`unit_signals`), a MAIN unit other than the
    layout's largest section that is a story card on more than :data:`CARD_SHARE` of its
    pages, or a bio on more than :data:`BIO_SHARE`, is not main whatever the model says."""
    main = model.predict(X) >= float(model.info.get("threshold", 0.5))
    if model.info.get("mode", "demote") == "demote":
        main &= X[:, _COL["role_main"]] > 0
    if signals is not None and len(signals):
        boxed = (signals[:, 0] > CARD_SHARE) | (signals[:, 1] > BIO_SHARE)
        main &= ~(boxed & (X[:, _COL["largest"]] == 0))
    return main


def shared_section_model() -> TreeModel:
    """The process's section model (the shipped one, loaded on first use)."""
    return load_model("sections", SECTION_FEATURES)


def decide_site(site: SitePatterns, pages: Sequence[Page], model: TreeModel | None = None,
                evidence: PageEvidence | None = None) -> int:
    """Decide the roles of ``site``'s article layouts with the section model (default:
    the shipped one), from the pages they were learned on.  Returns how many roles
    changed; ``evidence``, if given, receives the page evidence gathered."""
    model = model or shared_section_model()
    units, matched = section_units(site, pages)
    if not units:
        return 0
    # The evidence of a sample of each layout's pages (the model is trained on every
    # page's: the same CV figures, see docs/history/notes-sessions-01-10.md).
    ev = page_evidence(site, pages, matched, region=bool(model.info.get("region", True)))
    if evidence is not None:
        evidence.region.update(ev.region)
        evidence.names.update(ev.names)
        evidence.pictured.update(ev.pictured)
    main = main_units(model, unit_features(units, matched, ev), unit_signals(units, matched, ev))
    changed = decide_sections(units, main)
    if changed:
        site.match_cache = None
    return changed
