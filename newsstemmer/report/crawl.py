"""A crawl's reports: one site report per site crawled, and an overview page.

Made from what the crawl kept in its state folder (:mod:`.store`: sample pages and
per-site figures), the sites' patterns, and, when the crawl keeps a run history
(issue #13's per-run health records), coverage over runs as a line chart.  The
same function serves the crawl at its close and ``newsstemmer report --state DIR``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lxml import etree
from lxml.html import builder as E

from ..layout.patterns import PatternFileError, SitePatterns, pattern_file_name
from ..page import Page
from . import write_html
from .charts import line_chart, share_bar
from .sitereport import build_site_report
from .render import figure, kind_counts, kinds_text, page_shell, percent, render_site_report
from .crawl_data import DATA_DIR, CrawlDataError, SampleStore, read_summary

__all__ = ["HISTORY_FILES", "CrawlDataError", "SiteLine", "read_history", "render_overview", "site_file", "write_crawl_reports"]

#: Where a run history may be, relative to the state folder (JSON Lines, one record per
#: site and run); the first that exists is read.
HISTORY_FILES = ("health.jsonl", "history.jsonl", "runs.jsonl", "health/runs.jsonl", "health/history.jsonl")
_RUN_KEYS = ("run", "run_id", "finished", "finished_at", "ended", "time", "started", "started_at", "date")


def site_file(site: str) -> str:
    """File name of a site's report in the reports folder."""
    return "site-" + re.sub(r"[^\w.-]", "_", site) + ".html"


def read_history(state_dir: str | Path) -> dict[str, list[tuple[str, float]]]:
    """Coverage per site over runs, from the crawl's run history, if there is one.

    Tolerant by design (the history is another part's file): a missing file gives
    ``{}``; lines that are not JSON objects with a ``site`` and a numeric
    ``coverage`` (a share, or a percentage above 1) are skipped.  The run label is
    the record's ``run`` ("run N" for a number; else its time fields); points come in
    file order.
    """
    for name in HISTORY_FILES:
        path = Path(state_dir) / name
        if path.is_file():
            break
    else:
        return {}
    out: dict[str, list[tuple[str, float]]] = {}
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return {}
    for n, line in enumerate(lines, 1):
        try:
            rec = json.loads(line)
        except (ValueError, RecursionError):
            continue
        if not isinstance(rec, dict):
            continue
        for rec in _site_records(rec):
            site, cov = rec.get("site"), rec.get("coverage")
            if not isinstance(site, str) or isinstance(cov, bool) or not isinstance(cov, (int, float)):
                continue
            if cov != cov or cov < 0:
                continue
            cov = cov / 100 if cov > 1 else cov
            run = next((rec[k] for k in _RUN_KEYS if rec.get(k) is not None), n)
            run = f"run {run}" if isinstance(run, int) else str(run)
            out.setdefault(site, []).append((run, float(min(cov, 1.0))))
    return out


def _site_records(rec: dict[str, Any]) -> list[dict[str, Any]]:
    """A record per site: the record itself, or the per-site records of a run record
    (``{"run": ..., "sites": {site: {...}}}``)."""
    sites = rec.get("sites")
    if isinstance(sites, dict):
        run = {k: rec[k] for k in _RUN_KEYS if k in rec}
        return [{**run, "site": s, **v} for s, v in sites.items() if isinstance(v, dict)]
    return [rec]


@dataclass
class SiteLine:
    """One row of the overview: a site's figures and its report file."""

    site: str
    report: str  # file name of the site's report
    pages: int = 0  # HTML pages fetched by the crawl
    sampled: int = 0  # of which kept for the report
    layouts: int = 0
    coverage: float | None = None
    articles: int = 0
    unmatched: int = 0
    failures: int = 0
    non_articles: int = 0  # pages typed non-article (not emitted)
    non_article_kinds: dict[str, int] = field(default_factory=dict)  # of which, per page kind
    note: str = ""


