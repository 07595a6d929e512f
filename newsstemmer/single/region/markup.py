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
  (:data:`ARIA_ROLES`).
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


def _subtree_sums(per_node: np.ndarray, J: np.ndarray, ends: np.ndarray, start: int) -> np.ndarray:
    """Per part, the sums of the columns of ``per_node`` (a row per node from ``start``) over its subtree."""
    c = np.zeros((len(per_node) + 1, per_node.shape[1]))
    np.cumsum(per_node, axis=0, out=c[1:])
    return c[ends - start] - c[J - start]


def _text_chars(el: etree._Element) -> int:
    """Characters of an element's text, white space left out."""
    return sum(len(t) - t.count(" ") - t.count("\n") for t in el.itertext())


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
    return X
