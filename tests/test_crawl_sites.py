"""``benchmarks/crawl_sites.py``: dataset pages served at their real URL's path, where
that path can be asked for as it is."""

from __future__ import annotations

import urllib.error
import urllib.request
from pathlib import Path

import pytest

from benchmarks.crawl_sites import SiteServer, has_dot_segment, served_path
from benchmarks.shared import Entry


def _entry(tmp_path: Path, id_: str, url: str | None) -> Entry:
    page = tmp_path / f"{id_}.html"
    page.write_text(f"<html><head><title>Page {id_}</title></head><body><p>{id_}</p></body></html>")
    return Entry(dataset="x", site="s", id=id_, html_path=page, gold_path=page, url=url, gold_has_title=False)


@pytest.mark.parametrize("path, dotted", [("/a/../b", True), ("/./x", True), ("/x/..", True), ("/x/.", True),
                                          ("/x.html", False), ("/2009/11/30/flipbook/", False), ("/..x/y", False)])
def test_dot_segments_are_told_apart_from_dots_in_names(path, dotted):
    assert has_dot_segment(path) is dotted


def test_a_page_is_served_at_its_real_path_unless_that_cannot_be_asked_for(tmp_path):
    def served(url, taken=(), id_paths=False):
        return served_path(_entry(tmp_path, "p1", url), set(taken), id_paths)

    assert served("http://news.test/2009/11/30/flipbook/?ref=rss") == "/2009/11/30/flipbook/"
    assert served("http://news.test/2009/11/30/flipbook/", id_paths=True) == "/a/p1.html"
    for odd in ("http://news.test/story/../other.html", "http://news.test/./story.html", "http://news.test/",
                "http://news.test/a/story.html", "http://news.test//story", "http://news.test/caf\u00e9", None):
        assert served(odd) == "/a/p1.html", odd
    assert served("http://news.test/story.html", taken={"/story.html"}) == "/a/p1.html"


def test_the_server_refuses_dot_segments_clearly_and_serves_real_paths(tmp_path):
    server = SiteServer("x", "s", [_entry(tmp_path, "p1", "http://news.test/news/story.html")], "127.0.0.1")
    server.start()
    try:
        with urllib.request.urlopen(server.base_url + "/news/story.html", timeout=10) as answer:
            assert b"<p>p1</p>" in answer.read()
        with urllib.request.urlopen(server.base_url + "/", timeout=10) as answer:
            assert b'href="/news/story.html"' in answer.read()
        # (http.client sends the path as written: the dot segment reaches the server)
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(server.base_url + "/other/../news/story.html", timeout=10)
        assert refused.value.code == 400 and b"'..' segment" in refused.value.read()
    finally:
        server.stop()
