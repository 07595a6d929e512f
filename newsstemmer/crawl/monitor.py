"""Per-site figures of a run: coverage, drift, health records and alerts.

One :class:`RunMonitor` per crawl (made by the learner) counts, for every site,
what happened to its pages: fetched, not modified (``304``), skipped as fresh,
failed; articles new, updated, unchanged; the extraction method of each item and
its body length; which layout matched each page.

**Coverage** is the share of a site's *article-like* pages that a learned article
layout extracted.  A page is article-like when an article layout matched it, or
when no layout matched it and it carries a publication date in its markup (structured
data, meta tags or ``<time>``: :mod:`newsstemmer.metadata`; a date in the URL or in a
visible line does not count, index pages show those too); index pages (non-article
layouts) are not.

**Drift**: for a site that started the run with patterns, once
``NEWSSTEMMER_DRIFT_MIN_PAGES`` article-like pages were seen and the start
layouts matched fewer than ``NEWSSTEMMER_DRIFT_COVERAGE`` of them, drift is
detected (logged, counted): the learner then re-fetches a sample of the site's
known articles (``NEWSSTEMMER_DRIFT_SAMPLE``) so that a relearning round has
enough pages of the new design, and its new layouts become a new version of the
pattern file.

At the end of the run one **health record** per site goes to the run log and to
``<state>/health.jsonl`` (the README documents its fields), with the **alerts**
of :func:`health_alerts`; the Spidermon suite (:mod:`newsstemmer.crawl.spidermon_suite`)
fails on the same alerts.
"""

from __future__ import annotations

import logging
import statistics
from collections import Counter
from dataclasses import dataclass, field
from typing import Any
from weakref import WeakKeyDictionary

from ..layout.patterns import SitePatterns
from .config import Config
from .items import utc_now

__all__ = ["RunMonitor", "SiteRun", "health_alerts", "non_article_kinds"]

log = logging.getLogger(__name__)

_MONITORS: "WeakKeyDictionary[Any, RunMonitor]" = WeakKeyDictionary()
#: Past runs that say whether a site "usually" has new articles.
BASELINE_RUNS = 5


@dataclass
class SiteRun:
    """What one run did with one site's pages."""

    site: str
    patterns_at_start: int = 0  # layouts in use when the run started
    revision_at_start: int | None = None
    counts: Counter[str] = field(default_factory=Counter)
    methods: Counter[str] = field(default_factory=Counter)
    body_chars: list[int] = field(default_factory=list)
    layouts: Counter[str] = field(default_factory=Counter)  # layout id -> pages it matched
    first_like: int = 0  # article-like pages when first seen (sites with patterns at start)
    first_matched: int = 0
    like: int = 0  # article-like pages, final outcomes
    matched: int = 0
    drift: bool = False
    coverage_before: float | None = None
    relearned: bool = False
    added: list[str] = field(default_factory=list)
    retired: list[str] = field(default_factory=list)
    unsaved: list[str] = field(default_factory=list)  # layouts used in this run but not saved
    revision: int | None = None

    @property
    def coverage(self) -> float | None:
        return round(self.matched / self.like, 4) if self.like else None


#: where a page's publication date came from when it says nothing of the page's kind
_WEAK_DATE_SOURCES = ("url", "text")


def non_article_kinds(counts: Counter) -> dict[str, int]:
    """A site's non-article pages per page kind (``listing``, ``service``...), from its run
    counts (the learner counts ``non_articles/<kind>`` beside ``non_articles``)."""
    return {name.split("/", 1)[1]: n for name, n in sorted(counts.items()) if name.startswith("non_articles/") and n}


def _article_like(outcome: Any) -> tuple[bool, bool]:
    """``(article-like, matched by an article layout)`` of a learner outcome."""
    item = getattr(outcome, "item", None)
    if outcome.kind == "extracted":
        return True, True
    if outcome.kind == "unmatched" and item is not None and item.published:
        if item.meta_source.get("published") not in _WEAK_DATE_SOURCES:
            return True, False
    return False, False


