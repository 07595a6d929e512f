"""A fixed-size sketch of an emitted article that measures its next change without its texts.

An incremental crawl sends an article again only when its text changed by at least
``NEWSSTEMMER_UPDATE_MIN_CHANGE`` (:func:`newsstemmer.crawl.incremental.article_change`):
the larger of the share of the new body's 4-word shingles found nowhere on the old page,
and the share of the old body's found nowhere on the new page.  That needed the last
body and page text of every article sent in the last ``NEWSSTEMMER_KEEP_TEXT_DAYS``
(~3.7 KB an article on the demo's pages, ~20 KB on the evaluation sets', compressed).
Nothing else reads those texts: drift relearning fetches the pages again, and an
unchanged body is told by its hash.

A :class:`ChangeSketch` keeps instead consistent samples of shingles: a shingle is
sampled when its 32-bit hash is below a threshold, so the same shingle is sampled (or not)
on both sides of a comparison, and 16 bits of each sampled hash are kept:

* the body's :data:`BODY_SAMPLE` lowest hashes;
* the page's shingles within :data:`NEAR` shingles of the body (the text a body cut anew
  from the same page, by new layouts, could take in), not the body's, below the body's
  threshold or a lower one that keeps at most :data:`PAGE_SAMPLE`.

Added text is the share of the new body's shingles sampled at the body's rate that the old
body's sample lacks, times the share of those that the page's sample lacks (measured on
the ones below the page's threshold; all count when none is); removed text, the share of
the old body's sample that the new page (at hand, whole) lacks.  At most
404 bytes whatever the article's length (396, and a bit for each of the page's 64 marking the body's junctions), and 3 bytes a line (~290 + 3 a line stored: :meth:`ChangeSketch.to_bytes`
codes the sorted fingerprints' gaps, ~11 bits a fingerprint instead of 16).  What it gives up:
precision near the threshold (a share of ≤ 128 samples), and text of the old page far
from the body that a new cut takes in reads as added.

A share misses a short update of a long article: a dated sentence added to a paragraph of a
600-word story is ~10 new shingles, under 2 % of the body and 0-3 of its ~130 samples (issue
#26: 38 of the 39 updates a 60-day soak missed).  So the sketch also keeps the body's *lines*
in order, each a 16-bit fingerprint of its words and its word count (3 bytes a line, at most
:data:`MAX_LINES`; format version 3): :meth:`ChangeSketch.added_words` lines the new body up
with them and counts the words that paragraphs edited in place gained (a line replaced by one
longer), and those of new lines where the samples show text that was not on the old page.
A body cut anew does neither: its paragraphs keep their words, and a line it takes in from
the page was on the old page (most of its sampled shingles say so, else it is not counted).
Some of the page's shingles are the body's own text run together: the last words of one
paragraph and the first of the next.  Version 4 marks them in the page's sample (a bit each),
and the lines do not take them for page text: else an update repeating two of the article's
sentences, one ending a paragraph and the next starting as the next paragraph does ("… had
been affected. The …"), looked like a body cut anew (issue #26: 6 of a year's soak's 7 missed
updates).  The shares still count them as page text (a body whose paragraphs are merged anew
holds them).  ``benchmarks/change_sketch.py``
counts the decisions that differ from the texts' on real pages edited as sites edit them.
"""

from __future__ import annotations

import heapq
import struct
import zlib
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Iterable

from ..evaluation import tokens

__all__ = ["BODY_SAMPLE", "EDIT_MIN_WORDS", "MAX_LINES", "PAGE_SAMPLE", "ChangeSketch", "body_lines",
           "body_shingle_hashes", "junction_hashes", "page_shingle_hashes"]

