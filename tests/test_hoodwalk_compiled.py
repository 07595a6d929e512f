"""The compiled headline neighbourhood walk (``metadata/_hoodwalk.pyx``) against its Python
reference (``HoodWalk.walk_python``) on purpose-made pages: the same lines, headline,
limit, byline marks and author links, elements compared by identity.  (The same is
checked on every dataset page by ``scripts/hoodwalk_check.py``.)"""

from __future__ import annotations

from html import escape

import pytest
from lxml import etree
from lxml import html as lxml_html

from newsstemmer.metadata import neighbourhood, page_facts
from newsstemmer.metadata.fields import neighbourhood_walk
from newsstemmer.metadata.neighbourhood import HoodWalk, title_words

pytestmark = pytest.mark.skipif(neighbourhood.HOOD_WALK != "compiled", reason="the compiled walk is not built")

_STATE = ("lines", "at", "limit", "open", "h1s", "far")


def _page(markup: str, title: str = "A headline about things") -> str:
    return f"<html><head><title>{title}</title></head><body>{markup}</body></html>"


def _same(a: HoodWalk, b: HoodWalk) -> None:
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
    assert all(p is q for p, q in zip(ra.bylines, rb.bylines)) and len(ra.bylines) == len(rb.bylines)
    assert [(n, id(e)) for n, e in ra.author_links] == [(n, id(e)) for n, e in rb.author_links]


def _both(make, root, with_tail: bool = True) -> None:
    compiled, python = make(), make()
    compiled.walk(root, with_tail)
    python.walk_python(root, with_tail)
    _same(compiled, python)


MARKUPS = [
    # white space that str.strip() strips beyond ASCII, and text that only looks empty
    "<p>\u00a0</p><p>\u3000 \u2009</p><p>\u00a0x\u00a0</p><p>\x1c\x1f</p><p>\u200b</p><h1>A headline about things</h1>",
    # class and id spellings: case, hyphens, empty class, id alone, entities, non-ASCII
    "<div class='BYLINE'>a</div><div class='User-Name'>b</div><div class='username'>c</div>"
    "<div class='' id='Author-box'>d</div><div class='x' id='author'>e</div><div class='by&amp;line'>f</div>"
    "<div class='post&#x17f;user'>g</div><div class='AUTH\u00d6R'>h</div><div class='autor'>i</div>"
    "<div class='postUSER'>j</div><div class='user--name'>k</div><h1 class='byline'>A headline about things</h1>",
    # links before and after the headline, to author pages and elsewhere, marked or not
    "<a href='/author/menu'>Menu</a><h1>A headline about things</h1><p>By <a href='/author/ann-lee'"
    " class='author'>Ann Lee</a> and <a href='/writers/bo'>Bo</a></p><a href='/news/x'>other</a>"
    "<a href='?author=3' id='byline'>Cy</a>",
    # links after the headline whose href the compiled walk looks at first (words, case, non-ASCII, empty)
    "<h1>A headline about things</h1>" + "".join(
        f"<a href='{h}'>name {i}</a><p>text {i}</p>" for i, h in enumerate((
            "/AUTOREN/x", "/Journalists/ann", "/autor/jos\u00e9", "/auth\u00f6r/x", "/redakt\u00f8r/x",
            "/forfatter/x", "/x?a=1&author=2", "", "/authors", "/author/", "/skribent/bo", "/reporters/y",
            "/auteurs/z", "/writer/q", "/autore/w", "/autori/v", "/p?author=1", "/a\u017futhor/x"))) + "<a>no href</a>",
    # skipped elements with tails, comments and processing instructions with tails, nesting
    "<div>one<script>x</script>s tail<!-- c -->c tail<?pi x?>pi tail<style>y</style>st tail"
    "<noscript><p class='byline'>n</p></noscript>ns tail<svg><text class='author'>t</text></svg>sv tail"
    "<template><p>t</p></template>tp tail</div>after<h1>A headline about things</h1>",
    # a page without <h1>: an <h2> that agrees with the titles, one that does not
    "<h2>Not this one</h2><p>text</p><h3 class='author'>A headline about things</h3><p>by Ann</p>",
    # several <h1>: a logo's first
    "<h1>Site</h1><p>menu</p><h1>A headline about things</h1><p class='byline'>By Ann</p>"
    "<h1>Another</h1>" + "".join(f"<p>line {i}</p>" for i in range(80)),
    # a long page without a headline (stops at 300 lines, in an element's middle)
    "".join(f"<div class='c{i % 7}'>line {i}<span>inner {i}</span>tail {i}</div>" for i in range(200)),
    # entities and non-ASCII text
    "<p>caf&eacute; &amp; cr\u00e8me</p><p>\u65e5\u672c\u8a9e</p><h1>A headline about things</h1>",
]


