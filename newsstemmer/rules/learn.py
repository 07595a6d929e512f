"""Learning a site's rules from a few of its pages (ExtractUniqueBlock, SPEC §6):
content blocks, candidate rules from their nearest identifiers, the precision filter,
the greedy check, and the ranked title rules."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, Iterable, Sequence

from lxml import etree

from ..dom.parse import HTMLParseError
from ..layout.patterns import SitePatterns
from ..page import Page
from .apply import apply_rules, has_content
from .blocks import Block, body_of, page_blocks, parse_page
from .evidence import extracted_roles, pattern_roles, text_agreement, title_block, title_signals
from .selectors import (
    adapted_identifiers,
    id_tokens,
    is_identifier,
    is_stable_identifier,
    nearest_identifiers,
    path_selector,
    rule_for,
    selectors_xpath,
    stable_classes,
)
from .ruleset import Rule, RuleSet

__all__ = ["CONTENT_MODES", "RuleOptions", "learn_rules", "learn_ruleset"]

#: What content on the training pages can be (``RuleOptions.content``).
CONTENT_MODES = ("auto", "unique", "extracted", "both")

# Attributes whose values browsers compare without case in HTML documents (HTML
# standard, "case-sensitivity of selectors"); lxml compares them with case.
_CASELESS_ATTRIBUTES = frozenset(
    "accept accept-charset align alink axis bgcolor charset checked clear codetype color compact "
    "declare defer dir direction disabled enctype face frame hreflang http-equiv lang language link "
    "media method multiple nohref noresize noshade nowrap readonly rel rev rules scope scrolling "
    "selected shape target text type valign valuetype vlink".split()
)


@dataclass(frozen=True)
class RuleOptions:
    """Settings of rule learning (defaults measured on the development sets; see
    :mod:`newsstemmer.rules`).  ``benchmarks/rules.py`` shows the paper's method as the
    options that turn every addition off."""

    # The precision filter, per candidate rule on the training pages:
    min_precision: float = 0.9  # share of the text weight it matches that must be content
    min_block_precision: float = 0.5  # share of the text blocks it matches that must be content
    # ... except for rules without identifier ("td"), judged by weight alone: a table
    # layout's article is often one cell of loose text among many small menu cells.
    bare_block_precision: float = 0.0
    max_link_density: float = 0.5  # share of its content that may be anchor text
    min_support: float = 0.0  # share of the pages on which it must find content (always ≥ 1 page)
    min_weight: int = 15  # content weight (word characters) per training page it must find
    greedy: bool = True  # it must also be precise in what it adds to the rules before it
    # The greedy check's order: "precision" (most precise rules first) or "weight" (the
    # rules finding the most content first: a container before its parts).
    greedy_order: str = "precision"
    # Candidates:
    bare_rules: bool = True  # the template E (no identifier) gives rules
    loose_rules: bool = True  # text directly under a block element that holds blocks gives rules
    class_rules: bool = True  # a block's own class, unique or not, gives a rule ("E.class")
    path_rules: bool = True  # blocks of MAIN/TITLE layout sections give path rules ("div.x > p")
    # The element holding all of a page's content blocks gives rules too (its own
    # identifier, template, class and path), when content is an extractor's choice.
    container_rules: bool = True
    strict_descendant: bool = False  # the paper's "#id * E" instead of "#id E"
    # Attributes whose values also serve as identifiers, after id and class (none of
    # these may be one browsers compare without case; measured: no gain).
    attributes: tuple[str, ...] = ()
    # Content:
    per_page: bool = False  # content = on no other page, even if twice on its own
    skip_comments: bool = True  # reader-comment threads are not content
    use_patterns: bool = True  # use the layout patterns given to learn_rules
    pattern_exclude: tuple[str, ...] = ("sub", "static")  # layout roles that are not content
    # What content is on the training pages when an extractor's texts are given
    # (``learn_rules(extracted=...)``): "unique" (the paper's test alone, the texts
    # unused), "extracted" (the blocks the extractor kept), "both" (kept and unique),
    # "auto" (the rules of "extracted", without the layouts' roles, or of "unique",
    # with them, whichever reproduces the extractor's text on the pages better).
    content: str = "auto"
    extracted_share: float = 0.5  # share of a block's weight the extractor must keep
    # "auto"'s ways of learning, as (content, with the layouts' roles, greedy order).
    # (Adding ("extracted", False, "weight"), and judging on left-out pages, raised the
    # dev figures with the shipped region models, not the cross-validated ones.)
    auto_variants: tuple[tuple[str, bool, str], ...] = (
        ("extracted", False, "precision"),
        ("unique", True, "precision"),
    )
    auto_holdout: bool = False  # "auto" judges rules on pages they were not learned from
    # Title:
    title_likeness: float = 0.6  # Dice likeness to a headline statement a title block needs
    max_title_weight: int = 400  # longer blocks are not headlines
    pattern_title_first: bool = False  # the layout's title section before the page's own statements


@dataclass
class _Training:
    """One training page as learning sees it."""

    root: etree._Element
    blocks: list[Block]
    content: list[bool]  # per block: counted as content
    title: int | None  # index of the headline block
    by_element: dict[etree._Element, list[int]]


def learn_rules(
    pages: Sequence[Page] | Sequence[str],
    patterns: SitePatterns | None = None,
    options: RuleOptions | None = None,
    extracted: Sequence[str | None] | None = None,
) -> dict[str, Any]:
    """Learn a site's rules from ≥ 2 of its pages; return the ``extras["rules"]`` dict.

    ``pages`` are :class:`~newsstemmer.page.Page` objects (their anchor texts help to
    find the headline) or HTML strings.  ``patterns``, the site's layout patterns if
    known, tell main text and headline apart from other varying text.  Every page is
    read as parsel parses its HTML (the tree the rules will be applied to).  Pages that
    cannot be parsed are skipped; fewer than 2 readable pages raise ``ValueError``.
    """
    return learn_ruleset(pages, patterns, options).to_dict()


def _training_pages(pages: Sequence[Page] | Sequence[str]) -> list[tuple[int, Page]]:
    """The readable pages, each holding parsel's parse of its HTML as its tree.

    Rules are learned on the tree they will be applied to: parsel's (Scrapy's
    ``response.css``), not :attr:`Page.tree`.  The two differ where it matters to
    selectors: libxml2 as parsel runs it stops at an early ``</body></html>``, which
    ``parse_html`` reads past, and deep nesting is not capped.  (Learning on
    :attr:`Page.tree` was measured: the same rules on all but one site, but the
    paper's method lost F1 on big9-05, .752 → .750.)  A :class:`Page` given is not
    changed: its copy carries the parsel tree, and the layout blocks cut from it.
    """
    kept: list[tuple[int, Page]] = []
    for i, p in enumerate(pages):
        html = p.html if isinstance(p, Page) else p
        try:
            root = parse_page(html)
        except HTMLParseError:
            continue
        if isinstance(p, Page):
            kept.append((i, Page(p.html, p.url, list(p.anchor_texts), p.source).with_tree(root)))
        else:
            kept.append((i, Page(html=html).with_tree(root)))
    return kept


def learn_ruleset(
    pages: Sequence[Page] | Sequence[str],
    patterns: SitePatterns | None = None,
    options: RuleOptions | None = None,
    extracted: Sequence[str | None] | None = None,
) -> RuleSet:
    """:func:`learn_rules`, returning the :class:`RuleSet` itself."""
    opts = options or RuleOptions()
    bad = [a for a in opts.attributes if a.lower() in _CASELESS_ATTRIBUTES or not is_identifier(a)]
    if bad:
        raise ValueError(f"attributes {bad} cannot serve as identifiers (browsers compare their values without case)")
    if opts.content not in CONTENT_MODES:
        raise ValueError(f"content must be one of {', '.join(CONTENT_MODES)}, not {opts.content!r}")
    if opts.greedy_order not in ("precision", "weight"):
        raise ValueError(f"greedy_order must be precision or weight, not {opts.greedy_order!r}")
    bad_ways = [v for v in opts.auto_variants if v[0] not in CONTENT_MODES[1:] or v[2] not in ("precision", "weight")]
    if bad_ways or not opts.auto_variants:
        raise ValueError(f"auto_variants must be (content, layouts, greedy order) ways of learning, got {bad_ways or '()'}")
    if extracted is not None and len(extracted) != len(pages):
        raise ValueError(f"{len(extracted)} extracted texts for {len(pages)} pages")
    readable = _training_pages(pages)
    kept = [page for _, page in readable]
    if len(kept) < 2:
        raise ValueError(f"rules need at least 2 readable pages of the site, got {len(kept)}")
    texts = [extracted[i] for i, _ in readable] if extracted is not None else None
    if texts is not None and not any(t for t in texts):
        texts = None  # the extractor found nothing: uniqueness alone
    roots = [page.tree for page in kept]
    all_blocks = [page_blocks(r) for r in roots]
    roles = pattern_roles(kept, all_blocks, patterns) if (patterns is not None and opts.use_patterns) else None
    site = _Site(kept, roots, all_blocks, roles, title_signals(kept))
    if texts is None or opts.content == "unique":
        return _learn(site, None, roles is not None, opts)
    chosen = [
        extracted_roles(blocks, text, opts.extracted_share) if text else None
        for blocks, text in zip(all_blocks, texts)
    ]
    if opts.content != "auto":
        return _learn(site, chosen, roles is not None and opts.content == "both", opts, opts.content)
    return _learn_auto(site, chosen, texts, opts)


def _learn_auto(
    site: "_Site", chosen: list[list[str | None] | None], texts: list[str | None], opts: RuleOptions
) -> RuleSet:
    """Beyond the paper: of the ways of learning in ``opts.auto_variants`` (rules from
    the extractor's blocks, from unique blocks with the layouts' evidence, ...), the one
    whose rules best reproduce the extractor's text on pages they were not learned
    from (each page left out in turn: the rules of the others applied to it), learned
    from every page.  Ties go to the earlier variant; variants giving no body rule
    come last.  With 2 pages, or ``auto_holdout=False``, the rules are judged on the
    pages they were learned from."""
    n = len(site.roots)
    holdout = opts.auto_holdout and n >= 3
    best: tuple[tuple[bool, float], int] | None = None
    learned: dict[int, RuleSet] = {}
    for v, (content, use_roles, order) in enumerate(opts.auto_variants):
        vopts = replace(opts, greedy_order=order)
        picked = chosen if content != "unique" else None
        use = use_roles and site.roles is not None
        full = learned[v] = _learn(site, picked, use, vopts, content)
        if holdout:
            agree = 0.0
            for k in range(n):
                keep = [i for i in range(n) if i != k]
                rules = _learn(site.subset(keep), [picked[i] for i in keep] if picked else None, use, vopts, content)
                agree += text_agreement(_body_text(site.roots[k], rules), texts[k] or "")
        else:
            agree = sum(text_agreement(_body_text(r, full), t or "") for r, t in zip(site.roots, texts))
        key = (bool(full.body), agree / n)
        if best is None or key > best[0]:
            best = (key, v)
    assert best is not None
    return learned[best[1]]


@dataclass
class _Site:
    """What every way of learning a site's rules shares: its readable pages, their
    trees and blocks, the layouts' roles and the headline statements."""

    pages: list[Page]
    roots: list[etree._Element]
    blocks: list[list[Block]]
    roles: list[list[str | None] | None] | None
    signals: list[list[str]]

    def subset(self, keep: Sequence[int]) -> "_Site":
        """The same site seen through some of its pages."""
        return _Site(
            [self.pages[i] for i in keep],
            [self.roots[i] for i in keep],
            [self.blocks[i] for i in keep],
            [self.roles[i] for i in keep] if self.roles is not None else None,
            [self.signals[i] for i in keep],
        )


def _body_text(root: etree._Element, rules: RuleSet) -> str:
    """The body the rules give on a page (title left out)."""
    return apply_rules(root, rules)[1] if rules.body else ""


def _learn(
    site: _Site,
    chosen: list[list[str | None] | None] | None,
    use_roles: bool,
    opts: RuleOptions,
    content_mode: str = "unique",
) -> RuleSet:
    """The rules from one definition of content: ``chosen`` per page and block (an
    extractor's choice, :func:`extracted_roles`) with ``content_mode`` "extracted" or
    "both", else the unique blocks; the layouts' roles if ``use_roles``."""
    all_blocks = site.blocks
    roles = site.roles if use_roles else None
    if opts.per_page:
        counts: Counter[str] = Counter(k for blocks in all_blocks for k in {b.key for b in blocks})
    else:
        counts = Counter(b.key for blocks in all_blocks for b in blocks)
    # The headline may repeat on its own page (print title, breadcrumb): for it,
    # "on no other page" is enough.
    on_pages: Counter[str] = Counter(k for blocks in all_blocks for k in {b.key for b in blocks})
    training: list[_Training] = []
    for i, (root, blocks) in enumerate(zip(site.roots, all_blocks)):
        picked = chosen[i] if chosen is not None else None
        content = []
        for j, b in enumerate(blocks):
            if picked is None:
                ok = counts[b.key] == 1
            elif content_mode == "extracted":
                ok = picked[j] == "main"
            else:
                ok = counts[b.key] == 1 and picked[j] == "main"
            ok = ok and not (opts.skip_comments and b.in_comments)
            if ok and roles is not None and roles[i] is not None:
                ok = roles[i][j] not in opts.pattern_exclude
            content.append(ok)
        by_el: dict[etree._Element, list[int]] = {}
        for j, b in enumerate(blocks):
            by_el.setdefault(b.element, []).append(j)
        unique = [on_pages[b.key] == 1 and not b.in_comments for b in blocks]
        title = title_block(
            site.signals[i], blocks, unique, roles[i] if roles else None,
            opts.title_likeness, opts.max_title_weight, opts.pattern_title_first,
        )
        if title is not None:
            content[title] = True
        training.append(_Training(root, blocks, content, title, by_el))
    body_cands, title_cands = _candidates(training, roles, opts)
    if opts.container_rules and chosen is not None:
        for sel, template in _container_candidates(training, opts).items():
            body_cands.setdefault(sel, template)
    title_rules = _rank_title_rules(title_cands, training, opts)
    title_els = [_first_title(t.root, title_rules) for t in training]
    body_rules = _filter_body_rules(body_cands, training, title_els, opts)
    method = "extract-unique-block" if chosen is None else f"extracted-blocks:{content_mode}"
    return RuleSet(title_rules, body_rules, pages=len(training), used_patterns=roles is not None, method=method)


def _candidates(
    training: list[_Training], roles: list[list[str | None] | None] | None, opts: RuleOptions
) -> tuple[dict[str, str], dict[str, str]]:
    """Candidate rules (selector -> template) from every content block of every page:
    for the body, and from the headline blocks for the title."""
    roots = [t.root for t in training]
    adapted = adapted_identifiers(roots, opts.attributes)
    stable = stable_classes(roots) if opts.class_rules else set()
    body_cands: dict[str, str] = {}
    title_cands: dict[str, str] = {}
    for i, t in enumerate(training):
        nearest = nearest_identifiers(t.root, adapted, opts.attributes)
        # body's own text is a block (it is compared), but "body" as a rule would select
        # the whole page: it is never kept.
        body = body_of(t.root)
        for j, b in enumerate(t.blocks):
            if not t.content[j] or b.element is body or not (b.leaf or opts.loose_rules):
                continue
            sel, template = rule_for(b.tag, nearest[b.element], opts.strict_descendant)
            target = title_cands if j == t.title else body_cands
            target.setdefault(sel, template)
            if opts.path_rules and roles is not None and roles[i] is not None and roles[i][j] in ("main", "title"):
                psel = path_selector(b.element)
                if psel:
                    target.setdefault(psel, "path")
            if opts.class_rules:
                # Beyond the paper: the block's own class, unique or not, if every
                # training page has it (``div.storybody`` survives a change of the
                # container's id that ``#template_bas > div`` does not).
                for kind, value in id_tokens(b.element):
                    if kind == "." and (kind, value.lower()) in stable and is_stable_identifier(value):
                        target.setdefault(f"{b.tag}.{value}", "E.class")
    return body_cands, title_cands


def _container_candidates(training: list[_Training], opts: RuleOptions) -> dict[str, str]:
    """Rules for the element that holds every content block of a page but the headline
    (the article's container), below ``body``."""
    roots = [t.root for t in training]
    adapted = adapted_identifiers(roots, opts.attributes)
    out: dict[str, str] = {}
    for t in training:
        els = [b.element for j, b in enumerate(t.blocks) if t.content[j] and j != t.title]
        if len(els) < 2:
            continue
        common = _common_ancestor(els)
        if common is None or common.tag in ("body", "html") or common is body_of(t.root):
            continue
        nearest = nearest_identifiers(t.root, adapted, opts.attributes)
        sel, template = rule_for(common.tag, nearest[common], opts.strict_descendant)
        if template != "E":
            out.setdefault(sel, template)
        psel = path_selector(common)
        if psel:
            out.setdefault(psel, "path")
    return out


def _common_ancestor(elements: Sequence[etree._Element]) -> etree._Element | None:
    """The deepest element holding all of ``elements`` (one of them, or an ancestor)."""
    chain = [elements[0], *elements[0].iterancestors()]
    depth = {id(el): i for i, el in enumerate(chain)}
    lowest = 0
    for el in elements[1:]:
        node: etree._Element | None = el
        while node is not None and id(node) not in depth:
            node = node.getparent()
        if node is None:
            return None
        lowest = max(lowest, depth[id(node)])
    return chain[lowest]


@lru_cache(maxsize=4096)
def _xpath_of(selector: str) -> etree.XPath:
    return etree.XPath(selectors_xpath([selector]))


def _matches(root: etree._Element, selector: str) -> list[etree._Element]:
    return list(_xpath_of(selector)(root))


def _outermost(elements: Sequence[etree._Element]) -> list[etree._Element]:
    """Matched elements without those inside another matched one (document order kept)."""
    chosen = set(elements)
    out = []
    for el in elements:
        if not any(a in chosen for a in el.iterancestors()):
            out.append(el)
    return out


def _covered(t: _Training, elements: Iterable[etree._Element], skip: etree._Element | None = None) -> list[int]:
    """Indices of the blocks inside the given elements (each once), minus ``skip``'s."""
    out: list[int] = []
    seen: set[int] = set()
    skipped = set(skip.iter()) if skip is not None else ()
    for el in elements:
        for sub in el.iter(etree.Element):
            if sub in skipped:
                continue
            for j in t.by_element.get(sub, ()):
                if j not in seen:
                    seen.add(j)
                    out.append(j)
    return out


def _filter_body_rules(
    cands: dict[str, str], training: list[_Training], title_els: list[etree._Element | None], opts: RuleOptions
) -> list[Rule]:
    """The precision filter: each candidate alone, then the survivors together."""
    n = len(training)
    passed: list[tuple[Rule, set[tuple[int, int]]]] = []
    for sel, template in cands.items():
        bare = template == "E"
        if bare and not opts.bare_rules:
            continue
        support = nblocks = content_w = total_w = link_w = nmatched = 0
        covered: set[tuple[int, int]] = set()
        for p, (t, tel) in enumerate(zip(training, title_els)):
            idx = _covered(t, _outermost(_matches(t.root, sel)), tel)
            found = False
            for j in idx:
                b = t.blocks[j]
                covered.add((p, j))
                total_w += b.weight
                nmatched += b.weight > 0
                if t.content[j]:
                    content_w += b.weight
                    link_w += b.link_weight
                    nblocks += b.weight > 0
                    found = True
            support += found
        if not nblocks:
            continue
        precision = content_w / total_w if total_w else 1.0
        links = link_w / content_w if content_w else 0.0
        block_precision = nblocks / nmatched if nmatched else 0.0
        if (
            precision >= opts.min_precision
            and block_precision >= (opts.bare_block_precision if bare else opts.min_block_precision)
            and links <= opts.max_link_density
            and support >= opts.min_support * n
            and content_w >= opts.min_weight * n
        ):
            passed.append((Rule(sel, template, support, nblocks, content_w, precision), covered))
    if opts.greedy:
        passed = _greedy(passed, training, opts)
    rules = [r for r, _ in passed]
    rules.sort(key=lambda r: (-r.weight, r.selector))
    return rules


def _greedy(
    passed: list[tuple[Rule, set[tuple[int, int]]]], training: list[_Training], opts: RuleOptions
) -> list[tuple[Rule, set[tuple[int, int]]]]:
    """Rules together: most precise first, a rule is kept if what it adds to the rules
    before it is precise enough too, or if it adds nothing (a second way to reach the
    same blocks, kept as it may survive a change of layout the first does not)."""
    n = len(training)
    taken: set[tuple[int, int]] = set()
    out = []
    if opts.greedy_order == "weight":
        order = sorted(passed, key=lambda rc: (-rc[0].weight, -rc[0].precision, rc[0].selector))
    else:
        order = sorted(passed, key=lambda rc: (-rc[0].precision, -rc[0].weight, rc[0].selector))
    for rule, covered in order:
        new = covered - taken
        total = sum(training[p].blocks[j].weight for p, j in new)
        content = sum(training[p].blocks[j].weight for p, j in new if training[p].content[j])
        if total == 0 or (content >= opts.min_precision * total and content >= opts.min_weight * n):
            out.append((rule, covered))
            taken |= covered
    return out


def _rank_title_rules(cands: dict[str, str], training: list[_Training], opts: RuleOptions) -> list[Rule]:
    """The (at most 3) title rules, ranked by the pages on which their first match
    is the headline block."""
    n = len(training)
    rules = []
    for sel, template in cands.items():
        hits = total = 0
        weight_hit = 0
        for t in training:
            matched = [el for el in _matches(t.root, sel) if has_content(el)]
            if not matched:
                continue
            total += 1
            first = matched[0]
            if t.title is not None and t.blocks[t.title].element is first:
                hits += 1
                weight_hit += t.blocks[t.title].weight
        if not hits or hits < opts.min_support * n:
            continue
        rules.append(Rule(sel, template, hits, hits, weight_hit, hits / total))
    rules.sort(key=lambda r: (-r.support, -r.precision, r.template == "path", len(r.selector)))
    return rules[:3]


def _first_title(root: etree._Element, rules: list[Rule]) -> etree._Element | None:
    for r in rules:
        for el in _matches(root, r.selector):
            if has_content(el):
                return el
    return None
