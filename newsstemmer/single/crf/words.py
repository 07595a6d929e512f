"""The words the CRF looks for in a block's text: footer / menu keywords and dates.

Both are features of a text block (SPEC §5).  Long text is searched only at its
edges (:data:`SHORT`, :data:`EDGES`), where bylines, dates and "reply" / "share"
buttons sit.
"""

from __future__ import annotations

import re

__all__ = [
    "EDGES",
    "KW_OTHER",
    "KW_OTHER_NAMES",
    "KW_PAIRS",
    "KW_WORDS",
    "SHORT",
    "TIME",
    "TIME_PLAIN",
    "TOKEN",
    "keywords",
]

#: Words: the ``\w+`` matches of a text.
TOKEN = re.compile(r"\w+")
#: Text longer than this weight is searched for keywords and dates only in its
#: first and last ``EDGES`` characters (the searches were most of the feature time;
#: F1 unchanged).  Also the longest text compared with the page's headline signals.
SHORT = 300
EDGES = 150

#: Footer / menu words of the page text (counted per block, as words), by the name of
#: their feature; then word pairs; then what ``\w+`` cannot split (©, Japanese).
KW_WORDS = {
    **dict.fromkeys(("copyright",), "copyright"),
    **dict.fromkeys(("privacy",), "privacy"),
    **dict.fromkeys(("cookie", "cookies"), "cookie"),
    **dict.fromkeys(("contact",), "contact"),
    **dict.fromkeys(("login", "logout", "signin"), "login"),
    **dict.fromkeys(("register", "subscribe", "newsletter", "signup"), "subscribe"),
    **dict.fromkeys(("share", "tweet", "facebook", "twitter", "email", "digg", "reddit"), "share"),
    **dict.fromkeys(("print",), "print"),
    **dict.fromkeys(("related", "recommended", "popular"), "related"),
    **dict.fromkeys(("advertisement", "advertise", "sponsored", "ad", "ads"), "advertisement"),
    **dict.fromkeys(("menu", "navigation"), "menu"),
    **dict.fromkeys(("home", "homepage"), "home"),
    **dict.fromkeys(("search",), "search"),
    **dict.fromkeys(("comment", "comments", "reply", "permalink", "trackback", "trackbacks"), "comments"),
    **dict.fromkeys(("tags", "tag", "categories", "category", "filed"), "tags"),
    **dict.fromkeys(("archive", "archives"), "archive"),
    **dict.fromkeys(("previous", "next", "prev", "older", "newer"), "previous"),
    **dict.fromkeys(("rss", "feed"), "rss"),
}
KW_PAIRS = {
    ("all", "rights"): "copyright", ("rights", "reserved"): "copyright", ("powered", "by"): "copyright",
    ("terms", "of"): "terms", ("terms", "and"): "terms", ("contact", "us"): "contact", ("about", "us"): "contact",
    ("log", "in"): "login", ("sign", "in"): "login", ("sign", "up"): "subscribe", ("e", "mail"): "share",
    ("follow", "us"): "share", ("skip", "to"): "menu", ("back", "to"): "menu", ("read", "more"): "read more",
    ("continue", "reading"): "read more", ("more", "stories"): "related", ("posted", "by"): "posted by",
}
_KW_WORD_SET = frozenset(KW_WORDS)
KW_OTHER = re.compile(r"©|著作権|無断転載|利用規約|プライバシー|お問い合わせ|ログイン|推奨環境|トップ|ホーム|関連")
KW_OTHER_NAMES = {
    "©": "copyright", "著作権": "copyright", "無断転載": "copyright", "推奨環境": "copyright",
    "利用規約": "terms", "プライバシー": "privacy", "お問い合わせ": "contact", "ログイン": "login",
    "トップ": "home", "ホーム": "home", "関連": "related",
}


_KW_FIRSTS = frozenset(a for a, _ in KW_PAIRS)
_KW_SECONDS = frozenset(b for _, b in KW_PAIRS)


def keywords(words: list[str], word_set: set[str], low: str) -> tuple[int, set[str]]:
    """How many footer / menu keywords a block's words (lower case) hold, and their
    feature names.  ``word_set`` is ``set(words)``: the look-ups start from it, and
    the word pairs are only walked if both words of some pair occur."""
    names: set[str] = set()
    n = 0
    hit = _KW_WORD_SET.intersection(word_set)
    if hit:
        for word in hit:
            n += words.count(word)
            names.add(KW_WORDS[word])
    if not _KW_FIRSTS.isdisjoint(word_set) and not _KW_SECONDS.isdisjoint(word_set):
        pairs = KW_PAIRS
        for pair in zip(words, words[1:]):
            k = pairs.get(pair)
            if k:
                n += 1
                names.add(k)
    if not low.isascii():  # (© included)
        for m in KW_OTHER.findall(low):
            n += 1
            names.add(KW_OTHER_NAMES[m])
    return n, names


#: Dates and times: 12:30, 2009-05-01, 5/1/2009, may 1, 1 may, 3 hours ago, 2009年5月1日
#: (matched in lower-cased text that has digits).
_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
TIME_PLAIN = re.compile(
    r"\d{1,2}:\d\d|\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}|"
    rf"\b{_MONTH} \d{{1,2}}\b|\b\d{{1,2}} {_MONTH}(?![a-z])|"
    r"\d+ (?:seconds?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?) ago|"
    r"\d{4}年\d{1,2}月|\d{1,2}月\d{1,2}日|\d{1,2}時\d{1,2}分"
)
#: The same matches as ``TIME_PLAIN`` (what ``findall`` gives is identical), several times
#: faster: re only skips ahead quickly to the possible first characters of a pattern that
#: starts with a character class.  So the first character (a digit, or a month's first
#: letter) is matched once up front, and each alternative checks it by look-behind and
#: matches its remainder; a digit and a letter never start the same match, so the order
#: of the alternatives that can compete is unchanged.  ``\b`` before that first (word)
#: character becomes "no word character before it".
_MONTH_REST = (
    r"(?:(?<=j)an|(?<=f)eb|(?<=m)ar|(?<=a)pr|(?<=m)ay|(?<=j)un|(?<=j)ul|(?<=a)ug|(?<=s)ep|(?<=s)ept|"
    r"(?<=o)ct|(?<=n)ov|(?<=d)ec)[a-z]*\.?"
)
TIME = re.compile(
    r"[\djfmasond](?:(?<=\d)(?:"
    r"\d?:\d\d|\d{3}[-/.]\d{1,2}[-/.]\d{1,2}|\d?[-/.]\d{1,2}[-/.]\d{2,4}|"
    rf"(?<!\w\d)\d? {_MONTH}(?![a-z])|"
    r"\d* (?:seconds?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?) ago|"
    r"\d{3}年\d{1,2}月|\d?月\d{1,2}日|\d?時\d{1,2}分"
    rf")|(?<!\w[a-z]){_MONTH_REST} \d{{1,2}}\b)"
)
