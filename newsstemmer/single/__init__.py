"""Single-page methods: extract a page on its own, with no learned layout (SPEC §4–§5).

One registry names them (:data:`SINGLE_PAGE_METHODS`, best first; ``benchmarks/cv.py``
measures them): ``region`` (the default: DOM PageRank with a learned choice of the
article's element and of what to leave out of it, :mod:`.region`), ``pagerank`` (DOM
PageRank + DensitySum alone, :mod:`.pagerank`) and ``crf`` (CRF block labelling with
hierarchical relabelling, :mod:`.crf`).  :func:`get` gives a method's object,
:func:`extract_single` is the front door.  A method's modules and model are imported on
its first use, so naming one costs nothing until a page needs it.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any, Protocol

from ..article import Article
from ..errors import UnknownMethodError
from ..page import Page

if TYPE_CHECKING:
    from .crf import CRFExtractor

__all__ = [
    "DEFAULT_SINGLE_PAGE_METHOD",
    "SINGLE_PAGE_METHODS",
    "SingleMethod",
    "extract_single",
    "get",
    "load_single",
]

#: Single-page extractors, best first; ``auto`` falls back to the first.
SINGLE_PAGE_METHODS = ("region", "pagerank", "crf")
#: The single-page method used when none is named.
DEFAULT_SINGLE_PAGE_METHOD = SINGLE_PAGE_METHODS[0]
#: Methods that were removed, and what to use instead.
REMOVED_METHODS = {
    "decision": "the per-block 'decision' method was removed (issue 22); use 'region', "
    "the default single-page method, which replaced it",
}


class SingleMethod(Protocol):
    """A single-page method: ``load()`` readies it (imports, model) and returns its
    extractor; ``extract(page)`` gives the page's (title, body)."""

    name: str

    def load(self) -> Any: ...

    def extract(self, page: Page) -> tuple[str, str]: ...


class _PageRank:
    name = "pagerank"

    def load(self) -> Any:
        from .pagerank import pagerank_extract

        return pagerank_extract

    def extract(self, page: Page) -> tuple[str, str]:
        result = self.load()(page.tree, page.url)
        return result.title, result.body

    def extract_typed(self, page: Page) -> tuple[str, str, None, Any]:
        """(title, body, None) and the maker of the body's typed blocks."""
        from .pagerank import pagerank_analysis
        from .typed import region_block_maker

        an = pagerank_analysis(page.tree, page.url)
        maker = region_block_maker(an, an.main, None, page.url) if an.main >= 0 else None
        return an.result.title, an.result.body, None, maker


class _Region:
    """One region extractor per process: it holds no per-page state."""

    name = "region"

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._extractor: Any = None

    def load(self) -> Any:
        if self._extractor is None:
            with self._lock:
                if self._extractor is None:
                    from .region.extractor import RegionExtractor  # numpy and the models

                    self._extractor = RegionExtractor()
        return self._extractor

    def extract(self, page: Page) -> tuple[str, str]:
        return self.load().extract(page.tree, page.url)

    def extract_detail(self, page: Page) -> tuple[str, str, str | None]:
        """(title, body, what changed the plain path or None): see ``RegionExtractor.extract_detail``."""
        return self.load().extract_detail(page.tree, page.url)

    def extract_typed(self, page: Page) -> tuple[str, str, str | None, Any]:
        """:meth:`extract_detail` and the maker of the body's typed blocks (``RegionExtractor.extract_typed``)."""
        return self.load().extract_typed(page.tree, page.url)


class _CRF:
    """One CRF extractor per thread: crfsuite taggers are not thread-safe."""

    name = "crf"

    def __init__(self) -> None:
        self._local = threading.local()

    def load(self) -> "CRFExtractor":
        extractor = getattr(self._local, "extractor", None)
        if extractor is None:
            from .crf import CRFExtractor  # crfsuite and a model: only when asked for

            extractor = self._local.extractor = CRFExtractor()
        return extractor

    def extract(self, page: Page) -> tuple[str, str]:
        return self.load().extract(page.tree)


_METHODS: dict[str, SingleMethod] = {m.name: m for m in (_Region(), _PageRank(), _CRF())}


def get(method: str = DEFAULT_SINGLE_PAGE_METHOD) -> SingleMethod:
    """The single-page method named ``method``; :class:`UnknownMethodError` (a
    ``ValueError``) for a name that is not one, saying so plainly for a removed one."""
    found = _METHODS.get(method)
    if found is None:
        if method in REMOVED_METHODS:
            raise UnknownMethodError(f"single-page method {method!r}: {REMOVED_METHODS[method]}")
        raise UnknownMethodError(
            f"unknown single-page method {method!r} (expected one of {', '.join(SINGLE_PAGE_METHODS)})"
        )
    return found


def load_single(method: str = DEFAULT_SINGLE_PAGE_METHOD) -> None:
    """Import a single-page method and load its model now rather than at its first page (a
    crawl does it at start: a tenth of a second of imports, numpy and the models, would
    otherwise stall its downloads mid-run).  Raises what the first page would."""
    get(method).load()


def extract_single(page: Page, method: str = DEFAULT_SINGLE_PAGE_METHOD, crf: "CRFExtractor | None" = None) -> Article:
    """Extract a page on its own with the single-page method ``method`` (``crf``: a CRF
    extractor to use for ``method="crf"`` instead of the shipped model's).  ``matched``
    stays False (no pattern applied); ``method`` names the extractor and ``detail`` what
    changed its plain path, where the method says (``region``)."""
    detail = maker = None
    if method == "crf" and crf is not None:
        title, body = crf.extract(page.tree)
    else:
        found = get(method)
        if isinstance(found, (_Region, _PageRank)):
            title, body, detail, maker = found.extract_typed(page)
        else:
            title, body = found.extract(page)
    article = Article(page.url, title, body, matched=False, method=method, source=page.source, detail=detail)
    if maker is not None:
        article.set_block_maker(maker, maker.partial)  # (typed blocks on first use: see Article.blocks)
    return article
