"""What the crawl and its second process say to each other: frames and messages.

Both ends use this module: the reactor's end (:mod:`newsstemmer.crawl.sidecar`) and
the process's loop (:func:`newsstemmer.crawl.rounds.serve`).  It imports neither
Scrapy nor the core, only what a message carries.

A *frame* is :data:`FRAME_HEADER` bytes of length (big-endian), then a pickle of that
length.  The crawl's first frame is its :class:`~newsstemmer.crawl.config.Config`; the
process answers :data:`READY` once loaded; then requests and answers:

* ``("patterns", site, patterns)``: the site's current patterns, for the extractions
  that follow (no answer);
* ``("extract", id, (url, site, html, anchor_texts, fetched_at), options)``:
  answered ``(id, True, Outcome)``;
* ``("round", id, run_round arguments after the config)``: answered ``(id, True, RoundResult)``;
* a request that raises is answered ``(id, False, "<error>")``.
"""

from __future__ import annotations

import pickle
from typing import Any, BinaryIO, Iterator

from .items import FetchedPage

__all__ = [
    "EXTRACT", "FRAME_HEADER", "PATTERNS", "READY", "ROUND", "FrameReader", "extract_request", "failed", "frame",
    "page_of", "patterns_message", "read_frame", "round_request", "write_frame",
]

#: A frame: this many bytes of length (big-endian), then a pickle of that length.
FRAME_HEADER = 4
#: The process's first frame: imports done, the single-page method loaded, requests welcome.
READY = (0, True, "ready")
# Request kinds
PATTERNS = "patterns"
EXTRACT = "extract"
ROUND = "round"


# -- frames -------------------------------------------------------------------------------------
def frame(message: Any) -> bytes:
    """One message as a frame: its pickle's length (:data:`FRAME_HEADER` bytes) and the pickle."""
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    return len(data).to_bytes(FRAME_HEADER, "big") + data


def _size(header: bytes | bytearray) -> int:
    """The length a frame's header announces."""
    return int.from_bytes(header, "big")


def write_frame(stream: BinaryIO, message: Any) -> None:
    """Write one message as a frame (no flush)."""
    stream.write(frame(message))


def read_frame(stream: BinaryIO) -> Any:
    """The next message of a blocking stream of frames; ``EOFError`` at its end (or a cut frame)."""
    head = stream.read(FRAME_HEADER)
    if len(head) < FRAME_HEADER:
        raise EOFError
    size = _size(head)
    data = stream.read(size)
    if len(data) < size:
        raise EOFError
    return pickle.loads(data)


class FrameReader:
    """The messages of a stream of frames that arrives in pieces (the reactor's end reads
    whatever the socket has): :meth:`feed` bytes, get every message completed by them."""

    def __init__(self) -> None:
        self._inbox = bytearray()

    def feed(self, data: bytes) -> Iterator[Any]:
        inbox = self._inbox
        inbox += data
        start = 0
        try:
            while len(inbox) - start >= FRAME_HEADER:
                end = start + FRAME_HEADER + _size(inbox[start:start + FRAME_HEADER])
                if len(inbox) < end:
                    break
                message = pickle.loads(inbox[start + FRAME_HEADER:end])
                start = end
                yield message
        finally:
            del inbox[:start]


# -- messages ------------------------------------------------------------------------------------
def patterns_message(site: str, patterns: Any) -> tuple[Any, ...]:
    """The site's current patterns, for the extractions that follow."""
    return (PATTERNS, site, patterns)


def extract_request(rid: int, page: FetchedPage, options: Any) -> tuple[Any, ...]:
    """Extract ``page`` with its site's patterns (what the process last received of them).

    The page goes as its fields, without its parse (the process parses it again)."""
    return (EXTRACT, rid, (page.url, page.site, page.html, page.anchor_texts, page.fetched_at), options)


def page_of(data: tuple[Any, ...]) -> FetchedPage:
    """The page of an extract request."""
    url, site, html, anchors, fetched_at = data
    return FetchedPage(url, site, html, list(anchors), fetched_at)


def round_request(rid: int, args: tuple[Any, ...]) -> tuple[Any, ...]:
    """Run a round with these arguments of ``run_round`` (those after the config)."""
    return (ROUND, rid, args)


def failed(rid: int, exc: BaseException | str) -> tuple[int, bool, str]:
    """The answer to a request that raised (its text, cut to 2,000 characters)."""
    text = exc if isinstance(exc, str) else f"{type(exc).__name__}: {exc}"
    return rid, False, text[:2000]
