"""Per-thread CPU time of the crawl's components, for ``benchmarks/crawl.py --profile``.

A Scrapy extension loaded into the benchmark's crawls (``EXTENSIONS``): it wraps the
spider's and newsstemmer's main steps with ``time.thread_time`` (CPU of the calling
thread only, so the reactor thread and worker threads are told apart and other
processes' load counts less than in wall time), times the garbage collector, and
writes the totals as JSON to the file named by the ``CRAWL_PROFILE_OUT`` setting when
the spider closes.  Steps nest: ``extract_page`` includes the ``page_blocks`` it calls.
Steps a source tree does not have are skipped, so older trees can be profiled too.
"""

from __future__ import annotations

import functools
import gc
import importlib
import inspect
import json
import threading
import time
from collections import defaultdict
from typing import Any, Callable

from scrapy import signals

#: (label, module, attribute path): what is timed.
STEPS = (
    ("spider.parse", "newsstemmer.crawl.spiders.news", "NewsSpider.parse"),
    ("spider.links", "newsstemmer.crawl.spiders.news", "NewsSpider._same_site_links"),
    ("spider.parse_html", "newsstemmer.crawl.spiders.news", "parse_html"),
    ("linkinfo.add", "newsstemmer.crawl.linkinfo", "LinkInfo.add"),
    ("linkinfo.anchors", "newsstemmer.crawl.linkinfo", "LinkInfo.anchors"),
    ("frontier.admit", "newsstemmer.crawl.frontier", "Frontier.admit"),
    ("frontier.done", "newsstemmer.crawl.frontier", "Frontier.done"),
    ("learner.buffer_page", "newsstemmer.crawl.learner", "SiteLearner.buffer_page"),
    ("learner.item_done", "newsstemmer.crawl.learner", "SiteLearner._item_done"),
    ("extract_page", "newsstemmer.crawl.learner", "extract_page"),
    ("extract_page", "newsstemmer.crawl.rounds", "extract_page"),  # (a round's pages)
    ("sidecar.send", "newsstemmer.crawl.sidecar", "Sidecar._send"),
    ("sidecar.receive", "newsstemmer.crawl.sidecar", "Sidecar.received"),
    ("run_round", "newsstemmer.crawl.learner", "run_round"),
    ("learn", "newsstemmer.crawl.rounds", "learn"),
    ("core.parse_html", "newsstemmer.page", "parse_html"),
    ("page_blocks", "newsstemmer.layout.blocks", "page_blocks"),
    ("single_page", "newsstemmer.crawl.rounds", "_single_page"),
    ("add_metadata", "newsstemmer.combine.extract", "add_metadata"),
    ("visible_text", "newsstemmer.crawl.rounds", "visible_text"),
    ("learner.round_done", "newsstemmer.crawl.learner", "SiteLearner._round_done"),
    ("learner.spider_closed", "newsstemmer.crawl.learner", "SiteLearner.spider_closed"),
    ("pipeline", "newsstemmer.crawl.pipeline", "NewsstemmerPipeline.process_item"),
    ("incremental.check", "newsstemmer.crawl.incremental", "Incremental.check"),
    ("incremental.item_scraped", "newsstemmer.crawl.incremental", "Incremental.item_scraped"),
    ("history.put", "newsstemmer.crawl.history", "ArticleHistory.put"),
    ("fetchlog.seen", "newsstemmer.crawl.fetchlog", "FetchLog.seen"),
    ("fetchlog.plan", "newsstemmer.crawl.fetchlog", "FetchLog.plan"),
    ("fetchlog.commit", "newsstemmer.crawl.fetchlog", "FetchLog.commit"),
    ("buffer.add", "newsstemmer.crawl.buffer", "PageBuffer.add"),
    ("buffer.delete", "newsstemmer.crawl.buffer", "PageBuffer.delete"),
    ("spider.sitemap", "newsstemmer.crawl.spiders.news", "NewsSpider.parse_sitemap"),
    ("spider.feed", "newsstemmer.crawl.spiders.news", "NewsSpider.parse_feed"),
    ("spider.feed_links", "newsstemmer.crawl.spiders.news", "feed_links"),
    ("monitor.finish", "newsstemmer.crawl.monitor", "RunMonitor.finish"),
)


class CrawlProfile:
    def __init__(self, crawler: Any):
        self.out = crawler.settings.get("CRAWL_PROFILE_OUT")
        self.cpu: dict[tuple[str, str], float] = defaultdict(float)
        self.calls: dict[tuple[str, str], int] = defaultdict(int)
        self.gc_s = 0.0
        self._gc_t0 = 0.0
        for label, module, path in STEPS:
            self._wrap(label, module, path)
        crawler.signals.connect(self.engine_started, signal=signals.engine_started)
        crawler.signals.connect(self.spider_closed, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Any) -> "CrawlProfile":
        return cls(crawler)

    def _wrap(self, label: str, module: str, path: str) -> None:
        try:
            owner: Any = importlib.import_module(module)
        except ImportError:
            return
        *parents, name = path.split(".")
        for p in parents:
            owner = getattr(owner, p, None)
        fn = getattr(owner, name, None) if owner is not None else None
        if fn is None:
            return
        wrap = self._timed_generator if inspect.isgeneratorfunction(fn) else self._timed
        setattr(owner, name, wrap(label, fn))

    def _add(self, label: str, dt: float) -> None:
        key = ("reactor" if threading.current_thread() is threading.main_thread() else "worker", label)
        self.cpu[key] += dt
        self.calls[key] += 1

    def _timed(self, label: str, fn: Callable) -> Callable:
        # Signal handlers get the keyword arguments they name (pydispatch reads the
        # handler's own parameters, not this wrapper's): pass on only those.
        params = inspect.signature(fn).parameters
        every = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())

        @functools.wraps(fn)
        def timed(*args: Any, **kwargs: Any) -> Any:
            if not every:
                kwargs = {k: v for k, v in kwargs.items() if k in params}
            t0 = time.thread_time()
            try:
                return fn(*args, **kwargs)
            finally:
                self._add(label, time.thread_time() - t0)

        return timed

    def _timed_generator(self, label: str, fn: Callable) -> Callable:
        """A callback is a generator: its time is spent while it is iterated."""

        @functools.wraps(fn)
        def timed(*args: Any, **kwargs: Any) -> Any:
            gen = fn(*args, **kwargs)
            spent = 0.0
            try:
                while True:
                    t0 = time.thread_time()
                    try:
                        x = next(gen)
                    except StopIteration:
                        return
                    finally:
                        spent += time.thread_time() - t0
                    yield x
            finally:
                self._add(label, spent)

        return timed

    def _gc(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._gc_t0 = time.thread_time()
        else:
            self.gc_s += time.thread_time() - self._gc_t0

    def engine_started(self) -> None:
        gc.callbacks.append(self._gc)
        self.reactor0 = time.thread_time()
        self.process0 = time.process_time()

    def spider_closed(self, reason: str = "") -> None:
        if not self.out:
            return
        totals = {
            "reactor_cpu_s": time.thread_time() - self.reactor0,
            "process_cpu_s": time.process_time() - self.process0,
            "gc_s": self.gc_s,
            "steps": {f"{where}:{label}": [round(s, 4), self.calls[(where, label)]]
                      for (where, label), s in self.cpu.items()},
        }
        with open(self.out, "w", encoding="utf-8") as fh:
            json.dump(totals, fh, indent=1)
