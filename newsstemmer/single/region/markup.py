"""What today's markup says of a part of the article region, for the learned cleaning (issue #23).

On recent news pages the parts the golds leave out are often boxes the other columns
of :mod:`.cleaning` cannot tell from the article's own paragraphs: a cookie-consent
box standing where an embedded video or post would be (a button or two, no embed), a
fact box or summary marked ``role="note"`` or built as a custom element
(``<fact-box>``), a "read also" line between paragraphs, a subscription or app box
with a form, a caption printed as a plain paragraph under an image outside any
``<figure>``.  These columns describe a part by its markup alone (no words, nothing
language-dependent):

* ``form_controls``, ``embeds``, ``images``: how many buttons and inputs, embedded
  frames and players (``iframe``, ``video``, ``embed``, ``object``) and images the
  part holds (``log1p`` of the count; the embeds and controls are found in the tree
  because DOM PageRank's graph leaves them out);
* ``media_before``: the element just before the part (its previous sibling) is an
  image or embed, or a wrapper of one with little text (a caption's place);
* ``p_before_share``, ``p_after_share``: the share of the region's paragraph text
  before and after the part (a box between paragraphs, or after all of them);
* ``custom_element``: the part is (inside) a custom element below the region (1), or
  holds one (0.5);
* ``aria_role``: the same for an ARIA landmark, note or dialog role
  (:data:`ARIA_ROLES`);
* ``repeated_item``: the part is (inside) an item of a run of siblings of one kind
  (tag and first class word, as a gallery's items are read in
  :mod:`..signals.page_signals`), each item built of blocks: the share of its parent's
  children that are of its kind (slides of a carousel, teasers of a list: 1.0; an
  article's paragraphs are not built of blocks and count 0);
* ``item_media``: the share of those items that hold an image or an embed (a video
  carousel whose players DOM PageRank's graph does not see is still a gallery).
"""

from __future__ import annotations

import numpy as np
from lxml import etree

from .candidates import RegionView

__all__ = ["ARIA_ROLES", "MARKUP_FEATURES", "markup_features"]

#: The columns of :func:`markup_features`, in order.
MARKUP_FEATURES: tuple[str, ...] = (
    "form_controls",
    "embeds",
    "images",
    "media_before",
    "p_before_share",
    "p_after_share",
    "custom_element",
    "aria_role",
    "repeated_item",
    "item_media",
)
_FORM_TAGS = frozenset(("button", "input", "select", "textarea"))
_EMBED_TAGS = frozenset(("iframe", "video", "embed", "object"))
_IMAGE_TAGS = frozenset(("img",))
_MEDIA_TAGS = _EMBED_TAGS | _IMAGE_TAGS | frozenset(("picture",))
_FOUND_TAGS = tuple(sorted(_FORM_TAGS | _EMBED_TAGS | _IMAGE_TAGS))
#: ARIA roles that set a box apart from the running text: the landmarks (but ``main``),
#: ``note`` (fact boxes, summaries) and the dialogs (consent and subscription boxes).
ARIA_ROLES = frozenset(
    "banner complementary contentinfo form navigation region search note dialog alertdialog".split()
)
#: Siblings passed over when looking for the element just before a part.
_SKIPPED_BEFORE = frozenset(("script", "style", "template", "link", "meta"))
#: A wrapper before a part with more characters of text than this is text, not an image's place.
_MEDIA_WRAPPER_CHARS = 100
#: Child tags that do not make an item "built of blocks" (inline markup, line breaks).
_INLINE_TAGS = frozenset("a abbr b br cite code em font i label s small span strong sub sup time u wbr".split())
#: A run of siblings counts as repeated items from this many of one kind.
_REPEATED_ITEMS = 3


def _subtree_sums(per_node: np.ndarray, J: np.ndarray, ends: np.ndarray, start: int) -> np.ndarray:
    """Per part, the sums of the columns of ``per_node`` (a row per node from ``start``) over its subtree."""
    c = np.zeros((len(per_node) + 1, per_node.shape[1]))
    np.cumsum(per_node, axis=0, out=c[1:])
    return c[ends - start] - c[J - start]


def _text_chars(el: etree._Element) -> int:
    """Characters of an element's text, white space left out."""
    return sum(len(t) - t.count(" ") - t.count("\n") for t in el.itertext())


def _kind(el: etree._Element) -> tuple[str, str]:
    """An element's kind among its siblings: its tag and first class word."""
    cls = (el.get("class") or "").split()
    return el.tag, cls[0] if cls else ""


def _built_of_blocks(el: etree._Element) -> bool:
    """Two or more children that are blocks or media (not inline markup)."""
    n = 0
    for c in el:
        if isinstance(c.tag, str) and c.tag not in _INLINE_TAGS and c.tag not in _SKIPPED_BEFORE:
            n += 1
            if n >= 2:
                return True
    return False


def _holds_media(el: etree._Element) -> bool:
    return el.tag in _MEDIA_TAGS or next(el.iter(*_MEDIA_TAGS), None) is not None


