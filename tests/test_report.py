"""The HTML report (``newsstemmer.report``, ``newsstemmer report``) without a browser:
blocks mapped to elements, sanitised samples, the report's content, the command line,
the state folder's data and the run history reader.  ``test_report_browser.py``
opens the reports in Chromium."""

from __future__ import annotations

import base64
import hashlib
import json
import re

import pytest
from lxml import etree, html

from newsstemmer import Page, SitePatterns, learn
from newsstemmer.cli import main
from newsstemmer.dom.decoding import decode_file
from newsstemmer.dom.parse import parse_html
from newsstemmer.layout.blocks import block_elements, page_blocks
from newsstemmer.layout.matching import extracted_roles, match_all
from newsstemmer.report import CSP, build_site_report, marked_sample, render_site_report, sanitise
from newsstemmer.report.charts import line_chart
from newsstemmer.report.crawl import read_history, site_file, write_crawl_reports
from newsstemmer.report.crawl_data import CrawlDataError, SampleStore, write_summary

from report_pages import hostile_page, write_demo_pages  # noqa: E402

TRAP = "http://127.0.0.1:9"


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    """The demo site's pages on disk and their learned pattern file."""
    tmp = tmp_path_factory.mktemp("demo")
    files = write_demo_pages(tmp / "pages")
    patterns = tmp / "demo.json"
    assert main(["learn", "-q", "-o", str(patterns), str(tmp / "pages")]) == 0
    return tmp, files, patterns


def _pages(files):
    return [Page(decode_file(f).text, source=str(f)) for f in files]


# -- blocks and their elements ------------------------------------------------------------


def test_block_elements_gives_the_same_blocks_and_their_elements():
    doc = """<html><head><title>A page title here</title></head><body>
    <div id="nav"><a href="/">Home page</a> <a href="/w">World news</a></div>
    <div class="story"><h1>The big headline</h1><p>First paragraph text.</p><p>Second paragraph text.</p>
    own text of the story div</div>
    <table><tr><td>cell number one</td><td>cell two<br>after the break</td></tr></table>
    loose text outside any block</body></html>"""
    root = parse_html(doc)
    pb, elements = block_elements(root)
    plain = page_blocks(doc)
    assert [(b.path, b.text) for b in pb.blocks] == [(b.path, b.text) for b in plain.blocks]
    assert len(elements) == len(pb.blocks)
    by_text = {b.text.split("\n")[0]: els for b, els in zip(pb.blocks, elements)}
    assert [e.tag for e in by_text["A page title here"]] == ["title"]
    assert [e.get("id") for e in by_text["Home page World news"]] == ["nav"]
    assert [e.tag for e in by_text["The big headline"]] == ["h1"]
    assert [e.tag for e in by_text["First paragraph text."]] == ["p", "p"]  # merged: both paragraphs
    assert [e.get("class") for e in by_text["own text of the story div"]] == ["story"]  # ended by </div>
    assert [e.tag for e in by_text["cell number one"]] == ["td", "td", "td"]
    assert by_text["loose text outside any block"] == [None]


# -- sanitising -------------------------------------------------------------------------------

_URL_ATTRS = {"src", "href", "srcset", "style", "action", "formaction", "background", "poster", "data",
              "ping", "srcdoc", "xlink:href", "content", "http-equiv", "class", "id"}


def test_sanitise_leaves_nothing_active_or_remote():
    out = sanitise(hostile_page(1, TRAP))
    assert "127.0.0.1" not in out
    assert "pwned" not in out and "javascript" not in out.lower()
    tree = html.fragment_fromstring(out)
    tags = {el.tag for el in tree.iter(etree.Element)}
    assert not tags & {"script", "style", "link", "meta", "base", "iframe", "object", "embed", "svg", "math",
                       "img", "video", "audio", "source", "form", "input", "button", "noscript", "template",
                       "picture", "image", "use"}
    attrs = {name for el in tree.iter(etree.Element) for name in el.attrib}
    assert not {a for a in attrs if a.startswith("on")}
    assert not attrs & _URL_ATTRS - {"class"}
    assert {el.get("class") for el in tree.iter() if el.get("class")} <= {"ns-page", "ns-img"}
    # the text stays, images become placeholders with their alt text
    assert "Fact box for story 1" in out and "image: A photograph" in out
    assert "All rights reserved by Hostile Times" in out


