"""The stores of a crawl run by one process: SQLite files in the state folder and the
patterns folder (the stores the crawl always had), plus the trivial forms of what only
many workers need (emit claims, site leases)."""

from __future__ import annotations

from pathlib import Path

from ...layout.patterns import SitePatterns
from ..patternfiles import load_patterns

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
    """One process emits each page once by itself: every claim is granted."""

    def claim(self, key: str) -> bool:
        return True

    def confirm(self, key: str) -> None:
        pass

    def release(self, key: str) -> None:
        pass


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
