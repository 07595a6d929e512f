"""Learning a site's layout patterns from its pages, without labels (SPEC §2.3–2.5).

``learn(pages)`` clusters the pages by layout, aligns the pages of each cluster
to their common block-path sequence, scores every section (DiffScore,
MainScore), chooses the title section by a vote over the pages, gives every
section a role, and scores the pattern.  The result is a :class:`SitePatterns`.
"""

from __future__ import annotations

import datetime as _dt
import logging
from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Callable, Iterable, Sequence
from urllib.parse import urlsplit

from .alignment import PathCodes, align, common_subsequence
from .blocks import BlockOptions, LayoutBlock, PageBlocks, blocks_of, layout_weight, line_digest
from ..dom.parse import HTMLParseError
from ..dom.text import significant, weight
from .clustering import LayoutSequence, cluster_layouts
from ..page import Page
from .patterns import LayoutPattern, LayoutSection, SitePatterns
from .scoring import dice, diff_score, main_score, pattern_score, run_score, static_need

__all__ = ["LayoutLearnOptions", "PageGrouper", "learn", "site_of", "teaser_blocks"]

log = logging.getLogger(__name__)

Progress = Callable[[str, int, int], None]
#: Splits the readable pages of a site into groups (lists of indices into the sequence it is
#: given, every index once); layouts are clustered within each group only.
PageGrouper = Callable[[Sequence[Page]], Sequence[Sequence[int]]]


@dataclass(frozen=True)
class LayoutLearnOptions:
    """Every threshold of learning; defaults from SPEC §2."""

    cluster_threshold: float = 0.97  # -t: Sim above which pages share a layout
    # Lower similarities at which pages left alone may still join a layout (choice:
    # at 0.97 alone, 30-60% of the pages of real sites stayed unmatched).
    relaxed_cluster_thresholds: tuple[float, ...] = (0.9, 0.8, 0.7, 0.6)
    diff_threshold: float = 0.5  # -T: DiffScore below which a section is static
    main_threshold: float = 50.0  # -M: MainScore a section needs to be main text
    title_threshold: float = 0.6  # title score a section needs (with anchor texts)
    fallback_title_threshold: float = 1.0  # title score without anchor texts
    score_threshold: float = 100.0  # LayoutPatternScore below which a layout is not an article layout
    max_partners: int = 8  # pages each page is compared with for DiffScore
    # Two texts both this heavy are compared word by word in DiffScore (choice: as
    # characters, unrelated long bodies look alike); a huge value keeps characters.
    word_level_diff_from: int = 200
    # A section whose text lines recur on other pages of the site more than this
    # share (by weight) is a teaser/related box, not main text (choice, beyond the original).
    max_shared_text: float = 0.5
    shared_line_weight: int = 20  # lines shorter than this are not tested for recurrence
    max_link_density: float = 0.5  # main text is mostly not anchor text (choice, beyond the original)
    # Elements whose content HTML defines as tangential to the text around them: text
    # inside one (within a block's path) is never main text (choice, beyond the original:
    # an inline fact box seen on one page of a crawl's first round otherwise passes as
    # main by its path alone; on the datasets 448 of 458 <aside> elements of >= 5 words
    # hold no article text).
    tangential_tags: tuple[str, ...] = ("aside",)
    # Elements holding a picture and its caption, referred to from the text: their text
    # is not main where the layout's main text is mostly outside them (an article's photo
    # captions), and stays main where it is not (a photo gallery, whose captions are its
    # story).  On the datasets 283 of 349 <figure> elements of >= 5 words are not in the
    # gold (chaos 175 of 183, dragnet 54 of 54; readability's gold keeps captions: 54 of 112).
    caption_tags: tuple[str, ...] = ("figure", "figcaption")
    max_caption_share: float = 0.5  # of the layout's main MainScore, above which captions stay main
    static_line_share: float = 0.5  # a line on this share of a layout's pages (and >= 3 of them) is boilerplate
    min_main_share: float = 0.05  # share of a layout's varying text that must be main text for an article layout
    # Teaser text (summaries after linked headlines, again and again, that other pages of the
    # site print too) above this multiple of a layout's main text makes it no article layout:
    # a listing whose introduction (an author's bio, a tag's description) varies per page
    # (choice, beyond the original).
    max_teaser_ratio: float = 1.0
    min_cluster_pages: int = 2  # smaller clusters give no pattern
    blocks: BlockOptions = field(default_factory=BlockOptions)

    def as_dict(self) -> dict[str, object]:
        """JSON-ready settings (tuples as lists, so a saved file loads back equal)."""
        d = asdict(self)
        d["relaxed_cluster_thresholds"] = list(self.relaxed_cluster_thresholds)
        d["tangential_tags"] = list(self.tangential_tags)
        d["caption_tags"] = list(self.caption_tags)
        return d


