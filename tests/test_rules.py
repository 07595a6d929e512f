"""Tests of CSS-selector rules (SPEC §6, ``newsstemmer.rules``) on purpose-made pages."""

from __future__ import annotations

import json
import random

import pytest
from lxml import etree
from lxml.cssselect import CSSSelector
from parsel import Selector

from newsstemmer import Page, SitePatterns, learn
from newsstemmer import cli
from newsstemmer.cli.common import CLIError
from newsstemmer.combine.extract import extract_with_rules
from newsstemmer.cli.rules import format_rules, load_site_rules
from newsstemmer.layout.patterns import PatternFileError
from newsstemmer.rules import (
    RuleOptions,
    RuleSet,
    RulesError,
    adapted_identifiers,
    apply_rules,
    check_selector,
    extract_unique_blocks,
    has_content,
    learn_rules,
    match_rules,
    nearest_identifiers,
    page_blocks,
    parse_page,
    rule_for,
    rules_from_extras,
    root_of,
    rules_of,
    selectors_xpath,
    store_rules,
    text_lines,
    unique_blocks,
)

# -- a purpose-made site ------------------------------------------------------------------

WORDS = (
    "council residents engineers weekend station market river village budget report "
    "harbour bridge orchestra farmers harvest summer tram commute scientists square "
    "volunteers trees coast road museum library school teachers hospital nurses"
).split()
TITLES = [
    "Harbour bridge reopens after two years of repairs",
    "Local orchestra wins national prize for young musicians",
    "Farmers report record apple harvest despite dry summer",
    "New tram line promises faster commutes across the city",
    "Scientists map ancient river beneath the old town square",
    "Volunteers plant ten thousand trees along the coast road",
]


def sentence(rng: random.Random, n: int = 14) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n)).capitalize() + "."


def site_page(i: int, paragraphs: int = 4) -> str:
    """An article page: constant header/nav/footer, a headline, a body in #story, a
    per-page list of links in #popular (varying, but only links), an advert cell."""
    rng = random.Random(i)
    paras = "".join(f"<p>{sentence(rng, 20)} {sentence(rng, 16)}</p>" for _ in range(paragraphs))
    popular = "".join(f'<li><a href="/s/{i}-{k}">{sentence(rng, 6)}</a></li>' for k in range(4))
    return f"""<!DOCTYPE html>
<html><head><title>{TITLES[i % len(TITLES)]} - Daily Example</title>
<meta property="og:title" content="{TITLES[i % len(TITLES)]}"></head>
<body class="article-page">
<div id="header"><ul class="nav"><li><a href="/">Home page</a></li><li><a href="/world">World news</a></li></ul></div>
<div id="main">
  <h1 class="headline">{TITLES[i % len(TITLES)]}</h1>
  <div id="story">{paras}</div>
  <div class="share"><a href="/share">Share this story with friends</a></div>
</div>
<div id="sidebar"><h3>Most read</h3><ul id="popular">{popular}</ul></div>
<div id="footer"><p>Copyright 2024 Daily Example Media Group. All rights reserved.</p></div>
<script>var tracking = "{sentence(rng)}";</script>
</body></html>"""


def site_pages(n: int = 4) -> list[str]:
    return [site_page(i) for i in range(n)]


# -- blocks ---------------------------------------------------------------------------------


def texts(html: str) -> list[str]:
    return [b.text for b in page_blocks(html)]


def test_blocks_are_block_elements_without_block_descendants():
    html = "<html><body><div id='a'><p>First para <b>bold</b> text</p><div><p>Inner</p></div></div><ul><li>One</li><li>Two</li></ul></body></html>"
    blocks = page_blocks(html)
    assert [(b.tag, b.text, b.leaf) for b in blocks] == [
        ("p", "First para bold text", True),
        ("p", "Inner", True),
        ("li", "One", True),
        ("li", "Two", True),
    ]


