"""Incremental runs: an article is emitted once, and again only when it changed.

``NEWSSTEMMER_INCREMENTAL`` (on by default) keeps, in the state folder, every
emitted article (:class:`~newsstemmer.crawl.storage.sqlite_history.ArticleHistory`) and every
page's validators and check time (:class:`~newsstemmer.crawl.storage.sqlite_fetchlog.FetchLog`).
The pipeline asks :meth:`Incremental.check` about each article leaving the crawl:

* never emitted (by canonical URL): emitted, ``version`` 1;
* emitted before with the same body (``content_hash``), or with a change below
  ``NEWSSTEMMER_UPDATE_MIN_CHANGE``: not emitted (``Unchanged``).  The change is the
  larger of the share of the new body's 4-word shingles (as in
  :mod:`newsstemmer.evaluation`) found nowhere on the old page, and the share of the
  old body's found nowhere on the new page: text added to or taken from the
  article, not a body cut differently (new layouts after a redesign).  The old side
  is not kept as texts but as a fixed-size sample of its shingles
  (:class:`~newsstemmer.crawl.changesketch.ChangeSketch`, ≤ 404 bytes and 3 a paragraph): the shares
  are measured within the sample (:func:`sketched_change`; :func:`article_change` is the
  same measure on whole texts).  An article whose record was archived (``NEWSSTEMMER_KEEP_TEXT_DAYS`` after it was last
  sent, :mod:`~newsstemmer.crawl.storage.retention`) is recognised by its hash only: a
  change cannot be measured, and it is not sent again;
* changed more, or by at least :data:`~newsstemmer.crawl.changesketch.EDIT_MIN_WORDS`
  words added whatever the article's length (a paragraph edited in place that grew, or a
  new one not on the old page: :meth:`ChangeSketch.added_words`; a dated sentence added
  to a long story is under 2 % of it): emitted with ``update: true`` and the next
  ``version``; ``first_seen`` stays the first emission's.

Records are written once the feeds have the item (``item_scraped``), so a crash
repeats an article at worst, never loses one.  Two pages of one article (one canonical
URL) checked before the first is written are not both new: the learner lets one of them
at a time into the pipelines, and none once one is sent (its emit claims, by
:func:`newsstemmer.crawl.learner.emit_key`).  A page that declares itself a leaf that
is not an article (a video or gallery, a live blog, a service address such as
``/about/``: :func:`newsstemmer.pagetype.declared_kind`) is recorded when it is counted
(:meth:`Incremental.settled`) and skipped while checked recently, like an article.
Other non-articles are fetched on every run: a page typed by the model alone may be a
listing, where new articles are linked, and a listing typed as something else must not
stop the crawl from finding them.  Every item gets ``content_hash``,
``first_seen``, ``version``, ``update`` and, when its page has none, the
``published`` date a feed gave.
"""

from __future__ import annotations

import hashlib
import logging
from typing import Any

from scrapy import signals
from scrapy.exceptions import DropItem

from ..errors import NewsstemmerError
from ..evaluation import shingle_prf, shingles, tokens
from .changesketch import EDIT_MIN_WORDS, ChangeSketch
from .config import Config
from .failures import connect_guarded
from .items import ArticleItem
from .storage import Storage
from .storage.base import FetchRecord, HistoryStore
from .storage.records import Emitted

__all__ = ["NEW", "UNCHANGED", "UPDATE", "Incremental", "Unchanged", "article_change", "body_change", "changed",
           "content_hash", "sketched_change"]

log = logging.getLogger(__name__)

NEW = "new"
UPDATE = "update"
UNCHANGED = "unchanged"


class Unchanged(DropItem, NewsstemmerError):
    """The article was emitted before and has not changed since: not emitted again."""

    def __init__(self, message: str):
        super().__init__(message, log_level="DEBUG")


def content_hash(body: str) -> str:
    """A digest of the body with its white space normalised (32 hex digits)."""
    return hashlib.sha256(" ".join(body.split()).encode("utf-8")).hexdigest()[:32]


def body_change(old: str, new: str) -> float:
    """How much a body changed: 1 − shingle F1 of the new body against the old one (0: same)."""
    if not new.split() or not old.split():
        return 0.0 if not new.split() and not old.split() else 1.0
    p, r = shingle_prf(new, old)
    return 1.0 - (2 * p * r / (p + r) if p and r else 0.0)


def sketched_change(old: Emitted, item: ArticleItem) -> float:
    """How much ``item`` changed from the version ``old`` records (its sketch against the new
    body and page: :meth:`ChangeSketch.change`); 0 for an archived record or an unreadable
    sketch (a change that cannot be measured is not sent)."""
    sketch = None if old.archived else ChangeSketch.from_bytes(old.sketch)
    return 0.0 if sketch is None else sketch.change(item.body, item.page_text)


