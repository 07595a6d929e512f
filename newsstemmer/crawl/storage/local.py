"""The stores of a crawl run by one process: SQLite files in the state folder and the
patterns folder (the stores the crawl always had), plus the in-memory forms of what
many workers share in Redis (emit claims, site leases)."""

from __future__ import annotations

from pathlib import Path

from ...layout.patterns import SitePatterns
from ..patternfiles import load_patterns
from .records import url_hash

__all__ = ["FolderPatterns", "LocalEmits", "LocalLeases"]


class FolderPatterns:
    """Patterns from ``NEWSSTEMMER_PATTERNS_DIR``; learning rounds write the files themselves."""

    def __init__(self, patterns_dir: str | Path):
        self.patterns_dir = Path(patterns_dir)
        self._versions: dict[str, int] = {}

    def load(self) -> dict[str, tuple[SitePatterns, int]]:
        return {site: (sp, 0) for site, sp in load_patterns(self.patterns_dir).items()}

    def publish(self, site: str, patterns: SitePatterns) -> int:
        self._versions[site] = self._versions.get(site, 0) + 1
        return self._versions[site]

    def changed(self) -> dict[str, tuple[SitePatterns, int]]:
        return {}  # nobody else learns


class LocalEmits:
    """The emit claims of a crawl run by one process: the articles it emitted or is emitting,
    so that two pages of one article (one canonical URL) go out once, as with Redis.  Kept
    for the crawl as 63-bit digests of the keys (:func:`~.records.url_hash`: ~80 bytes an
    article in memory)."""

    def __init__(self) -> None:
        self._held: set[int] = set()

    def claim(self, key: str) -> bool:
        digest = url_hash(key)
        if digest in self._held:
            return False
        self._held.add(digest)
        return True

    def confirm(self, key: str) -> None:
        pass  # (held until the crawl ends)

    def release(self, key: str) -> None:
        self._held.discard(url_hash(key))


class LocalLeases:
    """One process learns every site."""

    def __init__(self) -> None:
        self._held: set[str] = set()

    def acquire(self, site: str) -> bool:
        self._held.add(site)
        return True

    def held(self) -> set[str]:
        return set(self._held)

    def release_all(self) -> None:
        self._held.clear()