def test_body_text_is_a_block_and_loose_text_keeps_its_element():
    html = "<html><body>Loose words under body<div>Loose in div<p>Para</p>tail of div</div></body></html>"
    blocks = page_blocks(html)
    by_tag = {b.tag: b for b in blocks}
    assert by_tag["body"].text == "Loose words under body"
    assert by_tag["body"].leaf is False  # body holds blocks: only its own text
    assert by_tag["div"].text == "Loose in div tail of div" and by_tag["div"].leaf is False
    assert by_tag["div"].lines == ("Loose in div", "tail of div")
    assert by_tag["p"].text == "Para" and by_tag["p"].leaf is True
    # Document order of the elements.
    assert [b.tag for b in blocks] == ["body", "div", "p"]


def test_body_without_blocks_is_one_leaf_block():
    blocks = page_blocks("<html><body>Just <i>some</i> text<br>and more</body></html>")
    assert len(blocks) == 1 and blocks[0].tag == "body" and blocks[0].leaf
    assert blocks[0].text == "Just some text and more"
    assert blocks[0].lines == ("Just some text", "and more")


def test_script_noscript_style_and_their_subtrees_are_excluded():
    html = (
        "<html><body><div>Visible <script>var hidden = 1;</script>words</div>"
        "<div><noscript><p>Enable JavaScript please</p></noscript>Shown</div>"
        "<style>p { color: red }</style><div><script>only script</script></div></body></html>"
    )
    blocks = page_blocks(html)
    assert [b.text for b in blocks] == ["Visible words", "Shown"]
    # The <p> inside <noscript> is not a block, so the second div is a leaf.
    assert all(b.leaf for b in blocks)


def test_image_only_block_is_compared_by_its_src():
    blocks = page_blocks('<html><body><div><img src="/a.png"></div><div>   </div></body></html>')
    assert len(blocks) == 1
    assert blocks[0].text == "" and blocks[0].images == ("/a.png",)
    assert "/a.png" in blocks[0].key


def test_anchor_weight_is_counted():
    b = page_blocks('<html><body><p>Read <a href="/x">the full story here</a></p></body></html>')[0]
    assert b.link_weight == len("thefullstoryhere") and b.weight == len("Readthefullstoryhere")


# -- unique blocks ----------------------------------------------------------------------------


def test_content_blocks_occur_once_in_the_set():
    pages = [page_blocks(h) for h in site_pages(3)]
    content = unique_blocks(pages)
    for blocks in content:
        got = {b.text for b in blocks}
        assert "Home page" not in got and "Most read" not in got
        assert not any(t.startswith("Copyright") for t in got)
        assert any(t in TITLES for t in got)
    # A block repeated on its own page is not content either.
    twice = "<html><body><p>Same twice here</p><p>Same twice here</p><p>Only here once</p></body></html>"
    other = "<html><body><p>Something else entirely</p></body></html>"
    got = unique_blocks([page_blocks(twice), page_blocks(other)])
    assert [b.text for b in got[0]] == ["Only here once"]


def test_set_method_extracts_the_unique_blocks_of_a_page():
    pages = site_pages(4)
    text = extract_unique_blocks(pages[3], pages[:3])
    assert TITLES[3] in text
    assert "Home page" not in text and "Copyright" not in text and "tracking" not in text


def test_learning_needs_two_pages():
    with pytest.raises(ValueError, match="at least 2"):
        learn_rules(site_pages(1))


# -- adapted identifiers -------------------------------------------------------------------------


def roots_of(*htmls: str) -> list[etree._Element]:
    return [parse_page(h) for h in htmls]


def test_adapted_identifiers_are_unique_in_every_page():
    a = '<html><body><div id="main" class="wrap x"><p class="x">a</p></div><div id="only-a">z</div></body></html>'
    b = '<html><body><div id="main" class="wrap"><p class="x">b</p><p id="Main2">c</p></div></body></html>'
    got = adapted_identifiers(roots_of(a, b))
    assert ("#", "main") in got and (".", "wrap") in got
    assert (".", "x") not in got  # twice in page a
    assert ("#", "only-a") not in got  # not in every page
    assert ("#", "Main2") not in got


