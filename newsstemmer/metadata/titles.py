"""A learned choice among the titles a page gives for itself.

The rules (:func:`.fields.rules_title`) take the headline ``<h1>`` where one agrees with
the page's own titles.  Pages often offer more: a JSON-LD headline, ``og:title``,
``twitter:title``, ``<title>`` (:func:`.fields.title_candidates`).  Each distinct text
(normalised as the benchmarks compare titles) becomes one row of :data:`FEATURES` (which
sources give it, how many, whether the rules chose it, its length, how it stands to the
``<h1>``, separators, the site's own words: no feature reads a language's words), and the
shipped model (``titles.json``, ``training/train_titles.py``) scores each.  The best one
replaces the rules' choice only where its score beats the rules' by more than
:data:`MARGIN` (the margin chosen by site-grouped CV).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from .neighbourhood import dice

__all__ = ["FEATURES", "MARGIN", "TITLE_KINDS", "choose_title", "normalised", "preferred", "structured", "title_rows"]

#: what each title candidate is, in the order they are read (:func:`.fields.title_candidates`)
TITLE_KINDS = ("h1", "h1-first", "ld", "og", "twitter", "title", "og-raw", "title-raw")
FEATURES: tuple[str, ...] = (
    *(f"from_{k}" for k in TITLE_KINDS),
    "sources",  # how many sources give this text
    "rules_choice",  # the rules chose it
    "chars", "words",
    "is_h1",  # the same as the headline <h1>
    "kicker_h1",  # this = a kicker + the <h1>
    "h1_kicker",  # the <h1> = a kicker + this
    "h1_tail",  # this = the <h1> + more
    "h1_longer",  # the <h1> = this + more
    "dice_h1",  # word overlap with the <h1>
    "dice_best",  # the best word overlap with another candidate
    "has_h1", "has_ld", "has_og", "distinct",
    "separators", "colon",
    "site_words",  # share of its words that name the site
    "digits",
)
#: the model's best title must beat the rules' by more than this (site-grouped CV)
MARGIN = 0.2
_NON_WORD = re.compile(r"[\W_]+")
_SEPARATORS = re.compile(r"\s[|\-–—:·»•/]\s|\s::\s")
_WORDS = re.compile(r"\w+")
_HOST_WORDS = re.compile(r"[a-z0-9]+")
_NOT_SITE = frozenset({"www", "com", "de", "co", "uk"})


def normalised(text: str | None) -> str:
    """A title for comparison: NFKC, case-folded, runs of non-word characters as one space
    (as :func:`newsstemmer.evaluation.normalise_title`)."""
    return _NON_WORD.sub(" ", unicodedata.normalize("NFKC", text or "").casefold()).strip()


def _words(text: str) -> frozenset[str]:
    return frozenset(_WORDS.findall(text.casefold()))


def title_rows(candidates: Sequence[tuple[str, str]], chosen: str | None, site_name: str | None,
               host: str) -> tuple[list[str], list[str], list[list[float]]]:
    """The page's distinct titles as (keys, texts, rows): each normalised, as first
    written, and its row of :data:`FEATURES`; ``chosen`` is the rules' title."""
    kinds_of: dict[str, list[str]] = {}
    first: dict[str, str] = {}
    for kind, text in candidates:
        key = normalised(text)
        if key:
            kinds_of.setdefault(key, []).append(kind)
            first.setdefault(key, text)
    h1 = next((normalised(t) for k, t in candidates if k == "h1"), "")
    site = (_words(site_name or "") | set(_HOST_WORDS.findall(host.lower()))) - _NOT_SITE
    chosen_key = normalised(chosen)
    present = {k for k, _ in candidates}
    words_of = {key: _words(key) for key in kinds_of}
    h1_words = words_of.get(h1) or _words(h1)
    keys, texts, rows = [], [], []
    for key, kinds in kinds_of.items():
        w = words_of[key]
        original = first[key]
        rows.append([
            *(float(k in kinds) for k in TITLE_KINDS),
            float(len(kinds)), float(key == chosen_key), float(len(key)), float(len(key.split())),
            float(bool(h1) and key == h1), float(bool(h1) and key.endswith(" " + h1)),
            float(bool(h1) and h1.endswith(" " + key)), float(bool(h1) and key.startswith(h1 + " ")),
            float(bool(h1) and h1.startswith(key + " ")), dice(w, h1_words),
            max((dice(w, words_of[o]) for o in kinds_of if o != key), default=0.0),
            float(bool(h1)), float("ld" in present), float("og" in present), float(len(kinds_of)),
            float(len(_SEPARATORS.findall(original))), float(":" in original),
            len(w & site) / len(w) if w else 0.0, float(any(c.isdigit() for c in key)),
        ])
        keys.append(key)
        texts.append(original)
    return keys, texts, rows


def structured(candidates: Sequence[tuple[str, str]]) -> bool:
    """Whether the page states a title of its own in structured data (JSON-LD or
    ``og:title``): the model is asked only there.  Without them (older pages) the choice
    is between a first ``<h1>`` and ``<title>``, and the first ``<h1>`` there is often the
    blog's name ("Virtual Geek" against "Post title - Virtual Geek")."""
    return any(kind in ("ld", "og") for kind, _ in candidates)


_RULES_AT = FEATURES.index("rules_choice")


def preferred(scores: Sequence[float], rows: Sequence[Sequence[float]], margin: float = MARGIN) -> int | None:
    """The row (of :func:`title_rows`) whose title replaces the rules' given the model's
    ``scores``: the best-scored one where it is not the rules' own and beats it by more
    than ``margin``; None to keep the rules' title.  What ships and what the training's
    cross-validation measures."""
    best = max(range(len(scores)), key=scores.__getitem__)  # (the first of equal bests, as argmax)
    ruled = [s for s, row in zip(scores, rows) if row[_RULES_AT]]
    if rows[best][_RULES_AT] or (ruled and scores[best] <= max(ruled) + margin):
        return None
    return best


_SOURCE = {"ld": "json-ld", "og": "opengraph", "og-raw": "opengraph", "twitter": "opengraph"}


def choose_title(candidates: Sequence[tuple[str, str]], chosen: str | None, site_name: str | None,
                 host: str) -> tuple[str, str] | None:
    """The title the model prefers to the rules' ``chosen`` and its ``meta_source``, or
    None to keep the rules' (one candidate, or no title beats theirs by :data:`MARGIN`)."""
    if not structured(candidates):
        return None
    keys, texts, rows = title_rows(candidates, chosen, site_name, host)
    if not keys or (len(keys) == 1 and rows[0][_RULES_AT]):
        return None
    import numpy as np

    from ..shipped import load_model

    model = load_model("titles", FEATURES)
    X = np.asarray(rows, dtype=np.float64)
    # (a few rows go faster one at a time: the tree model's one-row walk)
    scores = np.concatenate([model.predict(X[i:i + 1]) for i in range(len(rows))]) if len(rows) <= 4 else model.predict(X)
    best = preferred(scores.tolist(), rows)
    if best is None:
        return None
    kind = next(k for k, t in candidates if normalised(t) == keys[best])
    return texts[best], _SOURCE.get(kind, "html")