@pytest.mark.parametrize("markup", MARKUPS)
def test_the_compiled_walk_reads_the_body_as_the_python_walk(markup):
    doc = lxml_html.document_fromstring(_page(markup))
    facts = page_facts(doc, _page(markup))
    body = doc.find("body")
    _both(lambda: neighbourhood_walk(facts), body)
    _both(lambda: neighbourhood_walk(facts, deferred=True), body)
    _both(lambda: HoodWalk(False, None, [title_words("A headline about things")]), body)
    for i, h1 in enumerate(facts.h1_elements[:3]):
        _both(lambda: HoodWalk(True, h1, []), body)
    for child in body:
        for with_tail in (True, False):
            _both(lambda: neighbourhood_walk(facts), child, with_tail)
            _both(lambda: neighbourhood_walk(facts, deferred=True), child, with_tail)


def test_split_text_nodes_are_read_as_lxml_joins_them():
    doc = lxml_html.document_fromstring(_page("<p>one <b>two</b> three<i>x</i>   <i>y</i></p><p>a<b> </b> b</p>"))
    etree.strip_tags(doc, "b", "i")  # (leaves runs of several text nodes)
    facts = page_facts(doc)
    _both(lambda: neighbourhood_walk(facts), doc.find("body"))


def test_namespaced_elements_are_no_headings_links_or_skipped_elements():
    root = etree.fromstring("<html xmlns='http://www.w3.org/1999/xhtml'><body><h1 class='byline'>Title here</h1>"
                            "<script>code</script>tail<a href='/author/x'>x</a></body></html>")
    body = root[0]
    _both(lambda: HoodWalk(True, None, []), body)
    reading = HoodWalk(True, None, [])
    reading.walk(body)
    assert reading.at == -1 and "code" in reading.lines and len(reading.bylines) == 1


def test_a_skipped_root_and_an_unopened_walk():
    body = lxml_html.document_fromstring(_page("<script>no</script>after<iframe>frame text</iframe>tail")).find("body")
    for root in body:
        for with_tail in (True, False):
            _both(lambda: HoodWalk(True, None, []), root, with_tail)


def test_every_author_page_the_pattern_finds_holds_one_of_the_compiled_walks_words():
    from newsstemmer.metadata import _hoodwalk
    from newsstemmer.metadata.neighbourhood import AUTHOR_PAGE

    assert _hoodwalk.AUTHOR_PAGE == AUTHOR_PAGE.pattern
    alternatives = AUTHOR_PAGE.pattern.split("(?:")[1].split(")/")[0].replace("(?:es|en|i|e)?", "").split("|")
    for alternative in alternatives + ["author="]:
        word = alternative.rstrip("?").rstrip("s") if alternative.endswith("s?") else alternative.rstrip("=")
        assert any(w in word for w in _hoodwalk.AUTHOR_WORDS), alternative


class _Handed(HoodWalk):
    """A reading that notes the ``href`` of each link the walk hands to :meth:`HoodWalk.start`."""

    __slots__ = ("handed",)

    def __init__(self) -> None:
        super().__init__(True, None, [])
        self.handed: list[str | None] = []

    def start(self, el, tag: str, marks: str | None) -> None:
        if tag == "a":
            self.handed.append(el.get("href"))
        super().start(el, tag, marks)