def site_of(url: str | None) -> str:
    """The site key of a URL: host name without ``www.``, plus the port if not the default.

    Two servers on one host but different ports are different sites
    (``127.0.0.1:8765``); ``http://example.com:80/`` is ``example.com``.
    """
    if not url:
        return "unknown"
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    if host.startswith("www."):
        host = host[4:]
    if not host:
        return "unknown"
    try:
        port = parts.port
    except ValueError:
        port = None
    if port is not None and port != {"http": 80, "https": 443}.get(parts.scheme.lower()):
        return f"{host}:{port}"
    return host


@dataclass
class _Member:
    page: Page
    blocks: PageBlocks
    codes: list[int]
    teasers: set[int] = field(default_factory=set)  # indices of teaser blocks


def learn(
    pages: Iterable[Page],
    options: LayoutLearnOptions | None = None,
    site: str | None = None,
    progress: Progress | None = None,
    grouper: PageGrouper | None = None,
) -> SitePatterns:
    """Learn the layout patterns of one site from its pages.

    Pages that cannot be parsed are skipped with a warning (they are listed in
    no pattern).  ``progress(stage, done, total)`` is called as work advances.
    ``grouper``, given the readable pages, splits them into groups whose layouts
    are clustered apart (``newsstemmer.learn`` with ``LearnOptions(pregroup=True)``
    supplies the template grouping).
    """
    opts = options or LayoutLearnOptions()
    codes = PathCodes()
    members: list[_Member] = []
    page_list = list(pages)
    for n, page in enumerate(page_list, 1):
        was_parsed = page.parsed
        try:
            pb = blocks_of(page, opts.blocks)
        except HTMLParseError as exc:
            log.warning("%s: skipped: %s", page.name, exc)
        else:
            if not was_parsed:
                page.forget_tree()  # a site's worth of trees would not fit in memory
            members.append(_Member(page, pb, codes.encode([b.path for b in pb.blocks]), teaser_blocks(pb)))
        if progress:
            progress("reading", n, len(page_list))
    # Visit pages in URL order so that pages of one directory meet early (as the original).
    order = sorted(range(len(members)), key=lambda i: members[i].page.url or members[i].page.name)
    # Reader comments are not layout: a long thread must not set a page apart.
    seqs = [LayoutSequence(m.codes, [layout_weight(b) for b in m.blocks.blocks]) for m in members]
    parts = _groups(members, grouper) if grouper is not None else [list(range(len(members)))]
    clusters = []
    for part in parts:
        inside = set(part)
        clusters += cluster_layouts(
            seqs,
            opts.cluster_threshold,
            [i for i in order if i in inside],
            opts.relaxed_cluster_thresholds,
            opts.min_cluster_pages,
        )
    if progress:
        progress("clustering", len(members), len(members))
    shared = _line_page_counts(members, opts)
    patterns: list[LayoutPattern] = []
    for k, cluster in enumerate(sorted(clusters, key=len, reverse=True)):
        if len(cluster) >= opts.min_cluster_pages:
            pattern = _learn_pattern([members[i] for i in cluster], codes, opts, shared)
            if pattern is not None:
                patterns.append(pattern)
        if progress:
            progress("scoring", k + 1, len(clusters))
    patterns.sort(key=lambda p: p.score, reverse=True)
    for i, p in enumerate(patterns):
        p.id = f"p{i}"
    site_key = site or _majority_site(members)
    return SitePatterns(
        site=site_key,
        patterns=patterns,
        settings=opts.as_dict(),
        pages=[m.page.url or m.page.name for m in members],
        created=_dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat(),
    )


