"""Turn the raw bytes of an HTML page into text.

The encoding is chosen in this order:

1. a byte order mark (UTF-8, UTF-16, UTF-32);
2. the ``charset`` of the HTTP ``Content-Type`` header;
3. a ``<meta charset>`` / ``<meta http-equiv="Content-Type">`` (or XML
   declaration) in the first 4 KB of the body;
4. ISO-2022-JP, when its escape sequences are present (this 7-bit encoding
   would otherwise pass as UTF-8);
5. strict UTF-8 (also where a Latin default such as ``iso-8859-1`` is declared for
   bytes that are valid UTF-8 with multi-byte sequences: a stale declaration);
6. strict Shift_JIS (as cp932) or EUC-JP, when the result reads as Japanese;
7. UTF-8 with replacement characters, when few bytes fail (see below);
8. cp1252 with replacement characters.

A declared encoding (steps 2 and 3) that is unknown, or that fails badly, is
skipped.  "Badly" means more decoding errors than :data:`MAX_ERROR_RATE` of
the non-ASCII bytes: a page in another encoding fails on nearly every
non-ASCII byte, while a correctly declared page with a stray or truncated
byte fails on very few.  A declared encoding that is accepted is decoded with
replacement characters for such stray bytes.  UTF-8 is allowed more
(:data:`MAX_UTF8_ERROR_RATE`): its multi-byte sequences are self-checking, so
text in a legacy encoding fails on nearly all of its non-ASCII bytes (Shift_JIS
on more than half), while real UTF-8 pages carry a few mangled bytes from
copied text (a news page with 10 bad of 188 non-ASCII bytes was read as cp1252
and every curly quote became three letters).

Bodies that are not text raise :class:`BinaryContentError`.
"""

from __future__ import annotations

import codecs
import os
import re
from dataclasses import dataclass

from w3lib.encoding import (
    html_body_declared_encoding,
    http_content_type_encoding,
    read_bom,
    resolve_encoding,
)

from ..errors import NewsstemmerError

__all__ = [
    "BinaryContentError",
    "DecodedPage",
    "MAX_ERROR_RATE",
    "MAX_UTF8_ERROR_RATE",
    "decode_file",
    "decode_html",
]

#: Largest share of non-ASCII bytes that may fail to decode for a declared
#: encoding to be accepted.
MAX_ERROR_RATE = 0.02
#: The same for UTF-8 (declared or not).
MAX_UTF8_ERROR_RATE = 0.25

#: Bytes inspected by the binary check.
_SNIFF_SIZE = 8192
#: Share of NUL bytes in the sniffed prefix above which a body is binary.
_MAX_NUL_RATE = 0.01

_MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", "PNG image"),
    (b"\xff\xd8\xff", "JPEG image"),
    (b"GIF87a", "GIF image"),
    (b"GIF89a", "GIF image"),
    (b"%PDF-", "PDF document"),
    (b"PK\x03\x04", "ZIP archive"),
    (b"PK\x05\x06", "ZIP archive"),
    (b"PK\x07\x08", "ZIP archive"),
    (b"\x1f\x8b", "gzip data"),
)

# ESC $ @, ESC $ B (JIS X 0208), ESC ( J (JIS X 0201 Roman), ESC ( I (kana).
_ISO2022JP_ESC_RE = re.compile(rb"\x1b(?:\$[@B]|\([JI])")

# Characters of Japanese text: hiragana, katakana, CJK ideographs, CJK
# punctuation and full-width forms.  Half-width katakana are left out on
# purpose: they are what EUC-JP bytes look like when read as Shift_JIS.
_JAPANESE_RE = re.compile(
    r"[\u3000-\u303f\u3040-\u30ff\u31f0-\u31ff"  # CJK punctuation, kana
    r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"  # ideographs
    r"\uff01-\uff60]"  # full-width forms
)
_KANA_RE = re.compile(r"[\u3040-\u30ff\u31f0-\u31ff]")

_ASCII_BYTES = bytes(range(0x80))
_NON_ASCII_RE = re.compile(r"[^\x00-\x7f]")

_UTF16_32 = frozenset({"utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-32-be"})


class BinaryContentError(NewsstemmerError, ValueError):
    """Raised when a body is not text (an image, archive, PDF, ...)."""


@dataclass(frozen=True)
class DecodedPage:
    """A decoded page: its text and the (Python codec) encoding used.

    ``encoding`` is ``"unicode"`` when the input was already a ``str``.
    """

    text: str
    encoding: str


def _codec_name(encoding: str) -> str:
    """Normalise an encoding label the way w3lib does (e.g. shift_jis -> cp932)."""
    return resolve_encoding(encoding) or codecs.lookup(encoding).name


def _decode_counting(body: bytes, encoding: str) -> tuple[str, int]:
    """Decode with replacement; return the text and the number of errors."""
    try:  # (most pages decode cleanly: one pass, the text "replace" would give, no error)
        return body.decode(encoding), 0
    except UnicodeError:  # (errors: counted below, as before)
        pass
    text = body.decode(encoding, errors="replace")
    # Each decoding error inserts exactly one U+FFFD with "replace" and
    # nothing with "ignore", so the length difference counts the errors.
    errors = len(text) - len(body.decode(encoding, errors="ignore"))
    return text, errors


