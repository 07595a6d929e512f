"""The ``newsstemmer`` command: learn a site's layout patterns, extract articles.

::

    newsstemmer learn -o site.json [--linkinfo links.jsonl] pages/
    newsstemmer extract -p site.json pages/ > articles.jsonl

PAGE arguments are files or directories (searched recursively for ``*.html``,
``*.htm``, ``*.xhtml``, ``*.shtml``, ``*.warc``, ``*.warc.gz``, in sorted order).
Pages are read as bytes and decoded by :func:`newsstemmer.decoding.decode_html`;
the page's URL is its ``<link rel="canonical">`` or ``<meta property="og:url">``.

A WARC file gives one page per ``response`` record with status 200 and an HTML
payload (see :mod:`newsstemmer.warc`): its URL is the record's
``WARC-Target-URI``, its charset that of the HTTP ``Content-Type``, and its
source ``FILE#OFFSET`` (the record's byte offset in the file, as ``warcio
extract FILE OFFSET`` takes it).  A damaged WARC is reported like an unreadable
page, with the file as source; the pages before the damage are read.  ``learn``
gives each WARC page the texts of the same-site links to it on the other WARC
pages of the run, besides the anchors of ``--linkinfo``.

Linkinfo (``learn --linkinfo FILE``) is JSON Lines, one object per line::

    {"url": "https://example.com/a/1", "anchors": ["Headline of the story", ...]}
    {"source": "pages/a1.html", "anchors": ["Headline of the story"]}
    {"source": "pages/a2.html", "url": "https://example.com/a/2", "anchors": []}

``anchors`` are the texts of links pointing at the page; they attach to the
page whose URL equals ``url`` (scheme and host case, and the fragment, are
ignored) or whose file is ``source`` (relative to the current directory or to
the linkinfo file's directory; ``FILE#OFFSET`` for a page in a WARC).  A line
naming both gives the page that URL when the page declares none.  Blank lines
are ignored.

Exit codes: 0 success; 1 some page could not be read (extract) or the output
could not be written; 2 usage error, bad pattern/linkinfo file, no pages.
"""

from __future__ import annotations

import argparse
import dataclasses
import html as _html
import json
import logging
import os
import re
import sys
import time
from pathlib import Path
from dataclasses import dataclass, field
from typing import Callable, Iterator, Sequence, TextIO
from urllib.parse import urlsplit, urlunsplit

from .. import __version__
from ..dom.parse import HTMLParseError
from ..dom.decoding import BinaryContentError, decode_file, decode_html
from ..chain import SINGLE_PAGE_METHODS, extract_single, extract_with_patterns
from ..article import Article
from ..layout.matching import ExtractOptions
from ..layout.blocks import blocks_of
from ..layout.learning import LearnOptions, learn
from ..page import Page
from ..layout.patterns import PatternFileError, SitePatterns
from ..io.warc import WarcPage, WarcReadError, is_warc_name, read_payload, same_site_links, scan_warc

__all__ = ["main", "HTML_SUFFIXES", "find_pages", "read_page", "page_url", "LinkInfo", "load_linkinfo"]

PROG = "newsstemmer"
#: File name endings (lower case) picked up when a directory is given.
HTML_SUFFIXES = (".html", ".htm", ".xhtml", ".shtml")
#: Said when no PAGE argument gave a page.
NO_PAGES = "no pages found (give HTML or WARC files, or directories holding *.html/*.htm/*.xhtml/*.shtml/*.warc/*.warc.gz)"
#: Bytes of a page searched for its canonical URL.
_HEAD_LIMIT = 256 * 1024