def test_adapted_identifiers_are_plain_and_unique_without_case():
    a = '<html><body><div id="2col">x</div><div class="a:b">y</div><div class="Box">z</div><div class="box">w</div></body></html>'
    got = adapted_identifiers(roots_of(a, a))
    assert got == set()  # "2col" and "a:b" need escaping; "Box"/"box" clash without case


# -- rule templates -------------------------------------------------------------------------------

TEMPLATE_PAGE = """<html><body>
<div id="page">
  <p id="lead">{lead}</p>
  <div class="summary">{summary}</div>
  <div id="story"><p>{p1}</p><section><p>{p2}</p></section></div>
  <div class="box"><p>{p3}</p><div><h4>{p4}</h4></div></div>
  <div id="col2" class="side"><p>{p5}</p></div>
</div>
<table><tr><td>{cell}</td></tr></table>
</body></html>"""


def template_pages(n: int = 3) -> list[str]:
    out = []
    for i in range(n):
        rng = random.Random(100 + i)
        out.append(TEMPLATE_PAGE.format(**{k: sentence(rng) for k in ("lead", "summary", "p1", "p2", "p3", "p4", "p5", "cell")}))
    return out


def test_each_template_in_its_situation():
    roots = roots_of(*template_pages())
    adapted = adapted_identifiers(roots)
    nearest = nearest_identifiers(roots[0], adapted)
    blocks = {b.text.split()[0] + str(i): b for i, b in enumerate(page_blocks(roots[0]))}
    got = {rule_for(b.tag, nearest[b.element]) for b in blocks.values()}
    assert ("p#lead", "E#id") in got  # own id
    assert ("div.summary", "E.class") in got  # own class
    assert ("#story > p", "#id > E") in got  # the parent's id
    assert ("#story p", "#id E") in got  # reached through the parent's nearest
    assert (".box > p", ".class > E") in got
    assert (".box h4", ".class E") in got
    assert ("td", "E") in got  # no identifier above the table
    # Digits: "col2" is adapted, but the digit-free class is preferred.
    assert (".side > p", ".class > E") in got
    # The paper's spelling of the third template.
    p2 = next(b for b in blocks.values() if b.element.getparent().tag == "section")
    assert rule_for("p", nearest[p2.element], strict_descendant=True) == ("#story * p", "#id * E")


def test_id_is_preferred_over_class():
    pages = ['<html><body><div id="story" class="content"><p>%s</p></div></body></html>' % sentence(random.Random(i)) for i in range(2)]
    roots = roots_of(*pages)
    adapted = adapted_identifiers(roots)
    assert {("#", "story"), (".", "content")} <= adapted
    p = roots[0].find(".//p")
    assert rule_for("p", nearest_identifiers(roots[0], adapted)[p]) == ("#story > p", "#id > E")


def test_learned_rules_point_at_the_article():
    rules = rules_of(learn_rules(site_pages(3)))
    assert [r.selector for r in rules.title][:1] == ["h1.headline"]
    body = [r.selector for r in rules.body]
    assert "#story > p" in body
    # The per-page list of links varies, but is all anchor text: no rule.
    assert not any("popular" in s or s == "li" for s in body)
    assert all(r.precision >= 0.9 for r in rules.body)
    title, text = apply_rules(site_page(5), rules)
    assert title == TITLES[5]
    assert "Home page" not in text and "Copyright" not in text and "Most read" not in text
    assert text.count("\n") + 1 == 4  # four paragraphs, one line each
    assert TITLES[5] not in text


