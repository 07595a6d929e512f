"""Page typing's compiled body walk (``pagetype/_bodywalk.pyx``) against its Python
reference (``features.walk_python``) on purpose-made pages and the demo site's pages: the
same counts, and the headline neighbourhood's reading it feeds left in the same state
(elements compared by identity).  (The same is checked on every dataset page by
``scripts/bodywalk_check.py``.)"""

from __future__ import annotations

import pytest
from lxml import etree
from lxml import html as lxml_html

from newsstemmer import Page
from newsstemmer.metadata import page_facts
from newsstemmer.metadata.fields import neighbourhood_walk
from newsstemmer.metadata.neighbourhood import HoodWalk, byline_marked
from newsstemmer.pagetype import features

pytestmark = pytest.mark.skipif(features.BODY_WALK != "compiled", reason="the compiled body walk is not built")

_STATE = ("lines", "at", "limit", "open", "h1s", "far")


def _compiled(root, hood):
    return features._bodywalk.walk(root, hood, features._short_link, features._SHORT_LINK_CACHE, features._roles_of,
                                   features._ROLE_CACHE, byline_marked)


def _same_reading(a: HoodWalk | None, b: HoodWalk | None) -> None:
    if a is None:
        assert b is None
        return
    for name in _STATE:
        assert getattr(a, name) == getattr(b, name), name
    for name in ("bylines", "links", "pending"):
        x, y = getattr(a, name), getattr(b, name)
        assert len(x) == len(y), name
        for p, q in zip(x, y):
            if isinstance(p, tuple):
                assert p[0] == q[0] and p[1] is q[1] and p[2:] == q[2:], name
            else:
                assert p is q, name
    ra, rb = a.result(), b.result()
    assert (ra.lines, ra.at) == (rb.lines, rb.at)
    assert len(ra.bylines) == len(rb.bylines) and all(p is q for p, q in zip(ra.bylines, rb.bylines))
    assert [(n, id(e)) for n, e in ra.author_links] == [(n, id(e)) for n, e in rb.author_links]


def _both(make, root) -> None:
    python, compiled = make(), make()
    want = features.walk_python(root, python)
    got = _compiled(root, compiled)
    assert got == want
    _same_reading(python, compiled)


def _check_page(html: str, url: str = "http://example.com/a") -> None:
    page = Page(html, url=url)
    tree = page.tree
    facts = page_facts(tree, html)
    body = tree.find("body")
    _both(lambda: None, body)
    if body is None:
        return
    _both(lambda: neighbourhood_walk(facts, deferred=True), body)
    _both(lambda: neighbourhood_walk(facts), body)
    for child in body:
        _both(lambda: neighbourhood_walk(facts, deferred=True), child)


def _page(markup: str, title: str = "A headline about things") -> str:
    return f"<html><head><title>{title}</title></head><body>{markup}</body></html>"