def _author_word_probes(words: tuple[str, ...]) -> list[str]:
    """Each word in several cases and places, and near misses: the word cut short at
    either end, split by a hyphen, each letter in turn changed, and other words of bylines."""
    probes = []
    for w in words:
        probes += [w, w.upper(), w.title(), w[:-1] + w[-1].upper(), "".join(c.upper() if i % 2 else c for i, c in enumerate(w)),
                   f"/news/{w.upper()}S/ann-lee", f"/x?{w}=3", f"/{w}{w}"]
        probes += [w[:-1], w[1:], f"{w[:-1]}-{w[-1]}", f"{w[:2]} {w[2:]}", f"/{w[:-1]}/{w[-1]}"]
        probes += [w[:i] + ("q" if c != "q" else "z") + w[i + 1:] for i, c in enumerate(w)]
    probes += ["redaktor", "editor", "staff", "contributor", "columnist", "correspondent", "byline", "/by/ann",
               "writ", "report", "journal", "/people/ann-lee", "#", "/", "?"]
    probes += ["/auth\u00f6r/x", "/\u017fkribent/x", "/\u212aa/x"]  # (not plain ASCII: always asked of AUTHOR_PAGE)
    return probes


def test_the_compiled_author_word_test_accepts_exactly_the_words_of_author_words():
    """A link's ``href`` is handed to ``HoodWalk.start`` (where ``AUTHOR_PAGE`` is asked)
    exactly where a plain-ASCII ``href`` holds one of ``AUTHOR_WORDS`` in any case (or where
    it is not plain ASCII): a word the compiled test missed would lose author links."""
    from newsstemmer.metadata import _hoodwalk

    words = _hoodwalk.AUTHOR_WORDS
    probes = _author_word_probes(words)
    wanted = [p for p in probes if not p.isascii() or any(w in p.lower() for w in words)]
    assert len(wanted) >= 8 * len(words) and len(probes) - len(wanted) >= 10 * len(words)  # (both sides probed)
    links = "".join(f"<a href=\"{escape(p)}\"></a>" for p in probes)
    body = lxml_html.document_fromstring(_page(f"<h1>A headline about things</h1>{links}<a href=''></a><a></a>")).find("body")
    reading = _Handed()
    reading.walk(body)
    assert reading.handed == wanted


def test_rel_author_links_are_the_links_python_finds():
    from newsstemmer.metadata import _hoodwalk

    markup = ("<a rel='author' href='/a'>A</a><a rel='AUTHOR nofollow'>B</a><a rel='nofollow\tauthor'>C</a>"
              "<a rel='authors'>no</a><a rel='co-author'>no</a><a rel=''>no</a><a>no</a><a rel>no</a>"
              "<a rel='\u00e1uthor'>no</a><a rel='author\u00a0x'>D</a><a rel='x\x1cauthor'>E</a>"
              "<div rel='author'>no</div><p><a rel=' author '>F</a></p><link rel='author' href='/x'>")
    doc = lxml_html.document_fromstring(_page(markup))
    python = [el for el in doc.iter("a") if (rel := el.get("rel")) and "author" in rel.lower().split()]
    compiled = _hoodwalk.rel_author_links(doc)
    assert len(compiled) == len(python) == 6 and all(a is b for a, b in zip(compiled, python))
    one = doc.find(".//a")
    assert _hoodwalk.rel_author_links(one) == [one]  # (the root itself, as iter does)
    assert page_facts(doc).author_links == ["A", "B", "C", "D", "E", "F"]


