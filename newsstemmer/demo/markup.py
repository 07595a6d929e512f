"""Writing the demo's HTML: a document that records its links, escaping, slugs and dates."""

from __future__ import annotations

import datetime as _dt
import html
from typing import TYPE_CHECKING

from . import text as en

if TYPE_CHECKING:
    from .plan import PlannedArticle

__all__ = ["Doc", "attr", "esc", "long_time", "short_date", "slug"]

_WEEKDAY_ABBR = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTH_ABBR = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def esc(s: str) -> str:
    """Text escaped for element content."""
    return html.escape(s, quote=False)


def attr(s: str) -> str:
    """Text escaped for an attribute value."""
    return html.escape(s, quote=True)


def slug(name: str) -> str:
    """The URL slug of a tag or author name."""
    return en.slugify(name, 6)



class Doc:
    """An HTML page being written: its parts, its links, and what kind of page it is.

    ``kind``, ``title``, ``layout``, ``section`` describe the page once served (see
    :class:`~newsstemmer.demo.sitemodel.DemoPage`); ``article`` is the planned article
    of an article page; ``header_charset`` (``None``: the section's own setting)
    says whether the HTTP header names the charset.
    """

    def __init__(self, path: str, *, kind: str = "index", title: str | None = None, layout: str | None = None,
                 section: str | None = None, header_charset: bool | None = None,
                 article: "PlannedArticle | None" = None) -> None:
        self.path = path
        self.parts: list[str] = []
        self.links: list[tuple[str, str]] = []
        self.kind = kind
        self.title = title
        self.layout = layout
        self.section = section
        self.header_charset = header_charset
        self.article = article

    def a(self, href: str, label: str, cls: str | None = None) -> str:
        """A link (recorded, with its anchor text)."""
        self.links.append((href, label))
        c = f' class="{cls}"' if cls else ""
        return f'<a href="{attr(href)}"{c}>{esc(label)}</a>'

    def html(self) -> str:
        """The page's text so far."""
        return "".join(self.parts)


def short_date(when: _dt.datetime) -> str:
    """``22 Nov 2026``."""
    return f"{when.day} {_MONTH_ABBR[when.month - 1]} {when.year}"


def long_time(when: _dt.datetime) -> str:
    """``Sun 22 Nov 2026 06.00 GMT``."""
    return (f"{_WEEKDAY_ABBR[when.weekday()]} {when.day} {_MONTH_ABBR[when.month - 1]} {when.year} "
            f"{when.hour:02d}.{when.minute:02d} GMT")
