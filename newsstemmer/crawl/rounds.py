"""Rounds and page extraction of the crawl as plain functions: no Scrapy, no reactor.

:func:`extract_page` applies a site's patterns to one fetched page, :func:`run_round`
reads buffered pages, learns from them if asked and extracts them.  The crawl's
work runner (:mod:`newsstemmer.crawl.work`) runs them on the reactor thread, in a
worker thread, or in the crawl's second process, whose loop is :func:`serve` (this
module and the protocol, :mod:`newsstemmer.crawl.sidecar_protocol`; not Scrapy).
"""

from __future__ import annotations

import logging
import math
import os
import sys
from contextlib import suppress
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, BinaryIO

from ..article import METADATA_FIELDS, Article
from ..combine.extract import ExtractOptions, add_metadata, add_page_type, extract_with_patterns
from ..pagetype import declared_kind, page_type
from ..single import DEFAULT_SINGLE_PAGE_METHOD, extract_single, load_single
from ..dom.parse import HTMLParseError
from ..dom.text import visible_text
from ..combine.learn import LearnOptions, learn
from ..layout.patterns import LayoutPattern, SitePatterns
from ..page import Page
from .config import Config
from .items import ArticleItem, FetchedPage, NonArticleItem
from .patternfiles import kept_after_relearning, merge_patterns, patterns_path, relearned_patterns
from .sidecar_protocol import EXTRACT, PATTERNS, READY, ROUND, failed, page_of, read_frame, write_frame
from .storage import Storage

__all__ = [
    "EXTRACTED", "FAILED", "MIN_OTHER_LAYOUT_PAGES", "NON_ARTICLE", "RELEARN_COVER", "RELEARN_PAGES", "ROUND_INLINE_MAX_CHARS",
    "THIN_LAYOUT_PAGES", "UNMATCHED", "Outcome", "RoundResult", "answer", "extract_page", "is_thin", "run_round", "serve",
    "type_unmatched", "without_weak_others",
]

log = logging.getLogger(__name__)

#: Learning rounds over at most this many characters of buffered HTML run on the
#: reactor thread, larger ones in a worker thread.  Learning and extracting take about
#: 0.35 ms per 1,000 characters on the demo site (~0.2 s at this size); in a thread the
#: same round competes with the reactor for the GIL, which cost the demo crawl a tenth
#: of its throughput (on/off 0.70–0.75 with rounds in threads, 0.79–0.84 inline).
ROUND_INLINE_MAX_CHARS = 500_000

#: A learning round keeps a layout learned as "not articles" only if it was learned from at
#: least this many pages.  Two pages of a section in a crawl's first round
#: (``NEWSSTEMMER_MIN_PAGES`` pages, whichever came first) can score below the article
#: threshold where the same section's twenty pages do not; such a layout matched every later
#: page of the section, day after day, and its flag raised the page type's threshold (0.95):
#: about half of a Japanese section's articles were typed listings and never sent
#: (benchmarks/README.md, "Soak").  Without it those pages are typed alone and the later ones
#: wait in the buffer for a round with more of them.
MIN_OTHER_LAYOUT_PAGES = 3

#: An article layout learned from fewer pages than this is *thin*: its pages wait (in the
#: buffer, until :data:`RELEARN_PAGES` of them or the crawl's end) and the layout is learned
#: again from them.  A few pages of one section can share text by chance: the demo's opinion
#: ledes, drawn from a small pool of sentences, made the lede of a layout learned from 3
#: pages score 0.489 (template) where 6 pages gave 0.58 (main text); its updates, which go
#: into the lede, were never sent (issue #26, benchmarks/README.md "Soak").
THIN_LAYOUT_PAGES = 6
#: How many pages of a thin layout a crawl holds before it learns the layout again from them
#: (at the crawl's end: from at least :data:`THIN_LAYOUT_PAGES` of them).
RELEARN_PAGES = 8
#: The new layout replaces the thin one only if it was learned from at least
#: ``THIN_LAYOUT_PAGES`` of the pages and this share of them.  Pages a thin layout matched can
#: be of several layouts: on the dataset crawl, msnbc's layout of 4 pages matched 28 pages that
#: made a layout of 13; replaced by it, the other 15 were read by the single-page method
#: (recall 0.947 → 0.819).
RELEARN_COVER = 0.75

# Outcome kinds
EXTRACTED = "extracted"
NON_ARTICLE = "non_article"
UNMATCHED = "unmatched"
FAILED = "failed"


