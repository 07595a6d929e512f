"""Tests of the ``newsstemmer`` command line (``newsstemmer.cli``)."""

from __future__ import annotations

import json
import os
import re
import random
import subprocess
import sys
from pathlib import Path

import pytest

from newsstemmer import SitePatterns, __version__
from newsstemmer.cli import common, main
from newsstemmer.cli import learn as cli_learn

# -- a purpose-made site ----------------------------------------------------------------

NAV = ["Home page", "World news", "Business and markets", "Science today", "Sport results"]
SIDEBAR = [
    "Most read: city council approves the new budget",
    "Most read: weather service warns of storms",
    "Opinion: why local newspapers still matter",
    "Podcast: the week in review with our editors",
]
FOOTER = "Copyright 2024 Daily Example Media Group. All rights reserved worldwide."
FOOTER2 = "Contact the newsroom, privacy policy and terms of service of Daily Example."

TITLES = [
    "Harbour bridge reopens after two years of repairs",
    "Local orchestra wins national prize for young musicians",
    "Farmers report record apple harvest despite dry summer",
    "New tram line promises faster commutes across the city",
    "Scientists map ancient river beneath the old town square",
    "Volunteers plant ten thousand trees along the coast road",
]

WORDS = (
    "council residents engineers weekend station market river village budget report "
    "teachers students library museum festival harbour workers season families "
    "visitors mayor committee research project morning evening winter summer spring "
    "traffic school hospital garden theatre railway island mountain forest valley "
    "announced explained expected reported confirmed described planned celebrated "
    "quickly carefully finally recently slowly openly proudly quietly"
).split()


def _paragraphs(seed: int) -> list[str]:
    rng = random.Random(seed)
    out = []
    for k in range(3 + seed % 4):  # 3 to 6 paragraphs, of different lengths
        n_words = rng.randint(18, 70)
        words = [rng.choice(WORDS) for _ in range(n_words)]
        out.append(f"Paragraph {k + 1} of story {seed}: " + " ".join(words).capitalize() + ".")
    return out


def article_html(i: int, head_extra: str = "", charset: str = "utf-8") -> str:
    title = TITLES[i]
    paras = "\n".join(f"<p>{p}</p>" for p in _paragraphs(i))
    nav = "".join(f'<li><a href="/s{k}">{t}</a></li>' for k, t in enumerate(NAV))
    side = "".join(f'<li><a href="/r{k}">{t}</a></li>' for k, t in enumerate(SIDEBAR))
    return f"""<!DOCTYPE html>
<html><head><meta charset="{charset}">
<title>{title} - Daily Example</title>
<link rel="canonical" href="https://news.example.com/2024/story-{i}.html">
{head_extra}
</head><body>
<header class="site-header"><div class="logo">Daily Example News</div>
<nav class="main-nav"><ul>{nav}</ul></nav></header>
<div class="content">
<article class="story">
<h1 class="headline">{title}</h1>
<div class="byline">By staff reporter {i} on 2024-05-{10 + i:02d}</div>
<div class="story-body">
{paras}
</div>
</article>
<aside class="sidebar"><h2>More from Daily Example</h2><ul>{side}</ul></aside>
</div>
<footer class="site-footer"><p>{FOOTER}</p><p>{FOOTER2}</p></footer>
</body></html>
"""


def index_html() -> str:
    nav = "".join(f'<li><a href="/s{k}">{t}</a></li>' for k, t in enumerate(NAV))
    items = "".join(
        f'<li class="teaser"><a href="/2024/story-{i}.html">{t}</a></li>' for i, t in enumerate(TITLES)
    )
    return f"""<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Daily Example - front page</title>
<link rel="canonical" href="https://news.example.com/"></head><body>
<header class="site-header"><div class="logo">Daily Example News</div>
<nav class="main-nav"><ul>{nav}</ul></nav></header>
<main class="front"><h2>Latest stories</h2><ul class="teasers">{items}</ul></main>
<footer class="site-footer"><p>{FOOTER}</p><p>{FOOTER2}</p></footer>
</body></html>
"""


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """tmp_path/site: six articles (two in a subdirectory) and an index page."""
    root = tmp_path / "site"
    (root / "2024").mkdir(parents=True)
    for i in range(len(TITLES)):
        sub = root / "2024" if i >= 4 else root
        (sub / f"story-{i}.html").write_text(article_html(i), encoding="utf-8")
    (root / "index.HTM").write_text(index_html(), encoding="utf-8")  # suffix is case-insensitive
    (root / "notes.txt").write_text("not a page", encoding="utf-8")  # ignored in directories
    return root


