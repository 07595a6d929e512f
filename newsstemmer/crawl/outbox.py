"""The one way the learner's results go back into the crawl: articles waiting for a response.

Items can only reach the feeds by travelling through the engine, in the output of a
response.  Every article the learner makes waits here until a response carries it:

* a page extracted at once (on the reactor thread or in a worker thread) is carried by
  its own response: the spider middleware takes it right after the extraction;
* an article from the second process or from a learning round is carried by an internal
  ``Request("data:,")`` for its site (an *emit request*; one carries every article of the
  site ready by then).

The outbox also keeps what the crash-safety rules need: an article whose page is in the
buffer is followed until the feeds have written it (``item_scraped``), and only then
may the page leave the buffer; an article whose page was never buffered keeps its page,
so that a crawl stopped before the article left puts the page in the buffer.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from .items import ArticleItem, FetchedPage

__all__ = ["Outbox", "Parcel"]


@dataclass
class Parcel:
    """An article on its way out.  ``page`` is None when its page waits in the buffer
    (deleted once the feeds wrote the article), the page itself when it was never buffered."""

    item: ArticleItem
    site: str
    page: FetchedPage | None = None
    url: str = ""  # the page's URL, its key in the buffer (the item's, as it was made)

    def __post_init__(self) -> None:
        self.url = self.url or self.item.url


class Outbox:
    """Articles waiting for a response to carry them, by carrier: a site (its emit request)
    or a page (``id(page)``: its own response)."""

    def __init__(self) -> None:
        self._waiting: dict[str | int, list[Parcel]] = defaultdict(list)
        self._requested: set[str] = set()  # sites with an emit request under way
        self._flying: dict[int, Parcel] = {}  # carried, page in the buffer: waiting for item_scraped, by id(item)

    def put(self, carrier: str | int, parcel: Parcel) -> None:
        """An article ready for the next response of ``carrier``."""
        self._waiting[carrier].append(parcel)

    def request(self, site: str) -> bool:
        """Whether an emit request for ``site`` should be sent: none is under way (then one is)."""
        if site in self._requested:
            return False
        self._requested.add(site)
        return True

    def take(self, carrier: str | int) -> list[ArticleItem]:
        """The articles a response of ``carrier`` carries now."""
        parcels = self._waiting.pop(carrier, [])
        if isinstance(carrier, str):
            self._requested.discard(carrier)
        for parcel in parcels:
            if parcel.page is None:
                self._flying[id(parcel.item)] = parcel
        return [parcel.item for parcel in parcels]

    def landed(self, item: Any) -> Parcel | None:
        """The parcel of an article the feeds wrote (or a pipeline dropped or failed on), if its page is buffered."""
        parcel = self._flying.pop(id(item), None)
        return parcel if parcel is not None and parcel.item is item else None

    def sites(self) -> list[str]:
        """The sites with articles waiting for an emit request."""
        return [c for c, parcels in self._waiting.items() if parcels and isinstance(c, str)]

    def waiting(self) -> bool:
        """Whether any article waits for a response."""
        return any(self._waiting.values())

    def unbuffered(self) -> list[Parcel]:
        """Take every waiting article whose page was never buffered (the crawl stops: the pages go to the buffer)."""
        out: list[Parcel] = []
        for carrier in list(self._waiting):
            kept = [p for p in self._waiting[carrier] if p.page is None]
            out += [p for p in self._waiting[carrier] if p.page is not None]
            if kept:
                self._waiting[carrier] = kept
            else:
                del self._waiting[carrier]
        return out
