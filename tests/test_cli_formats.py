"""``newsstemmer extract`` with the structured body (issue #25): ``--formats``, ``--keep``,
``--output-format``, as the README's commands run them."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from newsstemmer.cli import main

ARTICLE = Path(__file__).parent / "fixtures" / "structure" / "article.html"


@pytest.fixture
def site(tmp_path: Path) -> Path:
    folder = tmp_path / "site"
    folder.mkdir()
    shutil.copy(ARTICLE, folder / "story.html")
    (folder / "other.html").write_text(
        "<html><head><title>Short note</title></head><body><div class='note'>"
        + "<p>A second page with a paragraph of its own, long enough to be an article body.</p>" * 4
        + "<p class='image-caption'>A caption the page prints.</p></div></body></html>", encoding="utf-8")
    return folder


def records(capsys) -> list[dict]:
    out = capsys.readouterr().out
    return [json.loads(line) for line in out.splitlines()]


def test_formats_add_markdown_html_captions_and_images(site, capsys) -> None:
    assert main(["extract", "-q", "-j", "1", "--formats", "markdown,html", str(site)]) == 0
    by_source = {Path(r["source"]).name: r for r in records(capsys)}
    story = by_source["story.html"]
    assert "## What the towns will pay" in story["body_markdown"]
    assert "<h2>What the towns will pay</h2>" in story["body_html"]
    assert story["captions"] == ["The old bridge under water in February. Photo: Lena Park"]
    assert story["images"] == ["/media/bridge.jpg"]  # (a file with no URL: as the page gives it)
    assert "[Ana Ruiz](</staff/ana-ruiz>)" in story["body_markdown"]
    assert "blocks" not in story


def test_without_formats_a_record_is_as_before(site, capsys) -> None:
    assert main(["extract", "-q", "-j", "1", str(site)]) == 0
    for record in records(capsys):
        assert not {"body_markdown", "body_html", "captions", "images", "blocks"} & set(record)


def test_keep_adds_the_kinds_to_the_body(site, capsys) -> None:
    assert main(["extract", "-q", "-j", "1", str(site / "story.html")]) == 0
    (plain,) = records(capsys)
    assert main(["extract", "-q", "-j", "1", "--keep", "captions", "--formats", "blocks", str(site / "story.html")]) == 0
    (kept,) = records(capsys)
    caption = "The old bridge under water in February. Photo: Lena Park"
    assert caption not in plain["body"] and caption in kept["body"]
    assert kept["body"].replace(caption + "\n", "") == plain["body"]
    assert {"figure", "table", "list", "heading", "code"} <= {b["kind"] for b in kept["blocks"]}
    # the caption is a block of its own, or the caption of a figure left out whole
    assert any(b["kind"] == "caption" and b["text"] == caption or b.get("caption") == caption for b in kept["blocks"])


def test_output_format_prints_one_body_alone(site, capsys) -> None:
    assert main(["extract", "-q", "--output-format", "markdown", str(site / "story.html")]) == 0
    out = capsys.readouterr().out
    assert out.startswith("By [Ana Ruiz]") and "\n| Town | Share |\n" in out and not out.startswith("{")
    assert main(["extract", "-q", "--output-format", "text", str(site / "story.html")]) == 0
    text = capsys.readouterr().out
    assert "Town\nShare\nMillford" in text


def test_the_readme_commands_run(site, capsys, monkeypatch) -> None:
    """The README's three commands, in a folder holding ``site/`` (stdout to files)."""
    readme = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    start = readme.index("newsstemmer extract --formats markdown,html")
    block = readme[start: readme.index("```", start)].strip().splitlines()
    monkeypatch.chdir(site.parent)
    for line in block:
        argv = line.split("#")[0].split(">")[0].split()
        assert argv[0] == "newsstemmer"
        assert main(argv[1:] + ["-q"]) == 0, line
        assert capsys.readouterr().out.strip()
    assert len(block) == 3


def test_output_format_wants_one_page(site, capsys) -> None:
    assert main(["extract", "-q", "--output-format", "html", str(site)]) == 2
    err = capsys.readouterr().err
    assert err.strip() == "newsstemmer: error: --output-format prints one page's body: give one page, not 2"
