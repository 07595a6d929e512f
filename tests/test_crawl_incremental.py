"""Incremental runs' parts: the change measure and the page metadata they key on."""

from __future__ import annotations

import pytest

from newsstemmer.crawl.incremental import article_change, body_change, content_hash
from newsstemmer.dom.parse import parse_html
from newsstemmer.dom.text import visible_text
from newsstemmer.metadata import article_metadata

BASE = "http://127.0.0.1:8765"
PARAS = ["The council met on Monday to discuss the new harbour plan and its costs for the town.",
         "Residents said the ferry timetable had been changed three times since the summer.",
         "The mayor promised a public consultation before any contract is signed next year."]


def test_change_measure_tells_an_update_from_a_body_cut_anew():
    page = "Most read Menu " + " ".join(PARAS) + " Related stories Footer"
    body = "\n".join(PARAS)
    assert content_hash(body) == content_hash("  " + body.replace("\n", " \n ")) != content_hash(body + " x")
    assert body_change(body, body) == 0.0 and body_change("", "") == 0.0 and body_change(body, "") == 1.0
    # a redesign: the new layout also takes the page's menu line, the old one missed a paragraph
    assert article_change("\n".join(PARAS[:2]), page, "Menu\n" + body, page) < 0.02
    # an update: a new passage in the first paragraph
    update = PARAS[0] + " Update: the vote was postponed after a late objection from the fishing association."
    new_page = page.replace(PARAS[0], update)
    assert article_change(body, page, "\n".join([update, *PARAS[1:]]), new_page) > 0.2
    # a removal counts too
    assert article_change(body, page, PARAS[0], "Most read " + PARAS[0]) > 0.5


@pytest.mark.parametrize("head, body, expected", [
    ('<meta property="article:published_time" content="2026-11-22T06:00:00+00:00">', "", "2026-11-22T06:00:00+00:00"),
    ('<script type="application/ld+json">{"@graph": [{"@type": "WebPage"}, {"@type": "NewsArticle", '
     '"datePublished": "2026-11-21"}]}</script>', "", "2026-11-21"),
    ("", '<p>x</p><time datetime="2026-01-01">then</time><time class="published" datetime="2026-11-20T10:00">',
     "2026-11-20T10:00"),
    ('<script type="application/ld+json">{broken</script>', "<p>No date here.</p>", None),
])
def test_published_date_from_page_metadata(head, body, expected):
    tree = parse_html(f'<html><head>{head}<link rel="Canonical" href="/a/b.html"></head><body>{body}</body></html>')
    meta = article_metadata(tree, BASE + "/a/b.html?utm=1")
    assert meta.published == expected and meta.canonical_url == BASE + "/a/b.html"


def test_visible_text_is_the_body_text_with_element_boundaries_kept():
    tree = parse_html("<html><head><title>T</title></head><body><p>Hello <b>there</b></p><p>Bye</p></body></html>")
    assert visible_text(tree).split() == ["Hello", "there", "Bye"]
    assert "thereBye" not in visible_text(tree)
