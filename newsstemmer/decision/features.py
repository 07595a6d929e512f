"""Features of a page's layout blocks for the learned block decision (issue #12).

The unit of decision is the layout block (:class:`~newsstemmer.layout.blocks.LayoutBlock`),
the same unit the layout engine aligns and the CSS rules select, so one set of features
serves the learned layouts, the single-page fallback and the rules.  A row has three
parts:

* **block**: its weight, link density, lines, punctuation, tag, the role hints of the
  ``id``/``class`` names on its path (own step and ancestors apart), whether it lies in a
  reader-comment thread, its position and its neighbours;
* **page**: where the block stands against the page's heaviest block (same path, same
  parent, distance), the weight of its container (blocks sharing its parent path), how
  much of it DOM PageRank (SPEC §4) puts in the article, how much it resembles the
  headline;
* **layout**: the role, DiffScore, MainScore and shared share of the section the block
  aligns to, the match's coverage, whether the layout is an article layout, the share of
  the block's lines the layout carries on most pages.  ``NaN`` when no layout applies
  (a single page): the model learns what missing layout evidence means.

Everything here is a pure function of the page and its layout match; no model.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..dom.text import weight
from ..layout.blocks import LayoutBlock, PageBlocks, line_digest
from ..layout.patterns import LayoutPattern
from ..single.crf.hints import HINTS, hints
from ..single.page_signals import dice, terms

if TYPE_CHECKING:
    from ..single.pagerank import PageRankAnalysis

__all__ = ["FEATURE_NAMES", "LayoutEvidence", "block_features", "word_shingles"]

_HINT_NAMES = tuple(name for name, _ in HINTS)
_TAGS = ("p", "h", "li", "td", "div", "other")
_TAG_OF = {"p": "p", "li": "li", "dd": "li", "dt": "li", "td": "td", "th": "td", "tr": "td"}
_TAG_OF.update((f"h{i}", "h") for i in range(1, 7))
_TAG_OF.update((t, "div") for t in ("div", "section", "article", "main", "blockquote", "center"))
_ROLES = ("title", "main", "sub", "static", "none")
_WORD = re.compile(r"\w+")
_SENTENCE_END = tuple(".!?\u3002\uff01\uff1f\"'\u201d\u2019)")
_PUNCT = tuple(".,;:!?\u3002\u3001\uff0c\uff01\uff1f")
_DIGITS = re.compile(r"\d")

FEATURE_NAMES: tuple[str, ...] = (
    # block
    "log_weight",
    "link_density",
    "log_lines",
    "log_line_weight",
    "punct_density",
    "sentence_end_share",
    "digit_share",
    "upper_start_share",
    *(f"tag_{t}" for t in _TAGS),
    *(f"own_{h}" for h in _HINT_NAMES),
    *(f"anc_{h}" for h in _HINT_NAMES),
    "in_comments",
    "position",
    "weight_before",
    "page_share",
    "max_share",
    "prev_log_weight",
    "prev_link_density",
    "next_log_weight",
    "next_link_density",
    # page
    "same_path_as_top",
    "same_parent_as_top",
    "distance_to_top",
    "after_top",
    "container_share",
    "path_share",
    "pagerank_share",
    "pagerank_page_share",
    "headline_dice",
    "log_page_weight",
    "log_blocks",
    # page: DOM PageRank's tree evidence at the block's element and its ancestors
    "pr_in_main",
    "pr_in_core",
    "pr_left_out",
    "pr_g",
    "pr_f",
    "el_share",
    "el_links",
    *(f"anc{k}_{what}" for k in (1, 2, 3) for what in ("share", "links", "g")),
    # layout
    *(f"role_{r}" for r in _ROLES),
    "diff_score",
    "main_score",
    "shared",
    "coverage",
    "article_layout",
    "static_line_share",
    "main_neighbour",
)
_N = len(FEATURE_NAMES)
_COL = {name: i for i, name in enumerate(FEATURE_NAMES)}
#: Columns of the layout part (``NaN`` for a page no layout covers).
LAYOUT_COLUMNS = tuple(range(_COL["role_title"], _N))


@dataclass
class LayoutEvidence:
    """What a matched layout says of a page's blocks (see :func:`block_features`)."""

    pattern: LayoutPattern
    coverage: float
    roles: list[str | None]  # per block (``layout.matching.block_roles``)
    sections: list[int | None]  # per block: index of the section it aligns to, if any