#: Shingles of the body kept (its lowest hashes).
BODY_SAMPLE = 128
#: Shingles of the page around the body kept (below a threshold at most the body's).
PAGE_SAMPLE = 64
#: Shingles of the page around the body sampled (before its first and after its last).
NEAR = 300
#: Body lines kept (3 bytes each); a longer body keeps none (its changes are told by the shares alone).
MAX_LINES = 96
#: Words added to the article (a paragraph edited in place that grew by them, or a new paragraph
#: not on the old page) that make it an update whatever its length: a short sentence.
EDIT_MIN_WORDS = 6
_FULL = 1 << 32  # a threshold that samples everything
_VERSION = 4  # 4: as 3, and a bit for each page fingerprint that is a junction of two body lines
_LINES_VERSION = 3  # 3: lines (3 bytes each) before the samples
_HEAD_V1 = struct.Struct("<BIIH")  # version, body threshold, page threshold, body sample size; 2 bytes a fingerprint
_HEAD_V2 = struct.Struct("<BIIHHB")  # version, thresholds, body and page sample sizes, both Rice parameters (4 bits each)
_HEAD = struct.Struct("<BIIHHBB")  # versions 3-4: as version 2, and the number of lines (3 bytes each, before the samples)
_LINE = struct.Struct("<HB")  # a line's fingerprint and word count (at most 255)


def _rice_parameter(values: list[int]) -> int:
    """The Rice parameter for the gaps of ``values`` (sorted, 16 bits): about log2 of the mean gap."""
    mean = (values[-1] + 1) / len(values) if values else 1.0
    return max(0, min(15, int(mean).bit_length() - 1))


def _rice_bits(values: list[int], k: int) -> str:
    """The gaps between sorted distinct ``values`` (the first from -1), Rice-coded with parameter
    ``k``: the gap's high part in unary (ones, then a zero), its ``k`` low bits in binary."""
    out, last = [], -1
    for v in values:
        gap = v - last - 1
        out.append("1" * (gap >> k) + "0" + (format(gap & ((1 << k) - 1), f"0{k}b") if k else ""))
        last = v
    return "".join(out)


def _rice_values(bits: str, pos: int, n: int, k: int) -> tuple[list[int], int]:
    """``n`` values read from ``bits`` at ``pos`` (what :func:`_rice_bits` wrote) and the position after them."""
    out, last = [], -1
    for _ in range(n):
        end = bits.index("0", pos)
        gap = (end - pos) << k
        pos = end + 1
        if k:
            gap |= int(bits[pos:pos + k], 2)
            pos += k
        last = last + 1 + gap
        out.append(last)
    return out, pos


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


def body_lines(body: str) -> list[tuple[int, int]]:
    """The body's lines of at least 4 words (those the shares count), in order: (16-bit
    fingerprint of the line's words, word count up to 255)."""
    return [line for line, _ in _lines_and_texts(body)]


def _lines_and_texts(body: str) -> list[tuple[tuple[int, int], str]]:
    """:func:`body_lines`, each with the line's text."""
    out = []
    for text in body.split("\n"):
        toks = tokens(text)
        if len(toks) >= 4:
            out.append(((zlib.crc32(" ".join(toks).encode("utf-8")) & 0xFFFF, min(len(toks), 255)), text))
    return out


def junction_hashes(body: str) -> set[int]:
    """Hashes of the 4-word shingles that span two consecutive lines of ``body`` (the last words
    of one, the first of the next): text a page shows only because it runs the paragraphs together."""
    out: set[int] = set()
    lines = [toks for toks in map(tokens, body.split("\n")) if toks]
    for before, after in zip(lines, lines[1:]):
        cut = min(len(before), 3)
        joined = before[-cut:] + after[:3]
        out.update(zlib.crc32(" ".join(joined[i:i + 4]).encode("utf-8"))
                   for i in range(max(0, cut - 3), min(cut, len(joined) - 3)))
    return out


def page_shingle_hashes(page: str) -> set[int]:
    """Hashes of all 4-word shingles of a page's visible text."""
    return set(_window_hashes(tokens(page)))


def _near_body(page: list[int], body: set[int]) -> list[int]:
    """The page's shingle hashes (in page order) from :data:`NEAR` shingles before the body's
    first to as many after its last: the text a body cut anew could take in (all of the page
    when the body is not found on it)."""
    at = [i for i, h in enumerate(page) if h in body]
    if not at:
        return page
    return page[max(0, at[0] - NEAR): at[-1] + NEAR + 1]


