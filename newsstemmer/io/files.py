"""Pages named on the command line: finding them, reading and decoding them, their URL.

A PAGE argument is a file or a directory (searched recursively for ``*.html``,
``*.htm``, ``*.xhtml``, ``*.shtml``, ``*.warc``, ``*.warc.gz``, in sorted order).
A WARC file stands for its HTML pages (see :mod:`newsstemmer.io.warc`), each named
``FILE#OFFSET``.  Pages are read as bytes and decoded by
:func:`newsstemmer.dom.decoding.decode_html`; a page's own URL is its
``<link rel="canonical">`` or ``<meta property="og:url">`` (:func:`page_url`).
"""

from __future__ import annotations

import html as _html
import os
import re
from dataclasses import dataclass
from typing import Callable, Sequence
from urllib.parse import urlsplit

from ..dom.decoding import BinaryContentError, decode_file, decode_html
from ..errors import NewsstemmerError
from .warc import WarcPage, WarcReadError, is_warc_name, read_payload, scan_warc

__all__ = ["HTML_SUFFIXES", "NO_PAGES", "PageFile", "PageReadError", "find_pages", "page_url", "read_page"]

#: File name endings (lower case) picked up when a directory is given.
HTML_SUFFIXES = (".html", ".htm", ".xhtml", ".shtml")
#: Said when no PAGE argument gave a page.
NO_PAGES = "no pages found (give HTML or WARC files, or directories holding *.html/*.htm/*.xhtml/*.shtml/*.warc/*.warc.gz)"
#: Bytes of a page searched for its canonical URL.
HEAD_LIMIT = 256 * 1024


@dataclass
class PageFile:
    """A page named on the command line (or found in a named directory, or in a WARC file)."""

    source: str  # the path as given (directory argument joined with the relative path); FILE#OFFSET in a WARC
    path: str  # the same path, for opening; FILE#OFFSET in a WARC (what linkinfo "source" matches)
    url: str | None = None  # the URL the page was fetched from, when known (WARC-Target-URI)
    warc: WarcPage | None = None  # the WARC record holding the page
    error: str | None = None  # why this input cannot be read (a damaged WARC file)


def is_html_name(name: str) -> bool:
    """Whether a file name ends like an HTML page (:data:`HTML_SUFFIXES`)."""
    return name.lower().endswith(HTML_SUFFIXES)


def find_pages(
    args: Sequence[str],
    warn: Callable[[str], None] | None = None,
    *,
    info: Callable[[str], None] | None = None,
    progress: Callable[[str, int, int], None] | None = None,
) -> list[PageFile]:
    """Expand PAGE arguments: files as given, directories recursively (sorted).

    Missing paths are kept (reading them reports the error); a file reached twice
    is listed once.  A WARC file (``*.warc``, ``*.warc.gz``) is replaced by its
    HTML pages, in file order, followed by an entry carrying the error if the file
    is damaged (so reading it reports the error); ``info`` gets a line per WARC
    file counting its pages and skipped records, ``progress`` the scan of large ones.
    """
    out: list[PageFile] = []
    seen: set[str] = set()

    def add(source: str) -> None:
        key = os.path.realpath(source)
        if key in seen:
            return
        seen.add(key)
        if is_warc_name(source) and not os.path.isdir(source):
            add_warc(source)
        else:
            out.append(PageFile(source, source))

    def add_warc(source: str) -> None:
        scan = scan_warc(source, progress)
        for record in scan.pages:
            name = f"{source}#{record.offset}"
            out.append(PageFile(name, name, url=record.url, warc=record))
        if scan.error is not None:
            out.append(PageFile(source, source, error=scan.error))
        elif info is not None:
            info(f"{source}: {scan.summary()}")

    for arg in args:
        if os.path.isdir(arg):
            found: list[str] = []

            def onerror(exc: OSError) -> None:
                if warn:
                    warn(f"{exc.filename or arg}: skipped: {exc.strerror or exc}")

            for root, dirs, files in os.walk(arg, onerror=onerror):
                dirs.sort()
                rel_root = os.path.relpath(root, arg)
                for name in files:
                    if is_html_name(name) or is_warc_name(name):
                        rel = name if rel_root == os.curdir else os.path.join(rel_root, name)
                        found.append(rel)
            for rel in sorted(found, key=lambda r: r.replace(os.sep, "/")):
                add(os.path.join(arg, rel))
        else:
            add(arg)
    return out


class PageReadError(NewsstemmerError):
    """A page that cannot be read or is not text; the message is the reason."""


def read_page(pf: PageFile) -> str:
    """Read and decode one page (a file or a WARC record); raise :class:`PageReadError` with the reason."""
    if pf.error is not None:
        raise PageReadError(pf.error)
    if pf.warc is None and os.path.isdir(pf.path):
        raise PageReadError("is a directory")
    try:
        if pf.warc is not None:
            return decode_html(read_payload(pf.warc), pf.warc.content_type).text
        return decode_file(pf.path).text
    except (WarcReadError, BinaryContentError) as exc:
        raise PageReadError(str(exc)) from None
    except OSError as exc:
        raise PageReadError(exc.strerror or str(exc)) from None
    except (UnicodeError, LookupError) as exc:  # should not happen: decode_html falls back
        raise PageReadError(f"cannot decode: {exc}") from None


# -- the page's own URL ---------------------------------------------------------------------

_TAG_RE = re.compile(r"<(link|meta)\b([^>]*)>", re.IGNORECASE)
_ATTR_RE = re.compile(r"""([^\s=/>"']+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+)))?""")
_HEAD_END_RE = re.compile(r"</head\s*>|<body[\s>]", re.IGNORECASE)


def _attrs(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for m in _ATTR_RE.finditer(text):
        name = m.group(1).lower()
        value = next((g for g in m.group(2, 3, 4) if g is not None), "")
        out.setdefault(name, _html.unescape(value).strip())
    return out


def _absolute_url(url: str) -> str | None:
    url = url.strip()
    if url.startswith("//"):
        url = "https:" + url
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if parts.scheme.lower() in ("http", "https") and parts.netloc:
        return url
    return None


def page_url(text: str) -> str | None:
    """The page's own URL: ``<link rel="canonical">``, else ``<meta property="og:url">``.

    Only absolute http(s) URLs count; the head is read with regular expressions
    (no parse), up to ``</head>``, ``<body>`` or :data:`HEAD_LIMIT` characters.
    """
    head = text[:HEAD_LIMIT]
    end = _HEAD_END_RE.search(head)
    if end:
        head = head[: end.start()]
    canonical = og = None
    for m in _TAG_RE.finditer(head):
        is_link = m.group(1).lower() == "link"
        lowered = m.group(2).lower()
        if "&" not in lowered and ("canonical" if is_link else "og:url") not in lowered:
            continue  # cannot be the tag sought (only an entity could hide the word): skip the attribute parse
        attrs = _attrs(m.group(2))
        if is_link:
            if canonical is None and "canonical" in attrs.get("rel", "").lower().split():
                canonical = _absolute_url(attrs.get("href", ""))
        elif og is None:
            prop = (attrs.get("property") or attrs.get("name") or "").lower()
            if prop == "og:url":
                og = _absolute_url(attrs.get("content", ""))
    return canonical or og