def write_crawl_reports(
    state_dir: str | Path,
    out_dir: str | Path | None = None,
    *,
    patterns: dict[str, SitePatterns] | None = None,
    patterns_dir: str | Path | None = None,
    fallback: str | None = None,
    progress: Callable[[str, int, int], None] | None = None,
) -> list[Path]:
    """Write every site's report and the overview (``index.html``, first in the list).

    ``patterns`` (by site) are the crawl's own at its close; otherwise the sites'
    files are loaded from ``patterns_dir`` (default: the folder the crawl used).
    Raises :class:`~newsstemmer.report.crawl_data.CrawlDataError` if the state folder
    holds no report data.
    """
    data_dir = Path(state_dir) / DATA_DIR
    summary = read_summary(data_dir)
    out = Path(out_dir) if out_dir is not None else data_dir
    # (a crawl's summary without the setting was written before it existed: PageRank then)
    fallback = summary.get("single_page_method", "pagerank") if fallback is None else fallback or None
    notes: dict[str, str] = {}
    if patterns is None:
        folder = patterns_dir if patterns_dir is not None else summary.get("patterns_dir")
        patterns, notes = _load_patterns(Path(folder)) if isinstance(folder, (str, Path)) else ({}, {})
    store = SampleStore(data_dir / "pages.sqlite", create=False)
    try:
        counts = store.sites()
        figures: dict[str, dict[str, Any]] = summary.get("sites", {})
        lines: list[SiteLine] = []
        written: list[Path] = []
        # the last crawl's sites (samples of sites it did not reach belong to older crawls)
        names = sorted(figures) if figures else sorted(counts)
        for k, site in enumerate(names, 1):
            fig = figures.get(site, {})
            sp = patterns.get(site) or SitePatterns(site, [])
            pages = (Page(html, url=url, source=url) for url, html in store.pages(site))
            report = build_site_report(sp, pages, patterns_source=_source(site, patterns, summary), fallback=fallback,
                                       crawl=fig or None)
            written.append(write_html(out / site_file(site), render_site_report(report)))
            lines.append(SiteLine(
                site=site,
                report=site_file(site),
                pages=_int(fig.get("pages")),
                sampled=counts.get(site, 0),
                layouts=len(sp.patterns),
                coverage=report.coverage,
                articles=_int(fig.get("articles")),
                unmatched=_int(fig.get("unmatched")),
                failures=_int(fig.get("failures")),
                non_articles=_int(fig.get("non_articles")),
                non_article_kinds=kind_counts(fig.get("non_article_kinds")),
                note=notes.get(site, "" if site in patterns else "no layouts learned"),
            ))
            if progress:
                progress("site reports", k, len(names))
    finally:
        store.close()
    overview = render_overview(summary, lines, read_history(state_dir))
    return [write_html(out / "index.html", overview), *written]


def _source(site: str, patterns: dict[str, SitePatterns], summary: dict[str, Any]) -> str:
    folder = summary.get("patterns_dir")
    return str(Path(folder) / pattern_file_name(site)) if isinstance(folder, str) and site in patterns else "(none)"