def word_shingles(text: str, n: int = 3) -> set[tuple[str, ...]]:
    """Lower-cased word ``n``-grams of a text (a shorter text is one n-gram)."""
    words = _WORD.findall(text.lower())
    if len(words) < n:
        return {tuple(words)} if words else set()
    return {tuple(words[i : i + n]) for i in range(len(words) - n + 1)}


def _parent(path: str) -> str:
    return path.rpartition("/")[0]


def _step_hints(step: str) -> set[str]:
    """Role hints of the id/class values of one path step (``tag:id=..:class=..``)."""
    found: set[str] = set()
    for part in step.split(":")[1:]:
        found.update(hints(part.partition("=")[2]))
    return found


_PATH_HINTS: dict[str, tuple[set[str], set[str]]] = {}


def _path_hints(path: str) -> tuple[set[str], set[str]]:
    """(own hints, ancestors' hints) of a block path; memoised (paths recur)."""
    found = _PATH_HINTS.get(path)
    if found is None:
        if len(_PATH_HINTS) > 50_000:
            _PATH_HINTS.clear()
        steps = path.split("/") if path else []
        own = _step_hints(steps[-1]) if steps else set()
        anc: set[str] = set()
        for step in steps[:-1]:
            anc |= _step_hints(step)
        found = _PATH_HINTS[path] = (own, anc)
    return found


def _text_stats(block: LayoutBlock) -> tuple[float, float, float, float, float, float]:
    """log lines, log weight per line, punctuation per 100 word characters, share of
    lines ending a sentence, digit share, share of lines starting upper-case."""
    lines = block.text.split("\n")
    n = len(lines)
    w = max(block.weight, 1)
    text = block.text
    punct = sum(map(text.count, _PUNCT))
    ends = sum(1 for line in lines if line.endswith(_SENTENCE_END))
    upper = sum(1 for line in lines if line[:1].isupper())
    digits = len(_DIGITS.findall(text))
    return math.log1p(n), math.log1p(w / n), 100.0 * punct / w, ends / n, digits / w, upper / n


