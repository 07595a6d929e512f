"""Substring amplification (SPEC §3): find the pages that share a template, in linear time.

Every substring of a long string shared by k pages occurs k times, so the total
number of occurrences of substrings occurring exactly f times, F(f) = f·V(f),
spikes at f = k, while the substrings of natural-language content give a smooth,
fast-falling F(f).  The frequencies where F stands out (peaks) name the template
parts: the branching substrings occurring exactly that often; the pages holding
them form a group.

::

    from .amplification import amplify, pregroup
    amp = amplify(pages_html)                 # suffix array + LCP: computes F(f) once
    amp.F, amp.G()                            # numpy arrays indexed by f
    amp.peaks(delta=1.5); amp.peaks(alpha=0.001)
    grouping = amp.groups(delta=1.5)          # any δ or α, no recomputation
    grouping.groups, grouping.ungrouped, grouping.examples
    pregroup(pages_html)                      # partition for learning (tag skeletons)

How F is computed: the documents are UTF-8 encoded and joined with a separator
byte (0xFF, which UTF-8 never produces); pydivsufsort builds the suffix array
and the LCP array in C.  An LCP is cut where the common prefix would reach a
separator, so no substring crossing two documents is ever counted.  Every
internal node of the suffix tree is an LCP interval with frequency f (its number
of suffixes); it contributes (its depth − its parent's depth) distinct
substrings to V(f).  The LCP intervals are found with "nearest smaller value"
searches over a tree of block minima, vectorised with numpy over all positions
at once (the stack pass of the textbook, without a Python loop per position).
Substrings are counted in bytes of UTF-8.

Peaks: G(f) > δ (the paper's test), or the automatic boundary: F'(f) above the
natural-language reference shipped in ``data/amplification_reference.json``
(made by ``scripts/make_reference.py``) at risk α, the default.  Groups: see
:meth:`Amplification.groups`.
"""

from __future__ import annotations

import json
import math
import re
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path

import numpy as np

__all__ = [
    "DEFAULT_ALPHA",
    "DEFAULT_DELTA",
    "Amplification",
    "Grouping",
    "Reference",
    "TemplatePart",
    "amplify",
    "load_reference",
    "pregroup",
    "skeleton",
]

#: Byte joining the documents; UTF-8 never contains it.
SEP = 0xFF
#: Peak boundary δ on G(f) suggested when a fixed δ is wanted (choice: dev sets, benchmarks/amplification.py).
DEFAULT_DELTA = 1.5
#: Two documents are linked when their shared template weight is this share of the best of each.
DEFAULT_SHARE = 0.5
#: Risk of the automatic boundary, the default way to find peaks.
DEFAULT_ALPHA = 0.001
#: Positions per vectorised batch (bounds the temporary arrays).
_CHUNK = 1 << 21
#: Frequencies below this are tallied with bincount; the (few) larger ones by sorting.
_SMALL_F = 1 << 16

Progress = Callable[[str, int, int], None]


# -- suffix array, LCP, spectrum ---------------------------------------------------------


def _encode(texts: Sequence[str | bytes]) -> tuple[bytes, np.ndarray]:
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


