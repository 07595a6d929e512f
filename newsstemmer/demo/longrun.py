"""The demo site over months of days, its pages made on request (issue #26: a soak of a year).

:class:`DemoDays` serves what session 21's day-by-day demo served, byte for byte, without
keeping any page: an article page is rendered when asked, from the plan *as it stood on
the day the page was last written* (its publication, its last update, or the redesign), so
its related stories, ticker and masthead date are those of that day, as on a real site
whose old pages keep their bytes.  What it keeps of each article is a small
:class:`ArticleRef` (id, section, date, headline, standfirst, author, tags: what listings,
boxes and sitemaps show of other articles), as a row of a SQLite file (:mod:`.refstore`: in
memory, its id and place), plus the days of its updates; an article's text
(paragraphs, captions, comments, its cast) is drawn again from the seed by replaying its
day's random draws (:meth:`DemoDays._replay`), with a few recent days kept in a small cache.
The listings, sitemaps and feed of a day are rendered once for that day, as before.

A ``journal`` file (:mod:`.journal`: JSON lines, a header, then one line per day with the day's
new articles' refs and the paths it updated) lets a later process continue at the day it
reached without making the days again (``benchmarks/soak.py --keep DIR --resume``).

Sites of earlier days than the last one made can be asked for too (every article knows its
update days): ``DemoDays`` goes forward when asked for a later day, and back when asked for an
earlier one.
"""

from __future__ import annotations

import bisect
import collections
import datetime as _dt
import random
import re
import sys
import threading
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any, Iterator, Mapping

from . import japanese as ja
from . import text as en
from .articles import article_page
from .days import (FEED_ITEMS, Schedule, updatable, apply_update, check_day, day_start, edition_date, feed_page,
                   monthly_sitemaps, update_passage)
from .indexes import index_pages
from .journal import DayJournal, JournalError
from .plan import PlannedArticle, SitePlan, allocate, article_path
from .refstore import TAG_SEPARATOR, RefStore
from .serving import robots_and_sitemap, served_page
from .sitemodel import EDITION_DATE, SECTION_BY_KEY, DemoPage, DemoSite

__all__ = ["ArticleRef", "DemoDays", "LongRunSite"]

#: Recent days whose articles (texts, casts) are kept drawn: updates hit the last 7 days' stories and the
#: crawl re-checks articles up to 4 days old, so older days are rarely asked for again.
CACHED_DAYS = 12
#: Rendered article pages kept (a page asked for twice in a row: its body, then its links or text).
CACHED_PAGES = 32
_ID = re.compile(r"(\d+)\.html$")
_SCHEDULE_KEYS = ("new_per_day", "updates_per_day", "redesign_day", "update_window", "listing")


