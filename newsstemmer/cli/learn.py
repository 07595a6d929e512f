"""``newsstemmer learn``: learn a site's layout patterns from its pages and save them as JSON.

::

    newsstemmer learn -o site.json [--linkinfo links.jsonl] pages/

Pages are found and read as :mod:`newsstemmer.io.files` says; anchor texts come from
``--linkinfo`` and, for WARC pages, from the same-site links between them
(:mod:`newsstemmer.io.linkinfo`).  Pages that cannot be read or parsed are skipped
with a message.
"""

from __future__ import annotations

import argparse
import os
import re
from collections import Counter
from pathlib import Path

from ..dom.parse import HTMLParseError
from ..io.files import NO_PAGES, PageFile, PageReadError, find_pages, read_page
from ..io.linkinfo import LinkInfo, add_warc_anchors, page_from_file
from ..layout.blocks import blocks_of
from ..layout.learning import site_of
from ..combine.learn import LearnOptions, learn
from ..page import Page
from .common import (CLIError, Reporter, check_writable, fraction, non_negative, plural, read_linkinfo, replace_given,
                     require_inputs)

__all__ = ["add_arguments", "declared_site", "folder_site", "load_pages", "run"]

DESCRIPTION = "Learn the layout patterns of one site from its pages and save them as JSON."


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Give the ``learn`` parser its description and arguments."""
    lo = LearnOptions()
    p.description = DESCRIPTION
    p.add_argument("pages", nargs="+", metavar="PAGE",
                   help="HTML or WARC file (.warc, .warc.gz), or directory (searched recursively)")
    p.add_argument("-o", "--output", required=True, metavar="PATTERNS.json", help="pattern file to write")
    p.add_argument("--linkinfo", metavar="FILE", help="JSON Lines of anchor texts: {\"url\"|\"source\": ..., \"anchors\": [...]}")
    p.add_argument("--site", metavar="NAME", help="site name (default: the pages' majority host; without URLs, the host their canonical URL or og:url names, else their folder)")
    p.add_argument("-t", "--cluster-threshold", type=fraction, metavar="SIM",
                   help=f"layout similarity above which pages share a layout (default {lo.cluster_threshold})")
    p.add_argument("-T", "--diff-threshold", type=fraction, metavar="DIFF",
                   help=f"DiffScore below which a section is static (default {lo.diff_threshold})")
    p.add_argument("-M", "--main-threshold", type=non_negative, metavar="SCORE",
                   help=f"MainScore a section needs to be main text (default {lo.main_threshold:g})")
    p.add_argument("--score-threshold", type=non_negative, metavar="SCORE",
                   help=f"pattern score below which a layout is not an article layout (default {lo.score_threshold:g})")
    p.add_argument("--rules-only", action="store_true",
                   help="keep the unsupervised section roles (no learned section decision)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress or summary on stderr")
    p.set_defaults(func=run)


def load_pages(
    files: list[PageFile], rep: Reporter, linkinfo: LinkInfo | None, options: LearnOptions
) -> tuple[list[Page], list[tuple[str, str, str]]]:
    """Read, decode and parse pages; return the pages and (source, kind, reason) of those skipped."""
    pages: list[Page] = []
    from_warc: list[Page] = []
    skipped: list[tuple[str, str, str]] = []
    for n, pf in enumerate(files, 1):
        try:
            text = read_page(pf)
        except PageReadError as exc:
            reason = str(exc)
            kind = "not text" if reason.startswith("not a text page") else "unreadable"
            skipped.append((pf.source, kind, reason))
            rep.message(f"{pf.source}: skipped: {reason}")
        else:
            page = page_from_file(pf, text, linkinfo)
            try:
                blocks_of(page, options.blocks)  # cut now: skip unparsable pages here, cached for learn
                page.forget_tree()  # (learning keeps the blocks of every page, not the trees)
            except HTMLParseError as exc:
                skipped.append((pf.source, "unparsable", str(exc)))
                rep.message(f"{pf.source}: skipped: {exc}")
            else:
                pages.append(page)
                if pf.warc is not None:
                    from_warc.append(page)
        rep.progress("loading", n, len(files))
    add_warc_anchors(from_warc)
    return pages, skipped


def run(args: argparse.Namespace, rep: Reporter) -> int:
    """Run ``newsstemmer learn``; return the exit code (user errors raise ``CLIError``)."""
    output = args.output
    if os.path.isdir(output):
        raise CLIError(f"{output}: is a directory (-o names the pattern file to write)")
    check_writable(output)
    options = replace_given(
        LearnOptions(),
        cluster_threshold=args.cluster_threshold,
        diff_threshold=args.diff_threshold,
        main_threshold=args.main_threshold,
        score_threshold=args.score_threshold,
        section_model=False if args.rules_only else None,
    )
    linkinfo = read_linkinfo(args.linkinfo)
    files = find_pages(require_inputs(args.pages), rep.message, info=rep.info, progress=rep.progress)
    rep.finish()
    if not files:
        raise CLIError(NO_PAGES)
    pages, skipped = load_pages(files, rep, linkinfo, options)
    rep.finish()
    if not pages:
        raise CLIError(f"no readable pages among the {len(files)} given")
    with_anchors = sum(1 for p in pages if p.anchor_texts)

    site_name = args.site
    if site_name is None and not any(p.url for p in pages):
        site_name = declared_site(pages) or folder_site(pages)
    site = learn(pages, options, site=site_name, progress=rep.progress)
    rep.finish()
    try:
        target = site.save(output)
    except OSError as exc:
        raise CLIError(f"{output}: cannot write pattern file: {exc.strerror or exc}", code=1) from None

    n_articles = sum(1 for p in site.patterns if p.article)
    in_patterns = sum(p.pages for p in site.patterns)
    show_anchors = linkinfo is not None or with_anchors
    rep.info(f"read {len(pages)} page{plural(len(pages))}" + (f" ({with_anchors} with anchor texts)" if show_anchors else ""))
    if skipped:
        kinds: dict[str, int] = {}
        for _, kind, _ in skipped:
            kinds[kind] = kinds.get(kind, 0) + 1
        detail = ", ".join(f"{n} {k}" for k, n in kinds.items())
        rep.info(f"skipped {len(skipped)} page{plural(len(skipped))} ({detail})")
    rep.info(
        f"learned {len(site.patterns)} layout pattern{plural(len(site.patterns))} for site {site.site}: "
        f"{n_articles} article layout{plural(n_articles)}, covering {in_patterns} of {len(pages)} pages"
    )
    rep.info(f"wrote {target}")
    return 0


def declared_site(pages: list[Page]) -> str | None:
    """The site most of the pages name as their own (``<link rel=canonical>``, else
    ``<meta property=og:url>``), for pages read without a URL."""
    sites: Counter[str] = Counter()
    for page in pages:
        try:
            tree = page.tree
        except HTMLParseError:  # (names nothing; learning reports it)
            continue
        found = tree.xpath("//link[contains(concat(' ', normalize-space(@rel), ' '), ' canonical ')]/@href"
                           " | //meta[@property='og:url']/@content")
        for url in found:
            if str(url).strip().lower().startswith(("http://", "https://")):
                sites[site_of(str(url).strip())] += 1
                break
    sites.pop("unknown", None)
    return sites.most_common(1)[0][0] if sites else None


def folder_site(pages: list[Page]) -> str | None:
    """The name of the folder holding all the pages, passing over date folders
    (``2024/07``): the site's name when nothing in the pages says it."""
    folders = [Path(p.source).resolve().parent for p in pages if p.source]
    if not folders:
        return None
    common = Path(os.path.commonpath(folders))
    for folder in (common, *common.parents):
        if folder.name and not re.fullmatch(r"[\d_.-]+", folder.name):
            return folder.name
    return None
