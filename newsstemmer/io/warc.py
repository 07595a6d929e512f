"""Pages stored in WARC files, for the command line.

A crawl written as WARC (``*.warc``, or ``*.warc.gz`` compressed one gzip member
per record, as crawlers and ``warcio`` write it) holds many pages.  Each
``response`` record with HTTP status 200 and an HTML payload is one page:

* HTML means an HTTP ``Content-Type`` of ``text/html`` or
  ``application/xhtml+xml``; a response without a ``Content-Type`` is HTML when
  its payload starts like an HTML document;
* the page's URL is the record's ``WARC-Target-URI``;
* its bytes are the HTTP payload (transfer and content encodings undone by
  ``warcio``), decoded later with the charset of the HTTP ``Content-Type``.

Every other record (requests, metadata, revisits, other statuses and types)
is skipped and only counted.

A WARC is read twice, never whole: :func:`scan_warc` iterates its records
once to find the pages (their byte offsets in the file, compressed offsets for
``.warc.gz``), and :func:`read_payload` later seeks to one record and reads
that page alone.  A page is named ``FILE#OFFSET``, which ``warcio extract FILE
OFFSET`` also understands.

Damage (a file that is not a WARC, a truncated record, a cut or corrupt gzip
member, a wrong ``Content-Length``) ends the scan of that file with an error
message; the pages found before it are kept.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
from dataclasses import dataclass, field
from typing import Callable, Iterator
from urllib.parse import urldefrag, urljoin

from ..errors import NewsstemmerError

__all__ = [
    "WARC_SUFFIXES",
    "WarcPage",
    "WarcReadError",
    "WarcScan",
    "is_warc_name",
    "read_payload",
    "same_site_links",
    "scan_warc",
]

#: File name endings (lower case) read as WARC files.
WARC_SUFFIXES = (".warc", ".warc.gz")
#: Media types of the HTTP ``Content-Type`` taken as HTML pages.
HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})
#: Payload bytes inspected when a response declares no ``Content-Type``.
_SNIFF_BYTES = 1024
#: Size from which a WARC scan reports progress.
_PROGRESS_MIN_BYTES = 16 * 1024 * 1024
#: Bytes after the last record that may only be blank (plain WARCs end with CRLF CRLF).
_TAIL_CHECK = 4096
#: Longer anchor texts are cut (a link wrapping a whole teaser is not a headline).
_MAX_ANCHOR_CHARS = 500

# The start of an HTML document, after optional BOM and white space (after WHATWG sniffing).
_HTML_START_RE = re.compile(
    rb"<(?:!doctype\s+html|html|head|body|title|script|style|meta|link|div|p|h1|table|a|b|br|font|iframe|!--)[\s>/]",
    re.IGNORECASE,
)
#: The first bytes of a gzip member compressed with deflate (the only method gzip defines).
_GZIP_MAGIC = b"\x1f\x8b\x08"
_UNKNOWN_FORMAT = "Unknown archive format"
_NOT_PER_RECORD_GZIP = "non-chunked gzip"


def is_warc_name(name: str) -> bool:
    """True if the file name ends with ``.warc`` or ``.warc.gz`` (any case)."""
    return name.lower().endswith(WARC_SUFFIXES)


@dataclass(frozen=True)
class WarcPage:
    """An HTML response record: where it is and what its HTTP headers say."""

    warc: str  # the WARC file's path
    offset: int  # byte offset of the record in the file (compressed for .warc.gz)
    url: str | None  # WARC-Target-URI
    content_type: str | None  # the HTTP Content-Type header


@dataclass
class WarcScan:
    """What :func:`scan_warc` found in one file."""

    pages: list[WarcPage] = field(default_factory=list)
    records: int = 0
    skipped: dict[str, int] = field(default_factory=dict)  # why -> how many records
    error: str | None = None  # why the rest of the file could not be read

    def summary(self) -> str:
        """e.g. ``3 HTML pages in 8 records (skipped 3 request, 1 warcinfo, 1 status 404)``."""
        n = len(self.pages)
        text = f"{n} HTML page{'' if n == 1 else 's'} in {self.records} record{'' if self.records == 1 else 's'}"
        if self.skipped:
            text += " (skipped " + ", ".join(f"{count} {why}" for why, count in self.skipped.items()) + ")"
        return text


class WarcReadError(NewsstemmerError):
    """A WARC record that cannot be read; the message is the reason."""


class _Noise:
    """What warcio wrote to stderr (it reports some damage there instead of raising)."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    @contextlib.contextmanager
    def capture(self) -> Iterator[None]:
        buffer = io.StringIO()
        with contextlib.redirect_stderr(buffer):
            try:
                yield
            finally:
                self.lines += [" ".join(line.split()) for line in buffer.getvalue().splitlines() if line.strip()]

    def detail(self) -> str:
        return f" ({'; '.join(self.lines[:2])})" if self.lines else ""


