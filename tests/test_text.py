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


def _itertext_text(el) -> str:
    return " ".join("".join(el.itertext()).split())


def test_element_text_is_the_joined_itertext_of_a_parsed_page() -> None:
    """element_text lets libxml2 write the text: the same string as itertext joined, on a
    parsed page (scripts, tails, nested inline elements, character references)."""
    from newsstemmer.dom.parse import parse_html
    from newsstemmer.dom.walk import element_text

    root = parse_html(
        "<html><body><div id=x>Hello <!-- gone --> <a href=/>World <b>bold</b></a> tail"
        "<script>var x = 1;</script> &amp; &nbsp;end &eacute;t&eacute; <p>caf\u00e9\n\t para</p>"
        "<table><tr><td>1</td><td>2</td></tr></table></div> after</body></html>")
    for el in root.iter():
        assert element_text(el) == _itertext_text(el)
    assert element_text(root.find(".//div")) == "Hello World bold tailvar x = 1; & end été café para12"


def test_element_text_reads_entity_references_as_itertext_does() -> None:
    """A tree built with entity references (not the parser's) keeps itertext's reading of them."""
    from lxml import etree

    from newsstemmer.dom.walk import element_text

    div = etree.Element("div")
    div.text = "a "
    for name in ("amp", "nbsp", "unknown"):
        ref = etree.Entity(name)
        ref.tail = " b"
        div.append(ref)
    assert element_text(div) == _itertext_text(div) == "a &amp; b&nbsp; b&unknown; b"
