"""Links and pictures made absolute against the page's URL, as ``urljoin`` makes them, faster.

A page's body holds dozens of links; :func:`urllib.parse.urljoin` parses the base and
the link each time (~15 µs), which made most of the typed blocks' cost.  Most links
are already absolute, or relative to the site's root: :class:`UrlJoiner` returns those
without parsing where ``urljoin`` would give the very same string, and asks
``urljoin`` for everything else (dot segments, empty queries, parameters, odd
characters), so the result never differs from it.
"""

from __future__ import annotations

from urllib.parse import urljoin, urlsplit

__all__ = ["UrlJoiner"]

# Characters after which urljoin may rewrite an absolute or root-relative link
# (";": parameters; "[]": a host to check; tab and newlines: removed; "\\": some
# parsers' slash).
_REWRITTEN = frozenset(";[]\t\r\n\\")

# Schemes that are never relative: urljoin returns such a link unchanged (scripts written as
# links are many on older news pages).
_UNJOINED = ("javascript:", "mailto:")


def _round_trips(href: str) -> bool:
    """Whether urlsplit/urlunsplit give ``href``'s path, query and fragment back
    unchanged: no character they rewrite, no empty query or fragment they would drop."""
    if ";" in href or "[" in href or "]" in href or "\\" in href or "\t" in href or "\n" in href or "\r" in href:
        return False  # (any of _REWRITTEN: a look-up each, a few times faster than isdisjoint's walk)
    if href.endswith("#"):
        return False
    before_fragment = href.split("#", 1)[0]
    return not before_fragment.endswith("?")


class UrlJoiner:
    """``urljoin(base, href)`` for many links of one page.

    An absolute ``http(s)`` link with an ASCII host, a root-relative link (``/path``) on an
    ``http(s)`` page and a ``javascript:`` or ``mailto:`` link are written as ``urljoin``
    writes them without parsing (checked characters first); anything else goes to
    ``urljoin``.
    """

    __slots__ = ("base", "_origin")

    def __init__(self, base: str) -> None:
        self.base = base
        self._origin: str | None | bool = False  # (False: not worked out yet)

    def _base_origin(self) -> str | None:
        """``scheme://host`` of the base as urljoin reads it (None: not http(s), or odd)."""
        if self._origin is False:
            origin = None
            try:
                parts = urlsplit(self.base)
            except ValueError:
                parts = None
            if parts is not None and parts.scheme in ("http", "https"):
                origin = f"{parts.scheme}://{parts.netloc}"
            self._origin = origin
        return self._origin  # type: ignore[return-value]

    def join(self, href: str) -> str:
        """``href`` (stripped) made absolute against the base, exactly as ``urljoin`` does."""
        if href.startswith("https://"):
            start = 8
        elif href.startswith("http://"):
            start = 7
        elif href.startswith("/") and not href.startswith("//"):
            origin = self._base_origin()
            path = href.split("?", 1)[0].split("#", 1)[0]
            if origin is not None and "/." not in path and _round_trips(href):
                return origin + href
            return urljoin(self.base, href)
        elif href.startswith(_UNJOINED) and href.isascii() and "[" not in href and "]" not in href:
            return href  # (urljoin gives these schemes back as they are)
        else:
            return urljoin(self.base, href)
        if href.isascii() and href[start:start + 1] not in ("/", "?", "#", "") and _round_trips(href):
            return href
        return urljoin(self.base, href)
