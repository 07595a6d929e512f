"""Test helpers: a small generated news site, a local HTTP server, and running ``scrapy crawl``.

Used by ``tests/test_crawl_*.py``; useful for trying the crawl by hand too::

    from .testing import build_test_site, serve
    with serve(build_test_site()) as base_url:
        ...  # scrapy crawl news -a urls=<base_url>/

The site has one article layout (``n_articles`` pages with 3–9 paragraphs, a
fact box on some, a "related" box linking three other articles), section index
pages that link each article with a short headline, a front page that links the
first articles with their full headline, and hostile pages: a PNG served as
HTML, JSON, a page larger than the test ``DOWNLOAD_MAXSIZE``, a 5,000-level deep
page, a page in cp1252 that declares UTF-8, and a dead link.
"""

from __future__ import annotations

import html
import json
import random
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Callable, Iterator, Sequence

__all__ = ["TestSite", "build_test_site", "serve", "hold_articles", "send_page", "crawl_command", "run_crawl", "crawl_stats", "REPO_ROOT",
           "FAST_SETTINGS", "REPRODUCIBLE_SETTINGS",
           "crawl_demo_day", "crawl_site_day", "news_page", "free_port", "redis_server"]

REPO_ROOT = Path(__file__).resolve().parents[2]

_WORDS = (
    "council river budget school harbour election minister storm bridge museum farmers hospital "
    "railway festival court market tunnel library teachers energy coast union village plan report "
    "vote season rescue flood mayor contract airport science team orchestra ferry lighthouse"
).split()
SECTIONS = ("news", "sport", "culture")
#: Size of the oversized page; run crawls with a smaller ``DOWNLOAD_MAXSIZE``.
BIG_PAGE_BYTES = 400_000
HOSTILE_PATHS = ("/files/scan", "/data/feed", "/big", "/deep", "/mislabelled", "/gone")


@dataclass
class TestSite:
    """Path -> (status, content type, body); the true title and body of every article."""

    __test__ = False  # not a pytest test class

    pages: dict[str, tuple[int, str, bytes]] = field(default_factory=dict)
    articles: dict[str, tuple[str, str]] = field(default_factory=dict)
    short_titles: dict[str, str] = field(default_factory=dict)
    box_texts: list[str] = field(default_factory=list)


def _sentence(rng: random.Random) -> str:
    return " ".join(rng.choice(_WORDS) for _ in range(rng.randint(8, 16))).capitalize() + "."


def _paragraph(rng: random.Random) -> str:
    return " ".join(_sentence(rng) for _ in range(rng.randint(2, 4)))


def _headline(rng: random.Random, i: int) -> str:
    words = [rng.choice(_WORDS) for _ in range(rng.randint(6, 10))]
    return f"{' '.join(words).capitalize()} in district {i}"


def _frame(title: str, main: str) -> str:
    nav = "".join(f'<li><a href="/{s}/">{s.capitalize()}</a></li>' for s in SECTIONS)
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<title>{html.escape(title)} | The Test Tribune</title></head>\n<body>\n"
        '<header class="masthead"><div class="brand"><a href="/">The Test Tribune</a>: '
        "all the news from the test valley since 1899</div>\n"
        f'<nav class="menu"><ul>{nav}</ul></nav></header>\n'
        f'<main id="content">\n{main}\n</main>\n'
        '<footer class="site-footer"><p>Copyright The Test Tribune. All rights reserved. '
        "Registered office: 1 Mill Lane, Test Valley.</p></footer>\n</body></html>\n"
    )