def test_precision_filter_drops_rules_matching_mostly_boilerplate():
    # The only varying cell has no identifier: "td" would also take the menu cells.
    def page(i: int) -> str:
        rng = random.Random(i)
        menu = "".join(f"<td>Menu item number {k} of the site</td>" for k in range(8))
        return f"<html><body><table><tr>{menu}</tr><tr><td>{sentence(rng)}</td></tr></table></body></html>"

    loose = rules_of(learn_rules([page(i) for i in range(3)], options=RuleOptions(min_precision=0.0, greedy=False)))
    assert [r.selector for r in loose.body] == ["td"]
    strict = rules_of(learn_rules([page(i) for i in range(3)]))
    assert strict.body == []


def test_layout_patterns_help_and_give_path_rules():
    pages = [Page(h, url=f"http://example.com/news/{i}.html") for i, h in enumerate(site_pages(4))]
    site = learn(pages)
    with_patterns = rules_of(learn_rules(pages[:3], site))
    assert with_patterns.used_patterns
    assert any(r.template == "path" for r in with_patterns.body + with_patterns.title)
    title, body = apply_rules(site_page(4), with_patterns)
    assert title == TITLES[4] and "Copyright" not in body


# -- applying -------------------------------------------------------------------------------------


def test_application_skips_blocks_without_text_or_image():
    rules = RuleSet(body=rules_of(["div.x"]).body)
    html = (
        '<html><body><div class="x">  </div><div class="x"><img src="/p.jpg"></div>'
        '<div class="x"><script>var a = "not text";</script></div><div class="x">Real text</div></body></html>'
    )
    root = parse_page(html)
    _, elements = match_rules(root, rules)
    assert [len(e) and e[0].tag for e in elements] == ["img", 0]  # the image block and the text block
    assert apply_rules(html, rules) == ("", "Real text")


def test_nested_matches_are_taken_once_in_document_order():
    rules = rules_of(["#story", "#story p", "p.first"])
    html = '<html><body><p class="first">Before</p><div id="story"><p>One</p><p>Two</p></div><p class="first">After</p></body></html>'
    assert apply_rules(html, rules) == ("", "Before\nOne\nTwo\nAfter")


def test_title_is_not_repeated_in_the_body():
    rules = rules_from_extras({"title": [{"selector": "h1"}], "body": [{"selector": "#main"}]})
    html = "<html><body><div id='main'><h1>The headline</h1><p>Body text here</p></div></body></html>"
    assert apply_rules(html, rules) == ("The headline", "Body text here")


def test_title_rules_are_ranked():
    rules = rules_from_extras({"title": ["h1.headline", "h1"], "body": []})
    html = "<html><body><h1>Site name</h1><h1 class='headline'>Real headline</h1></body></html>"
    assert apply_rules(html, rules)[0] == "Real headline"
    assert apply_rules("<html><body><h1>Only this</h1></body></html>", rules)[0] == "Only this"


def test_apply_accepts_a_parsel_selector_and_site_patterns():
    rules = learn_rules(site_pages(3))
    site = store_rules(SitePatterns("example.com", []), rules)
    html = site_page(4)
    expected = apply_rules(html, rules)
    assert apply_rules(Selector(text=html), site) == expected


# -- storage --------------------------------------------------------------------------------------


def test_rules_round_trip_in_a_pattern_file(tmp_path):
    pages = [Page(h, url=f"http://example.com/news/{i}.html") for i, h in enumerate(site_pages(4))]
    site = learn(pages)
    raw = learn_rules(pages[:3], site)
    json.dumps(raw)  # JSON-serialisable
    store_rules(site, raw)
    path = site.save(tmp_path / "example.com.json")
    loaded = SitePatterns.load(path)
    assert loaded.extras["rules"] == raw
    assert rules_of(loaded).to_dict() == raw
    assert apply_rules(site_page(5), loaded) == apply_rules(site_page(5), raw)