def _run_of(a: etree._Element, parent: etree._Element, runs: dict) -> tuple[float, float] | None:
    """(share of ``parent``'s children, share holding media) of the run of ``a``'s kind
    among its siblings, if ``a`` is built of blocks and the run has ``_REPEATED_ITEMS``
    or more items; else None.  ``runs`` caches per parent and kind."""
    if not _built_of_blocks(a):
        return None
    kind = _kind(a)
    got = runs.get((parent, kind))
    if got is None:
        n = 0
        run = []
        for c in parent:
            tag = c.tag
            if isinstance(tag, str) and tag not in _SKIPPED_BEFORE:
                n += 1
                if tag == kind[0] and _kind(c) == kind:  # (the tag first: a class is read only on a match)
                    run.append(c)
        got = runs[(parent, kind)] = (
            (len(run) / n, sum(_holds_media(c) for c in run) / len(run)) if len(run) >= _REPEATED_ITEMS else ())
    return got or None


def _repeated_item(el: etree._Element, top: etree._Element, runs: dict, best_of: dict) -> tuple[float, float]:
    """(``repeated_item``, ``item_media``) of the part ``el`` (:func:`markup_features`):
    the largest run share (:func:`_run_of`) over ``el`` and its ancestors below ``top``
    (the lowest of equal ones) with that run's media share.  ``best_of`` keeps the answer
    of every element walked, so the parts of a region share their ancestors' work."""
    chain = []
    a = el
    while a is not None and a is not top and a not in best_of:
        chain.append(a)
        a = a.getparent()
    best = best_of.get(a, (0.0, 0.0))
    for a in reversed(chain):  # from the highest down: a part's run wins over an equal one above
        parent = a.getparent()
        got = _run_of(a, parent, runs) if parent is not None else None
        if got is not None and got[0] >= best[0]:
            best = got
        best_of[a] = best
    return best


def markup_features(view: RegionView, region: int, J: np.ndarray) -> np.ndarray:
    """The columns :data:`MARKUP_FEATURES` of each element of ``J`` inside ``region``.

    Custom elements are read among the region's nodes; ARIA roles on the parts and their
    ancestors below the region only (a role deeper in a part and on no part is not seen).
    """
    X = np.zeros((len(J), len(MARKUP_FEATURES)))
    if not len(J):
        return X
    graph = view.an.scores.graph
    elements, parent = graph.elements, graph.parent
    size, tags = view.size, view.tags
    start, end = region, region + int(size[region])
    top = elements[region]
    node_of = {el: k for k, el in enumerate(elements[start:end], start) if el is not None}
    # Per node: form controls, embeds, images, custom elements, ARIA roles.
    per_node = np.zeros((end - start, 5))
    #: Images and embeds and their ancestors below the region (what may stand before a part).
    with_media: set[etree._Element] = set()
    # Form controls and embeds are not nodes of the graph: each counts for the nearest
    # ancestor that is (images are nodes, unless inside a dropped or hidden element).
    for el in top.iter(*_FOUND_TAGS):
        tag = el.tag
        col = 0 if tag in _FORM_TAGS else 1 if tag in _EMBED_TAGS else 2
        k = None
        a = el
        while a is not None and a is not top:
            if k is None:
                k = node_of.get(a)
                if k is not None and not col:
                    break
            if col:
                with_media.add(a)
            a = a.getparent()
        if k is not None:
            per_node[k - start, col] += 1
    custom = [k for k, t in enumerate(tags[start + 1:end], start + 1) if t is not None and "-" in t]
    per_node[np.asarray(custom, dtype=np.int64) - start, 3] = 1.0
    above: dict[int, int] = {}  # node -> its parent, for the parts and their ancestors below the region
    rows = J.tolist()
    for j in rows:
        while j > region and j not in above:
            above[j] = parent[j]
            j = above[j]
    roles = [k for k in above if not ARIA_ROLES.isdisjoint((elements[k].get("role") or "").lower().split())]
    per_node[np.asarray(roles, dtype=np.int64) - start, 4] = 1.0
    ends = J + size[J]
    sums = _subtree_sums(per_node, J, ends, start)
    X[:, 0:3] = np.log1p(sums[:, 0:3])
    if with_media:
        for r, j in enumerate(rows):
            before = elements[j].getprevious()
            while before is not None and (not isinstance(before.tag, str) or before.tag in _SKIPPED_BEFORE):
                before = before.getprevious()
            if before in with_media and (before.tag in _MEDIA_TAGS or _text_chars(before) <= _MEDIA_WRAPPER_CHARS):
                X[r, 3] = 1.0
    p = view.cum["p_chars"]
    total = float(p[end] - p[start])
    if total > 0:
        X[:, 4] = (p[J] - p[start]) / total
        X[:, 5] = (p[end] - p[ends]) / total
    # Custom elements and ARIA roles: the part is one or inside one below the region (1), or holds one (0.5).
    for col, flag, nodes in ((6, 3, set(custom)), (7, 4, set(roles))):
        if not nodes:
            continue
        for r, j in enumerate(rows):
            a = j
            while a > region and a not in nodes:
                a = parent[a]
            X[r, col] = 1.0 if a > region else (0.5 if sums[r, flag] > 0 else 0.0)
    runs: dict = {}
    best_of: dict = {}
    for r, j in enumerate(rows):
        X[r, 8], X[r, 9] = _repeated_item(elements[j], top, runs, best_of)
    return X