class CLIError(Exception):
    """A user error: printed as ``newsstemmer: error: <message>``; carries the exit code."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.code = code


# -- stderr reporting and progress ----------------------------------------------------


class Reporter:
    """Messages and progress on stderr.

    On a terminal, progress is one line rewritten with ``\\r``; otherwise a line
    is printed each time a stage advances by another 10% (and at its end).
    ``quiet`` silences progress and summaries, not warnings or errors.
    """

    def __init__(self, quiet: bool = False, stream: TextIO | None = None) -> None:
        self.quiet = quiet
        self._stream = stream
        self._open = 0  # length of the progress line currently shown (TTY)
        self._stage: str | None = None
        self._bucket = -1
        self._last_draw = 0.0

    @property
    def stream(self) -> TextIO:
        return self._stream if self._stream is not None else sys.stderr

    @property
    def tty(self) -> bool:
        try:
            return bool(self.stream.isatty())
        except (AttributeError, ValueError, OSError):
            return False

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):
            pass  # a closed or broken stderr must not stop the run

    def _clear(self) -> None:
        if self._open:
            self._write("\r" + " " * self._open + "\r")
            self._open = 0

    def message(self, text: str) -> None:
        """A warning or error line (always shown)."""
        self._clear()
        self._write(f"{PROG}: {text}\n")

    def info(self, text: str) -> None:
        """A summary line (hidden with -q)."""
        if not self.quiet:
            self.message(text)

    def progress(self, stage: str, done: int, total: int) -> None:
        if self.quiet:
            return
        if stage != self._stage:
            self.finish()
            self._stage, self._bucket = stage, -1
        pct = 100 * done // total if total > 0 else 100
        last = total <= 0 or done >= total
        if self.tty:
            now = time.monotonic()
            if not last and now - self._last_draw < 0.1:
                return
            self._last_draw = now
            text = f"{PROG}: {stage} {done}/{total} ({pct}%)"
            self._write("\r" + text + " " * max(0, self._open - len(text)))
            self._open = len(text)
            if last:
                self._write("\n")
                self._open = 0
        else:
            bucket = pct // 10
            if bucket > self._bucket:
                self._bucket = bucket
                self._write(f"{PROG}: {stage} {done}/{total} ({pct}%)\n")

    def finish(self) -> None:
        """End a progress line left open on a terminal."""
        if self._open:
            self._write("\n")
            self._open = 0


class _ReporterLogHandler(logging.Handler):
    """Routes the core's log warnings through the reporter (keeps the progress line tidy)."""

    def __init__(self, reporter: Reporter) -> None:
        super().__init__(logging.WARNING)
        self.reporter = reporter

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.reporter.message(record.getMessage())
        except Exception:  # pragma: no cover - logging must never raise
            self.handleError(record)


# -- stdout --------------------------------------------------------------------------


def _write_line(text: str) -> None:
    """Write one line of UTF-8 to stdout and flush (BrokenPipeError propagates)."""
    out = sys.stdout
    encoding = (getattr(out, "encoding", None) or "").lower().replace("_", "-")
    buffer = getattr(out, "buffer", None)
    if encoding in ("utf-8", "utf8") or buffer is None:
        out.write(text + "\n")
        out.flush()
    else:
        out.flush()
        buffer.write((text + "\n").encode("utf-8"))
        buffer.flush()


def _silence_stdout() -> None:
    """After a broken pipe: point stdout at /dev/null so the final flush stays quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except Exception:  # not a real file (e.g. captured in tests): nothing to silence
        pass


# -- finding and reading pages ----------------------------------------------------------


@dataclass
class PageFile:
    """A page named on the command line (or found in a named directory, or in a WARC file)."""

    source: str  # the path as given (directory argument joined with the relative path); FILE#OFFSET in a WARC
    path: str  # the same path, for opening; FILE#OFFSET in a WARC (what linkinfo "source" matches)
    url: str | None = None  # the URL the page was fetched from, when known (WARC-Target-URI)
    warc: WarcPage | None = None  # the WARC record holding the page
    error: str | None = None  # why this input cannot be read (a damaged WARC file)


def _is_html_name(name: str) -> bool:
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
                    if _is_html_name(name) or is_warc_name(name):
                        rel = name if rel_root == os.curdir else os.path.join(rel_root, name)
                        found.append(rel)
            for rel in sorted(found, key=lambda r: r.replace(os.sep, "/")):
                add(os.path.join(arg, rel))
        else:
            add(arg)
    return out


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
    """The page's own URL: ``<link rel="canonical">``, else ``<meta property="og:url">``."""
    head = text[:_HEAD_LIMIT]
    end = _HEAD_END_RE.search(head)
    if end:
        head = head[: end.start()]
    canonical = og = None
    for m in _TAG_RE.finditer(head):
        attrs = _attrs(m.group(2))
        if m.group(1).lower() == "link":
            if canonical is None and "canonical" in attrs.get("rel", "").lower().split():
                canonical = _absolute_url(attrs.get("href", ""))
        elif og is None:
            prop = (attrs.get("property") or attrs.get("name") or "").lower()
            if prop == "og:url":
                og = _absolute_url(attrs.get("content", ""))
    return canonical or og