def _media_type(content_type: str | None) -> str:
    return (content_type or "").split(";", 1)[0].strip().lower()


def _looks_like_html(head: bytes) -> bool:
    if head.startswith(b"\xef\xbb\xbf"):
        head = head[3:]
    return bool(_HTML_START_RE.match(head.lstrip(b" \t\r\n\f")))


def _remaining(record) -> int:
    """Bytes the record's Content-Length promises that were not there (after reading it all)."""
    limit = getattr(record.raw_stream, "limit", 0)
    return limit if isinstance(limit, int) else 0


def _classify(record) -> tuple[str | None, str | None]:
    """Return (why skipped, None) or (None, Content-Type) for an HTML page record."""
    kind = record.rec_type or "untyped"
    if kind != "response":
        return kind, None
    http = record.http_headers
    if http is None or not (http.protocol or "").upper().startswith("HTTP/"):
        return "not HTTP", None
    status = http.get_statuscode() or "?"
    if status != "200":
        return f"status {status}", None
    content_type = http.get_header("Content-Type")
    if content_type is not None and content_type.strip():
        return (None, content_type) if _media_type(content_type) in HTML_TYPES else ("not HTML", None)
    head = record.content_stream().read(_SNIFF_BYTES)
    return (None, None) if _looks_like_html(head) else ("not HTML", None)


def _exception_reason(exc: Exception, offset: int) -> str:
    message = " ".join(str(exc).split())
    if _NOT_PER_RECORD_GZIP in message:
        return (
            "the file is one gzip stream, not one gzip member per record; "
            "rewrite it with 'warcio recompress FILE NEW.warc.gz'"
        )
    if message.startswith(_UNKNOWN_FORMAT):
        if offset == 0:
            return "not a WARC file (no WARC record at its start)"
        return f"corrupt WARC: no valid record at offset {offset}"
    if isinstance(exc, OSError):
        return exc.strerror or message
    reason = f"truncated or corrupt WARC: unreadable record at offset {offset}"
    if isinstance(exc, (AttributeError, TypeError, IndexError, KeyError)):
        return reason  # warcio tripping over a cut header: its message would only confuse
    return f"{reason} ({type(exc).__name__}: {message})"