class _MinTree:
    """Block minima of an int array over aligned blocks of 2^t, for nearest-smaller searches.

    All levels live in one flat array, level 0 (the values themselves) first:
    build the values in ``_MinTree.allocate(n)[0]``, then call :meth:`build`.
    ``values[0]`` and ``values[-1]`` must be sentinels smaller than every
    threshold, so that every search stops inside the array.
    """

    def __init__(self, flat: np.ndarray, offsets: np.ndarray) -> None:
        self.flat = flat
        self.offsets = offsets
        self.index = offsets.dtype.type  # int32 when the tree fits: less memory traffic
        self.one = self.index(1)

    @classmethod
    def allocate(cls, n: int, dtype=np.int32) -> tuple[np.ndarray, "_MinTree"]:
        sizes = [n]
        while sizes[-1] > 1:
            sizes.append((sizes[-1] + 1) // 2)
        total = int(sum(sizes))
        index = np.int32 if total < 2**31 else np.int64
        offsets = np.concatenate(([0], np.cumsum(sizes)[:-1])).astype(index)
        flat = np.empty(total, dtype=dtype)
        return flat[:n], cls(flat, offsets)

    def build(self) -> None:
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
class _Nodes:
    """Kept suffix-tree nodes (left- and right-maximal repeats), sorted by frequency."""

    first: np.ndarray  # first suffix-array index of the node's interval
    freq: np.ndarray  # number of occurrences f
    depth: np.ndarray  # length of the repeat in bytes
    pos: np.ndarray  # one text position of an occurrence


def _spectrum(
    joined: bytes, seps: np.ndarray, min_keep: int, keep: bool, progress: Progress | None
) -> tuple[np.ndarray, _Nodes | None, np.ndarray | None]:
    """V(f) for all f (index f), the kept nodes, and the document of each suffix-array entry."""
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
    H, tree = _MinTree.allocate(n + 1)
    H[0] = H[n] = -1
    v1 = 0  # substrings occurring once: prefixes of a suffix longer than both its LCPs
    for a in range(0, n, _CHUNK):
        b = min(n, a + _CHUNK)
        pos = sa[a:b]
        doc = doc_of[pos]
        rem = seps[doc] - pos  # bytes from the position to its document's separator
        if doc_sa is not None:
            doc_sa[a:b] = doc
        lo = max(a, 1)
        H[lo:b] = np.minimum(lcp[lo - 1 : b - 1], rem[lo - a :])
    del lcp
    for a in range(0, n, _CHUNK):
        b = min(n, a + _CHUNK)
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
        for a in range(0, n, _CHUNK):
            b = min(n, a + _CHUNK)
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
    for a in range(1, n, _CHUNK):
        b = min(n, a + _CHUNK)
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
        nodes = _Nodes(first_[order], freq[order].astype(np.int64), depth[order].astype(np.int64), pos[order])
    # trim trailing zeros
    nz = np.flatnonzero(counts)
    counts = counts[: (nz[-1] + 1 if len(nz) else 1)]
    return counts, nodes, doc_sa


# -- reference distribution of natural language -------------------------------------------


@dataclass
class Reference:
    """Mean and standard deviation of F'(f) for natural-language text, per frequency f.

    ``f`` lists the left edges of the tabulated frequency bins (every f up to 64,
    then 8 bins per doubling; each entry holds the mean over its bin); a frequency
    takes the bin it falls in, beyond the last edge the last bin.  ``sizes`` gives, per reference row, the text size
    (bytes) the row was measured on; :meth:`row` picks the row of the nearest size
    in log scale.
    """

    f: list[int]
    sizes: list[int]
    mean: list[list[float]]
    sd: list[list[float]]
    meta: dict = field(default_factory=dict)

    def row(self, n_bytes: int) -> int:
        if not self.sizes:
            raise ValueError("empty reference")
        target = math.log(max(n_bytes, 1))
        return min(range(len(self.sizes)), key=lambda i: abs(math.log(self.sizes[i]) - target))

    def threshold(self, alpha: float, n_bytes: int, max_f: int) -> np.ndarray:
        """mean + z_α·sd for f = 0..max_f (index f), at the row nearest ``n_bytes``."""
        if not 0.0 < alpha < 1.0:
            raise ValueError(f"alpha must be between 0 and 1, got {alpha}")
        z = statistics.NormalDist().inv_cdf(1.0 - alpha)
        i = self.row(n_bytes)
        fs = np.asarray(self.f, dtype=np.int64)
        bound = np.asarray(self.mean[i]) + z * np.asarray(self.sd[i])
        # each f takes the entry of the largest tabulated frequency ≤ f
        where = np.searchsorted(fs, np.arange(max_f + 1), side="right") - 1
        out = bound[np.clip(where, 0, len(fs) - 1)]
        out[: fs[0]] = np.inf
        return out

    @classmethod
    def from_json(cls, obj: dict) -> "Reference":
        if not isinstance(obj, dict) or obj.get("format") != "newsstemmer-amplification-reference":
            raise ValueError("not a newsstemmer amplification reference file")
        try:
            ref = cls(
                f=[int(x) for x in obj["f"]],
                sizes=[int(x) for x in obj["sizes"]],
                mean=[[float(x) for x in row] for row in obj["mean"]],
                sd=[[float(x) for x in row] for row in obj["sd"]],
                meta={k: v for k, v in obj.items() if k not in ("f", "sizes", "mean", "sd")},
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"corrupt amplification reference: {exc}") from None
        if (not ref.f or any(len(r) != len(ref.f) for r in ref.mean + ref.sd)
                or len(ref.mean) != len(ref.sizes) or len(ref.sd) != len(ref.sizes)):
            raise ValueError("corrupt amplification reference: rows do not match its frequencies or sizes")
        return ref

    def to_json(self) -> dict:
        out = dict(self.meta)
        out.update(format="newsstemmer-amplification-reference", f=self.f, sizes=self.sizes,
                   mean=self.mean, sd=self.sd)
        return out


@lru_cache(maxsize=4)
def load_reference(path: str | None = None) -> Reference:
    """The reference shipped in ``newsstemmer/data/amplification_reference.json`` (or ``path``)."""
    if path is None:
        text = resources.files("newsstemmer").joinpath("data/amplification_reference.json").read_text("utf-8")
    else:
        text = Path(path).read_text("utf-8")
    return Reference.from_json(json.loads(text))


def normalized(F: np.ndarray) -> np.ndarray:
    """F'(f) = F(f) / Σ_{f≥2} F(f) (index f; 0 at f < 2).

    The sum leaves out f = 1 (substrings occurring once): their total, Σ|d|²/2,
    measures document length, not repetition, and would make F' of a collection
    incomparable with that of a text of another size (choice, beyond the paper).
    """
    F = np.asarray(F, dtype=np.float64)
    out = np.zeros_like(F)
    total = F[2:].sum()
    if total > 0:
        out[2:] = F[2:] / total
    return out


# -- results ------------------------------------------------------------------------------


@dataclass
class TemplatePart:
    """A branching substring occurring a peak number of times."""

    text: str
    length: int  # bytes
    count: int  # occurrences (the peak frequency)
    docs: list[int]  # documents holding it

    def to_json_dict(self) -> dict:
        return {"text": self.text, "length": self.length, "count": self.count, "docs": self.docs}


@dataclass
class Grouping:
    """Documents grouped by shared template parts; each document in at most one group."""

    groups: list[list[int]]
    ungrouped: list[int]
    peaks: list[int]
    examples: list[TemplatePart]
    assignment: list[int]  # group index per document, -1 when ungrouped

    def partition(self, rest: str = "together") -> list[list[int]]:
        """Every document once: the groups, then the ungrouped (one list, or one list each)."""
        out = [list(g) for g in self.groups]
        if self.ungrouped:
            if rest == "together":
                out.append(list(self.ungrouped))
            elif rest == "alone":
                out.extend([i] for i in self.ungrouped)
            else:
                raise ValueError(f"rest must be 'together' or 'alone', got {rest!r}")
        return out


def _links(pset: np.ndarray, pdoc: np.ndarray, weight: np.ndarray, n: int,
           share: float, window: int, rng: np.random.Generator) -> list[tuple[int, int]]:
    """Pairs of documents to unite, from (set, document) memberships and set weights (see ``groups``)."""
    if not len(pset):
        return []
    # order: documents of the same heaviest set together, random within
    order = np.lexsort((-weight[pset], pdoc))
    first = np.ones(len(order), dtype=bool)
    first[1:] = pdoc[order][1:] != pdoc[order][:-1]
    best = np.full(n, -1, dtype=np.int64)
    best[pdoc[order][first]] = pset[order][first]
    rank = np.empty(n, dtype=np.int64)
    rank[np.lexsort((rng.random(n), best))] = np.arange(n)
    # window pairs inside each set, members in rank order
    o = np.lexsort((rank[pdoc], pset))
    ps, pd = pset[o], pdoc[o]
    pa, pb, pw = [], [], []
    for j in range(1, window + 1):
        if j >= len(ps):
            break
        same = ps[j:] == ps[:-j]
        pa.append(pd[:-j][same])
        pb.append(pd[j:][same])
        pw.append(weight[ps[:-j][same]])
    if not pa:
        return []
    a, b, w = np.concatenate(pa), np.concatenate(pb), np.concatenate(pw)
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    pair, inv = np.unique(lo * n + hi, return_inverse=True)
    aff = np.bincount(inv.ravel(), weights=w)
    lo, hi = pair // n, pair % n
    best_aff = np.zeros(n)
    np.maximum.at(best_aff, lo, aff)
    np.maximum.at(best_aff, hi, aff)
    ok = (aff >= share * best_aff[lo]) & (aff >= share * best_aff[hi]) & (aff > 0)
    return list(zip(lo[ok].tolist(), hi[ok].tolist()))


class Amplification:
    """F(f) of a set of documents, computed once; peaks and groups for any boundary.

    ``F[f]`` and ``V[f]`` are numpy int64 arrays indexed by f (index 0 unused).
    """

    def __init__(
        self,
        V: np.ndarray,
        n_docs: int,
        n_bytes: int,
        data: np.ndarray | None = None,
        nodes: _Nodes | None = None,
        doc_sa: np.ndarray | None = None,
        min_length: int = 32,
    ) -> None:
        self.V = V
        self.F = V * np.arange(len(V), dtype=np.int64)
        self.n_docs = n_docs
        self.n_bytes = n_bytes
        self.min_length = min_length
        self._data = data
        self._nodes = nodes
        self._doc_sa = doc_sa
        self._groups_cache: dict[tuple, Grouping] = {}

    @property
    def max_f(self) -> int:
        return len(self.F) - 1

    def G(self) -> np.ndarray:
        """G(f) = F(f) / ((F(f−1) + F(f+1)) / 2), F = 1 where undefined (index f, 0 unused)."""
        Fe = np.where(self.F > 0, self.F, 1).astype(np.float64)
        Fe = np.concatenate((Fe, [1.0]))
        Fe[0] = 1.0
        g = np.zeros(len(self.F))
        g[1:] = Fe[1:-1] / ((Fe[:-2] + Fe[2:]) / 2)
        return g

    def normalized(self) -> np.ndarray:
        """F'(f) (see :func:`normalized`)."""
        return normalized(self.F)

    def peaks(self, delta: float | None = None, alpha: float | None = None,
              reference: Reference | None = None, max_f: int | None = None) -> list[int]:
        """Peak frequencies f ≥ 2 where some substring occurs.

        With ``delta``: G(f) > δ.  With ``alpha``: F'(f) ≥ mean(f) + z_α·sd(f) of the
        natural-language reference (one-sided test at risk α; the automatic boundary).
        Both given: both tests.  Neither: α = ``DEFAULT_ALPHA``.
        """
        if delta is None and alpha is None:
            alpha = DEFAULT_ALPHA
        mask = self.F > 0
        mask[:2] = False
        if delta is not None:
            mask &= self.G() > delta
        if alpha is not None:
            ref = reference or load_reference()
            bound = ref.threshold(alpha, self.n_bytes, self.max_f)
            mask &= self.normalized() >= bound
        if max_f is not None:
            mask[max_f + 1 :] = False
        return [int(f) for f in np.flatnonzero(mask)]

    def _require_nodes(self) -> _Nodes:
        if self._nodes is None or self._doc_sa is None:
            raise ValueError("computed with keep_parts=False: no template parts to report")
        return self._nodes

    def _select(self, peaks: Sequence[int], min_length: int) -> np.ndarray:
        nodes = self._require_nodes()
        pk = np.asarray(sorted(set(peaks)), dtype=np.int64)
        if not len(pk):
            return np.empty(0, np.int64)
        lo = np.searchsorted(nodes.freq, pk, side="left")
        hi = np.searchsorted(nodes.freq, pk, side="right")
        sel = np.concatenate([np.arange(a, b) for a, b in zip(lo, hi)]) if len(pk) else np.empty(0, np.int64)
        sel = sel.astype(np.int64)
        return sel[nodes.depth[sel] >= min_length]

    def _part_docs(self, sel: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(node index, doc) pairs, each distinct pair once, for the selected nodes."""
        nodes = self._nodes
        assert nodes is not None and self._doc_sa is not None
        freq = nodes.freq[sel]
        total = int(freq.sum())
        if not total:
            return np.empty(0, np.int64), np.empty(0, np.int64)
        which = np.repeat(np.arange(len(sel), dtype=np.int64), freq)
        starts = np.repeat(nodes.first[sel] - np.concatenate(([0], np.cumsum(freq)[:-1])), freq)
        docs = self._doc_sa[starts + np.arange(total, dtype=np.int64)].astype(np.int64)
        key = np.unique(which * self.n_docs + docs)
        return key // self.n_docs, key % self.n_docs

    def _sets(self, sel: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The document sets of the selected parts: (set, doc) memberships and each set's weight.

        Parts with the same occurrences per document (compared by two 64-bit hashes
        of the documents of their occurrences, summed in one pass over them) form one
        set, weighing the sum of their lengths; members are listed for one part per
        set only, and sets of fewer than two documents are dropped.
        """
        nodes = self._nodes
        assert nodes is not None and self._doc_sa is not None
        empty = np.empty(0, np.int64)
        if not len(sel):
            return empty, empty, np.empty(0)
        ids = rng.integers(1, 2**63 - 1, size=self.n_docs, dtype=np.int64).view(np.uint64)
        freq, first = nodes.freq[sel], nodes.first[sel]
        hsum = np.empty(len(sel), dtype=np.uint64)
        hxor = np.empty(len(sel), dtype=np.uint64)
        # batches of about _CHUNK occurrences: the sums are linear in the occurrences
        ends = np.cumsum(freq)
        a = 0
        while a < len(sel):
            b = max(a + 1, int(np.searchsorted(ends, (ends[a - 1] if a else 0) + _CHUNK, side="right")))
            f, st = freq[a:b], np.concatenate(([0], np.cumsum(freq[a:b])[:-1]))
            idx = np.repeat(first[a:b] - st, f) + np.arange(int(f.sum()), dtype=np.int64)
            h = ids[self._doc_sa[idx]]
            hsum[a:b] = np.add.reduceat(h, st)
            hxor[a:b] = np.bitwise_xor.reduceat(h, st)
            a = b
        sig = np.stack((hsum, hxor, freq.astype(np.uint64)), axis=1)
        uniq, set_of = np.unique(sig, axis=0, return_inverse=True)
        set_of = set_of.ravel()
        weight = np.bincount(set_of, weights=nodes.depth[sel].astype(np.float64), minlength=len(uniq))
        rep = np.empty(len(uniq), dtype=np.int64)
        rep[set_of[::-1]] = np.arange(len(sel))[::-1]
        which, docs = self._part_docs(sel[rep])
        pset = which  # rep i stands for set i
        size = np.bincount(pset, minlength=len(uniq))
        keep = size[pset] >= 2
        return pset[keep], docs[keep], weight

    def _text(self, pos: int, length: int) -> str:
        if self._data is None:
            return ""
        return self._data[pos : pos + length].tobytes().decode("utf-8", "replace")

    def parts(self, delta: float | None = None, alpha: float | None = None,
              min_length: int | None = None, limit: int | None = 10) -> list[TemplatePart]:
        """Template parts (maximal repeats occurring a peak number of times), longest first."""
        peaks = self.peaks(delta, alpha)
        sel = self._select(peaks, self.min_length if min_length is None else min_length)
        nodes = self._require_nodes()
        order = sel[np.argsort(-nodes.depth[sel], kind="stable")]
        if limit is not None:
            order = order[:limit]
        which, docs = self._part_docs(order)
        out = []
        for i, node in enumerate(order):
            d = docs[which == i]
            out.append(TemplatePart(self._text(int(nodes.pos[node]), int(nodes.depth[node])),
                                    int(nodes.depth[node]), int(nodes.freq[node]), [int(x) for x in d]))
        return out

    def groups(self, delta: float | None = None, alpha: float | None = None,
               min_length: int | None = None, share: float = DEFAULT_SHARE,
               window: int = 8, examples: int = 5) -> Grouping:
        """Group the documents by the template parts they share.

        Each template part (maximal repeat of at least ``min_length`` bytes occurring
        a peak number f ≤ number of documents of times) has a set of documents; parts with the same set add
        up their lengths (the set's weight).  The affinity of two documents is the
        weight of the sets holding both: the template bytes they share.  Two
        documents are linked when their affinity is at least ``share`` of the best
        affinity of each of them (near-best on both sides), and linked documents
        are merged with union-find.  So a snippet common to many sites (an archive
        toolbar, an analytics script) does not merge sites whose own templates weigh
        more, and a document whose only shared part is such a snippet stays apart
        unless its partner, too, has nothing better.

        Linear: affinities are summed only over pairs of documents at most
        ``window`` apart in each set, in one order that keeps the documents of a
        heaviest set together (so nested sets give the same pairs).
        """
        peaks = self.peaks(delta, alpha)
        min_len = self.min_length if min_length is None else min_length
        key = (tuple(peaks), min_len, share, window, examples)
        if key in self._groups_cache:
            return self._groups_cache[key]
        self._require_nodes()
        n = self.n_docs
        rng = np.random.default_rng(12345)  # fixed: the same input gives the same groups
        # Parts occurring more often than there are documents repeat inside pages
        # (list items, generic markup): they tell nothing a group's other parts do not.
        sel = self._select([f for f in peaks if f <= n], min_len)
        pset, pdoc, weight = self._sets(sel, rng)
        parent = list(range(n))

        def find(a: int) -> int:
            while parent[a] != a:
                parent[a] = parent[parent[a]]
                a = parent[a]
            return a

        for a, b in _links(pset, pdoc, weight, n, share, window, rng):
            ra, rb = find(a), find(b)
            if ra != rb:
                parent[ra] = rb
        comps: dict[int, list[int]] = {}
        for d in range(n):
            comps.setdefault(find(d), []).append(d)
        groups = sorted((c for c in comps.values() if len(c) >= 2), key=lambda c: (-len(c), c[0]))
        assignment = [-1] * n
        for gi, g in enumerate(groups):
            for d in g:
                assignment[d] = gi
        ungrouped = [d for d in range(n) if assignment[d] < 0]
        ex = self.parts(delta, alpha, min_len, limit=examples) if examples else []
        result = Grouping(groups, ungrouped, peaks, ex, assignment)
        self._groups_cache[key] = result
        return result


def amplify(
    texts: Sequence[str | bytes],
    *,
    min_length: int = 32,
    keep_parts: bool = True,
    progress: Progress | None = None,
) -> Amplification:
    """Compute F(f) = f·V(f) over ``texts`` (suffix array + LCP array, linear time).

    ``min_length`` (bytes) is the shortest template part kept for grouping and
    reporting.  With ``keep_parts=False`` only the spectrum is kept (less memory:
    no groups or parts can be asked for).
    """
    if not texts:
        return Amplification(np.zeros(2, np.int64), 0, 0, min_length=min_length)
    joined, seps = _encode(texts)
    V, nodes, doc_sa = _spectrum(joined, seps, min_length, keep_parts, progress)
    return Amplification(
        V,
        len(texts),
        len(joined) - len(seps),
        np.frombuffer(joined, dtype=np.uint8) if keep_parts else None,
        nodes,
        doc_sa,
        min_length=min_length,
    )


# -- tag skeleton -------------------------------------------------------------------------

_SKIP_RE = re.compile(
    r"<!--.*?(?:-->|\Z)|<(script|style|textarea|noscript)\b[^>]*>.*?(?:</\1\s*>|\Z)|<!\[CDATA\[.*?(?:\]\]>|\Z)",
    re.IGNORECASE | re.DOTALL,
)
_TAG_RE = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9:_-]*)([^>]*)>(~?)")
_KEY_ATTR_RE = re.compile(
    r"""\b(id|class|name|property|role|src|href|action)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+))""", re.IGNORECASE
)
#: Tags whose src/href/action are kept: the resources a template loads, not the links an article makes.
_RESOURCE_TAGS = frozenset(("script", "link", "img", "iframe", "form", "embed", "frame", "input"))
_DIGITS_RE = re.compile(r"\d+")
_SPACE_RE = re.compile(r"\s+")
_TEXT_RE = re.compile(r">[^<]*[^\s<][^<]*<")
#: Text-level tags: how often an article uses them is content, not template (kept with id/class).
_INLINE_TAGS = frozenset(
    "a b i u em strong font span br small big sup sub abbr cite code q s strike tt wbr nobr mark".split()
)


