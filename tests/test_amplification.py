"""Tests of substring amplification (``newsstemmer.templates``, SPEC §3) and its CLI."""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from newsstemmer.cli import templates as cli_templates
from newsstemmer.templates import Amplification, amplify, load_reference, pregroup, skeleton
from newsstemmer.templates import amplification as amp_mod
from newsstemmer.templates import spectrum as spectrum_mod
from newsstemmer.templates.spectrum import MinTree


def brute_V(docs: list[str]) -> dict[int, int]:
    """Distinct substrings per exact number of occurrences, counted in each document separately."""
    occurrences: Counter[bytes] = Counter()
    for d in docs:
        b = d.encode("utf-8")
        for i in range(len(b)):
            for j in range(i + 1, len(b) + 1):
                occurrences[b[i:j]] += 1
    return dict(Counter(occurrences.values()))


def spectrum(amp: Amplification) -> dict[int, int]:
    return {f: int(v) for f, v in enumerate(amp.V) if v}


# -- V(f) and F(f) ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "docs",
    [
        ["banana"],
        ["abracadabra"],
        ["mississippi", "missouri"],
        ["aaaa", "aa", ""],
        ["abcabcabc", "cab", "bca"],
        ["日本語の文章", "日本の"],
    ],
)
def test_spectrum_equals_brute_force(docs):
    amp = amplify(docs)
    assert spectrum(amp) == brute_V(docs)
    expected_F = {f: f * v for f, v in brute_V(docs).items()}
    assert {f: int(x) for f, x in enumerate(amp.F) if x} == expected_F


@settings(max_examples=150, deadline=None)
@given(st.lists(st.text(alphabet="abc", max_size=30), min_size=1, max_size=5))
def test_spectrum_equals_brute_force_random(docs):
    assert spectrum(amplify(docs)) == brute_V(docs)


def test_separators_never_join_documents():
    # "ab" + "cd": a shared separator would create "b|c"-like strings; "bc" must not exist.
    amp = amplify(["ab", "cd"])
    assert spectrum(amp) == {1: 6}  # a, b, ab, c, d, cd
    # Identical documents: every substring occurs exactly twice, none more.
    amp = amplify(["xyz", "xyz"])
    assert spectrum(amp) == {2: 6}
    # Documents that end and start alike: "ba" (end of one + start of next) is not a substring.
    docs = ["ab", "ba", "ab"]
    assert spectrum(amplify(docs)) == brute_V(docs)


def test_bytes_input_with_separator_byte_is_kept_apart():
    amp = amplify([b"a\xffb", b"a\xffb"])
    assert amp.n_docs == 2
    assert spectrum(amp) == {2: 6}


def test_min_tree_searches_match_brute_force():
    rng = np.random.default_rng(7)
    for _ in range(20):
        n = int(rng.integers(3, 300))
        values, tree = MinTree.allocate(n)
        values[:] = rng.integers(0, 6, size=n)
        values[0] = values[-1] = -1
        tree.build()
        starts = rng.integers(1, n - 1, size=50)
        x = rng.integers(0, 7, size=50)
        nxt = tree.next_below(starts, x)
        prv = tree.prev_below(starts, x)
        for s, t, a, b in zip(starts, x, nxt, prv):
            assert a == next(j for j in range(s, n) if values[j] < t)
            assert b == next(j for j in range(s, -1, -1) if values[j] < t)


# -- peaks ---------------------------------------------------------------------------------

WORDS = (
    "river council market winter station harbour library museum teacher garden bridge "
    "forest mountain village budget season festival railway island valley morning evening "
    "reported announced planned expected quickly slowly finally recently the a of and to in"
).split()


def prose(rng: random.Random, n_words: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n_words))


def templated_pages(k: int, seed: int, template: str) -> list[str]:
    rng = random.Random(seed)
    return [f"{template}<p>{prose(rng, 60)}</p>{template[::-1]}" for _ in range(k)]


TEMPLATE_A = (
    '<html><head><title>Daily Example</title><link rel="stylesheet" href="/static/site.css"></head>'
    '<body><div id="masthead"><a href="/">Daily Example News</a><ul class="nav"><li>World</li>'
    "<li>Business</li><li>Science</li></ul></div><div class=\"story\">"
)
TEMPLATE_B = (
    '<!DOCTYPE html><html lang="en"><body class="blog"><header role="banner"><h1 class="brand">'
    'The Weekly Observer</h1><nav><a href="/archive">Archive</a> | <a href="/about">About us</a></nav>'
    '</header><main><article class="entry-content post">'
)