def test_fact_elements_are_what_the_three_iterations_find():
    from newsstemmer.metadata import _hoodwalk
    from newsstemmer.metadata.facts import _TAGS

    assert _hoodwalk.FACT_TAGS == _TAGS
    markup = ("<h1>One</h1><time datetime='2024-01-02'>x</time><a rel='author'>Ann</a><script>1</script>"
              "<div><link rel='canonical' href='/c'><meta name='x' content='y'><a rel='nofollow'>no</a>"
              "<title>inner</title><time>no date</time><h1>Two</h1></div><!-- <meta name='no'> -->")
    doc = lxml_html.document_fromstring(_page(markup))
    facts, times, links, items, dt, bold = _hoodwalk.fact_elements(doc)
    assert [entry for entry in facts if type(entry) is tuple] == [("y", ["x"])]  # (the <meta>, as read)
    facts = [entry for entry in facts if type(entry) is not tuple]
    for found, wanted in ((facts, [el for el in doc.iter(*_TAGS) if el.tag not in ("script", "meta")]),
                          (times, list(doc.iter("time"))),
                          (links, [el for el in doc.iter("a") if "author" in (el.get("rel") or "").split()])):
        assert len(found) == len(wanted) and all(a is b for a, b in zip(found, wanted))
    read = page_facts(doc)
    assert read.h1 == ["One", "Two"] and read.canonical == "/c" and read.meta["x"] == ["y"]
    assert [v for v, _ in read.times] == ["2024-01-02"] and read.author_links == ["Ann"]
    root = etree.fromstring("<html xmlns='http://www.w3.org/1999/xhtml'><head><title>T</title></head>"
                            "<body><h1 xmlns=''>plain</h1><time>t</time></body></html>")
    facts, times, links, items, dt, bold = _hoodwalk.fact_elements(root)
    assert [el.text for el in facts] == [el.text for el in root.iter(*_TAGS)] == ["plain"] and times == []


def test_namespaced_links_are_not_rel_author_links():
    from newsstemmer.metadata import _hoodwalk

    root = etree.fromstring("<html xmlns='http://www.w3.org/1999/xhtml'><body><a rel='author'>x</a>"
                            "<a xmlns='' rel='author'>y</a></body></html>")
    assert [el.text for el in _hoodwalk.rel_author_links(root)] == [el.text for el in root.iter("a")] == ["y"]


@pytest.mark.parametrize("text", [
    "", "itempro", "a itemprop='author' <dt><b>x</b></dt> ITEMPROP=\"name\" itemProp=headline x itemprop",
    "\u65e5\u672c itemprop=author <dt>< \U0001F600 itemprop='datePublished' ItemProp=no", "<dt>\u2019<dt><",
    "itempropitemprop=a itemPropITEMPROP=b", "<dt ><b>", "caf\u00e9 itemprop=\"creator publisher\"",
])
def test_one_text_scan_finds_what_the_four_finds_do(text):
    from newsstemmer.metadata.facts import _props_named, _text_scan

    assert _text_scan(text) == (_props_named(text), "<dt><" in text)
    # (a tree with a <dt> and an author property: the microdata's scan of the text is made)
    tree = lxml_html.document_fromstring(_page("<dl><dt>x</dt></dl><span itemprop='author'>a</span>"))
    facts = page_facts(tree, text or "<p>x</p>")
    facts.microdata("author")
    assert facts.dt_headers_named() == ("<dt><" in (text or "<p>x</p>"))


def test_fact_elements_find_the_itemprop_elements_the_search_finds():
    from newsstemmer.metadata import _hoodwalk
    from newsstemmer.metadata.facts import _ITEMPROP_XPATH

    assert _hoodwalk.FACT_PASS == 2
    doc = lxml_html.document_fromstring(_page(
        "<div itemprop='author'><span ItemProp='name'>Ann</span></div><!-- <p itemprop='x'> -->"
        "<script>itemprop='no'</script><time itemprop='datePublished' datetime='2024-01-02'>x</time>"
        "<p itemprop=''>empty</p>"))
    items = _hoodwalk.fact_elements(doc)[3]
    assert [el.tag for el in items] == ["div", "span", "time", "p"]
    assert len(items) == len(_ITEMPROP_XPATH(doc)) and all(a is b for a, b in zip(items, _ITEMPROP_XPATH(doc)))
    root = etree.fromstring("<html xmlns='http://www.w3.org/1999/xhtml' itemprop='a'><body>"
                            "<p xmlns:x='urn:x' x:itemprop='b'>no</p><p itemprop='c'>yes</p></body></html>")
    found = _hoodwalk.fact_elements(root)[3]
    assert [el.get("itemprop") for el in found] == [el.get("itemprop") for el in _ITEMPROP_XPATH(root)] == ["a", "c"]