def skeleton(html: str) -> str:
    """The page reduced to its tag sequence: ``<tag id=.. class=..>`` / ``</tag>``, ``~`` for text.

    Only ``id``, ``class``, ``name``, ``property`` and ``role`` are kept, plus the
    address (without query) of the resources a template loads (scripts, styles,
    images, frames, forms); digits become ``0`` (per-article ids, dates); the
    contents of scripts, styles and comments are dropped (their tags stay), and
    so are text-level tags (``a``, ``b``, ``span``…) without id or class.  Far
    shorter than the HTML, and what a template fixes, whatever the article says.
    """

    def keep_tag(m: re.Match) -> str:
        tag = m.group(1)
        return f"<{tag.lower()}></{tag.lower()}>" if tag else ""

    text = _TEXT_RE.sub(">~<", _SKIP_RE.sub(keep_tag, html))
    out: list[str] = []
    append = out.append
    seen: dict[str, str] = {}  # templates repeat their tags: each distinct tag is worked out once
    for m in _TAG_RE.finditer(text):
        raw = m.group(0)
        token = seen.get(raw)
        if token is None:
            token = seen[raw] = _tag_token(*m.groups())
        append(token)
    return "".join(out)


def _tag_token(slash: str, name: str, attrs: str, text_after: str) -> str:
    name = name.lower()
    if slash:
        token = "" if name in _INLINE_TAGS else f"</{name}>"
    elif attrs and "=" in attrs:
        keys = []
        for a in _KEY_ATTR_RE.finditer(attrs):
            attr = a.group(1).lower()
            resource = attr in ("src", "href", "action")
            if resource and name not in _RESOURCE_TAGS:
                continue
            value = a.group(2) if a.group(2) is not None else a.group(3) if a.group(3) is not None else a.group(4)
            if resource:
                value = value.split("?", 1)[0]
            value = _DIGITS_RE.sub("0", _SPACE_RE.sub(" ", value.strip()))
            if value:
                keys.append(f" {attr}={value}")
        token = f"<{name}{''.join(keys)}>" if keys or name not in _INLINE_TAGS else ""
    else:
        token = "" if name in _INLINE_TAGS else f"<{name}>"
    return token + text_after


