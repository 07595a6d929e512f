"""Thin layouts: articles held back until their layout is learned again from more pages (issue #26).

A layout learned from a few pages of a section can take text those pages share by chance for
template: the demo's opinion ledes, drawn from a small pool of sentences, made the lede of a
layout learned from 3 pages score DiffScore 0.489 (static) where 6 pages gave 0.58 (main
text), and every update of a column, which goes into its lede, was missed.  So an article
layout learned from fewer than :data:`~newsstemmer.crawl.rounds.THIN_LAYOUT_PAGES` pages is
*thin* (:func:`~newsstemmer.crawl.rounds.is_thin`): the learner keeps the articles it
extracts in the page buffer (:class:`Relearning` says which), and once
:data:`~newsstemmer.crawl.rounds.RELEARN_PAGES` of them (and twice its own pages) wait, learns the layout again from
them (:func:`~newsstemmer.crawl.patternfiles.relearned_patterns`) and extracts them with the
result.  At the crawl's end the held articles go out: learned again if enough wait, else as
the thin layout reads them.  Each thin layout is learned again (or tried) once a crawl; one
tried from ``RELEARN_PAGES`` of its pages that made no layout to replace it is marked
(``relearn_kept``) and never tried again: a catch-all layout of a few pages was otherwise
tried every day (one learning round a site a day, +9 % crawl CPU at 10 sites).
"""

from __future__ import annotations

from typing import Callable

from ..layout.patterns import LayoutPattern
from .rounds import RELEARN_PAGES, THIN_LAYOUT_PAGES, Outcome, is_thin

__all__ = ["Due", "Relearning", "needed"]

#: What a site's held articles are due for: (layout id, urls, learn the layout again).
Due = tuple[str, list[str], bool]


def needed(layout: LayoutPattern, final: bool) -> int:
    """How many of a thin layout's pages must wait to learn it again: :data:`RELEARN_PAGES`
    (at the crawl's end :data:`THIN_LAYOUT_PAGES`), and at least twice the pages it was
    learned from.  A first crawl of 84 small sites learned 56 layouts again, most of 4 pages
    from 6-10 (crawl CPU +36 %); the demo's opinion layout of 3 pages still is, from 8."""
    return max(THIN_LAYOUT_PAGES if final else RELEARN_PAGES, 2 * layout.pages)


class Relearning:
    """The articles of thin layouts held in the buffer in this crawl, by site and layout."""

    def __init__(self) -> None:
        self.held: dict[str, dict[str, list[str]]] = {}
        self.tried: set[tuple[str, str]] = set()  # (site, layout id): learned again, or tried, in this crawl
        self.outcomes: dict[str, Outcome] = {}  # url → the held article as its thin layout read it

    def wants(self, site: str, layout: LayoutPattern | None) -> bool:
        """Whether an article this layout extracted should wait for it to be learned again."""
        return (layout is not None and (site, layout.id) not in self.tried and is_thin(layout)
                and layout.relearn_kept is None)

    def hold(self, site: str, layout_id: str, url: str, outcome: Outcome | None = None) -> None:
        """An article of the site's thin layout ``layout_id`` now waits in the buffer
        (``outcome``: as that layout read it, sent so if the layout is not learned again)."""
        if outcome is not None:
            self.outcomes[url] = outcome
        urls = self.held.setdefault(site, {}).setdefault(layout_id, [])
        if url not in urls:
            urls.append(url)

    def read(self, urls: list[str]) -> list[Outcome] | None:
        """The held articles ``urls`` as their thin layout read them (taken out); None if one is
        missing.  Sending them so spares extracting them again: on a first crawl of 84 small
        sites nearly every article was held."""
        read = [self.outcomes.pop(u, None) for u in urls]
        return None if any(o is None for o in read) else read  # type: ignore[misc]

    def due(self, site: str, layout_of: Callable[[str], LayoutPattern | None], final: bool) -> Due | None:
        """The site's held articles due for a round (taken out; the layout then counts as tried):
        those of a layout with :func:`needed` waiting, to learn it again; at the crawl's end
        (``final``) any, learned again if :func:`needed` wait, else only extracted; those of a layout gone meanwhile
        (``layout_of`` gives None): only extracted.  None if nothing is due."""
        held = self.held.get(site)
        for lid, urls in sorted((held or {}).items()):
            layout = layout_of(lid)
            enough = layout is not None and len(urls) >= needed(layout, final)
            if not (enough or final or layout is None):
                continue
            del held[lid]
            self.tried.add((site, lid))
            return lid, urls, enough
        return None