def _load_patterns(folder: Path) -> tuple[dict[str, SitePatterns], dict[str, str]]:
    """The pattern files of ``folder`` by site, and a note per site whose file is unreadable."""
    found: dict[str, SitePatterns] = {}
    notes: dict[str, str] = {}
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        try:
            sp = SitePatterns.load(path)
        except PatternFileError as exc:
            notes[path.stem] = str(exc)
            continue
        found[sp.site] = sp
    return found, notes


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def render_overview(summary: dict[str, Any], lines: list[SiteLine], history: dict[str, list[tuple[str, float]]]) -> str:
    """The crawl overview page: figures, coverage over runs, one row per site."""
    pages = sum(s.pages for s in lines)
    sampled = sum(s.sampled for s in lines)
    covered = sum(round((s.coverage or 0) * s.sampled) for s in lines)
    when = summary.get("finished") or ""
    head = [
        E.HEADER(
            E.H1(f"Crawl overview: {len(lines)} site{'s' if len(lines) != 1 else ''}"),
            E.P(E.CLASS("ns-muted"), f"Crawl finished {when}" + (f" ({summary['reason']})" if summary.get("reason") else "")
                + f"; patterns in {summary.get('patterns_dir', '?')}."),
        ),
        E.E("section", {"class": "ns-card ns-summary", "id": "summary"},
            E.H2("Summary"),
            E.DIV(E.CLASS("ns-figures"),
                  figure(str(len(lines)), "sites"),
                  figure(str(pages), "HTML pages fetched"),
                  figure(percent(covered / sampled if sampled else None), f"coverage (of {sampled} pages kept)"),
                  figure(str(sum(s.articles for s in lines)), "articles emitted"),
                  figure(str(sum(s.unmatched for s in lines)), "emitted without a layout"),
                  figure(str(sum(s.non_articles for s in lines)), "non-articles (not emitted)"),
                  figure(str(_int(summary.get("failures"))), "failed pages")),
            ),
    ]
    shown = {site: points for site, points in history.items() if points}
    if shown:
        crawled = {s.site for s in lines}
        order = sorted(shown, key=lambda site: (site not in crawled, site))[:8]  # this crawl's sites first
        chart = line_chart({site: shown[site] for site in order}, label="coverage per site over runs")
        head.append(E.E("section", {"class": "ns-card", "id": "history"}, E.H2("Coverage over runs"), chart,
                        E.P(E.CLASS("ns-muted"), "Share of each site's pages a learned layout covered, per run "
                            "(from the crawl's run history)." + (" First 8 sites shown." if len(shown) > 8 else ""))))
    else:
        head.append(E.P(E.CLASS("ns-muted"), {"id": "history"}, "No run history in the state folder yet: "
                        "coverage over runs appears here once runs record it."))
    rows = [_site_row(s) for s in lines]
    table = E.TABLE(
        {"id": "sites"},
        E.TR(E.TH("site"), E.TH({"class": "ns-num"}, "pages"), E.TH({"class": "ns-num"}, "layouts"),
             E.TH("coverage"), E.TH({"class": "ns-num"}, "articles"), E.TH({"class": "ns-num"}, "no layout"),
             E.TH({"class": "ns-num"}, "failures"), E.TH("non-articles"), E.TH("note")),
        *rows,
    )
    body = E.E("section", {"class": "ns-card", "id": "site-list"}, E.H2("Sites"), table)
    return page_shell("newsstemmer crawl overview", *head, body,
                      E.FOOTER("Made by newsstemmer report. Each site's page shows its layouts with a marked "
                               "sample page."))


def _site_row(s: SiteLine) -> etree._Element:
    cov = s.coverage
    bar = share_bar([("covered", round(100 * (cov or 0)), "#2e7d32"), ("not covered", 100 - round(100 * (cov or 0)),
                     "#ef6c00")], width=120, height=10) if cov is not None else E.SPAN("–")
    return E.TR(
        {"data-site": s.site},
        E.TD(E.A(s.site, href=s.report)),
        E.TD({"class": "ns-num"}, f"{s.pages} ({s.sampled} kept)" if s.pages != s.sampled else str(s.pages)),
        E.TD({"class": "ns-num"}, str(s.layouts)),
        E.TD(bar, f" {percent(cov)}"),
        E.TD({"class": "ns-num"}, str(s.articles)),
        E.TD({"class": "ns-num"}, str(s.unmatched)),
        E.TD({"class": "ns-num"}, str(s.failures)),
        E.TD(str(s.non_articles) + (f" ({kinds_text(s.non_article_kinds)})" if s.non_article_kinds else "")),
        E.TD(E.CLASS("ns-muted"), s.note),
    )

