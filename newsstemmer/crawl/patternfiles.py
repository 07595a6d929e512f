"""Pattern files of the crawl: where they live, loading them all, adding learned layouts
as a new version, and retiring layouts no page matches any more.

``patterns/<site>.json`` holds a site's layouts and their history (see
:mod:`newsstemmer.layout.patterns`): every learning round of a crawl adds its layouts
to the file as a new version (later rounds of the same crawl extend that version);
layouts that matched no page for ``NEWSSTEMMER_RETIRE_AFTER_RUNS`` runs in a row are
retired: moved to the file's ``retired`` list with the date, never deleted.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..layout.patterns import PatternFileError, SitePatterns, pattern_file_name
from .config import Config
from .items import utc_now

__all__ = ["kept_after_relearning", "load_patterns", "merge_patterns", "patterns_path", "relearned_patterns", "retire_idle"]

log = logging.getLogger(__name__)


def patterns_path(patterns_dir: str | Path, site: str) -> Path:
    """``<patterns_dir>/<site>.json`` (characters unsafe in file names replaced)."""
    return Path(patterns_dir) / pattern_file_name(site)


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


def merge_patterns(old: SitePatterns | None, new: SitePatterns, run: str = "", reason: str = "learned") -> SitePatterns:
    """The old patterns plus newly learned ones (renumbered after the old ids, retired ids included).

    The new layouts are a new version of the file (its ``history``), unless the last
    version was made by the same ``run`` (a crawl's later learning rounds extend it).
    """
    old = old if old is not None and (old.patterns or old.retired or old.history) else None
    taken = {p.id for p in (old.patterns + old.retired)} if old else set()
    last = old.history[-1] if old and old.history else None
    same_run = bool(run) and last is not None and last.get("run") == run and not last.get("retired")
    version = (old.revision if same_run else old.revision + 1) if old else 1
    added = []
    k = len(taken)
    for p in new.patterns:
        while f"p{k}" in taken:
            k += 1
        taken.add(f"p{k}")
        added.append(replace(p, id=f"p{k}", version=version, learned_at=new.created or None))
    merged = SitePatterns(
        site=old.site if old else new.site,
        patterns=(old.patterns if old else []) + added,
        settings=(old.settings if old else {}) or new.settings,
        pages=(old.pages if old else []) + [u for u in new.pages if not old or u not in set(old.pages)],
        created=new.created,
        extras=old.extras if old else new.extras,
        history=[dict(h) for h in old.history] if old else [],
        retired=list(old.retired) if old else [],
    )
    if same_run and merged.history:
        entry = merged.history[-1]
        entry["added"] = list(entry.get("added", [])) + [p.id for p in added]
        entry["pages"] = int(entry.get("pages", 0)) + len(new.pages)
    else:
        merged.add_version({"version": version, "learned_at": new.created or None, "pages": len(new.pages),
                            "reason": reason, "added": [p.id for p in added], **({"run": run} if run else {})})
    return merged


def relearned_patterns(current: SitePatterns, learned: SitePatterns, old_id: str, min_pages: int,
                       run: str = "") -> SitePatterns | None:
    """``current`` with its layout ``old_id`` replaced by the article layout of ``learned`` (learned
    from pages that layout matched) that has the most pages, as a new version of the file; the old
    layout is retired (kept under ``retired``).  None, and ``current`` unchanged, when no learned
    article layout has at least ``min_pages`` pages and more than the old one.

    The new layout takes the old one's place in the list and a new id (ids are never reused)."""
    old = current.layout(old_id)
    if old is None:
        return None
    fit = [p for p in learned.patterns if p.article and p.pages >= max(min_pages, old.pages + 1)]
    if not fit:
        return None
    best = max(fit, key=lambda p: (p.pages, p.score))
    taken = {p.id for p in current.patterns + current.retired}
    k = len(taken)
    while f"p{k}" in taken:
        k += 1
    when = utc_now()
    version = current.revision + 1
    new = replace(best, id=f"p{k}", version=version, learned_at=learned.created or when)
    known = set(current.pages)
    out = SitePatterns(
        site=current.site,
        patterns=[new if p.id == old_id else p for p in current.patterns],
        settings=current.settings,
        pages=current.pages + [u for u in learned.pages if u not in known],
        created=current.created,
        extras=current.extras,
        history=[dict(h) for h in current.history],
        retired=[*current.retired, replace(old, retired_at=when)],
    )
    out.add_version({"version": version, "learned_at": when, "pages": len(learned.pages),
                     "reason": f"relearned {old_id} (learned from {old.pages} pages) from {best.pages} of its pages",
                     "added": [new.id], "retired": [old_id], **({"run": run} if run else {})})
    return out


def kept_after_relearning(current: SitePatterns, old_id: str) -> SitePatterns | None:
    """``current`` with its layout ``old_id`` marked ``relearn_kept`` (now): learned again from
    its pages, it made no layout to replace it, and it is not tried again.  A copy; None if the
    layout is not there."""
    old = current.layout(old_id)
    if old is None:
        return None
    out = replace(current, patterns=[replace(p, relearn_kept=utc_now()) if p.id == old_id else p
                                     for p in current.patterns])
    out.history = [dict(h) for h in current.history]
    return out


def retire_idle(patterns: dict[str, SitePatterns], monitor: Any, runlog: Any, config: Config) -> None:
    """Retire each site's layouts that matched no page in the last ``NEWSSTEMMER_RETIRE_AFTER_RUNS``
    runs (this one included), and save the file; never a site's last layouts.

    Only runs in which some layout of the site matched a page count (see
    :meth:`~newsstemmer.crawl.storage.sqlite_runlog.RunLog.idle_runs`).
    """
    for site, sp in sorted(patterns.items()):
        run = monitor.sites.get(site)
        if run is None or not sum(run.layouts.values()):
            continue
        idle_now = [p.id for p in sp.patterns if run.layouts.get(p.id, 0) == 0]
        idle = runlog.idle_runs(site, idle_now)
        stale = sorted(p for p, n in idle.items() if n + 1 >= config.retire_after_runs)  # + this run
        if not stale or len(stale) == len(sp.patterns):
            continue
        when, why = utc_now(), f"no page matched for {config.retire_after_runs} runs"
        sp.retire(stale, when, why)
        path = patterns_path(config.patterns_dir, site)
        try:  # the file as saved: layouts learned from too few pages to save stay out of it
            saved = SitePatterns.load(path) if path.exists() else None
        except PatternFileError as exc:
            log.error("newsstemmer: cannot retire layouts in %s: %s", path, exc)
            saved = None
        if saved is not None and saved.retire(stale, when, why):
            saved.save(path)
        monitor.retired(site, stale, sp.revision)
        log.warning("newsstemmer: %s: retired layouts %s (no page matched for %d runs; kept in %s)",
                    site, ", ".join(stale), config.retire_after_runs, path)