def test_bare_list_of_selectors_is_read_as_body_rules():
    rs = rules_from_extras(["div.body > p", "#story p"])
    assert rs.title == [] and [r.selector for r in rs.body] == ["div.body > p", "#story p"]


@pytest.mark.parametrize(
    "raw, message",
    [
        ("div p", "expected an object"),
        ({"body": "div p"}, '"body" must be a list'),
        ({"body": [42]}, "body rule #0 must be an object or a selector string"),
        ({"body": [{"template": "E"}]}, 'body rule #0: "selector" must be a non-empty string'),
        ({"title": [{"selector": "h1 >"}]}, "title rule #0: invalid CSS selector"),
        ({"body": ["p", "p::text"]}, "body rule #1: selector 'p::text' uses a pseudo-element"),
        ({"body": [{"selector": "p", "support": -1}]}, '"support" must be a non-negative integer'),
        ({"body": [{"selector": "p", "precision": 2}]}, '"precision" must be a number between 0 and 1'),
        ({"format": "other", "body": []}, 'unknown "format"'),
        ({"version": 99, "body": []}, "version 99 is newer"),
        ({"pages": "3", "body": []}, '"pages" must be a non-negative integer'),
    ],
)
def test_corrupt_rules_give_a_clear_error(raw, message):
    with pytest.raises(RulesError, match=None) as info:
        rules_from_extras(raw)
    assert message in str(info.value)
    assert isinstance(info.value, PatternFileError)


def test_corrupt_rules_in_a_pattern_file_name_the_site(tmp_path):
    site = SitePatterns("example.com", [], extras={"rules": {"body": [{"selector": "p::attr(href)"}]}})
    path = site.save(tmp_path / "p.json")
    loaded = SitePatterns.load(path)  # the pattern file itself is fine
    with pytest.raises(RulesError, match=r"site example.com: rules: body rule #0: .*pseudo-element"):
        apply_rules("<html><body><p>x</p></body></html>", loaded)
    with pytest.raises(RulesError, match="no rules"):
        rules_of(SitePatterns("example.com", []))


def test_check_selector():
    assert check_selector("div#a.b > p") == "div#a.b > p"
    for bad in ("", "   ", "p::text", "a[href", 5):
        with pytest.raises(RulesError):
            check_selector(bad)


# -- the same elements for parsel, lxml.cssselect, and our XPath -----------------------------------

SELECTOR_PAGE = """<html><body class="page">
<div id="main" class="wrap  Outer"><p class="x y">1</p><p class="xy">2</p>
  <div class="inner"><p>3</p><span><p class="y">4</p></span></div></div>
<div id="Main"><p>5</p></div>
<table width="426"><tr><td width="426">6</td><td class="x">7</td></tr></table>
<ul id="list"><li>8<ul><li>9</li></ul></li></ul>
<div id="main"><p>10 duplicate id</p></div>
</body></html>"""

SELECTORS = [
    "p", "td", "li", "#main > p", "#main p", "#main * p", ".x", "p.x", "p.x.y", ".y", ".wrap > p",
    ".inner p", ".Outer p", "div#main.wrap > div.inner > p", "#list li", "#list > li", "ul li > ul > li",
    'td[width="426"]', "[width]", "div > span > p", "body.page > table td", "#Main p", "*", "div p, td.x",
    "p:first-child", "li:nth-child(1)", "div ~ table td",
]


@pytest.mark.parametrize("selector", SELECTORS)
def test_selectors_match_the_same_in_parsel_lxml_and_rules(selector):
    sel = Selector(text=SELECTOR_PAGE)
    by_parsel = [s.root for s in sel.css(selector)]
    root = sel.root
    by_lxml = CSSSelector(selector, translator="html")(root)
    fast = etree.XPath(selectors_xpath([selector]))(root)
    path = root.getroottree().getpath
    assert [path(e) for e in by_lxml] == [path(e) for e in by_parsel]
    assert [path(e) for e in fast] == [path(e) for e in by_parsel]


