"""One article per body: the chosen region narrowed to the ``<article>`` holding the headline (issue #23).

Pages of today's news sites often load the next story under the one asked for (an
"infinite scroll" of stories, each its own ``<article>`` with its own headline and
paragraphs) or print a second full article below the first.  When the region chosen for
the article is the container of both, its text is two articles.  The markup says so
without any word: two or more ``<article>`` elements side by side in the region, each
holding a fair share of its text.  The one that holds the page's headline is the
article; the others are left out.  Teaser cards (``<article>`` per link in a list) hold
too little text each to count, and a region whose headline is in none of them (a live
blog's posts under a headline of their own) is kept whole.
"""

from __future__ import annotations

from .candidates import RegionView

__all__ = ["UNIT_MIN_CHARS", "UNIT_SHARE", "headline_article"]

#: An ``<article>`` counts as a unit when it holds at least this share of the region's
#: word characters ...
UNIT_SHARE = 0.15
#: ... and at least this many.
UNIT_MIN_CHARS = 300


def headline_article(view: RegionView, region: int) -> int:
    """The node of the ``<article>`` of ``region`` that holds the page's headline when
    the region holds two or more article units (:data:`UNIT_SHARE`, :data:`UNIT_MIN_CHARS`:
    outermost ``<article>`` elements below it); else ``region`` itself."""
    head = view.headline
    if head < 0:
        return region
    size, chars, tags = view.size, view.chars, view.tags
    end = region + int(size[region])
    if not region < head < end:
        return region
    least = max(UNIT_MIN_CHARS, UNIT_SHARE * float(chars[region]))
    units = 0
    holder = -1
    i = region + 1
    while i < end:
        if tags[i] == "article":
            stop = i + int(size[i])
            if chars[i] >= least:
                units += 1
                if i <= head < stop:
                    holder = i
            i = stop  # (an article inside this one is part of it)
        else:
            i += 1
    return holder if units >= 2 and holder >= 0 else region
