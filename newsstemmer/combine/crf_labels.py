"""Training data for the CRF from learned layouts (SPEC §5).

The CRF (:mod:`newsstemmer.single.crf`) learns from labelled pages; newsstemmer
labels the pages its learned layout patterns match instead of asking for
labels by hand.  That combines two methods, the layout engine and the CRF, so
it lives here, above both (like :mod:`newsstemmer.combine.extract`): the methods never
import each other.
"""

from __future__ import annotations

from collections.abc import Iterable

from rapidfuzz.distance import LCSseq

from .extract import extract_with_patterns
from ..layout.blocks import blocks_of, line_digest
from ..layout.matching import block_roles, match_pattern
from ..layout.patterns import SitePatterns
from ..page import Page
from ..single.crf import DEFAULT_SPLIT_TAGS, TrainingPage, segment
from ..single.crf.words import TOKEN

__all__ = ["pattern_labels"]


def pattern_labels(
    page: Page,
    site: SitePatterns,
    split_tags: Iterable[str] = DEFAULT_SPLIT_TAGS,
    parent_share: float = 0.8,
) -> TrainingPage | None:
    """Label a page's blocks with the site's learned patterns; None if no article layout fits.

    The layout blocks in MAIN and TITLE sections (minus the lines the layout
    repeats on most pages) are content, all others are not.  The two views of the
    page cut it differently, so they are matched by their words: both list the
    page's words in document order, and their longest common subsequence carries
    each layout block's label to the words of the CRF blocks.  A text block is
    content if most of its matched words are; a parent block if ``parent_share``
    of the matched words below it are.
    """
    article = extract_with_patterns(page, site)
    if not article.matched or not article.is_article or not article.body:
        return None
    pattern = next((p for p in site.patterns if p.id == article.pattern), None)
    if pattern is None:
        return None
    pb = blocks_of(page, site.block_options())
    roles = block_roles(pb, match_pattern(pb, pattern))
    static = set(pattern.static_lines)
    layout_words: list[str] = []
    layout_content: list[bool] = []
    for block, role in zip(pb.blocks, roles):
        if block.tag == "title":  # the <title> in <head>: no CRF block holds it
            continue
        for line in block.text.split("\n"):
            is_content = role in ("main", "title") and line_digest(line) not in static
            words = TOKEN.findall(line.lower())
            layout_words.extend(words)
            layout_content.extend([is_content] * len(words))
    cp = segment(page.tree, split_tags)  # (the tree the layouts read too)
    crf_words: list[str] = []
    crf_block: list[int] = []
    for b, text in cp.lines:
        words = TOKEN.findall(text.lower())
        crf_words.extend(words)
        crf_block.extend([b] * len(words))
    n = len(cp.blocks)
    matched = [0] * n
    content = [0] * n
    for m in LCSseq.opcodes(layout_words, crf_words).as_matching_blocks():
        for k in range(m.size):
            b = crf_block[m.b + k]
            size = len(crf_words[m.b + k])
            matched[b] += size
            if layout_content[m.a + k]:
                content[b] += size
    text_labels = [matched[i] > 0 and 2 * content[i] >= matched[i] for i in cp.text_blocks]
    sub_matched, sub_content = list(matched), list(content)
    for b in reversed(cp.blocks):
        if b.parent >= 0:
            sub_matched[b.parent] += sub_matched[b.index]
            sub_content[b.parent] += sub_content[b.index]
    parent_labels = [
        sub_matched[i] > 0 and sub_content[i] >= parent_share * sub_matched[i] for i in cp.parent_blocks
    ]
    return TrainingPage(cp, text_labels, parent_labels, page.source or page.url)
