"""The ``newsstemmer rules`` command, and extraction by rules for ``extract --method rules``.

::

    newsstemmer rules PATTERNS.json                      # print the site's selectors
    newsstemmer rules PATTERNS.json --json               # the same, as JSON
    newsstemmer rules PATTERNS.json --learn PAGE...      # learn them from pages first

``--learn`` takes pages (files or directories, as ``learn`` does) of the site, learns
CSS-selector rules from them (:mod:`newsstemmer.rules`: the blocks the learned
single-page extractor keeps on each page generalised into selectors, unless
``--evidence none``; with the file's layout patterns as evidence unless
``--no-patterns``), from the pages typed as articles only (:mod:`newsstemmer.pagetype`:
a site's folder also holds index, tag and service pages, whose teaser lists would
become body rules; ``--all-pages`` learns from every page), stores them in the pattern file
(``extras["rules"]``, written atomically) and prints them.  If the file does not
exist yet, a pattern file holding only the rules is created.

The printed form is Python, ready to paste into a Scrapy spider::

    # example.com: 1 title rule, 3 body rules, learned from 3 pages
    TITLE = ["h1.entry-title"]                 # ranked: the first that matches
    BODY = "#content .entry-content > p, div.wp-caption"   # response.css(BODY)

Exit codes as ``newsstemmer``'s: 0 success; 1 the file could not be written;
2 usage error, bad pattern file, no rules, too few readable pages.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
from pathlib import Path
from typing import Any

from ..io.files import NO_PAGES, PageReadError, find_pages, read_page
from ..io.linkinfo import page_from_file
from ..layout.learning import site_of
from ..layout.patterns import SitePatterns
from ..combine.site_rules import learn_site_rules
from ..page import Page
from ..rules import RuleOptions, RuleSet, RulesError, rules_of
from .common import CLIError, Reporter, load_patterns, plural, read_linkinfo, require_inputs, write_line

__all__ = ["add_arguments", "run", "load_site_rules", "format_rules"]

DESCRIPTION = (
    "Print the CSS-selector rules stored in a pattern file, ready to paste into a "
    "Scrapy spider (response.css); with --learn, learn them from pages of the site "
    "first and store them in the file."
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Give the ``rules`` parser its description and arguments."""
    p.description = DESCRIPTION
    p.add_argument("patterns", metavar="PATTERNS.json", help="the site's pattern file")
    p.add_argument("--json", action="store_true", help="print JSON: site, title and body selectors, and the stored rules")
    p.add_argument(
        "--learn", nargs="+", metavar="PAGE",
        help="learn the rules from these pages (HTML or WARC files, or directories) and store them in the file",
    )
    p.add_argument("--linkinfo", metavar="FILE", help="with --learn: anchor texts of links to the pages (JSON Lines)")
    p.add_argument("--no-patterns", action="store_true", help="with --learn: do not use the file's layout patterns")
    p.add_argument(
        "--evidence", choices=("region", "pagerank", "crf", "none"), default="region",
        help="with --learn: the single-page extractor whose choice of each page's article the rules "
        "generalise (default: region, the learned one); none: the unique-block test alone (the paper's)",
    )
    p.add_argument(
        "--all-pages", action="store_true",
        help="with --learn: learn from every page, not only from the pages typed as articles",
    )
    p.add_argument("--site", metavar="NAME", help="with --learn, for a new file: the site's name")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress or summary on stderr")
    p.set_defaults(func=run)


# -- reading -----------------------------------------------------------------------------------


def load_site_rules(site: SitePatterns, path: str | os.PathLike[str] = "") -> RuleSet:
    """The site's validated rules, or a ``CLIError`` naming the file and the problem.

    For ``extract --method rules``: call it once after loading the pattern file, so that
    missing or corrupt rules stop the command before any page is read.
    """
    where = f"{path}: " if path else ""
    if "rules" not in site.extras:
        raise CLIError(
            f"{where}no rules in this pattern file; learn them with "
            f"'newsstemmer rules {path or 'PATTERNS.json'} --learn PAGE...'"
        )
    try:
        return rules_of(site)
    except RulesError as exc:
        raise CLIError(f"{where}{exc}") from None


# -- printing ----------------------------------------------------------------------------------


def format_rules(site: SitePatterns, rules: RuleSet) -> str:
    """The rules as Python assignments, ready to paste into a spider."""
    nt, nb = len(rules.title), len(rules.body)
    learned = f", learned from {rules.pages} page{plural(rules.pages)}" if rules.pages else ""
    lines = [
        f"# {site.site}: {nt} title rule{plural(nt)}, {nb} body rule{plural(nb)}{learned} (newsstemmer rules)",
        "# title: the first of TITLE that matches; body: response.css(BODY), outermost matches, in page order",
        f"TITLE = {json.dumps([r.selector for r in rules.title], ensure_ascii=False)}",
        f"BODY = {json.dumps(', '.join(r.selector for r in rules.body), ensure_ascii=False)}",
    ]
    return "\n".join(lines)


