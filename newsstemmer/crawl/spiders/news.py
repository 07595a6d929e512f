"""The ``news`` spider: crawl news sites' own links and record every anchor text (linkinfo).

    scrapy crawl news -a urls=https://example.com/,https://example.org/ -O articles.jsonl
    scrapy crawl news -a sites=sites.txt -O articles.jsonl     # one start URL per line
    scrapy crawl news -O articles.jsonl                         # the demo site (newsstemmer.demo)
    scrapy crawl news -a urls=https://example.com/ -a feeds=https://example.com/rss.xml -o new.jsonl

From each start URL it follows links to the same site (same host, ``www.``
ignored) up to ``NEWSSTEMMER_MAX_DEPTH`` links away and at most
``NEWSSTEMMER_MAX_PAGES_PER_SITE`` pages per site.  Every anchor text of every
same-site link is recorded in the linkinfo store (state folder), and each page
is yielded as a :class:`~newsstemmer.crawl.items.FetchedPage` carrying the
anchor texts known so far for its URL, for the newsstemmer middleware to
extract or the pipeline to buffer.  Responses that are not HTML pages (binary,
other content types, failed downloads) are counted under
``newsstemmer/pages_failed`` and never stop the crawl.

The scheduled and done pages are kept in the frontier (state folder): a crawl
that was interrupted, even killed, is resumed by running it again with the same
state folder (``NEWSSTEMMER_RESUME``); see :mod:`newsstemmer.crawl.storage.sqlite_frontier`.

Scheduled monitoring (``NEWSSTEMMER_INCREMENTAL``): before a page is scheduled the
fetch log (:mod:`newsstemmer.crawl.storage.sqlite_fetchlog`) says whether to fetch it, re-check
it with a conditional request (``If-None-Match``/``If-Modified-Since``; a ``304``
is counted as ``not_modified``), or skip it (a known article not due by its age,
whose sitemap/feed date did not change: :class:`~newsstemmer.crawl.storage.records.RecheckPolicy`).
Re-checks are scheduled after every page not known yet and do not count toward
``NEWSSTEMMER_MAX_PAGES_PER_SITE``: at most ``NEWSSTEMMER_MAX_RECHECKS_PER_SITE`` a site
and run, so that old articles never crowd out new ones.  New pages are also found in the sites'
sitemaps (``robots.txt``, ``/sitemap.xml``; ``NEWSSTEMMER_SITEMAPS``) and feeds
(``-a feeds=URL,...`` and the start pages' ``<link rel="alternate">``;
``NEWSSTEMMER_FEEDS``), newest first (:mod:`newsstemmer.crawl.discovery`); a sitemap URL set
a finished run read in full is asked for conditionally by the next one (:meth:`NewsSpider._sitemap_validators`).
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from functools import lru_cache
from pathlib import Path
from typing import Any, AsyncIterator, Iterable
from urllib.parse import urldefrag, urljoin, urlparse, urlsplit

import scrapy
from scrapy import signals
from scrapy.exceptions import IgnoreRequest, UsageError
from scrapy.http import Request, Response, TextResponse
from scrapy.linkextractors import IGNORED_EXTENSIONS, LinkExtractor
from scrapy.spidermiddlewares.httperror import HttpError
from scrapy.utils.response import get_base_url

from ...dom.decoding import BinaryContentError, decode_html
from ...dom.parse import parse_html
from ...layout.learning import site_of
from ..config import Config, stop_on_user_error
from ..failures import connect_guarded
from ..discovery import feed_entries, feed_links, newest_first, robots_sitemaps, sitemap_entries
from ..items import ArticleItem, FetchedPage
from ..learner import STATS, page_failed
from ..link_reading import tree_links
from ..monitor import RunMonitor
from ..storage import Storage
from ..storage.base import AnchorStore, FetchRecord, FrontierStore
from ..storage.records import RECHECK, SKIP, Plan, RecheckPolicy, Resume

__all__ = ["NewsSpider", "read_start_urls"]

log = logging.getLogger(__name__)

_HTML_TYPES = ("text/html", "application/xhtml+xml")
_SNIFF_BYTES = 8192
#: Scrapy's default ``deny_extensions`` (links to images, archives, documents…) as one
#: tuple for ``str.endswith``; see :func:`_ignored_extension`.
_IGNORED_SUFFIXES = tuple("." + ext for ext in IGNORED_EXTENSIONS)
#: Request meta keys: a page's sitemap/feed date (a change forces a re-check), sitemap nesting.
HINT_META = "newsstemmer_hint"
SITEMAP_DEPTH_META = "newsstemmer_sitemap_depth"
MAX_SITEMAP_DEPTH = 3
#: Scrapy priority of re-checks of known articles: after every page not known (0) and feed or sitemap (100).
RECHECK_PRIORITY = -10


def read_start_urls(urls: str | None = None, sites: str | None = None, argument: str = "urls") -> list[str]:
    """Start URLs from ``-a urls=URL[,URL...]`` and ``-a sites=FILE`` (one per line, ``#`` comments).

    A URL without a scheme (``example.com``, ``127.0.0.1:8766``) is tried over plain
    ``http://``, with one warning naming the URLs; a URL that is not a usable http(s) URL
    raises :class:`~scrapy.exceptions.UsageError` with one sentence.
    """
    raw: list[str] = []
    if urls:
        raw.extend(urls.replace(",", " ").split())
    if sites:
        path = Path(sites)
        try:
            text = path.read_text(encoding="utf-8-sig")
        except OSError as exc:
            raise UsageError(f"cannot read the sites file {sites}: {exc.strerror or exc}.") from None
        except UnicodeDecodeError:
            raise UsageError(f"the sites file {sites} is not UTF-8 text: give one URL per line.") from None
        for line in text.splitlines():
            line = line.split("#", 1)[0].strip()
            if line:
                raw.append(line)
    out = []
    guessed = []
    for u in raw:
        if "://" not in u:
            if _OTHER_SCHEME.match(u):  # mailto:..., javascript:... (host:port is no scheme)
                raise UsageError(f"-a {argument}: {u} is not an http(s) URL; give URLs like https://example.com/.")
            guessed.append(u)
            u = f"http://{u.strip('/')}/"
        out.append(_checked_url(u, argument))
    if guessed:
        log.warning("newsstemmer: %s without a scheme: trying http:// (write https://%s for https)",
                    ", ".join(guessed), guessed[0].strip("/"))
    return list(dict.fromkeys(out))


_OTHER_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:(?!\d)")
_HOST = re.compile(r"[A-Za-z0-9_.~-]+|\[[0-9A-Fa-f:.]+\]")


def _checked_url(url: str, argument: str) -> str:
    """``url`` if it is an http(s) URL with a host (and a port that is a number), else a UsageError."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 (a ValueError for a port that is no number from 0 to 65535)
    except ValueError:
        parts = None
    if parts is None or parts.scheme.lower() not in ("http", "https"):
        raise UsageError(f"-a {argument}: {url} is not an http(s) URL; give URLs like https://example.com/.")
    host = parts.netloc.rsplit("@", 1)[-1]
    host = host.rsplit(":", 1)[0] if not host.endswith("]") else host
    if not host or not _HOST.fullmatch(host):
        raise UsageError(f"-a {argument}: {url} has no valid host name; give URLs like https://example.com/.")
    return url


class NewsSpider(scrapy.Spider):
    name = "news"

    def __init__(self, *args: Any, urls: str | None = None, sites: str | None = None, feeds: str | None = None,
                 sitemaps: str | None = None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.start_urls = read_start_urls(urls, sites, "urls" if urls or not sites else "sites")
        self.feed_urls = read_start_urls(feeds, argument="feeds")
        self.sitemap_urls = read_start_urls(sitemaps, argument="sitemaps")
        self.config = Config()
        # for pages newsstemmer cannot parse (link_reading.tree_links reads the others): every anchor,
        # not only the first per URL; Scrapy's extension filter is applied by _same_site_links
        # (the same test, faster)
        self.links = LinkExtractor(unique=False, deny_extensions=())
        self._linkinfo: AnchorStore | None = None
        self._frontier: FrontierStore | None = None
        self._resume: Resume | None = None
        self._demo: Any = None
        self._over_limit: set[str] = set()  # URLs left out by NEWSSTEMMER_MAX_PAGES_PER_SITE
        self._limited_sites: set[str] = set()
        self._fetchlog: FetchRecord | None = None
        self._skipped: set[str] = set()  # fresh articles not downloaded this run
        self._rechecks: Counter[str] = Counter()  # conditional requests per site this run
        self._discovery: set[str] = set()  # feeds and sitemaps requested this run
        self._sitemaps_read: dict[str, tuple[str, str | None, str | None]] = {}  # URL set -> site, validators
        self._sites: set[str] = set()  # the start URLs' sites (sitemap entries elsewhere are ignored)

    @classmethod
    def from_crawler(cls, crawler: Any, *args: Any, **kwargs: Any) -> "NewsSpider":
        # A wrong setting or argument stops the crawl here, before anything is fetched,
        # with one line (stop_on_user_error) instead of a traceback.
        with stop_on_user_error():
            spider = super().from_crawler(crawler, *args, **kwargs)
            spider.config = Config.from_settings(crawler.settings)
            if not spider.start_urls:
                if spider.config.redis_url:
                    raise UsageError("NEWSSTEMMER_REDIS_URL is set, and the demo site is for one process: "
                                     "give every worker the same start URLs (-a urls=URL[,URL...] or -a sites=FILE).")
                _demo_module()  # fail now, with a clear message, if there is no demo site
        crawler.signals.connect(spider._spider_opened, signal=signals.spider_opened)
        connect_guarded(crawler, signals.spider_closed, spider._spider_closed)
        return spider

    def _spider_opened(self) -> None:
        # Connected now, after the feed exporters: a page is done once its item is written.
        connect_guarded(self.crawler, signals.item_scraped, self._item_done)
        connect_guarded(self.crawler, signals.item_dropped, self._item_done)

    # -- start -------------------------------------------------------------------------------
    async def start(self) -> AsyncIterator[Any]:
        resume = self.frontier and self._resume  # opening the frontier finds what an interrupted crawl left
        if resume and not resume.by_scrapy:
            for url, depth in resume.pending:
                yield Request(url, callback=self.parse, errback=self.failed, dont_filter=True,
                              priority=-depth, meta={"depth": depth})
        urls = self.start_urls or [self._start_demo()]
        self._sites = {site_of(u) for u in urls}
        for url in urls:
            if self._admit(site_of(url), url, 0):
                yield Request(url, callback=self.parse, errback=self.failed)
        discovery = [r for url in self.feed_urls for r in self._discover(url, self.parse_feed)]
        discovery += [r for url in self.sitemap_urls for r in self._discover(url, self.parse_sitemap)]
        if self.config.sitemaps and self.config.enabled:
            for url in urls:
                root = f"{urlsplit(url).scheme}://{urlsplit(url).netloc}"
                discovery += self._discover(root + "/robots.txt", self.parse_robots, handle_httpstatus_all=True)
        for request in discovery:
            yield request

    def _start_demo(self) -> str:
        """Serve the demo site on its usual port (so its pattern file is found again by
        the next crawl), or on any free port if that one is taken."""
        module = _demo_module()
        site = module.build_site(day=self.config.demo_day)
        port = self.config.demo_port
        try:
            self._demo = module.DemoServer(site, port=port)
            base_url = self._demo.start()
        except OSError as exc:
            log.warning("newsstemmer: demo port %d unavailable (%s): using a free port", port, exc)
            self._demo = module.DemoServer(site, port=0)
            base_url = self._demo.start()
        log.info("newsstemmer: no urls given: crawling the demo site at %s", base_url)
        return base_url

    # -- pages -------------------------------------------------------------------------------
    def parse(self, response: Response) -> Iterable[Any]:
        if response.status == 304:
            self._not_modified(response)
            return
        problem = _not_html(response)
        if problem:
            page_failed(self.crawler.stats, response.url, *problem)
            return
        assert isinstance(response, TextResponse)
        try:
            html = response.text  # decoded once: BOM, header, meta, then fallbacks
        except Exception as exc:  # noqa: BLE001 - a page must never stop the crawl
            page_failed(self.crawler.stats, response.url, "decoding", f"{type(exc).__name__}: {exc}")
            return
        site = site_of(response.url)
        try:
            tree = parse_html(html)  # the page's one parse: links here, blocks in the core
        except Exception:  # noqa: BLE001 - not a document: Scrapy's link extraction, a failure later
            tree = None
        links = self._same_site_links(response, site, tree)
        linkinfo = self.linkinfo
        if links:
            linkinfo.add(site, response.url, links)
        aliases = [response.url, *response.meta.get("redirect_urls", [])]
        page = FetchedPage(response.url, site, html, linkinfo.anchors(aliases))
        page.tree = tree
        if self.fetchlog is not None:
            headers = response.headers
            self.fetchlog.seen(response.url, site, _header(headers, b"ETag"), _header(headers, b"Last-Modified"),
                               response.meta.get(HINT_META))
        yield page
        depth = response.meta.get("depth", 0)
        if depth == 0 and self.config.feeds and self.config.enabled:
            for url in feed_links(tree, response.url):
                yield from self._discover(url, self.parse_feed)
        if depth >= self.config.max_depth:
            return
        for url in dict.fromkeys(u for u, _ in links):
            request = self._request(site, url, depth + 1)
            if request is not None:
                yield request

    def _not_modified(self, response: Response) -> None:
        """A ``304`` to a re-check: the page is as recorded; checked now."""
        self.crawler.stats.inc_value(STATS + "not_modified")
        monitor = RunMonitor.of(self.crawler.stats)
        if monitor is not None:
            monitor.count(site_of(response.url), "not_modified")
        if self.fetchlog is not None:
            self.fetchlog.not_modified(response.url, response.meta.get(HINT_META))
        self.frontier.done([response.url])

    # -- feeds and sitemaps ------------------------------------------------------------------
    def _discover(self, url: str, callback: Any, **meta: Any) -> Iterable[Request]:
        """One request per feed or sitemap URL and run."""
        if url not in self._discovery:
            self._discovery.add(url)
            headers = self._sitemap_validators(url) if callback == self.parse_sitemap else {}
            yield Request(url, callback=callback, errback=self._discovery_failed, dont_filter=True, priority=100,
                          headers=headers, meta={"handle_httpstatus_all": True, **meta})

    def _sitemap_validators(self, url: str) -> dict[str, str]:
        """Conditional request headers for a sitemap URL set an earlier run read in full
        (:meth:`_sitemaps_done`): a ``304`` says none of its entries changed, so a year's
        monthly sitemaps cost one short request each, not a parse and a lookup per entry.
        One process only (with Redis each worker reads what it is given: always in full)."""
        if self.fetchlog is None or self.config.redis_url:
            return {}
        return self.fetchlog.validators(url)

    def _sitemaps_done(self) -> None:
        """A finished crawl: record the validators of the URL sets it read, except those of
        sites that hit the page or re-check limit (entries were left for the next run)."""
        assert self._fetchlog is not None
        for url, (site, etag, last_modified) in self._sitemaps_read.items():
            if (etag or last_modified) and site not in self._limited_sites \
                    and self._rechecks[site] < self.config.max_rechecks_per_site:
                self._fetchlog.seen(url, site, etag, last_modified, None)
                self._fetchlog.commit([url], article=False)

    def _discovery_failed(self, failure: Any) -> None:
        """A feed or sitemap that could not be downloaded: logged and counted, not a page failure."""
        url = failure.request.url if hasattr(failure, "request") else "?"
        if not failure.check(IgnoreRequest):
            log.warning("newsstemmer: cannot download %s: %s", url, failure.value)
            self.crawler.stats.inc_value(STATS + "discovery_failed")

    def _missing(self, response: Response) -> bool:
        """Whether a feed or sitemap response is an HTTP error (logged, counted)."""
        if response.status == 200:
            return False
        level = logging.DEBUG if response.url.endswith("/sitemap.xml") else logging.WARNING  # the guessed one
        log.log(level, "newsstemmer: %s: HTTP %d", response.url, response.status)
        self.crawler.stats.inc_value(STATS + "discovery_failed")
        return True

    def parse_robots(self, response: Response) -> Iterable[Request]:
        """The sitemaps ``robots.txt`` lists (else ``/sitemap.xml``)."""
        urls = robots_sitemaps(response.body, response.url) if response.status == 200 else []
        for url in urls or [urljoin(response.url, "/sitemap.xml")]:
            yield from self._discover(url, self.parse_sitemap, **{SITEMAP_DEPTH_META: 1})

    def parse_sitemap(self, response: Response) -> Iterable[Request]:
        """A sitemap index (its sitemaps) or URL set (its pages, newest first); a ``304``: a URL
        set unchanged since an earlier run read it in full (:meth:`_sitemap_validators`)."""
        if response.status == 304 and self.fetchlog is not None:
            self.crawler.stats.inc_value(STATS + "sitemaps_unchanged")
            self.fetchlog.not_modified(response.url, None)  # (its record stays: checked now)
            return
        if self._missing(response):
            return
        try:
            kind, entries = sitemap_entries(response.body, response.url)
        except ValueError as exc:
            log.warning("newsstemmer: cannot read the sitemap %s: %s", response.url, exc)
            self.crawler.stats.inc_value(STATS + "sitemaps_failed")
            return
        self.crawler.stats.inc_value(STATS + "sitemaps")
        depth = response.meta.get(SITEMAP_DEPTH_META, 1)
        if kind == "sitemapindex":
            if depth < MAX_SITEMAP_DEPTH:
                for e in newest_first(entries):
                    yield from self._discover(e.url, self.parse_sitemap, **{SITEMAP_DEPTH_META: depth + 1})
            return
        if self.fetchlog is not None:
            self._sitemaps_read[response.url] = (site_of(response.url), _header(response.headers, b"ETag"),
                                                 _header(response.headers, b"Last-Modified"))
        yield from self._entries(entries)

    def parse_feed(self, response: Response) -> Iterable[Request]:
        """An RSS or Atom feed: its entries, newest first (their dates kept as publication dates)."""
        if self._missing(response):
            return
        try:
            entries = feed_entries(response.body, response.url)
        except ValueError as exc:
            log.warning("newsstemmer: cannot read the feed %s: %s", response.url, exc)
            self.crawler.stats.inc_value(STATS + "feeds_failed")
            return
        self.crawler.stats.inc_value(STATS + "feeds")
        if self.fetchlog is not None:
            for e in entries:
                if e.published and site_of(e.url) in self._sites:
                    self.fetchlog.set_published(e.url, site_of(e.url), e.published)
        yield from self._entries(entries)

    def _entries(self, entries: list[Any]) -> Iterable[Request]:
        for e in newest_first(entries):
            site = site_of(e.url)
            if site in self._sites and urlsplit(e.url).scheme in ("http", "https") and not _ignored_extension(e.url):
                url = urldefrag(e.url)[0]
                if e.date and self.fetchlog is not None and self.frontier.known(url):
                    self.fetchlog.baseline_hint(url, site, e.date)  # fetched this run without it
                request = self._request(site, url, 1, e.date)
                if request is not None:
                    self.crawler.stats.inc_value(STATS + "discovered")
                    yield request

    def newsstemmer_refetch(self, urls: list[str]) -> int:
        """Fetch known pages again now, fresh or not (drift: pages of the new design to relearn from)."""
        engine = getattr(self.crawler, "engine", None)
        n = 0
        for url in urls:
            if engine is None or (self.frontier.known(url) and url not in self._skipped):
                continue
            self.frontier.admit(site_of(url), url, 1)
            engine.crawl(Request(url, callback=self.parse, errback=self.failed, dont_filter=True, meta={"depth": 1}))
            n += 1
        self.crawler.stats.inc_value(STATS + "refetched", n)
        return n

    def _same_site_links(self, response: TextResponse, site: str, tree: Any = None) -> list[tuple[str, str]]:
        """``(url, anchor text)`` of every link to another page of the same site, duplicates included.

        Read from ``tree``, the page's parse, when there is one (see :mod:`..link_reading`).
        """
        try:
            if tree is not None:
                found = tree_links(tree, response.url, get_base_url(response), response.encoding)
            else:
                found = [(link.url, link.text) for link in self.links.extract_links(response)]
        except Exception as exc:  # noqa: BLE001
            log.warning("newsstemmer: cannot read the links of %s: %s: %s", response.url, type(exc).__name__, exc)
            return []
        here = urldefrag(response.url)[0]
        out = []
        for target, text in found:
            followed = _followed(target)
            # links of a page to itself ("Skip to content", "#comments") say nothing of its headline
            if followed is not None and followed[1] == site and followed[0] != here:
                out.append((followed[0], text or ""))
        return out

    def failed(self, failure: Any) -> None:
        """Errback: download errors are counted; HTTP errors and robots.txt refusals only logged by Scrapy."""
        request = failure.request if hasattr(failure, "request") else None
        url = request.url if request is not None else "?"
        if failure.check(HttpError):
            self.crawler.stats.inc_value(STATS + "http_errors")
            monitor = RunMonitor.of(self.crawler.stats)
            if monitor is not None and request is not None:
                monitor.count(site_of(request.url), "http_errors")
        elif failure.check(IgnoreRequest):
            return
        else:
            page_failed(self.crawler.stats, url, "download", f"{failure.type.__name__}: {failure.value}")

    def newsstemmer_emit(self, response: Response) -> Iterable[Any]:
        """Callback of newsstemmer's internal ``data:,`` requests: the middleware adds the articles."""
        return ()

    # -- limits and stores -----------------------------------------------------------------
    def _request(self, site: str, url: str, depth: int, hint: str | None = None) -> Request | None:
        """The request for a page, as the fetch log plans it (None: skipped, or not admitted)."""
        plan = None
        if hint is None and url in self._skipped:
            return None  # linked again (a sitemap/feed date could still call for a re-check)
        if self.fetchlog is not None and not self.frontier.known(url):
            plan = self.fetchlog.plan(url, self._recheck, hint)
            if plan.action == RECHECK and self._rechecks[site] >= self.config.max_rechecks_per_site:
                plan = Plan(SKIP, plan.headers)  # this run's re-checks of the site are used up
                self.crawler.stats.inc_value(STATS + "rechecks_over_limit")
            if plan.action == SKIP:
                if url not in self._skipped:
                    self._skipped.add(url)
                    self.crawler.stats.inc_value(STATS + "skipped_fresh")
                    monitor = RunMonitor.of(self.crawler.stats)
                    if monitor is not None:
                        monitor.count(site, "skipped_fresh")
                return None
        recheck = plan is not None and plan.action == RECHECK
        if not self._admit(site, url, depth, counted=not recheck):
            return None
        meta: dict[str, Any] = {HINT_META: hint} if hint else {}
        headers = {}
        if recheck:
            assert plan is not None
            self._rechecks[site] += 1
            headers = plan.headers
            meta["handle_httpstatus_list"] = [304]
            self.crawler.stats.inc_value(STATS + "rechecked")
        # re-checks after every new page: a crawl stopped early (time, a close) has found the new articles
        return Request(url, callback=self.parse, errback=self.failed, headers=headers, meta=meta,
                       priority=RECHECK_PRIORITY if recheck else 0)

    def _admit(self, site: str, url: str, depth: int, counted: bool = True) -> bool:
        """Schedule ``url`` only once per crawl (resumes included) and within its site's page limit
        (``counted``: it counts toward the limit; re-checks have ``NEWSSTEMMER_MAX_RECHECKS_PER_SITE``)."""
        limit = self.config.max_pages_per_site
        if self.frontier.admit(site, url, depth, limit, counted):
            return True
        if self.frontier.count(site) >= limit and url not in self._over_limit and not self.frontier.known(url):
            if site not in self._limited_sites:
                self._limited_sites.add(site)
                log.info("newsstemmer: %s: page limit reached (%d)", site, limit)
            self._over_limit.add(url)
            self.crawler.stats.inc_value(STATS + "pages_over_limit")
        return False

    def _item_done(self, item: Any, response: Any = None) -> None:
        """An item was written by the feeds, or its page buffered: the page is done."""
        if isinstance(item, (ArticleItem, FetchedPage)):
            urls = [item.url]
            if response is not None and not response.url.startswith("data:"):
                urls += [response.url, *response.meta.get("redirect_urls", [])]
            self.frontier.done(urls)

    @property
    def frontier(self) -> FrontierStore:
        if self._frontier is None:
            self._frontier = Storage.for_crawler(self.crawler).frontier()
            jobdir = self.crawler.settings.get("JOBDIR") or None
            resume = self.config.resume and bool(self.start_urls)  # the demo site moves ports: never resumed
            self._resume = self._frontier.begin(jobdir, resume)
            if self._resume is not None:
                how = "by Scrapy (JOBDIR)" if self._resume.by_scrapy else "by newsstemmer"
                log.info(
                    "newsstemmer: resuming an interrupted crawl (%s): %d pages done, %d to fetch again, %s",
                    self._resume.reason or "killed", self._resume.done, len(self._resume.pending), how,
                )
                self.crawler.stats.set_value(STATS + "resumed_pages", len(self._resume.pending))
        return self._frontier

    @property
    def _recheck(self) -> RecheckPolicy:
        return self.config.recheck_policy

    @property
    def fetchlog(self) -> FetchRecord | None:
        """The fetch log of incremental runs (None when they are off, or newsstemmer is)."""
        if self._fetchlog is None and self.config.enabled and self.config.incremental:
            self._fetchlog = Storage.for_crawler(self.crawler).fetchlog()
        return self._fetchlog

    @property
    def linkinfo(self) -> AnchorStore:
        if self._linkinfo is None:
            self._linkinfo = Storage.for_crawler(self.crawler).linkinfo()
            assert self._linkinfo is not None
        return self._linkinfo

    def _spider_closed(self, reason: str = "") -> None:
        if self._fetchlog is not None and reason == "finished":
            self._sitemaps_done()
        if self._frontier is not None:
            self._frontier.end(reason)
            self._frontier.close()
        if self._linkinfo is not None:
            self._linkinfo.close()
        if self._fetchlog is not None:
            self._fetchlog.close()
        if self._demo is not None and hasattr(self._demo, "stop"):
            self._demo.stop()


def _header(headers: Any, name: bytes) -> str | None:
    value = headers.get(name)
    return value.decode("latin-1").strip() or None if value else None


def _ignored_extension(url: str) -> bool:
    """Whether ``url`` is a link Scrapy's ``LinkExtractor`` leaves out by default (``deny_extensions``).

    The same test as Scrapy's ``url_has_any_extension`` (lower-cased path of
    ``urlparse``, which ends with one of the extensions), in one ``endswith`` call
    instead of one per extension: that loop was a fifth of the spider's link
    extraction time.
    """
    return urlparse(url).path.lower().endswith(_IGNORED_SUFFIXES)


@lru_cache(maxsize=16384)
def _followed(target: str) -> tuple[str, str] | None:
    """``(URL without fragment, its site)`` of a link the spider may follow (``http``/``https``, not
    an extension Scrapy leaves out), else None.  Kept for the links that the pages of a site
    share (menus, listings): each page repeats most of them."""
    if _ignored_extension(target):
        return None
    url = urldefrag(target)[0]
    return (url, site_of(url)) if urlsplit(url).scheme in ("http", "https") else None


def _not_html(response: Response) -> tuple[str, str] | None:
    """``(kind, message)`` if the response is not an HTML page."""
    ctype = response.headers.get(b"Content-Type", b"").decode("latin-1").split(";", 1)[0].strip().lower()
    if ctype and ctype not in _HTML_TYPES:
        return "not_html", f"content type {ctype}"
    if not isinstance(response, TextResponse):
        return "not_html", f"not a text response ({type(response).__name__})"
    try:
        decode_html(response.body[:_SNIFF_BYTES], response.headers.get(b"Content-Type", b"").decode("latin-1"))
    except BinaryContentError as exc:
        return "binary", str(exc)
    return None


def _demo_module() -> Any:
    try:
        from ... import demo
    except ImportError as exc:
        raise UsageError(
            "no start URLs: pass -a urls=URL[,URL...] or -a sites=FILE "
            f"(the demo site, newsstemmer.demo, is not available: {exc})."
        ) from None
    return demo
