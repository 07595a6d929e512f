"""The article as typed blocks: what each part of the body is (issue #25).

Extraction decides which text is the article; a :class:`Block` says what one part of
that text is (a paragraph, a subheading, a list, a picture's caption, a byline...), so
one extraction serves every convention: the plain ``body`` of the news convention,
Markdown, clean HTML, or a body with captions and code kept for a set whose gold
keeps them.  This module is the shared vocabulary; the methods fill it and the
renderers (text here, Markdown and HTML beside it) read it.  The rules both typed
walks (the single page's and the layouts') shape lines by live here too: a list's
items, a table's rows, the bold lines that are headings.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

__all__ = [
    "BLOCK_KINDS", "BODY_KINDS", "BOLD_HEADING_WORDS", "OPTIONAL_KINDS", "OPTIONAL_PARTS", "Block", "blocks_text",
    "bold_headings", "gives_text", "in_convention", "kept_kinds", "line_blocks", "list_items", "table_rows",
]

#: Kinds that make the body in the news convention (the default ``body``).
BODY_KINDS = frozenset({"paragraph", "heading", "list", "quote", "table"})

#: Optional parts whose blocks keep the kind of their structure (``list``, ``heading``,
#: ``paragraph``) and name the part in :attr:`Block.part`: ``links`` is a list of links or a
#: table of contents the cleaning left out of the article; ``text`` is running text the
#: method left out (a section its cleaning judged outside the article, the article's
#: continuation in an element beside the chosen one).  Readability's convention keeps both
#: inside the article, the news convention does not.
OPTIONAL_PARTS = frozenset({"links", "text"})

#: What ``keep`` options may name, kept out of the default body: the optional kinds and
#: :data:`OPTIONAL_PARTS`.  ``lead`` is the standfirst (the summary under the headline);
#: ``caption`` a picture's caption standing on its own (a ``figure`` block carries its
#: caption too).
OPTIONAL_KINDS = frozenset({
    "code", "figure", "caption", "byline", "dateline", "lead", "related", "bio", "comments", "boilerplate",
}) | OPTIONAL_PARTS

#: Every kind a block may have.
BLOCK_KINDS = (BODY_KINDS | OPTIONAL_KINDS) - OPTIONAL_PARTS


#: A bold line is typed a heading only when it is this short (tokens) and ends no sentence
#: (:func:`bold_headings`).
BOLD_HEADING_WORDS = 15
_SENTENCE_END = (".", ",", ";")


@dataclass(slots=True, eq=False)
class Block:
    """One part of an article, in page order.

    ``text`` is the block's plain text as it goes into ``body``: its lines as the page
    gives them (a list's items, a table's rows, a paragraph the page breaks), joined by
    newlines.  The other fields keep the structure the renderers need: ``level``
    (heading 1-6), ``items``, ``item_depths`` (0 for a top-level item, 1 for an item of a
    list inside it...), ``ordered`` (list) and ``item_ordered`` (whether each item's own
    list is numbered), ``rows`` (table, cells per row; ``header``
    when the first row is a header row; empty when the table's text does not sit in
    cells), ``src``/``caption``/``credit`` (figure), ``links`` ((text, absolute URL) pairs
    found in the block, for HTML and Markdown output).

    ``in_body`` is the extraction's verdict: True for a block the method's cleaning kept
    in the article (a picture's caption or a code listing inside the article's text
    stays in the default body, so the body does not depend on how finely a block is
    typed), False for one it left out (it comes back only when its kind, or its
    ``part``, is kept), None to let the kind decide (:data:`BODY_KINDS` are body).
    ``part`` names the optional part (:data:`OPTIONAL_PARTS`) a left-out block belongs to
    when its kind says its structure: the ``list`` of a table of contents the cleaning
    left out has ``part`` ``links``.

    An article has hundreds of blocks and most have no items, rows or links: the class
    has slots and the sequence fields default to the empty tuple (no list made for a
    block that has none; a block compares equal whether a field is a list or a tuple).
    """

    kind: str
    text: str
    level: int | None = None
    items: Sequence[str] = ()
    item_depths: Sequence[int] = ()
    item_ordered: Sequence[bool] = ()
    ordered: bool = False
    rows: Sequence[Sequence[str]] = ()
    header: bool = False
    src: str | None = None
    caption: str | None = None
    credit: str | None = None
    links: Sequence[tuple[str, str]] = ()
    in_body: bool | None = None
    part: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in BLOCK_KINDS:
            raise ValueError(f"unknown block kind {self.kind!r}; known: {', '.join(sorted(BLOCK_KINDS))}")
        if self.part is not None and self.part not in OPTIONAL_PARTS:
            raise ValueError(f"unknown block part {self.part!r}; known: {', '.join(sorted(OPTIONAL_PARTS))}")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._compared() == other._compared()  # type: ignore[attr-defined]

    __hash__ = None  # type: ignore[assignment]  (mutable, as a dataclass with eq is)

    def _compared(self) -> tuple:
        """The fields as compared: a sequence field empty or not, list or tuple, by its items."""
        return (self.kind, self.text, self.level, tuple(self.items), tuple(self.item_depths),
                tuple(self.item_ordered), self.ordered, tuple(map(tuple, self.rows)), self.header, self.src,
                self.caption, self.credit, tuple(self.links), self.in_body, self.part)

    def to_json_dict(self) -> dict[str, object]:
        """The block as JSON: ``kind`` and ``text`` always, the structure fields when set."""
        out: dict[str, object] = {"kind": self.kind, "text": self.text}
        if self.level is not None:
            out["level"] = self.level
        if self.items:
            out["items"] = list(self.items)
            out["ordered"] = self.ordered
            if any(self.item_depths):
                out["item_depths"] = list(self.item_depths)
                out["item_ordered"] = list(self.item_ordered)
        if self.rows:
            out["rows"] = [list(r) for r in self.rows]
            out["header"] = self.header
        for name in ("src", "caption", "credit"):
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        if self.links:
            out["links"] = [list(pair) for pair in self.links]
        out["in_body"] = self.is_body()
        if self.part is not None:
            out["part"] = self.part
        return out

    def is_body(self) -> bool:
        """Whether the block belongs to the default body (the news convention)."""
        return self.kind in BODY_KINDS if self.in_body is None else self.in_body


def kept_kinds(names: str | list[str] | tuple[str, ...] | frozenset[str] | set[str] | None) -> frozenset[str]:
    """The optional kinds named in ``names`` (a comma-separated string or a collection;
    ``captions`` and other plurals are accepted for the kinds).  Raises ``ValueError``
    naming the kinds that may be kept for a name that is none of them."""
    if not names:
        return frozenset()
    if isinstance(names, str):
        names = [n for n in (part.strip() for part in names.split(",")) if n]
    found = set()
    for name in names:
        kind = name.strip().lower()
        if kind not in OPTIONAL_KINDS and kind.endswith("s") and kind[:-1] in OPTIONAL_KINDS:
            kind = kind[:-1]  # captions, figures, bylines...
        found.add(kind)
    unknown = found - OPTIONAL_KINDS
    if unknown:
        raise ValueError(
            f"cannot keep {', '.join(sorted(unknown))}: the kinds that may be kept are "
            f"{', '.join(sorted(OPTIONAL_KINDS))}"
        )
    return frozenset(found)


def in_convention(blocks: list[Block], keep: frozenset[str] | set[str] = frozenset()) -> list[Block]:
    """The blocks of the default body (:meth:`Block.is_body`) plus those of the optional
    kinds and parts named in ``keep`` (``ValueError`` for a name that is not one), in page
    order.  Keeping ``caption`` keeps the figures too (their text is their caption; the
    picture itself is written only where ``figure`` is kept); a block of a part is kept
    when its part is (keeping ``boilerplate`` does not keep the ``paragraph`` of a
    ``links`` part)."""
    wanted = kept_kinds(keep)
    if "caption" in wanted:
        wanted = wanted | {"figure"}
    return [b for b in blocks if b.is_body() or (b.part in wanted if b.part is not None else b.kind in wanted)]


def blocks_text(blocks: list[Block]) -> str:
    """Plain text of ``blocks``: each block's text lines, one line per paragraph or item."""
    return "\n".join(b.text for b in blocks if b.text)


