"""Features of the CRF's two block sequences (SPEC §5).

A block's features are the names of its active (1.0) attributes: its tag, its
place in the block tree and the page, role hints, amounts of text and links,
punctuation, keywords, dates, and its place relative to the main block that
PageRank + DensitySum finds on the block tree (:mod:`.blockrank`).  The names
are made once per bucket and looked up: building strings per block is a hot spot.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from .blockrank import main_region
from .placement import regions
from .segmentation import CRFBlock, CRFPage
from .words import EDGES, SHORT, TIME, TOKEN, keywords

__all__ = ["FEATURE_VERSION", "block_features"]

#: Changes whenever the features change: a model only fits the features it was trained on.
FEATURE_VERSION = 2


def _names(prefix: str, n: int) -> tuple[str, ...]:
    return tuple(f"{prefix}={i}" for i in range(n))


# Feature names per bucket, made once (formatting them per block is a hot spot).
_POS, _PUR = _names("pos", 10), _names("pur", 11)
_SW, _W, _NW, _WPL = _names("sw", 15), _names("w", 15), _names("nw", 15), _names("wpl", 15)
_SWR, _SLD, _WR, _WSUB, _LD, _HW = (_names(p, 11) for p in ("swr", "sld", "wr", "wsub", "ld", "hw"))
_DIG, _KWD, _PSW, _PSLD = (_names(p, 11) for p in ("dig", "kwd", "psw", "psld"))
_COUNT_BUCKETS = ("0", "1", "2", "3-4", "3-4", "5-9", "5-9", "5-9", "5-9", "5-9")


def _log_bucket(n: float) -> int:
    """0, 1, 2-3, 4-7, ... as 0, 1, 2, 3, ... (capped at 14)."""
    return min(14, int(n).bit_length()) if n > 0 else 0


_SHARE_INNER = (1, 1, 2, 3, 4, 5, 6, 7, 8, 9)  # int(10x) -> bucket, for 0 < x < 1


def _share_bucket(x: float) -> int:
    """A share in [0, 1] as 0..10 (0 only for exactly 0, 10 only for 1)."""
    if x <= 0:
        return 0
    if x >= 1:
        return 10
    return _SHARE_INNER[int(x * 10)]


def _count_names(prefix: str) -> tuple[str, ...]:
    """``prefix=bucket`` for counts 0..9 and, at index 10, for 10 and more:
    ``names[n if n < 10 else 10]`` is ``prefix + "=" + _count_bucket(n)`` for n ≥ 0."""
    return tuple(f"{prefix}={_count_bucket(n)}" for n in range(11))


def _count_bucket(n: int) -> str:
    """0, 1, 2, 3-4, 5-9, 10+."""
    if n <= 0:
        return "0"
    return _COUNT_BUCKETS[n] if n < 10 else "10+"


_NCH, _STB, _SA, _SLI, _SP, _PU, _SE, _NL, _PSTB = (
    _count_names(p) for p in ("nch", "stb", "sa", "sli", "sp", "pu", "se", "nl", "pstb")
)


_KWN, _TM = _count_names("kwn"), _count_names("tm")

# Feature strings made once and looked up (string building per block is a hot spot).
_TAG_NAMES: dict[str, tuple[str, str]] = {}  # tag -> ("tag=t", "ptag=t")
_CONTEXT_NAMES: dict[tuple[Any, ...], tuple[str, ...]] = {}  # (hints, ctx hints, ctx tags) -> h=, ch=, in=
_COUNTED_NAMES: dict[str, tuple[str, ...]] = {}  # element -> "n<element>=<bucket>" by count (as _count_names)
_KW_NAMES: dict[str, str] = {}  # keyword feature name -> "kw=name"
_END_NAMES: dict[str, str] = {}  # last character of the text -> "end=..."


def _tag_names(tag: str) -> tuple[str, str]:
    found = _TAG_NAMES.get(tag)
    if found is None:
        if len(_TAG_NAMES) > 1_000:
            _TAG_NAMES.clear()
        found = _TAG_NAMES[tag] = ("tag=" + tag, "ptag=" + tag)
    return found


def _context_names(b: CRFBlock) -> tuple[str, ...]:
    """The block's hint and context features (memoised: blocks of a page share their context)."""
    key = (b.hints, b.context_hints, b.context_tags)
    found = _CONTEXT_NAMES.get(key)
    if found is None:
        if len(_CONTEXT_NAMES) > 20_000:
            _CONTEXT_NAMES.clear()
        # (context in sorted order: the order features first appear in fixes crfsuite's
        # attribute numbering, so set order, which changes with the hash seed, would change the model)
        found = _CONTEXT_NAMES[key] = (
            *("h=" + h for h in b.hints),
            *("ch=" + h for h in sorted(b.context_hints)),
            *("in=" + t for t in sorted(b.context_tags)),
        )
    return found