def test_sanitise_drops_a_pages_own_role_marks():
    out = sanitise('<div data-role="main" title="t">x</div><p data-ns-role="title" data-ns-tip="tip">y</p>')
    tree = html.fragment_fromstring(out)
    marked = [el for el in tree.iter() if el.get("data-role")]
    assert [(el.tag, el.get("data-role"), el.get("title")) for el in marked] == [("p", "title", "tip")]


# -- the sample of a layout --------------------------------------------------------------------


def test_marked_sample_marks_the_blocks_with_their_roles(demo):
    _, files, patterns = demo
    site = SitePatterns.load(patterns)
    page = _pages([f for f in files if "/business/20" in str(f)][:1])[0]
    pb = page_blocks(page.tree, site.block_options())
    best = max(match_all(pb, site), key=lambda m: m.coverage)
    roles = extracted_roles(pb, best)
    before = etree.tostring(page.tree)
    sample = marked_sample(page, site, best.pattern.id)
    assert etree.tostring(page.tree) == before  # the page's own tree is left alone
    assert sample is not None and sample.coverage == pytest.approx(best.coverage)
    expected = {r: roles.count(r) for r in set(roles) if r}
    assert sample.roles == expected and sample.unknown_blocks == roles.count(None)
    tree = html.fragment_fromstring(sample.markup)
    marks = {el.get("data-role") for el in tree.iter() if el.get("data-role")}
    assert {"title", "main", "static"} <= marks <= {"title", "main", "sub", "static"}
    title = [el.text_content() for el in tree.iter() if el.get("data-role") == "title"]
    assert any(t.strip() in page.html for t in title)
    assert all(el.get("title", "").startswith(el.get("data-role")) for el in tree.iter() if el.get("data-role"))
    assert marked_sample(page, site, "no-such-layout") is None


def test_a_container_with_own_text_is_not_outlined_whole():
    pages = [Page(f"""<html><body><div class="body">Advertisement
        <h1>Headline number {i} of the story {"abc"[i % 3]}</h1><p>{"Body text sentence. " * (5 + i)} {i}</p>
        <p class="foot">Static footer text that never changes at all.</p></div></body></html>""") for i in range(6)]
    site = learn(pages)
    layout = site.patterns[0].id
    sample = marked_sample(pages[0], site, layout)
    tree = html.fragment_fromstring(sample.markup)
    div = tree.find(".//div")
    assert div.get("data-role") is None  # holds marked blocks: its own text is marked instead
    own = [s for s in div.findall("span") if s.get("data-role")]
    assert own and "Advertisement" in own[0].text


# -- the report --------------------------------------------------------------------------------


def test_report_shows_layouts_sections_samples_and_unmatched_pages(demo):
    tmp, files, patterns = demo
    site = SitePatterns.load(patterns)
    odd = Page("<html><head><title>A lone page</title></head><body><p>" + "Lone words here. " * 40
               + "</p></body></html>", source="lone.html")
    report = build_site_report(site, [*_pages(files), odd], patterns_source=str(patterns))
    assert report.readable == len(files) + 1
    assert any(r.source == "lone.html" and r.method == "region" and r.body_chars for r in report.unmatched)
    doc = render_site_report(report)
    tree = html.document_fromstring(doc)
    sections = tree.xpath("//section[@data-layout]")
    assert [s.get("data-layout") for s in sections] == [p.id for p in site.patterns]
    for s, view in zip(sections, report.layouts):
        rows = s.xpath(".//table[@class='ns-sections']/tr[td]")
        assert len(rows) == len(view.pattern.sections)
        assert [r.xpath("td[2]/span")[0].text for r in rows] == [x.role for x in view.pattern.sections]
        assert (view.sample is None) == (not view.pages)
        assert bool(s.xpath(".//div[@class='ns-page']//*[@data-role]")) == bool(view.pages)
    text = tree.text_content()
    assert f"{len(site.patterns)}" in text and "coverage" in text
    assert "lone.html" in tree.xpath("//section[@id='unmatched']")[0].text_content()
    # nothing that fetches or runs, and the policy names the report's one stylesheet
    assert not tree.xpath("//script|//link|//img|//iframe|//object|//embed|//base|//@src|//@srcset")
    assert not [h for h in tree.xpath("//@href") if not h.startswith("#")]
    csp = tree.xpath("//meta[@http-equiv='Content-Security-Policy']/@content")[0]
    assert csp == CSP and csp.startswith("default-src 'none';")
    style = tree.xpath("//style")[0].text
    digest = base64.b64encode(hashlib.sha256(style.encode()).digest()).decode()
    assert f"'sha256-{digest}'" in csp and "unsafe" not in csp


