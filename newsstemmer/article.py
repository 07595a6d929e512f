"""What extraction gives for one page, whichever method made it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from .blocks import Block, blocks_text, gives_text, in_convention, kept_kinds, line_blocks
from .formats import html, markdown

__all__ = ["BODY_FORMATS", "METADATA_FIELDS", "Article", "body_formats"]

#: The forms of the body an article's record may carry: ``text`` (``body``, always),
#: ``markdown`` (``body_markdown``), ``html`` (``body_html``), ``blocks`` (the typed
#: blocks as JSON).  Asking for any but text adds ``captions`` and ``images`` too.
BODY_FORMATS = ("text", "markdown", "html", "blocks")


def body_formats(names: str | list[str] | tuple[str, ...] | None) -> tuple[str, ...]:
    """The body formats named in ``names`` (comma-separated or a collection), in
    :data:`BODY_FORMATS` order, ``text`` always among them; ``ValueError`` for an unknown one."""
    if isinstance(names, str):
        names = [n for n in (part.strip().lower() for part in names.split(",")) if n]
    wanted = set(names or ()) | {"text"}
    unknown = wanted - set(BODY_FORMATS)
    if unknown:
        raise ValueError(
            f"unknown body format {', '.join(sorted(unknown))}: the formats are {', '.join(BODY_FORMATS)}"
        )
    return tuple(f for f in BODY_FORMATS if f in wanted)

#: The kinds that hold pictures and their captions (what :attr:`Article.captions` and
#: :attr:`Article.images` read).
_PICTURE_KINDS = frozenset({"figure", "caption"})

#: The page's own metadata an article carries (:mod:`newsstemmer.metadata`), in output order.
METADATA_FIELDS = ("published", "modified", "authors", "language", "section", "tags", "description", "image",
                   "canonical_url", "site_name", "meta_source")


@dataclass
class Article:
    """What extraction gives for one page.

    Beside title and body, the page's own metadata (filled by the method chain,
    :mod:`newsstemmer.combine.extract`, unless ``ExtractOptions(metadata=False)``):
    ``authors``, ``published`` and ``modified`` (ISO 8601), ``language`` (BCP 47),
    ``section``, ``tags``, ``description``, ``image``, ``canonical_url``, ``site_name``;
    ``meta_source`` names each filled field's source (``json-ld``, ``microdata``,
    ``opengraph``, ``meta``, ``html``, ``url``, ``text``).
    """

    url: str | None
    title: str
    body: str
    matched: bool
    method: str | None = None
    pattern: str | None = None
    score: float | None = None
    is_article: bool = True
    #: ``article`` or the kind of page it is instead (:data:`newsstemmer.pagetype.KINDS`:
    #: ``listing``, ``media``, ``service``, ``forum``, ``product``, ``documentation``,
    #: ``error``); set by the method chain with ``is_article``.
    page_type: str = "article"
    #: The page-type model's probability that the page is an article (None: not typed).
    page_score: float | None = None
    source: str | None = None
    sections: list[tuple[str, str]] = field(default_factory=list)
    error: str | None = None
    published: str | None = None
    modified: str | None = None
    authors: list[str] = field(default_factory=list)
    language: str | None = None
    section: str | None = None
    tags: list[str] = field(default_factory=list)
    description: str | None = None
    image: str | None = None
    canonical_url: str | None = None
    site_name: str | None = None
    meta_source: dict[str, str] = field(default_factory=dict)
    #: What changed the single-page method's plain path on this page, e.g. ``paragraphs``
    #: (region's near-empty body gave way to the page's paragraph region), ``react``
    #: (hidden streamed content read); None when nothing did.
    detail: str | None = None
    #: The optional block kinds the body keeps beside the news convention's
    #: (:data:`newsstemmer.blocks.OPTIONAL_KINDS`; set by :meth:`keep_kinds`).
    keep: frozenset[str] = frozenset()
    #: The body formats :meth:`to_json_dict` writes (:data:`BODY_FORMATS`).
    formats: tuple[str, ...] = ("text",)
    # The typed blocks are made on first use (:attr:`blocks`) by the method that found the
    # body, for the body it gave (``_block_body``): a body changed since then has plain blocks.
    _block_maker: Callable[[], list[Block]] | None = field(default=None, init=False, repr=False, compare=False)
    # (the maker's cheaper form: blocks enough for the default body and some optional kinds)
    _partial_maker: Callable[[frozenset[str]], list[Block]] | None = field(
        default=None, init=False, repr=False, compare=False)
    _partial_blocks: tuple | None = field(default=None, init=False, repr=False, compare=False)
    _block_body: str | None = field(default=None, init=False, repr=False, compare=False)
    _blocks: list[Block] | None = field(default=None, init=False, repr=False, compare=False)
    _typed: bool = field(default=False, init=False, repr=False, compare=False)
    # (the last :meth:`body_blocks`: the blocks it was taken from, the kept kinds, their number, the list)
    _body_blocks: tuple | None = field(default=None, init=False, repr=False, compare=False)

    # -- typed blocks ---------------------------------------------------------------------

    def set_block_maker(self, maker: Callable[[], list[Block]] | None,
                        partial: Callable[[frozenset[str]], list[Block]] | None = None) -> None:
        """Let ``maker`` give the typed blocks of the current body when they are asked for
        (a method calls it with the walk that found the body; nothing runs until then).
        ``partial(need)``, where the method has it, gives blocks enough for less: every block
        of the default body and those of the optional kinds and parts ``need``, maybe not the
        others (Markdown and HTML of the default body, captions and pictures ask for it)."""
        self._block_maker, self._block_body, self._blocks = maker, self.body, None
        self._partial_maker, self._partial_blocks = partial, None

    def take_body(self, other: "Article") -> None:
        """Take ``other``'s body and the way to its blocks (a chain that swaps one method's
        body for another's)."""
        self.body = other.body
        self._block_maker, self._block_body, self._blocks = other._block_maker, other._block_body, other._blocks
        self._partial_maker, self._partial_blocks = other._partial_maker, other._partial_blocks
        self._typed = other._typed
        self.keep = other.keep

    @property
    def blocks(self) -> list[Block]:
        """The article as typed blocks, in page order: the body's blocks (the news
        convention and the kinds in :attr:`keep`) and the ones the method left out of it
        (``in_body`` False).  A method that keeps no structure, or a body changed after
        extraction, gives one paragraph per body line."""
        if self._blocks is None or self._block_body != self.body:
            made = None
            if self._block_maker is not None and self._block_body == self.body:
                made = self._block_maker()
                if not gives_text(in_convention(made, self.keep), self.body):
                    made = None  # (never blocks that disagree with the body)
            self._typed = made is not None
            self._blocks = made if made is not None else line_blocks(self.body)
            self._block_body = self.body
        return self._blocks

    def _blocks_for(self, need: frozenset[str]) -> list[Block]:
        """Blocks holding every block of the body and those of the optional kinds ``need``:
        :attr:`blocks`, or (not made yet) the maker's partial ones.  Blocks that do not give
        the body are never used: the full blocks would not either (what a partial maker
        leaves out is out of the body), and :attr:`blocks` falls back on plain ones."""
        partial = self._partial_maker
        if partial is None or self._blocks is not None or self._block_maker is None \
                or self._block_body != self.body:
            return self.blocks
        need = need | self.keep | ({"figure"} if "caption" in self.keep else set())
        key = (self.body, self.keep)
        cached = self._partial_blocks
        if cached is not None and cached[0] == key and need <= cached[1]:
            return cached[2]
        made = partial(need)
        body_blocks = in_convention(made, self.keep)
        if not gives_text(body_blocks, self.body):
            return self.blocks
        self._partial_blocks = (key, need, made)
        self._body_blocks = (made, self.keep, len(made), body_blocks)  # (what the formats ask for next)
        return made

    @blocks.setter
    def blocks(self, value: list[Block]) -> None:
        self._blocks, self._block_body, self._typed = list(value), self.body, True

    @property
    def typed(self) -> bool:
        """Whether :attr:`blocks` came from the page's structure (False: one paragraph a line)."""
        self.blocks  # noqa: B018 (made on first use)
        return self._typed

    def keep_kinds(self, keep: str | list[str] | tuple[str, ...] | frozenset[str] | set[str] | None) -> "Article":
        """Make ``body`` the article in the convention that keeps the optional kinds
        ``keep`` beside the default ones (``ValueError`` for an unknown kind); returns the
        article.  The blocks are the same; only which of them make the body changes."""
        wanted = kept_kinds(keep)
        if wanted == self.keep:
            return self
        blocks = self.blocks
        self.keep = wanted
        self.body = blocks_text(in_convention(blocks, wanted))
        self._block_body = self.body
        return self

    def body_blocks(self) -> list[Block]:
        """The blocks that make :attr:`body` (the default ones and the kept kinds)."""
        return list(self._convention_blocks())

    def _convention_blocks(self) -> list[Block]:
        """:meth:`body_blocks`, made once for both formats (the same blocks' list, the same
        kept kinds, as many blocks: the same list; not to be changed)."""
        blocks = self._blocks_for(frozenset())
        made = self._body_blocks
        if made is not None and made[0] is blocks and made[1] == self.keep and made[2] == len(blocks):
            return made[3]
        out = in_convention(blocks, self.keep)
        self._body_blocks = (blocks, self.keep, len(blocks), out)
        return out

    @property
    def body_markdown(self) -> str:
        """The body as Markdown (:func:`newsstemmer.formats.markdown`)."""
        return markdown(self._convention_blocks(), images="figure" in self.keep)  # (pictures: only kept ones)

    @property
    def body_html(self) -> str:
        """The body as clean semantic HTML (:func:`newsstemmer.formats.html`)."""
        return html(self._convention_blocks(), images="figure" in self.keep)

    @property
    def captions(self) -> list[str]:
        """The captions of the article's pictures, in page order, kept in the body or not."""
        out: list[str] = []
        for b in self._blocks_for(_PICTURE_KINDS):
            text = b.caption if b.kind == "figure" else b.text if b.kind == "caption" else None
            if text and text not in out:
                out.append(text)
        return out

    @property
    def images(self) -> list[str]:
        """The absolute URLs of the article's pictures, in page order."""
        out: list[str] = []
        for b in self._blocks_for(_PICTURE_KINDS):
            if b.src and b.src not in out:
                out.append(b.src)
        return out

    def __getstate__(self) -> dict[str, object]:
        state = dict(self.__dict__)
        if state.get("_block_maker") is not None:  # (a walk over a tree does not pickle: its blocks do)
            self.blocks  # noqa: B018
            state = dict(self.__dict__)
            state["_block_maker"] = state["_partial_maker"] = state["_partial_blocks"] = None
        state["_body_blocks"] = None  # (made again when asked: not worth its bytes)
        return state

    def to_json_dict(self) -> dict[str, object]:
        """The object printed per page by ``newsstemmer extract``."""
        out: dict[str, object] = {
            "source": self.source,
            "url": self.url,
            "title": self.title,
            "body": self.body,
            "matched": self.matched,
            "method": self.method,
            "pattern": self.pattern,
            "score": None if self.score is None else round(self.score, 4),
            "is_article": self.is_article,
            "page_type": self.page_type,
        }
        for name in METADATA_FIELDS:
            out[name] = getattr(self, name)
        if self.error:
            out["error"] = self.error
        if self.detail:
            out["detail"] = self.detail
        formats = self.formats
        if "markdown" in formats:
            out["body_markdown"] = self.body_markdown
        if "html" in formats:
            out["body_html"] = self.body_html
        if "blocks" in formats:
            out["blocks"] = [b.to_json_dict() for b in self.blocks]
        if len(formats) > 1:
            out["captions"] = self.captions
            out["images"] = self.images
        return out