def article_files(root: Path) -> list[Path]:
    return [(root / "2024" if i >= 4 else root) / f"story-{i}.html" for i in range(len(TITLES))]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def records(out: str) -> list[dict]:
    return [json.loads(line) for line in out.splitlines()]


@pytest.fixture
def patterns(site: Path, tmp_path: Path, capsys) -> Path:
    out = tmp_path / "patterns" / "site.json"
    code, _, err = run(capsys, "learn", "-q", "-o", str(out), str(site))
    assert code == 0, err
    return out


# -- learn ------------------------------------------------------------------------------------


def test_learn_writes_valid_pattern_file(site: Path, tmp_path: Path, capsys):
    out = tmp_path / "site.json"
    code, stdout, err = run(capsys, "learn", "-o", str(out), str(site))
    assert code == 0, err
    assert stdout == ""
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["format"] == "newsstemmer-patterns"
    loaded = SitePatterns.load(out)
    assert loaded.site == "news.example.com"  # from the canonical URLs
    assert any(p.article for p in loaded.patterns)
    # Summary and progress on stderr, no traceback.
    assert "read 7 pages" in err
    assert "article layout" in err
    assert str(out) in err
    assert "loading" in err
    assert "Traceback" not in err


def test_learn_options_are_saved(site: Path, tmp_path: Path, capsys):
    out = tmp_path / "site.json"
    code, _, err = run(
        capsys, "learn", "-q", "-o", str(out), "--site", "example",
        "-t", "0.95", "-T", "0.4", "-M", "40", "--score-threshold", "80", str(site),
    )
    assert code == 0, err
    assert err == ""  # -q: no progress, no summary
    loaded = SitePatterns.load(out)
    assert loaded.site == "example"
    s = loaded.settings
    assert (s["cluster_threshold"], s["diff_threshold"], s["main_threshold"], s["score_threshold"]) == (
        0.95, 0.4, 40.0, 80.0,
    )


def test_learn_skips_binary_and_missing_pages(site: Path, tmp_path: Path, capsys):
    png = site / "logo.html"
    png.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4)
    out = tmp_path / "site.json"
    missing = str(site / "nope.html")
    code, _, err = run(capsys, "learn", "-o", str(out), str(site), missing)
    assert code == 0, err
    assert f"newsstemmer: {png}: skipped: not a text page" in err
    assert f"newsstemmer: {missing}: skipped:" in err
    assert "skipped 2 pages" in err
    assert out.exists()
    assert all("logo" not in p for p in SitePatterns.load(out).pages)


def test_learn_without_pages_is_an_error(tmp_path: Path, capsys):
    empty = tmp_path / "empty"
    empty.mkdir()
    code, _, err = run(capsys, "learn", "-o", str(tmp_path / "x.json"), str(empty))
    assert code == 2
    assert err.startswith("newsstemmer: error: no pages")
    png = tmp_path / "a.html"
    png.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    code, _, err = run(capsys, "learn", "-o", str(tmp_path / "x.json"), str(png))
    assert code == 2
    assert "no readable pages" in err
    assert not (tmp_path / "x.json").exists()


