"""Text-overlap metrics for comparing extracted article text with a gold text.

The main metric follows the dataset README: tokens are the ``\\w+`` matches
(Unicode, case kept), shingles are 4-token windows (a text of 1-3 tokens is
one shingle), and per page precision and recall are computed over shingle
multisets.  Over a set of pages, P is the mean page precision over non-empty
predictions, R the mean page recall (an empty prediction counts as 0), and
F1 = 2PR/(P+R).

BLEU-4 and ROUGE-2 are reported alongside as secondary measures.

A prediction is *empty* when it contains no ``\\w+`` token at all (so a
whitespace- or punctuation-only prediction is empty too).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass

__all__ = [
    "PageScore",
    "Score",
    "aggregate",
    "author_f1",
    "author_names",
    "bleu4",
    "evaluate",
    "ngrams",
    "normalise_title",
    "rouge2",
    "same_day",
    "score_page",
    "shingle_prf",
    "shingles",
    "tokens",
]

_TOKEN_RE = re.compile(r"\w+")

#: Epsilon of the "method1" BLEU smoothing (Chen & Cherry 2014).
BLEU_EPSILON = 0.1


def tokens(text: str) -> list[str]:
    """Return the ``\\w+`` matches of ``text`` (Unicode-aware, case kept)."""
    return _TOKEN_RE.findall(text)


def ngrams(toks: Sequence[str], n: int) -> Counter[tuple[str, ...]]:
    """Return the multiset of contiguous ``n``-token windows of ``toks``."""
    if n < 1:
        raise ValueError("n must be >= 1")
    return Counter(tuple(toks[i : i + n]) for i in range(len(toks) - n + 1))


def shingles(toks: Sequence[str], n: int = 4) -> Counter[tuple[str, ...]]:
    """Return the multiset of ``n``-token shingles of ``toks``.

    A sequence with 1 to ``n - 1`` tokens is a single shingle (the whole
    token tuple); an empty sequence gives an empty Counter.
    """
    if not toks:
        return Counter()
    if len(toks) < n:
        return Counter([tuple(toks)])
    return ngrams(toks, n)


def _overlap(a: Counter[tuple[str, ...]], b: Counter[tuple[str, ...]]) -> int:
    """Size of the multiset intersection (each item clipped to its min count)."""
    return sum((a & b).values())


def shingle_prf(predicted: str, gold: str) -> tuple[float | None, float]:
    """Return the page (precision, recall) over 4-token shingle multisets.

    An empty prediction gives ``(None, 0.0)`` so that callers can leave it
    out of the mean precision while counting it as 0 in the mean recall.
    If the gold text has no tokens, recall is vacuously 1.0 (and precision of
    a non-empty prediction is 0.0).
    """
    pred = shingles(tokens(predicted))
    if not pred:
        return None, 0.0
    ref = shingles(tokens(gold))
    common = _overlap(pred, ref)
    precision = common / sum(pred.values())
    recall = common / sum(ref.values()) if ref else 1.0
    return precision, recall


def bleu4(predicted: str, gold: str) -> float:
    """Return BLEU-4 of ``predicted`` against ``gold`` without brevity penalty.

    The score is the geometric mean of the clipped (modified) n-gram
    precisions for n = 1..4 over ``\\w+`` tokens.  The brevity penalty is fixed
    to 1, so this is a pure precision measure.

    Choices:

    * Smoothing is Chen & Cherry's "method1": an order with zero matching
      n-grams gets precision ``0.1 / (number of predicted n-grams)`` instead
      of 0, so that missing 4-grams alone do not zero a partly correct text.
    * If not even one unigram matches, the score is 0.0 (nothing to smooth).
    * A prediction shorter than 4 tokens is scored on the orders it has
      (n = 1..len), mirroring the "short text is one shingle" rule; an empty
      prediction scores 0.0.
    """
    pred = tokens(predicted)
    if not pred:
        return 0.0
    ref = tokens(gold)
    log_sum = 0.0
    orders = min(4, len(pred))
    for n in range(1, orders + 1):
        pred_ngrams = ngrams(pred, n)
        total = sum(pred_ngrams.values())
        matched = _overlap(pred_ngrams, ngrams(ref, n))
        if matched == 0:
            if n == 1:
                return 0.0
            precision = BLEU_EPSILON / total
        else:
            precision = matched / total
        log_sum += math.log(precision)
    return math.exp(log_sum / orders)


def rouge2(predicted: str, gold: str) -> float:
    """Return ROUGE-2 recall: clipped bigram overlap / number of gold bigrams.

    Returns 0.0 when the gold text has fewer than two tokens.
    """
    ref = ngrams(tokens(gold), 2)
    if not ref:
        return 0.0
    return _overlap(ngrams(tokens(predicted), 2), ref) / sum(ref.values())


@dataclass(frozen=True)
class PageScore:
    """Scores of one page; ``precision`` is None for an empty prediction."""

    precision: float | None
    recall: float
    bleu4: float
    rouge2: float

    @property
    def empty(self) -> bool:
        """True when the prediction had no tokens."""
        return self.precision is None


def score_page(predicted: str, gold: str) -> PageScore:
    """Compute all page-level scores of ``predicted`` against ``gold``."""
    precision, recall = shingle_prf(predicted, gold)
    return PageScore(
        precision=precision,
        recall=recall,
        bleu4=bleu4(predicted, gold),
        rouge2=rouge2(predicted, gold),
    )


@dataclass(frozen=True)
class Score:
    """Corpus-level scores (see the module docstring for the definitions)."""

    precision: float
    recall: float
    f1: float
    bleu4: float
    rouge2: float
    pages: int
    empty: int

    def as_dict(self) -> dict[str, float | int]:
        """Return the fields as a plain dict."""
        return asdict(self)


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def evaluate(pairs: Iterable[tuple[str, str]]) -> Score:
    """Score ``(predicted, gold)`` pairs, one per page, into a :class:`Score`.

    P is the mean precision over pages with a non-empty prediction (0.0 if
    there are none), R the mean recall over all pages, F1 = 2PR/(P+R) (0.0
    when P+R is 0); BLEU-4 and ROUGE-2 are means over all pages.
    """
    page_scores = [score_page(predicted, gold) for predicted, gold in pairs]
    precisions = [s.precision for s in page_scores if s.precision is not None]
    p = _mean(precisions)
    r = _mean([s.recall for s in page_scores])
    f1 = 2 * p * r / (p + r) if p + r > 0 else 0.0
    return Score(
        precision=p,
        recall=r,
        f1=f1,
        bleu4=_mean([s.bleu4 for s in page_scores]),
        rouge2=_mean([s.rouge2 for s in page_scores]),
        pages=len(page_scores),
        empty=len(page_scores) - len(precisions),
    )


def aggregate(pairs: Iterable[tuple[str, str]]) -> dict[str, float | int]:
    """Score ``(predicted, gold)`` pairs and return the result as a dict.

    Keys: ``precision``, ``recall``, ``f1``, ``bleu4``, ``rouge2``, ``pages``,
    ``empty``.
    """
    return evaluate(pairs).as_dict()


# --- metadata (scored as ../shared/datasets/PEERS.md says) ---------------------------

_NON_WORD = re.compile(r"[\W_]+")
_NAME_SPLIT = re.compile(r"\s*(?:[;,&]|\band\b|\bund\b|\by\b)\s*", re.IGNORECASE)
_NAME_LEAD = re.compile(r"^(?:by|von|por|par|av|door|di)\s+", re.IGNORECASE)


def normalise_title(text: str | None) -> str:
    """A title for exact comparison: NFKC, case-folded, runs of non-word characters as one space."""
    import unicodedata

    return _NON_WORD.sub(" ", unicodedata.normalize("NFKC", text or "").casefold()).strip()


def same_day(predicted: str | None, gold: str | None) -> bool:
    """Whether two dates name the same calendar day (their first 10 characters)."""
    return bool(predicted and gold and predicted.strip()[:10] == gold.strip()[:10])


def author_names(values: Iterable[str] | str | None) -> set[str]:
    """Normalised author names: strings split on ; , & and/und/y, a leading "by"... dropped."""
    if values is None:
        return set()
    if isinstance(values, str):
        values = [values]
    out = set()
    for value in values:
        for part in _NAME_SPLIT.split(value or ""):
            name = normalise_title(_NAME_LEAD.sub("", part.strip()))
            if name:
                out.add(name)
    return out


def author_f1(predicted: Iterable[str] | str | None, gold: Iterable[str] | str | None) -> float:
    """F1 between the sets of normalised names (1.0 when both are empty)."""
    p, g = author_names(predicted), author_names(gold)
    if not p and not g:
        return 1.0
    if not p or not g:
        return 0.0
    hit = len(p & g)
    return 2 * hit / (len(p) + len(g))