def _try_strict(body: bytes, encoding: str) -> str | None:
    try:
        return body.decode(encoding)
    except (UnicodeDecodeError, LookupError):
        return None


#: Single-byte encodings a server or page declares by default; bytes that are valid
#: UTF-8 with multi-byte sequences are UTF-8 whatever these say.
_LATIN_DEFAULTS = frozenset({"cp1252", "latin-1", "iso8859-1", "iso8859-15", "ascii"})


def _try_declared(body: bytes, encoding: str | None) -> DecodedPage | None:
    """Decode with a declared encoding unless it is unknown or fails badly.

    A Latin default (``iso-8859-1``, ``windows-1252``) declared for bytes that are valid
    UTF-8 and hold multi-byte sequences is not believed: Latin-1 text with accents is
    almost never valid UTF-8, while servers and templates often keep the old default
    after the content moved to UTF-8 (every "ü" would read "Ã¼").
    """
    if encoding is None:
        return None
    try:
        if _codec_name(encoding) in _LATIN_DEFAULTS and not body.isascii():
            text = _try_strict(body, "utf-8")
            if text is not None:
                return DecodedPage(text, "utf-8")
    except LookupError:
        return None
    try:
        text, errors = _decode_counting(body, encoding)
    except LookupError:
        return None
    codec = _codec_name(encoding)
    if errors:
        non_ascii = len(body.translate(None, _ASCII_BYTES)) or 1
        if errors > (MAX_UTF8_ERROR_RATE if codec == "utf-8" else MAX_ERROR_RATE) * non_ascii:
            return None
    return DecodedPage(text, codec)


def _binary_reason(body: bytes, declared: str | None) -> str | None:
    """Return why ``body`` is not text, or None if it looks like text."""
    for magic, kind in _MAGIC:
        if body.startswith(magic):
            return f"body starts with the signature of a {kind}"
    if body.startswith(b"RIFF") and body[8:12] == b"WEBP":
        return "body starts with the signature of a WebP image"
    if declared in _UTF16_32:
        return None  # BOM-less UTF-16/32 declared in the header is text.
    head = body[:_SNIFF_SIZE]
    if head:
        nuls = head.count(0)
        if nuls > _MAX_NUL_RATE * len(head):
            return f"{nuls} NUL bytes in the first {len(head)} bytes"
    return None


def _japanese_fallback(body: bytes) -> DecodedPage | None:
    """Return the best strict Shift_JIS / EUC-JP decoding that reads as Japanese."""
    best: tuple[float, DecodedPage] | None = None
    for encoding in ("cp932", "euc_jp"):
        text = _try_strict(body, encoding)
        if text is None:
            continue
        non_ascii = len(_NON_ASCII_RE.findall(text))
        if not non_ascii or not _KANA_RE.search(text):
            continue
        share = len(_JAPANESE_RE.findall(text)) / non_ascii
        if share < 0.8:
            continue
        if best is None or share > best[0]:
            best = (share, DecodedPage(text, encoding))
    return best[1] if best else None


def decode_html(body: bytes | str, content_type: str | None = None) -> DecodedPage:
    """Decode an HTML ``body`` (see the module docstring for the order).

    ``content_type`` is the HTTP ``Content-Type`` header value, if known.
    A ``str`` body is returned unchanged with encoding ``"unicode"``.
    Raises :class:`BinaryContentError` if the body is not text.
    """
    if isinstance(body, str):
        return DecodedPage(body, "unicode")
    body = bytes(body)

    bom_encoding, bom = read_bom(body)
    if bom_encoding is not None and bom is not None:
        text = body[len(bom) :].decode(bom_encoding, errors="replace")
        return DecodedPage(text, _codec_name(bom_encoding))

    header_encoding = http_content_type_encoding(content_type)
    reason = _binary_reason(body, header_encoding)
    if reason is not None:
        raise BinaryContentError(f"not a text page: {reason}")

    page = _try_declared(body, header_encoding)
    if page is not None:
        return page

    meta_encoding = html_body_declared_encoding(body)
    if meta_encoding in _UTF16_32:
        # The meta tag was readable as ASCII, so the page is not UTF-16/32;
        # the HTML standard treats this declaration as UTF-8.
        meta_encoding = "utf-8"
    page = _try_declared(body, meta_encoding)
    if page is not None:
        return page

    if _ISO2022JP_ESC_RE.search(body):
        for encoding in ("iso2022_jp", "iso2022_jp_ext"):
            text = _try_strict(body, encoding)
            if text is not None:
                return DecodedPage(text, encoding)

    text = _try_strict(body, "utf-8")
    if text is not None:
        return DecodedPage(text, "utf-8")

    page = _japanese_fallback(body)
    if page is not None:
        return page

    page = _try_declared(body, "utf-8")
    if page is not None:
        return page

    return DecodedPage(body.decode("cp1252", errors="replace"), "cp1252")


def decode_file(path: str | os.PathLike[str], content_type: str | None = None) -> DecodedPage:
    """Read ``path`` as bytes and decode it with :func:`decode_html`."""
    with open(path, "rb") as handle:
        return decode_html(handle.read(), content_type)

