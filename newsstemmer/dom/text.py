"""Text primitives shared by every method: significant characters and weight (SPEC §2.1)."""

from __future__ import annotations

import re
from typing import Any

from lxml import etree

__all__ = ["ASCII_NOT_WORD", "NOT_WORD", "significant", "visible_text", "weight"]

#: Runs of characters that are not significant (not word characters, or "_").
NOT_WORD = re.compile(r"[\W_]+", re.UNICODE)

#: The ASCII characters that are not significant (``[\W_]``).  ASCII text, the common
# case, is filtered by deleting these from its bytes: several times faster than the regex.
ASCII_NOT_WORD = bytes(c for c in range(128) if not chr(c).isalnum())

_NON_ASCII = re.compile(r"[^\x00-\x7f]+")


def significant(text: str) -> str:
    """The significant characters of ``text``: its word characters, lower-cased."""
    if text.isascii():
        return text.encode("ascii").translate(None, ASCII_NOT_WORD).lower().decode("ascii")
    return NOT_WORD.sub("", text).lower()


def weight(text: str) -> int:
    """Number of significant characters in ``text`` (SPEC §2.1 ``Weight``).

    Each character counts on its own, so the weight is that of the ASCII characters
    (counted by deleting the others from the bytes: several times faster than the
    regex) plus that of the others (counted by the regex, on them alone).  Text that
    is mostly ASCII with a few curly quotes, dashes or accents, the common case
    besides pure ASCII, so costs little more than ASCII; text mostly in other
    scripts goes to the regex whole.
    """
    if text.isascii():
        return len(text.encode("ascii").translate(None, ASCII_NOT_WORD))
    ascii_part = text.encode("ascii", "ignore")
    if 2 * len(ascii_part) < len(text):  # mostly other scripts: the regex alone is cheaper
        return len(NOT_WORD.sub("", text))
    return len(ascii_part.translate(None, ASCII_NOT_WORD)) + len(NOT_WORD.sub("", "".join(_NON_ASCII.findall(text))))


#: The body's text nodes; in-body scripts are left in (a predicate to drop them made this
#: 3× slower, ~1.3 ms a demo page, and extra page text only makes a change look smaller).
_BODY_TEXT = etree.XPath("//body//text()", smart_strings=False)


def visible_text(tree: Any) -> str:
    """The text of a parsed page's body, one space between text nodes (~0.2 ms a demo page).

    The crawl's incremental runs compare a new version of an article with the whole text
    of the page it came from before, so that a body cut differently (new layouts after a
    redesign) is not taken for a changed article.
    """
    if tree is None:
        return ""
    try:
        return " ".join(_BODY_TEXT(tree))
    except (ValueError, etree.Error):
        return ""
