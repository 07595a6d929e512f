"""DOM PageRank + DensitySum (SPEC §4) on the CRF's block tree: the page's main block.

The CRF's features include each block's place relative to the main block this
finds (``pr=`` is, in, above or out).  It runs on the tree of the blocks, with
each line of text a leaf under its block: a coarse DOM of a few hundred nodes
instead of thousands, so it costs little.  The settings are those of
:class:`newsstemmer.single.pagerank.PageRankOptions` where they have a counterpart.
"""

from __future__ import annotations

from .segmentation import CRFBlock, CRFPage
from .words import EDGES, SHORT, TOKEN

__all__ = ["main_region", "solve_blocks"]

#: Settings of the PageRank over the block tree (:func:`main_region`), those of
#: ``PageRankOptions`` where they have a counterpart.
_PR_ALPHA, _PR_BETA, _PR_UNIT, _PR_LINK, _PR_SIDE = 5.0, 0.8, 100, 0.1, 0.3
_PR_HEADLINE, _PR_CLIMB, _PR_SKIP, _PR_CLIMB_LINKS = 0.5, 0.7, 0.1, 0.3


def solve_blocks(
    blocks: list[CRFBlock], u: list[float], leaves: list[int], leaf_u: list[float], alpha: float
) -> tuple[list[float], list[float]]:
    """``(I + αL) f = u`` on the block tree where block i also has ``leaves[i]`` leaf
    children (its lines) of total weight ``leaf_u[i]``: ``f`` of the blocks and
    DensitySum ``g`` (the sum of ``f`` over each block's children, lines included).

    The same elimination as :func:`newsstemmer.single.pagerank.solve_tree`, with the
    lines eliminated in closed form: a leaf j under block i has
    ``f_j = (u_j + α·f_i) / (1 + α)``, so only their count and total weight matter.
    """
    n = len(blocks)
    leaf_a = 1.0 / (1.0 + alpha)  # a leaf's f = leaf_a·u_j + leaf_b·f_parent
    leaf_b = alpha * leaf_a
    sum_a = [x * leaf_a for x in leaf_u]
    sum_b = [k * leaf_b for k in leaves]
    a = [0.0] * n
    b = [0.0] * n
    for blk in reversed(blocks):
        i = blk.index
        degree = len(blk.children) + leaves[i] + (blk.parent >= 0)
        d = 1.0 + alpha * (degree - sum_b[i])
        a[i] = (u[i] + alpha * sum_a[i]) / d
        b[i] = alpha / d
        if blk.parent >= 0:
            sum_a[blk.parent] += a[i]
            sum_b[blk.parent] += b[i]
    f = a  # the root keeps f = a; the others follow their parent
    for blk in blocks:
        if blk.parent >= 0:
            f[blk.index] = a[blk.index] + b[blk.index] * f[blk.parent]
    g = [leaf_a * leaf_u[i] + leaves[i] * leaf_b * f[i] for i in range(n)]
    for blk in blocks:
        if blk.parent >= 0:
            g[blk.parent] += f[blk.index]
    return f, g


def main_region(
    page: CRFPage, headline_block: int = -1, block_words: dict[int, set[str]] | None = None
) -> tuple[int, int]:
    """DOM PageRank + DensitySum (SPEC §4) on the page's block tree: ``(main, core)``.

    The tree is that of the blocks, with each line of text a leaf under its
    block (a coarse DOM, a few hundred nodes instead of thousands).  A line's
    initial weight grows with its length (a line stands for many DOM text nodes,
    so it is not capped) and with its block's likeness to the title and
    description (share of their words it holds; ``block_words`` are the blocks'
    words if the caller has them), and is cut for link text, reader comments and
    sidebars, as in :mod:`newsstemmer.single.pagerank`.  The core is the block whose
    children weigh most after spreading (DensitySum); the main block is the core
    widened to ancestors while it holds less than ``_PR_CLIMB`` of their initial
    weight.  (-1, -1) for a page without text.
    """
    blocks = page.blocks
    n = len(blocks)
    if not page.lines or not n:
        return -1, -1
    title_terms = set(TOKEN.findall((page.meta_title or page.title).lower()))
    desc_terms = set(TOKEN.findall(page.description.lower()))
    nt, nd = len(title_terms), len(desc_terms)
    u = [0.0] * n
    if 0 <= headline_block < n:
        u[headline_block] = _PR_HEADLINE
    factor = [1.0] * n
    for b in blocks:
        x = factor[b.parent] if b.parent >= 0 else 1.0
        hints = b.hints
        if hints and "comment" in hints:
            x = 0.0
        elif (hints and "sidebar" in hints) or b.tag == "aside" or b.tag == "nav":
            x = min(x, _PR_SIDE)
        factor[b.index] = x
    if nt or nd:
        for i in page.text_blocks:
            if factor[i]:
                if block_words is not None and i in block_words:
                    terms = block_words[i]
                else:
                    text = blocks[i].text
                    if blocks[i].weight > SHORT:  # (its edges, as block_features searches it)
                        text = text[:EDGES] + "\n" + text[-EDGES:]
                    low = text.lower()
                    terms = set(TOKEN.findall(low))
                sim = (len(terms & title_terms) / nt if nt else 0.0) + (len(terms & desc_terms) / nd if nd else 0.0)
                factor[i] *= (1.0 - _PR_BETA) + _PR_BETA * sim
    # Lines are leaves: per block, their number and total initial weight suffice.
    leaves = [0] * n
    leaf_u = [0.0] * n
    for (b, _), (w, aw) in zip(page.lines, page.line_weights):
        x = w / _PR_UNIT * factor[b]
        if aw:
            x *= 1.0 - (1.0 - _PR_LINK) * min(1.0, aw / w)
        leaves[b] += 1
        leaf_u[b] += x
    f, g = solve_blocks(blocks, u, leaves, leaf_u, _PR_ALPHA)
    core = max(range(n), key=g.__getitem__)
    mass = [x + y for x, y in zip(u, leaf_u)]
    for b in reversed(blocks):
        if b.parent >= 0:
            mass[b.parent] += mass[b.index]
    main = core
    while True:
        a = blocks[main].parent
        while a >= 0 and mass[a] <= mass[main] * (1.0001 + _PR_SKIP):
            a = blocks[a].parent
        if a < 0 or blocks[a].sub_anchor_weight > _PR_CLIMB_LINKS * blocks[a].sub_weight:
            break
        if mass[main] >= _PR_CLIMB * mass[a]:
            break
        main = a
    return main, core
