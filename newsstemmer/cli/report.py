"""``newsstemmer report``: an HTML picture of a site's layouts, or of a whole crawl.

::

    newsstemmer report patterns/example.com.json pages/ -o report.html
    newsstemmer report --state .newsstemmer [-o reports/]

The first form extracts the given pages with the pattern file (and the fallback for
pages no layout covers) and writes one self-contained HTML file: per layout its
figures, its sections and a sample page with its blocks marked by role.  The second
form writes the reports of the last crawl run with ``NEWSSTEMMER_REPORT`` (one per
site and ``index.html``, the crawl overview) from what it kept in the state folder.
Sample pages are shown inert (see :mod:`newsstemmer.report.sample`).
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterator

from ..combine.extract import ExtractOptions
from ..single import DEFAULT_SINGLE_PAGE_METHOD, SINGLE_PAGE_METHODS
from ..io.files import NO_PAGES, PageFile, PageReadError, find_pages, read_page
from ..io.linkinfo import page_from_file
from ..page import Page
from ..report import PageResult, build_site_report, render_site_report, write_html
from .common import (CLIError, Reporter, check_writable, fraction, load_patterns, method_name, plural, replace_given,
                     require_inputs)

__all__ = ["add_arguments", "run"]

DESCRIPTION = (
    "Write an HTML report of a site's layouts (PATTERNS.json, with sample PAGEs), "
    "or of the last crawl (--state DIR)."
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Give the ``report`` parser its description and arguments."""
    eo = ExtractOptions()
    p.description = DESCRIPTION
    p.add_argument("inputs", nargs="*", metavar="PATTERNS.json [PAGE ...]",
                   help="pattern file written by 'learn', then HTML or WARC files or directories of the site")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="report file to write (default report.html); with --state, the folder for the "
                   "reports (default DIR/report)")
    p.add_argument("--state", metavar="DIR",
                   help="the crawl's state folder (NEWSSTEMMER_STATE_DIR): write the last crawl's reports")
    p.add_argument("--patterns-dir", metavar="DIR",
                   help="with --state: the sites' pattern files (default: the folder the crawl used)")
    p.add_argument("--fallback", choices=(*SINGLE_PAGE_METHODS, "none"), type=method_name,
                   help=f"single-page method for pages no layout covers (default {DEFAULT_SINGLE_PAGE_METHOD}; with --state, "
                   "the crawl's own)")
    p.add_argument("--pattern-threshold", type=fraction, metavar="SHARE",
                   help=f"share of a page's weight a pattern must cover (default {eo.pattern_threshold})")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress or summary on stderr")
    p.set_defaults(func=run)


def run(args: argparse.Namespace, rep: Reporter) -> int:
    """Run ``newsstemmer report``; return the exit code (user errors raise ``CLIError``)."""
    if args.state:
        if args.inputs:
            raise CLIError("--state takes no PATTERNS.json or PAGE arguments")
        return _run_state(args, rep)
    if args.patterns_dir:
        raise CLIError("--patterns-dir goes with --state")
    if not args.inputs:
        raise CLIError("give a pattern file (PATTERNS.json [PAGE ...]) or --state DIR")
    patterns_file, *page_args = args.inputs
    output = args.output or "report.html"
    if os.path.isdir(output):
        raise CLIError(f"{output}: is a directory (-o names the report file to write)")
    check_writable(output, "the report")
    site = load_patterns(patterns_file)
    options = replace_given(ExtractOptions(), pattern_threshold=args.pattern_threshold)
    files: list[PageFile] = []
    if page_args:
        files = find_pages(require_inputs(page_args), rep.message, info=rep.info, progress=rep.progress)
        rep.finish()
        if not files:
            raise CLIError(NO_PAGES)
    errors: list[tuple[str, str]] = []
    report = build_site_report(
        site,
        _read(files, errors, rep),
        patterns_source=patterns_file,
        fallback=_fallback(args.fallback, DEFAULT_SINGLE_PAGE_METHOD),
        options=options,
        progress=rep.progress,
        total=len(files),
    )
    rep.finish()
    report.errors[:0] = [PageResult(source, None, error=reason) for source, reason in errors]
    target = _write(output, render_site_report(report))
    rep.info(
        f"{report.readable} page{plural(report.readable)}, {len(site.patterns)} layout{plural(len(site.patterns))}"
        + (f", coverage {100 * report.coverage:.1f}%" if report.coverage is not None else "")
        + (f", {len(report.errors)} unreadable" if report.errors else "")
    )
    rep.info(f"wrote {target} ({os.path.getsize(target) / 1024:.0f} KiB)")
    return 0


def _read(files: list[PageFile], errors: list[tuple[str, str]], rep: Reporter) -> Iterator[Page]:
    """The readable pages, one at a time; unreadable ones are reported and noted in ``errors``."""
    for pf in files:
        try:
            text = read_page(pf)
        except PageReadError as exc:
            rep.message(f"{pf.source}: skipped: {exc}")
            errors.append((pf.source, str(exc)))
            continue
        yield page_from_file(pf, text)


def _fallback(given: str | None, default: str | None) -> str | None:
    if given is None:
        return default
    return None if given == "none" else given


def _write(path: str, document: str) -> str:
    try:
        return str(write_html(path, document))
    except OSError as exc:
        raise CLIError(f"{path}: cannot write the report: {exc.strerror or exc}", code=1) from None


def _run_state(args: argparse.Namespace, rep: Reporter) -> int:
    """``report --state DIR``: the last crawl's site reports and overview."""
    from ..report.crawl import CrawlDataError, write_crawl_reports

    if not os.path.isdir(args.state):
        raise CLIError(f"{args.state}: no such state folder")
    if args.patterns_dir and not os.path.isdir(args.patterns_dir):
        raise CLIError(f"{args.patterns_dir}: no such patterns folder")
    fallback = None if args.fallback is None else ("" if args.fallback == "none" else args.fallback)
    try:
        written = write_crawl_reports(
            args.state, args.output, patterns_dir=args.patterns_dir, fallback=fallback, progress=rep.progress
        )
    except CrawlDataError as exc:
        raise CLIError(str(exc)) from None
    except OSError as exc:
        raise CLIError(f"cannot write the reports: {exc.strerror or exc}", code=1) from None
    rep.finish()
    rep.info(f"wrote {len(written) - 1} site report{plural(len(written) - 1)} and the overview {written[0]}")
    return 0