def block_features(
    pb: PageBlocks,
    headline: str = "",
    pagerank_text: str | None = None,
    layout: LayoutEvidence | None = None,
    elements: Sequence[Sequence[object]] | None = None,
    analysis: "PageRankAnalysis | None" = None,
) -> np.ndarray:
    """One row of :data:`FEATURE_NAMES` per block of ``pb`` (``float32``).

    ``headline`` is the page's headline (for likeness to it); ``pagerank_text`` the
    body DOM PageRank extracted (None: PageRank features are ``NaN``); ``layout`` the
    matched layout's evidence (None: layout features are ``NaN``); ``elements`` the
    block elements of each block (:func:`~newsstemmer.layout.blocks.block_elements`)
    and ``analysis`` DOM PageRank's scores of the same tree, for the tree features.
    """
    blocks = pb.blocks
    n = len(blocks)
    X = np.full((n, _N), np.nan, dtype=np.float32)
    if not n:
        return X
    weights = [b.weight for b in blocks]
    total = max(sum(weights), 1)
    top = max(range(n), key=weights.__getitem__)
    top_path = blocks[top].path
    top_parent = _parent(top_path)
    max_w = max(weights[top], 1)
    by_parent: dict[str, int] = {}
    by_path: dict[str, int] = {}
    for b in blocks:
        p = _parent(b.path)
        by_parent[p] = by_parent.get(p, 0) + b.weight
        by_path[b.path] = by_path.get(b.path, 0) + b.weight
    head_terms = terms(headline) if headline else set()
    pr_shingles: set[tuple[str, ...]] | None = None
    if pagerank_text is not None:
        pr_shingles = word_shingles(pagerank_text)
        pr_weight = weight(pagerank_text)
    density = [1.0 - b.plain_weight / b.weight if b.weight else 0.0 for b in blocks]
    logw = [math.log1p(w) for w in weights]
    col = _COL
    before = 0
    hint_cols = [(col[f"own_{h}"], col[f"anc_{h}"], h) for h in _HINT_NAMES]
    for i, b in enumerate(blocks):
        row = X[i]
        row[col["log_weight"]] = logw[i]
        row[col["link_density"]] = density[i]
        stats = _text_stats(b)
        row[col["log_lines"] : col["upper_start_share"] + 1] = stats
        row[col["tag_p"] : col["tag_other"] + 1] = 0.0
        row[col["tag_" + _TAG_OF.get(b.tag, "other")]] = 1.0
        own, anc = _path_hints(b.path)
        for c_own, c_anc, h in hint_cols:
            row[c_own] = h in own
            row[c_anc] = h in anc
        row[col["in_comments"]] = b.in_comments
        row[col["position"]] = i / n
        row[col["weight_before"]] = before / total
        before += b.weight
        row[col["page_share"]] = b.weight / total
        row[col["max_share"]] = b.weight / max_w
        row[col["prev_log_weight"]] = logw[i - 1] if i else 0.0
        row[col["prev_link_density"]] = density[i - 1] if i else 0.0
        row[col["next_log_weight"]] = logw[i + 1] if i + 1 < n else 0.0
        row[col["next_link_density"]] = density[i + 1] if i + 1 < n else 0.0
        parent = _parent(b.path)
        row[col["same_path_as_top"]] = b.path == top_path
        row[col["same_parent_as_top"]] = parent == top_parent
        row[col["distance_to_top"]] = abs(i - top) / n
        row[col["after_top"]] = (i > top) - (i < top)
        row[col["container_share"]] = by_parent[parent] / total
        row[col["path_share"]] = by_path[b.path] / total
        if pr_shingles is not None:
            mine = word_shingles(b.text)
            row[col["pagerank_share"]] = len(mine & pr_shingles) / len(mine) if mine else 0.0
            row[col["pagerank_page_share"]] = pr_weight / total
        row[col["headline_dice"]] = dice(terms(b.text), head_terms) if head_terms and b.weight < 400 else 0.0
    row_page = (math.log1p(total), math.log1p(n))
    X[:, col["log_page_weight"]] = row_page[0]
    X[:, col["log_blocks"]] = row_page[1]
    if elements is not None and analysis is not None:
        _tree_features(X, elements, analysis)
    if layout is not None:
        _layout_features(X, blocks, layout)
    return X


def _tree_features(X: np.ndarray, elements: Sequence[Sequence[object]], an: "PageRankAnalysis") -> None:
    """Fill the DOM PageRank tree columns from each block's first block element."""
    col = _COL
    node_of = an.node_of()
    graph = an.scores.graph
    parent, g, f = graph.parent, an.scores.g, an.scores.f
    chars, links, size = an.chars, an.link_chars, an.size
    total = max(chars[0], 1) if chars else 1
    max_g = max(max(g), 1e-9) if g else 1.0
    max_f = max(max(f), 1e-9) if f else 1.0
    main, core = an.main, an.scores.core
    skip_nodes = {node_of[el] for el in an.skip if el in node_of}
    X[:, col["pr_in_main"] : col["anc3_g"] + 1] = 0.0
    for i, els in enumerate(elements):
        el = next((e for e in els if e is not None), None)
        node = node_of.get(el) if el is not None else None
        if node is None:
            continue
        row = X[i]
        in_main = main >= 0 and main <= node < main + size[main]
        row[col["pr_in_main"]] = in_main
        row[col["pr_in_core"]] = core <= node < core + size[core]
        if in_main and skip_nodes:
            a = node
            while a not in skip_nodes and a != main:
                a = parent[a]
            row[col["pr_left_out"]] = a in skip_nodes
        row[col["pr_g"]] = g[node] / max_g
        row[col["pr_f"]] = f[node] / max_f
        row[col["el_share"]] = chars[node] / total
        row[col["el_links"]] = links[node] / chars[node] if chars[node] else 0.0
        a = node
        for k in (1, 2, 3):
            a = parent[a] if a > 0 else a
            row[col[f"anc{k}_share"]] = chars[a] / total
            row[col[f"anc{k}_links"]] = links[a] / chars[a] if chars[a] else 0.0
            row[col[f"anc{k}_g"]] = g[a] / max_g


