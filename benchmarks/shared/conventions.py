"""What each evaluation set's gold includes (its *convention*), and an article's typed blocks.

The sets disagree on what an article is: Mozilla Readability's gold keeps picture captions
and code listings, cttf's keeps the headline, the byline and the dateline, the news sets
keep the body alone (``../shared/datasets/README.md``, "What each set's gold includes").
Issue #25 scores every set in its own convention: the prediction is the article's typed
blocks (:class:`newsstemmer.blocks.Block`) cut to the set's convention with
:func:`newsstemmer.blocks.in_convention`, the headline put first where the set's gold has
it.  ``news`` is the default body for every set (the plain figures reported so far).

:func:`article_blocks` is the one place the benchmarks read an article's blocks through:
``article.blocks`` where extraction gives them, else the plain ``body`` with every line a
``paragraph`` (what extraction returned before typed blocks), so the figures exist today
and change by themselves when the blocks arrive.
"""

from __future__ import annotations

from dataclasses import dataclass

from newsstemmer.blocks import OPTIONAL_KINDS, Block

from .data import Entry, prediction
from .structure import gold_blocks

#: ``--convention`` values: each set's own convention, the default news body, or both side by side.
CONVENTION_CHOICES = ("news", "own", "both")


@dataclass(frozen=True)
class Convention:
    """What one set's gold holds beside the default body.

    ``keep``: the optional block kinds its gold keeps (:data:`newsstemmer.blocks.OPTIONAL_KINDS`);
    ``headline``: ``yes`` (the gold starts with, or holds near its top, the headline), ``no``, or
    ``per page`` (the manifest's ``gold_has_title`` says); ``note``: how the table was checked.
    """

    keep: frozenset[str] = frozenset()
    headline: str = "yes"
    note: str = ""

    def __post_init__(self) -> None:
        unknown = self.keep - OPTIONAL_KINDS
        if unknown:
            raise ValueError(f"unknown optional kinds {sorted(unknown)}")


#: dataset (manifest name) -> its gold's convention.  Derived from the datasets README's
#: table and checked against the golds (benchmarks/README.md, "Structure and conventions").
CONVENTIONS: dict[str, Convention] = {
    "big9-05": Convention(frozenset({"lead"}), note="body and standfirst; bylines mostly not in the gold"),
    "big9-09": Convention(frozenset({"lead"}), note="body and standfirst; bylines mostly not in the gold"),
    "cleanportal": Convention(note="CleanEval-style body; bylines vary"),
    "dragnet": Convention(frozenset({"lead"}),
                          note="conventions vary by page (bylines often, captions sometimes, standfirsts mostly kept)"),
    "readability": Convention(frozenset({"figure", "caption", "code", "links", "text"}), "no",
                              "Readability's output: picture captions, code listings, the article's link "
                              "lists and tables of contents, and running text beside the article kept"),
    "chaos": Convention(frozenset({"lead"}), note="body and the standfirst above it"),
    "wcxb-dev": Convention(headline="per page", note="headline where gold_has_title"),
    "cttf": Convention(frozenset({"byline", "dateline"}), note="byline and dateline lines kept"),
    "fundus-recent": Convention(frozenset({"lead"}), "no", "the summary (standfirst) is the gold's first block"),
    "misinfo": Convention(headline="no"),
}
#: The default body (the news convention): no optional kind.
NEWS = Convention()


def convention_of(dataset: str) -> Convention:
    """The convention of a manifest dataset (``X-single`` / ``X-articles`` are X's pages);
    the news convention for a set the table does not name."""
    for suffix in ("-single", "-articles"):
        if dataset.endswith(suffix):
            dataset = dataset[: -len(suffix)]
    return CONVENTIONS.get(dataset, NEWS)


def keep_of(e: Entry, convention: str) -> frozenset[str]:
    """The optional kinds kept for page ``e``: its set's (``own``) or none (``news``)."""
    if convention == "news":
        return frozenset()
    if convention == "own":
        return convention_of(e.dataset).keep
    raise ValueError(f"unknown convention {convention!r} (expected news or own)")


#: Optional kinds a set's gold keeps that the shipped models are not trained to keep
#: (:func:`training_gold`): Readability's figures, captions and code train in the news
#: convention (typed blocks give them back by option); empty trains every gold as it is.
#: Adopted in session 15 with the whole chain retrained; the figures before and after
#: (region CV and dev, the layout chain's dev and CV) are in training/README.md, "Conventions".
TRAINED_OUT: frozenset[str] = frozenset({"figure", "caption", "code"})


def training_gold(e: Entry) -> str:
    """The page's gold as the models train on it: the news convention.

    Where the set's gold keeps kinds of :data:`TRAINED_OUT` (Readability's captions and code
    listings) and gives its structure (``gold_html``), the text of its gold blocks without
    them; everywhere else the gold as it is.
    """
    drop = convention_of(e.dataset).keep & TRAINED_OUT
    blocks = gold_blocks(e) if drop else None
    if not blocks:
        return e.gold()
    return "\n".join(b.text for b in blocks if b.kind not in drop)


def body_blocks(body: str) -> list[Block]:
    """A plain body as blocks: every non-blank line a ``paragraph`` (what extraction gave
    before typed blocks; every convention keeps paragraphs, so its text is unchanged)."""
    return [Block("paragraph", line.strip()) for line in body.splitlines() if line.strip()]


def article_blocks(article: object) -> list[Block]:
    """The typed blocks of an extraction result: ``article.blocks`` when it has them,
    else its ``body`` (an ``Article``, or a plain string) read by :func:`body_blocks`."""
    body = article if isinstance(article, str) else getattr(article, "body", "") or ""
    blocks = getattr(article, "blocks", None)
    if blocks or (blocks is not None and not body.strip()):
        return list(blocks)
    return body_blocks(body)  # no blocks, or a method that leaves them empty beside a body


def own_pair(e: Entry, title: str, article: object, gold: str) -> tuple[str, str]:
    """The page's (prediction, gold) in its set's own convention: the article's typed blocks
    (:func:`article_blocks`: ``Article.blocks``, else its body's lines as paragraphs) with the
    optional kinds the set's gold keeps, the title first where the gold has the headline."""
    return prediction(title, "", e.gold_has_title, article_blocks(article), keep_of(e, "own")), gold
