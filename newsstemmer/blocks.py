"""The article as typed blocks: what each part of the body is (issue #25).

Extraction decides which text is the article; a :class:`Block` says what one part of
that text is (a paragraph, a subheading, a list, a picture's caption, a byline...), so
one extraction serves every convention: the plain ``body`` of the news convention,
Markdown, clean HTML, or a body with captions and code kept for a set whose gold
keeps them.  This module is the shared vocabulary; the methods fill it and the
renderers (text here, Markdown and HTML beside it) read it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["BLOCK_KINDS", "BODY_KINDS", "OPTIONAL_KINDS", "Block", "blocks_text", "in_convention"]

#: Kinds that make the body in the news convention (the default ``body``).
BODY_KINDS = frozenset({"paragraph", "heading", "list", "quote", "table"})

#: Kinds kept out of the default body; ``keep`` options add them back by name.
#: ``lead`` is the standfirst (the summary under the headline); ``caption`` a picture's
#: caption standing on its own (a ``figure`` block carries its caption too).
OPTIONAL_KINDS = frozenset({
    "code", "figure", "caption", "byline", "dateline", "lead", "related", "bio", "comments", "boilerplate",
})

#: Every kind a block may have.
BLOCK_KINDS = BODY_KINDS | OPTIONAL_KINDS


@dataclass
class Block:
    """One part of an article, in page order.

    ``text`` is the block's plain text as it goes into ``body`` (list items one a line,
    table rows one a line); the other fields keep the structure the renderers need:
    ``level`` (heading 2-6), ``items`` and ``ordered`` (list), ``rows`` (table, cells per
    row; ``header`` when the first row is a header row), ``src``/``caption``/``credit``
    (figure), ``links`` ((text, absolute URL) pairs found in the block, for HTML and
    Markdown output).
    """

    kind: str
    text: str
    level: int | None = None
    items: list[str] = field(default_factory=list)
    ordered: bool = False
    rows: list[list[str]] = field(default_factory=list)
    header: bool = False
    src: str | None = None
    caption: str | None = None
    credit: str | None = None
    links: list[tuple[str, str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.kind not in BLOCK_KINDS:
            raise ValueError(f"unknown block kind {self.kind!r}; known: {', '.join(sorted(BLOCK_KINDS))}")

    def to_json_dict(self) -> dict[str, object]:
        """The block as JSON: ``kind`` and ``text`` always, the structure fields when set."""
        out: dict[str, object] = {"kind": self.kind, "text": self.text}
        if self.level is not None:
            out["level"] = self.level
        if self.items:
            out["items"] = list(self.items)
            out["ordered"] = self.ordered
        if self.rows:
            out["rows"] = [list(r) for r in self.rows]
            out["header"] = self.header
        for name in ("src", "caption", "credit"):
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        return out


def in_convention(blocks: list[Block], keep: frozenset[str] | set[str] = frozenset()) -> list[Block]:
    """The blocks of the default body plus the optional kinds named in ``keep``."""
    unknown = set(keep) - OPTIONAL_KINDS
    if unknown:
        raise ValueError(
            f"cannot keep {', '.join(sorted(unknown))}: the kinds that may be kept are "
            f"{', '.join(sorted(OPTIONAL_KINDS))}"
        )
    wanted = BODY_KINDS | set(keep)
    return [b for b in blocks if b.kind in wanted]


def blocks_text(blocks: list[Block]) -> str:
    """Plain text of ``blocks``: each block's text lines, one line per paragraph or item."""
    return "\n".join(b.text for b in blocks if b.text)