MARKUPS = [
    # white space str.strip() strips beyond ASCII, text that only looks empty, tails
    "<p>\u00a0</p><p>\u3000 \u2009</p><p>\u00a0x\u00a0</p>tail\u00a0<p>\x1c\x1f</p><p>\u200b</p>"
    "<h1>A headline about things</h1>  \n ",
    # links: nested, in headings and list items, short ones (read more, forum words), long ones, hrefs
    "<ul><li><a href='/x'>Read more</a></li><li>no link</li><li><span><a href='/x'>Reply</a></span></li></ul>"
    "<h2><a href='tel:123'>A long headline link of more than 25 chars</a></h2><h3>plain</h3>"
    "<a href='mailto:a@b'>quote</a><a href='mailto:a@b'>x<a href='/in'>inner</a>y</a><a href=''>empty</a><a>none</a>"
    "<h4><span>x</span><a href='tel:1'>t</a></h4><h5>five</h5><a href='/x'>»</a>",
    # paragraphs: runs under one parent, nested, short and long, in boilerplate
    "<div><p>" + "long text " * 20 + "</p><p>" + "more text " * 10 + "</p><p>short</p></div>"
    "<nav><p>" + "menu words " * 8 + "</p><footer>foot<aside>side</aside></footer></nav><header>head</header>"
    "<p>outer<p>inner</p>after</p>",
    # skipped elements, comments, counted tags, their tails
    "<script>var x;</script>after script<style>p{}</style><!-- a comment -->comment tail<noscript>ns</noscript>"
    "<template><p>t</p></template><svg><text>s</text></svg>svg tail<iframe>frame text</iframe>frame tail"
    "<select><option>one</option><option>two</option></select>select tail<form><input><textarea>ta</textarea>"
    "<button>Buy now</button></form><img src='x'><table><tr><td>c</td></tr></table><pre>p</pre><code>c</code>"
    "<article>a</article><time>t</time><?pi x?>pi tail",
    # class and id names: roles, byline marks, cases, empty values, id alone, non-ASCII, entities
    "<div class='Comment-List' id='x'>a</div><div class='' id='Author-box'>b</div><div class='x' id=''>c</div>"
    "<div class='share social SHARING'>d</div><div id='byline'>e</div><div class='AUTH\u00d6R card'>f</div>"
    "<div class='by&amp;line'>g</div><div class='post&#x17f;user'>h</div><div class='product-price cart'>i</div>"
    "<div class='entry-content article__body'>j</div><div class='pagination pager breadcrumb'>k</div>"
    "<div class='teaser tile post-item entry-title'>l</div><div class='forum thread reply replies'>m</div>"
    "<div class='sidebar related story-body post-body content-body article-body'>n</div><div class>o</div>"
    "<h1 class='byline'>A headline about things</h1><p class='user-name'>Ann Lee</p>",
    # links before and after the headline, to author pages and elsewhere, marked or not
    "<a href='/author/menu'>Menu</a><h1>A headline about things</h1><p>By <a href='/author/ann-lee'"
    " class='author'>Ann Lee</a> and <a href='/writers/bo'>Bo</a></p><a href='/news/x'>other</a>"
    "<a href='?author=3' id='byline'>Cy</a><a href='/AUTOREN/d\u00f6'>D</a><a href='/x' class='byline'>E</a>",
    # several <h1>, none agreeing, a lower heading agreeing with the title, prices and dates
    "<h1>Site</h1><p>$12.99 and 19.99 EUR, March 3, 2021 and 2020-05-01, 3 hours ago</p><h1>Other</h1>"
    "<h2>A headline about things</h2><p>add to cart \u0130n stock</p>",
    # many lines: the reading closes before the walk ends
    "".join(f"<p>line {i}</p>" for i in range(80)) + "<h1>A headline about things</h1>"
    + "".join(f"<div>after {i}<iframe>f{i}</iframe></div>" for i in range(400)),
    # nothing but white space, and an empty body
    "   \n\t ",
    "",
]


@pytest.mark.parametrize("markup", MARKUPS)
def test_the_compiled_walk_counts_as_the_python_walk(markup):
    _check_page(_page(markup))


def test_no_body_and_no_h1():
    _both(lambda: None, None)
    _check_page("<html><head><title>t</title></head></html>")
    _check_page(_page("<h2>A headline about things</h2><p>text</p>"), "http://example.com/")


def test_split_text_nodes_are_read_as_lxml_joins_them():
    """(And comments and processing instructions kept in the tree: passed over with their tails.)"""
    doc = lxml_html.document_fromstring(_page("<p>one <b>two</b> three<i>x</i>   <i>y</i></p><p>a<b> </b> b</p>"
                                              "<a href='/x'>r<b>ead </b>more</a><!-- c -->ctail<p>x<?pi y?>pi</p>"))
    assert doc.xpath("count(//comment())") >= 1
    etree.strip_tags(doc, "b", "i")  # (leaves runs of several text nodes)
    facts = page_facts(doc)
    body = doc.find("body")
    _both(lambda: None, body)
    _both(lambda: neighbourhood_walk(facts, deferred=True), body)


def test_namespaced_elements_count_as_plain_ones():
    root = etree.fromstring("<html xmlns='http://www.w3.org/1999/xhtml'><body><h1 class='byline'>Title here</h1>"
                            "<script>code</script>tail<a href='/author/x'>x</a><p>para</p><li>i</li>"
                            "<!-- c -->ct<form/></body></html>")
    _both(lambda: None, root[0])
    _both(lambda: HoodWalk(True, None, []), root[0])


def test_the_demo_sites_pages():
    from newsstemmer.demo.site import build_site

    pages = [p for p in build_site(7, 12) if p.kind in ("article", "index", "other")] or list(build_site(7, 12))
    for p in pages[:40]:
        _check_page(p.decoded, "http://demo.test" + p.path)


def test_the_python_walk_is_used_where_the_compiled_one_is_older(monkeypatch):
    import importlib
    import types

    stale = types.ModuleType("stale")
    for name in ("SKIPPED_TAGS", "COUNTED_TAGS", "HEAD_TAGS", "BOILER_TAGS", "HOOD_SKIP_TAGS", "HEADLINE_TAGS",
                 "MARK_PATTERN", "AUTHOR_PAGE", "ROLE_WORDS"):
        setattr(stale, name, getattr(features._bodywalk, name))
    stale.ROLE_WORDS = stale.ROLE_WORDS[:-1]
    monkeypatch.setattr(importlib, "import_module", lambda name: stale)
    assert features._compiled_walk() is None
    stale.ROLE_WORDS = features._bodywalk.ROLE_WORDS
    assert features._compiled_walk() is stale
