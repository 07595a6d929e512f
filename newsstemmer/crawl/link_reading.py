"""The links of a page, read from the tree the core reads: the page is parsed once per crawl.

Scrapy's ``LinkExtractor`` parses each response itself (parsel's ``response.selector``),
a second parse of every page newsstemmer parses (:func:`~newsstemmer.dom.parse.parse_html`)
for its blocks.  :func:`tree_links` finds the same links on newsstemmer's tree, with the same URL
handling as ``LinkExtractor(unique=False)`` with its default ``tags`` (``a``,
``area``) and ``attrs`` (``href``): HTML5 whitespace stripped, joined to the page's
``<base href>``, made safe (``w3lib``'s ``safe_url_string`` in the page's encoding),
joined to the page URL; the anchor text is the element's string value.

The trees differ in one way that changes links: ``parse_html`` ignores early
``</body></html>`` end tags, as browsers do, where libxml2 (and so Scrapy) drops what
follows them; the links there are found here and were missed by Scrapy.  Of the 1,461
demo and evaluation pages, 1,456 give identical links (URLs, texts, order); the 5 such
pages give the same links plus those after the early end tags.

A site's pages link the same URLs (menus, listings, the newest articles) again and again:
a link whose ``href`` is a path from the site's root (``/news/…``) or a whole ``http(s)``
URL comes out the same from every page of the same scheme and host, so its URL is made
once and kept (:func:`_root_link`, a bounded cache; the URL work was a third of the link
reading's CPU, and the link reading a sixth of the crawl process's in a soak day).
"""

from __future__ import annotations

from functools import lru_cache
from urllib.parse import urljoin, urlsplit

from lxml import etree
from w3lib.html import strip_html5_whitespace
from w3lib.url import safe_url_string

__all__ = ["tree_links"]

#: The string value of an element, as Scrapy's ``LinkExtractor`` takes a link's text.
_STRING = etree.XPath("string()")
#: Schemes Scrapy's ``LinkExtractor`` keeps (its ``_is_valid_url``).
_SCHEMES = frozenset(("http", "https", "file", "ftp"))


def tree_links(root: etree._Element, url: str, base_url: str, encoding: str) -> list[tuple[str, str]]:
    """``(absolute URL, anchor text)`` of every ``<a href>`` and ``<area href>`` under ``root``,
    in document order, duplicates included.

    ``base_url`` is the page's ``<base href>`` joined to ``url`` (Scrapy's
    ``get_base_url``); ``encoding`` the page's (``response.encoding``), for non-ASCII
    characters of query strings.  Links whose URL cannot be made valid are skipped.
    """
    try:
        base = urlsplit(base_url)
        netloc = base.netloc
    except ValueError:  # every link fails below, as each did before
        netloc = ""
    page_scheme = url.split(":", 1)[0]
    out = []
    for el in root.iter("a", "area"):
        href = el.get("href")
        if href is None:
            continue
        href = strip_html5_whitespace(href)
        if netloc and _from_root(href):
            target = _root_link(page_scheme, base.scheme, netloc, href, encoding)
        else:
            target = _link(url, base_url, href, encoding)
        if target is not None:
            out.append((target, _STRING(el) or ""))
    return out


def _from_root(href: str) -> bool:
    """Whether ``href`` gives the same URL on every page of one scheme and host: a path from the
    root (``/x``, not ``//host/x``) or a whole ``http``/``https`` URL with its host (``http:///x``
    takes the page's)."""
    if href[:1] == "/":
        return href[1:2] != "/"
    head = href[:8].lower()
    rest = href[7:8] if head.startswith("http://") else href[8:9] if head == "https://" else ""
    return rest.isalnum()


def _link(url: str, base_url: str, href: str, encoding: str) -> str | None:
    """The link's absolute URL as Scrapy's ``LinkExtractor`` makes it, None if it cannot be
    made valid (a bad port, a bad IPv6 host...) or its scheme is not one Scrapy follows."""
    try:
        target = safe_url_string(urljoin(base_url, href), encoding=encoding)
    except ValueError:
        return None
    target = urljoin(url, target)
    return target if target.split("://", 1)[0] in _SCHEMES else None


@lru_cache(maxsize=16384)
def _root_link(page_scheme: str, base_scheme: str, base_netloc: str, href: str, encoding: str) -> str | None:
    """:func:`_link` of an ``href`` that :func:`_from_root` accepts: joined to a base it takes only
    the scheme and host from, and then to a page URL it takes only the scheme from (an
    absolute URL's join), so these make the key."""
    return _link(f"{page_scheme}://{base_netloc}/", f"{base_scheme}://{base_netloc}/", href, encoding)
