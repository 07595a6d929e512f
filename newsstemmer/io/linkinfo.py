"""Anchor texts of the links pointing at a page: linkinfo files and links between WARC pages.

A linkinfo file (``newsstemmer learn --linkinfo FILE``) is JSON Lines, one object per line::

    {"url": "https://example.com/a/1", "anchors": ["Headline of the story", ...]}
    {"source": "pages/a1.html", "anchors": ["Headline of the story"]}
    {"source": "pages/a2.html", "url": "https://example.com/a/2", "anchors": []}

``anchors`` attach to the page whose URL equals ``url`` (scheme and host case, and the
fragment, are ignored) or whose file is ``source`` (relative to the current directory
or to the linkinfo file's directory; ``FILE#OFFSET`` for a page in a WARC).  A line
naming both gives the page that URL when the page declares none.  Blank lines are
ignored.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Iterable
from urllib.parse import urlsplit, urlunsplit

from ..errors import NewsstemmerError
from ..layout.patterns import json_problem
from ..page import Page
from .files import PageFile, page_url
from .warc import same_site_links

__all__ = ["LinkInfo", "LinkInfoError", "add_warc_anchors", "dedupe", "load_linkinfo", "page_from_file", "url_key"]


def url_key(url: str) -> str:
    """A URL for matching: scheme and host lower-cased, fragment dropped, empty path '/'."""
    try:
        p = urlsplit(url.strip())
        return urlunsplit((p.scheme.lower(), p.netloc.lower(), p.path or "/", p.query, ""))
    except ValueError:
        return url.strip()


def dedupe(items: Iterable[str]) -> list[str]:
    """The items in order, each once."""
    seen: set[str] = set()
    out = []
    for t in items:
        if t not in seen:
            seen.add(t)
            out.append(t)
    return out


@dataclass
class LinkInfo:
    """Anchor texts by page URL and by page file, from a linkinfo file."""

    by_url: dict[str, list[str]] = field(default_factory=dict)
    by_source: dict[str, list[str]] = field(default_factory=dict)
    url_of_source: dict[str, str] = field(default_factory=dict)

    def anchors_for(self, path: str, url: str | None) -> list[str]:
        """The anchor texts given for the page in file ``path`` or at ``url``."""
        found = list(self.by_source.get(os.path.realpath(path), []))
        if url:
            found += self.by_url.get(url_key(url), [])
        return dedupe(found)

    def url_for(self, path: str) -> str | None:
        """The URL a line gave the page in file ``path``, if any."""
        return self.url_of_source.get(os.path.realpath(path))


def page_from_file(pf: PageFile, text: str, linkinfo: LinkInfo | None = None) -> Page:
    """The page read from ``pf``: its URL (the WARC record's, else the page's canonical
    one, else the one linkinfo gives its file) and the anchor texts linkinfo has for it."""
    url = pf.url or page_url(text)
    anchors: list[str] = []
    if linkinfo is not None:
        url = url or linkinfo.url_for(pf.path)
        anchors = linkinfo.anchors_for(pf.path, url)
    return Page(html=text, url=url, anchor_texts=anchors, source=pf.source)


class LinkInfoError(NewsstemmerError, ValueError):
    """A linkinfo file that cannot be read or is malformed; the message names file and line."""


def load_linkinfo(path: str) -> LinkInfo:
    """Read a linkinfo JSON Lines file; raise :class:`LinkInfoError` naming file and line."""
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
    except OSError as exc:
        raise LinkInfoError(f"{path}: cannot read linkinfo file: {exc.strerror or exc}") from None
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    info = LinkInfo()
    base = os.path.dirname(os.path.abspath(path))
    for lineno, line in enumerate(raw.split(b"\n"), 1):
        where = f"{path}: line {lineno}"
        try:
            text = line.decode("utf-8").strip()
        except UnicodeDecodeError:
            raise LinkInfoError(f"{where}: not UTF-8 text") from None
        if not text:
            continue
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise LinkInfoError(f"{where}: {json_problem(exc)}") from None
        if not isinstance(obj, dict):
            raise LinkInfoError(f"{where}: expected a JSON object, got {_json_type(obj)}")
        url, source = obj.get("url"), obj.get("source")
        for key, value in (("url", url), ("source", source)):
            if value is not None and (not isinstance(value, str) or not value.strip()):
                raise LinkInfoError(f"{where}: \"{key}\" must be a non-empty string")
        if url is None and source is None:
            raise LinkInfoError(f"{where}: needs \"url\" or \"source\"")
        if "anchors" not in obj and not (url and source):
            raise LinkInfoError(f"{where}: missing \"anchors\" (a list of strings)")
        anchors = obj.get("anchors", [])
        if not isinstance(anchors, list) or not all(isinstance(a, str) for a in anchors):
            raise LinkInfoError(f"{where}: \"anchors\" must be a list of strings")
        anchors = [" ".join(a.split()) for a in anchors]
        anchors = [a for a in anchors if a]
        if url is not None:
            info.by_url.setdefault(url_key(url), []).extend(anchors)
        if source is not None:
            candidates = {os.path.realpath(source)}
            if not os.path.isabs(source):
                candidates.add(os.path.realpath(os.path.join(base, source)))
            for key in candidates:
                info.by_source.setdefault(key, []).extend(anchors)
                if url is not None:
                    info.url_of_source.setdefault(key, url.strip())
    return info


def _json_type(value: object) -> str:
    return {list: "an array", str: "a string", bool: "a boolean", type(None): "null"}.get(
        type(value), "a number"
    )


def add_warc_anchors(pages: list["Page"]) -> None:
    """Give WARC pages the texts of the same-site links to them on the other pages (like linkinfo)."""
    found: dict[str, list[str]] = {}
    for page in pages:
        if page.url:
            for target, text in same_site_links(page.url, page.html):
                found.setdefault(url_key(target), []).append(text)
    for page in pages:
        if page.url and url_key(page.url) in found:
            page.anchor_texts = dedupe(page.anchor_texts + found[url_key(page.url)])