def test_template_shared_by_k_documents_peaks_at_k():
    k = 12
    rng = random.Random(3)
    docs = [f"{prose(rng, 40)} {TEMPLATE_A} {prose(rng, 40)}" for _ in range(k)]
    amp = amplify(docs)
    G = amp.G()
    assert int(np.argmax(G[2 : 3 * k])) + 2 == k
    assert k in amp.peaks(delta=1.5)
    # a 200+ byte string shared by k documents alone adds |s|(|s|+1)/2·k to F(k) at most
    assert amp.F[k] >= len(TEMPLATE_A) * k


def test_changing_delta_needs_no_recomputation(monkeypatch):
    docs = templated_pages(10, 1, TEMPLATE_A) + templated_pages(10, 2, TEMPLATE_B)
    amp = amplify(docs)
    F_before = amp.F.copy()

    def fail(*args, **kwargs):
        raise AssertionError("spectrum recomputed")

    monkeypatch.setattr(amp_mod, "spectrum", fail)
    monkeypatch.setattr(spectrum_mod, "spectrum", fail)
    seen = [amp.peaks(delta=d) for d in (1.0, 1.5, 3.0, 10.0)]
    assert all(set(b) <= set(a) for a, b in zip(seen, seen[1:]))  # higher δ, fewer peaks
    for d in (1.5, 3.0):
        amp.groups(delta=d)
    amp.groups(alpha=0.01)
    assert np.array_equal(amp.F, F_before)


# -- groups ------------------------------------------------------------------------------------