def _groups(members: Sequence[_Member], grouper: PageGrouper) -> list[list[int]]:
    """The grouper's groups of the readable pages, checked to hold every page once."""
    groups = [list(g) for g in grouper([m.page for m in members])]
    if sorted(i for g in groups for i in g) != list(range(len(members))):
        raise ValueError("the grouper must return every page index exactly once")
    return groups


def _majority_site(members: Sequence[_Member]) -> str:
    sites = Counter(site_of(m.page.url) for m in members if m.page.url)
    return sites.most_common(1)[0][0] if sites else "unknown"


def _line_page_counts(members: Sequence[_Member], opts: LayoutLearnOptions) -> Counter[str]:
    """For every text line of the site's pages: on how many pages it occurs."""
    counts: Counter[str] = Counter()
    for m in members:
        lines = set()
        for b in m.blocks.blocks:
            for line in b.text.split("\n"):
                sig = significant(line)
                if len(sig) >= opts.shared_line_weight:
                    lines.add(sig)
        counts.update(lines)
    return counts


def _shared_share(blocks: Iterable, shared: Counter[str], opts: LayoutLearnOptions) -> float:
    """Share (by weight) of the blocks' long lines that also occur on another page."""
    total = recurring = 0
    for b in blocks:
        for line in b.text.split("\n"):
            sig = significant(line)
            if len(sig) >= opts.shared_line_weight:
                total += len(sig)
                if shared[sig] > 1:
                    recurring += len(sig)
    return recurring / total if total else 0.0


def teaser_blocks(page: PageBlocks, min_repeats: int = 3) -> set[int]:
    """Blocks that follow a headline link in a repeated (link, text) pattern: listings.

    Index pages, related-story boxes and "more from" lists pair a linked headline with
    a short plain summary, again and again; article paragraphs do not.
    """
    blocks = page.blocks
    pairs: Counter[tuple[str, str]] = Counter()
    found: list[tuple[int, tuple[str, str]]] = []
    for i in range(1, len(blocks)):
        prev, b = blocks[i - 1], blocks[i]
        if prev.plain_weight * 5 <= prev.weight and b.plain_weight * 2 >= b.weight:
            key = (prev.path, b.path)
            pairs[key] += 1
            found.append((i, key))
    return {i for i, key in found if pairs[key] >= min_repeats}


def _teaser_share(items: Iterable[tuple[_Member, LayoutBlock]]) -> float:
    """Share of the blocks' weight that is teaser text."""
    total = teaser = 0
    for m, b in items:
        total += b.weight
        if b.index in m.teasers:
            teaser += b.weight
    return teaser / total if total else 0.0


def _comment_share(blocks: Sequence) -> float:
    """Share of the blocks' weight that lies inside reader-comment threads."""
    total = sum(b.weight for b in blocks)
    return sum(b.weight for b in blocks if b.in_comments) / total if total else 0.0


def _path_inside(path: str, tags: frozenset[str]) -> bool:
    """Whether one of ``tags`` is among the steps of a block path."""
    return any(step.partition(":")[0] in tags for step in path.split("/"))


def _tangential_share(blocks: Sequence, tags: frozenset[str]) -> float:
    """Share of the blocks' weight inside a tangential element (one of ``tags`` among the
    steps of the block's path)."""
    total = sum(b.weight for b in blocks)
    inside = sum(b.weight for b in blocks if _path_inside(b.path, tags))
    return inside / total if total else 0.0


def _link_density(blocks: Sequence) -> float:
    """Share of the blocks' weight that is anchor text."""
    total = sum(b.weight for b in blocks)
    return 1 - sum(b.plain_weight for b in blocks) / total if total else 0.0


