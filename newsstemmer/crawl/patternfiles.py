"""Pattern files of the crawl: where they live, loading them all, adding learned layouts."""

from __future__ import annotations

import logging
import re
from dataclasses import replace
from pathlib import Path

from ..layout.patterns import PatternFileError, SitePatterns

__all__ = ["load_patterns", "merge_patterns", "patterns_path"]

log = logging.getLogger(__name__)


def patterns_path(patterns_dir: str | Path, site: str) -> Path:
    """``<patterns_dir>/<site>.json`` (characters unsafe in file names replaced)."""
    return Path(patterns_dir) / (re.sub(r"[^\w.-]", "_", site) + ".json")


def load_patterns(patterns_dir: str | Path) -> dict[str, SitePatterns]:
    """Every readable pattern file of the folder, by site; unreadable files are logged and skipped."""
    out: dict[str, SitePatterns] = {}
    folder = Path(patterns_dir)
    if not folder.is_dir():
        return out
    for path in sorted(folder.glob("*.json")):
        try:
            sp = SitePatterns.load(path)
        except PatternFileError as exc:
            log.error("newsstemmer: ignoring pattern file: %s", exc)
            continue
        out[sp.site] = sp
    return out


def merge_patterns(old: SitePatterns | None, new: SitePatterns) -> SitePatterns:
    """The old patterns plus newly learned ones (renumbered after the old ids)."""
    if old is None or not old.patterns:
        return new
    taken = {p.id for p in old.patterns}
    added = []
    k = len(old.patterns)
    for p in new.patterns:
        while f"p{k}" in taken:
            k += 1
        taken.add(f"p{k}")
        added.append(replace(p, id=f"p{k}"))
    return SitePatterns(
        site=old.site,
        patterns=old.patterns + added,
        settings=old.settings or new.settings,
        pages=old.pages + [u for u in new.pages if u not in set(old.pages)],
        created=new.created,
        extras=old.extras,
    )
