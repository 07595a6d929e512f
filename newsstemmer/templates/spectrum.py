"""The spectrum V(f) of a set of documents, from a suffix array and LCP array (SPEC §3).

V(f) is the number of distinct substrings occurring exactly f times in the
documents.  The documents are UTF-8 encoded and joined with a separator byte
(0xFF, which UTF-8 never produces); pydivsufsort builds the suffix array and the
LCP array in C.  An LCP is cut where the common prefix would reach a separator,
so no substring crossing two documents is ever counted.  Every internal node of
the suffix tree is an LCP interval with frequency f (its number of suffixes); it
contributes (its depth − its parent's depth) distinct substrings to V(f).  The
LCP intervals are found with "nearest smaller value" searches over a tree of
block minima (:class:`MinTree`), vectorised with numpy over all positions at
once (the stack pass of the textbook, without a Python loop per position).
Substrings are counted in bytes of UTF-8.

Besides V(f), :func:`spectrum` can keep the nodes that are maximal repeats
(:class:`SuffixNodes`): the candidate template parts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

__all__ = ["CHUNK", "SEP", "MinTree", "Progress", "SuffixNodes", "encode", "spectrum"]

#: Byte joining the documents; UTF-8 never contains it.
SEP = 0xFF
#: Positions per vectorised batch (bounds the temporary arrays).
CHUNK = 1 << 21
#: Frequencies below this are tallied with bincount; the (few) larger ones by sorting.
_SMALL_F = 1 << 16

#: ``progress(stage, done, total)``, called as work advances.
Progress = Callable[[str, int, int], None]


def encode(texts: Sequence[str | bytes]) -> tuple[bytes, np.ndarray]:
    """Documents joined, each followed by ``SEP``; returns the bytes and the separator positions."""
    parts: list[bytes] = []
    for t in texts:
        b = t.encode("utf-8", "surrogatepass") if isinstance(t, str) else bytes(t)
        if SEP in b:  # only possible for bytes input (UTF-8 never has 0xFF)
            b = b.replace(bytes([SEP]), bytes([SEP - 1]))
        parts.append(b)
    lengths = np.fromiter((len(p) for p in parts), dtype=np.int64, count=len(parts))
    seps = np.cumsum(lengths + 1) - 1
    return bytes([SEP]).join(parts) + bytes([SEP]), seps


class MinTree:
    """Block minima of an int array over aligned blocks of 2^t, for nearest-smaller searches.

    All levels live in one flat array, level 0 (the values themselves) first:
    build the values in ``MinTree.allocate(n)[0]``, then call :meth:`build`.
    ``values[0]`` and ``values[-1]`` must be sentinels smaller than every
    threshold, so that every search stops inside the array.
    """

    def __init__(self, flat: np.ndarray, offsets: np.ndarray) -> None:
        self.flat = flat
        self.offsets = offsets
        self.index = offsets.dtype.type  # int32 when the tree fits: less memory traffic
        self.one = self.index(1)

    @classmethod
    def allocate(cls, n: int, dtype=np.int32) -> tuple[np.ndarray, "MinTree"]:
        """Room for ``n`` values and all levels above them: (the values to fill, the tree)."""
        sizes = [n]
        while sizes[-1] > 1:
            sizes.append((sizes[-1] + 1) // 2)
        total = int(sum(sizes))
        index = np.int32 if total < 2**31 else np.int64
        offsets = np.concatenate(([0], np.cumsum(sizes)[:-1])).astype(index)
        flat = np.empty(total, dtype=dtype)
        return flat[:n], cls(flat, offsets)

    def build(self) -> None:
        """Compute every level above the values (after they are filled in)."""
        off = self.offsets
        for t in range(1, len(off)):
            cur = self.flat[off[t - 1] : off[t]]
            end = off[t + 1] if t + 1 < len(off) else len(self.flat)
            nxt = self.flat[off[t] : end]
            half = len(cur) // 2
            np.minimum(cur[0 : 2 * half : 2], cur[1 : 2 * half : 2], out=nxt[:half])
            if len(cur) % 2:
                nxt[half] = -1  # padding: only past the final sentinel

    def _probe(self, res: np.ndarray, start: np.ndarray, x: np.ndarray, step: int, probes: int = 4):
        """Look at the first few values directly (most answers are near); return the queries left."""
        idx = np.arange(len(start), dtype=self.index)
        p = start.astype(self.index)
        x = x.astype(self.flat.dtype)
        base = self.flat
        for _ in range(probes):
            if not len(idx):
                break
            hit = base[p] < x
            if hit.any():
                res[idx[hit]] = p[hit]
                keep = ~hit
                idx, p, x = idx[keep], p[keep], x[keep]
            p += step
        return idx, p, x

    def _get(self, p: np.ndarray, t: np.ndarray) -> np.ndarray:
        return self.flat[self.offsets[t] + (p >> t)]

    def next_below(self, start: np.ndarray, x: np.ndarray) -> np.ndarray:
        """For each query, the first index j ≥ start with values[j] < x."""
        res = np.empty(len(start), dtype=np.int64)
        idx, p, x = self._probe(res, start, x, 1)
        t = np.zeros(len(p), dtype=np.int8)
        found: list[tuple[np.ndarray, ...]] = []
        while len(idx):
            hit = self._get(p, t) < x
            if hit.any():
                found.append((idx[hit], p[hit], t[hit], x[hit]))
                keep = ~hit
                idx, p, t, x = idx[keep], p[keep], t[keep], x[keep]
            p += np.left_shift(self.one, t)
            t += ((p >> t) & 1) == 0  # aligned to the next level: climb
        return self._descend(res, found, right=False)

    def prev_below(self, start: np.ndarray, x: np.ndarray) -> np.ndarray:
        """For each query, the last index j ≤ start with values[j] < x."""
        res = np.empty(len(start), dtype=np.int64)
        idx, p, x = self._probe(res, start, x, -1)  # p: right end of the block; (p + 1) aligned to 2^t
        t = np.zeros(len(p), dtype=np.int8)
        found: list[tuple[np.ndarray, ...]] = []
        while len(idx):
            hit = self._get(p, t) < x
            if hit.any():
                found.append((idx[hit], p[hit], t[hit], x[hit]))
                keep = ~hit
                idx, p, t, x = idx[keep], p[keep], t[keep], x[keep]
            p -= np.left_shift(self.one, t)
            t += (((p + 1) >> t) & 1) == 0
        return self._descend(res, found, right=True)

    def _descend(self, res: np.ndarray, found: list, right: bool) -> np.ndarray:
        """From blocks known to hold a value < x, down to the first (or, ``right``, last) such index."""
        if not found:
            return res
        idx, p, t, x = (np.concatenate(c) for c in zip(*found))
        while len(idx):
            done = t == 0
            if done.any():
                res[idx[done]] = p[done]
                keep = ~done
                idx, p, t, x = idx[keep], p[keep], t[keep], x[keep]
                if not len(idx):
                    break
            t -= 1
            step = np.left_shift(self.one, t)
            if right:  # block [p + 1 - 2^(t+1), p]: look at its right half first
                p -= np.where(self._get(p, t) >= x, step, 0)
            else:  # block [p, p + 2^(t+1)): look at its left half first
                p += np.where(self._get(p, t) >= x, step, 0)
        return res


def _before(data: np.ndarray, pos: np.ndarray) -> np.ndarray:
    """The byte before each position (int16), -1 at the start of a document."""
    c = data[np.maximum(pos - 1, 0)].astype(np.int16)
    c[(pos == 0) | (c == SEP)] = -1
    return c


@dataclass
class SuffixNodes:
    """Kept suffix-tree nodes (left- and right-maximal repeats), sorted by frequency."""

    first: np.ndarray  # first suffix-array index of the node's interval
    freq: np.ndarray  # number of occurrences f
    depth: np.ndarray  # length of the repeat in bytes
    pos: np.ndarray  # one text position of an occurrence


def spectrum(
    joined: bytes, seps: np.ndarray, min_keep: int, keep: bool, progress: Progress | None
) -> tuple[np.ndarray, SuffixNodes | None, np.ndarray | None]:
    """V(f) of the documents ``joined`` by :func:`encode` (separators at ``seps``), index f.

    With ``keep``, also the maximal repeats of at least ``min_keep`` bytes (sorted
    by frequency) and the document of each suffix-array entry; else both ``None``.
    """
    from pydivsufsort import divsufsort, kasai

    data = np.frombuffer(joined, dtype=np.uint8)
    n = len(data)
    sa = divsufsort(joined)
    lcp = kasai(joined, sa)  # lcp[i] = lcp(sa[i], sa[i + 1])
    if progress:
        progress("suffix array", 1, 4)
    n_docs = len(seps)
    doc_dtype = np.uint16 if n_docs < 1 << 16 else np.int32
    doc_of = np.repeat(np.arange(n_docs, dtype=doc_dtype), np.diff(seps, prepend=-1))
    doc_sa = np.empty(n, dtype=doc_dtype) if keep else None
    # H[k] = common prefix of suffixes sa[k-1] and sa[k], cut at the separator;
    # H[0] = H[n] = -1 are sentinels.  H is level 0 of the tree of block minima.
    H, tree = MinTree.allocate(n + 1)
    H[0] = H[n] = -1
    v1 = 0  # substrings occurring once: prefixes of a suffix longer than both its LCPs
    for a in range(0, n, CHUNK):
        b = min(n, a + CHUNK)
        pos = sa[a:b]
        doc = doc_of[pos]
        rem = seps[doc] - pos  # bytes from the position to its document's separator
        if doc_sa is not None:
            doc_sa[a:b] = doc
        lo = max(a, 1)
        H[lo:b] = np.minimum(lcp[lo - 1 : b - 1], rem[lo - a :])
    del lcp
    for a in range(0, n, CHUNK):
        b = min(n, a + CHUNK)
        pos = sa[a:b]
        rem = seps[doc_of[pos]] - pos
        around = np.maximum(np.maximum(H[a:b], H[a + 1 : b + 1]), 0)
        v1 += int(np.sum(rem - around))
    if progress:
        progress("suffix array", 2, 4)

    cs = None
    if keep:
        # Left-maximality: a node is a maximal repeat if the bytes before its occurrences
        # differ, or one occurrence starts a document.  cs[k] counts, over indices 1..k,
        # the suffixes whose preceding byte differs from the previous suffix's, or that
        # start a document.
        cs = np.empty(n, dtype=np.int32)
        running, last = 0, None
        for a in range(0, n, CHUNK):
            b = min(n, a + CHUNK)
            c = _before(data, sa[a:b])
            change = np.empty(b - a, dtype=np.int32)
            change[1:] = c[1:] != c[:-1]
            change[0] = 0 if last is None else int(c[0] != last)
            change[c == -1] = 1
            if a == 0:
                change[0] = 0
            np.cumsum(change, out=cs[a:b])
            cs[a:b] += running
            running, last = int(cs[b - 1]), c[-1]
    del doc_of
    tree.build()
    counts = np.zeros(_SMALL_F, dtype=np.int64)
    big_f: list[np.ndarray] = []
    big_c: list[np.ndarray] = []
    kept: list[tuple[np.ndarray, ...]] = []
    for a in range(1, n, CHUNK):
        b = min(n, a + CHUNK)
        k = np.arange(a, b, dtype=np.int64)
        h = H[a:b]
        pos_h = h > 0
        k, h = k[pos_h], h[pos_h]
        before = H[k - 1]
        # Leftmost boundary of its interval: the nearest value ≤ h on the left is < h.
        left = np.where(before < h, k - 1, -1)
        search = before > h
        if search.any():
            left[search] = tree.prev_below(k[search] - 1, h[search].astype(np.int64) + 1)
        first = left >= 0
        first[search] = H[left[search]] < h[search]
        k, h, left = k[first], h[first], left[first]
        after = H[k + 1]
        right = np.where(after < h, k + 1, -1)
        search = after >= h
        if search.any():
            right[search] = tree.next_below(k[search] + 1, h[search].astype(np.int64))
        f = right - left
        parent = np.maximum(np.maximum(H[left], H[right]), 0)
        c = (h - parent).astype(np.int64)
        small = f < _SMALL_F
        counts += np.rint(np.bincount(f[small], weights=c[small], minlength=_SMALL_F)).astype(np.int64)
        if not small.all():
            big_f.append(f[~small])
            big_c.append(c[~small])
        if keep:
            deep = h >= min_keep
            lft, r, hh = left[deep], right[deep], h[deep]
            lmax = (cs[r - 1] - cs[lft] + (_before(data, sa[lft]) == -1)) > 0
            lft, r, hh = lft[lmax], r[lmax], hh[lmax]
            kept.append((lft, r - lft, hh, sa[lft].astype(np.int64)))
        if progress:
            progress("suffix tree", b, n)
    del tree, H, cs
    counts[1] += v1
    if big_f:
        fs, cs_ = np.concatenate(big_f), np.concatenate(big_c)
        uf, inv = np.unique(fs, return_inverse=True)
        sums = np.zeros(len(uf), dtype=np.int64)
        np.add.at(sums, inv, cs_)
        counts = np.concatenate((counts, np.zeros(int(uf[-1]) + 1 - len(counts), np.int64)))
        counts[uf] += sums
    nodes = None
    if keep:
        if kept:
            first_, freq, depth, pos = (np.concatenate(c) for c in zip(*kept))
        else:
            first_ = freq = depth = pos = np.empty(0, np.int64)
        order = np.argsort(freq, kind="stable")
        nodes = SuffixNodes(first_[order], freq[order].astype(np.int64), depth[order].astype(np.int64), pos[order])
    # trim trailing zeros
    nz = np.flatnonzero(counts)
    counts = counts[: (nz[-1] + 1 if len(nz) else 1)]
    return counts, nodes, doc_sa

