"""The byline's and the date line's section of each learned layout, and what they say on
a page.

After layout learning, the learning pages are matched again; for every article layout,
the text each section aligns on each of its pages goes to
:func:`newsstemmer.metadata.sections.meta_sections`, which marks the sections that read
as names or as a date on nearly every page while their text varies.  The marks are
saved in the pattern file (``byline_section``, ``date_section``); extraction reports the
marked sections' text (``Article.sections`` entries ``byline`` and ``date``) and the
chain's metadata step uses them where the page's own metadata lacks a field.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..article import Article
from ..layout.blocks import blocks_of
from ..layout.matching import LayoutExtractOptions, choose_match
from ..layout.patterns import SitePatterns
from ..metadata import structured_people_and_date
from ..metadata.sections import byline_names, date_line, meta_sections
from ..page import Page

__all__ = ["WEAKER", "apply_layout_metadata", "layout_metadata", "mark_meta_sections"]

MAX_PAGES = 60  # pages per layout read for its marks
#: sources the layout's byline and date line take precedence over: the page's text near
#: the headline (a guess the template's marked section makes for certain) and the URL
WEAKER = frozenset({"text", "url"})


def mark_meta_sections(site: SitePatterns, pages: Iterable[Page]) -> None:
    """Set ``byline_section`` and ``date_section`` on the site's article layouts from the
    texts their sections align on ``pages`` (the pages they were learned from)."""
    articles = [p for p in site.patterns if p.article]
    if not articles:
        return
    texts: dict[str, list[list[str | None]]] = {p.id: [] for p in articles}
    known: dict[str, list[tuple[list[str], str | None]]] = {p.id: [] for p in articles}
    opts = LayoutExtractOptions(loose_threshold=0)
    block_options = site.block_options()
    for page in pages:
        try:
            pb = blocks_of(page, block_options)
        except (ValueError, TypeError):
            continue
        chosen = choose_match(pb, site, opts)
        if chosen is None or chosen[0].pattern.id not in texts:
            continue
        match = chosen[0]
        rows = texts[match.pattern.id]
        if len(rows) < MAX_PAGES:
            rows.append([pb.blocks[b].text if b is not None else None for b in match.blocks])
            known[match.pattern.id].append(_structured(page))
    for p in articles:
        rows = texts[p.id]
        columns = [[row[s] for row in rows] for s in range(len(p.sections))]
        p.byline_section, p.date_section = meta_sections(columns, p.title_section, known[p.id])


def _structured(page: Page) -> tuple[list[str], str | None]:
    """A page's authors and published date as its structured data gives them (what a
    text guess would say is left out: that is what the marks are checked against)."""
    try:
        return structured_people_and_date(page.tree, page.html)
    except (ValueError, TypeError):
        return [], None


def layout_metadata(article: Article, names_wanted: bool = True, date_wanted: bool = True) -> tuple[list[str], str | None]:
    """The names and the date the layout's marked sections give on this page (from the
    article's ``byline`` and ``date`` sections), or ``([], None)``; a part not wanted
    is not read (left empty)."""
    names: list[str] = []
    when: str | None = None
    for role, text in article.sections:
        if role == "byline" and names_wanted and not names:
            names = byline_names(text)
        elif role == "date" and date_wanted and when is None:
            when = date_line(text)
    return names, when


def apply_layout_metadata(article: Article) -> Article:
    """Fill ``authors`` and ``published`` from the layout's byline and date line where the
    page's own metadata lacks them or only guessed them (``meta_source``: ``layout``).
    A section is read only where its field could be taken (most pages' structured data
    gives both: then neither is read)."""
    src = article.meta_source
    names_wanted = not article.authors or src.get("authors") in WEAKER
    date_wanted = not article.published or src.get("published") in WEAKER
    if not (names_wanted or date_wanted):
        return article
    names, when = layout_metadata(article, names_wanted, date_wanted)
    if names:
        article.authors, src["authors"] = names, "layout"
    if when and (not article.published or when[:10] != article.published[:10]):
        article.published, src["published"] = when, "layout"
    return article
