"""The crawl's items carry the structured body only when asked (issue #25): a real
crawl of a small site, once with the default settings (text alone: no Markdown, HTML,
captions or images fields at all) and once with ``NEWSSTEMMER_BODY_FORMATS`` and
``NEWSSTEMMER_KEEP`` (both, in the sidecar process and in the crawl's own)."""

from __future__ import annotations

import html
import json
import random

import pytest

from newsstemmer.crawl.testing import REPRODUCIBLE_SETTINGS, TestSite, run_crawl, serve

pytestmark = pytest.mark.crawl

_WORDS = ("harbour council budget ferry museum election storm bridge farmers railway festival court market "
          "tunnel library teachers energy coast village mayor contract airport orchestra lighthouse").split()
FORMAT_FIELDS = {"body_markdown", "body_html", "captions", "images", "blocks"}


def _sentence(rng: random.Random) -> str:
    return " ".join(rng.choice(_WORDS) for _ in range(rng.randint(9, 16))).capitalize() + "."


def build_site(n_articles: int = 12, seed: int = 5) -> TestSite:
    """Articles with a subheading, a list and a captioned picture, and a front page."""
    rng = random.Random(seed)
    site = TestSite()
    links = []
    for i in range(n_articles):
        head = " ".join(rng.choice(_WORDS) for _ in range(7)).capitalize() + f" {i}"
        path = f"/news/2026/04/{i + 10:02d}/story-{i}.html"
        paras = [" ".join(_sentence(rng) for _ in range(4)) for _ in range(5)]
        sub = " ".join(rng.choice(_WORDS) for _ in range(4)).capitalize()  # (words of its own: not a static line)
        point = " ".join(rng.choice(_WORDS) for _ in range(5)).capitalize()
        site.short_titles[path] = f"{sub}|{point}"
        main = (f"<article><h1>{html.escape(head)}</h1><p>{paras[0]}</p><p>{paras[1]}</p>"
                f'<figure><img src="/media/{i}.jpg"><figcaption>Picture {i}: {_sentence(rng)}</figcaption></figure>'
                f"<h2>{sub}</h2><p>{paras[2]}</p><ul><li>{point}</li><li>{_sentence(rng)}</li></ul>"
                f"<p>{paras[3]}</p><p>{paras[4]}</p></article>")
        page = (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(head)}</title></head><body>"
                "<header><nav><a href='/'>Home</a> <a href='/news/'>News</a></nav></header>"
                f"<main>{main}</main><footer><p>The Harbour Times</p></footer></body></html>")
        site.pages[path] = (200, "text/html; charset=utf-8", page.encode("utf-8"))
        site.articles[path] = (head, "\n".join(paras))
        links.append(f'<li><a href="{path}">{html.escape(head)}</a></li>')
    site.pages["/"] = (200, "text/html; charset=utf-8",
                       f"<html><body><h1>Latest</h1><ul>{''.join(links)}</ul></body></html>".encode("utf-8"))
    return site


@pytest.fixture(scope="module")
def crawls(tmp_path_factory):
    site = build_site()
    out = {}
    runs = (("default", {}), ("asked", {"NEWSSTEMMER_BODY_FORMATS": "markdown,html", "NEWSSTEMMER_KEEP": "captions"}),
            ("sidecar", {"NEWSSTEMMER_BODY_FORMATS": "html", "NEWSSTEMMER_SIDECAR": "True"}))
    with serve(site) as base:
        for name, extra in runs:
            tmp = tmp_path_factory.mktemp(name)
            settings = {"NEWSSTEMMER_STATE_DIR": str(tmp / "state"), "NEWSSTEMMER_PATTERNS_DIR": str(tmp / "patterns"),
                        "NEWSSTEMMER_INCREMENTAL": "False", "NEWSSTEMMER_MIN_PAGES": "6",
                        **REPRODUCIBLE_SETTINGS, **extra}
            result = run_crawl([base + "/"], tmp / "items.jsonl", settings)
            assert result.returncode == 0, result.stderr[-3000:]
            out[name] = [json.loads(x) for x in (tmp / "items.jsonl").read_text().splitlines()]
    return site, out


def test_items_carry_text_alone_by_default(crawls):
    site, out = crawls
    items = out["default"]
    assert len(items) == len(site.articles)
    for item in items:
        assert not FORMAT_FIELDS & set(item), sorted(item)
        assert "Picture" not in item["body"]  # (captions are not in the news convention's body)


def test_items_carry_the_formats_and_kinds_the_settings_ask_for(crawls):
    site, out = crawls
    items = out["asked"]
    assert len(items) == len(site.articles)
    methods = set()
    structured = 0
    for item in items:
        methods.add(item["method"])
        assert {"body_markdown", "body_html", "captions", "images"} <= set(item) and "blocks" not in item
        n = item["url"].rsplit("-", 1)[1].split(".")[0]
        sub, point = site.short_titles[item["url"].split(":", 2)[2].split("/", 1)[1].join(["/", ""])].split("|")
        lines = item["body"].split("\n")
        if sub in lines:  # (a layout may leave the subheading out of the article: then no format has it)
            assert f"## {sub}" in item["body_markdown"] and f"<h2>{sub}</h2>" in item["body_html"]
            structured += 1
        if point in lines:
            assert f"- {point}" in item["body_markdown"] and f"<li>{point}</li>" in item["body_html"]
            structured += 1
        assert item["images"] == [item["url"].split("/news/")[0] + f"/media/{n}.jpg"]
        assert item["captions"] and item["captions"][0].startswith(f"Picture {n}:")
        assert item["captions"][0] in item["body"]  # NEWSSTEMMER_KEEP=captions
    assert methods & {"pattern", "pattern-loose"}, methods  # (layouts learned and applied)
    assert structured >= 3


def test_the_sidecar_gives_the_same_fields(crawls):
    _, out = crawls
    for item in out["sidecar"]:
        assert "body_html" in item and "body_markdown" not in item and "images" in item
        assert "Picture" not in item["body"]