def test_union_of_selectors_is_in_document_order_without_duplicates():
    root = parse_page(SELECTOR_PAGE)
    got = etree.XPath(selectors_xpath(["#main p", "p.x", "td", ".y"]))(root)
    expected = CSSSelector("#main p, p.x, td, .y", translator="html")(root)
    assert got == expected and len(set(got)) == len(got)


def test_learned_selectors_match_the_same_in_parsel_and_lxml():
    pages = [Page(h, url=f"http://example.com/news/{i}.html") for i, h in enumerate(site_pages(4))]
    rules = rules_of(learn_rules(pages[:3], learn(pages)))
    html = site_page(7)
    sel = Selector(text=html)
    path = sel.root.getroottree().getpath
    for r in rules.title + rules.body:
        a = [path(s.root) for s in sel.css(r.selector)]
        b = [path(e) for e in CSSSelector(r.selector, translator="html")(sel.root)]
        assert a == b and a, r.selector


# -- command line -----------------------------------------------------------------------------------


def run_cli(argv, capsys):
    """``newsstemmer`` with the ``rules`` subcommand."""
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def write_site(tmp_path, n=4):
    folder = tmp_path / "site"
    folder.mkdir()
    for i, h in enumerate(site_pages(n)):
        (folder / f"a{i}.html").write_text(h, encoding="utf-8")
    return folder


def test_cli_learns_stores_and_prints_rules(tmp_path, capsys):
    folder = write_site(tmp_path)
    target = tmp_path / "patterns" / "example.json"
    code, out, err = run_cli(["rules", str(target), "--learn", str(folder), "--site", "example.com"], capsys)
    assert code == 0, err
    assert "TITLE = [\"h1.headline\"" in out and "BODY = \"" in out and "#story > p" in out
    stored = SitePatterns.load(target)
    assert stored.site == "example.com" and "rules" in stored.extras
    # Printing again needs no pages; the BODY line is a valid selector group.
    code, out2, _ = run_cli(["rules", str(target)], capsys)
    assert code == 0 and out2 == out
    body_line = next(line for line in out.splitlines() if line.startswith("BODY = "))
    group = json.loads(body_line[len("BODY = "):])
    assert Selector(text=site_page(5)).css(group)
    code, out, _ = run_cli(["rules", str(target), "--json"], capsys)
    data = json.loads(out)
    assert data["site"] == "example.com" and data["title"][0] == "h1.headline"
    assert data["rules"] == stored.extras["rules"]
    assert format_rules(stored, rules_of(stored)).startswith("# example.com:")


def section_page(i: int) -> str:
    """An index page of the same site: the same header and footer, a list of teaser cards
    (a headline link, a summary, a "read more" link) in ``div.card-list``."""
    rng = random.Random(100 + i)
    cards = "".join(f'<div class="card"><h2><a href="/story/{i}-{k}">{sentence(rng, 9)}</a></h2>'
                    f'<p>{sentence(rng, 18)}</p><a class="more" href="/story/{i}-{k}">Read more</a></div>'
                    for k in range(12))
    return f"""<!DOCTYPE html>
<html><head><title>World news - Daily Example</title></head>
<body class="section-page">
<div id="header"><ul class="nav"><li><a href="/">Home page</a></li><li><a href="/world">World news</a></li></ul></div>
<div id="main"><h1 class="section-title">World news, page {i + 1}</h1><div class="card-list">{cards}</div></div>
<div id="footer"><p>Copyright 2024 Daily Example Media Group. All rights reserved.</p></div>
</body></html>"""


