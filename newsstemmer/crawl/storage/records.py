"""What both kinds of store (SQLite files, Redis) hold and decide alike: the records they
return and the rules they share (fetch plans of incremental runs, anchor-text cleaning).

Each store's interface is in :mod:`.base`; the implementations are the ``sqlite_*`` and
``redis_*`` modules beside this one.
"""

from __future__ import annotations

import datetime as _dt
import email.utils as _email_utils
import hashlib
import re
import time
import zlib
from dataclasses import dataclass, field

from ..changesketch import ChangeSketch

__all__ = [
    "ARCHIVED", "FETCH", "MAX_ANCHOR_CHARS", "RECHECK", "SKIP", "Emitted", "Plan", "RecheckPolicy", "Resume", "clean_anchor_text",
    "archive_day", "decide", "hint_is_later", "pack_http_date", "pack_text", "pack_time", "sketch_of_texts",
    "unpack_http_date", "unpack_text", "unpack_time", "url_hash",
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
    sketch: bytes  # :class:`~newsstemmer.crawl.changesketch.ChangeSketch` of the version sent: measures the next change
    version: int
    first_seen: str
    published: str | None = None
    archived: bool = False  # known by its key's digest only (storage.retention): a change cannot be measured


# -- times as stored (SQLite): 4 bytes where the string comes back the same -----------------------------
def pack_time(iso: str | None) -> bytes | str | None:
    """An ISO time as stored: 4 bytes (seconds since 1970, big-endian) when it is a whole-second
    UTC time written as ``datetime.isoformat`` writes it (``2026-11-22T07:00:25+00:00``: the
    crawl's own times and most published dates), so that :func:`unpack_time` gives back the
    same string; anything else as given."""
    if not iso or len(iso) != 25 or not iso.endswith("+00:00"):
        return iso
    try:
        seconds = int(_dt.datetime.fromisoformat(iso).timestamp())
    except ValueError:
        return iso
    if not 0 <= seconds < 2**32 or _iso(seconds) != iso:
        return iso
    return seconds.to_bytes(4, "big")


def unpack_time(stored: bytes | str | None) -> str | None:
    """What :func:`pack_time` stored, as the string it was."""
    return _iso(int.from_bytes(stored, "big")) if isinstance(stored, bytes) else stored


def _iso(seconds: int) -> str:
    return _dt.datetime.fromtimestamp(seconds, _dt.timezone.utc).isoformat()


def pack_http_date(text: str | None) -> bytes | str | None:
    """An HTTP date (``Last-Modified``) as stored: 4 bytes (seconds since 1970) when it is in
    the form :func:`email.utils.formatdate` writes (``Tue, 10 Nov 2026 05:52:00 GMT``, RFC 9110's
    preferred form), so that :func:`unpack_http_date` gives back the same string; else as given."""
    if not text or len(text) != 29 or not text.endswith(" GMT"):
        return text
    try:
        seconds = int(_email_utils.parsedate_to_datetime(text).timestamp())
    except (TypeError, ValueError, IndexError):
        return text
    if not 0 <= seconds < 2**32 or _email_utils.formatdate(seconds, usegmt=True) != text:
        return text
    return seconds.to_bytes(4, "big")


def unpack_http_date(stored: bytes | str | None) -> str | None:
    """What :func:`pack_http_date` stored, as the string it was."""
    return _email_utils.formatdate(int.from_bytes(stored, "big"), usegmt=True) if isinstance(stored, bytes) else stored


# -- archived articles (past the retention window) ---------------------------------------------------
#: What an archived article's record says when asked for (see :func:`url_hash`).
ARCHIVED = "archived"


def url_hash(text: str) -> int:
    """A 63-bit digest of a URL (or canonical key): the whole record an article keeps once it is
    older than the texts' retention window (``NEWSSTEMMER_KEEP_TEXT_DAYS``).  Such an article can
    no longer be measured for a change, so all the incremental check needs is that it is known:
    8 bytes instead of its URL, hash, dates, validators and anchors (collisions: ~n²/2⁶⁴, about
    one in 10⁷ for a million articles, which would make one new article look known)."""
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big") >> 1


def archive_day(when: float | None = None) -> int:
    """Days since 1970-01-01 (UTC) of ``when`` (seconds; now if None): the date kept with an archived record."""
    return int((time.time() if when is None else when) // 86400)


def pack_text(text: str, like: str = "", level: int = 1) -> bytes:
    """``text`` zlib-compressed, with ``like`` as its preset dictionary: a page's text packed
    with its body as the dictionary stores the body's lines it holds as back-references
    (~1.2 KB instead of ~1.85 KB a page on the soak's sites)."""
    packer = zlib.compressobj(level, zdict=like.encode("utf-8")) if like else zlib.compressobj(level)
    return packer.compress(text.encode("utf-8")) + packer.flush()


def sketch_of_texts(body: bytes | None, page_text: bytes | None) -> bytes:
    """The change sketch of an article stored, before history schema 3, as its packed texts
    (:func:`pack_text`: the page's with the body as its dictionary); ``b""`` when none were kept."""
    if not body:
        return b""
    text = unpack_text(body)
    return ChangeSketch.of(text, unpack_text(page_text, text)).to_bytes()


def unpack_text(blob: bytes | None, like: str = "") -> str:
    """What :func:`pack_text` packed (with the same ``like``; a text packed without one reads too);
    "" for a missing or damaged one (compared with nothing)."""
    if not blob:
        return ""
    try:
        unpacker = zlib.decompressobj(zdict=like.encode("utf-8")) if like else zlib.decompressobj()
        return (unpacker.decompress(blob) + unpacker.flush()).decode("utf-8")
    except (zlib.error, UnicodeDecodeError):
        return ""


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


@dataclass(frozen=True)
class RecheckPolicy:
    """When a known article is asked for again (a conditional request), by its age.

    An article (a URL recorded as one: see :meth:`.sqlite_fetchlog.FetchLog.plan`) is due
    once the time since its last check reaches its *interval*: ``after`` seconds
    (``NEWSSTEMMER_RECHECK_AFTER``), or ``backoff`` times its age (the time since its
    first check, ``NEWSSTEMMER_RECHECK_BACKOFF``) when that is longer; a tenth of the
    interval (at most an hour) is slack, so that a run a day rechecks what yesterday's
    run checked at a slightly later time.  An article first checked more than
    ``window`` seconds ago (``NEWSSTEMMER_RECHECK_WINDOW``) is no longer due by age at
    all.  Why: news articles change in their first hours and days; rechecking every
    known article at a fixed interval makes a run's cost grow with every article ever
    seen.  With the defaults (24 h, 0.5, 7 days) and a run a day an article is rechecked
    1, 2 and 4 days after its first check, then never by age: a run's rechecks follow the articles
    of its last week, not of all time.  A sitemap/feed date later than the recorded one
    makes a recheck due at any age (:func:`decide`).
    """

    after: float = 24 * 3600.0
    backoff: float = 0.5
    window: float | None = 7 * 86400.0  # None: no window

    def due(self, checked: float | None, first: float | None, now: float) -> bool:
        """Whether an article last checked at ``checked`` and first at ``first`` (None:
        unknown, as in records written before first checks were kept: taken as ``checked``)
        is due for a recheck at ``now``."""
        if checked is None:
            return True
        first = checked if first is None else min(first, checked)
        age = now - first
        if self.window is not None and age > self.window:
            return False
        interval = max(self.after, self.backoff * age)
        return now - checked >= interval - min(interval / 10, 3600.0)


def decide(record: tuple | None, recheck: "RecheckPolicy | float", hint: str | None,
           now: float | None) -> tuple[Plan, bool]:
    """The plan for a URL from its record ``(etag, last_modified, checked, article, hint[, first])``
    (None: never seen; ``first``: its first check time), and whether ``hint`` becomes its
    baseline date (see :meth:`.sqlite_fetchlog.FetchLog.plan`).  ``recheck``: the
    :class:`RecheckPolicy`, or a number of seconds for a fixed interval (no backoff, no window)."""
    if record is None or not record[3]:
        return Plan(FETCH, {}), False
    etag, last_modified, checked, _, old_hint = record[:5]
    first = record[5] if len(record) > 5 else None
    policy = recheck if isinstance(recheck, RecheckPolicy) else RecheckPolicy(float(recheck), 0.0, None)
    headers = {}
    if etag:
        headers["If-None-Match"] = etag
    if last_modified:
        headers["If-Modified-Since"] = last_modified
    now = time.time() if now is None else now
    if hint is not None and old_hint is not None and hint_is_later(hint, old_hint):
        return Plan(RECHECK, headers), False  # the sitemap or feed says it changed
    due = policy.due(None if checked is None else float(checked), None if first is None else float(first), now)
    if not due:
        return Plan(SKIP, headers), hint is not None and old_hint is None
    return Plan(RECHECK, headers), False


# -- linkinfo ----------------------------------------------------------------------------------------
_SPACE = re.compile(r"\s+")
#: Longer anchor texts are cut (a link wrapping a whole teaser is not a headline).
MAX_ANCHOR_CHARS = 500


def clean_anchor_text(text: str) -> str:
    """Whitespace collapsed, cut to :data:`MAX_ANCHOR_CHARS`."""
    return _SPACE.sub(" ", text).strip()[:MAX_ANCHOR_CHARS]