MICRODATA_PAGES = [
    # no itemprop element; the text names some (a comment, a script, an attribute's value)
    "<!-- itemprop='author' --><script>x = \"itemprop='datePublished'\"</script><p title=\"itemprop=author\">x</p>",
    # a spelling the text scan does not look for: lxml lower-cases the attribute's name
    "<div ItemProp='author'>Ann Lee</div>",
    # microdata as pages write it, mixed case values, several properties in one
    "<div itemscope><span itemprop='author creator'><span itemprop='name'>Ann Lee</span></span>"
    "<time itemprop='datePublished' datetime='2024-03-02T10:00'>March 2</time>"
    "<meta itemprop='DateModified' content='2024-03-03'><span itemprop='headline'>A title</span></div>",
]


@pytest.mark.parametrize("markup", MICRODATA_PAGES)
def test_microdata_with_the_itemprop_elements_known_is_what_the_search_gives(markup):
    from newsstemmer.metadata.facts import _ITEMPROPS

    html = _page(markup)
    doc = lxml_html.document_fromstring(html)
    for props in [[p] for p in sorted(_ITEMPROPS)] + [sorted(_ITEMPROPS)]:
        known, searched = page_facts(doc, html), page_facts(doc, html)
        assert known._itemprop_elements is not None
        searched._itemprop_elements = None
        for prop in props:
            a, b = known.microdata(prop), searched.microdata(prop)
            assert [v for v, _ in a] == [v for v, _ in b] and all(x is y for (_, x), (_, y) in zip(a, b)), prop


def test_a_page_without_itemprop_elements_is_not_scanned_for_them():
    html = _page("<!-- itemprop='author' --><p>text</p>")
    facts = page_facts(lxml_html.document_fromstring(html), html)
    assert facts.microdata("author") == [] and facts._named is None and facts._items is None
    part = lxml_html.document_fromstring(html).find("body")  # (not a document's root: searched as before)
    assert page_facts(part, html)._itemprop_elements is None


@pytest.mark.parametrize("markup, has_dt", [
    ("<p>&lt;dt&gt;&lt;b&gt; in text: <!-- <dt><b>x</b></dt> --></p>", False),
    ("<dl><dt><strong>ann</strong></dt><dd>Member</dd></dl><p class='byline'>x</p>", True),
    ("<dl><dt> <b>ann</b></dt></dl>", True),
])
def test_post_headers_are_not_looked_for_in_a_tree_without_dt(markup, has_dt):
    from newsstemmer.metadata import _hoodwalk
    from newsstemmer.metadata.threads import post_headers

    html = _page(markup)
    doc = lxml_html.document_fromstring(html)
    assert _hoodwalk.fact_elements(doc)[4] is has_dt
    facts = page_facts(doc, html)
    assert facts.dt_headers_named() == (has_dt and "<dt><" in html)
    assert post_headers(doc, html if facts.dt_headers_named() else None) == post_headers(doc, html)


_FACT_MARKUP = (
    "<meta content='no name'><meta name='a' content=' x  y '><meta property='og:title' content='T'>"
    "<meta http-equiv='content-language' content='de'><meta itemprop='headline' content='H'><meta name='b'>"
    "<meta NAME='c' content='upper'><meta name='' content='empty name'><meta charset='utf-8'>"
    "<meta name='d' content=''><meta name='e' property='f' content='both'>"
    "<script>var a = 1;</script><script type='text/javascript'>{}</script><script type=''>{}</script>"
    "<script type=' Application/LD+JSON\\n'>{\"@type\": \"NewsArticle\", \"headline\": \"A\"}</script>"
    "<script type='application/ld+json '>{\"@type\": \"Person\", \"name\": \"B\"}</script>"
    "<script type='application/ld+jsonx'>{\"name\": \"no\"}</script>"
    "<script type='application/ld+json\u00a0'>{\"name\": \"nbsp\"}</script>"
    "<script type='application/ld&#43;json'>{\"name\": \"entity\"}</script>"
    "<link rel='stylesheet' href='/s.css'><link href='/no-rel'><link rel='' href='/empty'>"
    "<link rel='alternate CANONICAL' href=' /c '><link rel='canonical' href='/second'>"
    "<link rel='canonical\u00a0x' href='/nbsp'><title>T</title>")