def test_report_of_a_hostile_site_keeps_nothing_of_the_trap():
    pages = [Page(hostile_page(i, TRAP), source=f"h{i}.html") for i in range(8)]
    site = learn(pages)
    assert site.patterns
    doc = render_site_report(build_site_report(site, pages))
    assert "127.0.0.1" not in doc and "pwned" not in doc
    assert html.document_fromstring(doc).xpath("//section[@data-layout]//*[@data-role='title']")


# -- the command line ---------------------------------------------------------------------------


def test_cli_report(demo, capsys):
    tmp, files, patterns = demo
    out = tmp / "report.html"
    assert main(["report", str(patterns), str(tmp / "pages"), "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert "reading pages" in err and f"wrote {out}" in err and "coverage" in err
    tree = html.document_fromstring(out.read_text(encoding="utf-8"))
    assert tree.xpath("//section[@data-layout]")
    assert out.stat().st_size < 5_000_000


def test_cli_report_without_pages_shows_the_layouts_alone(demo, capsys):
    tmp, _, patterns = demo
    out = tmp / "bare.html"
    assert main(["report", "-q", str(patterns), "-o", str(out)]) == 0
    tree = html.document_fromstring(out.read_text(encoding="utf-8"))
    assert len(tree.xpath("//section[@data-layout]")) == len(SitePatterns.load(patterns).patterns)
    assert not tree.xpath("//*[@data-role]")


@pytest.mark.parametrize("content, problem", [
    ("{not json", "invalid JSON"),
    ('{"format": "something else"}', "not a newsstemmer pattern file"),
    ("\x89PNG\x00\x00", "not UTF-8 text"),
    ('{"format": "newsstemmer-patterns", "version": 1, "site": "s", "patterns": [{"id": 1}]}', "must be"),
])
def test_cli_report_corrupt_pattern_file(tmp_path, capsys, content, problem):
    bad = tmp_path / "bad.json"
    bad.write_text(content, encoding="latin-1")
    assert main(["report", str(bad), "-o", str(tmp_path / "r.html")]) == 2
    err = capsys.readouterr().err
    assert str(bad) in err and problem in err
    assert not (tmp_path / "r.html").exists()


def test_cli_report_unreadable_page_is_named_and_listed(demo, tmp_path, capsys):
    _, files, patterns = demo
    binary = tmp_path / "scan.html"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 40)
    out = tmp_path / "r.html"
    assert main(["report", str(patterns), str(files[0]), str(binary), str(tmp_path / "missing.html"), "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert f"{binary}: skipped" in err and "missing.html: skipped" in err
    errors = html.document_fromstring(out.read_text(encoding="utf-8")).xpath("//section[@id='errors']//li")
    assert len(errors) == 2


@pytest.mark.parametrize("argv, problem", [
    (["report"], "give a pattern file"),
    (["report", "--state", "/nonexistent/state"], "no such state folder"),
    (["report", "--state", ".", "x.json"], "takes no PATTERNS.json"),
    (["report", "--patterns-dir", ".", "x.json"], "--patterns-dir goes with --state"),
])
def test_cli_report_usage_errors(argv, problem, capsys):
    assert main(argv) == 2
    assert problem in capsys.readouterr().err


def test_cli_report_output_errors(demo, tmp_path, capsys):
    _, _, patterns = demo
    assert main(["report", str(patterns), "-o", str(tmp_path)]) == 2
    assert "is a directory" in capsys.readouterr().err
    (tmp_path / "file").write_text("x")
    assert main(["report", str(patterns), "-o", str(tmp_path / "file" / "r.html")]) == 1
    assert "cannot write the report" in capsys.readouterr().err


# -- the state folder ------------------------------------------------------------------------------


def test_state_without_report_data_is_a_clear_error(tmp_path, capsys):
    assert main(["report", "--state", str(tmp_path)]) == 2
    assert "NEWSSTEMMER_REPORT" in capsys.readouterr().err
    (tmp_path / "report").mkdir()
    (tmp_path / "report" / "crawl.json").write_text("{broken", encoding="utf-8")
    assert main(["report", "--state", str(tmp_path)]) == 2
    assert "corrupt crawl summary" in capsys.readouterr().err


def test_state_reports_from_kept_pages(demo, tmp_path, capsys):
    _, files, patterns = demo
    site = SitePatterns.load(patterns)
    store = SampleStore(tmp_path / "report" / "pages.sqlite")
    for i, f in enumerate(files[:30]):
        store.add(site.site, f"https://demo.example/{i}.html", decode_file(f).text, "t")
    store.add("other.example", "https://other.example/a", "<html><body><p>Just one page of text here.</p></body></html>", "t")
    store.close()
    pdir = tmp_path / "patterns"
    site.save(pdir / "demo.json")
    (pdir / "broken.json").write_text("{", encoding="utf-8")
    write_summary(tmp_path / "report", {
        "finished": "2026-01-01T00:00:00+00:00", "patterns_dir": str(pdir), "single_page_method": "pagerank",
        "failures": 3, "sites": {site.site: {"pages": 40, "articles": 25, "unmatched": 2, "failures": 3},
                                 "other.example": {"pages": 1}},
    })
    (tmp_path / "health.jsonl").write_text("\n".join([
        json.dumps({"run": "r1", "site": site.site, "coverage": 0.5}),
        "not json",
        json.dumps({"run": "r2", "sites": {site.site: {"coverage": 97.5}, "other.example": {"coverage": "x"}}}),
    ]) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    assert main(["report", "--state", str(tmp_path), "-o", str(out)]) == 0
    names = sorted(p.name for p in out.iterdir())
    assert names == sorted(["index.html", site_file(site.site), "site-other.example.html"])
    overview = html.document_fromstring((out / "index.html").read_text(encoding="utf-8"))
    rows = {tr.get("data-site"): tr for tr in overview.xpath("//tr[@data-site]")}
    assert set(rows) == {site.site, "other.example"}
    cells = [td.text_content().strip() for td in rows[site.site].xpath("td")]
    assert cells[1].startswith("40 (30 kept)") and cells[4:7] == ["25", "2", "3"]
    assert "no layouts learned" in rows["other.example"].text_content()
    chart = overview.xpath("//section[@id='history']//svg")
    assert chart and len(chart[0].xpath(".//*[local-name()='circle']")) == 2
    assert not overview.xpath("//script|//@src")


def test_read_history_tolerates_what_it_cannot_read(tmp_path):
    assert read_history(tmp_path) == {}
    (tmp_path / "health.jsonl").write_bytes(b'\xff\xfe garbage\n[1, 2]\n{"site": "a", "coverage": true}\n'
                                            b'{"site": "a", "coverage": 0.25, "finished": "t1"}\n'
                                            b'{"site": "a", "coverage": 80}\n{"coverage": 0.3}\n')
    assert read_history(tmp_path) == {"a": [("t1", 0.25), ("run 5", 0.8)]}
    # the run history the monitoring crawl writes: one record per site and run, runs numbered
    (tmp_path / "health.jsonl").write_text("".join(
        json.dumps({"run": k, "site": "a", "finished": f"2026-01-{k:02d}", "coverage": None if k == 3 else k / 20}) + "\n"
        for k in range(1, 12)), encoding="utf-8")
    history = read_history(tmp_path)
    assert [run for run, _ in history["a"]] == [f"run {k}" for k in range(1, 12) if k != 3]
    svg = etree.tostring(line_chart(history))
    labels = re.findall(rb">(run \d+)<", svg)
    assert labels and labels[-1] == b"run 11" and labels == sorted(labels, key=lambda b: int(b.split()[1]))


def test_sample_store_rejects_a_foreign_file(tmp_path):
    bad = tmp_path / "pages.sqlite"
    bad.write_bytes(b"this is not a database" * 100)
    with pytest.raises(CrawlDataError, match="not a sample page database"):
        SampleStore(bad, create=False)
    with pytest.raises(CrawlDataError, match="missing"):
        SampleStore(tmp_path / "none.sqlite", create=False)
    with pytest.raises(CrawlDataError):
        write_crawl_reports(tmp_path / "nothing-here")
