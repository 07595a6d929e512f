from collections import Counter

import pytest

from newsstemmer.evaluation import Score, aggregate, bleu4, evaluate, rouge2, shingle_prf, shingles, tokens

TEXT = "The quick brown fox jumps over the lazy dog near the river bank today."
OTHER = "Completely different words appear in this unrelated sentence here."


def test_tokens_keep_case_and_drop_punctuation():
    assert tokens("Hello, World! It's 2024.") == ["Hello", "World", "It", "s", "2024"]


def test_tokens_unicode_japanese():
    # \w matches kana/kanji runs; Japanese punctuation separates tokens.
    expected = ["東京都で", "新しいビルが完成した"]
    assert tokens("東京都で、新しいビルが完成した。") == expected
    assert tokens("Café naïve") == ["Café", "naïve"]


def test_shingles_windows():
    expected = Counter({("a", "b", "c", "d"): 1, ("b", "c", "d", "e"): 1})
    assert shingles(["a", "b", "c", "d", "e"]) == expected


def test_shingles_short_and_empty():
    assert shingles(["a", "b"]) == Counter({("a", "b"): 1})
    assert shingles(["a", "b", "c"]) == Counter({("a", "b", "c"): 1})
    assert shingles([]) == Counter()


def test_identical_texts_score_one():
    assert shingle_prf(TEXT, TEXT) == (1.0, 1.0)
    assert bleu4(TEXT, TEXT) == pytest.approx(1.0)
    assert rouge2(TEXT, TEXT) == pytest.approx(1.0)
    result = aggregate([(TEXT, TEXT)])
    assert result["precision"] == result["recall"] == result["f1"] == pytest.approx(1.0)
    assert result["bleu4"] == pytest.approx(1.0)
    assert result["rouge2"] == pytest.approx(1.0)


def test_disjoint_texts_score_zero():
    assert shingle_prf(OTHER, TEXT) == (0.0, 0.0)
    assert bleu4(OTHER, TEXT) == 0.0
    assert rouge2(OTHER, TEXT) == 0.0
    result = aggregate([(OTHER, TEXT)])
    assert result["precision"] == result["recall"] == result["f1"] == 0.0


def test_empty_prediction_excluded_from_precision_but_zero_recall():
    assert shingle_prf("", TEXT) == (None, 0.0)
    assert shingle_prf(" ... ", TEXT) == (None, 0.0)  # no tokens = empty
    result = aggregate([(TEXT, TEXT), ("", TEXT)])
    assert result["pages"] == 2
    assert result["empty"] == 1
    assert result["precision"] == pytest.approx(1.0)
    assert result["recall"] == pytest.approx(0.5)
    assert result["f1"] == pytest.approx(2 * 1.0 * 0.5 / 1.5)
    assert result["bleu4"] == pytest.approx(0.5)


def test_two_token_text_is_one_shingle():
    assert shingle_prf("Breaking news", "Breaking news") == (1.0, 1.0)
    assert shingle_prf("Breaking news", "Breaking news today") == (0.0, 0.0)
    p, r = shingle_prf("Breaking news", "x y z. Breaking news")
    assert (p, r) == (0.0, 0.0)  # gold has 4-token windows, prediction one 2-token shingle
    assert bleu4("Breaking news", "Breaking news") == pytest.approx(1.0)


def test_multiset_clipping():
    gold = "a b c d"  # one shingle
    pred = "a b c d a b c d"  # (a b c d) twice + 3 other windows
    p, r = shingle_prf(pred, gold)
    assert p == pytest.approx(1 / 5)
    assert r == pytest.approx(1.0)
    # Repeated shingle in both texts: matched up to the smaller count.
    gold2 = "x x x x x x"  # (x x x x) three times
    p2, r2 = shingle_prf("x x x x x", gold2)  # twice
    assert (p2, r2) == (pytest.approx(1.0), pytest.approx(2 / 3))
    # BLEU unigram clipping: "the the the" vs "the cat" -> 1/3 unigram precision.
    expected = (1 / 3 * 0.1 / 2 * 0.1 / 1) ** (1 / 3)
    assert bleu4("the the the", "the cat") == pytest.approx(expected)


def test_rouge2_is_bigram_recall():
    assert rouge2("a b c", "a b c d e") == pytest.approx(2 / 4)
    assert rouge2("a b a b", "a b") == pytest.approx(1.0)
    assert rouge2("a b", "a") == 0.0  # gold without bigrams


def test_bleu_smoothing_partial_match():
    pred = "one two three four five"
    gold = "one two x three four y five"
    # unigrams 5/5, bigrams 2/4, trigrams 0/3 -> 0.1/3, 4-grams 0/2 -> 0.1/2
    expected = (1.0 * 0.5 * (0.1 / 3) * (0.1 / 2)) ** 0.25
    assert bleu4(pred, gold) == pytest.approx(expected)


def test_japanese_pages():
    gold = "東京都で、新しいビルが完成した。関係者は、喜びを語った。市民も、集まった。"
    result = aggregate([(gold, gold)])
    assert result["f1"] == pytest.approx(1.0)
    assert shingle_prf("全く別の文章", gold) == (0.0, 0.0)


def test_evaluate_returns_score_and_handles_no_pages():
    score = evaluate([])
    assert isinstance(score, Score)
    assert score.as_dict() == {
        "precision": 0.0,
        "recall": 0.0,
        "f1": 0.0,
        "bleu4": 0.0,
        "rouge2": 0.0,
        "pages": 0,
        "empty": 0,
    }


def test_aggregate_accepts_generator():
    result = aggregate((p, g) for p, g in [(TEXT, TEXT), (OTHER, TEXT)])
    assert result["pages"] == 2
    assert result["precision"] == pytest.approx(0.5)
    assert result["recall"] == pytest.approx(0.5)
    assert result["f1"] == pytest.approx(0.5)