def test_linkinfo_attaches_anchors(site: Path, tmp_path: Path, capsys, monkeypatch):
    links = tmp_path / "links.jsonl"
    lines = [
        {"url": "https://news.example.com/2024/story-0.html", "anchors": [TITLES[0]]},
        {"url": "HTTPS://NEWS.example.com/2024/story-1.html#top", "anchors": [TITLES[1], "  read   more "]},
        {"source": str(article_files(site)[2]), "anchors": [TITLES[2]]},
        {"source": os.path.relpath(article_files(site)[3], tmp_path), "anchors": [TITLES[3]]},
    ]
    links.write_text("\n".join(json.dumps(x) for x in lines) + "\n\n", encoding="utf-8")

    seen: dict[str, list[str]] = {}
    real_learn = cli_learn.learn

    def spy(pages, *a, **kw):
        pages = list(pages)
        seen.update({p.source: p.anchor_texts for p in pages})
        return real_learn(pages, *a, **kw)

    monkeypatch.setattr(cli_learn, "learn", spy)
    out = tmp_path / "site.json"
    # Relative "source" paths resolve against the linkinfo file's directory too.
    monkeypatch.chdir(site)
    code, _, err = run(capsys, "learn", "-o", str(out), "--linkinfo", str(links), str(site))
    assert code == 0, err
    files = [str(f) for f in article_files(site)]
    assert seen[files[0]] == [TITLES[0]]
    assert seen[files[1]] == [TITLES[1], "read more"]
    assert seen[files[2]] == [TITLES[2]]
    assert seen[files[3]] == [TITLES[3]]
    assert seen[files[4]] == []
    assert "4 with anchor texts" in err
    # The anchors are used: the headline is the title section.
    code, stdout, err = run(capsys, "extract", "-p", str(out), *files)
    assert [r["title"] for r in records(stdout)] == TITLES


@pytest.mark.parametrize(
    "content, problem",
    [
        ('{"url": "https://a.example/x", "anchors": ["ok"]}\n{"url": "https://a.example/y", "anchors": [', "line 2"),
        ('{"url": "https://a.example/x", "anchors": "not a list"}\n', "line 1"),
        ('\n["a", "b"]\n', "line 2"),
        ('{"anchors": ["no key"]}\n', "line 1"),
    ],
)
def test_malformed_linkinfo(site: Path, tmp_path: Path, capsys, content: str, problem: str):
    links = tmp_path / "bad-links.jsonl"
    links.write_text(content, encoding="utf-8")
    code, _, err = run(capsys, "learn", "-o", str(tmp_path / "x.json"), "--linkinfo", str(links), str(site))
    assert code == 2
    assert err.startswith(f"newsstemmer: error: {links}: {problem}:")
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


# -- extract ----------------------------------------------------------------------------------


def test_extract_with_patterns(site: Path, patterns: Path, capsys):
    files = [str(f) for f in article_files(site)]
    code, out, err = run(capsys, "extract", "-p", str(patterns), *files)
    assert code == 0, err
    recs = records(out)
    assert len(recs) == len(files)
    nav_and_footer = NAV + SIDEBAR + [FOOTER, FOOTER2, "Daily Example News"]
    for i, (rec, path) in enumerate(zip(recs, files)):
        assert rec["source"] == path
        assert rec["url"] == f"https://news.example.com/2024/story-{i}.html"
        assert rec["matched"] is True
        assert rec["method"] == "pattern"
        assert rec["pattern"]
        assert rec["title"] == TITLES[i]
        for para in _paragraphs(i):
            assert para in rec["body"]
        for boiler in nav_and_footer:
            assert boiler not in rec["body"]
        assert TITLES[i] not in rec["body"]
        assert "error" not in rec


