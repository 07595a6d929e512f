"""Dataset sites served on loopback addresses, for the crawl benchmarks.

Each site of the chosen datasets gets its own HTTP server (``SiteServer``): an index page
linking every page of the site by its headline, and the pages as captured, each at the
path of its real URL (the shape of a page's address is evidence of its type: a gallery
served at ``/a/<id>.html`` is typed otherwise than at ``/2009/11/30/flipbook/``), or at
``/a/<id>.html`` where it has none (:func:`served_path`).
``crawl.py``'s dataset crawl and ``scaleout.py`` crawl them.
"""

from __future__ import annotations

import html
import re
import sys
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Iterator
from urllib.parse import quote, urlsplit

if __name__ == "__main__" and not __package__:  # run as a file: import from the checkout's root
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from benchmarks.shared import Entry, by_site

from newsstemmer.crawl.testing import NOT_FOUND, send_page

#: dragnet's sites are served only with at least this many pages (learnable ones)
DRAGNET_MIN_PAGES = 5


_TITLE_RE = re.compile(r"<title[^>]*>(.*?)</title>", re.I | re.S)


def headline(e: Entry) -> str:
    """First line of the gold text when it has the headline, else the page's <title>."""
    if e.gold_has_title:
        for line in e.gold().splitlines():
            if line.strip():
                return line.strip()
    m = _TITLE_RE.search(e.html())
    return " ".join(html.unescape(m.group(1)).split()) if m else e.id


@dataclass
class SiteServer:
    """The pages of one site on a loopback address."""

    dataset: str
    site: str
    entries: list[Entry]
    host: str
    paths: dict[str, Entry] = field(default_factory=dict)  # served path -> entry (served_path)
    id_paths: bool = False  # every page at "/a/<id>.html" (as before real paths)
    httpd: ThreadingHTTPServer | None = None

    @property
    def base_url(self) -> str:
        assert self.httpd is not None
        return f"http://{self.host}:{self.httpd.server_address[1]}"

    def start(self) -> None:
        pages: dict[str, tuple[str, bytes]] = {}
        links = []
        for e in self.entries:
            path = served_path(e, self.paths, self.id_paths)
            self.paths[path] = e
            pages[path] = ("text/html", e.raw())  # as captured (.html.gz unpacked); no charset: the page's meta decides
            links.append(f'<li><a href="{html.escape(path)}">{html.escape(headline(e))}</a></li>')
        index = (
            "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
            f"<title>{html.escape(self.site)}</title></head>\n<body>\n<h1>{html.escape(self.site)}</h1>\n"
            f"<ul>\n{chr(10).join(links)}\n</ul>\n</body></html>\n"
        )
        pages["/"] = ("text/html; charset=utf-8", index.encode("utf-8"))
        handler = type("Handler", (_Handler,), {"pages": pages})
        self.httpd = ThreadingHTTPServer((self.host, 0), handler)
        self.httpd.daemon_threads = True
        threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True).start()

    def stop(self) -> None:
        if self.httpd is not None:
            self.httpd.shutdown()
            self.httpd.server_close()


_PLAIN_PATH = re.compile(r"/[A-Za-z0-9/._~!$&'()*+,;=:@-]*")


def served_path(e: Entry, taken: dict[str, Entry] | set[str], id_paths: bool = False) -> str:
    """The path ``e`` is served at: its real URL's path where that is plain (ASCII, nothing
    to escape, no empty, ``.`` or ``..`` segment), not the index's ``/``, not ``/a/...`` and
    not ``taken`` by another page of the site; else (and with ``id_paths``)
    ``/a/<id>.html``.  The query is not kept (the server reads paths only).  A path with
    dot segments is never served as is: a client resolves them away before asking
    (RFC 3986, 5.2.4), so the page would be linked but never fetched."""
    path = urlsplit(e.url or "").path
    if (id_paths or not _PLAIN_PATH.fullmatch(path) or path == "/" or path.startswith("/a/") or path in taken
            or "//" in path or has_dot_segment(path)):
        return f"/a/{quote(e.id, safe='')}.html"
    return path


def has_dot_segment(path: str) -> bool:
    """Whether a URL path has a ``.`` or ``..`` segment (``/a/../b``, ``/./x``, ``/x/..``)."""
    return any(seg in (".", "..") for seg in path.split("/"))


#: the answer to a request whose path has a ``.`` or ``..`` segment
DOT_SEGMENT_REFUSED = (b"<html><body>Refused: the path has a '.' or '..' segment; these sites serve no "
                       b"such path (resolve it first, RFC 3986 5.2.4)</body></html>")


class _Handler(BaseHTTPRequestHandler):
    pages: dict[str, tuple[str, bytes]] = {}

    def do_GET(self) -> None:  # noqa: N802
        path = urlsplit(self.path).path or "/"
        if has_dot_segment(path):
            send_page(self, 400, "text/html; charset=utf-8", DOT_SEGMENT_REFUSED)
            return
        ctype, body = self.pages.get(path, ("text/html; charset=utf-8", b""))
        status = 200 if path in self.pages else 404
        send_page(self, status, ctype, body if status == 200 else NOT_FOUND)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


def loopback_hosts(same_host: bool) -> Iterator[str]:
    """127.0.0.1 for every site (``--same-host``), else 127.0.0.2, 127.0.0.3, … (all loopback on Linux)."""
    if same_host:
        while True:
            yield "127.0.0.1"
    n = 2
    while True:
        a, b = divmod(n, 254)
        yield f"127.0.{a}.{b + 1}" if a else f"127.0.0.{n}"
        n += 1


def dataset_sites(entries: list[Entry], names: list[str], dragnet: bool) -> list[tuple[str, str, list[Entry]]]:
    """(dataset, site, pages) of every site to serve: all of ``names``, dragnet's sites with enough pages."""
    out = []
    for ds in names + (["dragnet"] if dragnet and "dragnet" not in names else []):
        min_pages = DRAGNET_MIN_PAGES if ds == "dragnet" else 1
        for site, es in by_site(entries, ds).items():
            if len(es) >= min_pages:
                out.append((ds, site, es))
    return out
