"""The ``NEWSSTEMMER_*`` Scrapy settings, their defaults, and one object holding them.

Every component reads its settings through :meth:`Config.from_settings`, so the
defaults live here and nowhere else, and so does the check of each value's type and
range (:class:`SettingError`: one sentence naming the setting, the value and what is
allowed).  :func:`stop_on_user_error` turns such a mistake, raised while a crawl is set
up, into one line on stderr and exit status 1.
"""

from __future__ import annotations

import difflib
import os
import re
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator
from urllib.parse import urlsplit

from ..article import BODY_FORMATS, body_formats
from ..blocks import OPTIONAL_KINDS, kept_kinds
from ..errors import NewsstemmerError

if TYPE_CHECKING:
    from .storage.records import RecheckPolicy

__all__ = ["DEFAULTS", "Config", "SettingError", "stop_on_user_error", "usable_cpus"]

#: Setting name -> default.  The README's settings table documents each one.
DEFAULTS: dict[str, Any] = {
    "NEWSSTEMMER_ENABLED": True,
    "NEWSSTEMMER_STATE_DIR": ".newsstemmer",
    "NEWSSTEMMER_PATTERNS_DIR": "patterns",
    "NEWSSTEMMER_MIN_PAGES": 20,
    "NEWSSTEMMER_MAX_DEPTH": 3,
    "NEWSSTEMMER_MAX_PAGES_PER_SITE": 500,
    "NEWSSTEMMER_INCLUDE_NON_ARTICLES": False,
    "NEWSSTEMMER_INCLUDE_UNMATCHED": True,
    "NEWSSTEMMER_SINGLE_PAGE_METHOD": "region",
    "NEWSSTEMMER_SECTION_MODEL": False,
    "NEWSSTEMMER_RESUME": True,
    "NEWSSTEMMER_DEMO_PORT": 8765,
    "NEWSSTEMMER_REPORT": False,
    "NEWSSTEMMER_REPORT_PAGES": 100,
    "NEWSSTEMMER_DEMO_DAY": 1,
    "NEWSSTEMMER_INCREMENTAL": True,
    "NEWSSTEMMER_RECHECK_AFTER": 24.0,
    "NEWSSTEMMER_RECHECK_BACKOFF": 0.5,
    "NEWSSTEMMER_RECHECK_WINDOW": 7.0,
    "NEWSSTEMMER_MAX_RECHECKS_PER_SITE": 200,
    "NEWSSTEMMER_UPDATE_MIN_CHANGE": 0.02,
    "NEWSSTEMMER_SITEMAPS": True,
    "NEWSSTEMMER_FEEDS": True,
    "NEWSSTEMMER_DRIFT_COVERAGE": 0.6,
    "NEWSSTEMMER_DRIFT_MIN_PAGES": 5,
    "NEWSSTEMMER_DRIFT_SAMPLE": 20,
    "NEWSSTEMMER_RETIRE_AFTER_RUNS": 10,
    "NEWSSTEMMER_HEALTH_MIN_COVERAGE": 0.8,
    "NEWSSTEMMER_HEALTH_MAX_ERROR_RATE": 0.1,
    "NEWSSTEMMER_REDIS_URL": "",
    "NEWSSTEMMER_REDIS_PREFIX": "newsstemmer",
    "NEWSSTEMMER_WORKER_TIMEOUT": 30.0,
    "NEWSSTEMMER_SIDECAR": "auto",
    "NEWSSTEMMER_PRUNE": True,
    "NEWSSTEMMER_KEEP_TEXT_DAYS": 30.0,
    "NEWSSTEMMER_KEEP_ANCHORS": 8,
    "NEWSSTEMMER_KEEP_RUNS": 100,
    "NEWSSTEMMER_HEALTH_MAX_MB": 10.0,
    "NEWSSTEMMER_BODY_FORMATS": "text",
    "NEWSSTEMMER_KEEP": "",
}


class SettingError(NewsstemmerError, ValueError):
    """A ``NEWSSTEMMER_*`` setting or spider argument the crawl cannot start with; its
    message is one sentence naming the setting, the value and what is allowed."""