@pytest.mark.parametrize("boundary", [{}, {"delta": 1.5}, {"alpha": 0.01}])
def test_two_templates_of_ten_pages_are_recovered(boundary):
    docs = templated_pages(10, 1, TEMPLATE_A) + templated_pages(10, 2, TEMPLATE_B)
    order = list(range(20))
    random.Random(5).shuffle(order)
    mixed = [docs[i] for i in order]
    grouping = amplify(mixed).groups(**boundary)
    found = sorted(sorted(order[i] // 10 for i in g) for g in grouping.groups)
    assert found == [[0] * 10, [1] * 10]
    assert grouping.ungrouped == []
    assert all(a >= 0 for a in grouping.assignment)
    assert grouping.examples and grouping.examples[0].length >= 32


def test_snippet_shared_across_templates_does_not_merge_them():
    snippet = '<script src="https://stats.example.org/track.js" async></script><!-- tracker v2 -->'
    docs = [d + snippet for d in templated_pages(8, 1, TEMPLATE_A) + templated_pages(8, 2, TEMPLATE_B)]
    grouping = amplify(docs).groups()
    assert sorted(sorted(g) for g in grouping.groups) == [list(range(8)), list(range(8, 16))]


def test_unrelated_documents_stay_ungrouped():
    rng = random.Random(9)
    docs = templated_pages(6, 1, TEMPLATE_A) + [prose(rng, 80) for _ in range(4)]
    grouping = amplify(docs).groups()
    assert sorted(grouping.groups[0]) == list(range(6))
    assert set(range(6, 10)) <= set(grouping.ungrouped)


def test_pregroup_is_a_partition():
    docs = templated_pages(5, 1, TEMPLATE_A) + templated_pages(5, 2, TEMPLATE_B) + ["<p>alone</p>"]
    parts = pregroup(docs)
    assert sorted(i for p in parts for i in p) == list(range(11))
    assert sorted(sorted(p) for p in parts if len(p) == 5) == [list(range(5)), list(range(5, 10))]
    alone = pregroup(docs, rest="alone")
    assert [10] in alone
    assert pregroup([]) == []


def test_skeleton_keeps_tags_and_key_attributes_only():
    page = (
        '<html><body><div id="post-123" class="story main">Some <b>text</b> here'
        "<script>var x = '<div>';</script><!-- <p>comment</p> -->"
        '<img src="/img/logo2.png?v=3" alt="x"><a href="/story/99">link</a></div></body></html>'
    )
    sk = skeleton(page)
    assert "<div id=post-0 class=story main>" in sk
    assert "<script>" in sk and "var x" not in sk and "comment" not in sk
    assert "<img src=/img/logo0.png>" in sk
    assert "/story/" not in sk  # article links are content, not template
    assert "Some" not in sk and "~" in sk


# -- reference ------------------------------------------------------------------------------------


def test_reference_file_loads():
    ref = load_reference()
    assert ref.f[0] == 2 and ref.f == sorted(ref.f)
    assert ref.sizes == sorted(ref.sizes) and len(ref.mean) == len(ref.sizes) == len(ref.sd)
    assert all(len(row) == len(ref.f) for row in ref.mean + ref.sd)
    strict, loose = ref.threshold(0.001, 50_000, 500), ref.threshold(0.1, 50_000, 500)
    assert np.all(strict[2:] >= loose[2:]) and np.isinf(strict[:2]).all()
    with pytest.raises(ValueError):
        ref.threshold(1.5, 1000, 10)


def test_reference_rejects_foreign_file(tmp_path):
    path = tmp_path / "ref.json"
    path.write_text(json.dumps({"format": "something-else"}))
    with pytest.raises(ValueError):
        load_reference(str(path))


# -- command line ----------------------------------------------------------------------------------


def _run_cli(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="newsstemmer")
    sub = parser.add_subparsers(dest="command")
    cli_templates.add_arguments(sub.add_parser("templates"))
    args = parser.parse_args(argv)
    return args.func(args)


def test_cli_json_and_plot(tmp_path, capsys):
    for i, d in enumerate(templated_pages(6, 1, TEMPLATE_A)):
        (tmp_path / "a").mkdir(exist_ok=True)
        (tmp_path / "a" / f"{i}.html").write_text(d, encoding="utf-8")
    for i, d in enumerate(templated_pages(6, 2, TEMPLATE_B)):
        (tmp_path / "b").mkdir(exist_ok=True)
        (tmp_path / "b" / f"{i}.html").write_text(d, encoding="utf-8")
    plot = tmp_path / "f.svg"
    code = _run_cli(["templates", "--json", "-q", "--plot", str(plot), str(tmp_path)])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) >= {"groups", "peaks", "ungrouped"}
    groups = sorted(sorted(p.split("/")[-2] for p in g) for g in out["groups"])
    assert groups == [["a"] * 6, ["b"] * 6]
    svg = plot.read_text(encoding="utf-8")
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>") and "<circle" in svg


def test_cli_text_output_with_skeleton_and_delta(tmp_path, capsys):
    for i, d in enumerate(templated_pages(5, 1, TEMPLATE_A) + templated_pages(5, 2, TEMPLATE_B)):
        (tmp_path / f"{i}.html").write_text(d, encoding="utf-8")
    code = _run_cli(["templates", "-q", "--skeleton", "--delta", "1.5", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0
    assert out.count("group ") == 2 and "peaks (delta 1.5)" in out


def brute_maximal_repeats(docs: list[str]) -> set[tuple[bytes, int]]:
    """(substring, occurrences) of the substrings occurring ≥ 2 times whose occurrences are
    followed by ≥ 2 different bytes and preceded by ≥ 2 different bytes (a document's
    start and end count as different from everything)."""
    where: dict[bytes, list[tuple[int, int, int]]] = {}
    encoded = [d.encode("utf-8") for d in docs]
    for di, b in enumerate(encoded):
        for i in range(len(b)):
            for j in range(i + 1, len(b) + 1):
                where.setdefault(b[i:j], []).append((di, i, j))
    out = set()
    for s, occ in where.items():
        if len(occ) < 2:
            continue
        after = {("end", di) if j == len(encoded[di]) else encoded[di][j] for di, i, j in occ}
        before = {("start", di, i) if i == 0 else encoded[di][i - 1] for di, i, j in occ}
        if len(after) >= 2 and len(before) >= 2:
            out.add((s, len(occ)))
    return out


@settings(max_examples=150, deadline=None)
@given(st.lists(st.text(alphabet="ab", max_size=15), min_size=1, max_size=4))
def test_kept_parts_are_exactly_the_maximal_repeats(docs):
    amp = amplify(docs, min_length=1)
    nodes = amp._nodes
    got = {(amp._data[p : p + d].tobytes(), int(f)) for p, d, f in zip(nodes.pos, nodes.depth, nodes.freq)}
    assert got == brute_maximal_repeats(docs)