def _learn_pattern(
    members: list[_Member], codes: PathCodes, opts: LayoutLearnOptions, shared: Counter[str]
) -> LayoutPattern | None:
    common = members[0].codes
    for m in members[1:]:
        common = common_subsequence(common, m.codes)
    if not common:
        return None
    n_sec = len(common)
    # texts[s][p]: the block of page p aligned to section s
    aligned: list[list] = [[None] * len(members) for _ in range(n_sec)]
    for p, m in enumerate(members):
        for s, b in align(common, m.codes):
            aligned[s][p] = m.blocks.blocks[b]
    diffs, mains, shares, links, listings, captions, comments = [], [], [], [], [], [], []
    tangential = frozenset(opts.tangential_tags)
    caption_tags = frozenset(opts.caption_tags)
    for s in range(n_sec):
        blocks = [b for b in aligned[s] if b is not None]
        d = diff_score([b.text for b in blocks], opts.max_partners, opts.word_level_diff_from)
        diffs.append(d)
        mains.append(main_score(d, [b.plain_weight for b in blocks]))
        shares.append(_shared_share(blocks, shared, opts))
        listings.append(_teaser_share((members[p], b) for p, b in enumerate(aligned[s]) if b is not None) > 0.5)
        aside = _tangential_share(blocks, tangential)
        captions.append(_tangential_share(blocks, caption_tags) > 0.5)
        comments.append(_comment_share(blocks) > 0.5)
        links.append(max(_link_density(blocks), 1.0 if comments[s] or aside > 0.5 else 0.0))
    largest = max(range(n_sec), key=lambda s: mains[s])
    title = _choose_title(members, aligned, diffs, largest, opts)
    paths = _paths_by_code(codes)
    start = title + 1 if title is not None else 0
    # Sections repeating one path (gallery captions, paragraphs split by photos) are
    # one kind of text: their MainScores pool (choice, beyond the original).
    diff_of, pooled = _pool_by_path(common, diffs, mains, opts)

    def role_of(s: int, link_share: float) -> str:
        if s == title:
            return "title"
        if (
            diff_of[s] >= opts.diff_threshold
            and (pooled[common[s]] >= opts.main_threshold or s == largest)
            and s >= start
            and not _is_head_title(aligned[s])  # the <title> element names the page, it is no body text
            and shares[s] <= opts.max_shared_text
            and link_share <= opts.max_link_density
        ):
            return "main"
        return "sub" if diff_of[s] >= opts.diff_threshold else "static"

    roles = [role_of(s, 1.0 if listings[s] else links[s]) for s in range(n_sec)]
    # Text after a linked headline, again and again, is a listing's summaries -- unless
    # its path is that of a main section which is no such text: then it is the article's
    # paragraphs after inline related-story links ("[Read more: ...]"), one kind of text.
    body_codes = {common[s] for s in range(n_sec) if roles[s] == "main" and not listings[s]}
    for s in range(n_sec):
        if listings[s] and common[s] in body_codes:
            roles[s] = role_of(s, links[s])
    main_paths = {paths[common[s]] for s in range(n_sec) if roles[s] == "main"}
    free_paths, free_mains = _free_path_roles(members, aligned, opts, shared, main_paths)
    _demote_captions(roles, captions, mains, free_paths, free_mains, caption_tags, opts.max_caption_share)
    sections = [
        LayoutSection(paths[common[s]], round(diffs[s], 4), round(mains[s], 2), roles[s], round(shares[s], 4))
        for s in range(n_sec)
    ]
    varying = [mains[s] for s in range(n_sec) if diffs[s] >= opts.diff_threshold] + list(free_mains.values())
    kept = [mains[s] for s in range(n_sec) if sections[s].role == "main"] + [
        v for path, v in free_mains.items() if free_paths.get(path) == "main"
    ]
    score = pattern_score(len(members), varying)
    # An index layout varies a lot, but in teasers, links and boxes: little of its
    # varying text is main text (choice, beyond the original's score threshold).
    main_share = sum(kept) / sum(varying) if sum(varying) else 0.0
    # Teasers: summaries after linked headlines, again and again, which other pages of the
    # site print too (a reader's comment after a linked name is no teaser).
    teasers = sum(mains[s] for s in range(n_sec)
                  if listings[s] and not comments[s] and shares[s] > opts.max_shared_text and roles[s] != "main")
    return LayoutPattern(
        id="",
        score=round(score, 2),
        pages=len(members),
        sections=sections,
        title_section=title,
        main_section=largest,
        article=(score >= opts.score_threshold and main_share >= opts.min_main_share
                 and teasers <= opts.max_teaser_ratio * sum(kept)),
        sample_urls=[m.page.url or m.page.name for m in members[:5]],
        free_paths=free_paths,
        static_lines=_static_lines(members, opts),
    )