@dataclass
class Outcome:
    """What became of one page."""

    url: str
    kind: str  # extracted | non_article | unmatched | failed
    item: ArticleItem | NonArticleItem | None = None
    error: str | None = None


def extract_page(
    page: FetchedPage,
    patterns: SitePatterns | None,
    options: ExtractOptions | None = None,
    core_page: Page | None = None,
) -> Outcome:
    """Apply a site's patterns to one fetched page; never raises for a bad page.

    A page a layout matched is typed (:mod:`newsstemmer.pagetype`, the layout's flag
    moving the threshold; by the layout's vote where its learning pages agree,
    :mod:`newsstemmer.combine.layouttypes`): an article is ``extracted``, another page ``non_article``
    (its item a :class:`NonArticleItem`).  A page no layout matched is typed once its
    single-page body is known (:func:`type_unmatched`)."""
    core = core_page or page.core_page()
    opts = options or ExtractOptions()
    try:
        # (the chain gives pages whose item may be emitted their metadata: articles and
        # pages no layout matched; their type is decided here, not by the chain)
        art = extract_with_patterns(core, patterns or SitePatterns(page.site, []), replace(opts, page_type=False))
        if art.matched and opts.page_type:
            layout_article = art.is_article
            layout = patterns.layout(art.pattern) if patterns is not None and opts.layout_vote else None
            add_page_type(art, core, opts.fallback or DEFAULT_SINGLE_PAGE_METHOD, layout)
            if art.is_article and not layout_article and opts.metadata:
                add_metadata(art, core)
            opts.apply_body_options(art)  # (the type may have given the page another method's body)
        emittable = art.is_article or not art.matched
        page_text = visible_text(core.tree) if emittable else ""  # what incremental runs compare
    except (Exception, RecursionError) as exc:  # hostile pages must not stop the crawl
        return Outcome(page.url, FAILED, error=f"{type(exc).__name__}: {exc}"[:300])
    item = ArticleItem(
        url=page.url,
        site=page.site,
        title=art.title,
        body=art.body,
        fetched_at=page.fetched_at,
        anchor_count=len(page.anchor_texts),
        **{name: getattr(art, name) for name in METADATA_FIELDS},
    )
    item.page_text = page_text
    item.detail = art.detail
    if art.body:
        add_body_formats(item, art, opts)
    if not art.matched:
        item.reason = "unmatched"
        return Outcome(page.url, UNMATCHED, item)
    item.method = art.method
    item.pattern = art.pattern
    item.score = None if art.score is None else round(art.score, 4)
    item.is_article = art.is_article
    item.page_type = art.page_type if opts.page_type else ("article" if art.is_article else "listing")
    if not art.is_article:
        item.reason = "non-article layout" if not opts.page_type else f"typed {item.page_type}"
        other = NonArticleItem.of(item, art.page_score)
        other.leaf = opts.page_type and declared_kind(core) is not None
        return Outcome(page.url, NON_ARTICLE, other)
    return Outcome(page.url, EXTRACTED, item)


def is_thin(layout: LayoutPattern | None) -> bool:
    """Whether ``layout`` is an article layout learned from too few pages to trust
    (:data:`THIN_LAYOUT_PAGES`): its pages wait to learn it again."""
    return layout is not None and layout.article and layout.pages < THIN_LAYOUT_PAGES


def without_weak_others(merged: SitePatterns, before: SitePatterns | None) -> SitePatterns:
    """``merged`` without the layouts it adds to ``before`` that say "not articles" and were
    learned from fewer than :data:`MIN_OTHER_LAYOUT_PAGES` pages (changed in place; the
    version's ``added`` list too).  Ids are kept: ``extras`` are keyed by them."""
    known = {p.id for p in before.patterns} if before is not None else set()
    weak = {p.id for p in merged.patterns
            if p.id not in known and not p.article and p.pages < MIN_OTHER_LAYOUT_PAGES}
    if weak:
        merged.patterns = [p for p in merged.patterns if p.id not in weak]
        if merged.history:
            merged.history[-1]["added"] = [i for i in merged.history[-1].get("added", []) if i not in weak]
    return merged