# -- pre-grouping for learning ------------------------------------------------------------


def pregroup(
    texts: Sequence[str],
    *,
    use_skeleton: bool = True,
    delta: float | None = None,
    alpha: float | None = None,
    min_length: int = 32,
    max_chars: int | None = 8192,
    rest: str = "together",
    progress: Progress | None = None,
) -> list[list[int]]:
    """Partition pages by template (every index once), for learning within each part.

    Pages whose tag skeleton (or HTML, ``use_skeleton=False``) shares template parts
    form a group (peaks by the automatic boundary unless ``delta``/``alpha`` say otherwise); the ungrouped pages come last, together (``rest="together"``,
    so learning still sees them as one set) or one list each (``"alone"``).
    A skeleton longer than ``max_chars`` keeps its first and last ``max_chars / 2``
    characters: a template's header and footer are there, and pages of any length
    then cost the same (on the dev sets, 8192 groups as well as whole skeletons;
    4096 no longer does).  Linear in the number of pages.
    """
    if not texts:
        return []
    docs = [skeleton(t) for t in texts] if use_skeleton else list(texts)
    if max_chars is not None:
        half = max_chars // 2
        docs = [d if len(d) <= max_chars else d[:half] + d[-half:] for d in docs]
    amp = amplify(docs, min_length=min_length, progress=progress)
    return amp.groups(delta=delta, alpha=alpha, examples=0).partition(rest)