def _demote_captions(
    roles: list[str],
    captions: list[bool],
    mains: list[float],
    free_paths: dict[str, str],
    free_mains: dict[str, float],
    tags: frozenset[str],
    max_share: float,
) -> None:
    """MAIN sections and free paths inside picture captions (``captions``: per section;
    a free path by its steps) become SUB, unless they hold ``max_share`` or more of the
    layout's main MainScore (then the captions are the story: a photo gallery)."""
    in_tags = {p for p, r in free_paths.items() if r == "main" and _path_inside(p, tags)}
    total = sum(m for r, m in zip(roles, mains) if r == "main") + sum(
        free_mains.get(p, 0.0) for p, r in free_paths.items() if r == "main"
    )
    inside = sum(m for r, c, m in zip(roles, captions, mains) if r == "main" and c) + sum(
        free_mains.get(p, 0.0) for p in in_tags
    )
    if not inside or inside >= max_share * total:
        return
    for s, (r, c) in enumerate(zip(roles, captions)):
        if r == "main" and c:
            roles[s] = "sub"
    for p in in_tags:
        free_paths[p] = "sub"


def _static_lines(members: list[_Member], opts: LayoutLearnOptions) -> list[str]:
    """Digests of text lines that most pages of the cluster carry (copyright notices,
    "Advertisement", fixed captions): boilerplate even inside a varying section."""
    counts: Counter[str] = Counter()
    for m in members:
        counts.update({line_digest(line) for b in m.blocks.blocks for line in b.text.split("\n") if weight(line)})
    need = static_need(len(members), opts.static_line_share)
    return sorted(d for d, c in counts.items() if c >= need)


def _pool_by_path(
    codes: list[int], diffs: list[float], mains: list[float], opts: LayoutLearnOptions
) -> tuple[list[float], dict[int, float]]:
    """DiffScore and summed MainScore per path, for sections that repeat a path.

    A section alone on its path keeps its own DiffScore; a repeated one takes the mean
    of its path when that is higher (short captions drawn from one vocabulary look
    alike by chance), never a lower one: a static tagline and an article paragraph may
    share a path, and the paragraph must stay varying.
    The pooled MainScore is the best of the path's varying sections (a sum would let
    many tiny repeated lines, such as bylines of teaser cards, pass as main text).
    """
    by_path: dict[int, list[int]] = {}
    for s, c in enumerate(codes):
        by_path.setdefault(c, []).append(s)
    diff_of = list(diffs)
    pooled: dict[int, float] = {}
    for c, secs in by_path.items():
        if len(secs) > 1:
            mean = sum(diffs[s] for s in secs) / len(secs)
            for s in secs:
                diff_of[s] = max(diffs[s], mean)
        pooled[c] = max((mains[s] for s in secs if diff_of[s] >= opts.diff_threshold), default=0.0)
    return diff_of, pooled


