"""The compiled graph walk (``newsstemmer.single._domwalk``) builds the very graph of the
Python walk (``build_graph_python``, the reference), field by field, on pages made to reach
each of its rules; and the package falls back to the Python walk when it is not there."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from lxml import etree

from newsstemmer.dom.parse import parse_html
from newsstemmer.single import domgraph
from newsstemmer.single.domgraph import _domwalk
from newsstemmer.single.domgraph import PageRankOptions, build_graph_compiled, build_graph_python
from newsstemmer.single.signals.page_signals import page_signals

ROOT = Path(__file__).resolve().parent.parent

compiled = pytest.mark.skipif(domgraph._domwalk is None, reason="the compiled walk is not built here")

HEAD = ("<head><title>Rivers rise after the storm | Daily</title>"
        "<meta name='description' content='Three towns warned as the rivers rise'></head>")

PAGES = {
    "links and nesting": HEAD + "<body><nav><a href='/'>Home</a> | <a href='/news'>News</a></nav>"
    "<div class='content'><article><h1>Rivers rise after the storm</h1>"
    "<p>The rivers rose two metres overnight after the <a href='/storm'>storm <b>passed</b></a>, "
    "and <b>three</b> towns were <i>warned</i>.</p><p>Water_levels   fall by Friday 12.</p>"
    "<div><div><span>deep <em>text</em> here</span> tail</div> tail two</div></article>"
    "<aside class='related'><a href='/x'>Other news</a></aside><div class='sidebar-right'><p>"
    "Widget text about rivers</p></div></div></body>",
    "hidden": HEAD + "<body><div hidden><p>Hidden rivers</p></div>after hidden"
    "<p style='display: none'>styled away</p><span aria-hidden='true'>aria</span>"
    "<div style='visibility:hidden'>vis</div><p class='x' id='y'>shown rivers rise</p></body>",
    "scripts and comments": HEAD + "<body><!-- a comment --><p>before<script>var x = 'rivers';"
    "</script>after script<style>p{}</style>after style</p><noscript>no script</noscript>"
    "<template><p>template</p></template><p>one<!-- inside -->two<?pi x?>three</p>"
    "<svg><text>svg text</text></svg><button>Press</button><select><option>o</option></select>"
    "<iframe src='x'></iframe>tail of iframe<form><label>L</label><input>in form</form></body>",
    "entities": HEAD + "<body><p>Fish &amp; chips &lt;3 &nbsp; caf&eacute; &#8212; storm&#x27;s "
    "rivers</p><p>&copy; 2024</p></body>",
    "non-ASCII": HEAD + "<body><div id='main'><p>Les prix du café ont augmenté d’un tiers "
    "« en un an », selon l’étude. Rivers ÉTÉ</p><p>İstanbul ıslak ﬁx ẞ ß Ω</p>"
    "<p>东京的河流上涨了 storm 河流</p><p>Привет, реки поднялись</p><p>١٢٣ ٤٥ numbers ²³</p>"
    "<p>emoji 🌊🌊 rivers</p><ul><li><a href='/a'>Voir aussi</a></li></ul></div></body>",
    "comments thread": HEAD + "<body><article><p>Article body about rivers rising.</p></article>"
    "<div id='comments'><div class='comment'><p>First reply rivers</p></div>"
    "<div class='comment'><p>Second reply</p></div></div>"
    "<div class='tone-comment'><p>" + "A long opinion paragraph on the storm. " * 8 + "</p><p>"
    + "More of the opinion on the rivers. " * 8 + "</p><p>" + "And the end of it. " * 8
    + "</p></div></body>",
    "gallery and media": HEAD + "<body><div class='gallery'>"
    + "".join(f"<figure><img src='/p{k}.jpg'><figcaption>Photo {k} of rivers</figcaption></figure>"
              for k in range(5))
    + "</div><img src='/icon.png' width='16' height='16'><video src='/v.mp4'></video>"
    "<img data-src='/lazy.jpg'><p>Text after the gallery about the storm.</p></body>",
    "carousels": HEAD + "<body><div class='story'><p>Rivers rose after the storm, said the council.</p>"
    "<div class='rail'>" + "".join(f"<div class='item'><iframe src='/e{k}'></iframe><p>Clip {k} of the rivers</p>"
                                    "</div>" for k in range(4)) + "</div>"
    "<ul class='Swiper-Wrapper'>" + "".join(f"<li class='swiper-slide'>Slide {k} text</li>" for k in range(4))
    + "</ul><div class='row'>" + "".join(f"<div class='cell'><object data='/o{k}'><embed src='/e{k}'></object>"
                                          f"<span>Cell {k}</span></div>" for k in range(3))
    + "</div><div hidden><div class='slideshow'>" + "<p>hidden slide</p>" * 3 + "</div></div>"
    "<p>More about the rivers after the carousels.</p></div></body>",
    "empty and whitespace": HEAD + "<body>  <div> </div><p>\t\n</p><p>___</p><p>!!! ??? ...</p>"
    "<p>\x0b\x0c</p>text</body>",
    "non-ASCII title": "<head><title>Les prix du café augmentent | Été İstanbul</title><meta name='description' "
    "content='Реки поднялись: café ÉTÉ'></head><body><p>Le café coûte plus cher cet été, café et ÉTÉ.</p>"
    "<p>Реки поднялись, реки!</p><p>İstanbul istanbul ISTANBUL straße STRASSE ﬁx</p><p>东京 café 河流</p>"
    "<a href='/x'>Été à Paris</a></body>",
    "title only": "<head><title>Storm</title></head><body><p>Storm storm STORM</p><p>calm</p></body>",
    "no title": "<body><p>Nothing to compare with</p></body>",
    "deep nesting": HEAD + "<body>" + "<div>rivers " * 5000 + "storm" + "</div>tail" * 5000 + "</body>",
}

OPTIONS = {
    "default": PageRankOptions(),
    "dice": PageRankOptions(similarity="dice"),
    "uniform unit": PageRankOptions(weighting="uniform", text_weight="unit"),
    "media, not hidden, no shape": PageRankOptions(media_weight=0.7, skip_hidden=False, comment_shape=False,
                                                   gallery_weight=0.4, comment_weight=0.2, text_cap=7),
    "no galleries, cap 1": PageRankOptions(galleries=False, text_cap=0, beta=0.3),
}


def graph_fields(g) -> dict:
    return {"parent": g.parent, "u": g.u, "elements": [id(e) for e in g.elements], "chars": g.chars,
            "link_chars": g.link_chars, "roles": g.roles, "hidden": {id(e) for e in g.hidden}, "size": g.size}


def assert_same(body: etree._Element, opts: PageRankOptions, sig) -> int:
    a, b = build_graph_python(body, opts, sig), build_graph_compiled(body, opts, sig)
    fa, fb = graph_fields(a), graph_fields(b)
    for name in fa:
        assert fa[name] == fb[name], name
    assert all(type(x) is float for x in b.u) and all(type(x) is int for x in b.parent + b.roles)
    return len(a.parent)


def page_body(html: str) -> tuple[etree._Element, object]:
    root = parse_html("<html>" + html + "</html>")
    body = root.find("body")
    return (root if body is None else body), page_signals(root)


@compiled
@pytest.mark.parametrize("page", list(PAGES))
def test_same_graph_as_the_python_walk(page):
    body, sig = page_body(PAGES[page])
    for opts in OPTIONS.values():
        assert assert_same(body, opts, sig) > 1 or page == "no title"


@compiled
def test_deep_page_is_walked_whole():
    """5,000 nested elements (built with lxml's API: the parser stops nesting sooner), each
    with a text and a tail: the same graph, and no recursion limit met."""
    body = etree.Element("body")
    el = body
    for k in range(5000):
        el = etree.SubElement(el, "div" if k % 3 else "a", {"class": "comment"} if k == 2500 else {})
        el.text = f"rivers {k}"
        el.tail = "storm tail"
    sig = page_signals(parse_html("<html>" + HEAD + "<body></body></html>"))
    for opts in OPTIONS.values():
        assert assert_same(body, opts, sig) == 1 + 5000 * 3  # (body; each div, its text and its tail)
    g = build_graph_compiled(body, PageRankOptions(), sig)
    assert g.size[0] == len(g.parent) and g.parent[-1] == 0


@compiled
def test_trees_the_parser_does_not_make():
    """Entity references, CDATA, namespaced tags and attributes, comment and PI roots' tails,
    a root that is not ``body``: built with lxml's API, walked the same."""
    root = etree.Element("body")
    p = etree.SubElement(root, "p", {"class": "content"})
    p.text = "Rivers "
    p.append(etree.Entity("nbsp"))
    p[-1].tail = "after entity"
    q = etree.SubElement(root, "{http://example.org/ns}note", {"{http://example.org/ns}class": "comments"})
    q.text = "namespaced rivers"
    q.tail = "tail of note"
    r = etree.SubElement(root, "div", {"{http://example.org/ns}id": "x"})
    r.append(etree.Comment("c"))
    r[-1].tail = "after comment"
    r.append(etree.ProcessingInstruction("pi", "x"))
    r[-1].tail = "after pi"
    s = etree.SubElement(root, "section")
    s.text = etree.CDATA("storm in cdata")
    etree.SubElement(s, "a", href="/x").text = "link"
    root.tail = "tail of the root"
    sig = page_signals(parse_html("<html>" + HEAD + "<body></body></html>"))
    for opts in OPTIONS.values():
        assert assert_same(root, opts, sig) > 5
        assert assert_same(s, opts, sig) == 4  # (section, its CDATA text, a, its text)


@compiled
def test_a_change_of_rule_is_seen():
    """The comparison can fail: a link weight the Python walk does not use moves ``u``."""
    body, sig = page_body(PAGES["links and nesting"])
    a = build_graph_python(body, PageRankOptions(), sig)
    b = build_graph_compiled(body, PageRankOptions(link_weight=0.2), sig)
    assert a.parent == b.parent and a.u != b.u


def test_falls_back_to_the_python_walk():
    """Without the extension (``NEWSSTEMMER_PURE_PYTHON=1`` stands for it) the package imports and
    builds the graph in Python; ``GRAPH_WALK`` says which walk is used."""
    code = ("from newsstemmer.single import domgraph as d; from newsstemmer import extract_single, Page;"
            "print(d.GRAPH_WALK, d._domwalk)")
    env = dict(os.environ, NEWSSTEMMER_PURE_PYTHON="1", PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["python", "None"]
    body, sig = page_body(PAGES["links and nesting"])
    assert domgraph.build_graph(body, replace(PageRankOptions()), sig).parent == \
        build_graph_python(body, PageRankOptions(), sig).parent


# -- the compiled solver and sums over subtrees ------------------------------------------------


def random_tree(n: int, rng, roots: int = 1) -> list[int]:
    return [-1 if i < roots else rng.randrange(i) for i in range(n)]


@compiled
@pytest.mark.parametrize("seed", range(6))
def test_compiled_solver_and_sums_equal_the_python_ones(seed):
    """On random forests and weights (zeros, ints, wide ranges) the compiled solver, subtree
    sums and DensitySum give the Python forms' very floats, not just close ones."""
    import random

    rng = random.Random(seed)
    for n in (1, 2, 3, 50, 1500):
        parent = random_tree(n, rng, roots=1 if seed % 2 else min(n, 3))
        u = [rng.choice((0.0, 0, 1, rng.random(), rng.random() * 1e-9, rng.random() * 1e6)) for _ in range(n)]
        for alpha in (0.0, 0.5, 5.0, 1e3):
            assert _domwalk.solve_tree(parent, u, alpha) == domgraph.solve_tree_python(parent, u, alpha)
        # a preorder tree has subtrees as ranges: build one to check the sums
        tree_parent, size = preorder_tree(n, rng)
        f = domgraph.solve_tree_python(tree_parent, u, 5.0)
        chars = [rng.choice((0, 0, 3, 120)) for _ in range(n)]
        if n > 1:
            assert _domwalk.density_sums(tree_parent, f, chars) == domgraph.density_sums_python(tree_parent, f, chars)
        graph = domgraph.DomGraph(tree_parent, u, [None] * n, chars, [c // 2 for c in chars], [0] * n, set(), size)
        assert domgraph.subtree_sums(graph) == domgraph.subtree_sums_python(graph)
        got = domgraph.subtree_sums(graph)
        assert all(type(x) is int for x in got[0]) and all(type(x) is float for x in got[2])


def preorder_tree(n: int, rng) -> tuple[list[int], list[int]]:
    """A random tree of ``n`` nodes numbered in preorder: (parent, subtree size)."""
    parent, open_ = [-1], [0]
    for i in range(1, n):
        del open_[rng.randint(1, len(open_)):]  # close some of the open nodes
        parent.append(open_[-1])
        open_.append(i)
    size = [1] * n
    for i in range(n - 1, 0, -1):
        size[parent[i]] += size[i]
    return parent, size


@compiled
def test_compiled_solver_checks_its_input():
    for parent, u in (([-1, 0], [1.0]), ([-1, 1], [1.0, 1.0]), ([0], [1.0])):
        with pytest.raises(ValueError):
            _domwalk.solve_tree(parent, u, 0.5)
    with pytest.raises(ValueError):
        _domwalk.solve_tree([-1], [1.0], -1.0)
    with pytest.raises(ValueError):
        _domwalk.density_sums([-1, 0], [1.0], [0, 0])


@compiled
def test_density_sums_ties_and_nan_as_numpy():
    """The core is numpy's argmax: the first of equal maxima, the first NaN."""
    parent, chars = [-1, 0, 0, 1, 2], [0, 0, 0, 5, 5]
    for f in ([1.0, 0.0, 0.0, 1.0, 1.0], [1.0, 0.0, 0.0, float("nan"), 1.0], [0.0] * 5):
        got, want = _domwalk.density_sums(parent, f, chars), domgraph.density_sums_python(parent, f, chars)
        assert got[1] == want[1]
        assert str(got[0]) == str(want[0])


def test_solver_and_sums_fall_back_to_python(monkeypatch):
    """Without the extension the public functions are the Python ones."""
    monkeypatch.setattr(domgraph, "_domwalk", None)
    assert domgraph.solve_tree([-1, 0], [1.0, 0.0], 1.0) == domgraph.solve_tree_python([-1, 0], [1.0, 0.0], 1.0)
    assert domgraph.density_sums([-1, 0, 0], [1.0, 2.0, 3.0], [0, 1, 0]) == ([5.0, 0.0, 0.0], 0)


def test_lists_as_arrays_equal_numpy_asarray(monkeypatch):
    """float_array / int_array give np.asarray's very values and dtype, compiled or not."""
    import numpy as np

    floats = [0.0, -0.0, 1.5, 1e-300, 3, 2**53 + 1, 2**63 + 12345, -(2**60) - 1, True, float("inf")]
    ints = [0, -1, 7, 2**62, True]
    for walk in (domgraph._domwalk, None):
        monkeypatch.setattr(domgraph, "_domwalk", walk)
        for values, make, dtype in ((floats, domgraph.float_array, np.float64), (ints, domgraph.int_array, np.int64),
                                    ([], domgraph.float_array, np.float64)):
            got, want = make(values), np.asarray(values, dtype=dtype)
            assert got.dtype == want.dtype and got.tobytes() == want.tobytes()
        with pytest.raises((OverflowError, ValueError)):
            domgraph.int_array([2**64])


# -- the compiled gallery check -----------------------------------------------------------------


def gallery_verdicts(root: etree._Element) -> tuple[list, list]:
    """Every element's gallery by the Python and the compiled check (each with its own cache)."""
    from newsstemmer.single.signals.page_signals import gallery_of

    seen_a, seen_b = {}, {}
    els = [el for el in root.iter() if el.tag.__class__ is str]
    return [gallery_of(el, seen_a) for el in els], [domgraph.compiled_gallery_of(el, seen_b) for el in els]


def gallery_tree() -> etree._Element:
    """Galleries and near-galleries, with what ``itertext`` and ``iter`` read in their own way:
    comments, PIs, CDATA, entity references, namespaced images, non-ASCII and whitespace text."""
    body = etree.Element("body")
    for k, (kind, caption) in enumerate((("slide", "Photo één\t of  rivers"), ("slide x", "Zdjęcie 2 \n"),
                                         ("slide", "ß"), ("slide", "  "))):
        li = etree.SubElement(body, "li", {"class": kind})
        etree.SubElement(li, "img", src=f"/p{k}.jpg").tail = caption
        li.append(etree.Comment("a comment"))
        li[-1].tail = "after comment"
    body.append(etree.ProcessingInstruction("pi", "x"))
    body[-1].tail = "pi tail"
    gal = etree.SubElement(body, "div", {"class": "gallery"})
    for k in range(4):
        fig = etree.SubElement(gal, "figure")
        pic = etree.SubElement(fig, "{http://example.org/ns}img" if k == 0 else "picture")
        pic.tail = "cap"
        cap = etree.SubElement(fig, "figcaption")
        cap.text = etree.CDATA(f"cdata caption {k}")
        if k == 2:
            cap.append(etree.Entity("nbsp"))
            cap[-1].tail = "after entity"
    gal.text = "gallery text"
    etree.SubElement(gal, "p").text = "A long paragraph of the page about the rivers and the storm. " * 3
    return body


@compiled
def test_compiled_gallery_check_gives_the_python_verdicts():
    trees = [gallery_tree()] + [page_body(html)[0] for html in PAGES.values()]
    galleries = 0
    for root in trees:
        a, b = gallery_verdicts(root)
        assert all(x is y for x, y in zip(a, b))
        galleries += sum(x is not None for x in a)
    assert galleries >= 5  # (the check can fail: galleries were found)


@compiled
def test_compiled_gallery_check_is_seen_to_differ():
    """A changed share makes the compiled check disagree (the comparison can fail)."""
    from newsstemmer.single.signals import page_signals

    body = page_body(PAGES["gallery and media"])[0]
    img = body.find(".//img")
    assert page_signals.gallery_of(img, {}) is not None
    assert domgraph._domwalk.gallery_of(img, {}, 4, 3, 0.8, 1.01, page_signals.nonspace_chars) is None


@compiled
def test_the_built_module_has_what_the_code_calls():
    """COMPILED_NAMES lists what domgraph calls; a build lacking one (an old .so) is not used."""
    assert all(hasattr(domgraph._domwalk, name) for name in domgraph.COMPILED_NAMES)
    src = (ROOT / "newsstemmer" / "single" / "domgraph.py").read_text(encoding="utf-8")
    called = set(re.findall(r"_domwalk\.(\w+)\(", src))
    assert called and called <= set(domgraph.COMPILED_NAMES)


def test_an_older_build_is_not_used():
    """A compiled module lacking a function the code calls (stood for by a module with the walk
    alone) leaves the package on the Python forms, with a warning."""
    code = ("import sys, types; m = types.ModuleType('newsstemmer.single._domwalk'); m.build_lists = None;"
            "sys.modules['newsstemmer.single._domwalk'] = m;"
            "from newsstemmer.single import domgraph as d; print(d.GRAPH_WALK, d._domwalk)")
    env = {k: v for k, v in os.environ.items() if k != "NEWSSTEMMER_PURE_PYTHON"} | {"PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["python", "None"]
    assert "older than this code" in out.stderr


def thread_tree() -> etree._Element:
    """Comment-named elements on both sides of each rule of ``thread_shaped``: a body run of
    paragraphs (in and out of list items, namespaced ``p``), item lists alike or not in size
    (classes differing by digits only), siblings of one kind, comments, PIs, CDATA, tails,
    non-ASCII and whitespace text; one subtree with an entity reference (the Python form's)."""
    para = "Een lange alinea over de rivieren en de storm, ß and more words here. "
    root = etree.Element("body")
    body = etree.SubElement(root, "div", {"class": "tone-comment"})
    for k in range(4):
        p = etree.SubElement(body, "p")
        p.text = para * 2
        p.append(etree.Comment("c"))
        p[-1].tail = "\t after\n comment "
        etree.SubElement(p, "b").text = etree.CDATA("cdata bold")
    body.append(etree.ProcessingInstruction("pi", "x"))
    body[-1].tail = "pi tail"
    thread = etree.SubElement(root, "section", {"id": "comments"})
    for k in range(3):
        item = etree.SubElement(thread, "div", {"class": f"comment-{k} reply"})
        etree.SubElement(item, "p").text = para * (1 + k % 2)
    listed = etree.SubElement(root, "ul", {"class": "comments"})
    for k in range(3):
        li = etree.SubElement(listed, "li")
        for _ in range(3):
            etree.SubElement(li, "p").text = para * 3
    odd = etree.SubElement(root, "div", {"class": "comments-area"})
    for k in range(3):
        etree.SubElement(odd, "{http://example.org/ns}p").text = para * 3
    etree.SubElement(odd, "span").text = "  "
    big = etree.SubElement(root, "div", {"class": "commentlist"})
    etree.SubElement(big, "article", {"class": "c1"}).text = para * 9
    etree.SubElement(big, "article", {"class": "c2"}).text = para
    for k in range(3):
        etree.SubElement(big, "p").text = para
    etree.SubElement(root, "div", {"class": "empty-comments"})
    ent = etree.SubElement(root, "div", {"class": "comments-ent"})
    for k in range(3):
        p = etree.SubElement(ent, "p")
        p.text = para * 3
        if k == 1:
            p.append(etree.Entity("nbsp"))
            p[-1].tail = "after entity"
    return root


@compiled
def test_compiled_thread_shape_gives_the_python_verdicts():
    from newsstemmer.single.signals.page_signals import thread_shaped

    trees = [thread_tree()] + [page_body(html)[0] for html in PAGES.values()]
    verdicts = []
    for root in trees:
        for el in root.iter():
            if el.tag.__class__ is str:
                a, b = thread_shaped(el), domgraph.compiled_thread_shaped(el)
                assert a is b, (el.tag, el.get("class"))
                verdicts.append(a)
    assert True in verdicts and verdicts.count(False) >= 3  # (both verdicts are reached)


@compiled
def test_compiled_thread_shape_is_seen_to_differ():
    """Other constants make the compiled check disagree (the comparison can fail)."""
    from newsstemmer.single.signals import page_signals as s

    body = thread_tree()[0]
    assert s.thread_shaped(body) is False
    assert domgraph._domwalk.thread_shaped(body, s.BODY_PARAGRAPHS, s.BODY_SHARE, 10 ** 6, s.THREAD_ITEMS,
                                           s.THREAD_ITEM_SHARE, s._NOT_ITEMS, s._DIGITS.sub, None) is True


@compiled
def test_compiled_thread_shape_leaves_entity_references_to_python():
    calls = []
    el = thread_tree().find("div[@class='comments-ent']")
    from newsstemmer.single.signals import page_signals as s

    verdict = domgraph._domwalk.thread_shaped(el, s.BODY_PARAGRAPHS, s.BODY_SHARE, s.BODY_MIN_CHARS, s.THREAD_ITEMS,
                                              s.THREAD_ITEM_SHARE, s._NOT_ITEMS, s._DIGITS.sub,
                                              lambda e: calls.append(e) or "python")
    assert verdict == "python" and calls == [el]