def changed(old: Emitted, item: ArticleItem, min_change: float) -> bool:
    """Whether ``item`` is an update of the version ``old`` records: its body differs (hash) and
    changed by at least ``min_change`` (:func:`sketched_change`) or gained at least
    :data:`~newsstemmer.crawl.changesketch.EDIT_MIN_WORDS` words (:meth:`ChangeSketch.added_words`).
    An archived record or an unreadable sketch: never (a change that cannot be measured is not sent)."""
    if old.content_hash == item.content_hash or old.archived:
        return False
    sketch = ChangeSketch.from_bytes(old.sketch)
    if sketch is None:
        return False
    return sketch.change(item.body, item.page_text) >= min_change or sketch.added_words(item.body) >= EDIT_MIN_WORDS


def article_change(old_body: str, old_page: str, new_body: str, new_page: str) -> float:
    """How much an article changed: the larger of the share of the new body's shingles missing
    from the old page's text and the share of the old body's missing from the new page's text
    (:func:`body_change` when a page text is unknown)."""
    if not old_page or not new_page:
        return body_change(old_body, new_body)

    def missing(body: str, page: str) -> float:
        # shingles within each line (paragraph) only: the page may hold other text between two;
        # lines of fewer than 4 words (labels, headings) are too short to tell
        parts = {s for line in body.split("\n") if len(toks := tokens(line)) >= 4 for s in shingles(toks)}
        return len(parts - set(shingles(tokens(page)))) / len(parts) if parts else 0.0

    return max(missing(new_body, old_page), missing(old_body, new_page))


class Incremental:
    """Decides, for the pipeline, which articles leave the crawl (see the module docstring)."""

    def __init__(self, crawler: Any, config: Config):
        self.config = config
        self.enabled = config.incremental
        # SQLite in the state folder, or Redis, shared by every worker (NEWSSTEMMER_REDIS_URL)
        storage = Storage.for_crawler(crawler) if self.enabled else None
        self.history: HistoryStore | None = storage.history() if storage else None
        self.fetchlog: FetchRecord | None = storage.fetchlog() if storage else None
        self._waiting: dict[int, Emitted] = {}  # id(item) -> record to write once the feeds have it
        connect_guarded(crawler, signals.item_scraped, self.item_scraped)
        connect_guarded(crawler, signals.item_dropped, self.item_dropped)
        crawler.signals.connect(self.close, signal=signals.spider_closed)

    def check(self, item: ArticleItem) -> str:
        """Annotate ``item`` and say whether it is ``new``, an ``update``, or ``unchanged``."""
        item.content_hash = content_hash(item.body)
        if not self.enabled or self.history is None or self.fetchlog is None:
            item.first_seen, item.version, item.update = item.fetched_at, 1, False
            return NEW
        key = item.canonical_url or item.url
        if item.published is None:
            item.published = self.fetchlog.published(item.url)
        old = self.history.get(key)
        if old is not None and not changed(old, item, self.config.update_min_change):
            return UNCHANGED
        item.first_seen = old.first_seen if old else item.fetched_at
        item.version = old.version + 1 if old else 1
        item.update = old is not None
        if item.published is None and old is not None:
            item.published = old.published
        self._waiting[id(item)] = Emitted(key, item.site, item.url, item.content_hash,
                                          ChangeSketch.of(item.body, item.page_text).to_bytes(), item.version,
                                          item.first_seen or "", item.published)
        return UPDATE if old else NEW

    def settled(self, url: str) -> None:
        """A page not sent that declares itself a leaf that is not an article (a video, a
        live blog, a service page: :func:`newsstemmer.pagetype.declared_kind`): its fetch
        record counts now, and it is skipped while checked recently, like an article."""
        if self.enabled and self.fetchlog is not None:
            self.fetchlog.commit([url], article=True)  # ("article": skipped while fresh)

    def item_scraped(self, item: Any) -> None:
        record = self._waiting.pop(id(item), None)
        if record is None or self.history is None or self.fetchlog is None:
            return
        self.history.put(record)
        self.fetchlog.commit([item.url], article=bool(item.is_article))

    def item_dropped(self, item: Any, exception: BaseException | None = None) -> None:
        self._waiting.pop(id(item), None)
        if isinstance(item, ArticleItem) and self.fetchlog is not None and isinstance(exception, Unchanged):
            self.fetchlog.commit([item.url], article=bool(item.is_article))

    def close(self) -> None:
        for store in (self.history, self.fetchlog):
            if store is not None:
                store.close()