def type_unmatched(outcome: Outcome, core: Page, options: ExtractOptions | None = None) -> Outcome:
    """Type a page no layout matched (after its learning round: a page that waits for one
    is not typed yet): an article stays ``unmatched`` (emitted with ``reason``), another page becomes
    ``non_article``.  Returns the outcome (changed in place)."""
    item = outcome.item
    if outcome.kind != UNMATCHED or not isinstance(item, ArticleItem):
        return outcome
    if options is not None and not options.page_type:
        item.is_article, item.page_type = True, "article"
        return outcome
    try:
        kind = page_type(core)
    except (Exception, RecursionError) as exc:  # hostile pages must not stop the crawl
        log.debug("newsstemmer: typing %s failed: %s", item.url, exc)
        item.is_article, item.page_type = True, "article"
        return outcome
    item.is_article, item.page_type = kind.is_article, kind.kind
    if not kind.is_article:
        outcome.kind = NON_ARTICLE
        outcome.item = NonArticleItem.of(item, round(kind.score, 4))
        outcome.item.leaf = declared_kind(core) is not None
    return outcome


@dataclass
class RoundResult:
    """What a learning (or extraction-only) round found for some buffered pages of a site."""

    site: str
    requested: list[str]
    learned: bool  # a learning round (its unmatched pages are done), not only a retry with known patterns
    patterns: SitePatterns | None  # the site's patterns after the round
    changed: bool = False  # new patterns were learned
    saved: Path | None = None
    pages: int = 0
    outcomes: list[Outcome] = field(default_factory=list)
    error: str | None = None


def run_round(
    config: Config,
    site: str,
    urls: list[str],
    current: SitePatterns | None,
    learn_now: bool,
    save: bool,
    options: ExtractOptions | None = None,
    run: str = "",
    reason: str = "learned",
    relearn: str | None = None,
) -> RoundResult:
    """Read the pages from the buffer, learn from them if asked, and extract them all.

    ``relearn``: the id of a thin layout (:func:`is_thin`) these pages matched; what is
    learned from them replaces it (:func:`~newsstemmer.crawl.patternfiles.relearned_patterns`:
    a layout of at least :data:`THIN_LAYOUT_PAGES` and :data:`RELEARN_COVER` of them) instead
    of being added, or, tried from at least :data:`RELEARN_PAGES` pages, it is kept and marked
    (``relearn_kept``: not tried again); a page the new layout does not match is read with the
    old patterns.

    Anchor texts are refreshed from linkinfo first: links found after a page was
    fetched still help find its headline.  Opens its own database connections
    (it may run in a worker thread).
    """
    storage = Storage(config)
    buffer = storage.page_buffer()
    try:
        pages = buffer.get(site, urls)
    finally:
        buffer.close()
    links = storage.linkinfo(create=False)
    if links is not None:
        try:
            for p in pages:
                known = links.anchors(p.url)
                p.anchor_texts = list(dict.fromkeys([*p.anchor_texts, *known]))
        finally:
            links.close()
    cores = [p.core_page() for p in pages]
    if sum(len(p.html) for p in pages) <= ROUND_INLINE_MAX_CHARS:
        # parsed before learning, which keeps such trees (not those it parses) for the extraction below
        for core in cores:
            with suppress(HTMLParseError):  # learning skips the page, extraction reports it
                core.tree
    result = RoundResult(site, list(urls), learned=learn_now, patterns=current, pages=len(pages))
    if learn_now and len(cores) >= 2:
        try:
            learned = learn(cores, LearnOptions(section_model=config.section_model), site=site)
        except (Exception, RecursionError) as exc:
            log.exception("newsstemmer: learning %s from %d pages failed", site, len(cores))
            result.error = f"{type(exc).__name__}: {exc}"[:300]
        else:
            new: SitePatterns | None
            if relearn is not None:
                least = max(THIN_LAYOUT_PAGES, math.ceil(RELEARN_COVER * len(cores)))
                new = relearned_patterns(current, learned, relearn, least, run) if current else None
                if new is None and current is not None and len(cores) >= RELEARN_PAGES:
                    new = kept_after_relearning(current, relearn)  # (a full try: not tried again)
            else:
                new = without_weak_others(merge_patterns(current, learned, run, reason), current)
                if len(new.patterns) <= (len(current.patterns) if current is not None else 0):
                    new = None  # (nothing added)
            if new is not None:
                result.patterns, result.changed = new, True
                if save:
                    result.saved = new.save(patterns_path(config.patterns_dir, site))
    for page, core in zip(pages, cores):
        outcome = extract_page(page, result.patterns, options, core)
        if outcome.kind == UNMATCHED and relearn is not None and result.changed:
            outcome = extract_page(page, current, options, core)  # (as the thin layout read it)
        if outcome.kind == UNMATCHED and learn_now:
            type_unmatched(outcome, core, options)  # (before the single-page method: only articles need it)
        if outcome.kind == UNMATCHED and outcome.item is not None and learn_now and config.single_page_method:
            _single_page(outcome.item, core, config.single_page_method, options)
            if result.error:
                outcome.item.reason = "learning failed"
            elif not (result.patterns and result.patterns.patterns):
                outcome.item.reason = f"no layout learned from {len(pages)} page(s)"
        result.outcomes.append(outcome)
    return result