def test_extract_directory_input(site: Path, patterns: Path, capsys):
    code, out, err = run(capsys, "extract", "-q", "-p", str(patterns), str(site))
    assert code == 0, err
    assert err == ""
    recs = records(out)
    # Sorted, recursive, case-insensitive suffixes, other files ignored; sources as given.
    assert [r["source"] for r in recs] == [
        os.path.join(str(site), "2024", "story-4.html"),
        os.path.join(str(site), "2024", "story-5.html"),
        os.path.join(str(site), "index.HTM"),
        *(os.path.join(str(site), f"story-{i}.html") for i in range(4)),
    ]
    by_source = {r["source"]: r for r in recs}
    for i, f in enumerate(article_files(site)):
        assert by_source[str(f)]["matched"] is True
        assert by_source[str(f)]["title"] == TITLES[i]
    index = by_source[os.path.join(str(site), "index.HTM")]
    assert index["body"] == "" or not index["is_article"] or not index["matched"]


def test_extract_without_patterns(site: Path, capsys):
    files = [str(f) for f in article_files(site)]
    code, out, err = run(capsys, "extract", *files)
    assert code == 0, err
    recs = records(out)
    assert len(recs) == len(files)
    for i, rec in enumerate(recs):
        # No layouts known: each page is extracted on its own (the default single-page method).
        assert rec["matched"] is False
        assert rec["method"] == "region" and rec["pattern"] is None
        assert rec["body"] != ""
        assert rec["title"] in (TITLES[i], f"{TITLES[i]} - Daily Example")
        assert rec["source"] == files[i]


def test_extract_method_crf(site: Path, capsys):
    files = [str(f) for f in article_files(site)]
    code, out, err = run(capsys, "extract", "--method", "crf", *files)
    assert code == 0, err
    recs = records(out)
    assert len(recs) == len(files)
    for i, rec in enumerate(recs):
        assert rec["matched"] is False and rec["method"] == "crf" and rec["pattern"] is None
        assert rec["title"] in (TITLES[i], f"{TITLES[i]} - Daily Example")
        assert len(rec["body"]) > 200, rec


def test_extract_crf_model_errors(site: Path, tmp_path: Path, capsys):
    bad = tmp_path / "model.zip"
    bad.write_bytes(b"not a zip file at all")
    code, out, err = run(capsys, "extract", "--method", "crf", "--crf-model", str(bad), str(site))
    assert code == 2 and str(bad) in err and out == ""
    code, out, err = run(capsys, "extract", "--crf-model", str(bad), str(site))
    assert code == 2 and "--method crf" in err and out == ""


def test_extract_method_pattern_without_patterns_is_an_error(site: Path, capsys):
    code, out, err = run(capsys, "extract", "--method", "pattern", str(site))
    assert code == 2 and "needs a pattern file" in err and out == ""


def test_extract_method_pattern_leaves_unmatched_pages_empty(site: Path, patterns: Path, capsys):
    code, out, err = run(capsys, "extract", "--method", "pattern", "-p", str(patterns), str(site))
    recs = records(out)
    assert any(r["matched"] for r in recs)
    assert all(r["body"] == "" for r in recs if not r["matched"])


def test_extract_progress_lines(site: Path, capsys):
    code, _, err = run(capsys, "extract", str(site))
    assert code == 0
    lines = [l for l in err.splitlines() if "extracting" in l]
    assert lines and lines[-1] == "newsstemmer: extracting 7/7 (100%)"
    assert len(lines) <= 11


def test_extract_binary_page_gets_error_line(site: Path, patterns: Path, capsys):
    png = site / "aaa-image.html"
    png.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4)
    empty = site / "aab-empty.html"
    empty.write_bytes(b"  \n ")
    code, out, err = run(capsys, "extract", "-p", str(patterns), str(site))
    assert code == 1
    recs = records(out)
    assert len(recs) == 9
    by_source = {r["source"]: r for r in recs}
    first, second = by_source[str(png)], by_source[str(empty)]
    assert first["matched"] is False and first["url"] is None
    assert first["title"] == "" and first["body"] == ""
    assert first["method"] is None and first["pattern"] is None
    assert "PNG" in first["error"]
    assert second["error"] == "empty document"
    assert sum(1 for r in recs if r["matched"]) >= 6  # the others are still extracted
    assert f"newsstemmer: {png}: error:" in err
    assert "Traceback" not in err


