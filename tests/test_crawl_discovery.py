"""Feed and sitemap discovery."""

from __future__ import annotations

import gzip

import pytest

from newsstemmer.crawl.discovery import feed_entries, feed_links, newest_first, robots_sitemaps, sitemap_entries
from newsstemmer.demo import build_site
from newsstemmer.dom.parse import parse_html

BASE = "http://127.0.0.1:8765"


def test_sitemaps_of_the_demo_days():
    day1, day2 = build_site(), build_site(day=2)
    assert robots_sitemaps(day1.render("/robots.txt", BASE), BASE) == [BASE + "/sitemap.xml"]
    kind, entries = sitemap_entries(day1.render("/sitemap.xml", BASE), BASE + "/sitemap.xml")
    assert kind == "urlset" and len(entries) == len(day1.articles()) + sum(p.kind == "index" for p in day1)
    assert robots_sitemaps(day2.render("/robots.txt", BASE), BASE) == [BASE + "/sitemap.xml", BASE + "/sitemaps/news.xml"]
    kind, index = sitemap_entries(day2.render("/sitemap.xml", BASE), BASE + "/sitemap.xml")
    assert kind == "sitemapindex" and [e.url for e in index] == [BASE + "/sitemaps/articles.xml", BASE + "/sitemaps/pages.xml"]
    kind, news = sitemap_entries(day2.render("/sitemaps/news.xml", BASE), BASE + "/sitemaps/news.xml")
    new_paths = {p.path for p in day2.articles()} - {p.path for p in day1.articles()}
    assert kind == "urlset" and {e.url for e in news} == {BASE + p for p in new_paths}
    assert all(e.published and e.published.startswith("2026-11-2") for e in news)  # Google News publication_date
    _, arts = sitemap_entries(gzip.compress(day2.render("/sitemaps/articles.xml", BASE)), BASE + "/a.xml.gz")
    updated = {BASE + p for p in day2.updated}
    assert {e.url for e in newest_first(arts)[:len(updated) + len(new_paths)]} >= updated  # newest first
    with pytest.raises(ValueError):
        sitemap_entries(b"<html><body>not a sitemap</body></html>", BASE + "/x")
    with pytest.raises(ValueError):
        sitemap_entries(b"", BASE + "/x")


def test_feeds_rss_atom_and_links():
    day2 = build_site(day=2)
    rss = feed_entries(day2.render("/feed.xml", BASE), BASE + "/feed.xml")
    newest = sorted(day2.articles(), key=lambda p: p.published or "", reverse=True)[0]
    assert len(rss) == 30 and rss[0].url == BASE + newest.path and rss[0].published == newest.published
    atom = (b'<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>t</title>'
            b'<entry><title>A</title><link href="/a.html"/><id>1</id><updated>2026-11-20T10:00:00Z</updated></entry>'
            b'<entry><title>B</title><link href="/b.html"/><id>2</id><updated>2026-11-21T10:00:00Z</updated></entry></feed>')
    entries = newest_first(feed_entries(atom, BASE + "/atom.xml"))
    assert [e.url for e in entries] == [BASE + "/b.html", BASE + "/a.html"]
    with pytest.raises(ValueError):
        feed_entries(b"<html><body><p>no feed</p></body></html>", BASE + "/x")
    home = parse_html(day2.render("/", BASE).decode())
    assert feed_links(home, BASE + "/") == [BASE + "/feed.xml"]
    assert feed_links(parse_html(build_site().render("/", BASE).decode()), BASE + "/") == []  # day 1 unchanged
