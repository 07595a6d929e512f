"""``newsstemmer extract``: the title and body of each page, one JSON object per line on stdout.

::

    newsstemmer extract -p site.json pages/ > articles.jsonl

``--method auto`` (default): the site's learned layouts, else single-page extraction;
``pattern``: layouts only; ``rules``: the site's CSS-selector rules alone (see
:mod:`newsstemmer.cli.rules`); ``pagerank`` / ``crf``: a single-page method alone.
A page that cannot be read or extracted gives a record with ``"error"`` and a message;
the exit code is then 1.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
from typing import Callable, Iterator

from ..article import Article
from ..chain import SINGLE_PAGE_METHODS, extract_single, extract_with_patterns
from ..dom.parse import HTMLParseError
from ..io.files import NO_PAGES, PageFile, PageReadError, find_pages, page_url, read_page
from ..layout.blocks import blocks_of
from ..layout.matching import ExtractOptions
from ..layout.patterns import SitePatterns
from ..page import Page
from .common import CLIError, Reporter, fraction, load_patterns, replace_given, silence_stdout, write_line

__all__ = ["add_arguments", "extract_records", "run"]

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
    p.add_argument("--method", choices=("auto", "pattern", "rules", *SINGLE_PAGE_METHODS), default="auto",
                   help="auto (default): learned layouts, else single-page extraction; pattern: layouts only; "
                   "rules: the site's CSS-selector rules alone (see 'rules'); pagerank: DOM PageRank alone; "
                   "crf: CRF block labelling alone")
    p.add_argument("--crf-model", metavar="MODEL.zip",
                   help="CRF model for --method crf (written by 'train-crf'; default: the shipped model)")
    p.add_argument("--include-sub", action="store_true", help="append SUB sections to the body")
    p.add_argument("--include-non-articles", action="store_true",
                   help="give the body of pages whose layout is not an article layout")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    p.set_defaults(func=run)


def error_record(source: str, reason: str, url: str | None = None) -> dict[str, object]:
    """The output line of a page that could not be read or extracted."""
    article = Article(url, "", "", matched=False, source=source, is_article=False, error=reason)
    return article.to_json_dict()


def page_title(page: Page) -> str:
    """The page's own title (the best title candidate of its blocks), or ""."""
    candidates = blocks_of(page).title_candidates()
    return candidates[0] if candidates else ""


def extract_records(
    files: list[PageFile],
    site: SitePatterns | None,
    options: ExtractOptions,
    rep: Reporter,
    method: str = "auto",
    extractor: Callable[[Page, SitePatterns, ExtractOptions], Article] = extract_with_patterns,
    single: Callable[[Page, str], Article] = extract_single,
) -> Iterator[dict[str, object]]:
    """Read and extract each page; yield its JSON record (errors reported on ``rep`` too)."""
    for n, pf in enumerate(files, 1):
        try:
            text = read_page(pf)
        except PageReadError as exc:
            rep.message(f"{pf.source}: error: {exc}")
            yield error_record(pf.source, str(exc), pf.url)
        else:
            page = Page(html=text, url=pf.url or page_url(text), source=pf.source)
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
            except HTMLParseError as exc:
                rep.message(f"{pf.source}: error: {exc}")
                yield error_record(pf.source, str(exc), page.url)
            except Exception as exc:  # a core bug on one page must not stop the run
                reason = f"internal error: {type(exc).__name__}: {exc}"
                rep.message(f"{pf.source}: error: {reason}")
                yield error_record(pf.source, reason, page.url)
            else:
                yield article.to_json_dict()
        rep.progress("extracting", n, len(files))


def run(args: argparse.Namespace, rep: Reporter) -> int:
    """Run ``newsstemmer extract``; return the exit code (user errors raise ``CLIError``)."""
    site = load_patterns(args.patterns) if args.patterns else None
    options = replace_given(
        ExtractOptions(),
        strict=args.strict or None,
        pattern_threshold=args.pattern_threshold,
        include_sub=args.include_sub or None,
        include_non_articles=args.include_non_articles or None,
    )
    # auto: the site's layouts, else the best single-page method; pattern: layouts only.
    options = dataclasses.replace(options, fallback="pagerank" if args.method == "auto" else None)
    if args.method in ("pattern", "rules") and site is None:
        raise CLIError(f"--method {args.method} needs a pattern file (-p)")
    extractor: Callable[[Page, SitePatterns, ExtractOptions], Article] = extract_with_patterns
    if args.method == "rules":
        from ..chain import extract_with_rules
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
    files = find_pages(args.pages, rep.message, info=rep.info, progress=rep.progress)
    rep.finish()
    if not files:
        raise CLIError(NO_PAGES)
    errors = 0
    try:
        for record in extract_records(files, site, options, rep, args.method, extractor, single):
            if record.get("error"):
                errors += 1
            write_line(json.dumps(record, ensure_ascii=False))
    except BrokenPipeError:
        silence_stdout()
        return 1 if errors else 0
    finally:
        rep.finish()
    return 1 if errors else 0
