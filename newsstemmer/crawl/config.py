"""The ``NEWSSTEMMER_*`` Scrapy settings, their defaults, and one object holding them.

Every component reads its settings through :meth:`Config.from_settings`, so the
defaults live here and nowhere else.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["DEFAULTS", "Config", "usable_cpus"]

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
}


def _single_page_method(value: Any) -> str:
    """The single-page extractor for pages no layout covers ("" or None: none)."""
    from ..single import REMOVED_METHODS, SINGLE_PAGE_METHODS

    method = (value or "").strip().lower() if isinstance(value, str) or value is None else value
    if method in ("", "none"):
        return ""
    if method in REMOVED_METHODS:
        raise ValueError(f"NEWSSTEMMER_SINGLE_PAGE_METHOD: {REMOVED_METHODS[method]}")
    if method not in SINGLE_PAGE_METHODS:
        raise ValueError(
            f"NEWSSTEMMER_SINGLE_PAGE_METHOD: {value!r} is not one of {', '.join(SINGLE_PAGE_METHODS)} (or empty)"
        )
    return method


def _report_dir(value: Any, state_dir: Path) -> Path | None:
    """Where the crawl writes its HTML reports: None (off), ``<state>/report``, or a folder."""
    if value is None or value is False:
        return None
    if value is True:
        return state_dir / "report"
    text = str(value).strip()
    if text.lower() in ("", "0", "false", "off", "no", "none"):
        return None
    if text.lower() in ("1", "true", "on", "yes"):
        return state_dir / "report"
    return Path(text)


def _redis_prefix(value: Any) -> str:
    """The Redis key prefix: letters, digits and ``_.:-`` only (it is part of every key)."""
    text = str(value or "").strip()
    if not re.fullmatch(r"[\w.:-]{1,100}", text):
        raise ValueError(f"NEWSSTEMMER_REDIS_PREFIX: {value!r}: use 1-100 letters, digits, '_', '.', ':' or '-'")
    return text


def _worker_timeout(raw: Any) -> float:
    """Seconds of silence after which a worker counts as dead (2 to 3600)."""
    try:
        value = float(raw)
    except (TypeError, ValueError):
        raise ValueError(f"NEWSSTEMMER_WORKER_TIMEOUT: {raw!r} is not a number of seconds") from None
    if not 2 <= value <= 3600:
        raise ValueError(f"NEWSSTEMMER_WORKER_TIMEOUT: {value} is not between 2 and 3600 seconds")
    return value


def usable_cpus() -> int:
    """CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # (not on every platform)
        return os.cpu_count() or 1


def _sidecar(raw: Any) -> bool:
    """``NEWSSTEMMER_SIDECAR``: ``auto`` (on when this process may use two CPUs or more), or a boolean."""
    if isinstance(raw, str) and raw.strip().lower() == "auto":
        return usable_cpus() >= 2
    if isinstance(raw, str) and raw.strip().lower() in ("1", "true", "yes", "on"):
        return True
    if isinstance(raw, str) and raw.strip().lower() in ("0", "false", "no", "off", ""):
        return False
    if isinstance(raw, (bool, int)):
        return bool(raw)
    raise ValueError(f"NEWSSTEMMER_SIDECAR: {raw!r} is not auto, True or False")


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
    recheck_after: float = 24.0  # hours
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

    @classmethod
    def from_settings(cls, settings: Any) -> "Config":
        """Read a Scrapy ``Settings`` object (anything with ``get``/``getint``/``getbool``)."""

        def get(name: str) -> Any:
            return settings.get(name, DEFAULTS[name])

        def getint(name: str) -> int:
            return settings.getint(name, DEFAULTS[name])

        def getbool(name: str) -> bool:
            return settings.getbool(name, DEFAULTS[name])

        state_dir = Path(get("NEWSSTEMMER_STATE_DIR"))
        def getfloat(name: str, low: float = 0.0, high: float = float("inf")) -> float:
            value = settings.getfloat(name, DEFAULTS[name])
            if not low <= value <= high:
                raise ValueError(f"{name}: {value} is not between {low} and {high}")
            return value

        return cls(
            enabled=getbool("NEWSSTEMMER_ENABLED"),
            state_dir=state_dir,
            patterns_dir=Path(get("NEWSSTEMMER_PATTERNS_DIR")),
            min_pages=max(2, getint("NEWSSTEMMER_MIN_PAGES")),
            max_depth=getint("NEWSSTEMMER_MAX_DEPTH"),
            max_pages_per_site=getint("NEWSSTEMMER_MAX_PAGES_PER_SITE"),
            include_non_articles=getbool("NEWSSTEMMER_INCLUDE_NON_ARTICLES"),
            include_unmatched=getbool("NEWSSTEMMER_INCLUDE_UNMATCHED"),
            single_page_method=_single_page_method(get("NEWSSTEMMER_SINGLE_PAGE_METHOD")),
            section_model=getbool("NEWSSTEMMER_SECTION_MODEL"),
            resume=getbool("NEWSSTEMMER_RESUME"),
            demo_port=getint("NEWSSTEMMER_DEMO_PORT"),
            report=_report_dir(get("NEWSSTEMMER_REPORT"), state_dir),
            report_pages=max(1, getint("NEWSSTEMMER_REPORT_PAGES")),
            demo_day=getint("NEWSSTEMMER_DEMO_DAY"),
            incremental=getbool("NEWSSTEMMER_INCREMENTAL"),
            recheck_after=getfloat("NEWSSTEMMER_RECHECK_AFTER"),
            update_min_change=getfloat("NEWSSTEMMER_UPDATE_MIN_CHANGE", 0.0, 1.0),
            sitemaps=getbool("NEWSSTEMMER_SITEMAPS"),
            feeds=getbool("NEWSSTEMMER_FEEDS"),
            drift_coverage=getfloat("NEWSSTEMMER_DRIFT_COVERAGE", 0.0, 1.0),
            drift_min_pages=max(1, getint("NEWSSTEMMER_DRIFT_MIN_PAGES")),
            drift_sample=max(0, getint("NEWSSTEMMER_DRIFT_SAMPLE")),
            retire_after_runs=max(1, getint("NEWSSTEMMER_RETIRE_AFTER_RUNS")),
            health_min_coverage=getfloat("NEWSSTEMMER_HEALTH_MIN_COVERAGE", 0.0, 1.0),
            health_max_error_rate=getfloat("NEWSSTEMMER_HEALTH_MAX_ERROR_RATE", 0.0, 1.0),
            redis_url=str(get("NEWSSTEMMER_REDIS_URL") or "").strip(),
            redis_prefix=_redis_prefix(get("NEWSSTEMMER_REDIS_PREFIX")),
            worker_timeout=_worker_timeout(get("NEWSSTEMMER_WORKER_TIMEOUT")),
            sidecar=_sidecar(get("NEWSSTEMMER_SIDECAR")),
        )

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