def _json_record(site: SitePatterns, rules: RuleSet) -> dict[str, Any]:
    return {
        "site": site.site,
        "title": [r.selector for r in rules.title],
        "body": [r.selector for r in rules.body],
        "body_selector": ", ".join(r.selector for r in rules.body),
        "rules": rules.to_dict(),
    }


# -- the command -------------------------------------------------------------------------------


def run(args: argparse.Namespace, rep: Reporter) -> int:
    """Run ``newsstemmer rules``; return the exit code (user errors raise ``CLIError``)."""
    path = args.patterns
    if args.learn:
        site = _learn_into(args, rep)
    else:
        for flag, given in (
            ("--linkinfo", args.linkinfo), ("--no-patterns", args.no_patterns), ("--site", args.site),
            ("--evidence", args.evidence != "region"), ("--all-pages", args.all_pages),
        ):
            if given:
                raise CLIError(f"{flag} needs --learn PAGE...")
        site = load_patterns(path)
    rules = load_site_rules(site, path)
    if args.json:
        write_line(json.dumps(_json_record(site, rules), ensure_ascii=False, indent=1))
    else:
        write_line(format_rules(site, rules))
    return 0


def _learn_into(args: argparse.Namespace, rep: Reporter) -> SitePatterns:
    path = args.patterns
    if os.path.isdir(path):
        raise CLIError(f"{path}: is a directory (give the pattern file)")
    site: SitePatterns | None = load_patterns(path) if os.path.exists(path) else None
    linkinfo = read_linkinfo(args.linkinfo)
    files = find_pages(require_inputs(args.learn), rep.message)
    if not files:
        raise CLIError(NO_PAGES)
    pages: list[Page] = []
    for n, pf in enumerate(files, 1):
        try:
            text = read_page(pf)
        except PageReadError as exc:
            rep.message(f"{pf.source}: skipped: {exc}")
        else:
            pages.append(page_from_file(pf, text, linkinfo))
        rep.progress("reading", n, len(files))
    rep.finish()
    if not args.all_pages:
        pages = _article_pages(pages, rep)
    patterns = None if (args.no_patterns or site is None or not site.patterns) else site
    try:
        evidence = None if args.evidence == "none" else args.evidence
        raw = learn_site_rules(pages, patterns, RuleOptions(), evidence).to_dict()
    except ValueError as exc:
        raise CLIError(f"cannot learn rules: {exc}") from None
    if site is None:
        site = SitePatterns(
            site=args.site or _majority_site(pages, path),
            patterns=[],
            settings={},
            pages=[p.url or p.name for p in pages],
            created=_dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat(),
        )
    site.extras["rules"] = raw
    try:
        target = site.save(path)
    except OSError as exc:
        raise CLIError(f"{path}: cannot write pattern file: {exc.strerror or exc}", code=1) from None
    rs = rules_of(raw)
    rep.info(
        f"learned {len(rs.title)} title and {len(rs.body)} body rule{plural(len(rs.body))} "
        f"from {rs.pages} page{plural(rs.pages)}" + (" with the layout patterns" if rs.used_patterns else "")
    )
    rep.info(f"wrote {target}")
    return site


def _article_pages(pages: list[Page], rep: Reporter) -> list[Page]:
    """The ``pages`` typed as articles (:func:`newsstemmer.pagetype.page_type`); the
    others are named in a message with their kind."""
    from ..dom.parse import HTMLParseError
    from ..pagetype import page_type

    kept: list[Page] = []
    left: dict[str, int] = {}
    for page in pages:
        try:
            kind = page_type(page).kind
        except HTMLParseError:
            kind = "unreadable"
        if kind == "article":
            kept.append(page)
        else:
            left[kind] = left.get(kind, 0) + 1
    if left:
        kinds = ", ".join(f"{n} {k}" for k, n in sorted(left.items(), key=lambda kv: -kv[1]))
        rep.info(f"left out {sum(left.values())} page{plural(sum(left.values()))} not typed as articles ({kinds}); "
                    "--all-pages learns from every page")
    return kept


def _majority_site(pages: list[Page], path: str) -> str:
    hosts: dict[str, int] = {}
    for p in pages:
        if p.url:
            key = site_of(p.url)
            hosts[key] = hosts.get(key, 0) + 1
    if hosts:
        return max(hosts.items(), key=lambda kv: kv[1])[0]
    return Path(path).stem or "unknown"


# -- extract --method rules ------------------------------------------------------------------------