def test_extract_missing_page(site: Path, capsys):
    missing = str(site / "missing.html")
    code, out, err = run(capsys, "extract", missing, str(article_files(site)[0]))
    assert code == 1
    recs = records(out)
    assert recs[0]["source"] == missing and "No such file" in recs[0]["error"]
    assert recs[1]["title"]
    assert missing in err


def test_shift_jis_page(tmp_path: Path, capsys):
    title = "東京で新しい駅が開業しました"
    body = "日本語のニュース記事です。駅の開業を祝って多くの人が集まりました。"
    page = (
        '<html><head><meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">'
        f"<title>{title}</title></head><body><h1>{title}</h1><p>{body}</p></body></html>"
    )
    path = tmp_path / "sjis.html"
    path.write_bytes(page.encode("shift_jis"))
    code, out, err = run(capsys, "extract", str(path))
    assert code == 0, err
    (rec,) = records(out)
    assert rec["title"] == title
    assert "\\u" not in out  # ensure_ascii=False
    assert title in out


@pytest.mark.parametrize(
    "content",
    [
        '{"format": "newsstemmer-patterns", "version": 1, "site": "x", "patterns": [',  # invalid JSON
        '{"type": "FeatureCollection", "features": []}',  # JSON of another format
        '{"format": "newsstemmer-patterns", "version": 1, "site": "x", "patterns": [{"id": "p0", '
        '"score": "high", "pages": 3, "sections": []}]}',  # wrong field type
        '{"format": "newsstemmer-patterns", "version": 1, "site": 42, "patterns": []}',  # wrong field type
        "[" * 100_000 + "]" * 100_000,  # nested too deep for the JSON parser
        '{"format": "newsstemmer-patterns", "version": 1, "site": "x", "patterns": [{"id": "p0", '
        '"score": 1' + "0" * 400 + ', "pages": 3, "sections": []}]}',  # number too large for a float
    ],
)
def test_bad_pattern_file(site: Path, tmp_path: Path, capsys, content: str):
    bad = tmp_path / "broken-patterns.json"
    bad.write_text(content, encoding="utf-8")
    code, out, err = run(capsys, "extract", "-p", str(bad), str(site))
    assert code == 2
    assert out == ""
    assert err.startswith("newsstemmer: error: ")
    assert "broken-patterns.json" in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_bad_block_settings_in_pattern_file(patterns: Path, site: Path, capsys):
    data = json.loads(patterns.read_text(encoding="utf-8"))
    data["settings"]["blocks"]["path_depth"] = "3"
    patterns.write_text(json.dumps(data), encoding="utf-8")
    code, _, err = run(capsys, "extract", "-p", str(patterns), str(article_files(site)[0]))
    assert code == 2 and patterns.name in err


def test_bad_article_flag_in_pattern_file(patterns: Path, site: Path, capsys):
    data = json.loads(patterns.read_text(encoding="utf-8"))
    data["patterns"][0]["article"] = "false"
    patterns.write_text(json.dumps(data), encoding="utf-8")
    code, _, err = run(capsys, "extract", "-p", str(patterns), str(article_files(site)[0]))
    assert code == 2 and patterns.name in err


def test_missing_pattern_file(site: Path, tmp_path: Path, capsys):
    code, _, err = run(capsys, "extract", "-p", str(tmp_path / "nope.json"), str(site))
    assert code == 2
    assert "nope.json" in err and "Traceback" not in err


# -- general ---------------------------------------------------------------------------------


def test_version(capsys):
    code, out, _ = run(capsys, "--version")
    assert code == 0
    from newsstemmer import trees
    from newsstemmer.metadata import neighbourhood
    from newsstemmer.pagetype import features
    from newsstemmer.single import domgraph

    assert " ".join(out.split()) == (f"newsstemmer {__version__} (graph walk: {domgraph.GRAPH_WALK}, "
                                     f"tree models: {trees.TREE_EVALUATOR}, headline walk: {neighbourhood.HOOD_WALK}, "
                                     f"body walk: {features.BODY_WALK})")


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["frobnicate"],
        ["learn", "page.html"],  # no -o
        ["extract"],  # no pages
        ["extract", "--pattern-threshold", "1.5", "x.html"],
        ["learn", "-o", "x.json", "-t", "abc", "x.html"],
    ],
)
def test_usage_errors(argv, capsys):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err.startswith("newsstemmer: error: ")
    assert len(err.strip().splitlines()) == 1