def build_test_site(n_articles: int = 30, seed: int = 7, hostile: bool = True) -> TestSite:
    """A deterministic small news site (see the module docstring)."""
    rng = random.Random(seed)
    site = TestSite()
    paths: list[str] = []
    heads: list[str] = []
    for i in range(n_articles):
        section = SECTIONS[i % len(SECTIONS)]
        head = _headline(rng, i)
        paths.append(f"/{section}/2026/story-{1000 + i}.html")
        heads.append(head)
        site.short_titles[paths[-1]] = " ".join(head.split()[:4])
    for i, (path, head) in enumerate(zip(paths, heads)):
        paras = [_paragraph(rng) for _ in range(rng.randint(3, 9))]
        body_html = [f"<p>{html.escape(p)}</p>" for p in paras]
        if i % 3 == 0:  # a fact box inside the text on some pages
            box = f"Fact box: {_sentence(rng)}"
            site.box_texts.append(box)
            body_html.insert(min(2, len(body_html)), f'<aside class="factbox"><p>{html.escape(box)}</p></aside>')
        related = [(i + k) % n_articles for k in (1, 2, 5)]
        rel = "".join(f'<li><a href="{paths[j]}">{html.escape(heads[j])}</a></li>' for j in related)
        main = (
            f'<article id="post-{1000 + i}" class="story post-{1000 + i}">\n'
            f'<h1 class="headline">{html.escape(head)}</h1>\n'
            f'<p class="byline">By Reporter {i % 7} in {path.split("/")[1].capitalize()}</p>\n'
            f'<div class="story-body">{"".join(body_html)}</div>\n'
            "</article>\n"
            f'<aside class="related"><h2>Related stories</h2><ul>{rel}</ul></aside>'
        )
        site.pages[path] = (200, "text/html; charset=utf-8", _frame(head, main).encode("utf-8"))
        site.articles[path] = (head, "\n".join(paras))
    for section in SECTIONS:
        items = "".join(
            f'<li class="teaser"><a href="{p}">{html.escape(site.short_titles[p])}</a></li>'
            for p in paths
            if p.startswith(f"/{section}/")
        )
        main = f'<h1 class="section-title">{section.capitalize()}</h1>\n<ul class="teasers">{items}</ul>'
        site.pages[f"/{section}/"] = (200, "text/html; charset=utf-8", _frame(section.capitalize(), main).encode())
    top = "".join(f'<li><a href="{p}">{html.escape(h)}</a></li>' for p, h in list(zip(paths, heads))[:12])
    hostile_links = "".join(f'<li><a href="{p}">Special {k}</a></li>' for k, p in enumerate(HOSTILE_PATHS)) if hostile else ""
    main = f'<h1 class="front">Today</h1>\n<ul class="top-stories">{top}</ul>\n<ul class="specials">{hostile_links}</ul>'
    site.pages["/"] = (200, "text/html; charset=utf-8", _frame("Front page", main).encode())
    if hostile:
        png = b"\x89PNG\r\n\x1a\n" + bytes(rng.randrange(256) for _ in range(4000))
        site.pages["/files/scan"] = (200, "text/html", png)
        site.pages["/data/feed"] = (200, "application/json", b'{"items": [1, 2, 3]}')
        filler = "<p>" + "word " * 50 + "</p>\n"
        site.pages["/big"] = (200, "text/html; charset=utf-8", _frame("Big", filler * (BIG_PAGE_BYTES // len(filler))).encode())
        deep = "<div>" * 5000 + "deep text at the bottom of the page" + "</div>" * 5000
        site.pages["/deep"] = (200, "text/html; charset=utf-8", _frame("Deep", deep).encode())
        mislabelled = _frame("Caf\u00e9 news", "<p>Caf\u00e9 cr\u00e8me for \u20ac3 \u2013 na\u00efve prices</p>" * 20)
        site.pages["/mislabelled"] = (200, "text/html; charset=utf-8", mislabelled.encode("cp1252"))
    return site


NOT_FOUND = b"<html><body>Not found</body></html>"


def send_page(handler: BaseHTTPRequestHandler, status: int, ctype: str, body: bytes) -> None:
    """Answer a request with one page (a crawler that went away is no error)."""
    try:
        handler.send_response(status)
        handler.send_header("Content-Type", ctype)
        handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        handler.wfile.write(body)
    except (BrokenPipeError, ConnectionResetError):
        pass  # the crawler went away (a killed crawl)


class _Handler(BaseHTTPRequestHandler):
    site: TestSite
    delay: float = 0.0
    gate: Callable[[str], None] | None = None

    def do_GET(self) -> None:  # noqa: N802
        path = self.path.split("?", 1)[0]
        if self.gate is not None:
            self.gate(path)
        if self.delay and path != "/robots.txt":
            time.sleep(self.delay)
        status, ctype, body = self.site.pages.get(path, (404, "text/html", NOT_FOUND))
        send_page(self, status, ctype, body)

    def log_message(self, format: str, *args: object) -> None:  # quiet
        pass


@contextmanager
def serve(site: TestSite, delay: float = 0.0, gate: Callable[[str], None] | None = None) -> Iterator[str]:
    """Serve ``site`` on 127.0.0.1 (ephemeral port) in a thread; yields the base URL.

    ``delay`` seconds pass before each answer (a slow site, to stop a crawl midway).
    ``gate(path)`` is called before each answer, in the request's thread, and may block:
    a test's way to hold pages until something has happened (not on timing).
    """
    handler = type("Handler", (_Handler,), {"site": site, "delay": delay, "gate": staticmethod(gate) if gate else None})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def hold_articles(site: TestSite, until: Callable[[], bool], free: int = 0, then: float = 0.0,
                  timeout: float = 60.0) -> Callable[[str], None]:
    """A ``gate`` for :func:`serve`: past the first ``free`` article pages the site answers
    once ``until()`` is true (at the latest after ``timeout`` seconds), and ``then``
    seconds later: a test holds the crawl on an event, not on the machine's speed."""
    lock, served = threading.Lock(), [0]

    def gate(path: str) -> None:
        if path not in site.articles:
            return
        with lock:
            served[0] += 1
            if served[0] <= free:
                return
        end = time.monotonic() + timeout
        while not until() and time.monotonic() < end:
            time.sleep(0.02)
        time.sleep(then)

    return gate


#: Settings that make a local test crawl fast (the project defaults are polite, hence slow).
FAST_SETTINGS = {
    "AUTOTHROTTLE_ENABLED": "False",
    "DOWNLOAD_DELAY": "0",
    "CONCURRENT_REQUESTS_PER_DOMAIN": "8",
    "TELNETCONSOLE_ENABLED": "False",
    "LOG_LEVEL": "INFO",
}

#: :data:`FAST_SETTINGS` for a crawl whose learning must be the same on every run: one
#: request at a time and no second process, so a site's first learning round sees the
#: same pages whatever the machine's load (with concurrent responses, or a round that
#: waits for the second process to start, which pages it sees depends on timing).
REPRODUCIBLE_SETTINGS = {**FAST_SETTINGS, "CONCURRENT_REQUESTS_PER_DOMAIN": "1", "NEWSSTEMMER_SIDECAR": "False"}


def crawl_command(
    urls: Sequence[str], output: Path, settings: dict[str, str] | None = None, extra_args: Sequence[str] = ()
) -> list[str]:
    """``python -m scrapy crawl news -a urls=… -O output -s …`` (run it from :data:`REPO_ROOT`);
    without ``urls``, the crawl of its settings' start (the bundled demo site)."""
    cmd = [sys.executable, "-m", "scrapy", "crawl", "news"]
    if urls:
        cmd += ["-a", "urls=" + ",".join(urls)]
    cmd += ["-O", str(output)]
    for name, value in {**FAST_SETTINGS, **(settings or {})}.items():
        cmd += ["-s", f"{name}={value}"]
    return cmd + list(extra_args)


def run_crawl(
    urls: Sequence[str],
    output: Path,
    settings: dict[str, str] | None = None,
    timeout: float = 60,
    extra_args: Sequence[str] = (),
) -> subprocess.CompletedProcess[str]:
    """Run the crawl in a subprocess from the repository root and wait for it."""
    cmd = crawl_command(urls, output, settings, extra_args)
    return subprocess.run(cmd, cwd=REPO_ROOT, capture_output=True, text=True, timeout=timeout)


def crawl_demo_day(work: Path, day: int, port: int, name: str | None = None,
                   settings: dict[str, str] | None = None,
                   timeout: float = 180) -> tuple[list[dict], dict[str, object], str]:
    """Crawl the bundled demo site as it is on ``day`` (served on ``port``), its state and
    patterns kept in ``work`` from one call to the next (the monitoring tests' days); the
    feed goes to ``work/<name>.jsonl`` (default ``day<day>``).  Returns the feed's items, the
    crawl's stats and its log; a crawl that fails raises ``AssertionError`` with its log's end."""
    feed = work / f"{name or f'day{day}'}.jsonl"
    proc = run_crawl([], feed, {**REPRODUCIBLE_SETTINGS, "NEWSSTEMMER_STATE_DIR": str(work / "state"),
                                "NEWSSTEMMER_PATTERNS_DIR": str(work / "patterns"), "NEWSSTEMMER_DEMO_PORT": str(port),
                                "NEWSSTEMMER_DEMO_DAY": str(day), **(settings or {})}, timeout=timeout)
    if proc.returncode != 0:
        raise AssertionError(proc.stderr[-3000:])
    items = [json.loads(line) for line in feed.read_text(encoding="utf-8").splitlines()]
    return items, crawl_stats(proc.stderr), proc.stderr


def crawl_site_day(work: Path, url: str, day: int, timeout: float = 600) -> list[dict]:
    """Crawl a served test site once as a monitoring day would (reproducible settings, every
    article rechecked), state and patterns kept in ``work`` between days; the feed's items."""
    feed = work / f"day{day}.jsonl"
    proc = run_crawl([url], feed, {**REPRODUCIBLE_SETTINGS, "NEWSSTEMMER_STATE_DIR": str(work / "state"),
                                   "NEWSSTEMMER_PATTERNS_DIR": str(work / "patterns"),
                                   "NEWSSTEMMER_RECHECK_AFTER": "0", "NEWSSTEMMER_RECHECK_BACKOFF": "0"}, timeout=timeout)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return [json.loads(line) for line in feed.read_text(encoding="utf-8").splitlines()]


def news_page(site_name: str, title: str, main: str) -> bytes:
    """A purpose-made news page: the site's header and footer around ``main`` (HTML)."""
    name = html.escape(site_name)
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)} | {name}'
            f'</title></head><body><header><a href="/">{name}</a><nav><a href="/news/">News</a></nav></header>'
            f'<main>{main}</main><footer><p>Copyright {name}. All rights reserved.</p></footer></body></html>'
            ).encode("utf-8")