def _url_key(url: str) -> str:
    """A URL for matching: scheme and host lower-cased, fragment dropped, empty path '/'."""
    try:
        p = urlsplit(url.strip())
        return urlunsplit((p.scheme.lower(), p.netloc.lower(), p.path or "/", p.query, ""))
    except ValueError:
        return url.strip()


class PageReadError(Exception):
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


# -- linkinfo -----------------------------------------------------------------------------


@dataclass
class LinkInfo:
    """Anchor texts by page URL and by page file, from a linkinfo file."""

    by_url: dict[str, list[str]] = field(default_factory=dict)
    by_source: dict[str, list[str]] = field(default_factory=dict)
    url_of_source: dict[str, str] = field(default_factory=dict)

    def anchors_for(self, path: str, url: str | None) -> list[str]:
        found = list(self.by_source.get(os.path.realpath(path), []))
        if url:
            found += self.by_url.get(_url_key(url), [])
        return _dedupe(found)

    def url_for(self, path: str) -> str | None:
        return self.url_of_source.get(os.path.realpath(path))


def _dedupe(items: list[str]) -> list[str]:
    seen: set[str] = set()
    out = []
    for t in items:
        if t not in seen:
            seen.add(t)
            out.append(t)
    return out


def load_linkinfo(path: str) -> LinkInfo:
    """Read a linkinfo JSON Lines file; raise :class:`CLIError` naming file and line."""
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
    except OSError as exc:
        raise CLIError(f"{path}: cannot read linkinfo file: {exc.strerror or exc}") from None
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    info = LinkInfo()
    base = os.path.dirname(os.path.abspath(path))
    for lineno, line in enumerate(raw.split(b"\n"), 1):
        where = f"{path}: line {lineno}"
        try:
            text = line.decode("utf-8").strip()
        except UnicodeDecodeError:
            raise CLIError(f"{where}: not UTF-8 text") from None
        if not text:
            continue
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise CLIError(f"{where}: invalid JSON at column {exc.colno}: {exc.msg}") from None
        if not isinstance(obj, dict):
            raise CLIError(f"{where}: expected a JSON object, got {_json_type(obj)}")
        url, source = obj.get("url"), obj.get("source")
        for key, value in (("url", url), ("source", source)):
            if value is not None and (not isinstance(value, str) or not value.strip()):
                raise CLIError(f"{where}: \"{key}\" must be a non-empty string")
        if url is None and source is None:
            raise CLIError(f"{where}: needs \"url\" or \"source\"")
        if "anchors" not in obj and not (url and source):
            raise CLIError(f"{where}: missing \"anchors\" (a list of strings)")
        anchors = obj.get("anchors", [])
        if not isinstance(anchors, list) or not all(isinstance(a, str) for a in anchors):
            raise CLIError(f"{where}: \"anchors\" must be a list of strings")
        anchors = [" ".join(a.split()) for a in anchors]
        anchors = [a for a in anchors if a]
        if url is not None:
            info.by_url.setdefault(_url_key(url), []).extend(anchors)
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


# -- argument parsing ---------------------------------------------------------------------


