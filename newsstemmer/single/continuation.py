"""The article's continuation beside its element, as blocks of the ``text`` part (issue #25).

Some pages cut one article into several elements side by side (``story-body-1``,
``story-body-2``... around an advertisement or a picture); a single-page method keeps
one element, so the others' paragraphs are lost.  Mozilla Readability adds such
siblings to its article (its golds hold them); the news golds are not checked for them,
so they come back out of the default body, as the optional ``text`` part
(:data:`newsstemmer.blocks.OPTIONAL_PARTS`), kept by ``keep=("text",)`` and by
Readability's convention.

An element continues the article when it stands near it (inside the same ancestor, at most
:data:`LEVELS` up), has the article element's tag and shares one of its ``class`` words,
and is running text (:func:`newsstemmer.leftout.running_text`) that no name types as
something else (comments, related stories, sharing buttons...).
Made with the blocks only: the plain body pays nothing.
"""

from __future__ import annotations

from lxml import etree

from ..blocks import BODY_KINDS, Block
from ..blockwalk import typed_blocks
from ..leftout import item_list, left_out_kind, running_text, site_furniture
from .pagerank import BLOCK_TAGS, DROP_TAGS, PageRankAnalysis

__all__ = ["LEVELS", "continuation", "continues", "with_continuation"]

#: How far up from the article's element its continuation is looked for (a sibling: 1;
#: the pieces often sit one or two wrappers apart).
LEVELS = 3


def _siblings(element: etree._Element, hidden: set) -> tuple[list[etree._Element], list[etree._Element]]:
    """The elements that continue ``element`` (module docstring), before and after it: under
    its nearest ancestor (at most :data:`LEVELS` up) that holds any, outermost ones only."""
    words = set((element.get("class") or "").split())
    if not words:
        return [], []
    level_of: dict[etree._Element, int] = {}  # (the ancestors looked under, by how far up)
    top = element
    for level in range(1, LEVELS + 1):
        up = top.getparent()
        if up is None:
            break
        top = up
        level_of[top] = level
    if top is element:
        return [], []
    # one pass under the farthest ancestor: the candidates (tag, a class word), each with
    # the level of the nearest ancestor it shares with ``element``, in page order
    found: list[tuple[int, bool, etree._Element]] = []
    after = False
    for el in top.iterdescendants(element.tag):
        if el is element:
            after = True
            continue
        names = el.get("class")
        if not names or words.isdisjoint(names.split()) or el in level_of or el in hidden:
            continue
        shared = next(up for up in el.iterancestors() if up in level_of or up is element)
        if shared is not element:  # (one inside the article's element is not beside it)
            found.append((level_of[shared], after, el))
    for level in sorted({lv for lv, _, _ in found}):
        taken: set = set()
        sides: tuple[list, list] = ([], [])
        for lv, later, el in found:
            if lv <= level and not _inside(el, taken, top) and continues(el):
                sides[later].append(el)
                taken.add(el)
        if taken:
            return sides
    return [], []


def _lists_beside(element: etree._Element, hidden: set, taken: list[etree._Element]) -> tuple[list, list]:
    """The lists of items (:func:`~newsstemmer.leftout.item_list`) in the elements beside
    ``element`` under its parent (a header's date line, a review's pros and cons), before and
    after it, outermost ones only: none inside or around a ``taken`` element, none under an
    element that a name types (comments, related stories...) or that is the page's furniture."""
    parent = element.getparent()
    sides: tuple[list, list] = ([], [])
    if parent is None:
        return sides
    after = False
    for child in parent:
        if child is element:
            after = True
            continue
        if not isinstance(child.tag, str) or child.tag in DROP_TAGS or child in hidden:
            continue
        for found in child.iter("ul", "ol"):
            path = [found]
            for up in found.iterancestors():
                path.append(up)
                if up is child:
                    break
            if (any(up.tag in ("ul", "ol") or up in hidden or up.tag in DROP_TAGS for up in path[1:])
                    or any(el in taken for el in path)
                    or any(found in t.iterancestors() for t in taken)):
                continue
            if item_list(found) and not any(left_out_kind(up) != "boilerplate" or site_furniture(up)
                                            for up in path[1:]):
                sides[after].append(found)
    return sides


def _inside(el: etree._Element, taken: set, top: etree._Element) -> bool:
    """Whether ``el`` stands inside one of ``taken`` (looked for up to ``top``)."""
    for up in el.iterancestors():
        if up is top:
            return False
        if up in taken:
            return True
    return False


def continues(el: etree._Element) -> bool:
    """Whether ``el`` (near the article, its tag and a class word) holds more of it: running
    text that no name types as something else (comments, related stories, a byline...) or
    as the page's furniture."""
    return left_out_kind(el) == "boilerplate" and not site_furniture(el) and running_text(el)


def _part_blocks(el: etree._Element, hidden: set, base_url: str | None) -> list[Block]:
    """``el``'s typed blocks out of the default body: the body's kinds as the ``text`` part,
    the others (a caption, a byline, a code listing) by their own kind."""
    blocks = typed_blocks(el, (), hidden, DROP_TAGS, BLOCK_TAGS, None, base_url)
    for b in blocks:
        if b.is_body() and b.kind in BODY_KINDS:
            b.part = "text"
        b.in_body = False
    return blocks


def continuation(an: PageRankAnalysis, node: int, base_url: str | None = None) -> tuple[list[Block], list[Block]]:
    """The blocks of the siblings that continue element ``node`` (the article's), those
    before it and those after it, out of the default body."""
    element = an.scores.graph.elements[node]
    if element is None:
        return [], []
    hidden = an.hidden()
    before, after = _siblings(element, hidden)
    lists_before, lists_after = _lists_beside(element, hidden, [*before, *after])
    if lists_before or lists_after:
        before = sorted([*before, *lists_before], key=_page_order)
        after = sorted([*after, *lists_after], key=_page_order)
    return ([b for el in before for b in _part_blocks(el, hidden, base_url)],
            [b for el in after for b in _part_blocks(el, hidden, base_url)])


def _page_order(el: etree._Element) -> list[int]:
    """A sort key of elements of one tree by their place in it: the child indices from the root."""
    path = []
    up = el.getparent()
    while up is not None:
        path.append(up.index(el))
        el, up = up, up.getparent()
    return path[::-1]


def with_continuation(an: PageRankAnalysis, node: int, blocks: list[Block],
                      base_url: str | None = None) -> list[Block]:
    """``blocks`` with the continuation's blocks (:func:`continuation`) in page order around
    them; ``blocks`` themselves where the page has none."""
    before, after = continuation(an, node, base_url)
    return [*before, *blocks, *after] if before or after else blocks