@dataclass(frozen=True)
class ChangeSketch:
    """The sampled shingles of an article's body and of its page around the body (see the module docstring)."""

    body_below: int  # threshold of the body's sample (hashes below it are in it)
    page_below: int  # threshold of the page's sample (≤ body_below); 0: the page was unknown
    body: frozenset[int]  # 16-bit fingerprints of the body's sampled shingles
    page: frozenset[int]  # 16-bit fingerprints of the sampled shingles of the page around the body, not the body's
    lines: tuple[tuple[int, int], ...] = ()  # the body's lines (:func:`body_lines`); empty: unknown
    joints: frozenset[int] | None = None  # those of ``page`` that span two body lines (:func:`junction_hashes`); None: unknown (version ≤ 3)

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
        page_below, rest = 0, []
        if page.split():
            near = _near_body(list(_window_hashes(tokens(page))), body_hashes)
            rest = list({h for h in near if h < body_below and h not in body_hashes})
            page_below = body_below
            if len(rest) > PAGE_SAMPLE:
                lowest = heapq.nsmallest(PAGE_SAMPLE + 1, rest)
                page_below, rest = lowest[-1], lowest[:-1]
        lines = body_lines(body)
        joints = junction_hashes(body)
        return cls(body_below, page_below, frozenset(h & 0xFFFF for h in kept), frozenset(h & 0xFFFF for h in rest),
                   tuple(lines) if len(lines) <= MAX_LINES else (), frozenset(h & 0xFFFF for h in rest if h in joints))

    def change(self, body: str, page: str = "") -> float:
        """How much an article changed from the one sketched: the larger of the sampled share
        of the new ``body``'s shingles missing from the old page and of the old body's missing
        from the new ``page`` (the old or new body where a page is unknown)."""
        new_body = body_shingle_hashes(body)
        # added: among the new body's shingles sampled at the body's rate, those not in the old
        # body, times the share of those the old page lacked around the body (measured on the
        # ones sampled at the page's rate; all of them when none is)
        sampled = [h for h in new_body if h < self.body_below]
        added = 0.0
        if sampled:
            outside = [h for h in sampled if h & 0xFFFF not in self.body]
            checked = [h for h in outside if h < self.page_below]
            elsewhere = sum(1 for h in checked if h & 0xFFFF not in self.page) / len(checked) if checked else 1.0
            added = len(outside) / len(sampled) * elsewhere
        if not self.body:
            return added
        # removed: the old body's sampled shingles nowhere on the new page (the new body when unknown)
        there = page_shingle_hashes(page) if page.split() else new_body
        present = {h & 0xFFFF for h in there if h < self.body_below}
        removed = sum(1 for f in self.body if f not in present) / len(self.body)
        return max(added, removed)

    def added_words(self, body: str) -> int:
        """Words the new ``body`` adds to the article sketched, told by its lines (0 when the
        sketch has none): the words gained by paragraphs edited in place (old lines replaced
        by as many or fewer new ones holding more words), and the words of new lines whose
        sampled shingles show text that was on neither the old body nor the page around it.
        Either is left out when most sampled shingles of the new lines were on the old page
        around the body (text a body cut anew takes in; the body's own paragraphs run together
        on the page are not counted as such: :attr:`joints`)."""
        if not self.lines:
            return 0
        new_lines = _lines_and_texts(body)
        new, texts = [line for line, _ in new_lines], [text for _, text in new_lines]
        old_prints, new_prints = [f for f, _ in self.lines], [f for f, _ in new]
        added = 0
        for tag, i1, i2, j1, j2 in SequenceMatcher(None, old_prints, new_prints, autojunk=False).get_opcodes():
            if tag not in ("replace", "insert"):
                continue
            gained = sum(n for _, n in new[j1:j2]) - sum(n for _, n in self.lines[i1:i2])
            if gained < EDIT_MIN_WORDS or (tag == "replace" and j2 - j1 > i2 - i1):
                continue  # (more lines than it replaces: a paragraph split, or lines taken in: the shares tell)
            sampled = [h for h in body_shingle_hashes("\n".join(texts[j1:j2]))
                       if h < self.page_below and h & 0xFFFF not in self.body]
            joints = self.joints or frozenset()
            if 2 * sum(1 for h in sampled if h & 0xFFFF in self.page and h & 0xFFFF not in joints) > len(sampled):
                continue  # mostly text of the old page around the body: a body cut anew (one match among more
                # is no proof: a 16-bit fingerprint of the page's sample matches a new shingle one time in ~1,000)
            if tag == "insert" and not sampled:
                continue  # new lines with no sampled evidence of new text: may be the page's, taken in
            added += gained
        return added

    def to_bytes(self) -> bytes:
        """The sketch packed: a 14-byte head and the sorted fingerprints of each sample
        Rice-coded by their gaps (lossless; ~11 bits a fingerprint: ~290 bytes for a full
        sketch instead of the 395 of version 1's 2 bytes a fingerprint)."""
        body, page = sorted(self.body), sorted(self.page)
        k_body, k_page = _rice_parameter(body), _rice_parameter(page)
        bits = _rice_bits(body, k_body) + _rice_bits(page, k_page)
        bits += "0" * (-len(bits) % 8)
        lines = self.lines if len(self.lines) <= min(MAX_LINES, 255) else ()
        mask = b""
        if self.joints is not None:  # version 4: a bit for each page fingerprint (in sorted order) that is a junction
            bits_of = sum(1 << i for i, f in enumerate(page) if f in self.joints)
            mask = bits_of.to_bytes((len(page) + 7) // 8, "little")
        return (_HEAD.pack(_VERSION if self.joints is not None else _LINES_VERSION, min(self.body_below, _FULL - 1),
                           min(self.page_below, _FULL - 1), len(body), len(page), k_body << 4 | k_page, len(lines))
                + b"".join(_LINE.pack(f, min(n, 255)) for f, n in lines) + mask
                + (int(bits, 2).to_bytes(len(bits) // 8, "big") if bits else b""))

    @classmethod
    def from_bytes(cls, data: bytes) -> "ChangeSketch | None":
        """What :meth:`to_bytes` packed (or version 1's 2 bytes a fingerprint, as stored before);
        None for anything else (a damaged or unknown record)."""
        if data[:1] == b"\x01":
            return cls._from_v1(data)
        if data[:1] == b"\x02" and len(data) >= _HEAD_V2.size:
            head, n_lines = _HEAD_V2, 0
            _, body_below, page_below, n_body, n_page, ks = head.unpack_from(data)
        elif data[:1] in (bytes([_LINES_VERSION]), bytes([_VERSION])) and len(data) >= _HEAD.size:
            head = _HEAD
            _, body_below, page_below, n_body, n_page, ks, n_lines = head.unpack_from(data)
        else:
            return None
        n_mask = (n_page + 7) // 8 if data[:1] == bytes([_VERSION]) else 0
        start = head.size + n_lines * _LINE.size + n_mask
        if len(data) < start:
            return None
        lines = tuple(_LINE.unpack_from(data, head.size + i * _LINE.size) for i in range(n_lines))
        rest = data[start:]
        bits = format(int.from_bytes(rest, "big"), f"0{len(rest) * 8}b") if rest else ""
        try:
            body, pos = _rice_values(bits, 0, n_body, ks >> 4)
            page, _ = _rice_values(bits, pos, n_page, ks & 15)
        except ValueError:  # (ran out of bits: damaged)
            return None
        if (body and body[-1] > 0xFFFF) or (page and page[-1] > 0xFFFF):
            return None
        mask = int.from_bytes(data[start - n_mask:start], "little") if n_mask else None
        joints = None if mask is None else frozenset(f for i, f in enumerate(page) if mask >> i & 1)
        return cls._of_values(body_below, page_below, body, page, lines, joints)

    @classmethod
    def _from_v1(cls, data: bytes) -> "ChangeSketch | None":
        """A version-1 sketch (2 bytes a fingerprint)."""
        if len(data) < _HEAD_V1.size or (len(data) - _HEAD_V1.size) % 2:
            return None
        _, body_below, page_below, n_body = _HEAD_V1.unpack_from(data)
        values = struct.unpack_from(f"<{(len(data) - _HEAD_V1.size) // 2}H", data, _HEAD_V1.size)
        if n_body > len(values):
            return None
        return cls._of_values(body_below, page_below, values[:n_body], values[n_body:])

    @classmethod
    def _of_values(cls, body_below: int, page_below: int, body: Iterable[int], page: Iterable[int],
                   lines: tuple[tuple[int, int], ...] = (), joints: frozenset[int] | None = None) -> "ChangeSketch":
        body_below, page_below = (_FULL if x == _FULL - 1 else x for x in (body_below, page_below))
        return cls(body_below, page_below, frozenset(body), frozenset(page), lines, joints)