def _free_path_roles(
    members: list[_Member],
    aligned: list[list],
    opts: LayoutLearnOptions,
    shared: Counter[str],
    main_paths: frozenset[str] | set[str] = frozenset(),
) -> tuple[dict[str, str], dict[str, float]]:
    """Role of each path among the blocks that aligned to no section, judged per path.

    A path that some MAIN section of the layout has (``main_paths``) holds the same kind
    of text, as repeated sections of one path do (:func:`_pool_by_path`): the article's
    paragraphs that an inline box (a related link, a photo) pushed out of alignment.
    Its free blocks are main unless they are link-dense, comments, tangential or text
    recurring on other pages; neither their own MainScore nor the listing test applies
    (a paragraph run after each of several inline related links looks like a listing's
    summaries).

    Returns the roles and the MainScore of each varying path (they count in the
    pattern's score like sections do).
    """
    used = [set() for _ in members]
    for row in aligned:
        for p, b in enumerate(row):
            if b is not None:
                used[p].add(b.index)
    per_path: dict[str, dict[int, list]] = {}
    for p, m in enumerate(members):
        for b in m.blocks.blocks:
            if b.index not in used[p]:
                per_path.setdefault(b.path, {}).setdefault(p, []).append(b)
    roles: dict[str, str] = {}
    mains: dict[str, float] = {}
    tangential = frozenset(opts.tangential_tags)
    for path, by_page in per_path.items():
        texts = ["\n".join(b.text for b in bl) for bl in by_page.values()]
        plain = [sum(b.plain_weight for b in bl) for bl in by_page.values()]
        d = diff_score(texts, opts.max_partners, opts.word_level_diff_from)
        ms = main_score(d, plain)
        if d >= opts.diff_threshold:
            mains[path] = ms * len(by_page) / len(members)
        all_blocks = [b for bl in by_page.values() for b in bl]
        recurring = _shared_share(all_blocks, shared, opts)
        of_main = path in main_paths
        if (
            d >= opts.diff_threshold
            and (of_main or ms >= opts.main_threshold)
            and recurring <= opts.max_shared_text
            and _link_density(all_blocks) <= opts.max_link_density
            and _comment_share(all_blocks) <= 0.5
            and _tangential_share(all_blocks, tangential) <= 0.5
            and (of_main or _teaser_share((members[p], b) for p, bl in by_page.items() for b in bl) <= 0.5)
        ):
            roles[path] = "main"
        elif d >= opts.diff_threshold:
            roles[path] = "sub"
        else:
            roles[path] = "static"
    return roles, mains


def _paths_by_code(codes: PathCodes) -> dict[int, str]:
    return {c: p for p, c in codes._codes.items()}


def _choose_title(
    members: list[_Member], aligned: list[list], diffs: list[float], largest: int, opts: LayoutLearnOptions
) -> int | None:
    """Vote, page by page, for the section before the main text that best matches the headline.

    Evidence, strongest first: anchor texts of links to the page, then the page's own
    headline statements (og:title, <title>, h1).  Without any, the original's fallback:
    the section sharing the longest runs with the main text.
    """
    candidates = [s for s in range(largest) if diffs[s] > 0 and not _is_head_title(aligned[s])]
    if not candidates:
        # The main text lies on free paths and the "largest" section is the first one:
        # any varying section may then hold the headline.
        candidates = [s for s in range(len(aligned)) if diffs[s] > 0 and not _is_head_title(aligned[s])]
    if not candidates:
        return None
    # A <title> or h1 that every page shares names the site, not the article.
    seen = Counter(t for m in members for t in set(m.blocks.title_candidates()))
    constant = {t for t, c in seen.items() if c > 1 and c >= len(members) / 2}
    votes: Counter[int] = Counter()
    for p, m in enumerate(members):
        signals = list(m.page.anchor_texts) + [t for t in m.blocks.title_candidates() if t not in constant]
        best, best_score = None, 0.0
        for s in candidates:
            block = aligned[s][p]
            if block is None:
                continue
            if signals:
                # The threshold applies to the likeness itself and DiffScore only
                # tempers the ranking (choice: two different headlines share ~40% of
                # their characters, so a true title's DiffScore may be low, and a
                # shortened headline elsewhere, e.g. a breadcrumb, must not win).
                likes = [dice(block.text, t) for t in signals]
                like = max(likes)
                # Rank by agreement with all the evidence, not the best single piece:
                # a shortened headline (breadcrumb) matches one short anchor exactly,
                # the real headline matches most anchors and the page's own title.
                sc = sum(likes) / len(likes) * (0.5 + 0.5 * diffs[s])
                ok = like >= opts.title_threshold and sc > best_score
            else:
                main = aligned[largest][p]
                sc = run_score(block.text, main.text if main else "") * diffs[s]
                ok = sc > opts.fallback_title_threshold and sc > best_score
            if ok:
                best, best_score = s, sc
        if best is not None:
            votes[best] += 1
    if not votes:
        return None
    return votes.most_common(1)[0][0]


def _is_head_title(blocks: list) -> bool:
    b = next((x for x in blocks if x is not None), None)
    return b is not None and b.tag == "title"