def crawl_stats(log: str) -> dict[str, object]:
    """The integer and string stats of the final "Dumping Scrapy stats" block of a crawl log."""
    block = log.rsplit("Dumping Scrapy stats:", 1)[-1]
    stats: dict[str, object] = {}
    for name, value in re.findall(r"'([^']+)': (\d+|'[^']*')", block):
        stats[name] = int(value) if value[0] != "'" else value.strip("'")
    return stats


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def redis_server(folder: Path, binary: str = "redis-server") -> Iterator[str]:
    """Run a throwaway ``redis-server`` (Debian package ``redis-server``) on a free loopback
    port, its files in ``folder``, nothing saved to disk; yields its URL (``redis://127.0.0.1:PORT/0``).

    Raises ``FileNotFoundError`` if the binary is missing, ``RuntimeError`` if it does not start.
    """
    path = shutil.which(binary)
    if path is None:
        raise FileNotFoundError(f"{binary} not found (Debian package redis-server)")
    folder.mkdir(parents=True, exist_ok=True)
    for attempt in range(5):
        port = free_port()
        proc = subprocess.Popen(
            [path, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(folder), "--save", "",
             "--appendonly", "no", "--protected-mode", "yes", "--logfile", str(folder / "redis.log")],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        end = time.monotonic() + 10
        while time.monotonic() < end and proc.poll() is None:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5) as sock:
                    sock.sendall(b"PING\r\n")
                    if sock.recv(16).startswith(b"+PONG"):
                        break
            except OSError:
                time.sleep(0.05)
        else:
            proc.kill()
            proc.wait()
            continue  # the port was taken meanwhile, or the server failed: try another
        try:
            yield f"redis://127.0.0.1:{port}/0"
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        return
    log = (folder / "redis.log").read_text(errors="replace")[-2000:] if (folder / "redis.log").exists() else ""
    raise RuntimeError(f"redis-server did not start: {log}")
