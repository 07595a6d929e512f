"""A fetched page as the core sees it: decoded HTML, URL, the anchor texts pointing to it,
and its parsed tree, made once and shared by every method that reads the page."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from lxml import etree

from .dom.parse import parse_html

__all__ = ["Page"]

T = TypeVar("T")
_MISSING = object()


@dataclass
class Page:
    """One page of a site.

    ``anchor_texts`` are the texts of same-site links pointing at this page
    (linkinfo); they are the best evidence of its headline.  ``source`` is how
    the user named the page (a path, a URL) and is echoed in outputs.

    The page is parsed once (:attr:`tree`); what methods derive from it (layout
    blocks, ...) is kept with :meth:`memo`, so that a page that goes from learned
    layouts to a single-page method is neither parsed nor cut twice.
    """

    html: str
    url: str | None = None
    anchor_texts: list[str] = field(default_factory=list)
    source: str | None = None
    _tree: etree._Element | None = field(default=None, init=False, repr=False, compare=False)
    _memo: dict[Any, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    @property
    def tree(self) -> etree._Element:
        """The parsed document (:func:`~newsstemmer.dom.parse.parse_html`, on first use).

        Raises :class:`~newsstemmer.dom.parse.HTMLParseError` for a page that is not HTML.
        Methods read the tree and never change it.
        """
        if self._tree is None:
            self._tree = parse_html(self.html)
        return self._tree

    @property
    def parsed(self) -> bool:
        """Whether the tree is at hand (given or parsed already)."""
        return self._tree is not None

    def with_tree(self, root: etree._Element) -> Page:
        """Use ``root`` as this page's parsed tree (e.g. the crawl's own parse); returns the page."""
        self._tree = root
        return self

    def forget_tree(self) -> None:
        """Let the tree go (learning keeps many pages' blocks, not their trees)."""
        self._tree = None

    def memo(self, key: object, compute: Callable[[], T]) -> T:
        """``compute()``'s value, made once per ``key`` for this page."""
        value = self._memo.get(key, _MISSING)
        if value is _MISSING:
            value = self._memo[key] = compute()
        return value

    @property
    def name(self) -> str:
        return self.source or self.url or "<page>"