@pytest.mark.parametrize("head", [_FACT_MARKUP, _FACT_MARKUP.replace("<link rel='alternate CANONICAL' href=' /c '>", "")])
def test_fact_elements_leave_out_only_what_read_takes_nothing_from(head):
    from newsstemmer.metadata import _hoodwalk
    from newsstemmer.metadata.facts import _TAGS, PageFacts, _read

    doc = lxml_html.document_fromstring(f"<html><head>{head}</head><body><h1>One</h1></body></html>")
    kept = _hoodwalk.fact_elements(doc)[0]
    every = list(doc.iter(*_TAGS))
    elements = [k for k in kept if type(k) is not tuple]  # (a tuple: a <meta> as _read takes it)
    assert len(kept) < len(every) and all(any(k is e for e in every) for k in elements)
    read = []
    for elements in (kept, every):
        facts, scripts = PageFacts(), []
        _read(facts, elements, scripts)
        read.append((dict(facts.meta), scripts, facts.canonical, facts.title, facts.h1))
    assert read[0] == read[1]
    assert read[0][0]["a"] == ["x y"] and len(read[0][1]) >= 2 and read[0][0]["c"] == ["upper"]
    assert read[0][0]["e"] == read[0][0]["f"] == ["both"] and read[0][0]["d"] == [""]


@pytest.mark.parametrize("markup, bold, names", [
    ("<h1>A headline about things</h1><p><strong>Ann Lee</strong><br>Paper.com</p><p>Text of the story.</p>",
     True, ["Ann Lee"]),
    ("<h1>A headline about things</h1><p><!-- c --><strong>Ann Lee</strong><br>x</p>", False, []),
    ("<h1>A headline about things</h1><p> <b>Ann Lee</b><br>x</p><p><i>no</i></p>", True, ["Ann Lee"]),
    ("<h1>A headline about things</h1><div><strong>Ann Lee</strong><br>x</div><p>prose</p>", False, []),
    ("<p><span><b>Ann Lee</b></span></p>", False, []),
])
def test_the_bold_line_is_not_looked_for_where_no_paragraph_opens_bold(markup, bold, names):
    from newsstemmer.metadata import _hoodwalk
    from newsstemmer.metadata.fields import _bold_names_opening

    html = _page(markup)
    doc = lxml_html.document_fromstring(html)
    assert _hoodwalk.fact_elements(doc)[5] is bold
    told, searched = page_facts(doc, html), page_facts(doc, html)
    searched.bold_paragraph = None
    assert told.bold_paragraph is bold
    assert _bold_names_opening(doc, told) == _bold_names_opening(doc, searched) == names


def test_a_meta_with_a_namespaced_attribute_is_read_from_its_element():
    from newsstemmer.metadata import _hoodwalk
    from newsstemmer.metadata.facts import _TAGS, PageFacts, _read

    root = etree.fromstring("<html xmlns:x='urn:x'><head><meta x:name='no' name='n' content=' c  d '/>"
                            "<meta name='m' content='e'/><meta x:content='z' name='o'/></head><body/></html>")
    kept = _hoodwalk.fact_elements(root)[0]
    assert [type(k) is tuple for k in kept] == [False, True, False]
    read = []
    for elements in (kept, list(root.iter(*_TAGS))):
        facts = PageFacts()
        _read(facts, elements, [])
        read.append(dict(facts.meta))
    assert read[0] == read[1] == {"n": ["c d"], "m": ["e"]}
