"""Spidermon monitors for scheduled newsstemmer crawls (``pip install newsstemmer[monitoring]``).

Enable them in the project's settings (or with ``-s``)::

    SPIDERMON_ENABLED = True
    EXTENSIONS = {"spidermon.contrib.scrapy.extensions.Spidermon": 500}
    SPIDERMON_ENGINE_STOP_MONITORS = ["newsstemmer.crawl.spidermon_suite.NewsstemmerMonitorSuite"]

The suite reads the run's per-site health records
(:class:`~newsstemmer.crawl.monitor.RunMonitor`, also written to
``<state>/health.jsonl``) and fails, per site, on what
:func:`~newsstemmer.crawl.monitor.health_alerts` reports: no new articles for a site
that usually has some, coverage below ``NEWSSTEMMER_HEALTH_MIN_COVERAGE``, an error
rate above ``NEWSSTEMMER_HEALTH_MAX_ERROR_RATE``.  Spidermon logs the failures and runs
the project's ``SPIDERMON_..._ACTIONS`` (e-mail, Slack, ...).  Use the engine-stop
hook: the health records are complete once the spider has closed.

Importing this module needs spidermon; nothing else in newsstemmer does.
"""

from __future__ import annotations

from typing import Any

from spidermon import Monitor, MonitorSuite, monitors

from .monitor import RunMonitor

__all__ = ["NewsstemmerHealthMonitor", "NewsstemmerMonitorSuite"]


@monitors.name("newsstemmer health")
class NewsstemmerHealthMonitor(Monitor):
    """Per-site health of a newsstemmer crawl (see :func:`newsstemmer.crawl.monitor.health_alerts`)."""

    def _records(self) -> list[dict[str, Any]]:
        monitor = RunMonitor.of(self.data.crawler.stats)
        if monitor is None:
            self.skipTest("newsstemmer is not enabled in this crawl")
        return monitor.records()

    def _check(self, word: str) -> None:
        failed = [f"{r['site']}: {a}" for r in self._records() for a in r.get("alerts", []) if word in a]
        self.assertFalse(failed, "; ".join(failed))

    @monitors.name("new articles where there usually are some")
    def test_new_articles(self) -> None:
        self._check("no new articles")

    @monitors.name("coverage of article pages by learned layouts")
    def test_coverage(self) -> None:
        self._check("coverage")

    @monitors.name("error rate")
    def test_error_rate(self) -> None:
        self._check("error rate")


class NewsstemmerMonitorSuite(MonitorSuite):
    monitors = [NewsstemmerHealthMonitor]