#: The demo site's last day (``newsstemmer.demo.days.MAX_DAY``; kept here so that checking
#: the settings does not load the demo, and a test holds the two equal).
DEMO_LAST_DAY = 30


def _wrong(name: str, value: Any, allowed: str) -> SettingError:
    return SettingError(f"{name} = {value!r} is not allowed: {allowed}.")


_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")


def _bool(name: str, raw: Any) -> bool:
    """True/False, 1/0, or the strings true/false, yes/no, on/off (any case)."""
    if isinstance(raw, bool):
        return raw
    if isinstance(raw, int) and raw in (0, 1):
        return bool(raw)
    text = str(raw).strip().lower() if isinstance(raw, str) else None
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise _wrong(name, raw, "use True or False")


def _int(name: str, raw: Any, low: int, high: int | None = None) -> int:
    """A whole number from ``low`` (to ``high``)."""
    allowed = f"use a whole number from {low} to {high}" if high is not None else f"use a whole number of {low} or more"
    if isinstance(raw, bool):
        raise _wrong(name, raw, allowed)
    try:
        value = int(raw.strip()) if isinstance(raw, str) else int(raw)
        if isinstance(raw, float) and raw != value:
            raise ValueError
    except (TypeError, ValueError, OverflowError):
        raise _wrong(name, raw, allowed) from None
    if value < low or (high is not None and value > high):
        raise _wrong(name, raw, allowed)
    return value


def _float(name: str, raw: Any, low: float = 0.0, high: float | None = None) -> float:
    """A number from ``low`` (to ``high``)."""
    allowed = f"use a number from {low:g} to {high:g}" if high is not None else f"use a number of {low:g} or more"
    if isinstance(raw, bool):
        raise _wrong(name, raw, allowed)
    try:
        value = float(raw.strip()) if isinstance(raw, str) else float(raw)
    except (TypeError, ValueError):
        raise _wrong(name, raw, allowed) from None
    if not (value >= low and (high is None or value <= high)):  # (also false for NaN)
        raise _wrong(name, raw, allowed)
    return value


def _folder(name: str, raw: Any) -> Path:
    """A folder path (it need not exist yet)."""
    if isinstance(raw, Path):
        return raw
    if not isinstance(raw, str) or not raw.strip():
        raise _wrong(name, raw, "use a folder path")
    return Path(raw.strip())


def _single_page_method(value: Any) -> str:
    """The single-page extractor for pages no layout covers ("" or None: none)."""
    from ..single import REMOVED_METHODS, SINGLE_PAGE_METHODS

    name = "NEWSSTEMMER_SINGLE_PAGE_METHOD"
    allowed = f"use one of {', '.join(SINGLE_PAGE_METHODS)}, or none"
    if value is not None and not isinstance(value, str):
        raise _wrong(name, value, allowed)
    method = (value or "").strip().lower()
    if method in ("", "none"):
        return ""
    if method in REMOVED_METHODS:
        raise SettingError(f"{name}: {REMOVED_METHODS[method].rstrip('.')}.")
    if method not in SINGLE_PAGE_METHODS:
        raise _wrong(name, value, allowed)
    return method


def _report_dir(value: Any, state_dir: Path) -> Path | None:
    """Where the crawl writes its HTML reports: None (off), ``<state>/report``, or a folder."""
    if value is None or value is False:
        return None
    if value is True:
        return state_dir / "report"
    if isinstance(value, int):
        if value in (0, 1):
            return state_dir / "report" if value else None
        raise _wrong("NEWSSTEMMER_REPORT", value, "use True, False or a folder path")
    text = str(value).strip()
    if text.lower() in ("", "none") + _FALSE:
        return None
    if text.lower() in _TRUE:
        return state_dir / "report"
    return Path(text)


def _redis_url(raw: Any) -> str:
    """"" (no Redis) or a ``redis://``, ``rediss://`` or ``unix://`` URL."""
    text = str(raw or "").strip()
    if not text:
        return ""
    allowed = "use redis://HOST[:PORT][/DB] (or rediss://, unix://PATH), or leave it empty"
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018 (raises ValueError on a port that is not a number from 0 to 65535)
    except ValueError:
        raise _wrong("NEWSSTEMMER_REDIS_URL", raw, allowed) from None
    if parts.scheme in ("redis", "rediss") and parts.hostname or parts.scheme == "unix" and parts.path:
        return text
    raise _wrong("NEWSSTEMMER_REDIS_URL", raw, allowed)


