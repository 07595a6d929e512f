"""Tests of block-path alignment and the layout similarity Sim (SPEC §2.2)."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from newsstemmer.layout.alignment import PathCodes, align, common_subsequence, lcs_length, layout_similarity


def lcs_ref(a, b) -> int:
    """Reference LCS length by dynamic programming."""
    prev = [0] * (len(b) + 1)
    for x in a:
        cur = [0]
        for j, y in enumerate(b):
            cur.append(prev[j] + 1 if x == y else max(prev[j + 1], cur[j]))
        prev = cur
    return prev[-1]


def is_subsequence(sub, seq) -> bool:
    it = iter(seq)
    return all(any(x == y for y in it) for x in sub)


def check_pairs(a, b, pairs) -> None:
    for (i1, j1), (i2, j2) in zip(pairs, pairs[1:]):
        assert i1 < i2 and j1 < j2
    for i, j in pairs:
        assert 0 <= i < len(a) and 0 <= j < len(b)
        assert a[i] == b[j]


# -- examples ------------------------------------------------------------------------


def test_align_simple() -> None:
    a = [1, 2, 3, 4, 5]
    b = [1, 3, 9, 5]
    pairs = align(a, b)
    check_pairs(a, b, pairs)
    assert pairs == [(0, 0), (2, 1), (4, 3)]


def test_align_tolerates_extra_blocks_in_the_middle() -> None:
    a = [0, 1, 2, 3]
    b = [0, 1, 7, 8, 9, 2, 3]
    assert align(a, b) == [(0, 0), (1, 1), (2, 5), (3, 6)]


def test_align_empty() -> None:
    assert align([], [1, 2]) == []
    assert align([1, 2], []) == []
    assert align([], []) == []


def test_align_identical() -> None:
    a = [3, 1, 4, 1, 5]
    assert align(a, list(a)) == [(i, i) for i in range(5)]


def test_align_disjoint() -> None:
    assert align([1, 2, 3], [4, 5, 6]) == []


def test_path_codes_intern() -> None:
    codes = PathCodes()
    x = codes.encode(["div/p", "td", "div/p"])
    y = codes.encode(["td", "h1"])
    assert x[0] == x[2] != x[1]
    assert y[0] == x[1]
    assert len(set(x + y)) == 3


def test_similarity_identical_is_one() -> None:
    a, w = [0, 1, 2, 1], [10, 5, 300, 7]
    assert layout_similarity(a, w, list(a), list(w)) == 1.0


def test_similarity_identical_paths_different_weights_is_one() -> None:
    # Every block aligns, so all weight of both pages is matched.
    assert layout_similarity([0, 1, 2], [10, 20, 30], [0, 1, 2], [5, 500, 1]) == 1.0


def test_similarity_disjoint_is_zero() -> None:
    assert layout_similarity([0, 1, 2], [10, 20, 30], [3, 4], [5, 6]) == 0.0


def test_similarity_empty() -> None:
    assert layout_similarity([], [], [], []) == 0.0
    assert layout_similarity([0], [10], [], []) == 0.0


def test_similarity_formula() -> None:
    # aligned: code 0 (10 + 6) and code 2 (30 + 8); total 10+20+30 + 6+8+100
    sim = layout_similarity([0, 1, 2], [10, 20, 30], [0, 2, 5], [6, 8, 100])
    assert sim == pytest.approx((10 + 6 + 30 + 8) / (60 + 114))


def test_similarity_symmetric_example() -> None:
    a, wa = [0, 1, 2, 3], [10, 20, 30, 40]
    b, wb = [0, 2, 3, 4], [1, 2, 3, 4]
    assert layout_similarity(a, wa, b, wb) == layout_similarity(b, wb, a, wa)


def test_similarity_symmetric_with_several_lcs() -> None:
    a, wa = [0, 0, 2], [7, 4, 5]
    b, wb = [0, 2, 0], [6, 8, 3]
    assert layout_similarity(a, wa, b, wb) == pytest.approx(layout_similarity(b, wb, a, wa))


def test_common_subsequence_example() -> None:
    assert common_subsequence([1, 2, 3, 4], [2, 9, 4]) == [2, 4]


def test_lcs_length_strings_and_sequences() -> None:
    assert lcs_length("abcbdab", "bdcaba") == 4
    assert lcs_length([1, 2, 3], [3, 2, 1]) == 1
    assert lcs_length("", "abc") == 0


# -- properties ----------------------------------------------------------------------

codes = st.lists(st.integers(min_value=0, max_value=5), max_size=30)
small_codes = st.lists(st.integers(min_value=0, max_value=3), max_size=12)


@st.composite
def weighted(draw, seq=codes):
    a = draw(seq)
    w = draw(st.lists(st.integers(min_value=0, max_value=500), min_size=len(a), max_size=len(a)))
    return a, w


@given(codes, codes)
def test_align_pairs_increasing_and_equal(a, b) -> None:
    pairs = align(a, b)
    check_pairs(a, b, pairs)


@given(codes, codes)
def test_align_is_longest(a, b) -> None:
    assert len(align(a, b)) == lcs_ref(a, b) == lcs_length(a, b)


@given(codes, codes)
def test_common_subsequence_is_subsequence_of_both(a, b) -> None:
    cs = common_subsequence(a, b)
    assert is_subsequence(cs, a)
    assert is_subsequence(cs, b)
    assert len(cs) == lcs_ref(a, b)


@given(weighted(), weighted())
def test_similarity_in_unit_interval(x, y) -> None:
    (a, wa), (b, wb) = x, y
    sim = layout_similarity(a, wa, b, wb)
    assert 0.0 <= sim <= 1.0


@given(weighted(), weighted())
def test_similarity_symmetric_uniform_weights(x, y) -> None:
    # With uniform weights every LCS carries the same weight, so Sim must be symmetric.
    (a, _), (b, _) = x, y
    wa, wb = [7] * len(a), [7] * len(b)
    assert layout_similarity(a, wa, b, wb) == pytest.approx(layout_similarity(b, wb, a, wa))


@settings(max_examples=300)
@given(weighted(small_codes), weighted(small_codes))
@example(([0, 0, 2], [7, 4, 5]), ([0, 2, 0], [6, 8, 3]))
def test_similarity_symmetric(x, y) -> None:
    (a, wa), (b, wb) = x, y
    assert layout_similarity(a, wa, b, wb) == pytest.approx(layout_similarity(b, wb, a, wa))


@given(weighted())
def test_similarity_self_is_one(x) -> None:
    a, w = x
    if sum(w) == 0:
        assert layout_similarity(a, w, a, w) == 0.0
    else:
        assert layout_similarity(a, w, list(a), list(w)) == 1.0