def _fraction(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1, got {text}")
    return value


def _non_negative(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not value >= 0.0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a finite number >= 0, got {text}")
    return value


class _Parser(argparse.ArgumentParser):
    """argparse, but errors raise instead of exiting (``main`` returns the code)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise CLIError(f"{message} (see '{self.prog} --help')")


def build_parser() -> argparse.ArgumentParser:
    lo, eo = LearnOptions(), ExtractOptions()
    parser = _Parser(
        prog=PROG,
        description="Learn news sites' layouts from their pages and extract clean articles.",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    p = sub.add_parser(
        "learn",
        help="learn a site's layout patterns from its pages",
        description="Learn the layout patterns of one site from its pages and save them as JSON.",
    )
    p.add_argument("pages", nargs="+", metavar="PAGE",
                   help="HTML or WARC file (.warc, .warc.gz), or directory (searched recursively)")
    p.add_argument("-o", "--output", required=True, metavar="PATTERNS.json", help="pattern file to write")
    p.add_argument("--linkinfo", metavar="FILE", help="JSON Lines of anchor texts: {\"url\"|\"source\": ..., \"anchors\": [...]}")
    p.add_argument("--site", metavar="NAME", help="site name (default: the pages' majority host)")
    p.add_argument("-t", "--cluster-threshold", type=_fraction, metavar="SIM",
                   help=f"layout similarity above which pages share a layout (default {lo.cluster_threshold})")
    p.add_argument("-T", "--diff-threshold", type=_fraction, metavar="DIFF",
                   help=f"DiffScore below which a section is static (default {lo.diff_threshold})")
    p.add_argument("-M", "--main-threshold", type=_non_negative, metavar="SCORE",
                   help=f"MainScore a section needs to be main text (default {lo.main_threshold:g})")
    p.add_argument("--score-threshold", type=_non_negative, metavar="SCORE",
                   help=f"pattern score below which a layout is not an article layout (default {lo.score_threshold:g})")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress or summary on stderr")
    p.set_defaults(func=cmd_learn)

    p = sub.add_parser(
        "extract",
        help="extract articles (one JSON object per page on stdout)",
        description="Extract title and body of each page; prints one JSON object per line.",
    )
    p.add_argument("pages", nargs="+", metavar="PAGE",
                   help="HTML or WARC file (.warc, .warc.gz), or directory (searched recursively)")
    p.add_argument("-p", "--patterns", metavar="PATTERNS.json", help="pattern file written by 'learn'")
    p.add_argument("--strict", action="store_true", help="a pattern applies only if every section finds a block")
    p.add_argument("--pattern-threshold", type=_fraction, metavar="SHARE",
                   help=f"share of a page's weight a pattern must cover (default {eo.pattern_threshold})")
    p.add_argument("--method", choices=("auto", "pattern", "rules", *SINGLE_PAGE_METHODS), default="auto",
                   help="auto (default): learned layouts, else single-page extraction; pattern: layouts only; "
                   "rules: the site's CSS-selector rules alone (see 'rules'); pagerank: DOM PageRank alone; "
                   "crf: CRF block labelling alone")
    p.add_argument("--crf-model", metavar="MODEL.zip",
                   help="CRF model for --method crf (written by 'train-crf'; default: the shipped model)")
    p.add_argument("--include-sub", action="store_true", help="append SUB sections to the body")
    p.add_argument("--include-non-articles", action="store_true",
                   help="give the body of pages whose layout is not an article layout")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    p.set_defaults(func=cmd_extract)

    # imported here: these build on this module's helpers
    from . import train_crf as cli_crf
    from . import rules as cli_rules
    from . import templates as cli_templates

    cli_rules.add_parser(sub)
    cli_templates.add_parser(sub)
    cli_crf.add_parser(sub)
    return parser


# -- commands -------------------------------------------------------------------------------


def _replace_given(options, **values):
    given = {k: v for k, v in values.items() if v is not None}
    return dataclasses.replace(options, **given) if given else options


def _load_pages(
    files: list[PageFile], rep: Reporter, linkinfo: LinkInfo | None, options: LearnOptions
) -> tuple[list[Page], list[tuple[str, str, str]]]:
    """Read, decode and parse pages; return the pages and (source, kind, reason) of those skipped."""
    pages: list[Page] = []
    from_warc: list[Page] = []
    skipped: list[tuple[str, str, str]] = []
    for n, pf in enumerate(files, 1):
        try:
            text = read_page(pf)
        except PageReadError as exc:
            reason = str(exc)
            kind = "not text" if reason.startswith("not a text page") else "unreadable"
            skipped.append((pf.source, kind, reason))
            rep.message(f"{pf.source}: skipped: {reason}")
        else:
            url = pf.url or page_url(text)
            anchors: list[str] = []
            if linkinfo is not None:
                url = url or linkinfo.url_for(pf.path)
                anchors = linkinfo.anchors_for(pf.path, url)
            page = Page(html=text, url=url, anchor_texts=anchors, source=pf.source)
            try:
                blocks_of(page, options.blocks)  # cut now: skip unparsable pages here, cached for learn
                page.forget_tree()  # (learning keeps the blocks of every page, not the trees)
            except HTMLParseError as exc:
                skipped.append((pf.source, "unparsable", str(exc)))
                rep.message(f"{pf.source}: skipped: {exc}")
            else:
                pages.append(page)
                if pf.warc is not None:
                    from_warc.append(page)
        rep.progress("loading", n, len(files))
    _add_warc_anchors(from_warc)
    return pages, skipped


def _add_warc_anchors(pages: list[Page]) -> None:
    """Give WARC pages the texts of the links to them on the other WARC pages (like linkinfo)."""
    found: dict[str, list[str]] = {}
    for page in pages:
        if page.url:
            for target, text in same_site_links(page.url, page.html):
                found.setdefault(_url_key(target), []).append(text)
    for page in pages:
        if page.url and _url_key(page.url) in found:
            page.anchor_texts = _dedupe(page.anchor_texts + found[_url_key(page.url)])


def cmd_learn(args: argparse.Namespace, rep: Reporter) -> int:
    output = args.output
    if os.path.isdir(output):
        raise CLIError(f"{output}: is a directory (-o names the pattern file to write)")
    _check_writable(output)
    options = _replace_given(
        LearnOptions(),
        cluster_threshold=args.cluster_threshold,
        diff_threshold=args.diff_threshold,
        main_threshold=args.main_threshold,
        score_threshold=args.score_threshold,
    )
    linkinfo = load_linkinfo(args.linkinfo) if args.linkinfo else None
    files = find_pages(args.pages, rep.message, info=rep.info, progress=rep.progress)
    rep.finish()
    if not files:
        raise CLIError(NO_PAGES)
    pages, skipped = _load_pages(files, rep, linkinfo, options)
    rep.finish()
    if not pages:
        raise CLIError(f"no readable pages among the {len(files)} given")
    with_anchors = sum(1 for p in pages if p.anchor_texts)

    site_name = args.site
    if site_name is None and not any(p.url for p in pages):
        # No page says where it came from: name the site after the pages' folder.
        folders = {Path(p.source).resolve().parent.name for p in pages if p.source}
        site_name = folders.pop() if len(folders) == 1 else None
    site = learn(pages, options, site=site_name, progress=rep.progress)
    rep.finish()
    try:
        target = site.save(output)
    except OSError as exc:
        raise CLIError(f"{output}: cannot write pattern file: {exc.strerror or exc}", code=1) from None

    n_articles = sum(1 for p in site.patterns if p.article)
    in_patterns = sum(p.pages for p in site.patterns)
    show_anchors = linkinfo is not None or with_anchors
    rep.info(f"read {len(pages)} page{_s(len(pages))}" + (f" ({with_anchors} with anchor texts)" if show_anchors else ""))
    if skipped:
        kinds: dict[str, int] = {}
        for _, kind, _ in skipped:
            kinds[kind] = kinds.get(kind, 0) + 1
        detail = ", ".join(f"{n} {k}" for k, n in kinds.items())
        rep.info(f"skipped {len(skipped)} page{_s(len(skipped))} ({detail})")
    rep.info(
        f"learned {len(site.patterns)} layout pattern{_s(len(site.patterns))} for site {site.site}: "
        f"{n_articles} article layout{_s(n_articles)}, covering {in_patterns} of {len(pages)} pages"
    )
    if not site.patterns:
        rep.info("no layout is shared by enough pages; give more pages of the site")
    rep.info(f"wrote {target}")
    return 0


def _check_writable(path: str) -> None:
    """Fail before learning if the pattern file's directory cannot be written."""
    parent = os.path.dirname(os.path.abspath(path))
    while not os.path.exists(parent):
        up = os.path.dirname(parent)
        if up == parent:
            break
        parent = up
    if not os.path.isdir(parent) or not os.access(parent, os.W_OK):
        raise CLIError(f"{path}: cannot write pattern file: directory {parent} is not writable", code=1)


def _s(n: int) -> str:
    return "" if n == 1 else "s"


def _error_record(source: str, reason: str, url: str | None = None) -> dict[str, object]:
    article = Article(url, "", "", matched=False, source=source, is_article=False, error=reason)
    return article.to_json_dict()


def _page_title(page: Page) -> str:
    candidates = blocks_of(page).title_candidates()
    return candidates[0] if candidates else ""


def _extract_records(
    files: list[PageFile],
    site: SitePatterns | None,
    options: ExtractOptions,
    rep: Reporter,
    method: str = "auto",
    extractor: Callable[[Page, SitePatterns, ExtractOptions], Article] = extract_with_patterns,
    single: Callable[[Page, str], Article] = extract_single,
) -> Iterator[dict[str, object]]:
    for n, pf in enumerate(files, 1):
        try:
            text = read_page(pf)
        except PageReadError as exc:
            rep.message(f"{pf.source}: error: {exc}")
            yield _error_record(pf.source, str(exc), pf.url)
        else:
            page = Page(html=text, url=pf.url or page_url(text), source=pf.source)
            try:
                if method in SINGLE_PAGE_METHODS or (site is None and options.fallback):
                    article = single(page, method if method in SINGLE_PAGE_METHODS else options.fallback)
                    article.source = pf.source
                elif site is None:
                    article = Article(page.url, _page_title(page), "", matched=False, source=pf.source)
                else:
                    article = extractor(page, site, options)
                    article.source = pf.source
                    if not article.matched and not article.title:
                        article.title = _page_title(page)
            except HTMLParseError as exc:
                rep.message(f"{pf.source}: error: {exc}")
                yield _error_record(pf.source, str(exc), page.url)
            except Exception as exc:  # a core bug on one page must not stop the run
                reason = f"internal error: {type(exc).__name__}: {exc}"
                rep.message(f"{pf.source}: error: {reason}")
                yield _error_record(pf.source, reason, page.url)
            else:
                yield article.to_json_dict()
        rep.progress("extracting", n, len(files))


def cmd_extract(args: argparse.Namespace, rep: Reporter) -> int:
    site = None
    if args.patterns:
        try:
            site = SitePatterns.load(args.patterns)
        except PatternFileError as exc:
            raise CLIError(str(exc)) from None
        except (RecursionError, OverflowError, ValueError, TypeError) as exc:
            # Core validation gaps (e.g. very deeply nested JSON, a huge number).
            raise CLIError(f"{args.patterns}: corrupt pattern file: {type(exc).__name__}: {exc}") from None
    options = _replace_given(
        ExtractOptions(),
        strict=args.strict or None,
        pattern_threshold=args.pattern_threshold,
        include_sub=args.include_sub or None,
        include_non_articles=args.include_non_articles or None,
    )
    # auto: the site's layouts, else the best single-page method; pattern: layouts only.
    options = dataclasses.replace(options, fallback="pagerank" if args.method == "auto" else None)
    if args.method in ("pattern", "rules") and site is None:
        raise CLIError(f"--method {args.method} needs a pattern file (-p)")
    if args.method == "rules":
        from .rules import extract_with_rules, load_site_rules

        rules = load_site_rules(site, args.patterns)
        options = dataclasses.replace(options, fallback=None)
        extractor = lambda page, _site, _opts: extract_with_rules(page, rules)  # noqa: E731
    else:
        extractor = extract_with_patterns
    single = extract_single
    if args.crf_model and args.method != "crf":
        raise CLIError("--crf-model goes with --method crf")
    if args.method == "crf":  # load the model once, and fail early if it is unusable
        from ..single.crf import CRFExtractor, CRFModelError

        try:
            crf = CRFExtractor(args.crf_model)
        except CRFModelError as exc:
            raise CLIError(str(exc)) from None
        single = lambda page, method: extract_single(page, method, crf=crf)  # noqa: E731
    files = find_pages(args.pages, rep.message, info=rep.info, progress=rep.progress)
    rep.finish()
    if not files:
        raise CLIError(NO_PAGES)
    errors = 0
    try:
        for record in _extract_records(files, site, options, rep, args.method, extractor, single):
            if record.get("error"):
                errors += 1
            _write_line(json.dumps(record, ensure_ascii=False))
    except BrokenPipeError:
        _silence_stdout()
        return 1 if errors else 0
    finally:
        rep.finish()
    return 1 if errors else 0


# -- entry point ------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit code (never raises for user errors)."""
    rep = Reporter()
    logger = logging.getLogger("newsstemmer")
    handler = _ReporterLogHandler(rep)
    saved_propagate = logger.propagate
    logger.addHandler(handler)
    logger.propagate = False
    try:
        try:
            args = build_parser().parse_args(argv)
        except SystemExit as exc:  # --help, --version
            return exc.code if isinstance(exc.code, int) else 0
        rep.quiet = args.quiet
        return args.func(args, rep)
    except CLIError as exc:
        rep.message(f"error: {exc}")
        return exc.code
    except KeyboardInterrupt:
        rep.message("interrupted")
        return 130
    except BrokenPipeError:
        _silence_stdout()
        return 1
    except Exception as exc:
        if os.environ.get("NEWSSTEMMER_DEBUG"):
            raise
        rep.message(f"internal error: {type(exc).__name__}: {exc} (set NEWSSTEMMER_DEBUG=1 for a traceback)")
        return 1
    finally:
        rep.finish()
        logger.removeHandler(handler)
        logger.propagate = saved_propagate


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