def _counted_names(name: str) -> tuple[str, ...]:
    found = _COUNTED_NAMES.get(name)
    if found is None:
        found = _COUNTED_NAMES[name] = _count_names("n" + name)
    return found


def _end_name(last: str) -> str:
    found = _END_NAMES.get(last)
    if found is None:
        if len(_END_NAMES) > 10_000:
            _END_NAMES.clear()
        found = _END_NAMES[last] = "end=" + (last if last in ".!?:;,)\"" else "w" if last.isalnum() else "o")
    return found


def _common_features(b: CRFBlock, blocks: list[CRFBlock], total: int) -> list[str]:
    """Features every block has: tag, place in the tree and the page, hints, subtree text.

    A block's features are the names of its active (1.0) attributes.
    """
    sub = b.sub_weight
    tag = _TAG_NAMES.get(b.tag) or _tag_names(b.tag)
    if b.parent >= 0:
        ptag = _TAG_NAMES.get(t := blocks[b.parent].tag) or _tag_names(t)
        ptag = ptag[1]
    else:
        ptag = "ptag=-"
    # (the buckets inlined: _log_bucket(sub) and _share_bucket(x))
    x = sub / total
    y = b.sub_anchor_weight / sub if sub else 0.0
    f = [
        "bias",
        tag[0],
        ptag,
        _POS[min(9, 10 * b.start // total)],
        _SW[min(14, sub.bit_length()) if sub > 0 else 0],
        _SWR[0 if x <= 0 else 10 if x >= 1 else _SHARE_INNER[int(x * 10)]],
        _SLD[0 if y <= 0 else 10 if y >= 1 else _SHARE_INNER[int(y * 10)]],
        _NCH[nch if (nch := len(b.children)) < 10 else 10],
        _STB[n if (n := b.sub_text_blocks) < 10 else 10],
        _SA[n if (n := b.sub_links) < 10 else 10],
        _SLI[n if (n := b.sub_items) < 10 else 10],
        _SP[n if (n := b.sub_paragraphs) < 10 else 10],
    ]
    if b.hints or b.context_hints or b.context_tags:
        f += _context_names(b)
    if b.table is not None:
        row, col, rows, cols = b.table
        f += ("trow=" + _count_bucket(row), "tcol=" + _count_bucket(col),
              "trows=" + _count_bucket(rows), "tcols=" + _count_bucket(cols))
    return f


#: Punctuation, counted per block.
_PUNCT_CHARS = ",.;:!?\u3001\u3002\uff0c\uff0e\uff01\uff1f\u060c"
_HAS_DIGIT = re.compile(r"\d")


def _text_features(
    b: CRFBlock, blocks: list[CRFBlock], total: int, title_words: Sequence[set[str]]
) -> tuple[list[str], float, set[str]]:
    """Features of a block's own text (amount, punctuation, links, keywords, dates),
    its likeness to the headline signals, and its words (of its edges if long)."""
    text = b.text
    low = text.lower()
    w = b.weight
    nlines = len(b.segments)
    words = low.count(" ") + nlines
    if text.isascii():  # (bytes.translate is several times faster)
        raw = text.encode("ascii")
        punct = len(raw) - len(raw.translate(None, b",.;:!?"))
        digits = len(raw) - len(raw.translate(None, b"0123456789"))
    else:  # (what str.translate would delete, counted: much faster than translating)
        count = text.count
        punct = sum(map(count, _PUNCT_CHARS))
        digits = sum(map(count, "0123456789"))
    ends = low.count(". ") + low.count(".\n") + low.count("? ") + low.count("! ") + low.count("\u3002") + (text[-1] in ".!?")
    f = _common_features(b, blocks, total)
    # (the buckets inlined: _log_bucket and _share_bucket)
    x1 = w / total
    x2 = w / b.sub_weight
    x3 = b.anchor_weight / w
    x4 = b.heading_weight / w
    wpl = int(words / nlines)
    f += (
        _W[min(14, w.bit_length())],
        _WR[0 if x1 <= 0 else 10 if x1 >= 1 else _SHARE_INNER[int(x1 * 10)]],
        _WSUB[0 if x2 <= 0 else 10 if x2 >= 1 else _SHARE_INNER[int(x2 * 10)]],
        _LD[0 if x3 <= 0 else 10 if x3 >= 1 else _SHARE_INNER[int(x3 * 10)]],
        _HW[0 if x4 <= 0 else 10 if x4 >= 1 else _SHARE_INNER[int(x4 * 10)]],
        _PU[punct if punct < 10 else 10],
        _PUR[min(10, 20 * punct // words)],
        _SE[ends if ends < 10 else 10],
        _NL[nlines - 1 if nlines < 11 else 10],
        _NW[min(14, words.bit_length()) if words > 0 else 0],
        _WPL[min(14, wpl.bit_length()) if wpl > 0 else 0],
        _END_NAMES.get(last := text[-1]) or _end_name(last),
    )
    append = f.append
    if text[0].isupper():
        append("cap")
    searched = low if w <= SHORT else low[:EDGES] + "\n" + low[-EDGES:]
    if digits:
        append(_DIG[_share_bucket(digits / w)])
        if searched is low or _HAS_DIGIT.search(searched):  # (every date has a digit)
            times = len(TIME.findall(searched))
            if times:
                append(_TM[times if times < 10 else 10])
    tokens = TOKEN.findall(searched)
    ws = set(tokens)
    nkw, kws = keywords(tokens, ws, searched)
    if nkw:
        append(_KWN[nkw if nkw < 10 else 10])
        append(_KWD[_share_bucket(min(1.0, 10 * nkw / words))])
        for k in sorted(kws):
            append(_KW_NAMES.get(k) or _KW_NAMES.setdefault(k, "kw=" + k))
    for name, n in b.counts.items():
        append((_COUNTED_NAMES.get(name) or _counted_names(name))[n if n < 10 else 10])
    sim = 0.0  # (the best Dice coefficient with a headline signal)
    if title_words and w <= SHORT and ws:
        n = len(ws)
        for t in title_words:
            x = 2 * len(ws & t) / (n + len(t))
            if x > sim:
                sim = x
    return f, sim, ws



_PR_NAMES = {w: "pr=" + w for w in ("is", "in", "above", "out")}


def block_features(page: CRFPage) -> tuple[list[list[str]], list[list[str]]]:
    """Features of the text-block sequence and of the parent-block sequence (SPEC §5).

    Beyond the document's list (tag, keywords, amounts of text, punctuation,
    dates, links, table position), measured on the training sites: the role
    hints of ``id``/``class`` values, the block's place relative to the
    headline, and the amount and link density of the text around it (its
    parent block's subtree).  And, measured on the evaluation sets
    (``benchmarks/crf_eval.py``; feature set 2): the block's place (``pr=`` is,
    in, above or out) relative to the main block of PageRank + DensitySum on the
    block tree (:func:`main_region`; dragnet single pages F1 +0.9 point).  Left
    out as they lost F1 there: buckets of the DOM and block depth and of the
    text's likeness to the title (fitted to the training sites), the
    paragraph-text core of feature set 1 (no gain once ``pr=`` is there).
    """
    blocks = page.blocks
    total = page.total_weight or 1
    refs = {t for t in (page.meta_title, page.title, *page.h1) if t}
    title_words = [ws for ws in (set(TOKEN.findall(t.lower())) for t in refs) if ws]
    text_seq: list[list[str]] = []
    block_words: dict[int, set[str]] = {}
    best, best_score = -1, 0.0  # the headline: first block most like the title signals
    for k, i in enumerate(page.text_blocks):
        b = blocks[i]
        f, sim, words = _text_features(b, blocks, total, title_words)
        block_words[i] = words
        score = 1.0 if sim >= 1.0 else 0.5 if sim >= 0.8 else 0.0
        if score > best_score:
            best, best_score = k, score
        p = blocks[b.parent] if b.parent >= 0 else None
        if p is not None:
            f += (
                _PSW[_share_bucket(p.sub_weight / total)],
                _PSLD[_share_bucket(p.sub_anchor_weight / p.sub_weight)],
                _PSTB[n if (n := p.sub_text_blocks) < 10 else 10],
            )
        text_seq.append(f)
    parent_seq = [_common_features(blocks[i], blocks, total) for i in page.parent_blocks]
    if best >= 0:
        for k, f in enumerate(text_seq):
            f.append("hl=before" if k < best else "hl=at" if k == best else "hl=after")
    main, page.pagerank_core = main_region(
        page, page.text_blocks[best] if best >= 0 and best_score >= 1.0 else -1, block_words
    )
    pr = regions(page, main)
    if pr is not None:
        names = [_PR_NAMES[w] for w in pr]
        for ids, seq in ((page.text_blocks, text_seq), (page.parent_blocks, parent_seq)):
            for i, f in zip(ids, seq):
                f.append(names[i])
    return text_seq, parent_seq