def _redis_prefix(value: Any) -> str:
    """The Redis key prefix: letters, digits and ``_.:-`` only (it is part of every key)."""
    text = str(value or "").strip()
    if not re.fullmatch(r"[\w.:-]{1,100}", text):
        raise _wrong("NEWSSTEMMER_REDIS_PREFIX", value, "use 1-100 letters, digits, '_', '.', ':' or '-'")
    return text


def _worker_timeout(raw: Any) -> float:
    """Seconds of silence after which a worker counts as dead (2 to 3600)."""
    return _float("NEWSSTEMMER_WORKER_TIMEOUT", raw, 2.0, 3600.0)


def _unknown_settings(settings: Any) -> None:
    """A ``NEWSSTEMMER_*`` name that is no setting is a typo: say which one was meant."""
    try:
        names = [n for n in settings if isinstance(n, str) and n.startswith("NEWSSTEMMER_")]
    except TypeError:
        return
    for name in names:
        if name not in DEFAULTS:
            close = difflib.get_close_matches(name, list(DEFAULTS), n=1)
            hint = f"did you mean {close[0]}?" if close else "the README's settings table lists them"
            raise SettingError(f"{name} is not a newsstemmer setting: {hint}")


@contextmanager
def stop_on_user_error() -> Iterator[None]:
    """Turn a user's mistake (a :class:`SettingError`, Scrapy's ``UsageError``) raised
    while a crawl is being set up into one line on stderr and exit status 1.

    Under Scrapy's asyncio start an exception from a component's ``from_crawler`` (or
    an add-on's ``update_settings``) arrives as "Task exception was never retrieved"
    with a traceback; ``SystemExit`` leaves the event loop and the process at once,
    and Python prints its message alone.
    """
    from scrapy.exceptions import UsageError

    try:
        yield
    except (SettingError, UsageError) as exc:
        raise SystemExit(f"newsstemmer: error: {exc}") from None


