"""The paragraph region: a safety net for near-empty bodies (issue 23).

When the learned steps return a body with almost nothing in it (a standfirst, a heading,
a form) while the page holds a long run of paragraphs, the article is that run: the
element that best gathers the page's paragraph text (text of ``<p>`` elements that are
not mostly links) against its other text.  Reader comments are never that run, however
long.  Nothing here reads a word of the page's language.

It works on the arrays DOM PageRank already has, and only looks at the paragraphs of
pages whose body is short (fewer than :data:`BODY_CAP` word characters).
"""

from __future__ import annotations

import re

import numpy as np

from ..domgraph import float_array, int_array
from ..pagerank import CLEAN_TAGS, PageRankAnalysis
from ..signals.page_signals import IN_COMMENTS, IN_SIDEBAR, role_of

__all__ = ["BODY_CAP", "BODY_SHARE", "REGION_MIN", "RUN_MIN", "near_empty_alternative", "paragraph_region"]

#: The body is replaced only when it has fewer word characters than this (about 250 words) ...
BODY_CAP = 1500
#: ... and less than this share of the paragraph region's ...
BODY_SHARE = 0.25
#: ... and the region holds at least this many (a page with an article).
REGION_MIN = 600
#: A paragraph counts when it has this many word characters and less than half in links.
PARAGRAPH_MIN = 30
#: Under a sidebar-named element the region must be a run of at least this many counted
#: paragraphs: one long paragraph there is a blurb (a blog's profile text), while a run
#: is an article whatever the names say (page builders name every block a widget).
RUN_MIN = 2
#: The region's other text (not in counted paragraphs) weighs this much against it.
OTHER_WEIGHT = 0.5
_WORD = re.compile(r"\w+")


def word_chars(text: str, cap: int = 0) -> int:
    """Word characters of ``text`` (what DOM PageRank counts).  With ``cap``, a text whose
    first ``4 * cap`` characters hold ``cap`` of them gives their count there (a long
    body is not read to its end)."""
    if cap:
        head = text[: 4 * cap]  # (word characters are rarely under a quarter of the text)
        found = sum(map(len, _WORD.findall(head)))
        if found >= cap or len(head) == len(text):
            return found
    return sum(map(len, _WORD.findall(text)))


def paragraph_region(an: PageRankAnalysis) -> tuple[int, int, int]:
    """(node, paragraph word characters, counted paragraphs) of the element maximising
    its paragraph text minus :data:`OTHER_WEIGHT` times its other text; (-1, 0, 0)
    without paragraphs."""
    graph = an.scores.graph
    elements, roles = graph.elements, graph.roles
    chars = float_array(an.chars)
    links = float_array(an.link_chars)
    size = int_array(an.size)
    n = len(elements)
    value = np.zeros(n)
    for i, el in enumerate(elements):
        if el is None:
            continue
        if roles[i] & IN_COMMENTS:  # (a comment-role element's subtree is a thread)
            value[i : i + size[i]] = -1.0
        elif el.tag == "p" and value[i] == 0 and chars[i] >= PARAGRAPH_MIN and links[i] < 0.5 * chars[i]:
            value[i] = chars[i] - links[i]
    value[value < 0] = 0.0
    if not value.any():
        return -1, 0, 0
    cum = np.zeros(n + 1)
    np.cumsum(value, out=cum[1:])
    idx = np.arange(n)
    inside = cum[idx + size] - cum[idx]
    score = inside - OTHER_WEIGHT * (chars - inside)
    score[np.fromiter((el is None for el in elements), dtype=bool, count=n)] = -np.inf
    best = int(np.argmax(score))
    return best, int(inside[best]), int(np.count_nonzero(value[best : best + size[best]]))


def link_dense(an: PageRankAnalysis, node: int) -> list[int]:
    """The containers inside ``node`` holding mostly links (menus, link lists)."""
    elements, chars, links = an.scores.graph.elements, an.chars, an.link_chars
    return [i for i in range(node + 1, node + an.size[node])
            if elements[i] is not None and elements[i].tag in CLEAN_TAGS and chars[i]
            and links[i] > 0.5 * chars[i]]


def _in_sidebar(el) -> bool:
    """Whether ``el`` or an element above it is named as a sidebar or widget."""
    return any(role_of(a.tag, a.items()) & IN_SIDEBAR for a in (el, *el.iterancestors()))


def near_empty_alternative(an: PageRankAnalysis, body_chars: int) -> tuple[int, list[int]] | None:
    """The paragraph region (node, nodes to leave out) to return instead of a body of
    ``body_chars`` word characters, or None when the body is not near-empty beside it."""
    if body_chars >= BODY_CAP:
        return None
    node, inside, run = paragraph_region(an)
    if node < 0 or inside < REGION_MIN or body_chars >= BODY_SHARE * inside:
        return None
    if run < RUN_MIN and _in_sidebar(an.scores.graph.elements[node]):
        return None
    return node, link_dense(an, node)
