"""The public API (newsstemmer/__init__.py): every name imports and works whatever was
imported before it, each order in a fresh interpreter; ``import newsstemmer`` stays
cheap; every error derives from NewsstemmerError and keeps its other base."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import newsstemmer

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "tests" / "fixtures" / "site"

# Learn the fixture site once (in the subprocess) and keep the pattern file.
SETUP = f"""
import glob, os, tempfile
from pathlib import Path
files = sorted(glob.glob({str(SITE)!r} + "/*.html"))
html = [Path(f).read_text(encoding="utf-8") for f in files]
urls = ["http://example.com/" + os.path.basename(f) for f in files]
"""

# Each snippet starts with its own imports, so that it is the first to load its module.
CALLS = {
    "site_patterns_extract_first": """
        from newsstemmer.layout.patterns import SitePatterns
        from newsstemmer import Page, learn
        path = Path(tempfile.mkdtemp()) / "site.json"
        learn([Page(h, url=u) for h, u in zip(html, urls)]).save(path)
        art = SitePatterns.load(path).extract(html[0], url=urls[0])
        assert art.matched and art.body, art
    """,
    "learn_and_extract": """
        from newsstemmer import ExtractOptions, LearnOptions, Page, extract, learn
        site = learn([Page(h, url=u) for h, u in zip(html, urls)], LearnOptions(section_model=False))
        art = extract(html[0], site, url=urls[0], options=ExtractOptions(fallback="pagerank"))
        assert art.matched and art.body and site.extract(html[0]).body == extract(html[0], site).body
    """,
    "single_page": """
        from newsstemmer import SINGLE_PAGE_METHODS, Page, extract, extract_single, pagerank_extract
        for method in SINGLE_PAGE_METHODS:
            assert extract_single(Page(html[0], url=urls[0]), method).body
        assert extract(html[0]).method == "region"
        assert pagerank_extract(html[0]).body
    """,
    "patterns_and_rules": """
        from newsstemmer import Page, extract_with_patterns, extract_with_rules, learn, learn_site_rules
        pages = [Page(h, url=u) for h, u in zip(html, urls)]
        site = learn(pages)
        assert extract_with_patterns(pages[0], site).matched
        site.extras["rules"] = learn_site_rules(pages[:4], site).to_dict()
        assert extract_with_rules(pages[5], site).method in ("rules", None)
    """,
    "blocks_and_errors": """
        from newsstemmer import (HTMLParseError, ModelFileError, NewsstemmerError, PatternFileError,
                                 UnknownMethodError, page_blocks, site_of, extract_single, Page)
        assert page_blocks(html[0]).blocks and site_of(urls[0]) == "example.com"
        for err in (HTMLParseError, ModelFileError, PatternFileError, UnknownMethodError):
            assert issubclass(err, NewsstemmerError) and issubclass(err, ValueError)
        try:
            extract_single(Page(html[0]), "decision")
        except UnknownMethodError as exc:
            assert "region" in str(exc)
        else:
            raise AssertionError("the removed method was accepted")
    """,
}
ORDERS = [
    ["site_patterns_extract_first", "learn_and_extract", "single_page", "patterns_and_rules", "blocks_and_errors"],
    ["blocks_and_errors", "patterns_and_rules", "single_page", "learn_and_extract", "site_patterns_extract_first"],
    ["single_page", "site_patterns_extract_first", "blocks_and_errors", "learn_and_extract", "patterns_and_rules"],
]


def _run(code: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)


@pytest.mark.parametrize("order", ORDERS, ids=["patterns-first", "errors-first", "single-first"])
def test_every_public_name_works_in_any_import_order(order: list[str]) -> None:
    code = SETUP + "\n".join(textwrap.dedent(CALLS[name]) for name in order)
    done = _run(code)
    assert done.returncode == 0, done.stderr


def test_site_patterns_extract_is_a_real_method() -> None:
    from newsstemmer.layout.patterns import SitePatterns

    assert "extract" in SitePatterns.__dict__


def test_import_and_version_load_no_heavy_dependency() -> None:
    done = _run(
        "import sys, newsstemmer\n"
        "from newsstemmer.cli import main\n"
        "heavy = {'numpy', 'pycrfsuite', 'parsel', 'scrapy', 'lxml', 'warcio'} & {m.split('.')[0] for m in sys.modules}\n"
        "print(newsstemmer.__version__, sorted(heavy))\n"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split(" ", 1)[1].strip() == "[]", done.stdout


def test_learn_and_extract_load_neither_crf_nor_scrapy() -> None:
    done = _run(
        SETUP
        + "from newsstemmer import Page, learn, extract\n"
        "site = learn([Page(h, url=u) for h, u in zip(html, urls)])\n"
        "extract(html[0], site)\n"
        "import sys\n"
        "print(sorted({'pycrfsuite', 'parsel', 'scrapy', 'warcio'} & {m.split('.')[0] for m in sys.modules}))\n"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]", done.stdout


def test_every_exception_class_derives_from_newsstemmer_error() -> None:
    import importlib
    import pkgutil

    from newsstemmer.errors import NewsstemmerError

    found = []
    for info in pkgutil.walk_packages(newsstemmer.__path__, "newsstemmer."):
        if info.name.startswith(("newsstemmer.demo.__main__", "newsstemmer.__main__")):
            continue
        try:
            module = importlib.import_module(info.name)
        except ImportError:  # (an optional dependency absent)
            continue
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, BaseException) and value.__module__ == info.name:
                found.append(value)
    assert len(found) >= 15
    assert [c for c in found if not issubclass(c, NewsstemmerError)] == []
