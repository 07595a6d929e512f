"""Learning sites while the crawl runs: known patterns, learning rounds, emission.

One :class:`SiteLearner` per crawl holds every site's patterns (loaded from the
patterns folder at start, so a crawl that starts with patterns extracts from its
first page) and the page buffer.  The Scrapy components are thin adapters to it:

* the spider middleware calls :meth:`SiteLearner.process` on every fetched page whose
  site's layouts are known: it is extracted with them;
* the pipeline calls :meth:`SiteLearner.buffer_page` on the others (and on pages no
  known layout matches);
* once ``NEWSSTEMMER_MIN_PAGES`` pages of a site wait, a *learning round* runs:
  learn from the waiting pages, save ``patterns/<site>.json``, extract the pages with
  the new patterns;
* every piece of work (a page's extraction, a round) goes to the :class:`~newsstemmer.crawl.work.WorkRunner`,
  the one place that decides where it runs (the reactor thread, a worker thread, or the
  crawl's second process, ``NEWSSTEMMER_SIDECAR``) and returns a Deferred of its result;
* every article goes back into the crawl through the :class:`~newsstemmer.crawl.outbox.Outbox`:
  with its page's own response when the extraction ran at once, else with an internal
  ``Request("data:,")`` whose response the middleware answers with the site's ready
  articles (items can only reach feeds by travelling through the engine);
* a page leaves the buffer only when its article has passed the pipelines and
  the feed exporters (``item_scraped``); a crash in between means the next crawl
  with the same state folder emits it again (a duplicate, never a loss);
* when the spider is idle, every site still waiting is learned with what there
  is; patterns learned from fewer than ``NEWSSTEMMER_MIN_PAGES`` pages are used
  for this crawl only, not saved, and pages that no layout matches are emitted
  with an empty body and a ``reason``;
* the articles of a *thin* layout (learned from few pages, which can share text by chance)
  wait in the buffer until the layout is learned again from them, then go out read by the
  new layout (:mod:`newsstemmer.crawl.relearn`; not in a crawl shared through Redis).

Every outcome is counted in the crawl stats under ``newsstemmer/``.
The functions :func:`extract_page` and :func:`run_round` are plain Python
(no Scrapy, no reactor, :mod:`newsstemmer.crawl.rounds`): what worker threads and the
second process (:mod:`newsstemmer.crawl.sidecar`) run.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from typing import TYPE_CHECKING, Any, Iterable
from weakref import WeakKeyDictionary

from scrapy import Request, signals
from scrapy.exceptions import DontCloseSpider, NotConfigured
from scrapy.utils.defer import maybe_deferred_to_future
from w3lib.url import canonicalize_url

from ..combine.extract import ExtractOptions
from ..single import load_single
from ..layout.learning import site_of
from ..layout.patterns import SitePatterns
from .failures import StateFull, connect_guarded
from .config import Config
from .incremental import Incremental
from .items import ArticleItem, FetchedPage, NonArticleItem
from .monitor import RunMonitor
from .outbox import Outbox, Parcel
from .patternfiles import load_patterns, merge_patterns, patterns_path, retire_idle
from .relearn import Relearning
from .rounds import EXTRACTED, FAILED, NON_ARTICLE, UNMATCHED, Outcome, RoundResult, extract_page, run_round
from .storage import Storage
from .storage.sqlite_runlog import RunLog
from .work import PROCESS, Extraction, Round, WorkRunner

if TYPE_CHECKING:
    from .sharing import SharedCrawl

__all__ = [
    "EMIT_META", "EXTRACTED", "FAILED", "FAILED_BY_SITE", "NON_ARTICLE", "UNMATCHED", "Outcome", "RoundResult",
    "SiteLearner", "emit_key", "extract_page", "load_patterns", "merge_patterns", "page_failed", "patterns_path",
    "run_round",
]

log = logging.getLogger(__name__)

#: ``Request.meta`` key of the internal requests that carry buffered articles into the crawl.
EMIT_META = "newsstemmer_emit"
STATS = "newsstemmer/"
#: Stat holding failed pages per site (a mapping: one key, however many sites).
FAILED_BY_SITE = STATS + "pages_failed_by_site"

# --------------------------------------------------------------------------------------
# The crawl's learner (reactor thread).


def page_failed(stats: Any, url: str, kind: str, message: str) -> None:
    """Count (``newsstemmer/pages_failed``, ``…/<kind>``, per site in one
    ``…/pages_failed_by_site`` mapping, and for the run monitor) and log a page that
    could not be used."""
    stats.inc_value(STATS + "pages_failed")
    stats.inc_value(f"{STATS}pages_failed/{kind}")
    site = site_of(url)
    by_site = stats.get_value(FAILED_BY_SITE) or {}
    by_site[site] = by_site.get(site, 0) + 1
    stats.set_value(FAILED_BY_SITE, by_site)
    monitor = RunMonitor.of(stats)
    if monitor is not None:
        monitor.count(site, "failures")
    log.warning("newsstemmer: page failed (%s): %s: %s", kind, url, message)


def emit_key(item: ArticleItem | NonArticleItem) -> str:
    """The key of a page's emit claim, normalised: an article's canonical URL (its page's
    ``rel=canonical`` or ``og:url`` when it has one, as incremental runs key their history),
    so that two pages of one article go out once; any other page's own URL (the pages of a
    listing often name its first page as their canonical URL)."""
    canonical = item.canonical_url if isinstance(item, ArticleItem) else None
    return canonicalize_url(canonical or item.url)


_LEARNERS: "WeakKeyDictionary[Any, SiteLearner]" = WeakKeyDictionary()


class SiteLearner:
    """Per-crawl state shared by the newsstemmer middleware, pipeline and extension."""

    def __init__(self, crawler: Any, config: Config):
        self.crawler = crawler
        self.config = config
        self.stats = crawler.stats
        self.options = ExtractOptions(include_non_articles=config.include_non_articles, keep=config.keep,
                                      formats=config.body_formats)
        self.storage = Storage.for_crawler(crawler)
        loaded = self.storage.patterns.load()
        self.patterns: dict[str, SitePatterns] = {site: sp for site, (sp, _) in loaded.items()}
        self.versions: dict[str, int] = {site: v for site, (_, v) in loaded.items()}  # changes of a site's patterns
        self.buffer = self.storage.page_buffer()
        self.emits = self.storage.emits
        self.leases = self.storage.leases
        self.sharing: SharedCrawl | None = None  # a crawl shared through Redis: see newsstemmer.crawl.sharing
        if self.storage.shared:
            from .sharing import SharedCrawl

            self.sharing = SharedCrawl(self, crawler, self.storage)
        self.final = False  # the spider went idle: learn every waiting site with what there is
        self.closed = False
        self._busy: set[str] = set()  # sites with a round running
        self._claimed: dict[str, set[str]] = defaultdict(set)  # in a round, waiting to be emitted, or emitted
        self._untried: dict[str, set[str]] = defaultdict(set)  # buffered, not tried with the site's current patterns
        self._aside: dict[int, FetchedPage] = {}  # pages in the second process, by id
        self._broken: set[str] = set()  # sites whose round crashed: left in the buffer for the next crawl
        self._learned: set[str] = set()  # sites whose patterns this crawl saved
        self.relearning = Relearning()  # articles of thin layouts waiting to learn them again (relearn.py)
        self.outbox = Outbox()  # the one way articles go back into the crawl
        self.work = WorkRunner(config, self.options, on_ready=self._kick_postponed, on_lost=self._sidecar_lost)
        # loaded now, not mid-crawl (see load_single); also with the second process, whose work
        # the reactor does until it is ready, and after it is lost
        if config.single_page_method:
            try:
                load_single(config.single_page_method)
            except Exception as exc:  # noqa: BLE001 - the pages that need it report it (_single_page)
                log.warning("newsstemmer: cannot load the single-page method %r: %s: %s",
                            config.single_page_method, type(exc).__name__, exc)
        self.incremental = Incremental(crawler, config)
        self.monitor = RunMonitor(self.stats, config, self.patterns)
        self.runlog = RunLog(config.runlog_path)
        self.monitor.run, self.monitor.started = self.runlog.begin()
        self.monitor.history = self.runlog
        self.run_key = f"{self.monitor.started} #{self.monitor.run}"  # unique even if the state folder is new
        for signal, handler in ((signals.spider_opened, self.spider_opened), (signals.spider_idle, self.spider_idle),
                                (signals.spider_closed, self.spider_closed)):
            crawler.signals.connect(handler, signal=signal)
        # (item handlers write the buffer: a full state disk is said once and stops the crawl)
        for signal, handler in ((signals.item_scraped, self.item_scraped), (signals.item_dropped, self.item_dropped),
                                (signals.item_error, self.item_error)):
            connect_guarded(crawler, signal, handler)

    @classmethod
    def for_crawler(cls, crawler: Any) -> "SiteLearner":
        """The crawl's learner (created on first use); ``NotConfigured`` if newsstemmer is off."""
        learner = _LEARNERS.get(crawler)
        if learner is None:
            config = Config.from_settings(crawler.settings)
            if not config.enabled:
                raise NotConfigured("NEWSSTEMMER_ENABLED is False")
            learner = _LEARNERS[crawler] = cls(crawler, config)
        return learner

    # -- pages from the spider --------------------------------------------------------
    async def process(self, page: FetchedPage) -> FetchedPage | None:
        """A page leaving the spider with its site's layouts known: extract it (:meth:`WorkRunner.submit`).

        Returns the page itself when it goes on to the pipeline (to be buffered: no known
        layout matches it), else None; its article then waits in the :attr:`outbox` for
        its own response (:meth:`take`) when the extraction ran here, or for an emit
        request when it ran in the second process.  The spider's output is not held up
        for the second process: a page awaited in the spider middleware keeps Scrapy's
        parallel handling of that output (``CONCURRENT_ITEMS`` tasks) waiting too, which
        cost the reactor more than the extraction (docs/history/notes-sessions-01-10.md).
        """
        self._inc("pages")
        self.monitor.count(page.site, "pages")
        patterns = self.patterns.get(page.site)
        if patterns is None:
            return page
        job = Extraction(page, patterns)
        d = self.work.submit(job)
        if job.where == PROCESS:
            self._aside[id(page)] = page
            d.addCallback(self._extracted_aside, page)
            d.addErrback(lambda failure: log.error("newsstemmer: %s: %s", page.url, failure.getErrorMessage()))
            return None
        out = self._extracted(page, await maybe_deferred_to_future(d), id(page))
        return out if isinstance(out, FetchedPage) else None

    def _extracted(self, page: FetchedPage, outcome: Outcome, carrier: str | int) -> FetchedPage | Parcel | None:
        """What becomes of a page's extraction with its site's known layouts: counted, its
        article put in the outbox for ``carrier`` (the parcel returned); the page returned
        if no layout matches."""
        if self.monitor.first_look(page.site, outcome):
            self._drift(page.site)
        if outcome.kind == UNMATCHED:
            log.debug("newsstemmer: no layout of %s matches %s", page.site, page.url)
            return page
        if self._hold(page.site, outcome, page):
            return None
        emitted = outcome.kind == EXTRACTED or (outcome.kind == NON_ARTICLE and self.config.include_non_articles)
        if emitted and (outcome.item is None or not self._claim(outcome.item)):
            self._inc("duplicates_skipped")  # this article was (or is being) emitted from another page or worker
            return None
        self._count(outcome, page.site)
        if not emitted:
            return None
        parcel = Parcel(outcome.item, page.site, page)
        self.outbox.put(carrier, parcel)
        return parcel

    def _extracted_aside(self, outcome: Outcome, page: FetchedPage) -> None:
        """A page back from the second process: its article goes out through an emit request,
        an unmatched page to the buffer."""
        if self._aside.pop(id(page), None) is None:
            return  # the crawl closed meanwhile: the page was buffered for the next one
        page.tree = None  # (not needed any more)
        out = self._extracted(page, outcome, page.site)
        if isinstance(out, FetchedPage):
            self.buffer_page(out)  # (which kicks the site's round)
            return
        if self.final:
            self._kick(page.site)  # the site's last round may have waited for this page
        if out is not None:
            if self.outbox.request(page.site):  # one emit request carries every article ready by then
                self._emit(page.site)
        elif self.final and not self._aside:
            self.wake()  # the crawl may end now

    def buffer_page(self, page: FetchedPage) -> None:
        """Store a page no known layout matches, and learn its site if enough pages wait."""
        self.buffer.add(page, self.versions.get(page.site, 0))
        self._inc("pages_buffered")
        log.debug("newsstemmer: buffered %s", page.url)
        self._kick(page.site)

    # -- learning rounds -----------------------------------------------------------------
    def _kick(self, site: str) -> None:
        """Start a round for ``site`` if one is due and none is running."""
        if site in self._busy or site in self._broken or self.closed:
            return
        if not self.final and self.work.postpone(site):
            return  # the second process is starting: kicked again when it is ready or lost
        if self.sharing is not None and not self.sharing.may_learn(site):
            return  # another worker learns this site (or nothing is due)
        if self._relearn_due(site, last=False):
            return
        claimed = self._claimed[site]
        current = self.patterns.get(site)
        untried = self._untried[site] - claimed
        if current is not None and self.sharing is not None:  # pages others buffered before they had these patterns
            untried |= self.sharing.untried(site) - claimed
        if untried and current is not None:
            self._start_round(site, sorted(untried), learn_now=False, save=False)
            return
        free = [u for u in self.buffer.urls(site) if u not in claimed]
        if self.monitor.site(site).drift and not self.final:
            return  # relearn once, from all of this run's pages of the new design (see monitor.py)
        if len(free) < self.config.min_pages and self.final and self._aside_of(site):
            # the last round learns from every page left: those still in the second
            # process may join the buffer (each one kicks again when it is back,
            # :meth:`_extracted_aside`)
            return
        if free and (len(free) >= self.config.min_pages or self.final):
            self._start_round(site, free, learn_now=True, save=len(free) >= self.config.min_pages)
        elif self.final and not self._aside_of(site):
            self._relearn_due(site, last=True)  # (after the site's last rounds: their pages may add to it)

    # -- thin layouts: their articles wait, the layout is learned again ------------------------
    def _hold(self, site: str, outcome: Outcome, page: FetchedPage | None = None) -> bool:
        """Keep an article of a thin layout (:func:`~newsstemmer.crawl.rounds.is_thin`; ``page``: not
        buffered yet) in the buffer until it is learned again (:meth:`_relearn_due`).  False (it
        goes on) for a layout tried in this crawl, and in a crawl shared through Redis."""
        if self.sharing is not None or outcome.kind != EXTRACTED or outcome.item is None:
            return False
        patterns = self.patterns.get(site)
        layout = patterns.layout(outcome.item.pattern) if patterns is not None else None
        if layout is None or not self.relearning.wants(site, layout):
            return False
        if page is not None:
            page.tree = None  # (parsed again when learned from)
            self.buffer.add(page, self.versions.get(site, 0))
        self._claimed[site].add(outcome.url)
        self.relearning.hold(site, layout.id, outcome.url, outcome)
        self._inc("pages_held_for_relearning")
        if page is not None:
            self._kick(site)  # (a round's own pages: kicked when the round is done)
        return True

    def _relearn_due(self, site: str, last: bool) -> bool:
        """Start the round due for a thin layout's held articles (:meth:`Relearning.due`): learning
        it again from them, else (``last``: the spider is idle, no other round is due) send them
        as it read them (a layout gone: extracted again).  True if a round started."""
        patterns = self.patterns.get(site)
        due = self.relearning.due(site, lambda lid: patterns.layout(lid) if patterns is not None else None, last)
        if due is None:
            return False
        (lid, urls, again), read = due, self.relearning.read(due[1])  # (read: as the thin layout did)
        if again:
            log.info("newsstemmer: %s: learning layout %s again from %d of its pages", site, lid, len(urls))
            self._start_round(site, urls, learn_now=True, save=True, relearn=lid)
        elif read is not None and patterns is not None and patterns.layout(lid) is not None:
            self._busy.add(site)  # not learned again: they go out as read, not extracted twice
            self._round_done(RoundResult(site, list(urls), False, patterns, outcomes=read))
        else:
            self._start_round(site, urls, learn_now=False, save=False)
        return True

    def _aside_of(self, site: str) -> bool:
        """Whether a page of ``site`` is being extracted in the second process."""
        return any(page.site == site for page in self._aside.values())

    def _start_round(self, site: str, urls: list[str], learn_now: bool, save: bool, relearn: str | None = None) -> None:
        self._busy.add(site)
        self._claimed[site].update(urls)
        self._untried[site].difference_update(urls)
        if relearn is not None:
            self._inc("relearning_rounds")
        elif learn_now and len(urls) >= 2:
            self._inc("learning_rounds")
            log.info("newsstemmer: learning %s from %d buffered pages", site, len(urls))
        elif learn_now:
            log.info("newsstemmer: %s: one buffered page left, too few to learn from: emitted as it is", site)
        drift = self.monitor.site(site).drift
        reason = "drift: relearned from the new pages" if drift else "learned"
        args = (site, urls, self.patterns.get(site), learn_now, save, self.options, self.run_key, reason, relearn)
        d = self.work.submit(Round(args, lambda: self.buffer.size(site, urls)))
        d.addCallback(self._round_done)
        d.addErrback(self._round_failed, site, urls)

    def _round_done(self, result: RoundResult) -> None:
        site = result.site
        self._busy.discard(site)
        if self.closed:
            return  # the crawl was stopped meanwhile: the pages stay buffered for the next one
        if result.changed and result.patterns is not None:
            before = {p.id for p in self.patterns[site].patterns} if site in self.patterns else set()
            self.patterns[site] = result.patterns
            self.versions[site] = self.storage.patterns.publish(site, result.patterns)
            added = [p.id for p in result.patterns.patterns if p.id not in before]
            gone = sorted(before - {p.id for p in result.patterns.patterns})
            self.monitor.learned(site, added, result.patterns.revision, saved=bool(result.saved),
                                 in_use=[p.id for p in result.patterns.patterns])
            if gone:  # a thin layout learned again: replaced
                self.monitor.retired(site, gone, result.patterns.revision)
                self._inc("layouts_relearned")
                log.info("newsstemmer: %s: layout %s learned again from more pages: now %s",
                         site, ", ".join(gone), ", ".join(added))
            kinds = ", ".join(f"{p.id}{'' if p.article else ' (not articles)'}" for p in result.patterns.patterns)
            if result.saved:
                self._inc("pattern_files_written")
                if site not in self._learned:
                    self._learned.add(site)
                    self._inc("sites_learned")
                log.info("newsstemmer: %s: %d layouts (%s) learned from %d pages, saved to %s",
                         site, len(result.patterns.patterns), kinds, result.pages, result.saved)
            else:
                log.info("newsstemmer: %s: %d layouts (%s) learned from only %d pages: used, not saved",
                         site, len(result.patterns.patterns), kinds, result.pages)
            # pages buffered while this round ran were tried with the old patterns
            self._untried[site] = set(self.buffer.urls(site)) - self._claimed[site]
        done: list[str] = []
        seen = set()
        for outcome in result.outcomes:
            seen.add(outcome.url)
            if outcome.kind == UNMATCHED and not result.learned:
                self._claimed[site].discard(outcome.url)  # waits for the next learning round
                continue
            if self._hold(site, outcome):
                continue  # (still buffered and claimed)
            if outcome.item is not None and (
                outcome.kind == EXTRACTED
                or (outcome.kind == NON_ARTICLE and self.config.include_non_articles)
                or (outcome.kind == UNMATCHED and self.config.include_unmatched)
            ):
                if not self._claim(outcome.item):
                    self._inc("duplicates_skipped")  # emitted from another page, by another worker, or before one died
                    done.append(outcome.url)
                    continue
                self._count(outcome, site)
                self.outbox.put(site, Parcel(outcome.item, site))
            else:
                self._count(outcome, site)
                done.append(outcome.url)
        # pages gone from the buffer meanwhile have nothing left to do
        self._claimed[site].difference_update(set(result.requested) - seen)
        if done:
            self.buffer.delete(site, done)
            self._claimed[site].difference_update(done)
        self._emit(site)
        self._kick(site)

    def _round_failed(self, failure: Any, site: str, urls: list[str]) -> None:
        self._busy.discard(site)
        self._broken.add(site)
        if self.sharing is not None:
            self.sharing.broken(site)
        self._claimed[site].difference_update(urls)
        self._inc("rounds_failed")
        log.error(
            "newsstemmer: round for %s failed; its %d pages stay in the buffer for the next crawl",
            site, len(urls), exc_info=(failure.type, failure.value, failure.getTracebackObject()),
        )
        self._emit(site)  # wakes the engine: a crawl that was only waiting for this round can end now

    def _count(self, outcome: Outcome, site: str) -> None:
        self.monitor.final(site, outcome)
        if outcome.kind in (EXTRACTED, NON_ARTICLE, UNMATCHED):
            self.monitor.count(site, {EXTRACTED: "extracted", NON_ARTICLE: "non_articles"}.get(outcome.kind, "unmatched"))
        if outcome.kind == EXTRACTED:
            self._inc("items_extracted")
        elif outcome.kind == NON_ARTICLE:
            kind = getattr(outcome.item, "page_type", None) or "listing"
            self._inc("non_articles")
            self._inc(f"non_articles/{kind}")
            self.monitor.count(site, f"non_articles/{kind}")
            if getattr(outcome.item, "leaf", False) and not self.config.include_non_articles:
                self.incremental.settled(outcome.url)  # (a sent one is fetched again, as before)
        elif outcome.kind == UNMATCHED:
            self._inc("items_unmatched")
        elif outcome.kind == FAILED:
            self.page_failed(outcome.url, "extraction", outcome.error or "")

    def page_failed(self, url: str, kind: str, message: str) -> None:
        page_failed(self.stats, url, kind, message)

    # -- emission through the engine ---------------------------------------------------
    def _emit(self, site: str) -> None:
        """Schedule the internal request that carries the site's ready articles into the crawl.

        Also sent with nothing ready: it wakes the engine, which then checks idleness again.
        """
        try:  # (Scrapy raises RuntimeError for the engine of a crawl not started yet)
            engine = getattr(self.crawler, "engine", None)
            spider = getattr(self.crawler, "spider", None)
        except RuntimeError:
            return
        if engine is None or spider is None or self.closed:
            return
        callback = getattr(spider, "newsstemmer_emit", None) or _no_output
        request = Request(
            "data:,", callback=callback, dont_filter=True, priority=1000, meta={EMIT_META: site}
        )
        self._inc("emit_requests")  # (their responses count among Scrapy's 200s: the soak takes them out)
        engine.crawl(request)

    def wake(self) -> None:
        """Wake the engine (an internal request with nothing to carry)."""
        self._emit("")

    def take(self, carrier: str | int) -> list[ArticleItem]:
        """The articles a response carries into the crawl: those of an emit request for
        a site (``carrier``: the site), or of a page's own response (``id(page)``)."""
        return self.outbox.take(carrier)

    def _claim(self, item: ArticleItem | NonArticleItem) -> bool:
        """Claim the emission of a page's item by its key (:func:`emit_key`): False if this crawl
        emitted it already or is emitting it, from another page of the same article or (shared
        crawl) in another worker.  Claimed before the pipelines see it: two pages of one
        article in flight together would both be new to the history, which is written only
        once the feeds have one (:mod:`newsstemmer.crawl.incremental`)."""
        return self.emits.claim(emit_key(item))

    def item_scraped(self, item: Any) -> None:
        if isinstance(item, (ArticleItem, NonArticleItem)):
            self.emits.confirm(emit_key(item))  # in a feed: the article's other pages are not sent in this crawl
        self._item_done(item, keep=False)

    def item_dropped(self, item: Any) -> None:
        if isinstance(item, (ArticleItem, NonArticleItem)):
            self.emits.release(emit_key(item))  # not sent (unchanged, or a later pipeline's choice): another page may be
        self._item_done(item, keep=False)

    def item_error(self, item: Any) -> None:
        if isinstance(item, (ArticleItem, NonArticleItem)):
            self.emits.release(emit_key(item))
        self._item_done(item, keep=True)

    def _item_done(self, item: Any, keep: bool) -> None:
        parcel = self.outbox.landed(item)
        if parcel is None:
            return
        if keep:  # a pipeline failed on it: keep the page for the next crawl (still claimed: not retried now)
            log.warning("newsstemmer: %s stays in the buffer after a pipeline error", parcel.url)
            return
        self.buffer.delete(parcel.site, [parcel.url])
        self._claimed[parcel.site].discard(parcel.url)

    # -- crawl life cycle ----------------------------------------------------------------
    def spider_opened(self) -> None:
        self.work.start()
        if self.sharing is not None:
            self.sharing.opened()
        self.stats.set_value(STATS + "patterns_loaded", len(self.patterns))
        if self.patterns:
            log.info("newsstemmer: patterns of %d sites loaded from %s: %s", len(self.patterns),
                     self.config.patterns_dir, ", ".join(sorted(self.patterns)))
        waiting = self.buffer.sites()
        if waiting:
            log.info("newsstemmer: %d pages of %d sites wait in the buffer from an earlier crawl",
                     sum(waiting.values()), len(waiting))
        for site in waiting:
            if site in self.patterns:
                self._untried[site] = set(self.buffer.urls(site))
            self._kick(site)

    def spider_idle(self) -> None:
        """Before the crawl ends: learn or emit whatever still waits (``DontCloseSpider`` until done)."""
        if self.sharing is not None:
            self.sharing.idle()  # DontCloseSpider while other workers still crawl
        self.final = True
        for site in set(self.outbox.sites()):
            self._emit(site)
        for site in self.buffer.sites():
            self._kick(site)
        if self.busy():
            raise DontCloseSpider
        if self.sharing is not None:
            self.sharing.wait_for_others()

    def busy(self) -> bool:
        """A round runs, a page is being extracted aside, or articles wait to be emitted."""
        return bool(self._busy or self._aside) or self.outbox.waiting()

    def kick(self, site: str) -> None:
        """Learn or emit the site's buffered pages if that is due (and this worker's to do)."""
        self._kick(site)

    # (with busy, wake, kick and final: what a shared crawl asks, sharing.SharedLearner)
    def knows(self, site: str) -> bool:
        """Whether the site's patterns are known."""
        return site in self.patterns

    def patterns_version(self, site: str) -> int | None:
        """The version of the site's patterns in use (None: none)."""
        return self.versions.get(site)

    def use_patterns(self, site: str, patterns: SitePatterns, version: int) -> None:
        """Use the site's patterns, learned by another worker."""
        self.patterns[site] = patterns
        self.versions[site] = version

    def _drift(self, site: str) -> None:
        """Drift detected: fetch a sample of the site's known articles again (in the new design)
        so that the relearning round has enough pages of it."""
        history = self.incremental.history
        spider = getattr(self.crawler, "spider", None)
        refetch = getattr(spider, "newsstemmer_refetch", None)
        if history is None or refetch is None or not self.config.drift_sample:
            return
        urls = history.recent(site, self.config.drift_sample)
        n = refetch(urls)
        if n:
            log.info("newsstemmer: %s: fetching %d known articles again to relearn from", site, n)

    def spider_closed(self, reason: str = "") -> None:
        self.closed = True
        answered = self.work.stop()
        if answered is not None:
            self.stats.set_value(STATS + "sidecar_requests", answered)
        try:
            for site, sp in sorted(self.patterns.items()):
                self.monitor.in_use[site] = [p.id for p in sp.patterns]
            retire_idle(self.patterns, self.monitor, self.runlog, self.config)
            self.monitor.finish(reason, self.runlog, self.config.health_path)
            self.runlog.end(self.monitor.run or 0, reason)
        except Exception as exc:  # noqa: BLE001 - the report must not lose the buffer below
            if not StateFull.for_crawler(self.crawler).handled(exc):
                log.exception("newsstemmer: writing the run's health records failed")
        finally:
            self.monitor.history = None
            self.runlog.close()
        self._keep_aside()
        left = self.buffer.count()
        self.stats.set_value(STATS + "pages_left_in_buffer", left)
        if left:
            log.warning(
                "newsstemmer: %d pages stay in the buffer (%s); the next crawl with this state folder "
                "learns or emits them", left, self.buffer.path,
            )
        self.buffer.close()
        if self.sharing is not None:
            self.sharing.closed(reason)

    # -- the second process -------------------------------------------------------------
    def _keep_aside(self) -> None:
        """A crawl stopped early: the pages still in the second process, or extracted there
        and not emitted yet, go to the buffer (the next crawl with this state folder emits them)."""
        unsent = self.outbox.unbuffered()
        pages = [*self._aside.values(), *(parcel.page for parcel in unsent if parcel.page is not None)]
        for parcel in unsent:  # their emit claims were taken: given back
            self.emits.release(emit_key(parcel.item))
        self._aside.clear()
        for page in pages:
            self.buffer.add(page, self.versions.get(page.site, 0))
        if pages:
            log.info("newsstemmer: %d pages extracted in the second process and not emitted yet stay in the buffer",
                     len(pages))

    def _sidecar_lost(self) -> None:
        self._inc("sidecar_lost")
        self._kick_postponed()

    def _kick_postponed(self) -> None:
        """The second process is ready (or lost): start the rounds that waited for it."""
        for site in self.work.postponed():
            self._kick(site)

    # -- helpers ---------------------------------------------------------------------------
    def _inc(self, name: str, n: int = 1) -> None:
        self.stats.inc_value(STATS + name, n)

    def summary(self) -> str:
        """One line on what newsstemmer did in this crawl (logged at close), in the words of
        its stats and ``health.jsonl``: what was sent to the feeds (new, updated), what was
        known already (unchanged, not fetched), and how each page was read."""
        get = lambda k: int(self.stats.get_value(STATS + k, 0) or 0)  # noqa: E731
        return (
            f"newsstemmer: {get('pages')} pages crawled, {get('pages_failed')} failed; "
            f"articles sent: {get('items_new') + get('items_updated')} ({get('items_new')} new, "
            f"{get('items_updated')} updated); known and not sent: {get('items_unchanged')} unchanged, "
            f"{get('skipped_fresh')} not fetched (checked recently), {get('not_modified')} not modified; "
            f"pages read: {get('items_extracted')} articles by a learned layout, {get('items_unmatched')} unmatched "
            f"(single-page method), {get('non_articles')} non-articles; {get('pages_buffered')} buffered, "
            f"{get('sites_learned')} sites learned (patterns in {self.config.patterns_dir}), "
            f"{get('pages_left_in_buffer')} pages left in the buffer"
        )


def _no_output(response: Any) -> Iterable[Any]:
    """Callback of emit requests for spiders without ``newsstemmer_emit``: the middleware adds the items."""
    return ()
