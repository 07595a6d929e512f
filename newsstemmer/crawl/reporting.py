"""The crawl's HTML reports (``NEWSSTEMMER_REPORT``): sample pages kept while crawling,
reports written at close.

While the crawl runs, the first ``NEWSSTEMMER_REPORT_PAGES`` HTML pages of each site
are kept in the state folder (:class:`newsstemmer.report.crawl_data.SampleStore`; a site's
pages from an earlier crawl are replaced) and the articles emitted are counted per
site.  At close, the figures go to ``<state>/report/crawl.json`` and
:func:`newsstemmer.report.crawl.write_crawl_reports` writes a report per site, with
the crawl's patterns, and the overview ``index.html``.  ``newsstemmer report --state
DIR`` writes the same reports again later.  A report that cannot be made is logged;
it never stops or fails the crawl.
"""

from __future__ import annotations

import logging
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from scrapy import signals
from scrapy.http import TextResponse

from ..layout.learning import site_of
from ..report.crawl import write_crawl_reports
from ..report.crawl_data import DATA_DIR, SampleStore, write_summary
from .items import ArticleItem, utc_now
from .learner import EMIT_META, FAILED_BY_SITE, STATS, SiteLearner
from .monitor import RunMonitor, non_article_kinds

__all__ = ["CrawlReporter"]

log = logging.getLogger(__name__)

_HTML_TYPES = ("", "text/html", "application/xhtml+xml")


class CrawlReporter:
    """Keeps what the reports need during the crawl and writes them at its close."""

    def __init__(self, crawler: Any, learner: SiteLearner) -> None:
        self.crawler = crawler
        self.learner = learner
        self.config = learner.config
        self.data_dir = self.config.state_dir / DATA_DIR
        self.store = SampleStore(self.data_dir / "pages.sqlite")
        self.figures: dict[str, Counter[str]] = defaultdict(Counter)
        self._cleared: set[str] = set()  # sites whose samples of an earlier crawl are gone
        crawler.signals.connect(self.response_received, signal=signals.response_received)
        crawler.signals.connect(self.item_scraped, signal=signals.item_scraped)

    @classmethod
    def for_crawler(cls, crawler: Any, learner: SiteLearner) -> "CrawlReporter | None":
        """The crawl's reporter, or None when ``NEWSSTEMMER_REPORT`` is off."""
        if learner.config.report is None:
            return None
        return cls(crawler, learner)

    def response_received(self, response: Any, request: Any) -> None:
        """Keep an HTML page of a site (up to the per-site limit)."""
        try:
            if request.meta.get(EMIT_META) is not None or not isinstance(response, TextResponse):
                return
            if response.status != 200 or not response.url.startswith(("http://", "https://")):
                return
            ctype = response.headers.get(b"Content-Type", b"").decode("latin-1").split(";", 1)[0].strip().lower()
            if ctype not in _HTML_TYPES:
                return
            site = site_of(response.url)
            figures = self.figures[site]
            figures["pages"] += 1
            if figures["kept"] >= self.config.report_pages:
                return
            if site not in self._cleared:
                self.store.clear(site)
                self._cleared.add(site)
            self.store.add(site, response.url, response.text, utc_now())
            figures["kept"] += 1
        except Exception as exc:  # noqa: BLE001 - the report must never stop the crawl
            log.debug("newsstemmer: report: page not kept: %s: %s", getattr(response, "url", "?"), exc)

    def item_scraped(self, item: Any) -> None:
        """Count the articles that reached the feeds, per site."""
        if isinstance(item, ArticleItem):
            if item.reason is None:
                self.figures[item.site]["articles"] += 1
            elif item.reason != "non-article layout":
                self.figures[item.site]["unmatched"] += 1

    @staticmethod
    def _run_figures(monitor: RunMonitor | None, site: str) -> dict[str, Any]:
        """What the crawl's closing line and health record say of ``site``, in their words:
        the site report shows them beside the figures of its sample."""
        if monitor is None or site not in monitor.sites:
            return {}
        run = monitor.sites[site]
        c = run.counts
        return {"pages_crawled": c["pages"], "pages_failed": c["failures"] + c["http_errors"], "new_articles": c["new"], "updates": c["updates"], "unchanged": c["unchanged"],
                "skipped_fresh": c["skipped_fresh"], "non_articles": c["non_articles"],
                "non_article_kinds": non_article_kinds(c),
                "layouts_used": dict(sorted(run.layouts.items()))}

    def close(self, reason: str = "") -> Path | None:
        """Write the figures and the reports; returns the overview's path (None on failure)."""
        started = time.monotonic()
        try:
            self.store.close()
            stats = self.crawler.stats
            by_site = stats.get_value(FAILED_BY_SITE) or {}
            monitor = RunMonitor.of(stats)
            sites = {
                site: {
                    "pages": f["pages"],
                    "kept": f["kept"],
                    "articles": f["articles"],
                    "unmatched": f["unmatched"],
                    "failures": int(by_site.get(site, 0)),
                    **self._run_figures(monitor, site),
                }
                for site, f in sorted(self.figures.items())
            }
            for site, n in by_site.items():
                sites.setdefault(site, {"pages": 0, "kept": 0, "articles": 0, "unmatched": 0, "failures": int(n)})
            write_summary(self.data_dir, {
                "finished": utc_now(),
                "reason": reason,
                "patterns_dir": str(Path(self.config.patterns_dir).resolve()),
                "single_page_method": self.config.single_page_method,
                "failures": int(stats.get_value(STATS + "pages_failed", 0) or 0),
                "sites": sites,
            })
            written = write_crawl_reports(
                self.config.state_dir,
                self.config.report,
                patterns=dict(self.learner.patterns),
                fallback=self.config.single_page_method,
            )
        except Exception:  # noqa: BLE001 - a report is not worth failing the crawl for
            log.exception("newsstemmer: the crawl report could not be written")
            return None
        log.info("newsstemmer: crawl report: %s (%d site reports, %.1f s)", written[0], len(written) - 1,
                 time.monotonic() - started)
        return written[0]
