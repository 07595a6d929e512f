"""UrlJoiner writes every link as urljoin does (it only skips the parsing where it can)."""

from __future__ import annotations

import itertools
from urllib.parse import urljoin

from newsstemmer.dom.urls import UrlJoiner

BASES = [
    "http://a.com/x/y.html", "https://b.org", "https://c.net/p/?q=1#f", "ftp://d/e", "http://E.COM:80/z;p?x",
    "HTTP://f.com/", "http:/g", "https://h.com/a//b/../c", "file:///tmp/a", "javascript:void(0)",
]
# Pieces whose combinations reach urljoin's special cases: empty queries and fragments,
# dot segments, double slashes, parameters, hosts in brackets, removed characters.
PIECES = ["/", "//", "/.", "/..", "?", "#", "?a", "#b", ";", "a", "é", "\t", "\\", "[", "x/", "../", ":", "@",
          "http://", "https://", "HTTPS://"]


def _joined(join, base: str, href: str) -> str:
    try:
        return join(base, href)
    except ValueError:
        return "ValueError"


def test_every_combination_is_written_as_urljoin_writes_it():
    for base in BASES:
        joiner = UrlJoiner(base)
        for k in (1, 2, 3):
            for combo in itertools.product(PIECES, repeat=k):
                href = "".join(combo).strip()
                if href:
                    assert _joined(lambda b, h: joiner.join(h), base, href) == _joined(urljoin, base, href), (base, href)


def test_links_of_schemes_that_are_never_relative_are_written_as_urljoin_writes_them():
    for base in BASES:
        joiner = UrlJoiner(base)
        for scheme in ("javascript:", "mailto:", "JavaScript:", "mailto://", "javascript://"):
            for combo in itertools.product(PIECES, repeat=2):
                href = (scheme + "".join(combo)).strip()
                assert _joined(lambda b, h: joiner.join(h), base, href) == _joined(urljoin, base, href), (base, href)


def test_common_links_are_joined_without_change():
    joiner = UrlJoiner("https://news.example.com/2024/05/story.html?ref=x")
    assert joiner.join("https://cdn.example.net/img/a.jpg?w=640") == "https://cdn.example.net/img/a.jpg?w=640"
    assert joiner.join("/world/other-story#top") == "https://news.example.com/world/other-story#top"
    assert joiner.join("other.html") == "https://news.example.com/2024/05/other.html"
    assert joiner.join("/a/../b") == "https://news.example.com/b"
    assert joiner.join("/web/2005/http://x.com/a") == "https://news.example.com/web/2005/http://x.com/a"
    assert joiner.join("javascript:play('/v/1')") == "javascript:play('/v/1')"
    assert joiner.join("https://x.com/a?") == "https://x.com/a"  # (urljoin drops an empty query)
    assert joiner.join("http://x.com/a?") == "http://x.com/a?"  # (... not for another scheme than the page's)


def test_every_rewritten_character_sends_a_link_to_urljoin() -> None:
    """The look-ups of the characters urljoin may rewrite name every one of them."""
    from newsstemmer.dom.urls import _REWRITTEN, _round_trips

    for char in _REWRITTEN:
        assert not _round_trips(f"/a{char}b") and not _round_trips(f"https://e.example/a{char}b")
    assert _round_trips("/a-b_c~d/e?f=1#g") and _round_trips("https://e.example/a%20b")
