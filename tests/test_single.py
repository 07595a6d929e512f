"""The registry of single-page methods (newsstemmer.single): one name, one object, and a
plain refusal of a removed method wherever a method is named."""

from __future__ import annotations

import threading

import pytest
from scrapy.settings import Settings

from newsstemmer import Page, extract_single
from newsstemmer.cli import main
from newsstemmer.crawl.config import Config
from newsstemmer.errors import NewsstemmerError, UnknownMethodError
from newsstemmer.single import SINGLE_PAGE_METHODS, get, load_single

HTML = (
    "<html><head><title>Storm hits the coast - Example News</title></head><body>"
    "<nav><a href='/'>Home</a> <a href='/world'>World</a></nav><article><h1>Storm hits the coast</h1>"
    + "".join(f"<p>Paragraph {i} of the story tells what the storm did to the town and its harbour.</p>" for i in range(8))
    + "</article><footer>Copyright Example News</footer></body></html>"
)


@pytest.mark.parametrize("method", SINGLE_PAGE_METHODS)
def test_every_method_extracts_through_the_registry(method: str) -> None:
    page = Page(HTML, url="https://example.com/storm")
    title, body = get(method).extract(page)
    article = extract_single(page, method)
    assert (article.title, article.body) == (title, body)
    assert article.method == method and not article.matched
    assert "harbour" in body


def test_region_is_one_per_process_and_crf_one_per_thread() -> None:
    assert get("region").load() is get("region").load()
    mine = get("crf").load()
    assert get("crf").load() is mine
    other: list[object] = []
    t = threading.Thread(target=lambda: other.append(get("crf").load()))
    t.start()
    t.join()
    assert other[0] is not mine


@pytest.mark.parametrize("call", [lambda: get("decision"), lambda: load_single("decision"),
                                  lambda: extract_single(Page(HTML), "decision")])
def test_the_removed_decision_method_is_refused_with_its_replacement(call) -> None:
    with pytest.raises(UnknownMethodError, match="removed.*'region'") as info:
        call()
    assert isinstance(info.value, ValueError) and isinstance(info.value, NewsstemmerError)


def test_an_unknown_method_lists_the_methods() -> None:
    with pytest.raises(ValueError, match="region, pagerank, crf"):
        get("readability")


def test_the_removed_method_is_refused_by_the_cli_and_the_crawl_setting(tmp_path, capsys) -> None:
    page = tmp_path / "p.html"
    page.write_text(HTML, encoding="utf-8")
    for argv in (["extract", "--method", "decision", str(page)], ["report", "--fallback", "decision", str(page)]):
        assert main(argv) != 0
        assert "removed" in capsys.readouterr().err
    with pytest.raises(ValueError, match="NEWSSTEMMER_SINGLE_PAGE_METHOD.*removed.*'region'"):
        Config.from_settings(Settings({"NEWSSTEMMER_SINGLE_PAGE_METHOD": "decision"}))
