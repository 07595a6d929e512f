"""What both kinds of store (SQLite files, Redis) hold and decide alike: the records they
return and the rules they share (fetch plans of incremental runs, anchor-text cleaning).

Each store's interface is in :mod:`.base`; the implementations are the ``sqlite_*`` and
``redis_*`` modules beside this one.
"""

from __future__ import annotations

import datetime as _dt
import re
import time
from dataclasses import dataclass, field

__all__ = [
    "FETCH", "MAX_ANCHOR_CHARS", "RECHECK", "SKIP", "Emitted", "Plan", "Resume", "clean_anchor_text", "decide",
    "hint_is_later",
]


# -- the frontier ----------------------------------------------------------------------------------
@dataclass
class Resume:
    """What the previous, interrupted crawl left."""

    reason: str | None  # None: it never closed (killed)
    pending: list[tuple[str, int]] = field(default_factory=list)  # (url, depth) scheduled, not done
    done: int = 0
    by_scrapy: bool = False  # a graceful stop with the same JOBDIR: Scrapy re-schedules the pending pages


# -- emitted articles (incremental runs) ------------------------------------------------------------
@dataclass
class Emitted:
    """The last emitted version of an article."""

    key: str  # canonical URL
    site: str
    url: str
    content_hash: str
    body: str
    version: int
    first_seen: str
    published: str | None = None
    page_text: str = ""  # the visible text of the page it was extracted from
    texts_dropped: bool = False  # body and page text pruned (storage.retention): a change cannot be measured


# -- fetch records (incremental runs) ---------------------------------------------------------------
FETCH = "fetch"
RECHECK = "recheck"
SKIP = "skip"


@dataclass(frozen=True)
class Plan:
    """How to fetch a URL this run; ``headers`` are the conditional request headers."""

    action: str  # fetch | recheck | skip
    headers: dict[str, str]


def hint_is_later(new: str, old: str) -> bool:
    """Whether a sitemap/feed date says the page changed after ``old``: compared as dates when
    either is a bare date (a sitemap's ``2026-11-23`` against a feed's full time), as text
    when either cannot be read."""
    if len(new) == 10 or len(old) == 10:
        return new[:10] > old[:10]
    try:
        a, b = _dt.datetime.fromisoformat(new.replace("Z", "+00:00")), _dt.datetime.fromisoformat(old.replace("Z", "+00:00"))
        return (a if a.tzinfo else a.replace(tzinfo=_dt.timezone.utc)) > (b if b.tzinfo else b.replace(tzinfo=_dt.timezone.utc))
    except ValueError:
        return new != old


def decide(record: tuple | None, recheck_after: float, hint: str | None, now: float | None) -> tuple[Plan, bool]:
    """The plan for a URL from its record ``(etag, last_modified, checked, article, hint)`` (None:
    never seen), and whether ``hint`` becomes its baseline date (see :meth:`.sqlite_fetchlog.FetchLog.plan`)."""
    if record is None or not record[3]:
        return Plan(FETCH, {}), False
    etag, last_modified, checked, _, old_hint = record
    headers = {}
    if etag:
        headers["If-None-Match"] = etag
    if last_modified:
        headers["If-Modified-Since"] = last_modified
    now = time.time() if now is None else now
    fresh = checked is not None and now - float(checked) < recheck_after
    if fresh and (hint is None or old_hint is None or not hint_is_later(hint, old_hint)):
        return Plan(SKIP, headers), hint is not None and old_hint is None
    return Plan(RECHECK, headers), False


# -- linkinfo ----------------------------------------------------------------------------------------
_SPACE = re.compile(r"\s+")
#: Longer anchor texts are cut (a link wrapping a whole teaser is not a headline).
MAX_ANCHOR_CHARS = 500


def clean_anchor_text(text: str) -> str:
    """Whitespace collapsed, cut to :data:`MAX_ANCHOR_CHARS`."""
    return _SPACE.sub(" ", text).strip()[:MAX_ANCHOR_CHARS]
