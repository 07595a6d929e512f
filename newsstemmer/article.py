"""What extraction gives for one page, whichever method made it."""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Article"]


@dataclass
class Article:
    """What extraction gives for one page."""

    url: str | None
    title: str
    body: str
    matched: bool
    method: str | None = None
    pattern: str | None = None
    score: float | None = None
    is_article: bool = True
    source: str | None = None
    sections: list[tuple[str, str]] = field(default_factory=list)
    error: str | None = None
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
        }
        if self.error:
            out["error"] = self.error
        if self.detail:
            out["detail"] = self.detail
        return out