def test_cli_learns_rules_from_the_article_pages_of_a_site_folder(tmp_path, capsys):
    # A site's folder holds its index pages too: their teaser cards must not become body
    # rules.  The pages typed non-article are left out (and said so); --all-pages keeps them.
    folder = write_site(tmp_path, 4)
    for i in range(3):
        (folder / f"index{i}.html").write_text(section_page(i), encoding="utf-8")
    target = tmp_path / "example.json"
    code, out, err = run_cli(["rules", str(target), "--learn", str(folder), "--site", "example.com"], capsys)
    assert code == 0, err
    assert "left out 3 pages not typed as articles (3 listing)" in err
    rules = rules_of(SitePatterns.load(target))
    assert rules.pages == 4 and "card" not in out and "#story > p" in out
    every = tmp_path / "every.json"
    code, out, err = run_cli(["rules", str(every), "--learn", str(folder), "--all-pages"], capsys)
    assert code == 0 and "left out" not in err
    assert rules_of(SitePatterns.load(every)).pages == 7 and "div.card-list" in out  # (what the issue saw)


def test_cli_uses_the_file_layout_patterns(tmp_path, capsys):
    folder = write_site(tmp_path)
    target = tmp_path / "example.json"
    assert cli.main(["learn", "-q", "-o", str(target), str(folder)]) == 0
    # The unique-block test alone uses the layouts' roles; by default the region
    # extractor's blocks may win (tests/test_rules_evidence.py).
    code, out, err = run_cli(["rules", str(target), "--learn", str(folder), "--evidence", "none"], capsys)
    assert code == 0, err
    assert rules_of(SitePatterns.load(target)).used_patterns
    assert SitePatterns.load(target).patterns  # the layout patterns are kept


def test_cli_errors(tmp_path, capsys):
    folder = write_site(tmp_path)
    target = tmp_path / "example.json"
    assert cli.main(["learn", "-q", "-o", str(target), str(folder)]) == 0
    capsys.readouterr()
    code, _, err = run_cli(["rules", str(target)], capsys)
    assert code == 2 and "no rules in this pattern file" in err and "--learn" in err
    site = SitePatterns.load(target)
    site.extras["rules"] = {"body": [{"selector": "p::text"}]}
    site.save(target)
    code, _, err = run_cli(["rules", str(target)], capsys)
    assert code == 2 and "pseudo-element" in err and str(target) in err
    code, _, err = run_cli(["rules", str(tmp_path / "missing.json")], capsys)
    assert code == 2 and "cannot read" in err
    code, _, err = run_cli(["rules", str(target), "--no-patterns"], capsys)
    assert code == 2 and "--learn" in err
    code, _, err = run_cli(["rules", str(target), "--all-pages"], capsys)
    assert code == 2 and "--learn" in err
    one = tmp_path / "one"
    one.mkdir()
    (one / "a.html").write_text(site_page(0), encoding="utf-8")
    code, _, err = run_cli(["rules", str(tmp_path / "new.json"), "--learn", str(one)], capsys)
    assert code == 2 and "at least 2" in err


def test_extract_with_rules_gives_an_article():
    site = store_rules(SitePatterns("example.com", []), learn_rules(site_pages(3)))
    assert load_site_rules(site).body
    art = extract_with_rules(Page(site_page(4), url="http://example.com/4", source="4.html"), site)
    assert art.matched and art.method == "rules" and art.title == TITLES[4]
    assert "Copyright" not in art.body and art.source == "4.html"
    assert art.to_json_dict()["method"] == "rules"
    # No rule matches: the page's own title, matched False.
    other = extract_with_rules(Page("<html><head><title>Elsewhere</title></head><body><div>x</div></body></html>"), site)
    assert not other.matched and other.title == "Elsewhere" and other.body == ""
    with pytest.raises(CLIError, match="no rules"):
        load_site_rules(SitePatterns("example.com", []), "p.json")


def test_rules_changed_in_place_are_read_again():
    raw = {"body": [{"selector": "p.a"}]}
    html = "<html><body><p class='a'>Alpha text</p><p class='b'>Beta text</p></body></html>"
    assert apply_rules(html, raw) == ("", "Alpha text")
    raw["body"][0]["selector"] = "p.b"
    assert apply_rules(html, raw) == ("", "Beta text")