def scan_warc(path: str, progress: Callable[[str, int, int], None] | None = None) -> WarcScan:
    """List the HTML pages of the WARC file ``path`` (see the module docstring).

    Never raises for bad input: an unreadable or damaged file sets ``error``
    (pages found before the damage are kept).  ``progress(stage, done, total)``
    is called with bytes read for files of 16 MiB or more.
    """
    from warcio.archiveiterator import ArchiveIterator

    scan = WarcScan()
    noise = _Noise()
    records = None
    try:
        fh = open(path, "rb")
    except OSError as exc:
        scan.error = exc.strerror or str(exc)
        return scan
    with fh:
        try:
            size = os.fstat(fh.fileno()).st_size
            show = progress if progress is not None and size >= _PROGRESS_MIN_BYTES else None
            stage = f"scanning {os.path.basename(path)}"
            # One gzip member per record: each record must start with a deflate member header.
            # (warcio reads a member it cannot inflate as plain bytes, which can parse as a record.)
            gzipped = os.pread(fh.fileno(), 2, 0) == _GZIP_MAGIC[:2]
            records = ArchiveIterator(fh, arc2warc=True)
            stream = iter(records)
            end = 0  # where the last complete record ends
            while True:
                with noise.capture():
                    try:
                        record = next(stream)
                    except StopIteration:
                        break
                    skip, content_type = _classify(record)
                    offset = records.get_record_offset()  # reads the rest of the record
                    length = records.get_record_length()
                    short = _remaining(record)
                scan.records += 1
                if gzipped and os.pread(fh.fileno(), 3, offset) != _GZIP_MAGIC:
                    scan.error = f"corrupt WARC: no valid gzip member at offset {offset}{noise.detail()}"
                    return scan
                if short:
                    scan.error = f"truncated WARC: the record at offset {offset} lacks {short} bytes{noise.detail()}"
                    return scan
                if records.err_count:
                    scan.error = (
                        f"corrupt WARC: the record at offset {offset} is not followed by a blank line "
                        "(wrong Content-Length?)"
                    )
                    return scan
                end = offset + length
                if skip is not None:
                    scan.skipped[skip] = scan.skipped.get(skip, 0) + 1
                else:
                    url = record.rec_headers.get_header("WARC-Target-URI")
                    scan.pages.append(WarcPage(path, offset, url.strip() if url else None, content_type))
                if show is not None:
                    show(stage, min(fh.tell(), size), size)
            # The iterator stops quietly at a cut gzip member or a record header cut short:
            # whatever follows the last whole record must be blank.
            fh.seek(end)
            tail = fh.read(_TAIL_CHECK + 1)
            if tail.strip() or len(tail) > _TAIL_CHECK:
                what = "truncated or corrupt WARC" if scan.records else "not a WARC file, or truncated"
                scan.error = f"{what}: unreadable data at offset {end}{noise.detail()}"
            if show is not None:
                show(stage, size, size)
        except Exception as exc:  # warcio raises many kinds on damaged input
            scan.error = _exception_reason(exc, getattr(records, "offset", 0)) + noise.detail()
    return scan


def same_site_links(url: str, html: str) -> list[tuple[str, str]]:
    """``(target URL, anchor text)`` of the links of a page to other pages of its site.

    Fragments are dropped, links to the page itself and texts that are empty
    after collapsing white space are left out; a page that does not parse has none.
    """
    import lxml.html
    from lxml import etree

    from ..layout.learning import site_of

    site = site_of(url)
    here = urldefrag(url)[0]
    try:
        parser = lxml.html.HTMLParser(encoding="utf-8")  # bytes: an XML declaration may name any charset
        doc = lxml.html.document_fromstring(html.encode("utf-8", "surrogatepass"), parser=parser)
    except (etree.ParserError, ValueError, TypeError, UnicodeError):
        return []
    base = here
    for tag in doc.iter("base"):
        if tag.get("href"):
            base = urljoin(here, tag.get("href").strip())
            break
    out = []
    for a in doc.iter("a"):
        href = (a.get("href") or "").strip()
        if not href or href.startswith(("#", "javascript:", "mailto:")):
            continue
        try:
            target = urldefrag(urljoin(base, href))[0]
        except ValueError:
            continue
        text = " ".join(a.text_content().split())[:_MAX_ANCHOR_CHARS]
        if text and target != here and target.startswith(("http://", "https://")) and site_of(target) == site:
            out.append((target, text))
    return out


def read_payload(page: WarcPage) -> bytes:
    """The HTTP payload of one page record; raise :class:`WarcReadError` with the reason."""
    from warcio.archiveiterator import ArchiveIterator

    noise = _Noise()
    try:
        with open(page.warc, "rb") as fh, noise.capture():
            fh.seek(page.offset)
            record = next(iter(ArchiveIterator(fh, arc2warc=True)), None)
            if record is None or record.rec_type != "response":
                raise WarcReadError(f"no response record at offset {page.offset}")
            body = record.content_stream().read()
            while record.raw_stream.read(64 * 1024):  # the rest (e.g. after the last chunk)
                pass
            short = _remaining(record)
    except WarcReadError:
        raise
    except OSError as exc:
        raise WarcReadError(exc.strerror or str(exc)) from None
    except Exception as exc:
        raise WarcReadError(_exception_reason(exc, page.offset) + noise.detail()) from None
    if short:
        raise WarcReadError(f"truncated record: {short} bytes missing{noise.detail()}")
    if noise.lines:  # e.g. a Content-Encoding that fails part way
        raise WarcReadError(f"cannot decode the payload{noise.detail()}")
    return body

