"""Which sections of a site's template hold the byline and the date line, from what the
sections say on the pages of that template (no labels).

A layout section aligns one block per page.  The date line is the section whose text is
short, differs from page to page and holds a written date on (nearly) every page; the
byline is the section whose text is short, differs on some pages and reads as one or more
people's names (two to four capitalised words each) on (nearly) every page.  Both are looked for near the headline's section:
where two sections qualify, the nearer one wins.  What the marked sections say on a new
page then fills ``authors`` and ``published`` where the page's structured data does not
(``meta_source``: ``layout``).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any

from .dates import date_in_text
from .people import name_like, names_in_text, opens_with_by

__all__ = ["byline_names", "date_line", "meta_sections"]

MAX_LINE_CHARS = 160  # a byline or a date line is one short line, not a paragraph
MIN_SHARE = 0.8  # share of a template's pages on which the section must read as a date / names
MIN_PRESENT = 0.6  # share of the pages on which the section must have a block at all
MAX_DISTANCE = 12
MIN_BYLINE_PAGES = 3  # (on two pages a menu's changing label can pass for a name)  # sections between the headline's and a byline's or date line's


def byline_names(text: str | None) -> list[str]:
    """The people's names of a byline section's text (empty unless all read as names)."""
    if not text or len(text) > MAX_LINE_CHARS:
        return []
    names = names_in_text(text)
    return names if names and all(name_like(n) for n in names) else []


def date_line(text: str | None) -> str | None:
    """The written date of a date-line section's text (ISO 8601), or None."""
    if not text or len(text) > MAX_LINE_CHARS:
        return None
    return date_in_text(text)


def meta_sections(texts: Sequence[Sequence[str | None]], title_section: int | None,
                  known: Sequence[tuple[Sequence[str], str | None]] | None = None) -> tuple[int | None, int | None]:
    """The byline's and the date line's section of a template, or None each.

    ``texts[s][k]`` is what section ``s`` says on learning page ``k`` (None: no block
    there); ``title_section`` is the headline's section, if the layout knows it.
    ``known[k]``, where given, is page ``k``'s own authors and published date (from its
    structured data): a section that contradicts them on most pages that have them is
    not marked.
    """
    pages = max((len(t) for t in texts), default=0)
    if pages < 2:
        return None, None
    byline: list[tuple[int, int]] = []
    dated: list[tuple[int, int]] = []
    for s, column in enumerate(texts):
        if s == title_section:
            continue
        present = [(k, " ".join(t.split())) for k, t in enumerate(column) if t and t.strip()]
        lines = [t for _, t in present]
        if len(present) < max(2, MIN_PRESENT * pages) or len(set(lines)) < 2:
            continue  # (the same text on every page is the template's, not the page's)
        if any(len(t) > MAX_LINE_CHARS for t in lines):
            continue
        distance = abs(s - title_section) if title_section is not None else s
        if distance > MAX_DISTANCE:
            continue
        dates = [(k, date_line(t)) for k, t in present]
        if sum(1 for _, d in dates if d) >= MIN_SHARE * len(present) and _agrees(dates, known, 1):
            dated.append((distance, s))
        names = [(k, byline_names(t)) for k, t in present]
        if (len(present) >= MIN_BYLINE_PAGES and sum(1 for _, n in names if n) >= MIN_SHARE * len(present)
                and _agrees(names, known, 0)
                and (sum(1 for t in lines if opens_with_by(t)) >= MIN_SHARE * len(present) or _confirmed(names, known))):
            # (a line of capitalised words that changes per page is a name only if it says
            # "By ..." or the pages' own metadata names the same people)
            byline.append((distance, s))
    return (min(byline)[1] if byline else None), (min(dated)[1] if dated else None)


def _agrees(found: Sequence[tuple[int, Any]], known: Sequence[tuple[Sequence[str], str | None]] | None,
            field: int) -> bool:
    """Whether a section's reading matches the pages' own metadata on at least half of the
    pages where both exist (True where none has it)."""
    if not known:
        return True
    checked = agreed = 0
    for k, value in found:
        own = known[k][field] if k < len(known) else None
        if not value or not own:
            continue
        checked += 1
        if field == 1:
            agreed += abs((date.fromisoformat(value[:10]) - date.fromisoformat(own[:10])).days) <= 1
        else:
            agreed += bool({_folded(n) for n in value} & {_folded(n) for n in own})
    return checked == 0 or 2 * agreed >= checked


def _confirmed(found: Sequence[tuple[int, Any]], known: Sequence[tuple[Sequence[str], str | None]] | None) -> bool:
    """Whether the pages' own metadata names the same people on at least one page."""
    if not known:
        return False
    return any(value and k < len(known) and {_folded(n) for n in value} & {_folded(n) for n in known[k][0]}
               for k, value in found)


def _folded(name: str) -> str:
    return " ".join(name.casefold().split())
