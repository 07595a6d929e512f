"""The ``news`` spider: crawl news sites' own links and record every anchor text (linkinfo).

    scrapy crawl news -a urls=https://example.com/,https://example.org/ -O articles.jsonl
    scrapy crawl news -a sites=sites.txt -O articles.jsonl     # one start URL per line
    scrapy crawl news -O articles.jsonl                         # the demo site (newsstemmer.demo)

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
state folder (``NEWSSTEMMER_RESUME``); see :mod:`newsstemmer.crawl.frontier`.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any, AsyncIterator, Iterable
from urllib.parse import urldefrag, urlparse, urlsplit

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
from ..config import Config
from ..frontier import Resume
from ..items import Article, FetchedPage
from ..learner import STATS, page_failed
from ..links import tree_links
from ..storage import Storage
from ..storage.base import AnchorStore, FrontierStore

__all__ = ["NewsSpider", "read_start_urls"]

log = logging.getLogger(__name__)

_HTML_TYPES = ("text/html", "application/xhtml+xml")
_SNIFF_BYTES = 8192
#: Scrapy's default ``deny_extensions`` (links to images, archives, documents…) as one
#: tuple for ``str.endswith``; see :func:`_ignored_extension`.
_IGNORED_SUFFIXES = tuple("." + ext for ext in IGNORED_EXTENSIONS)


def read_start_urls(urls: str | None = None, sites: str | None = None) -> list[str]:
    """Start URLs from ``-a urls=URL[,URL...]`` and ``-a sites=FILE`` (one per line, ``#`` comments).

    A bare host name (``example.com``) becomes ``https://example.com/``.
    """
    raw: list[str] = []
    if urls:
        raw.extend(urls.replace(",", " ").split())
    if sites:
        path = Path(sites)
        try:
            text = path.read_text(encoding="utf-8-sig")
        except OSError as exc:
            raise UsageError(f"cannot read the sites file {sites}: {exc.strerror or exc}") from None
        for line in text.splitlines():
            line = line.split("#", 1)[0].strip()
            if line:
                raw.append(line)
    out = []
    for u in raw:
        if "://" not in u:
            u = f"https://{u.strip('/')}/"
        if urlsplit(u).scheme not in ("http", "https"):
            raise UsageError(f"not an http(s) start URL: {u}")
        out.append(u)
    return list(dict.fromkeys(out))


class NewsSpider(scrapy.Spider):
    name = "news"

    def __init__(self, *args: Any, urls: str | None = None, sites: str | None = None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.start_urls = read_start_urls(urls, sites)
        self.config = Config()
        # for pages newsstemmer cannot parse (links.tree_links reads the others): every anchor,
        # not only the first per URL; Scrapy's extension filter is applied by _same_site_links
        # (the same test, faster)
        self.links = LinkExtractor(unique=False, deny_extensions=())
        self._linkinfo: AnchorStore | None = None
        self._frontier: FrontierStore | None = None
        self._resume: Resume | None = None
        self._demo: Any = None
        self._over_limit: set[str] = set()  # URLs left out by NEWSSTEMMER_MAX_PAGES_PER_SITE
        self._limited_sites: set[str] = set()

    @classmethod
    def from_crawler(cls, crawler: Any, *args: Any, **kwargs: Any) -> "NewsSpider":
        spider = super().from_crawler(crawler, *args, **kwargs)
        spider.config = Config.from_settings(crawler.settings)
        if not spider.start_urls:
            if spider.config.redis_url:
                raise UsageError("NEWSSTEMMER_REDIS_URL is set: give every worker the same start URLs "
                                 "(-a urls=URL[,URL...] or -a sites=FILE); the demo site is for one process")
            _demo_module()  # fail now, with a clear message, if there is no demo site
        crawler.signals.connect(spider._spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(spider._spider_closed, signal=signals.spider_closed)
        return spider

    def _spider_opened(self) -> None:
        # Connected now, after the feed exporters: a page is done once its item is written.
        self.crawler.signals.connect(self._item_done, signal=signals.item_scraped)
        self.crawler.signals.connect(self._item_done, signal=signals.item_dropped)

    # -- start -------------------------------------------------------------------------------
    async def start(self) -> AsyncIterator[Any]:
        resume = self.frontier and self._resume  # opening the frontier finds what an interrupted crawl left
        if resume and not resume.by_scrapy:
            for url, depth in resume.pending:
                yield Request(url, callback=self.parse, errback=self.failed, dont_filter=True,
                              priority=-depth, meta={"depth": depth})
        urls = self.start_urls or [self._start_demo()]
        for url in urls:
            if self._admit(site_of(url), url, 0):
                yield Request(url, callback=self.parse, errback=self.failed)

    def _start_demo(self) -> str:
        """Serve the demo site on its usual port (so its pattern file is found again by
        the next crawl), or on any free port if that one is taken."""
        module = _demo_module()
        site = module.build_site()
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
        yield page
        depth = response.meta.get("depth", 0)
        if depth >= self.config.max_depth:
            return
        for url in dict.fromkeys(u for u, _ in links):
            if self._admit(site, url, depth + 1):
                yield Request(url, callback=self.parse, errback=self.failed)

    def _same_site_links(self, response: TextResponse, site: str, tree: Any = None) -> list[tuple[str, str]]:
        """``(url, anchor text)`` of every link to another page of the same site, duplicates included.

        Read from ``tree``, the page's parse, when there is one (see :mod:`..links`).
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
            if _ignored_extension(target):
                continue
            url = urldefrag(target)[0]
            # links of a page to itself ("Skip to content", "#comments") say nothing of its headline
            if url != here and urlsplit(url).scheme in ("http", "https") and site_of(url) == site:
                out.append((url, text or ""))
        return out

    def failed(self, failure: Any) -> None:
        """Errback: download errors are counted; HTTP errors and robots.txt refusals only logged by Scrapy."""
        request = failure.request if hasattr(failure, "request") else None
        url = request.url if request is not None else "?"
        if failure.check(HttpError):
            self.crawler.stats.inc_value(STATS + "http_errors")
        elif failure.check(IgnoreRequest):
            return
        else:
            page_failed(self.crawler.stats, url, "download", f"{failure.type.__name__}: {failure.value}")

    def newsstemmer_emit(self, response: Response) -> Iterable[Any]:
        """Callback of newsstemmer's internal ``data:,`` requests: the middleware adds the articles."""
        return ()

    # -- limits and stores -----------------------------------------------------------------
    def _admit(self, site: str, url: str, depth: int) -> bool:
        """Schedule ``url`` only once per crawl (resumes included) and within its site's page limit."""
        limit = self.config.max_pages_per_site
        if self.frontier.admit(site, url, depth, limit):
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
        if isinstance(item, (Article, FetchedPage)):
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
    def linkinfo(self) -> AnchorStore:
        if self._linkinfo is None:
            self._linkinfo = Storage.for_crawler(self.crawler).linkinfo()
        return self._linkinfo

    def _spider_closed(self, reason: str = "") -> None:
        if self._frontier is not None:
            self._frontier.end(reason)
            self._frontier.close()
        if self._linkinfo is not None:
            self._linkinfo.close()
        if self._demo is not None and hasattr(self._demo, "stop"):
            self._demo.stop()


def _ignored_extension(url: str) -> bool:
    """Whether ``url`` is a link Scrapy's ``LinkExtractor`` leaves out by default (``deny_extensions``).

    The same test as Scrapy's ``url_has_any_extension`` (lower-cased path of
    ``urlparse``, which ends with one of the extensions), in one ``endswith`` call
    instead of one per extension: that loop was a fifth of the spider's link
    extraction time.
    """
    return urlparse(url).path.lower().endswith(_IGNORED_SUFFIXES)


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
            f"(the demo site, newsstemmer.demo, is not available: {exc})"
        ) from None
    return demo
