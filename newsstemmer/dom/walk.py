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
event is its own business.  :func:`walk_text` is the plain walk of one element's text
(DOM PageRank's and the region extractor's body), kept (:class:`WalkedText`) for the
typed blocks to read again (:mod:`newsstemmer.blockwalk`).
"""

from __future__ import annotations

from collections.abc import Collection

from lxml import etree

__all__ = ["END", "START", "WalkedText", "element_text", "walk", "walk_text"]

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


def _norm(text: str) -> str:
    return " ".join(text.split())  # (str.split's whitespace is the regex's \s: the plain text's)


class WalkedText:
    """An element's text as the plain walk read it (:func:`walk_text`): the pieces of text
    in page order (a ``"\\n"`` at each block-level element's start and end), the walk's
    ``(event, element)`` pairs and where in them it passed over a left-out element's
    subtree, kept so that the typed blocks of the same text are made from this walk
    (:func:`newsstemmer.blockwalk.typed_blocks`) instead of a second one."""

    __slots__ = ("parts", "events", "skipped", "made")

    def __init__(self, parts: list[str], events: list[tuple], skipped: list[int]) -> None:
        self.parts = parts
        self.events = events
        self.skipped = skipped
        self.made: tuple[str, ...] | None = None  # (the lines, once made: the typed walk takes them)

    def lines(self) -> list[str]:
        """The text's lines: split at newlines, whitespace-normalised, blank ones dropped first."""
        if self.made is not None:
            return list(self.made)
        lines = [_norm(line) for line in "".join(self.parts).split("\n") if line and not line.isspace()]
        self.made = tuple(lines)
        return lines


def walk_text(main: etree._Element, skip: Collection[etree._Element], drop_tags: Collection[str],
              block_tags: Collection[str]) -> WalkedText:
    """The plain walk of ``main``'s text: without the subtrees of ``drop_tags`` elements and
    of ``skip`` elements, a new line at each ``block_tags`` element's start and end.

    The events are kept as the walk reads them (an element passed over gives its start and
    its end, nothing between); keeping them costs one list append an event."""
    parts: list[str] = []
    events: list[tuple] = []
    skipped: list[int] = []
    add, keep = parts.append, events.append
    walker = walk(main)
    for item in walker:
        keep(item)
        event, el = item
        tag = el.tag
        if tag.__class__ is not str:  # comments, processing instructions, entities: only a tail
            if event != START and el.tail:  # (an entity's START comes before its END)
                add(el.tail)
            continue
        if event == START:
            if tag in drop_tags:
                walker.skip_subtree()
                continue
            if el in skip:
                walker.skip_subtree()
                skipped.append(len(events) - 1)
                continue
            if tag in block_tags:
                add("\n")
            if el.text:
                add(el.text)
        else:
            if el is main:
                break
            if tag in block_tags:
                add("\n")
            if el.tail:
                add(el.tail)
    return WalkedText(parts, events, skipped)
