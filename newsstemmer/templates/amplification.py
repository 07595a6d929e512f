"""Substring amplification (SPEC §3): find the pages that share a template, in linear time.

Every substring of a long string shared by k pages occurs k times, so the total
number of occurrences of substrings occurring exactly f times, F(f) = f·V(f),
spikes at f = k, while the substrings of natural-language content give a smooth,
fast-falling F(f).  The frequencies where F stands out (peaks) name the template
parts: the branching substrings occurring exactly that often; the pages holding
them form a group.

::

    from newsstemmer.templates import amplify, pregroup
    amp = amplify(pages_html)                 # suffix array + LCP: computes F(f) once
    amp.F, amp.G()                            # numpy arrays indexed by f
    amp.peaks(delta=1.5); amp.peaks(alpha=0.001)
    grouping = amp.groups(delta=1.5)          # any δ or α, no recomputation
    grouping.groups, grouping.ungrouped, grouping.examples
    pregroup(pages_html)                      # partition for learning (tag skeletons)

How V(f) is computed: see :mod:`.spectrum`.  Peaks: G(f) > δ (the paper's
test), or the automatic boundary: F'(f) above the natural-language reference
(:mod:`.reference`) at risk α, the default.  Groups: see
:meth:`Amplification.groups`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .reference import Reference, load_reference, normalized
from .skeletons import skeleton
from .spectrum import CHUNK, Progress, SuffixNodes, encode, spectrum

__all__ = [
    "DEFAULT_ALPHA",
    "DEFAULT_DELTA",
    "DEFAULT_SHARE",
    "Amplification",
    "Grouping",
    "TemplatePart",
    "amplify",
    "pregroup",
]

#: Peak boundary δ on G(f) suggested when a fixed δ is wanted (choice: dev sets, benchmarks/amplification.py).
DEFAULT_DELTA = 1.5
#: Two documents are linked when their shared template weight is this share of the best of each.
DEFAULT_SHARE = 0.5
#: Risk of the automatic boundary, the default way to find peaks.
DEFAULT_ALPHA = 0.001


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
        nodes: SuffixNodes | None = None,
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

    def _require_nodes(self) -> SuffixNodes:
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
        # batches of about CHUNK occurrences: the sums are linear in the occurrences
        ends = np.cumsum(freq)
        a = 0
        while a < len(sel):
            b = max(a + 1, int(np.searchsorted(ends, (ends[a - 1] if a else 0) + CHUNK, side="right")))
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
    joined, seps = encode(texts)
    V, nodes, doc_sa = spectrum(joined, seps, min_length, keep_parts, progress)
    return Amplification(
        V,
        len(texts),
        len(joined) - len(seps),
        np.frombuffer(joined, dtype=np.uint8) if keep_parts else None,
        nodes,
        doc_sa,
        min_length=min_length,
    )


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