def _layout_features(X: np.ndarray, blocks: Sequence[LayoutBlock], ev: LayoutEvidence) -> None:
    """Fill the layout columns from a matched layout's evidence."""
    col = _COL
    p = ev.pattern
    static = set(p.static_lines)
    mains = {i for i, r in enumerate(ev.roles) if r == "main"}
    X[:, col["role_title"] : col["role_none"] + 1] = 0.0
    X[:, col["coverage"]] = ev.coverage
    X[:, col["article_layout"]] = p.article
    for i, (b, role, sec) in enumerate(zip(blocks, ev.roles, ev.sections)):
        row = X[i]
        row[col["role_" + (role or "none")]] = 1.0
        if sec is not None:
            s = p.sections[sec]
            row[col["diff_score"]] = s.diff_score
            row[col["main_score"]] = s.main_score
            row[col["shared"]] = s.shared
        if static:
            lines = b.text.split("\n")
            row[col["static_line_share"]] = sum(line_digest(line) in static for line in lines) / len(lines)
        else:
            row[col["static_line_share"]] = 0.0
        row[col["main_neighbour"]] = (i - 1 in mains) + (i + 1 in mains) if mains else 0.0


CONTEXT_NAMES: tuple[str, ...] = (
    "p",
    "p_prev",
    "p_next",
    "p_window",
    "p_container",
    "p_path",
    "page_p_share",
    "page_p_max",
    "inside_span",
    "gap_to_sure",
)


def block_groups(pb: PageBlocks) -> tuple[np.ndarray, np.ndarray]:
    """Per block, an id of its parent path and of its path (blocks sharing a container)."""
    parents: dict[str, int] = {}
    paths: dict[str, int] = {}
    par = np.fromiter((parents.setdefault(_parent(b.path), len(parents)) for b in pb.blocks), np.int32, len(pb.blocks))
    own = np.fromiter((paths.setdefault(b.path, len(paths)) for b in pb.blocks), np.int32, len(pb.blocks))
    return par, own


def context_features(X: np.ndarray, p: np.ndarray, parents: np.ndarray, paths: np.ndarray) -> np.ndarray:
    """Rows of :data:`CONTEXT_NAMES`: a first decision ``p`` seen from each block's
    surroundings (neighbours, container, path, the page), for a second decision that
    makes the page's choice coherent (stacking)."""
    n = len(p)
    C = np.zeros((n, len(CONTEXT_NAMES)), dtype=np.float32)
    if not n:
        return C
    w = np.expm1(X[:, _COL["log_weight"]]).astype(np.float64) + 1.0
    wp = w * p
    C[:, 0] = p
    C[1:, 1] = p[:-1]
    C[:-1, 2] = p[1:]
    cw = np.concatenate(([0.0], np.cumsum(w)))
    cwp = np.concatenate(([0.0], np.cumsum(wp)))
    lo = np.maximum(np.arange(n) - 3, 0)
    hi = np.minimum(np.arange(n) + 4, n)
    C[:, 3] = (cwp[hi] - cwp[lo]) / (cw[hi] - cw[lo])
    for col, ids in ((4, parents), (5, paths)):
        sw = np.bincount(ids, weights=w)
        swp = np.bincount(ids, weights=wp)
        C[:, col] = (swp / sw)[ids]
    C[:, 6] = wp.sum() / w.sum()
    C[:, 7] = p.max()
    sure = np.flatnonzero(p >= 0.5)
    if sure.size:
        idx = np.arange(n)
        C[:, 8] = (idx >= sure[0]) & (idx <= sure[-1])
        pos = np.searchsorted(sure, idx)
        left = np.abs(idx - sure[np.clip(pos - 1, 0, sure.size - 1)])
        right = np.abs(sure[np.clip(pos, 0, sure.size - 1)] - idx)
        C[:, 9] = np.minimum(left, right) / n
    else:
        C[:, 9] = 1.0
    return C
