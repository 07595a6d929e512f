"""One body cut into parallel parts: the chosen region widened to hold them all (issue #23).

Some of today's templates print one article as several blocks side by side, the same
wrapper repeated around each run of paragraphs (a block per advertisement slot, a "read
on" block after a paywall teaser).  The region model often takes the first block alone,
and the rest of the article is lost.  The markup says which blocks are parts of one
body without any word: a *part* is an element near the region (under its ancestor at
most :data:`LEVELS` up) with the region's tag and the same set of ``class`` words,
reached from that ancestor through the same tags as the region (the same template
repeated, not a comment or a teaser that happens to share a class), that stands after
the page's headline (a box above the headline is not the article's text) and holds
running text that no name types as something else
(:func:`~newsstemmer.single.continuation.continues`).

When parts are found, the region becomes the ancestor that holds them all; what lies
off the paths from it down to the region and to the parts is left out, and each part
is cleaned as the region is (the caller's cleaning, applied to the part as if it were
the region).  Classes are compared as sets of words, never read for meaning.
"""

from __future__ import annotations

from collections.abc import Callable

from ..continuation import continues
from .candidates import RegionView

__all__ = ["LEVELS", "parallel_parts", "widened_region"]

#: How far up from the region its parallel parts are looked for.
LEVELS = 3


def _classes(el) -> frozenset[str]:
    return frozenset((el.get("class") or "").split())


def _path(parent, node: int, top: int) -> list[int]:
    """The nodes from ``node`` up to ``top`` (excluded)."""
    out = []
    while node != top:
        out.append(node)
        node = int(parent[node])
    return out


def parallel_parts(view: RegionView, region: int) -> tuple[int, list[int]]:
    """The ancestor of ``region`` that holds its parallel parts (module docstring) and
    their nodes in page order; ``(region, [])`` when there are none.  Parts are looked
    for under the nearest ancestor that holds any (outermost ones only)."""
    elements = view.an.scores.graph.elements
    el = elements[region]
    if el is None:
        return region, []
    words = _classes(el)
    if not words:
        return region, []
    parent, size, tags = view.parent, view.size, view.tags
    hidden = view.an.hidden()
    tag = tags[region]
    ups: list[int] = []
    a = int(parent[region])
    while a >= 0 and len(ups) < LEVELS:
        ups.append(a)
        a = int(parent[a])
    region_end = region + int(size[region])
    depth = view.depth.tolist()
    for level, top in enumerate(ups, 1):
        down = [tags[i] for i in reversed(_path(parent, region, top))]
        parts: list[int] = []
        i, end = top + 1, top + int(size[top])
        at = depth[top] + level  # (the depth of a node ``level`` below ``top``: its path's length)
        while i < end:
            if region <= i < region_end:  # (the region itself: not a part)
                i = region_end
                continue
            if tags[i] == tag and depth[i] == at and i not in ups:
                path = _path(parent, i, top)
                cand = elements[i]
                if (len(path) == level and [tags[j] for j in reversed(path)] == down
                        and cand is not None and cand not in hidden and _classes(cand) == words
                        and (view.headline < 0 or i > view.headline) and continues(cand)):
                    parts.append(i)
                    i += int(size[i])  # (outermost parts only)
                    continue
            i += 1
        if parts:
            return top, parts
    return region, []


def widened_region(view: RegionView, region: int, left: list[int],
                   clean: Callable[[int], list[int]]) -> tuple[int, list[int]] | None:
    """(the ancestor holding ``region`` and its parallel parts, the nodes it leaves out)
    or None when ``region`` has no parts.  ``left`` is what ``region`` leaves out;
    ``clean(part)`` what a part leaves out when cleaned as the region is."""
    top, parts = parallel_parts(view, region)
    if not parts:
        return None
    parent, is_el = view.parent, view.is_el
    kept = {region, *parts}
    on_path: set[int] = set()
    for node in kept:
        on_path.update(_path(parent, node, top))
    out = list(left)
    for node in parts:
        out += clean(node)
    # what hangs off the paths: the other elements under each path node's parent
    for node in on_path:
        for sib in view.children(int(parent[node])):
            if sib not in on_path and is_el[sib]:
                out.append(sib)
    return top, sorted(set(out))