def test_caseless_attributes_cannot_be_identifiers():
    with pytest.raises(ValueError, match="without case"):
        learn_rules(site_pages(2), options=RuleOptions(attributes=("align",)))
    rules = rules_of(learn_rules(site_pages(3), options=RuleOptions(attributes=("width",))))
    assert rules.body


def test_learning_produces_every_template():
    paperlike = RuleOptions(min_precision=0.0, min_block_precision=0.0, max_link_density=1.0, min_weight=0,
                            greedy=False, class_rules=False)
    rules = rules_of(learn_rules(template_pages(3), options=paperlike))
    got = {(r.selector, r.template) for r in rules.body + rules.title}
    assert {
        ("p#lead", "E#id"), ("div.summary", "E.class"), ("#story > p", "#id > E"), ("#story p", "#id E"),
        (".box > p", ".class > E"), (".box h4", ".class E"), ("td", "E"), (".side > p", ".class > E"),
    } <= got


# -- pages as Page objects, deep pages, the walks -----------------------------------------------------


def test_a_page_object_is_read_from_its_own_tree():
    html = site_page(4)
    rules = learn_rules(site_pages(3))
    # The HTML is never looked at: the page's tree is what is read.
    page = Page("<html><body><p>not this</p></body></html>").with_tree(parse_page(html))
    assert root_of(page) is page.tree
    assert apply_rules(page, rules) == apply_rules(html, rules)
    assert [b.text for b in page_blocks(page)] == texts(html)
    others = [Page(h) for h in site_pages(3)]
    assert extract_unique_blocks(page, others) == extract_unique_blocks(html, site_pages(3))


def test_learning_from_page_objects_uses_the_parse_rules_are_applied_to():
    # libxml2 as parsel runs it stops at an early "</body></html>" (Page.tree reads on):
    # rules are learned on parsel's tree, as Scrapy's response.css will see the page.
    pages = [Page(h.replace("<div id=\"sidebar\">", "</body></html><div id=\"sidebar\">")) for h in site_pages(3)]
    strings = [p.html for p in pages]
    assert learn_rules(pages) == learn_rules(strings)
    assert not any(p.parsed for p in pages)  # the pages given are left as they were


def test_walks_are_safe_on_deeply_nested_pages():
    depth = 1500  # deeper than Python's recursion limit, within libxml2's
    html = "<html><body>" + "<div>" * depth + "<p>Deep <b>text</b></p>" + "</div>" * depth + "<p>End</p></body></html>"
    blocks = page_blocks(html)
    assert [b.text for b in blocks] == ["Deep text", "End"]
    root = parse_page(html)
    outer = root.find("body/div")
    assert has_content(outer) and text_lines(outer) == "Deep text"
    assert apply_rules(html, rules_of(["body > div", "p"])) == ("", "Deep text\nEnd")


def test_has_content_ignores_unrendered_text_but_not_images():
    root = parse_page(
        "<html><body><div id='a'><script>var x = 1;</script></div>"
        "<div id='b'><noscript><img src='/lazy.jpg'></noscript></div>"
        "<div id='c'><!-- a note -->after the note</div><div id='d'><style>p {}</style> </div></body></html>"
    )
    got = {el.get("id"): has_content(el) for el in root.iter("div")}
    assert got == {"a": False, "b": True, "c": True, "d": False}


def test_text_lines_cut_at_blocks_and_breaks_and_skip_a_subtree():
    root = parse_page(
        "<html><body><div id='m'>Lead <b>in</b> <h2>Heading</h2>one<br>two<p>Para <script>no</script>graph</p>"
        "tail</div></body></html>"
    )
    m = root.find(".//div")
    assert text_lines(m) == "Lead in\nHeading\none\ntwo\nPara graph\ntail"
    assert text_lines(m, skip=m.find("h2")) == "Lead in one\ntwo\nPara graph\ntail"