def test_output_is_a_directory(site: Path, tmp_path: Path, capsys):
    code, _, err = run(capsys, "learn", "-o", str(tmp_path), str(site))
    assert code == 2
    assert "is a directory" in err


def test_progress_on_a_terminal():
    class Tty:
        def __init__(self):
            self.text = ""

        def write(self, s):
            self.text += s

        def flush(self):
            pass

        def isatty(self):
            return True

    stream = Tty()
    rep = common.Reporter(stream=stream)
    rep.progress("loading", 1, 2)
    rep.message("x.html: skipped: broken")
    rep.progress("loading", 2, 2)
    assert "\r" in stream.text
    assert "newsstemmer: x.html: skipped: broken\n" in stream.text
    assert stream.text.endswith("loading 2/2 (100%)\n")


def test_console_script_subprocess(site: Path, tmp_path: Path):
    out = tmp_path / "site.json"
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    learn = subprocess.run(
        [sys.executable, "-m", "newsstemmer", "learn", "-q", "-o", str(out), str(site)],
        capture_output=True, text=True, env=env, timeout=120,
    )
    assert learn.returncode == 0, learn.stderr
    extract = subprocess.run(
        [sys.executable, "-m", "newsstemmer", "extract", "-p", str(out), str(site)],
        capture_output=True, env=env, timeout=120,
    )
    assert extract.returncode == 0, extract.stderr
    lines = extract.stdout.decode("utf-8").splitlines()
    assert len(lines) == 7
    assert sum(json.loads(l)["matched"] for l in lines) >= 6
    assert b"extracting 7/7" in extract.stderr


def test_learn_names_site_after_folder_without_urls(tmp_path: Path) -> None:
    from newsstemmer.cli import main as cli_main

    fixture = Path(__file__).parent / "fixtures" / "site"
    out = tmp_path / "p.json"
    assert cli_main(["learn", "-q", "-o", str(out), str(fixture)]) == 0
    assert json.loads(out.read_text(encoding="utf-8"))["site"] == "site"


def test_extract_method_rules_uses_the_sites_selectors(tmp_path: Path, capsys) -> None:
    fixture = Path(__file__).parent / "fixtures" / "site"
    pfile = tmp_path / "p.json"
    assert main(["learn", "-q", "-o", str(pfile), str(fixture)]) == 0
    assert main(["rules", str(pfile), "--learn", str(fixture)]) == 0
    capsys.readouterr()
    page = fixture / "article-01.html"
    assert main(["extract", "-q", "--method", "rules", "-p", str(pfile), str(page)]) == 0
    (rec,) = records(capsys.readouterr().out)
    gold = (fixture / "article-01.gold.txt").read_text(encoding="utf-8").splitlines()
    assert rec["method"] == "rules" and rec["title"] == gold[0]
    assert rec["body"].splitlines() == gold[1:]


# -- start-up: what each command imports, the lazy package, page_url ----------------------------------

_HEAVY = ("numpy", "scipy", "pycrfsuite", "pydivsufsort", "warcio", "parsel", "cssselect", "scrapy", "twisted")


def _imported_after(code: str) -> set[str]:
    """Module names a fresh interpreter holds after running ``code``."""
    probe = code + "\nimport sys, json\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stdout.splitlines()[-1]))


def test_version_imports_nothing_of_the_core() -> None:
    mods = _imported_after("from newsstemmer.cli import main\nassert main(['--version']) == 0")
    ours = {m for m in mods if m.startswith("newsstemmer")}
    assert ours == {"newsstemmer", "newsstemmer.cli", "newsstemmer.cli.common", "newsstemmer.errors"}  # (errors: no imports)
    assert "lxml" not in mods and not any(h in mods for h in _HEAVY)


