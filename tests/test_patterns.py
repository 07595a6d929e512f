"""Tests of the site pattern model and its JSON file (SPEC §2.7)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from newsstemmer.layout.patterns import (
    FORMAT_NAME,
    FORMAT_VERSION,
    LayoutPattern,
    LayoutSection,
    PatternFileError,
    SitePatterns,
)


def make_site() -> SitePatterns:
    article = LayoutPattern(
        id="p0",
        score=1565.49,
        pages=8,
        sections=[
            LayoutSection("title", 0.49, 28.07, "static"),
            LayoutSection("div:id=header/ul:class=nav/li", 0.0, 0.0, "static"),
            LayoutSection("div:id=content/div:class=article post-#/h1", 0.62, 28.07, "title"),
            LayoutSection("div:class=article post-#/div:class=body/p", 0.59, 724.77, "main"),
            LayoutSection("div:class=mostread/ul/li", 0.58, 0.0, "sub"),
            LayoutSection("div:id=footer/p", 0.0, 0.0, "static"),
        ],
        title_section=2,
        main_section=3,
        article=True,
        sample_urls=["http://example.com/news/1.html", "http://example.com/news/2.html"],
        free_paths={"div:class=body/blockquote": "main", "div:class=ad": "static"},
    )
    index = LayoutPattern(
        id="p1",
        score=0.0,
        pages=3,
        sections=[LayoutSection("table:class=frontpage/tr/td", 0.6, 0.0, "sub")],
        title_section=None,
        main_section=None,
        article=False,
    )
    return SitePatterns(
        site="example.com",
        patterns=[article, index],
        settings={"cluster_threshold": 0.97, "diff_threshold": 0.5, "blocks": {"path_depth": 3}},
        pages=["http://example.com/news/1.html", "http://example.com/天気/2.html"],
        created="2024-05-01T12:00:00+00:00",
        extras={"rules": ["div.body > p"]},
    )


def valid_dict() -> dict:
    return json.loads(make_site().to_json())


def write_json(path: Path, data) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def assert_load_error(path: Path, *fragments: str) -> PatternFileError:
    with pytest.raises(PatternFileError) as info:
        SitePatterns.load(path)
    msg = str(info.value)
    assert str(path) in msg
    for f in fragments:
        assert f in msg
    return info.value


# -- round trip ----------------------------------------------------------------------


def test_round_trip(tmp_path: Path) -> None:
    site = make_site()
    target = site.save(tmp_path / "example.com.json")
    assert target == tmp_path / "example.com.json"
    loaded = SitePatterns.load(target)
    assert loaded == site


def test_round_trip_str_path_and_nested_dir(tmp_path: Path) -> None:
    site = make_site()
    target = tmp_path / "a" / "b" / "site.json"
    site.save(str(target))
    assert SitePatterns.load(str(target)) == site


def test_round_trip_from_dict() -> None:
    site = make_site()
    assert SitePatterns.from_dict(site.to_dict()) == site


def test_round_trip_empty_site(tmp_path: Path) -> None:
    site = SitePatterns(site="empty.example", patterns=[])
    site.save(tmp_path / "e.json")
    assert SitePatterns.load(tmp_path / "e.json") == site


def test_save_overwrites(tmp_path: Path) -> None:
    target = tmp_path / "s.json"
    make_site().save(target)
    other = SitePatterns(site="other.example", patterns=[])
    other.save(target)
    assert SitePatterns.load(target) == other


def test_saved_file_is_human_readable_json(tmp_path: Path) -> None:
    target = make_site().save(tmp_path / "s.json")
    text = target.read_text(encoding="utf-8")
    data = json.loads(text)
    assert data["format"] == FORMAT_NAME == "newsstemmer-patterns"
    assert data["version"] == FORMAT_VERSION
    assert data["site"] == "example.com"
    assert data["settings"]["cluster_threshold"] == 0.97
    assert data["pages"][0] == "http://example.com/news/1.html"
    p0 = data["patterns"][0]
    assert p0["score"] == 1565.49
    assert p0["title_section"] == 2
    expected = {
        "path": "div:class=article post-#/div:class=body/p",
        "diff_score": 0.59,
        "main_score": 724.77,
        "role": "main",
    }
    assert {k: p0["sections"][3][k] for k in expected} == expected
    # readable and diffable: one field per line, non-ASCII kept as is
    assert text.count("\n") > 30
    assert "天気" in text
    assert text.endswith("\n")


# -- atomic save ---------------------------------------------------------------------


def test_atomic_save_leaves_no_temp_files(tmp_path: Path) -> None:
    site = make_site()
    for _ in range(3):
        site.save(tmp_path / "s.json")
    assert sorted(os.listdir(tmp_path)) == ["s.json"]


def test_failed_save_keeps_old_file_and_no_temp(tmp_path: Path, monkeypatch) -> None:
    target = make_site().save(tmp_path / "s.json")
    before = target.read_bytes()

    def boom(self):
        raise RuntimeError("disk full")

    monkeypatch.setattr(SitePatterns, "to_json", boom)
    with pytest.raises(RuntimeError):
        SitePatterns(site="new.example", patterns=[]).save(target)
    assert target.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["s.json"]


def test_failed_replace_keeps_old_file_and_no_temp(tmp_path: Path, monkeypatch) -> None:
    target = make_site().save(tmp_path / "s.json")
    before = target.read_bytes()

    def bad_replace(src, dst):
        raise OSError("replace failed")

    monkeypatch.setattr(os, "replace", bad_replace)
    with pytest.raises(OSError):
        SitePatterns(site="new.example", patterns=[]).save(target)
    monkeypatch.undo()
    assert target.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["s.json"]


# -- corrupt files -------------------------------------------------------------------


def test_missing_file(tmp_path: Path) -> None:
    assert_load_error(tmp_path / "nope.json")


def test_directory_instead_of_file(tmp_path: Path) -> None:
    assert_load_error(tmp_path)


def test_truncated_file(tmp_path: Path) -> None:
    target = make_site().save(tmp_path / "s.json")
    text = target.read_text(encoding="utf-8")
    target.write_text(text[: len(text) // 2], encoding="utf-8")
    assert_load_error(target, "JSON")


def test_empty_file(tmp_path: Path) -> None:
    target = tmp_path / "s.json"
    target.write_bytes(b"")
    assert_load_error(target)


def test_not_utf8(tmp_path: Path) -> None:
    target = tmp_path / "s.json"
    target.write_bytes(b'{"format": "newsstemmer-patterns", "site": "\xff\xfe\x80"}')
    assert_load_error(target, "UTF-8")


def test_binary_garbage(tmp_path: Path) -> None:
    target = tmp_path / "s.json"
    target.write_bytes(bytes(range(256)) * 4)
    assert_load_error(target)


@pytest.mark.parametrize(
    "data",
    [
        {"format": "something-else", "version": 1, "site": "x", "patterns": []},
        {"version": 1, "site": "x", "patterns": []},
        [1, 2, 3],
        "newsstemmer-patterns",
        None,
        {"type": "FeatureCollection", "features": []},
    ],
)
def test_json_of_another_format(tmp_path: Path, data) -> None:
    assert_load_error(write_json(tmp_path / "s.json", data), "format")


def test_newer_version(tmp_path: Path) -> None:
    data = valid_dict()
    data["version"] = FORMAT_VERSION + 1
    assert_load_error(write_json(tmp_path / "s.json", data), "newer")


@pytest.mark.parametrize("version", [None, "1", 1.5, True, [1]])
def test_invalid_version(tmp_path: Path, version) -> None:
    data = valid_dict()
    data["version"] = version
    assert_load_error(write_json(tmp_path / "s.json", data), "version")


def _mutations():
    def score_string(d):
        d["patterns"][0]["score"] = "1565.49"

    def role_unknown(d):
        d["patterns"][0]["sections"][1]["role"] = "advert"

    def title_out_of_range(d):
        d["patterns"][0]["title_section"] = len(d["patterns"][0]["sections"])

    def title_negative(d):
        d["patterns"][0]["title_section"] = -1

    def title_bool(d):
        d["patterns"][0]["title_section"] = True

    def main_string(d):
        d["patterns"][0]["main_section"] = "3"

    def diff_score_string(d):
        d["patterns"][0]["sections"][0]["diff_score"] = "0.5"

    def path_not_string(d):
        d["patterns"][0]["sections"][0]["path"] = ["div", "p"]

    def section_not_object(d):
        d["patterns"][0]["sections"][0] = "title"

    def sections_missing(d):
        del d["patterns"][0]["sections"]

    def pattern_not_object(d):
        d["patterns"][0] = 42

    def patterns_not_list(d):
        d["patterns"] = {"p0": {}}

    def patterns_missing(d):
        del d["patterns"]

    def pages_count_string(d):
        d["patterns"][0]["pages"] = "8"

    def site_missing(d):
        del d["site"]

    def site_number(d):
        d["site"] = 12

    def settings_list(d):
        d["settings"] = [1, 2]

    def pages_not_strings(d):
        d["pages"] = [1, 2]

    def free_paths_bad_role(d):
        d["patterns"][0]["free_paths"] = {"div": "ad"}

    def sample_urls_not_list(d):
        d["patterns"][0]["sample_urls"] = "http://example.com/"

    def extras_list(d):
        d["extras"] = []

    return [
        pytest.param(f, id=f.__name__)
        for f in (
            score_string,
            role_unknown,
            title_out_of_range,
            title_negative,
            title_bool,
            main_string,
            diff_score_string,
            path_not_string,
            section_not_object,
            sections_missing,
            pattern_not_object,
            patterns_not_list,
            patterns_missing,
            pages_count_string,
            site_missing,
            site_number,
            settings_list,
            pages_not_strings,
            free_paths_bad_role,
            sample_urls_not_list,
            extras_list,
        )
    ]


@pytest.mark.parametrize("mutate", _mutations())
def test_wrong_types(tmp_path: Path, mutate) -> None:
    data = valid_dict()
    mutate(data)
    assert_load_error(write_json(tmp_path / "s.json", data))


def test_error_messages_say_what_is_wrong(tmp_path: Path) -> None:
    data = valid_dict()
    data["patterns"][0]["score"] = "high"
    assert_load_error(write_json(tmp_path / "a.json", data), "score")
    data = valid_dict()
    data["patterns"][0]["sections"][1]["role"] = "advert"
    assert_load_error(write_json(tmp_path / "b.json", data), "role", "advert")
    data = valid_dict()
    data["patterns"][0]["title_section"] = 99
    assert_load_error(write_json(tmp_path / "c.json", data), "title_section")


def test_pattern_file_error_is_value_error() -> None:
    assert issubclass(PatternFileError, ValueError)


def test_deeply_nested_json(tmp_path: Path) -> None:
    target = tmp_path / "s.json"
    target.write_text("[" * 100_000, encoding="utf-8")
    assert_load_error(target)


def test_huge_integer_score(tmp_path: Path) -> None:
    target = tmp_path / "s.json"
    text = json.dumps(valid_dict()).replace('"score": 1565.49', '"score": 1' + "0" * 400)
    assert "0" * 400 in text
    target.write_text(text, encoding="utf-8")
    assert_load_error(target)


# -- never evaluated as code -----------------------------------------------------------


@pytest.mark.parametrize(
    "template",
    [
        "__import__('os').system('touch {x}')",
        "(0.5, 'p0', 1, 2, [(0.1, 'div')]) or __import__('os').system('touch {x}')",
        "# comment\n__import__('os').system('touch {x}')\n",
        '{{"format": "newsstemmer-patterns", "version": 1, "site": __import__("os").system("touch {x}")}}',
    ],
)
def test_loader_never_evaluates_code(tmp_path: Path, template: str) -> None:
    marker = tmp_path / "PWNED"
    target = tmp_path / "s.json"
    target.write_text(template.format(x=marker), encoding="utf-8")
    assert_load_error(target)
    assert not marker.exists()


def test_old_repr_pattern_file_rejected(tmp_path: Path) -> None:
    # The original Webstemmer format: Python repr tuples read back with eval().
    target = tmp_path / "old.pat"
    target.write_text(
        "### version=0.7.1\n# pages: a.html b.html\n"
        "(1565.4, 'p0', 2, 3, [(0.0, 'div/p'), (0.62, 'h1'), (0.59, 'div:class=body/p')])\n",
        encoding="utf-8",
    )
    assert_load_error(target)