class RunMonitor:
    """Per-site figures of one crawl (see the module docstring)."""

    def __init__(self, stats: Any, config: Config, patterns: dict[str, SitePatterns]):
        self.stats = stats
        self.config = config
        self.sites: dict[str, SiteRun] = {}
        for site, sp in patterns.items():
            self.sites[site] = SiteRun(site, len(sp.patterns), sp.revision)
        self.run: int | None = None
        self.started = utc_now()
        self.finished: list[dict[str, Any]] | None = None
        #: Site -> ids of its layouts in use at the end (a layout that matched nothing is
        #: recorded with 0 matches, which is what retirement counts); set by the learner.
        self.in_use: dict[str, list[str]] = {}
        self.history: Any = None  # the run log (past records: is a quiet run unusual?), set by the learner
        _MONITORS[stats] = self

    @classmethod
    def of(cls, stats: Any) -> "RunMonitor | None":
        """The monitor of the crawl whose stats collector is ``stats`` (None if newsstemmer is off)."""
        return _MONITORS.get(stats)

    def site(self, site: str) -> SiteRun:
        run = self.sites.get(site)
        if run is None:
            run = self.sites[site] = SiteRun(site)
        return run

    def count(self, site: str, name: str, n: int = 1) -> None:
        self.site(site).counts[name] += n

    # -- pages ----------------------------------------------------------------------------
    def first_look(self, site: str, outcome: Any) -> bool:
        """A page of a site with patterns, matched (or not) by them as it arrived.

        Returns True when this page makes drift detected (once per site and run).
        """
        run = self.site(site)
        if not run.patterns_at_start:
            return False
        like, matched = _article_like(outcome)
        if not like:
            return False
        run.first_like += 1
        run.first_matched += matched
        coverage = run.first_matched / run.first_like
        if run.drift or run.first_like < self.config.drift_min_pages or coverage >= self.config.drift_coverage:
            return False
        run.drift = True
        run.coverage_before = round(coverage, 4)
        self.stats.inc_value("newsstemmer/drift_detected")
        log.warning("newsstemmer: %s: drift detected: the learned layouts match %d of %d article pages "
                    "(coverage %.2f < %.2f): relearning from this run's pages", site, run.first_matched,
                    run.first_like, coverage, self.config.drift_coverage)
        return True

    def final(self, site: str, outcome: Any) -> None:
        """What finally became of a page (extracted, non-article, unmatched, failed)."""
        run = self.site(site)
        like, matched = _article_like(outcome)
        run.like += like
        run.matched += matched
        item = getattr(outcome, "item", None)
        if item is not None and item.pattern and outcome.kind in ("extracted", "non_article"):
            run.layouts[item.pattern] += 1
        if item is not None and outcome.kind in ("extracted", "unmatched"):
            run.methods[item.method or "none"] += 1
            run.body_chars.append(len(item.body))

    def learned(self, site: str, added: list[str], revision: int, saved: bool = True,
                in_use: list[str] | None = None) -> None:
        """A learning round added layouts: a new version of the site's file, or (``saved`` False:
        learned from too few pages) layouts used in this run only, the file left as it was.

        ``in_use``: the site's layouts after the round; those used unsaved before and now in a
        saved file count as added by this run.
        """
        run = self.site(site)
        if saved:
            now_saved = [i for i in run.unsaved if in_use is None or i in in_use]
            run.added.extend(i for i in now_saved + added if i not in run.added)
            run.unsaved = [i for i in run.unsaved if i not in now_saved]
            run.revision = revision
        else:
            run.unsaved.extend(i for i in added if i not in run.unsaved)
        if run.drift and added and not run.relearned:
            run.relearned = True
            self.stats.inc_value("newsstemmer/drift_relearned")
            log.warning("newsstemmer: %s: relearned after drift: %d layouts added (%s), pattern file version %d",
                        site, len(added), ", ".join(added), revision)

    def retired(self, site: str, ids: list[str], revision: int) -> None:
        """Layouts retired from the site's file; one added earlier in this run (a thin layout
        learned again) is no longer among ``layouts_added``, which name layouts in use."""
        run = self.site(site)
        run.retired.extend(ids)
        run.added = [i for i in run.added if i not in ids]
        run.revision = revision

    # -- the end of the run -----------------------------------------------------------------
    def records(self, reason: str = "", history: Any = None) -> list[dict[str, Any]]:
        """One health record per site seen in this run (see the README for the fields)."""
        if self.finished is not None:
            return self.finished
        history = history if history is not None else self.history
        out = []
        for site in sorted(self.sites):
            run = self.sites[site]
            if not any(run.counts.values()) and not run.like and not run.layouts:
                continue  # patterns loaded, site not crawled this time
            out.append(self._record(run, reason, history))
        return out

    def _record(self, run: SiteRun, reason: str, history: Any) -> dict[str, Any]:
        c = run.counts
        failures = c["failures"] + c["http_errors"]
        tried = c["pages"] + failures
        bodies = sorted(run.body_chars)
        record: dict[str, Any] = {
            "run": self.run, "site": run.site, "started": self.started, "finished": utc_now(), "reason": reason,
            "pages": c["pages"], "not_modified": c["not_modified"], "skipped_fresh": c["skipped_fresh"],
            "new_articles": c["new"], "updates": c["updates"], "unchanged": c["unchanged"],
            "extracted": c["extracted"], "non_articles": c["non_articles"],
            "non_article_kinds": non_article_kinds(c), "unmatched": c["unmatched"],
            "failures": failures, "error_rate": round(failures / tried, 4) if tried else 0.0,
            "article_pages": run.like, "coverage": run.coverage,
            "methods": dict(sorted(run.methods.items())),
            "body_chars": {"n": len(bodies), "median": statistics.median(bodies) if bodies else None,
                           "p10": bodies[len(bodies) // 10] if bodies else None,
                           "p90": bodies[(9 * len(bodies)) // 10] if bodies else None},
            "patterns_version": run.revision or run.revision_at_start,
            "drift": {"detected": run.drift, "coverage_before": run.coverage_before,
                      "coverage_after": run.coverage if run.drift else None, "relearned": run.relearned,
                      "layouts_added": run.added, "layouts_retired": run.retired},
            "layouts_not_saved": run.unsaved,
        }
        past = history.recent(run.site, BASELINE_RUNS, before=self.run) if history is not None else []
        record["alerts"] = health_alerts(record, past, self.config)
        return record

    def finish(self, reason: str, runlog: Any, health_path: Any) -> list[dict[str, Any]]:
        """Write the health records (run log and ``health.jsonl``), log each site's line."""
        from .storage.sqlite_runlog import append_jsonl

        records = self.records(reason, runlog)
        for record in records:
            matches = self.site(record["site"]).layouts
            layouts = {p: matches.get(p, 0) for p in self.in_use.get(record["site"], [])} | dict(matches)
            runlog.add(self.run or 0, record["site"], record, layouts)
            d = record["drift"]
            log.info("newsstemmer: %s: %d pages, %d new articles, %d updates, coverage %s%s%s", record["site"],
                     record["pages"], record["new_articles"], record["updates"],
                     "n/a" if record["coverage"] is None else f"{record['coverage']:.2f}",
                     f"; drift: coverage before {d['coverage_before']:.2f}, after "
                     f"{'n/a' if d['coverage_after'] is None else format(d['coverage_after'], '.2f')}, relearned "
                     f"{'yes' if d['relearned'] else 'no'}" if d["detected"] else "",
                     f"; ALERTS: {'; '.join(record['alerts'])}" if record["alerts"] else "")
            if record["alerts"]:
                self.stats.inc_value("newsstemmer/health_alerts", len(record["alerts"]))
        append_jsonl(health_path, records)
        self.finished = records
        return records


def health_alerts(record: dict[str, Any], past: list[dict[str, Any]], config: Config) -> list[str]:
    """What is wrong with a site's run, as short sentences (empty: healthy).

    * no new or updated article although the site usually has some (the median of
      its last runs, at least two of them, is one or more);
    * coverage below ``NEWSSTEMMER_HEALTH_MIN_COVERAGE`` (with at least
      ``NEWSSTEMMER_DRIFT_MIN_PAGES`` article pages);
    * error rate (failed pages and HTTP errors over pages tried) above
      ``NEWSSTEMMER_HEALTH_MAX_ERROR_RATE``.
    """
    alerts = []
    fresh = record.get("new_articles", 0) + record.get("updates", 0)
    usual = [r.get("new_articles", 0) + r.get("updates", 0) for r in past]
    if fresh == 0 and len(usual) >= 2 and statistics.median(usual) >= 1:
        alerts.append(f"no new articles (usually {statistics.median(usual):g})")
    coverage = record.get("coverage")
    if coverage is not None and record.get("article_pages", 0) >= config.drift_min_pages \
            and coverage < config.health_min_coverage:
        alerts.append(f"coverage {coverage:.2f} below {config.health_min_coverage:.2f}")
    if record.get("error_rate", 0) > config.health_max_error_rate:
        alerts.append(f"error rate {record['error_rate']:.2f} above {config.health_max_error_rate:.2f}")
    return alerts
