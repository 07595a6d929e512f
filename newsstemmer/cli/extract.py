"""``newsstemmer extract``: the title and body of each page, one JSON object per line on stdout
(with the page's own metadata: authors, dates, language, ...; ``--no-metadata`` leaves it out).

::

    newsstemmer extract -p site.json pages/ > articles.jsonl

``--method auto`` (default): the site's learned layouts, else single-page extraction;
``pattern``: layouts only; ``rules``: the site's CSS-selector rules alone (see
:mod:`newsstemmer.cli.rules`); ``region`` / ``pagerank`` / ``crf``: a single-page method alone.
A page that cannot be read or extracted gives a record with ``"error"`` and a message;
the exit code is then 1.

``--formats markdown,html,blocks`` adds ``body_markdown``, ``body_html`` and the typed
``blocks`` to each record (with ``captions`` and ``images``); ``--keep captions,code,...``
makes the body keep those block kinds; ``--output-format text|markdown|html`` prints one
page's body alone (:mod:`newsstemmer.blocks`, :mod:`newsstemmer.formats`).

With ``--jobs N`` (default: every core this process may use), the pages are extracted by
N processes, this one and N-1 forked ones (:mod:`newsstemmer.cli.forked`), in chunks, and
printed in input order: the same lines as one process gives, in less wall time on a
machine with several cores.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
from typing import Callable, Iterator

from ..article import Article, body_formats
from ..blocks import OPTIONAL_KINDS, kept_kinds
from ..combine.extract import ExtractOptions, add_metadata, add_page_type, extract_with_patterns
from ..single import DEFAULT_SINGLE_PAGE_METHOD, SINGLE_PAGE_METHODS, extract_single
from ..dom.parse import HTMLParseError
from ..io.files import NO_PAGES, PageFile, PageReadError, find_pages, read_page
from ..io.linkinfo import page_from_file
from ..layout.blocks import blocks_of
from ..layout.patterns import SitePatterns
from ..page import Page
from .common import (
    CLIError,
    Reporter,
    fraction,
    load_patterns,
    method_name,
    non_negative_int,
    replace_given,
    require_inputs,
    silence_stdout,
    write_line,
)

__all__ = ["add_arguments", "extract_records", "run"]

#: The record's field that holds the body in each ``--output-format``.
_FIELD_OF_FORMAT = {"text": "body", "markdown": "body_markdown", "html": "body_html"}

DESCRIPTION = "Extract title and body of each page; prints one JSON object per line."


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Give the ``extract`` parser its description and arguments."""
    eo = ExtractOptions()
    p.description = DESCRIPTION
    p.add_argument("pages", nargs="+", metavar="PAGE",
                   help="HTML or WARC file (.warc, .warc.gz), or directory (searched recursively)")
    p.add_argument("-p", "--patterns", metavar="PATTERNS.json", help="pattern file written by 'learn'")
    p.add_argument("--strict", action="store_true", help="a pattern applies only if every section finds a block")
    p.add_argument("--pattern-threshold", type=fraction, metavar="SHARE",
                   help=f"share of a page's weight a pattern must cover (default {eo.pattern_threshold})")
    p.add_argument("--method", choices=("auto", "pattern", "rules", *SINGLE_PAGE_METHODS), default="auto", type=method_name,
                   help="auto (default): learned layouts, else single-page extraction; pattern: layouts only; "
                   "rules: the site's CSS-selector rules alone (see 'rules'); region: the learned region "
                   "decision alone (the single-page default); pagerank: DOM PageRank alone; crf: CRF block "
                   "labelling alone")
    p.add_argument("--crf-model", metavar="MODEL.zip",
                   help="CRF model for --method crf (written by 'train-crf'; default: the shipped model)")
    p.add_argument("--include-sub", action="store_true", help="append SUB sections to the body")
    p.add_argument("--include-non-articles", action="store_true",
                   help="give the body of pages whose layout is not an article layout")
    p.add_argument("--no-metadata", action="store_true",
                   help="leave out the pages' own metadata (authors, dates, language, section, tags, ...)")
    p.add_argument("--formats", type=_formats, default=("text",), metavar="FORMAT[,FORMAT...]",
                   help="body formats each record carries beside the plain body: markdown (body_markdown), "
                   "html (body_html), blocks (the typed blocks); any of them adds captions and images")
    p.add_argument("--keep", type=_keep, default=frozenset(), metavar="KIND[,KIND...]",
                   help="block kinds the body keeps beside paragraphs, headings, lists, quotes and tables: "
                   f"{', '.join(sorted(OPTIONAL_KINDS))} (plurals such as captions are accepted)")
    p.add_argument("--output-format", choices=("text", "markdown", "html"),
                   help="print one page's body alone in this format, for people, instead of JSON lines")
    p.add_argument("-j", "--jobs", type=non_negative_int, default=0, metavar="N",
                   help="processes that extract, this one included (default 0: one per core available; "
                   "1: this process alone)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    p.set_defaults(func=run)


def _formats(text: str) -> tuple[str, ...]:
    """An argparse type: body formats, comma-separated."""
    try:
        return body_formats(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _keep(text: str) -> frozenset[str]:
    """An argparse type: optional block kinds, comma-separated."""
    try:
        return kept_kinds(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def error_record(source: str, reason: str, url: str | None = None) -> dict[str, object]:
    """The output line of a page that could not be read or extracted."""
    article = Article(url, "", "", matched=False, source=source, is_article=False, page_type="error", error=reason)
    return article.to_json_dict()


def page_title(page: Page) -> str:
    """The page's own title (the best title candidate of its blocks), or ""."""
    candidates = blocks_of(page).title_candidates()
    return candidates[0] if candidates else ""


#: What one extraction run applies to every page: (site, options, method, extractor, single).
Job = tuple[SitePatterns | None, ExtractOptions, str, Callable[..., Article], Callable[[Page, str], Article]]


def extract_file(pf: PageFile, job: Job) -> tuple[dict[str, object], str | None]:
    """Read and extract one page: its JSON record, and the error message to report, if any."""
    site, options, method, extractor, single = job
    try:
        text = read_page(pf)
    except PageReadError as exc:
        return error_record(pf.source, str(exc), pf.url), f"{pf.source}: error: {exc}"
    page = page_from_file(pf, text)
    try:
        if method in SINGLE_PAGE_METHODS or (site is None and options.fallback):
            article = single(page, method if method in SINGLE_PAGE_METHODS else options.fallback)
            article.source = pf.source
        elif site is None:
            article = Article(page.url, page_title(page), "", matched=False, source=pf.source)
        else:
            article = extractor(page, site, options)
            article.source = pf.source
            if not article.matched and not article.title:
                article.title = page_title(page)
        if options.page_type and article.page_score is None:
            add_page_type(article, page, None)  # (the chain types every page; a single method or the rules do not)
        if options.metadata and not article.meta_source and (
                article.is_article or not (article.matched or options.page_type)):
            add_metadata(article, page)  # (the chain fills it; a single method or the rules alone do not)
        options.apply_body_options(article)
    except HTMLParseError as exc:
        return error_record(pf.source, str(exc), page.url), f"{pf.source}: error: {exc}"
    except Exception as exc:  # a core bug on one page must not stop the run
        reason = f"internal error: {type(exc).__name__}: {exc}"
        return error_record(pf.source, reason, page.url), f"{pf.source}: error: {reason}"
    return article.to_json_dict(), None


def extract_records(
    files: list[PageFile],
    site: SitePatterns | None,
    options: ExtractOptions,
    rep: Reporter,
    method: str = "auto",
    extractor: Callable[[Page, SitePatterns, ExtractOptions], Article] = extract_with_patterns,
    single: Callable[[Page, str], Article] = extract_single,
    jobs: int = 1,
) -> Iterator[dict[str, object]]:
    """Read and extract each page; yield its JSON record, in input order (errors reported
    on ``rep`` too).  ``jobs`` > 1 extracts with that many processes (this one and forked ones)."""
    job: Job = (site, options, method, extractor, single)
    for n, (record, message) in enumerate(_results(files, job, jobs, rep.message), 1):
        if message:
            rep.message(message)
        yield record
        rep.progress("extracting", n, len(files))


#: Pages a process takes at a time: enough that handing them over costs little, few
#: enough that no process is left waiting long for the others at the end.
CHUNK = 8


def worker_count(requested: int, pages: int) -> int:
    """The processes to extract with (this one included): ``requested`` (0: the cores
    available), 1 when there is too little work to share or processes cannot be forked here."""
    if requested == 1 or pages < 2 * CHUNK or not hasattr(os, "fork"):
        return 1
    available = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(1, min(requested or available, pages // CHUNK))


def _results(
    files: list[PageFile], job: Job, jobs: int, note: Callable[[str], None]
) -> Iterator[tuple[dict[str, object], str | None]]:
    workers = worker_count(jobs, len(files))
    if workers == 1:
        for pf in files:
            yield extract_file(pf, job)
        return
    from .forked import ordered_map  # (this process works too; see the module)

    yield from ordered_map(lambda pf: extract_file(pf, job), files, workers, CHUNK, note)


def run(args: argparse.Namespace, rep: Reporter) -> int:
    """Run ``newsstemmer extract``; return the exit code (user errors raise ``CLIError``)."""
    site = load_patterns(args.patterns) if args.patterns else None
    options = replace_given(
        ExtractOptions(),
        strict=args.strict or None,
        pattern_threshold=args.pattern_threshold,
        include_sub=args.include_sub or None,
        include_non_articles=args.include_non_articles or None,
        metadata=False if args.no_metadata else None,
        keep=args.keep or None,
        formats=(*args.formats, *([args.output_format] if args.output_format else [])) if (
            len(args.formats) > 1 or args.output_format) else None,
    )
    # auto: the site's layouts, else the best single-page method; pattern: layouts only.
    # (the per-page choice of region's body runs with "auto" only: "pattern" is the layouts alone)
    options = dataclasses.replace(options, fallback=DEFAULT_SINGLE_PAGE_METHOD if args.method == "auto" else None,
                                  page_choice=args.method == "auto")
    if args.method in ("pattern", "rules") and site is None:
        raise CLIError(f"--method {args.method} needs a pattern file (-p)")
    extractor: Callable[[Page, SitePatterns, ExtractOptions], Article] = extract_with_patterns
    if args.method == "rules":
        from ..combine.extract import extract_with_rules
        from .rules import load_site_rules  # CSS selectors: only for this method

        rules = load_site_rules(site, args.patterns)
        options = dataclasses.replace(options, fallback=None)
        extractor = lambda page, _site, _opts: extract_with_rules(page, rules)  # noqa: E731
    single: Callable[[Page, str], Article] = extract_single
    if args.crf_model and args.method != "crf":
        raise CLIError("--crf-model goes with --method crf")
    if args.method == "crf":  # load the model once, and fail early if it is unusable
        from ..single.crf import CRFExtractor, CRFModelError  # crfsuite: only for this method

        try:
            crf = CRFExtractor(args.crf_model)
        except CRFModelError as exc:
            raise CLIError(str(exc)) from None
        single = lambda page, method: extract_single(page, method, crf=crf)  # noqa: E731
    files = find_pages(require_inputs(args.pages), rep.message, info=rep.info, progress=rep.progress)
    rep.finish()
    if not files:
        raise CLIError(NO_PAGES)
    if args.output_format and len(files) != 1:
        raise CLIError(f"--output-format prints one page's body: give one page, not {len(files)}")
    errors = 0
    try:
        for record in extract_records(files, site, options, rep, args.method, extractor, single, args.jobs):
            if record.get("error"):
                errors += 1
            if args.output_format:
                body = record.get(_FIELD_OF_FORMAT[args.output_format]) or ""
                write_line(str(body))
            else:
                write_line(json.dumps(record, ensure_ascii=False))
    except BrokenPipeError:
        silence_stdout()
        return 1 if errors else 0
    finally:
        rep.finish()
    return 1 if errors else 0