class ArticleRef:
    """What a long run keeps of an article published after day 1: what other pages show of it.

    The attributes a listing, box, sitemap or feed reads of an article other than the page's own
    (:class:`~newsstemmer.demo.plan.PlannedArticle` has the same names); its text is drawn again
    from the seed when its own page is asked for.  Journal form: :meth:`record`.
    """

    __slots__ = ("id", "section", "layout", "when", "title", "dek", "path", "author", "tags", "category")

    def __init__(self, ident: int, section: str, when: _dt.datetime, title: str, dek: str, author: str | None,
                 tags: tuple[str, ...], category: str) -> None:
        self.id = ident
        self.section = section
        self.layout = SECTION_BY_KEY[section].layout
        self.when = when
        self.title = title
        self.dek = dek
        self.author = author
        self.tags = tags
        self.category = category
        self.path = article_path(section, when, title, ident)

    @property
    def short(self) -> str:
        """The shortened headline of lists and boxes (as the plan makes it)."""
        return ja.ja_short_headline(self.title) if self.layout == "japanese" else en.short_headline(self.title)

    @classmethod
    def of(cls, art: PlannedArticle, strings: dict[str, Any] | None = None) -> "ArticleRef":
        """The ref of a planned article (``strings``: names and tag tuples shared between refs)."""
        intern = (strings if strings is not None else {}).setdefault
        return cls(art.id, intern(art.section, art.section), art.when, art.title, art.dek,
                   None if art.author is None else intern(art.author, art.author), intern(art.tags, art.tags),
                   intern(art.category, art.category))

    def record(self, day: int) -> list[Any]:
        """``[id, section, minute of the day before day, title, dek, author, tags, category]``."""
        minute = int((self.when - day_start(day - 1)).total_seconds() // 60)
        return [self.id, self.section, minute, self.title, self.dek, self.author, list(self.tags), self.category]

    @classmethod
    def from_row(cls, row: tuple[Any, ...], strings: dict[Any, Any]) -> "ArticleRef":
        """The ref of a :class:`~newsstemmer.demo.refstore.RefStore` row (its path as stored, not made again)."""
        ident, section, published, title, dek, author, tags, category, path = row
        intern = strings.setdefault
        tags = tuple(tags.split(TAG_SEPARATOR)) if tags else ()
        ref = cls.__new__(cls)
        ref.id, ref.section, ref.layout = ident, intern(section, section), SECTION_BY_KEY[section].layout
        ref.when, ref.title, ref.dek = _dt.datetime.fromisoformat(published), title, dek
        ref.author = None if author is None else intern(author, author)
        ref.tags, ref.category, ref.path = intern(tags, tags), intern(category, category), path
        return ref

    @classmethod
    def from_record(cls, rec: list[Any], day: int, strings: dict[Any, Any]) -> "ArticleRef":
        ident, section, minute, title, dek, author, tags, category = rec
        intern = strings.setdefault  # section, author, category names and tag tuples: one object each
        return cls(int(ident), intern(section, section), day_start(day - 1) + _dt.timedelta(minutes=int(minute)),
                   title, dek, None if author is None else intern(author, author),
                   intern(tuple(tags), tuple(tags)), intern(category, category))


class _Titles:
    """The headlines used so far, each with the id of its first article (kept in the :class:`RefStore`).

    ``title in titles`` answers as the plan's set of titles did just before the article of id
    :attr:`before` was planned (the plan draws another headline when one is taken), so a day
    can be drawn again after later days were.
    """

    def __init__(self, store: RefStore) -> None:
        self.store = store
        self.before = sys.maxsize

    def __contains__(self, title: object) -> bool:
        first = self.store.first_of(title) if isinstance(title, str) else None
        return first is not None and first < self.before

    def add(self, title: str) -> None:
        self.store.add_title(title, self.before)


class _View:
    """The plan as it stood at the end of one day: what the pages written that day saw."""

    page_rng = SitePlan.page_rng
    newest = SitePlan.newest

    def __init__(self, base: SitePlan, articles: list[Any], by_section: dict[str, list[Any]], day: int,
                 listing: int | None) -> None:
        self.seed = base.seed
        self.authors = base.authors
        self.bios = base.bios
        self.most_read_pool = base.most_read_pool
        self.ja_ranking_pool = base.ja_ranking_pool
        self.articles = articles
        self.by_section = by_section
        self.edition_date = EDITION_DATE if day == 1 else edition_date(day)
        self.feed_link = day > 1
        self.listing = listing


class _Day:
    """One day's new articles as drawn (texts as published) and, once asked for, its update passages."""

    def __init__(self, articles: list[PlannedArticle], state: Any, older: list[Any],
                 passages: dict[int, str] | None = None) -> None:
        self.articles = {a.id: a for a in articles}
        self.state = state  # the day's random state after its new articles: the update draws go on from it
        self.older = older  # the articles its updates could hit
        self.passages = passages


class DemoDays:
    """The demo site day after day for long runs, pages made on request (see the module docstring)::

        days = DemoDays(seed=7, schedule=Schedule.long(new_per_day=50, updates_per_day=10))
        for day in range(1, 366):
            site = days.site(day)

    ``journal``: a file that keeps the days made (created, or continued if it exists: it must be
    of the same seed, first-day articles and schedule, else
    :class:`~newsstemmer.demo.journal.JournalError`).  ``refs``: the SQLite file of the articles'
    refs (:class:`~newsstemmer.demo.refstore.RefStore`; made again, from the journal; default: a
    temporary file).
    """

    def __init__(self, seed: int = 7, articles: int = 120, schedule: Schedule | None = None,
                 journal: str | Path | None = None, refs: str | Path | None = None) -> None:
        self.schedule = schedule or Schedule.long()
        self.plan = SitePlan(seed, articles)  # day 1's articles, never updated in place
        self.plan.listing = self.schedule.listing
        self._strings: dict[Any, Any] = {}
        # every article in publication order (= id order): day 1's planned, the later ones' refs on disk
        self.refs = RefStore(self.plan.articles, lambda row: ArticleRef.from_row(row, self._strings), refs)
        self.titles = _Titles(self.refs)
        self.counts = [0, len(self.refs)]  # articles at the end of each day (index: the day)
        self.section_counts: list[dict[str, int]] = [{}, {k: len(v) for k, v in self.refs.sections.items()}]
        self.updates: dict[str, list[int]] = {}  # article path -> the days it was updated
        self.day = 1
        self._initial = {a.id: a for a in self.plan.articles}
        self._days: collections.OrderedDict[int, _Day] = collections.OrderedDict()
        self._pages: collections.OrderedDict[tuple[str, int], DemoPage] = collections.OrderedDict()
        self._months: dict[str, tuple[object, DemoPage]] = {}
        self._lock = threading.RLock()
        self._journal = Path(journal) if journal is not None else None
        self._file: DayJournal | None = None
        if self._journal is not None:
            self._open_journal(articles)

    # -- the days ------------------------------------------------------------------------------

    def site(self, day: int) -> "LongRunSite":
        """The site as served on ``day`` (made forward from the last day made if later)."""
        check_day(day, self.schedule)
        with self._lock:
            while self.day < day:
                self._generate(self.day + 1)
            return self._site(day)

    def _redesigned(self, day: int) -> bool:
        return self.schedule.redesign_day is not None and day >= self.schedule.redesign_day

    def _generate(self, d: int) -> None:
        """Draw day ``d``'s new articles and updates (as :func:`~newsstemmer.demo.days.advance_day`)."""
        rng = random.Random(f"meridian:{self.plan.seed}:day{d}")
        older, arts = self._draw_new(rng, d, self.refs, adopt=True)
        hit = rng.sample(older, min(self.schedule.updates_per_day, len(older)))
        passages = {a.id: update_passage(rng, self._pristine(a), d) for a in hit}
        self._remember(d, _Day(arts, None, older, passages))
        for a in hit:
            self.updates.setdefault(a.path, []).append(d)
        self._close_day(d)
        if self._file is not None:
            self._file.append({"day": d, "new": [ArticleRef.of(a).record(d) for a in arts],
                               "updated": [a.path for a in hit]})

    def _draw_new(self, rng: random.Random, d: int, refs: list[Any], adopt: bool) -> tuple[list[Any], list[PlannedArticle]]:
        """Day ``d``'s new articles drawn from ``rng``, and the articles its updates may hit;
        ``adopt``: add them to the plan (else check them against the refs made before)."""
        counts = allocate(self.schedule.new_per_day)
        sections = [k for k, c in counts.items() for _ in range(c)]
        rng.shuffle(sections)
        minutes = sorted(rng.sample(range(24 * 60 - 30), len(sections)))
        start = self.counts[d - 1]
        older = updatable(_Articles(refs[:start] if len(refs) > start else refs), d, self.schedule.update_window)
        last = refs[start - 1].id
        arts = []
        for k, (key, minute) in enumerate(zip(sections, minutes)):
            ident = last + rng.randint(1, 37)
            self.titles.before = ident
            art = self.plan.plan_article(rng, ident, key, day_start(d - 1) + _dt.timedelta(minutes=minute), self.titles)
            self.titles.before = sys.maxsize
            if adopt:
                self._adopt(ArticleRef.of(art, self._strings))
            elif start + k >= len(refs) or (refs[start + k].id, refs[start + k].title) != (art.id, art.title):
                raise JournalError(f"demo seed {self.plan.seed}, day {d}: the articles drawn again differ from the "
                                   "ones kept (a journal of another demo version?)")
            arts.append(art)
            last = ident
        return older, arts

    def _adopt(self, ref: ArticleRef) -> None:
        self.refs.add_title(ref.title, ref.id)
        self.refs.append(ref)

    def _close_day(self, d: int) -> None:
        self.refs.flush()
        self.counts.append(len(self.refs))
        self.section_counts.append({k: len(v) for k, v in self.refs.sections.items()})
        self.day = d

    def _remember(self, d: int, entry: _Day) -> _Day:
        self._days[d] = entry
        self._days.move_to_end(d)
        while len(self._days) > CACHED_DAYS:
            self._days.popitem(last=False)
        return entry

    def _replay(self, d: int) -> _Day:
        """Day ``d`` (≥ 2) drawn again from the seed: its new articles, then (lazily) its update passages."""
        entry = self._days.get(d)
        if entry is not None:
            self._days.move_to_end(d)
            return entry
        rng = random.Random(f"meridian:{self.plan.seed}:day{d}")
        older, arts = self._draw_new(rng, d, self.refs, adopt=False)
        return self._remember(d, _Day(arts, rng.getstate(), older))

    def _passages(self, d: int) -> dict[int, str]:
        entry = self._replay(d)
        if entry.passages is None:
            rng = random.Random()
            rng.setstate(entry.state)
            hit = rng.sample(entry.older, min(self.schedule.updates_per_day, len(entry.older)))
            entry.passages = {a.id: update_passage(rng, self._pristine(a), d) for a in hit}
        return entry.passages

    def _ordinal(self, ident: int) -> int:
        ids = self.refs.ids
        i = bisect.bisect_left(ids, ident)
        if i == len(ids) or ids[i] != ident:
            raise KeyError(ident)
        return i

    def _pub_day(self, ordinal: int) -> int:
        return bisect.bisect_right(self.counts, ordinal)

    def _pristine(self, art: Any) -> PlannedArticle:
        """The article as published (its cast and text before any update)."""
        first = self._initial.get(art.id)
        if first is not None:
            return first
        return self._replay(self._pub_day(self._ordinal(art.id))).articles[art.id]

    def full(self, ref: Any, day: int) -> PlannedArticle:
        """The article as it read on ``day``: as published, with its updates up to that day."""
        with self._lock:
            art = self._pristine(ref)
            days = [u for u in self.updates.get(ref.path, ()) if u <= day]
            if not days:
                return art
            items = list(art.items)
            for u in days:
                apply_update(items, self._passages(u)[ref.id])
            return replace(art, items=items)

    def written(self, ref: Any, day: int) -> int:
        """The day ``ref``'s page was last written, seen from ``day``: published, updated, or redesigned."""
        w = self._pub_day(self._ordinal(ref.id))
        for u in self.updates.get(ref.path, ()):
            if w < u <= day:
                w = u
        r = self.schedule.redesign_day
        if r is not None and w < r <= day:
            w = r
        return w

    def view(self, day: int, read: bool = False) -> _View:
        """The plan as it stood at the end of ``day``; ``read``: its articles read into lists (for the
        day's listings, which go through all of them several times), else views of the store."""
        n, counts = self.counts[day], self.section_counts[day]
        if not read:
            by_section = {k: self.refs.section(k, counts[k]) for k in self.refs.sections if counts.get(k)}
            return _View(self.plan, self.refs[:n], by_section, day, self.schedule.listing)
        arts = list(self.refs[:n])
        lists = {k: [arts[p] for p in self.refs.sections[k][:counts[k]]] for k in self.refs.sections if counts.get(k)}
        return _View(self.plan, arts, lists, day, self.schedule.listing)

    def page(self, ref: Any, day: int) -> DemoPage:
        """The article page of ``ref`` as served on ``day`` (rendered from the day it was written)."""
        with self._lock:
            w = self.written(ref, day)
            key = (ref.path, w)
            page = self._pages.get(key)
            if page is None:
                page = served_page(article_page(self.view(w), self.full(ref, w)), self._redesigned(w))
                self._pages[key] = page
                while len(self._pages) > CACHED_PAGES:
                    self._pages.popitem(last=False)
            return page

    def lookup(self, path: str, day: int) -> Any | None:
        """The article live on ``day`` at ``path`` (None: no such article that day)."""
        m = _ID.search(path)
        if m is None:
            return None
        try:
            i = self._ordinal(int(m.group(1)))
        except KeyError:
            return None
        ref = self.refs[i]
        return ref if ref.path == path and i < self.counts[day] else None

    def updated_on(self, day: int) -> dict[str, int]:
        """``{path: day of its last update}`` as of ``day``."""
        out = {}
        for path, days in self.updates.items():
            seen = [u for u in days if u <= day]
            if seen:
                out[path] = seen[-1]
        return out

    def _site(self, day: int) -> "LongRunSite":
        """The listings, sitemaps and feed of ``day`` rendered; articles on request."""
        view = self.view(day, read=True)
        redesigned = self._redesigned(day)
        others = {doc.path: served_page(doc, redesigned) for doc in index_pages(view)}
        updated = self.updated_on(day)
        articles = {a.path: LazyArticlePage(self, a, day) for a in view.articles}
        if day == 1:
            both: dict[str, Any] = {**articles, **others}
            robots_and_sitemap(both)
            others.update({p: both[p] for p in ("/robots.txt", "/sitemap.xml")})
        else:
            others.update(monthly_sitemaps(articles, others, updated, day, self._months))
        recent = {a.path: articles[a.path] for a in view.articles[-FEED_ITEMS:]}
        feed = feed_page(recent, day)
        return LongRunSite(self.plan.seed, _Pages(self, day, others), day, updated, {feed.path: feed})

    # -- the journal ---------------------------------------------------------------------------

    def _header(self, articles: int) -> dict[str, Any]:
        sched = asdict(self.schedule)
        return {"demo": "newsstemmer long run", "version": 1, "seed": self.plan.seed, "articles": articles,
                "schedule": {k: sched[k] for k in _SCHEDULE_KEYS}}

    def _open_journal(self, articles: int) -> None:
        """Continue the journal's days (see :mod:`.journal`: a cut last line is dropped), or start one.

        Raises :class:`~newsstemmer.demo.journal.JournalError` for a journal of another run or a
        damaged line, naming the file and line.
        """
        assert self._journal is not None
        journal = self._file = DayJournal(self._journal, self._header(articles))
        n = 1
        for n, line in journal.days():
            try:
                d = int(line["day"])
                if d != self.day + 1:
                    raise journal.error(n, f"day {d} follows day {self.day}")
                last = self.refs.ids[-1]
                for rec in line["new"]:
                    ref = ArticleRef.from_record(rec, d, self._strings)
                    if ref.id <= last:
                        raise journal.error(n, f"article {ref.id} after article {last} (ids grow)")
                    self._adopt(ref)
                    last = ref.id
                self._close_day(d)
                for p in line["updated"]:
                    if not isinstance(p, str) or self.lookup(p, d - 1) is None:
                        raise journal.error(n, f"updated {p!r}: no article at that path before day {d}")
                    self.updates.setdefault(p, []).append(d)
            except JournalError:
                raise
            except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
                raise journal.error(n, f"not a day's line ({type(exc).__name__}: {exc})") from None
        if self.day > 1:  # the last day drawn again: articles of another demo version are refused now, not later
            try:
                self._replay(self.day)
            except JournalError as exc:
                raise journal.error(n, str(exc)) from None


class _Articles:
    """``plan.articles`` for :func:`~newsstemmer.demo.days.updatable`."""

    def __init__(self, articles: list[Any]) -> None:
        self.articles = articles


class LazyArticlePage:
    """An article page of a :class:`LongRunSite`: its truth at hand, its bytes rendered when read."""

    __slots__ = ("_days", "_ref", "_day")
    kind = "article"

    def __init__(self, days: DemoDays, ref: Any, day: int) -> None:
        self._days, self._ref, self._day = days, ref, day

    path = property(lambda self: self._ref.path)
    title = property(lambda self: self._ref.title)
    layout = property(lambda self: self._ref.layout)
    section = property(lambda self: self._ref.section)
    article_id = property(lambda self: self._ref.id)
    lang = property(lambda self: SECTION_BY_KEY[self._ref.section].lang)

    @property
    def charset(self) -> str:
        charset = SECTION_BY_KEY[self._ref.section].charset
        return "Shift_JIS" if charset == "shift_jis" else charset

    @property
    def content_type(self) -> str:
        return f"text/html; charset={self.charset}" if SECTION_BY_KEY[self._ref.section].header_charset else "text/html"

    @property
    def published(self) -> str:
        return self._ref.when.isoformat()

    @property
    def text(self) -> str:
        """The article's true body that day."""
        days = self._days
        return days.full(self._ref, days.written(self._ref, self._day)).body

    @property
    def body(self) -> bytes:
        return self._days.page(self._ref, self._day).body

    @property
    def links(self) -> tuple[tuple[str, str], ...]:
        return self._days.page(self._ref, self._day).links

    @property
    def decoded(self) -> str:
        return self._days.page(self._ref, self._day).decoded


class _Pages(Mapping[str, Any]):
    """A day's pages by path: its listings, sitemaps and robots.txt kept, its articles made when read."""

    def __init__(self, days: DemoDays, day: int, others: dict[str, DemoPage]) -> None:
        self._days, self._day, self._others = days, day, others

    def __getitem__(self, path: str) -> Any:
        page = self._others.get(path)
        if page is not None:
            return page
        ref = self._days.lookup(path, self._day)
        if ref is None:
            raise KeyError(path)
        return LazyArticlePage(self._days, ref, self._day)

    def __contains__(self, path: object) -> bool:
        return isinstance(path, str) and (path in self._others or self._days.lookup(path, self._day) is not None)

    def __iter__(self) -> Iterator[str]:
        refs = self._days.refs[: self._days.counts[self._day]]
        return iter(sorted([*self._others, *(r.path for r in refs)]))

    def __len__(self) -> int:
        return len(self._others) + self._days.counts[self._day]

    def articles(self) -> list[LazyArticlePage]:
        refs = self._days.refs[: self._days.counts[self._day]]
        return [LazyArticlePage(self._days, r, self._day) for r in sorted(refs, key=lambda r: r.path)]


class LongRunSite(DemoSite):
    """A day of :class:`DemoDays`: a :class:`~newsstemmer.demo.sitemodel.DemoSite` whose article pages
    are rendered when read (``pages`` is a read-only mapping)."""

    pages: _Pages  # type: ignore[assignment]

    def articles(self) -> list[Any]:  # type: ignore[override]
        return self.pages.articles()

    def render(self, path: str, base_url: str | None = None) -> bytes:
        page = self.pages._others.get(path) or self.extras.get(path)
        if page is None:
            return self.pages[path].body
        return super().render(path, base_url)
