"""Role hints of ``id`` / ``class`` values ("content", "nav", "comment", ...) for the CRF.

A block's own hints and those of its ancestors are features (SPEC §5).  The hint
patterns are searched in each whitespace-free name of a value, all at once by one
trie regex (:func:`hint_scanner`), and memoised per name and per value: names
recur across pages and sites far more than whole values do.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from lxml import etree

__all__ = ["HINTS", "element_hints", "hint_scanner", "hints", "scan_word_hints", "trie_pattern", "word_hints"]

#: Words in ``id``/``class`` values that hint at a block's role.
HINTS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(rx))
    for name, rx in (
        ("content", r"content|body|text|entry|story|main"),
        ("article", r"article|post|blog"),
        ("comment", r"comment|disqus|respon|repl"),
        ("nav", r"nav|menu|breadcrumb|crumb|pagination|pager|paging"),
        ("header", r"header|masthead|banner|top"),
        ("footer", r"footer|bottom|copyright|legal"),
        ("side", r"sidebar|side|rail|widget|aside|column|col-"),
        ("sidebar", r"sidebar|widget|(^|[^a-z])aside|(^|[^a-z])rail([^a-z]|$)"),
        ("related", r"related|recommend|popular|trending|more|also|teaser|promo|outbrain|taboola"),
        ("share", r"share|social|sharing|facebook|twitter|tweet|follow"),
        ("ad", r"(^|[^a-z])ads?([^a-z]|$)|advert|sponsor|banner|dfp|gpt"),
        ("meta", r"meta|byline|author|date|time|dateline|info"),
        ("caption", r"caption|credit|photo|image|img|figure|media|video|gallery"),
        ("tags", r"tags?([^a-z]|$)|categor|topic|keyword"),
        ("title", r"title|headline|heading|head([^a-z]|$)"),
        ("form", r"search|login|signin|subscribe|newsletter|signup|register|form"),
        ("hidden", r"hidden|hide|display-none|sr-only|visually"),
    )
)

_HINT_CACHE: dict[str, tuple[str, ...]] = {}
_WORD_HINT_CACHE: dict[str, frozenset[str]] = {}
_HINT_ORDER = tuple(name for name, _ in HINTS)


def trie_pattern(words: Iterable[str]) -> str:
    """A regex alternation of ``words`` written as a trie (``side(?:bar)?|...``).

    At a given position it matches the longest of the words that starts there, and
    trying it costs about one branch per distinct first letter instead of one per word.
    """
    root: dict[str, dict] = {}
    for word in words:
        node = root
        for c in word:
            node = node.setdefault(c, {})
        node[""] = {}  # (a word ends here)

    def pattern(node: dict[str, dict]) -> str:
        alts = [re.escape(c) + pattern(child) for c, child in sorted(node.items()) if c]
        if not alts:
            return ""
        body = alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"
        if "" in node:  # the longer words first (greedy), else the word that ends here
            body = ("(?:" + body + ")" if len(alts) == 1 else body) + "?"
        return body

    return pattern(root)


def hint_scanner(
    hints: Sequence[tuple[str, re.Pattern[str]]],
) -> tuple[re.Pattern[str], dict[str, tuple[frozenset[str], tuple[str, ...]]], tuple[str, ...]]:
    """One regex pass that finds what searching a name with each hint pattern finds.

    Most hint patterns are alternations of plain words.  All those words go into one
    regex that, at every position of a name, captures the longest word that starts
    there (inside a lookahead, so that overlapping words are all seen).  Any other
    word that starts at the same position is a prefix of that one, so each word maps
    to the hints of itself and of its listed prefixes.  An alternative of the form
    ``(context)word(context)`` (``(^|[^a-z])ads?([^a-z]|$)``) gives its word (``ad``)
    as a guard: a name where the guard occurs is searched with that hint's own
    pattern, which decides.  A hint with any other alternative, or with flags, is
    always searched with its pattern.

    Returns the scanner, ``{word: (hints, guarded hints)}``, and the always-searched hints.
    """
    plain = re.compile(r"[a-z0-9_-]+")
    guarded = re.compile(r"(?:\([^()]*\))?([a-z0-9_-]+?)(?:[a-z0-9_-]\?)?(?:\([^()]*\))?")
    direct: dict[str, set[str]] = {}
    guards: dict[str, set[str]] = {}
    always: list[str] = []
    for name, rx in hints:
        alternatives, depth, start = [], 0, 0  # split at the top-level "|"
        for i, c in enumerate(rx.pattern):
            if c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
            elif c == "|" and not depth:
                alternatives.append(rx.pattern[start:i])
                start = i + 1
        alternatives.append(rx.pattern[start:])
        if rx.flags != re.UNICODE or any(
            not plain.fullmatch(a) and not guarded.fullmatch(a) for a in alternatives
        ):
            always.append(name)
            continue
        for a in alternatives:
            if plain.fullmatch(a):
                direct.setdefault(a, set()).add(name)
            else:
                guards.setdefault(guarded.fullmatch(a).group(1), set()).add(name)  # type: ignore[union-attr]
    words = direct.keys() | guards.keys()
    table = {
        word: (
            frozenset().union(*(direct.get(word[:k], ()) for k in range(1, len(word) + 1))),
            tuple(sorted(set().union(*(guards.get(word[:k], ()) for k in range(1, len(word) + 1))))),
        )
        for word in words
    }
    return re.compile(f"(?=({trie_pattern(words)}))"), table, tuple(always)


_HINT_SCAN, _HINT_WORDS, _HINT_ALWAYS = hint_scanner(HINTS)
_HINT_PATTERNS = dict(HINTS)


def scan_word_hints(word: str) -> frozenset[str]:
    """Role hints of one whitespace-free id/class name, found afresh.

    The hints are those of the patterns that ``search`` the lower-cased name,
    found in one pass (:func:`hint_scanner`).
    """
    low = word.lower()
    names: set[str] = set()
    check = _HINT_ALWAYS
    for w in _HINT_SCAN.findall(low):
        direct, guarded = _HINT_WORDS[w]
        names |= direct
        if guarded:
            check += guarded
    for name in check:
        if name not in names and _HINT_PATTERNS[name].search(low):
            names.add(name)
    return frozenset(names)


def word_hints(word: str) -> frozenset[str]:
    """Role hints of one whitespace-free id/class name (:func:`scan_word_hints`, memoised).

    No hint pattern spans whitespace, so a value's hints are the union of its
    names' hints; names recur across sites far more than whole values do.
    """
    found = _WORD_HINT_CACHE.get(word)
    if found is None:
        if len(_WORD_HINT_CACHE) > 50_000:
            _WORD_HINT_CACHE.clear()
        found = _WORD_HINT_CACHE[word] = scan_word_hints(word)
    return found


def hints(value: str) -> tuple[str, ...]:
    """Role hints of an id/class value, in ``HINTS`` order (memoised)."""
    found = _HINT_CACHE.get(value)
    if found is None:
        if len(_HINT_CACHE) > 50_000:
            _HINT_CACHE.clear()
        names: set[str] = set()
        for word in value.split():
            names |= word_hints(word)
        found = _HINT_CACHE[value] = tuple(n for n in _HINT_ORDER if n in names) if names else ()
    return found


def element_hints(el: etree._Element) -> tuple[str, ...]:
    """Role hints of an element's id and class values (:func:`hints`)."""
    eid, cls = el.get("id"), el.get("class")
    if eid:
        value = f"{eid} {cls}" if cls else eid
    elif cls:
        value = cls
    else:
        return ()
    found = _HINT_CACHE.get(value)  # (the memo of hints(), looked up here: a call less)
    return hints(value) if found is None else found
