"""The one walk over a parsed page that every method hooks into.

A page's text lives in two places of an lxml tree: an element's ``text`` comes
right after it opens, its ``tail`` right after it closes.  :func:`walk` gives
the tree as that sequence of events, in document order, iterated in C (lxml's
``iterwalk``) and without recursion, so a page nested thousands of levels deep
is as safe as a flat one:

* ``(START, el)``: ``el`` opens; ``el.text`` follows.  Calling
  ``walker.skip_subtree()`` now passes over its descendants (scripts, styles,
  whatever a method ignores); its ``END`` event still comes.
* ``(END, el)``: ``el`` closes; ``el.tail`` follows.  lxml keeps one Python object
  per node while anything refers to it, so a consumer that keeps the few open
  elements it cares about recognises their ``END`` with ``is``.
* ``("comment", node)`` or ``("pi", node)``: a comment or processing instruction
  (parsers that keep them): no page text of its own, only its ``tail`` follows.

The layout segmenter, the CRF's segmenter, DOM PageRank's graph and text, and the
CSS rules' blocks all read the page through this walk; what each does with an
event is its own business.
"""

from __future__ import annotations

from lxml import etree

__all__ = ["END", "START", "element_text", "walk"]

START = "start"
END = "end"
_EVENTS = (START, END, "comment", "pi")


def walk(root: etree._Element) -> etree.iterwalk:
    """The events of ``root``'s subtree (``root`` included), in document order.

    Returns lxml's walker itself: iterate it for ``(event, element)`` pairs and call
    its ``skip_subtree()`` after a ``START`` to skip that element's descendants.
    ``"comment"`` and ``"pi"`` events are both "a node without text of its own".
    """
    return etree.iterwalk(root, events=_EVENTS)


_ENTITY = etree.Entity
_tostring = etree.tostring


def element_text(el: etree._Element) -> str:
    """All text inside ``el`` (descendants included), whitespace runs made one space.

    libxml2 writes the text for us (``tostring`` as text: the very string ``itertext``
    joins, ~3× faster), except in a tree holding entity references (the lenient parse
    makes none, a tree built otherwise may): ``itertext`` gives their source (``&amp;``).
    An element without children (most links) is its own ``text``."""
    if not len(el):  # (no child: no entity reference either)
        text = el.text
        return " ".join(text.split()) if text else ""
    if next(el.iter(_ENTITY), None) is None:
        return " ".join(_tostring(el, method="text", encoding=str, with_tail=False).split())
    return " ".join("".join(el.itertext()).split())
