"""Serve a :class:`~newsstemmer.demo.sitemodel.DemoSite` over HTTP on a loopback port.

``DemoServer(site).start()`` binds ``127.0.0.1`` on an ephemeral port (by default) and
returns the base URL (``http://127.0.0.1:PORT``, no trailing slash).  Requests are
handled on daemon threads, at most ``max_threads`` at a time (further connections wait
in the listen queue); the server logs nothing unless ``verbose``.

Responses: the page's bytes with its ``Content-Type`` (some pages name the charset in
the header, others only in ``<meta>``), an ``ETag`` (a digest of the bytes) and a
``Last-Modified`` date (an article's publication or update, else the day's edition),
``304 Not Modified`` to a conditional request (``If-None-Match``, else
``If-Modified-Since``) the page still satisfies, ``301`` to the slash-terminated path
for a section requested without its slash, ``404`` for anything else.  ``HEAD`` is
supported.  :meth:`DemoServer.switch` serves another site (another demo day) on the
same port.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from email.utils import format_datetime, parsedate_to_datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import unquote, urlsplit

from .days import last_change
from .sitemodel import DemoSite
from .site import build_site

__all__ = ["DemoServer"]

log = logging.getLogger(__name__)

_NOT_FOUND = (
    b'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Page not found | The Meridian Courier'
    b"</title></head>\n<body><h1>Page not found</h1><p>Sorry, we could not find that page.</p>"
    b'<p><a href="/">Go to the home page</a></p></body></html>\n'
)


class _Handler(BaseHTTPRequestHandler):
    server: "_Server"
    protocol_version = "HTTP/1.1"
    server_version = "MeridianCourier/1.0"
    sys_version = ""
    timeout = 15  # an idle keep-alive connection gives its thread back after this

    def do_GET(self) -> None:  # noqa: N802 (http.server naming)
        self._respond(send_body=True)

    def do_HEAD(self) -> None:  # noqa: N802
        self._respond(send_body=False)

    def _respond(self, send_body: bool) -> None:
        site = self.server.site
        path = unquote(urlsplit(self.path).path) or "/"
        if self.server.delay and path != "/robots.txt":
            time.sleep(self.server.delay)
        page = site.get(path)
        if page is not None:
            body = site.render(path, self.server.base_url)
            etag = '"' + hashlib.sha1(body).hexdigest()[:20] + '"'
            changed = last_change(page, site.updated, site.day)
            headers = {"ETag": etag, "Last-Modified": format_datetime(changed, usegmt=True)}
            if self._not_modified(etag, changed):
                self._send(304, b"", page.content_type, False, headers)
            else:
                self._send(200, body, page.content_type, send_body, headers)
        elif not path.endswith("/") and path + "/" in site:
            self._send(301, b"", "text/html", send_body, {"Location": path + "/"})
        else:
            self._send(404, _NOT_FOUND, "text/html; charset=utf-8", send_body)

    def _not_modified(self, etag: str, changed: object) -> bool:
        """Whether a conditional request's validators still match (``If-None-Match`` wins)."""
        tags = self.headers.get("If-None-Match")
        if tags is not None:
            return etag in [t.strip() for t in tags.split(",")] or tags.strip() == "*"
        since = self.headers.get("If-Modified-Since")
        if since:
            try:
                return parsedate_to_datetime(since) >= changed  # type: ignore[operator]
            except (TypeError, ValueError):
                return False
        return False

    def _send(self, status: int, body: bytes, ctype: str, send_body: bool, extra: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)) if status != 304 else "0")
        self.send_header("Cache-Control", "max-age=60")
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        self.end_headers()
        if send_body and body:
            self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        if self.server.verbose:
            log.info("%s - %s", self.address_string(), format % args)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 64

    def __init__(self, address: tuple[str, int], site: DemoSite, max_threads: int, verbose: bool,
                 delay: float = 0.0) -> None:
        self.site = site
        self.verbose = verbose
        self.delay = delay
        self.base_url = ""
        self._slots = threading.BoundedSemaphore(max_threads)
        super().__init__(address, _Handler)

    def process_request(self, request: Any, client_address: Any) -> None:
        # Bounded: the accept loop waits for a free slot before it starts another thread.
        self._slots.acquire()
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._slots.release()
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._slots.release()

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A client hanging up mid-response is not worth a traceback on stderr.
        if self.verbose:
            super().handle_error(request, client_address)


class DemoServer:
    """The demo site on a loopback port; also a context manager (``with DemoServer() as s: s.base_url``)."""

    def __init__(
        self,
        site: DemoSite | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
        max_threads: int = 16,
        verbose: bool = False,
        delay: float = 0.0,
    ) -> None:
        self.site = site if site is not None else build_site()
        self.delay = delay  # seconds before each answer (a slow site, to stop a crawl midway in tests)
        self.host = host
        self.port = port
        self.max_threads = max_threads
        self.verbose = verbose
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT`` of the running server (empty when stopped)."""
        return self._server.base_url if self._server else ""

    @property
    def running(self) -> bool:
        return self._server is not None

    def url(self, path: str = "/") -> str:
        """The absolute URL of a site path on the running server."""
        if not self._server:
            raise RuntimeError("the demo server is not running")
        return self.base_url + path

    def start(self) -> str:
        """Start serving (idempotent) and return the base URL."""
        with self._lock:
            if self._server is None:
                server = _Server((self.host, self.port), self.site, self.max_threads, self.verbose, self.delay)
                host, port = server.server_address[:2]
                server.base_url = f"http://{host}:{port}"
                thread = threading.Thread(
                    target=server.serve_forever, kwargs={"poll_interval": 0.1},
                    name=f"newsstemmer-demo-{port}", daemon=True,
                )
                thread.start()
                self._server, self._thread = server, thread
                if self.verbose:
                    log.info("demo site on %s (%d pages)", server.base_url, len(self.site))
            return self._server.base_url

    def stop(self) -> None:
        """Stop serving and free the port (idempotent)."""
        with self._lock:
            server, thread = self._server, self._thread
            self._server = self._thread = None
        if server is not None:
            server.shutdown()
            server.server_close()
        if thread is not None:
            thread.join(timeout=5)

    def switch(self, site: DemoSite, delay: float | None = None) -> None:
        """Serve ``site`` from now on (the next demo day), on the same port (``delay``: see ``__init__``)."""
        self.site = site
        self.delay = self.delay if delay is None else delay
        if self._server is not None:
            self._server.site = site
            self._server.delay = self.delay

    def __enter__(self) -> "DemoServer":
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def __repr__(self) -> str:
        state = self.base_url or "stopped"
        return f"<DemoServer {state} pages={len(self.site)}>"