def _single_page(item: ArticleItem, core: Page, method: str, options: ExtractOptions | None = None) -> None:
    """Give a page no layout covers its single-page extraction (``NEWSSTEMMER_SINGLE_PAGE_METHOD``)."""
    try:
        art = extract_single(core, method)
        if options is not None:
            options.apply_body_options(art)
        item.title, item.body, item.method = art.title or item.title, art.body, art.method
        add_body_formats(item, art, options)
    except (Exception, RecursionError) as exc:  # the item still goes out, with its reason
        log.debug("newsstemmer: single-page extraction of %s failed: %s", item.url, exc)


def add_body_formats(item: ArticleItem, art: Article, options: ExtractOptions | None) -> None:
    """Give ``item`` the body formats ``options`` ask for beside the text
    (``NEWSSTEMMER_BODY_FORMATS``): ``body_markdown``, ``body_html``, and with either
    the article's ``captions`` and ``images``; an item asked for none carries none."""
    formats = options.formats if options is not None else ("text",)
    if len(formats) < 2:
        return
    if "markdown" in formats:
        item.body_markdown = art.body_markdown
    if "html" in formats:
        item.body_html = art.body_html
    if "blocks" in formats:
        item.blocks = [b.to_json_dict() for b in art.blocks]
    item.captions = art.captions
    item.images = art.images


# --------------------------------------------------------------------------------------
# The crawl's second process (see newsstemmer.crawl.sidecar): requests in on stdin,
# answers out on stdout, each one frame (newsstemmer.crawl.sidecar_protocol).


def answer(config: Config, patterns: dict[str, SitePatterns | None], message: tuple[Any, ...]) -> Any:
    """The answer to one request of the crawl's reactor (see :mod:`~newsstemmer.crawl.sidecar_protocol`):
    ``None`` for new patterns (kept in ``patterns``), ``(id, ok, value)`` for the others."""
    kind = message[0]
    if kind == PATTERNS:
        patterns[message[1]] = message[2]
        return None
    rid = message[1]
    try:
        if kind == EXTRACT:
            page = page_of(message[2])
            return rid, True, extract_page(page, patterns.get(page.site), message[3])
        if kind == ROUND:
            return rid, True, run_round(config, *message[2])
        return failed(rid, f"unknown request {kind!r}")
    except (Exception, RecursionError) as exc:  # noqa: BLE001 - the reactor decides what a failure means
        return failed(rid, exc)


def serve(stdin: BinaryIO | None = None, stdout: BinaryIO | None = None, nice: int = 0) -> None:
    """The second process's loop: the first frame is the crawl's :class:`Config`; it answers
    :data:`READY` once loaded, then requests (see :func:`answer`) until the crawl closes
    its end of the pipe.  ``nice`` lowers this process's CPU priority by that much (where
    the system has ``os.nice``)."""
    stdin = stdin or sys.stdin.buffer
    stdout = stdout or sys.stdout.buffer
    logging.basicConfig(level=logging.WARNING, format="newsstemmer second process: %(levelname)s: %(message)s")
    if nice and hasattr(os, "nice"):
        with suppress(OSError):
            os.nice(nice)
    try:
        config = read_frame(stdin)
    except EOFError:
        return
    if config.single_page_method:  # loaded before the first round needs it
        with suppress(Exception):
            load_single(config.single_page_method)
    patterns: dict[str, SitePatterns | None] = {}
    # A crawl that ends (or stops) while this process starts or works closes its end of
    # the pipe: a reply it no longer reads is nothing lost, and no error to report.
    try:
        write_frame(stdout, READY)
        stdout.flush()
        while True:
            try:
                message = read_frame(stdin)
            except EOFError:
                return
            reply = answer(config, patterns, message)
            if reply is not None:
                write_frame(stdout, reply)
                stdout.flush()
    except (BrokenPipeError, ConnectionResetError):
        with suppress(OSError, ValueError):  # what is still buffered goes nowhere at exit
            os.dup2(os.open(os.devnull, os.O_WRONLY), stdout.fileno())
