"""What extraction gives for one page, whichever method made it."""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["METADATA_FIELDS", "Article"]

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
        return out
