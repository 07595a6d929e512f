"""A fixed-size sketch of an emitted article that measures its next change without its texts.

An incremental crawl sends an article again only when its text changed by at least
``NEWSSTEMMER_UPDATE_MIN_CHANGE`` (:func:`newsstemmer.crawl.incremental.article_change`):
the larger of the share of the new body's 4-word shingles found nowhere on the old page,
and the share of the old body's found nowhere on the new page.  That needed the last
body and page text of every article sent in the last ``NEWSSTEMMER_KEEP_TEXT_DAYS``
(~3.7 KB an article on the demo's pages, ~20 KB on the evaluation sets', compressed).
Nothing else reads those texts: drift relearning fetches the pages again, and an
unchanged body is told by its hash.

A :class:`ChangeSketch` keeps instead:

* a consistent sample of the body's shingles: the :data:`BODY_SAMPLE` with the lowest
  32-bit hashes, 16 bits of each kept; a shingle of a later version is sampled when its
  hash is below the same threshold, so the same shingle is sampled on both sides;
* 16-bit digests of the page's lines (of 4 words or more) nearest to the body, at most
  :data:`PAGE_LINES` within :data:`NEAR` words of it: the text a body cut anew from the
  same page (new layouts) could take in.

Added text is the share of the new body's sampled shingles that the old body's sample
lacks, leaving out the lines that were whole lines of the old page; removed text, the
share of the old body's sampled shingles that the new page (at hand, whole) lacks.
At most 7 + 2 × (128 + 64) = 391 bytes whatever the article's length (~310 on the evaluation
sets).  What it gives up: precision near the threshold (a share of ≤ 128 samples), and
text of the old page far from the body, or not a whole line of it, that a new cut takes
in reads as added.  ``benchmarks/change_sketch.py`` counts the decisions that differ from
the texts' on real pages edited as sites edit them.
"""

from __future__ import annotations

import heapq
import struct
import zlib
from dataclasses import dataclass
from typing import Iterable

from ..evaluation import tokens

__all__ = ["BODY_SAMPLE", "PAGE_LINES", "ChangeSketch", "body_shingle_hashes", "page_shingle_hashes"]

#: Shingles of the body kept (its lowest hashes).
BODY_SAMPLE = 128
#: Lines of the page around the body kept (the nearest first).
PAGE_LINES = 64
#: Words of the page around the body whose lines are kept (before its first line and after its last).
NEAR = 300
_FULL = 1 << 32  # a threshold that samples everything
_VERSION = 1
_HEAD = struct.Struct("<BIBB")  # version, body threshold, body sample size, page lines (255: page unknown)


def _window_hashes(toks: list[str], n: int = 4) -> Iterable[int]:
    """CRC-32 of each ``n``-token window (the whole sequence when shorter)."""
    if len(toks) < n:
        return (zlib.crc32(" ".join(toks).encode("utf-8")),) if toks else ()
    return map(zlib.crc32, (" ".join(toks[i:i + n]).encode("utf-8") for i in range(len(toks) - n + 1)))


def body_shingle_hashes(body: str) -> set[int]:
    """Hashes of a body's 4-word shingles within each line of at least 4 words (as the change measure counts them)."""
    out: set[int] = set()
    for line in body.split("\n"):
        toks = tokens(line)
        if len(toks) >= 4:
            out.update(_window_hashes(toks))
    return out


def page_shingle_hashes(page: str) -> set[int]:
    """Hashes of all 4-word shingles of a page's visible text."""
    return set(_window_hashes(tokens(page)))


def _near_lines(page: str, body: set[int]) -> list[int]:
    """Digests of the page's lines of at least 4 words that are not the body's, nearest to the
    body first, within :data:`NEAR` words of it (every line when the body is not on the page):
    what a body cut anew from the same page could take in."""
    lines, at, found = [], 0, []
    for line in page.split("\n"):
        toks = tokens(line)
        if not toks:
            continue
        hashes = set(_window_hashes(toks))
        if hashes & body:
            found.append(at)
        elif len(toks) >= 4:
            lines.append((at, at + len(toks), zlib.crc32(" ".join(toks).encode("utf-8")) & 0xFFFF))
        at += len(toks)
    if not found:
        return [d for _, _, d in lines]
    first, last = found[0], found[-1]
    near = [(max(first - end, start - last, 0), d) for start, end, d in lines]
    return [d for gap, d in sorted(near) if gap <= NEAR]


