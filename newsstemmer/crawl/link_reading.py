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
"""

from __future__ import annotations

from urllib.parse import urljoin

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
    out = []
    for el in root.iter("a", "area"):
        href = el.get("href")
        if href is None:
            continue
        try:
            target = safe_url_string(urljoin(base_url, strip_html5_whitespace(href)), encoding=encoding)
        except ValueError:  # a bogus link (bad port, bad IPv6 host...)
            continue
        target = urljoin(url, target)
        if target.split("://", 1)[0] in _SCHEMES:
            out.append((target, _STRING(el) or ""))
    return out
