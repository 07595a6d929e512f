"""A fixed-size sketch of an emitted article that measures its next change without its texts.

An incremental crawl sends an article again only when its text changed by at least
``NEWSSTEMMER_UPDATE_MIN_CHANGE`` (:func:`newsstemmer.crawl.incremental.article_change`):
the larger of the share of the new body's 4-word shingles found nowhere on the old page,
and the share of the old body's found nowhere on the new page.  That needed the last
body and page text of every article sent in the last ``NEWSSTEMMER_KEEP_TEXT_DAYS``
(~3.7 KB an article, compressed).  Nothing else reads those texts: drift relearning
fetches the pages again, and an unchanged body is told by its hash.

A :class:`ChangeSketch` keeps, instead, a consistent sample of the two shingle sets:
a shingle is sampled when its 32-bit hash is below a threshold, so the same shingle is
sampled (or not) on both sides of a comparison, and each sampled shingle is kept as 16
bits of that hash.  The body's sample is its :data:`BODY_SAMPLE` lowest hashes; the
page's (its shingles outside the body) is taken below a threshold low enough to keep at
most :data:`PAGE_SAMPLE`.  Both measures then become shares within the samples:

* the new body's shingles below the page threshold that are neither in the body's nor
  in the page's sample: added text;
* the body's sampled shingles that the new page (all of it, at hand) lacks: removed text.

What it keeps: at most 9 + 2 × (64 + 64) bytes whatever the article's length.  What it
gives up: precision on small changes (a share of ~64 samples: a 10 % change reads as
10 ± 4 %), never on no change: a shingle present on both sides is sampled on both, so a
body cut anew from the same page (a new layout) still reads 0.
"""

from __future__ import annotations

import heapq
import struct
import zlib
from dataclasses import dataclass
from typing import Iterable

from ..evaluation import tokens

__all__ = ["BODY_SAMPLE", "PAGE_SAMPLE", "ChangeSketch", "body_shingle_hashes", "page_shingle_hashes"]

#: Shingles of the body kept (its lowest hashes).
BODY_SAMPLE = 64
#: Shingles of the page outside the body kept (below a threshold at most the body's).
PAGE_SAMPLE = 64
_FULL = 1 << 32  # a threshold that samples everything
_VERSION = 1
_HEAD = struct.Struct("<BIIB")  # version, body threshold, page threshold, body sample size


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


@dataclass(frozen=True)
class ChangeSketch:
    """The sampled shingles of an article's body and of the rest of its page (see the module docstring)."""

    body_below: int  # threshold of the body's sample (hashes below it are in it)
    page_below: int  # threshold of the page's sample (≤ body_below); 0: the page was unknown
    body: frozenset[int]  # 16-bit fingerprints of the body's sampled shingles
    page: frozenset[int]  # 16-bit fingerprints of the page's sampled shingles outside the body

    @classmethod
    def of(cls, body: str, page: str = "") -> "ChangeSketch":
        """The sketch of an article's ``body`` and its page's visible text (``""``: unknown)."""
        body_hashes = body_shingle_hashes(body)
        if len(body_hashes) > BODY_SAMPLE:
            lowest = heapq.nsmallest(BODY_SAMPLE + 1, body_hashes)
            body_below = lowest[-1]  # (the kept ones are strictly below it)
            body_hashes = set(lowest[:-1])
        else:
            body_below = _FULL
        page_below, rest = 0, []
        if page.split():
            rest = [h for h in page_shingle_hashes(page) if h < body_below and h not in body_hashes]
            page_below = body_below
            if len(rest) > PAGE_SAMPLE:
                lowest = heapq.nsmallest(PAGE_SAMPLE + 1, rest)
                page_below, rest = lowest[-1], lowest[:-1]
        return cls(body_below, page_below, frozenset(h & 0xFFFF for h in body_hashes),
                   frozenset(h & 0xFFFF for h in rest))

    def change(self, body: str, page: str = "") -> float:
        """How much an article changed from the one sketched: the sampled share of the new
        ``body``'s shingles missing from the old page, or of the old body's missing from the
        new ``page``, whichever is larger (the old or new body when a page is unknown)."""
        new_body = body_shingle_hashes(body)
        # added: new body shingles the old page lacked (the old body when its page is unknown)
        below = self.page_below or self.body_below
        known = self.body | self.page if self.page_below else self.body
        sampled = [h & 0xFFFF for h in new_body if h < below]
        if not sampled and self.page_below and self.page_below < self.body_below:
            below, known = self.body_below, self.body  # too few at the page's rate: the body's alone
            sampled = [h & 0xFFFF for h in new_body if h < below]
        added = sum(1 for f in sampled if f not in known) / len(sampled) if sampled else 0.0
        # removed: the old body's sampled shingles nowhere on the new page (the new body when unknown)
        if not self.body:
            return added
        there = page_shingle_hashes(page) if page.split() else new_body
        present = {h & 0xFFFF for h in there if h < self.body_below}
        removed = sum(1 for f in self.body if f not in present) / len(self.body)
        return max(added, removed)

    def to_bytes(self) -> bytes:
        """The sketch packed: a 10-byte head and 2 bytes a sampled shingle (at most 266 bytes)."""
        body, page = sorted(self.body), sorted(self.page)
        return (_HEAD.pack(_VERSION, min(self.body_below, _FULL - 1), min(self.page_below, _FULL - 1), len(body))
                + struct.pack(f"<{len(body) + len(page)}H", *body, *page))

    @classmethod
    def from_bytes(cls, data: bytes) -> "ChangeSketch | None":
        """What :meth:`to_bytes` packed; None for anything else (a damaged or unknown record)."""
        if len(data) < _HEAD.size or data[0] != _VERSION or (len(data) - _HEAD.size) % 2:
            return None
        _, body_below, page_below, n_body = _HEAD.unpack_from(data)
        values = struct.unpack_from(f"<{(len(data) - _HEAD.size) // 2}H", data, _HEAD.size)
        if n_body > len(values):
            return None
        body_below, page_below = (_FULL if x == _FULL - 1 else x for x in (body_below, page_below))
        return cls(body_below, page_below, frozenset(values[:n_body]), frozenset(values[n_body:]))
