"""HTML reports of what was learned: a site's layouts, and an overview of a crawl.

::

    from newsstemmer.report import build_site_report, render_site_report, write_html
    report = build_site_report(SitePatterns.load("patterns/example.com.json"), pages)
    write_html("report.html", render_site_report(report))

A report is one self-contained HTML file (inline CSS and SVG, nothing fetched, a
strict Content-Security-Policy).  Each layout gets a ``<section data-layout="ID">``
with its figures, its sections (role, DiffScore, MainScore) and a sample page with
its blocks marked by role (``data-role``), sanitised (:mod:`.sample`).  Pages no
layout covers are listed with the fallback's result.  :mod:`.crawl` reads what a
crawl kept for its reports (``NEWSSTEMMER_REPORT``) and draws the crawl overview.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..layout.patterns import write_atomically
from .sitereport import LayoutView, PageResult, SiteReport, build_site_report
from .render import CSP, render_site_report
from .sample import Sample, marked_sample, sanitise

__all__ = [
    "CSP",
    "LayoutView",
    "PageResult",
    "Sample",
    "SiteReport",
    "build_site_report",
    "marked_sample",
    "render_site_report",
    "sanitise",
    "write_html",
]


def write_html(path: str | os.PathLike[str], document: str) -> Path:
    """Write a report atomically (temporary file, then rename), readable by all; returns the path."""
    return write_atomically(path, document, mode=0o644)