def usable_cpus() -> int:
    """CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # (not on every platform)
        return os.cpu_count() or 1


def _names(name: str, raw: Any, read: Any, allowed: str) -> Any:
    """A comma-separated list (or a list) of names, read by ``read`` (which raises
    ``ValueError`` for an unknown name)."""
    if isinstance(raw, (list, tuple, set, frozenset)):
        raw_names: Any = list(raw)
    elif isinstance(raw, str):
        raw_names = raw
    else:
        raise _wrong(name, raw, allowed)
    try:
        return read(raw_names)
    except ValueError:
        raise _wrong(name, raw, allowed) from None


def _sidecar(raw: Any) -> bool:
    """``NEWSSTEMMER_SIDECAR``: ``auto`` (on when this process may use two CPUs or more), or a boolean."""
    if isinstance(raw, str) and raw.strip().lower() in ("auto", ""):
        return usable_cpus() >= 2 if raw.strip() else False
    try:
        return _bool("NEWSSTEMMER_SIDECAR", raw)
    except SettingError:
        raise _wrong("NEWSSTEMMER_SIDECAR", raw, "use auto, True or False") from None


@dataclass(frozen=True)
class Config:
    """The newsstemmer settings of one crawl."""

    enabled: bool = True
    state_dir: Path = Path(".newsstemmer")
    patterns_dir: Path = Path("patterns")
    min_pages: int = 20
    max_depth: int = 3
    max_pages_per_site: int = 500
    include_non_articles: bool = False
    include_unmatched: bool = True
    single_page_method: str = "region"  # or "pagerank", "crf", or "" for none
    # Learning rounds apply the learned section decision (newsstemmer.combine.sections).
    # Off: it is trained on layouts learned from a whole site's pages, and a crawl learns
    # from its first pages (docs/history/notes-sessions-01-10.md, session 6: slower rounds,
    # no better crawl F1).
    section_model: bool = False
    resume: bool = True
    demo_port: int = 8765
    report: Path | None = None  # folder of the HTML reports written at close (NEWSSTEMMER_REPORT), None: off
    report_pages: int = 100  # pages per site kept for the reports
    demo_day: int = 1
    incremental: bool = True
    # When known articles are asked for again (newsstemmer.crawl.storage.records.RecheckPolicy):
    recheck_after: float = 24.0  # hours: the shortest wait between two checks
    recheck_backoff: float = 0.5  # the wait is at least this share of the article's age
    recheck_window: float = 7.0  # days after its first check; older articles only when their sitemap/feed date changes
    max_rechecks_per_site: int = 200  # per run, besides max_pages_per_site
    update_min_change: float = 0.02
    sitemaps: bool = True
    feeds: bool = True
    drift_coverage: float = 0.6
    drift_min_pages: int = 5
    drift_sample: int = 20
    retire_after_runs: int = 10
    health_min_coverage: float = 0.8
    health_max_error_rate: float = 0.1
    redis_url: str = ""  # shared state of many workers in Redis (NEWSSTEMMER_REDIS_URL); "": SQLite, one process
    redis_prefix: str = "newsstemmer"  # first part of every Redis key: one crawl per prefix
    worker_timeout: float = 30.0  # seconds of silence after which a worker counts as dead (its work passes on)
    # Extraction and learning rounds in a second process (newsstemmer.crawl.sidecar);
    # the default ("auto") is on when two CPUs or more are free to use.
    sidecar: bool = field(default_factory=lambda: usable_cpus() >= 2)
    # What the state folder keeps (newsstemmer.crawl.storage.retention), pruned at the crawl's close.
    prune: bool = True
    keep_text_days: float = 30.0
    keep_anchors: int = 8
    keep_runs: int = 100
    health_max_mb: float = 10.0
    # The body formats each article item carries ("text" always; "markdown", "html",
    # "blocks") and the optional block kinds its body keeps (newsstemmer.blocks.OPTIONAL_KINDS).
    body_formats: tuple[str, ...] = ("text",)
    keep: frozenset[str] = frozenset()

    @classmethod
    def from_settings(cls, settings: Any) -> "Config":
        """Read and check a Scrapy ``Settings`` object (anything with ``get``).

        Raises :class:`SettingError` (one sentence: the setting, the value, what is
        allowed) for a value of the wrong type or out of range, or an unknown
        ``NEWSSTEMMER_*`` name.
        """
        _unknown_settings(settings)

        def get(name: str) -> Any:
            value = settings.get(name, DEFAULTS[name])
            return DEFAULTS[name] if value is None else value

        def flag(name: str) -> bool:
            return _bool(name, get(name))

        def whole(name: str, low: int, high: int | None = None) -> int:
            return _int(name, get(name), low, high)

        def number(name: str, low: float = 0.0, high: float | None = None) -> float:
            return _float(name, get(name), low, high)

        def share(name: str) -> float:
            return _float(name, get(name), 0.0, 1.0)

        state_dir = _folder("NEWSSTEMMER_STATE_DIR", get("NEWSSTEMMER_STATE_DIR"))
        return cls(
            enabled=flag("NEWSSTEMMER_ENABLED"),
            state_dir=state_dir,
            patterns_dir=_folder("NEWSSTEMMER_PATTERNS_DIR", get("NEWSSTEMMER_PATTERNS_DIR")),
            min_pages=whole("NEWSSTEMMER_MIN_PAGES", 2),
            max_depth=whole("NEWSSTEMMER_MAX_DEPTH", 0),
            max_pages_per_site=whole("NEWSSTEMMER_MAX_PAGES_PER_SITE", 1),
            include_non_articles=flag("NEWSSTEMMER_INCLUDE_NON_ARTICLES"),
            include_unmatched=flag("NEWSSTEMMER_INCLUDE_UNMATCHED"),
            single_page_method=_single_page_method(settings.get("NEWSSTEMMER_SINGLE_PAGE_METHOD",
                                                                DEFAULTS["NEWSSTEMMER_SINGLE_PAGE_METHOD"])),
            section_model=flag("NEWSSTEMMER_SECTION_MODEL"),
            resume=flag("NEWSSTEMMER_RESUME"),
            demo_port=whole("NEWSSTEMMER_DEMO_PORT", 0, 65535),
            report=_report_dir(get("NEWSSTEMMER_REPORT"), state_dir),
            report_pages=whole("NEWSSTEMMER_REPORT_PAGES", 1),
            demo_day=whole("NEWSSTEMMER_DEMO_DAY", 1, DEMO_LAST_DAY),
            incremental=flag("NEWSSTEMMER_INCREMENTAL"),
            recheck_after=number("NEWSSTEMMER_RECHECK_AFTER"),
            recheck_backoff=number("NEWSSTEMMER_RECHECK_BACKOFF", 0.0, 10.0),
            recheck_window=number("NEWSSTEMMER_RECHECK_WINDOW"),
            max_rechecks_per_site=whole("NEWSSTEMMER_MAX_RECHECKS_PER_SITE", 0),
            update_min_change=share("NEWSSTEMMER_UPDATE_MIN_CHANGE"),
            sitemaps=flag("NEWSSTEMMER_SITEMAPS"),
            feeds=flag("NEWSSTEMMER_FEEDS"),
            drift_coverage=share("NEWSSTEMMER_DRIFT_COVERAGE"),
            drift_min_pages=whole("NEWSSTEMMER_DRIFT_MIN_PAGES", 1),
            drift_sample=whole("NEWSSTEMMER_DRIFT_SAMPLE", 0),
            retire_after_runs=whole("NEWSSTEMMER_RETIRE_AFTER_RUNS", 1),
            health_min_coverage=share("NEWSSTEMMER_HEALTH_MIN_COVERAGE"),
            health_max_error_rate=share("NEWSSTEMMER_HEALTH_MAX_ERROR_RATE"),
            redis_url=_redis_url(get("NEWSSTEMMER_REDIS_URL")),
            redis_prefix=_redis_prefix(get("NEWSSTEMMER_REDIS_PREFIX")),
            worker_timeout=_worker_timeout(get("NEWSSTEMMER_WORKER_TIMEOUT")),
            sidecar=_sidecar(get("NEWSSTEMMER_SIDECAR")),
            prune=flag("NEWSSTEMMER_PRUNE"),
            keep_text_days=number("NEWSSTEMMER_KEEP_TEXT_DAYS"),
            keep_anchors=whole("NEWSSTEMMER_KEEP_ANCHORS", 2),
            keep_runs=whole("NEWSSTEMMER_KEEP_RUNS", 20),
            health_max_mb=number("NEWSSTEMMER_HEALTH_MAX_MB", 0.01),
            body_formats=_names("NEWSSTEMMER_BODY_FORMATS", get("NEWSSTEMMER_BODY_FORMATS"), body_formats,
                                f"use a comma-separated list of {', '.join(BODY_FORMATS)}"),
            keep=_names("NEWSSTEMMER_KEEP", get("NEWSSTEMMER_KEEP"), kept_kinds,
                        f"use a comma-separated list of {', '.join(sorted(OPTIONAL_KINDS))} (or nothing)"),
        )

    @property
    def recheck_policy(self) -> RecheckPolicy:
        """When known articles are rechecked, in seconds (``NEWSSTEMMER_RECHECK_*``)."""
        from .storage.records import RecheckPolicy

        return RecheckPolicy(self.recheck_after * 3600, self.recheck_backoff, self.recheck_window * 86400)

    @property
    def buffer_path(self) -> Path:
        return self.state_dir / "buffer.sqlite"

    @property
    def linkinfo_path(self) -> Path:
        return self.state_dir / "linkinfo.sqlite"

    @property
    def frontier_path(self) -> Path:
        return self.state_dir / "frontier.sqlite"

    @property
    def history_path(self) -> Path:
        return self.state_dir / "history.sqlite"

    @property
    def fetchlog_path(self) -> Path:
        return self.state_dir / "fetchlog.sqlite"

    @property
    def runlog_path(self) -> Path:
        return self.state_dir / "runs.sqlite"

    @property
    def health_path(self) -> Path:
        return self.state_dir / "health.jsonl"