def gives_text(blocks: list[Block], text: str) -> bool:
    """Whether :func:`blocks_text` of ``blocks`` is ``text``, found without writing it (a
    method's blocks are checked against its body each time they are made)."""
    pos = 0
    first = True
    for b in blocks:
        part = b.text
        if not part:
            continue
        if not first:
            if not text.startswith("\n", pos):
                return False
            pos += 1
        if not text.startswith(part, pos):
            return False
        pos += len(part)
        first = False
    return pos == len(text)


def line_blocks(body: str) -> list[Block]:
    """A body known only as text lines: one paragraph block per line (what a method
    that keeps no structure gives, so every article has blocks)."""
    return [Block("paragraph", line) for line in body.split("\n") if line]


def list_items(lines: Iterable[tuple[str, object, int, bool]]) -> tuple[list[str], list[int], list[bool]]:
    """Texts with their item element, depth and numbering, in page order, as a list's items
    (texts of one item joined by a space) with each item's depth and numbering; a text
    whose item is None is an item of its own."""
    items: list[str] = []
    depths: list[int] = []
    numbered: list[bool] = []
    last = object()
    for text, item, depth, ordered in lines:
        if item is not None and item is last:
            items[-1] += " " + text
        else:
            items.append(text)
            depths.append(depth)
            numbered.append(ordered)
        last = item
    return items, depths, numbered


def table_rows(cells: Iterable[tuple[str, object, object]]) -> list[list[str]]:
    """Texts with their row and cell elements, in page order, as rows of cell texts: texts
    of one cell are joined by a space, a new row element starts a new row."""
    rows: list[list[str]] = []
    last_row = last_cell = None
    for text, row, cell in cells:
        if row is not last_row or not rows:
            rows.append([])
            last_row, last_cell = row, None
        if cell is last_cell:
            rows[-1][-1] += " " + text
        else:
            rows[-1].append(text)
            last_cell = cell
    return rows


def bold_headings(lines: Sequence[tuple[str | None, bool, object]],
                  is_bold: Callable[[object], bool] = bool) -> set[int]:
    """The indices of the lines that are headings written as bold lines, each line given as
    (its text, or None for a picture; whether it is a line of the running text; whether all
    its text is bold, or what ``is_bold`` tells it from, asked only where it decides): a
    running-text line all in bold (``<p><strong>...</strong></p>``, or a ``<b>`` alone
    between line breaks), of at most :data:`BOLD_HEADING_WORDS` words, not ending like a
    sentence, and followed by a running-text line that is not all bold (a bold line before
    a list, or one of a run of bold lines, is text set in bold, not a heading).  The
    single-page walk and the layouts' typed blocks share it."""
    found = set()
    for k in range(len(lines) - 1):
        text, running, bold = lines[k]
        if text is None or not running or text.endswith(_SENTENCE_END):
            continue
        _, next_running, next_bold = lines[k + 1]
        if not next_running or not is_bold(bold) or is_bold(next_bold):
            continue
        if k and lines[k - 1][1] and is_bold(lines[k - 1][2]):
            continue
        if len(text.split()) <= BOLD_HEADING_WORDS:
            found.add(k)
    return found