def test_extract_and_learn_import_only_what_they_use(tmp_path: Path) -> None:
    fixture = Path(__file__).parent / "fixtures" / "site"
    pfile = tmp_path / "p.json"
    for argv in (
        ["learn", "-q", "--rules-only", "-o", str(pfile), str(fixture)],
        ["extract", "-q", "-p", str(pfile), str(fixture)],
        ["extract", "-q", "--method", "pattern", "-p", str(pfile), str(fixture)],
    ):
        mods = _imported_after(f"from newsstemmer.cli import main\nmain({argv!r})")
        # (extraction types every page with the page-type model: numpy, nothing heavier)
        allowed = ("numpy",) if argv[0] == "extract" else ()
        assert not [h for h in _HEAVY if h in mods and h not in allowed], argv
        assert "newsstemmer.rules" not in mods and "newsstemmer.single.crf" not in mods
    # The learned section decision (learn's default) needs numpy and the region
    # extractor's models, nothing heavier.
    argv = ["learn", "-q", "-o", str(pfile), str(fixture)]
    mods = _imported_after(f"from newsstemmer.cli import main\nmain({argv!r})")
    assert "newsstemmer.combine.sections" in mods
    assert not [h for h in _HEAVY if h in mods and h != "numpy"], argv
    assert "newsstemmer.rules" not in mods and "pycrfsuite" not in mods


def test_package_names_load_on_first_use() -> None:
    mods = _imported_after("import newsstemmer\nassert newsstemmer.__version__")
    assert {m for m in mods if m.startswith("newsstemmer")} == {"newsstemmer"}
    import newsstemmer

    assert set(newsstemmer.__all__) <= set(dir(newsstemmer))
    for name in newsstemmer.__all__:
        assert getattr(newsstemmer, name) is not None
    with pytest.raises(AttributeError):
        newsstemmer.no_such_name  # noqa: B018
    site = newsstemmer.learn(
        [newsstemmer.Page(p.read_text(encoding="utf-8"), source=p.name)
         for p in sorted((Path(__file__).parent / "fixtures" / "site").glob("article-*.html"))]
    )
    page = Path(__file__).parent / "fixtures" / "site" / "article-02.html"
    article = site.extract(page.read_text(encoding="utf-8"))  # SitePatterns.extract: the method chain
    gold = (page.with_suffix("").with_suffix(".gold.txt")).read_text(encoding="utf-8").splitlines()
    assert article.title == gold[0]


def test_page_url_reads_canonical_then_og_url() -> None:
    from newsstemmer.io.files import page_url

    def head(tags: str) -> str:
        return f"<html><head><meta charset='utf-8'>{tags}</head><body><link rel=canonical href='https://x.org/body'></body>"

    assert page_url(head('<LINK REL="Stylesheet Canonical" HREF="https://a.com/1">')) == "https://a.com/1"
    assert page_url(head('<link rel="&#99;anonical" href="https://a.com/2">')) == "https://a.com/2"  # an entity
    assert page_url(head('<meta name="OG:URL" content="//b.com/3"><link rel=canonical href="/rel">')) == "https://b.com/3"
    assert page_url(head('<meta property="og&#58;url" content="https://c.com/4">')) == "https://c.com/4"
    assert page_url(head('<link rel="canonical" href="https://a.com/5"><meta property="og:url" content="https://b.com/">')) == "https://a.com/5"
    assert page_url(head('<link rel="alternate" href="https://a.com/6">')) is None  # and <body> is not read


