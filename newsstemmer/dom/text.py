"""Text primitives shared by every method: significant characters and weight (SPEC §2.1)."""

from __future__ import annotations

import re

__all__ = ["ASCII_NOT_WORD", "NOT_WORD", "significant", "weight"]

#: Runs of characters that are not significant (not word characters, or "_").
NOT_WORD = re.compile(r"[\W_]+", re.UNICODE)

#: The ASCII characters that are not significant (``[\W_]``).  ASCII text, the common
# case, is filtered by deleting these from its bytes: several times faster than the regex.
ASCII_NOT_WORD = bytes(c for c in range(128) if not chr(c).isalnum())


def significant(text: str) -> str:
    """The significant characters of ``text``: its word characters, lower-cased."""
    if text.isascii():
        return text.encode("ascii").translate(None, ASCII_NOT_WORD).lower().decode("ascii")
    return NOT_WORD.sub("", text).lower()


def weight(text: str) -> int:
    """Number of significant characters in ``text`` (SPEC §2.1 ``Weight``)."""
    if text.isascii():
        return len(text.encode("ascii").translate(None, ASCII_NOT_WORD))
    return len(NOT_WORD.sub("", text))


