"""Two shapes of text that varies per page but is not the article, read from blocks.

The section decision (:mod:`newsstemmer.combine.sections`) leaves the layout's MAIN
units to a model trained on the datasets' gold; two structures the gold holds too few
of for the trees to single out (issue #12; docs/history/notes-sessions-01-10.md, "#12
cards and bios") are told by their shape instead, over all the pages of a unit:

* a **story card** inside the article (a related story: its linked thumbnail, linked
  headline and teaser): the unit's text opens with a headline-shaped line that is wholly
  a link and goes on after it, and its own branch of the tree (below the article's core)
  holds a linked picture;
* an **author's bio** after the article: the unit's text opens with a run of capitalised
  words (a person's name) that a short line between the page's headline and the
  article's core (the byline) also carries.

The helpers here say it of one block; :func:`newsstemmer.combine.sections.unit_signals`
takes the shares over a unit's pages and :data:`CARD_SHARE` / :data:`BIO_SHARE` the
decision.  Both tests need capitalised names or links and pictures: a script without
letter case never shows a bio, and a card without a picture stays the model's to judge.
"""

from __future__ import annotations

from collections.abc import Sequence

from lxml import etree

from ..evaluation import tokens
from ..layout.blocks import LayoutBlock

__all__ = [
    "BIO_SHARE",
    "CARD_SHARE",
    "NAME_LINE",
    "byline_lines",
    "carries",
    "lead_name",
    "opens_with_link",
    "picture_holders",
]

#: A MAIN unit (not the layout's largest section) that is a story card on more than this
#: share of its pages with evidence, or opens with the byline's name on more than this
#: share of its pages, is not main.
CARD_SHARE = 0.5
BIO_SHARE = 0.5
#: Words: a line at most this long that carries a name reads as a byline.
NAME_LINE = 12
_MAX_NAME = 4  # words of a name; a longer capitalised run is a title-cased headline
_SENTENCE_END = tuple(".!?\u3002\uff01\uff1f\"'\u201d\u2019)")
_HEADINGS = frozenset({"title", "h1", "h2", "h3", "h4", "h5", "h6"})


def picture_holders(tree: etree._Element) -> set[etree._Element]:
    """The elements that hold a linked picture (an ``<img>`` inside an ``<a href>``, as a
    card's thumbnail is; an article's own photo is seldom a link): the links and all
    their ancestors."""
    out: set[etree._Element] = set()
    for img in tree.iter("img"):
        link = next((a for a in img.iterancestors("a") if a.get("href")), None)
        if link is None:
            continue
        for el in (link, *link.iterancestors()):
            if el in out:
                break
            out.add(el)
    return out


def opens_with_link(block: LayoutBlock) -> bool:
    """Whether the block opens with a headline-shaped line (no sentence end) that is
    wholly anchor text, and has more text after it."""
    lines = block.text.split("\n")
    first = lines[0].strip()
    if len(lines) < 2 or not first or first.endswith(_SENTENCE_END):
        return False
    # plain_text: the same lines minus anchor texts, a wholly linked line leaving none;
    # a partly linked first line leaves a subsequence of its own words
    plain = tokens(block.plain_text.split("\n", 1)[0]) if block.plain_text else []
    words = iter(tokens(first))
    return not plain or not all(w in words for w in plain)


def lead_name(block: LayoutBlock) -> tuple[str, ...] | None:
    """The run of 2-4 capitalised words the block's text opens with (a person's name, as
    a bio opens), as tokens; None if there is none.  The run ends at the first word that
    is not capitalised letters, or after one that ends in punctuation (an initial's
    period aside)."""
    run: list[str] = []
    for word in block.text[:120].split():
        bare = word.rstrip(",;:.")
        if not bare[:1].isupper() or not bare.replace(".", "").replace("-", "").isalpha():
            break
        run.append(bare)
        initial = word.endswith(".") and len(bare) <= 2  # "B." in "Timothy B. Lee"
        if (bare != word and not initial) or len(run) > _MAX_NAME:
            break
    if not 2 <= len(run) <= _MAX_NAME:
        return None
    return tuple(tokens(" ".join(run)))


def byline_lines(blocks: Sequence[LayoutBlock], start: int, before: int) -> list[list[str]]:
    """The tokens of the short lines (2 to :data:`NAME_LINE` words) of the blocks from
    index ``start`` (after the headline) to ``before`` (the article's core), headings
    left out: where a byline stands."""
    out = []
    for b in blocks[start:before]:
        if b.tag in _HEADINGS:
            continue
        for line in b.text.split("\n"):
            toks = tokens(line)
            if 2 <= len(toks) <= NAME_LINE:
                out.append(toks)
    return out


def carries(lines: Sequence[Sequence[str]], run: Sequence[str]) -> bool:
    """Whether one of ``lines`` (tokens) holds the tokens of ``run`` in a row."""
    k = len(run)
    target = tuple(run)
    return any(tuple(toks[i:i + k]) == target for toks in lines for i in range(len(toks) - k + 1))