def test_extract_in_worker_processes_prints_what_one_process_does(site: Path, patterns: Path, tmp_path: Path, capsys):
    many = tmp_path / "many"
    many.mkdir()
    for k in range(7):
        for i, path in enumerate(article_files(site)):
            (many / f"p{k:02d}-{i}.html").write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    (many / "p03-x.html").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8)  # an error line mid-way
    code1, out1, err1 = run(capsys, "extract", "-q", "-j", "1", "-p", str(patterns), str(many))
    code2, out2, err2 = run(capsys, "extract", "-q", "-j", "2", "-p", str(patterns), str(many))
    assert len(records(out1)) == 43
    assert (code1, out1, err1) == (code2, out2, err2)
    assert code2 == 1 and "p03-x.html: error" in err2


def _many_articles(site: Path, tmp_path: Path) -> Path:
    """A folder of six copies of the fixture site's articles: enough pages for several chunks."""
    many = tmp_path / "many"
    many.mkdir()
    for k in range(6):
        for i, path in enumerate(article_files(site)):
            (many / f"p{k:02d}-{i}.html").write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    return many


def test_extract_loses_no_page_when_a_worker_process_dies(site: Path, patterns: Path, tmp_path: Path, capsys, monkeypatch):
    from newsstemmer.cli import extract as cli_extract

    many = _many_articles(site, tmp_path)
    code1, out1, _ = run(capsys, "extract", "-q", "-j", "1", "-p", str(patterns), str(many))
    parent = os.getpid()
    real = cli_extract.extract_file

    def dies_in_a_worker(pf, job):
        if os.getpid() != parent:
            os._exit(1)  # as a worker killed by the system would (this process works too: every worker dies)
        return real(pf, job)

    monkeypatch.setattr(cli_extract, "extract_file", dies_in_a_worker)
    code2, out2, err2 = run(capsys, "extract", "-q", "-j", "2", "-p", str(patterns), str(many))
    assert (code2, out2) == (code1, out1)
    assert "a worker process died" in err2


def test_extract_redoes_the_chunks_a_worker_held_when_it_dies(site: Path, patterns: Path, tmp_path: Path, capsys,
                                                             monkeypatch):
    from newsstemmer.cli import extract as cli_extract

    many = _many_articles(site, tmp_path)
    code1, out1, _ = run(capsys, "extract", "-q", "-j", "1", "-p", str(patterns), str(many))
    parent = os.getpid()
    real = cli_extract.extract_file
    calls = []

    def dies_after_its_first_chunk(pf, job):
        if os.getpid() != parent:
            calls.append(pf)  # (the worker's own copy of the list)
            if len(calls) > cli_extract.CHUNK:  # its first chunk was sent back; it holds the next one
                os._exit(1)
        return real(pf, job)

    monkeypatch.setattr(cli_extract, "extract_file", dies_after_its_first_chunk)
    code2, out2, err2 = run(capsys, "extract", "-q", "-j", "2", "-p", str(patterns), str(many))
    assert (code2, out2) == (code1, out1)
    died = re.search(r"a worker process died; its (\d+) page\(s\) are extracted in this process", err2)
    assert died and int(died[1]) >= cli_extract.CHUNK  # the chunk it was on, and the next if it had it


def test_extract_prints_each_page_metadata_and_leaves_it_out_when_asked(site: Path, patterns: Path, capsys):
    files = [str(f) for f in article_files(site)]
    for argv in (("-p", str(patterns)), ("--method", "region")):  # the chain; a single method alone
        code, out, err = run(capsys, "extract", "-q", *argv, *files)
        assert code == 0, err
        for i, rec in enumerate(records(out)):
            assert list(rec)[9:] == ["page_type", "published", "modified", "authors", "language", "section", "tags",
                                     "description", "image", "canonical_url", "site_name", "meta_source"]
            assert rec["canonical_url"] == f"https://news.example.com/2024/story-{i}.html"
            assert rec["meta_source"]["canonical_url"] == "html"
    code, out, err = run(capsys, "extract", "-q", "--no-metadata", "-p", str(patterns), *files)
    assert code == 0, err
    for rec in records(out):
        assert rec["canonical_url"] is None and rec["authors"] == [] and rec["meta_source"] == {}