@dataclass(frozen=True)
class ChangeSketch:
    """The sampled shingles of an article's body and the lines of its page around it (see the module docstring)."""

    body_below: int  # threshold of the body's sample (hashes below it are in it)
    body: frozenset[int]  # 16-bit fingerprints of the body's sampled shingles
    lines: frozenset[int] | None  # 16-bit digests of the page's lines near the body (None: the page was unknown)

    @classmethod
    def of(cls, body: str, page: str = "") -> "ChangeSketch":
        """The sketch of an article's ``body`` and its page's visible text (``""``: unknown)."""
        body_hashes = body_shingle_hashes(body)
        if len(body_hashes) > BODY_SAMPLE:
            lowest = heapq.nsmallest(BODY_SAMPLE + 1, body_hashes)
            body_below = lowest[-1]  # (the kept ones are strictly below it)
            kept = set(lowest[:-1])
        else:
            body_below, kept = _FULL, body_hashes
        lines = frozenset(_near_lines(page, body_hashes)[:PAGE_LINES]) if page.split() else None
        return cls(body_below, frozenset(h & 0xFFFF for h in kept), lines)

    def change(self, body: str, page: str = "") -> float:
        """How much an article changed from the one sketched: the larger of the sampled share
        of the new ``body``'s shingles missing from the old page and of the old body's missing
        from the new ``page`` (the old or new body where a page is unknown)."""
        new_body: set[int] = set()
        from_page: set[int] = set()  # shingles of new body lines that were whole lines of the old page
        for line in body.split("\n"):
            toks = tokens(line)
            if len(toks) >= 4:
                hashes = set(_window_hashes(toks))
                new_body |= hashes
                if self.lines and zlib.crc32(" ".join(toks).encode("utf-8")) & 0xFFFF in self.lines:
                    from_page |= hashes
        # added: the new body's shingles sampled at the body's rate that the old body lacked,
        # but for lines the old page had whole (a body cut anew)
        sampled = [h for h in new_body if h < self.body_below]
        added = sum(1 for h in sampled if h & 0xFFFF not in self.body and h not in from_page) / len(sampled) if sampled else 0.0
        if not self.body:
            return added
        # removed: the old body's sampled shingles nowhere on the new page (the new body when unknown)
        there = page_shingle_hashes(page) if page.split() else new_body
        present = {h & 0xFFFF for h in there if h < self.body_below}
        removed = sum(1 for f in self.body if f not in present) / len(self.body)
        return max(added, removed)

    def to_bytes(self) -> bytes:
        """The sketch packed: a 7-byte head and 2 bytes a sampled shingle or page line."""
        body, lines = sorted(self.body), sorted(self.lines or ())
        return (_HEAD.pack(_VERSION, min(self.body_below, _FULL - 1), len(body), 255 if self.lines is None else len(lines))
                + struct.pack(f"<{len(body) + len(lines)}H", *body, *lines))

    @classmethod
    def from_bytes(cls, data: bytes) -> "ChangeSketch | None":
        """What :meth:`to_bytes` packed; None for anything else (a damaged or unknown record)."""
        if len(data) < _HEAD.size or data[0] != _VERSION or (len(data) - _HEAD.size) % 2:
            return None
        _, body_below, n_body, n_lines = _HEAD.unpack_from(data)
        values = struct.unpack_from(f"<{(len(data) - _HEAD.size) // 2}H", data, _HEAD.size)
        if n_body + (0 if n_lines == 255 else n_lines) != len(values):
            return None
        return cls(_FULL if body_below == _FULL - 1 else body_below, frozenset(values[:n_body]),
                   None if n_lines == 255 else frozenset(values[n_body:]))
