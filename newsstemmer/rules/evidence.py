"""What tells content and headline apart on the training pages, beyond uniqueness:
the pages' own headline statements and the site's layout patterns.

Each training page comes as a :class:`~newsstemmer.page.Page` whose tree is the one
the rules are learned on; its layout blocks are cut once (:func:`blocks_of`) and
shared with layout learning when that has cut them already.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Sequence

from ..dom.parse import HTMLParseError
from ..dom.text import significant, weight
from ..layout.blocks import blocks_of
from ..layout.matching import block_roles, match_all
from ..layout.patterns import SitePatterns
from ..layout.scoring import dice
from ..page import Page
from .blocks import Block

__all__ = ["extracted_roles", "pattern_roles", "text_agreement", "title_block", "title_signals"]

_WORD = re.compile(r"\w+")
#: A line of fewer words must be a whole line of the extracted text to count as in it
#: (a short menu entry such as "Home" is found inside almost any article).
_SHORT_LINE = 4

#: Which role wins when layout blocks of several roles hold the same line.
_PRIORITY = {"title": 3, "main": 2, "sub": 1, "static": 0}


def title_signals(pages: Sequence[Page]) -> list[list[str]]:
    """Per page: linkinfo anchor texts and the page's own headline statements (og:title,
    ``<title>`` and its segments, h1), minus those several pages share (the site's name)."""
    own: list[list[str]] = []
    for page in pages:
        try:
            found = blocks_of(page).title_candidates()
        except HTMLParseError:
            found = []
        own.append([s for s in found if weight(s) >= 5])
    shared = Counter(s for found in own for s in set(found))
    return [
        [a for a in page.anchor_texts if weight(a) >= 5] + [s for s in found if shared[s] == 1]
        for page, found in zip(pages, own)
    ]


def title_block(
    signals: list[str],
    blocks: list[Block],
    content: list[bool],
    roles: list[str | None] | None,
    likeness: float,
    max_weight: int,
    pattern_first: bool = False,
) -> int | None:
    """The headline's block: the content block (at most ``max_weight``) most like the
    page's own headline statements (``signals``, Dice ``likeness`` at least); else the
    block of the layout's title section (first, with ``pattern_first``)."""
    marked = [j for j, r in enumerate(roles or ()) if r == "title" and content[j] and blocks[j].tag != "body"]
    if marked and pattern_first:
        return marked[0]
    best, best_score = None, 0.0
    weights = [weight(s) for s in signals]
    total = sum(weights) or 1
    for j, b in enumerate(blocks):
        if not content[j] or b.tag == "body" or not b.text or b.weight > max_weight:
            continue
        likes = [dice(b.text, s) for s in signals]
        if not likes or max(likes) < likeness:
            continue
        # Ranked by agreement with all the evidence, the longer statements counting
        # more (a section name matches one short <title> segment, the headline
        # matches the long ones).
        score = sum(like * w for like, w in zip(likes, weights)) / total
        if score > best_score:
            best, best_score = j, score
    if best is None and marked:
        return marked[0]
    return best


def pattern_roles(
    pages: Sequence[Page], all_blocks: Sequence[Sequence[Block]], site: SitePatterns
) -> list[list[str | None] | None]:
    """Per page and block: the role (``title``/``main``/``sub``/``static``) the site's
    layout patterns give the block's text, or None per page if no article pattern
    applies to the page.

    Layout blocks (:mod:`newsstemmer.layout.blocks`) are cut differently (at ``br``,
    and merged by path), so blocks meet by text: each line of a layout block lends its
    role to the block holding that line; a block takes the role of most of its weight.
    """
    bopts = site.block_options()
    out: list[list[str | None] | None] = []
    for page, blocks in zip(pages, all_blocks):
        try:
            pb = blocks_of(page, bopts)
        except HTMLParseError:
            out.append(None)
            continue
        best = None
        for m in match_all(pb, site):
            if m.pattern.article and (best is None or m.coverage > best.coverage):
                best = m
        if best is None or best.coverage < 0.5:
            out.append(None)
            continue
        by_line: dict[str, tuple[str, str]] = {}
        by_path: dict[str, str] = {}
        for lb, role in zip(pb.blocks, block_roles(pb, best)):
            if role is None:
                continue
            if role == "main" or (role == "sub" and lb.path not in by_path):
                by_path[lb.path] = role
            for line in lb.text.split("\n"):
                sig = significant(line)
                if sig and _PRIORITY[role] > _PRIORITY.get(by_line.get(sig, ("", ""))[0], -1):
                    by_line[sig] = (role, lb.path)
        roles: list[str | None] = []
        for b in blocks:
            weights: Counter[str | None] = Counter()
            for line in b.lines:
                sig = significant(line)
                role, path = by_line.get(sig, (None, ""))
                # Text on a path that holds main text elsewhere on the page is main
                # text too (a layout learned from few pages misplaces sections).
                if role == "sub" and by_path.get(path) == "main":
                    role = "main"
                weights[role] += len(sig)
            roles.append(weights.most_common(1)[0][0] if weights else None)
        out.append(roles)
    return out


def _words(text: str) -> str:
    return " ".join(_WORD.findall(text.lower()))


def extracted_roles(blocks: Sequence[Block], body: str, share: float = 0.5) -> list[str | None]:
    """Per block: ``main`` if an extractor's body text (``body``, one paragraph a line)
    holds most of the block's text, else None.

    The extractor read the page with its own parse and cut it its own way, so blocks
    meet its text by words: each line of a block is looked for in the body as a run of
    whole words (lines of fewer than 4 words only as a whole line of the body); the
    block is ``main`` when the lines found hold at least ``share`` of its weight.
    """
    lines = [_words(x) for x in body.split("\n")]
    whole = {x for x in lines if x}
    joined = " " + " ".join(x for x in lines if x) + " "
    out: list[str | None] = []
    for b in blocks:
        if not b.weight or not whole:
            out.append(None)
            continue
        found = 0
        for line in b.lines:
            w = _words(line)
            if not w:
                continue
            hit = w in whole if w.count(" ") + 1 < _SHORT_LINE else f" {w} " in joined
            if hit:
                found += weight(line)
        out.append("main" if found >= share * b.weight else None)
    return out


def _shingles(text: str, n: int = 4) -> Counter[tuple[str, ...]]:
    words = _WORD.findall(text.lower())
    if len(words) < n:
        return Counter([tuple(words)]) if words else Counter()
    return Counter(tuple(words[i : i + n]) for i in range(len(words) - n + 1))


def text_agreement(text: str, reference: str) -> float:
    """How well ``text`` reproduces ``reference``: the F1 of their word 4-grams (both
    empty: 1; one empty: 0)."""
    a, b = _shingles(text), _shingles(reference)
    if not a or not b:
        return float(not a and not b)
    common = sum((a & b).values())
    if not common:
        return 0.0
    p, r = common / sum(a.values()), common / sum(b.values())
    return 2 * p * r / (p + r)
