"""Tests of the text primitives every method shares (newsstemmer/dom/text.py, SPEC §2.1)."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from newsstemmer.dom.text import significant, weight

_PLAIN = re.compile(r"[\W_]+")


def plain_weight(text: str) -> int:
    """The definition: how many characters are neither ``\\W`` nor ``_``."""
    return len(_PLAIN.sub("", text))


def test_weight_of_ascii_mixed_and_other_scripts() -> None:
    for text in (
        "", " ", "a_b-c", "Hello, world!", "It\u2019s 5\u00a0km \u2014 caf\u00e9", "na\u00efve r\u00e9sum\u00e9s",
        "\u65e5\u672c\u8a9e\u306e\u30c6\u30ad\u30b9\u30c8 abc", "\u0661\u0662\u0663 \u0968", "e\u0301", "\ud800x",
        "\U0001f600 emoji", "mostly ascii text with one \u00e9", "\u30c6\u30ad\u30b9\u30c8\u3002",
    ):
        assert weight(text) == plain_weight(text), text


@settings(max_examples=500)
@given(st.text(max_size=60))
def test_weight_is_the_count_of_word_characters(text: str) -> None:
    assert weight(text) == plain_weight(text)


@given(st.text(max_size=60))
def test_significant_keeps_the_counted_characters(text: str) -> None:
    assert significant(text) == _PLAIN.sub("", text).lower()
