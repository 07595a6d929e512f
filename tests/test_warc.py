"""WARC input for the command line (``newsstemmer.io.warc`` and ``io.files.find_pages``/``read_page``)."""

from __future__ import annotations

import gzip
import io
import json
import os
import random
from pathlib import Path

import pytest
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from newsstemmer.cli import learn as cli_learn
from newsstemmer.io.warc import scan_warc
from test_cli import records, run  # the CLI test helpers

# -- a small site, as HTML files and as WARC records -----------------------------------------

HOST = "https://daily.example.org"
MENU = ["Front page", "Politics", "Economy and business", "Culture and arts", "Weather forecast"]
BOXES = [
    "Popular now: the mayor opens a new public swimming pool",
    "Popular now: ferry timetable changes for the winter season",
    "Letters: readers on the future of the central market",
]
LEGAL = "All content copyright 2024 Daily Example Org. Reproduction without permission prohibited."
HEADLINES = [
    "Old lighthouse turned into a small maritime museum",
    "Students build a solar car for the national race",
    "City library extends its opening hours at weekends",
    "Bakery on the main square celebrates a hundred years",
    "Night buses return to the suburbs after long debate",
    "Wetland restored as birds come back to the estuary",
]
VOCAB = (
    "harbour council museum students teachers library weekend station summer winter "
    "engineers residents volunteers market bakery festival river bridge mayor report "
    "announced explained expected confirmed planned opened finished reported welcomed "
    "slowly quickly finally recently carefully proudly"
).split()


def paragraphs(i: int) -> list[str]:
    rng = random.Random(1000 + i)
    return [
        f"Part {k + 1} of report {i}: " + " ".join(rng.choice(VOCAB) for _ in range(rng.randint(25, 60))) + "."
        for k in range(3 + i % 3)
    ]


def story_url(i: int) -> str:
    return f"{HOST}/news/{i}.html"


def story_html(i: int, canonical: bool = True) -> str:
    menu = "".join(f'<li><a href="/m{k}">{t}</a></li>' for k, t in enumerate(MENU))
    boxes = "".join(f'<li><a href="/b{k}">{t}</a></li>' for k, t in enumerate(BOXES))
    body = "".join(f"<p>{p}</p>\n" for p in paragraphs(i))
    link = f'<link rel="canonical" href="{story_url(i)}">' if canonical else ""
    return f"""<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>{HEADLINES[i]} | Daily Example</title>{link}</head>
<body><div class="top"><div class="brand">Daily Example Org</div><ul class="menu">{menu}</ul></div>
<div class="main"><div class="story"><h1>{HEADLINES[i]}</h1>
<div class="when">Published 2024-06-{i + 1:02d} by desk {i}</div>
<div class="text">
{body}</div></div>
<div class="side"><h3>Elsewhere</h3><ul>{boxes}</ul></div></div>
<div class="bottom"><p>{LEGAL}</p></div></body></html>
"""


class Warc:
    """Writes a WARC record by record and remembers each record's offset."""

    def __init__(self, path: Path, gz: bool = True) -> None:
        self.path = path
        self.fh = open(path, "wb")
        self.writer = WARCWriter(self.fh, gzip=gz)
        self.offsets: list[int] = []
        self._write(self.writer.create_warcinfo_record(path.name, {"software": "newsstemmer tests"}))

    def _write(self, record) -> int:
        offset = self.fh.tell()
        self.writer.write_record(record)
        return offset

    def response(
        self,
        url: str,
        body: bytes | str,
        content_type: str | None = "text/html; charset=utf-8",
        status: str = "200 OK",
        headers: list[tuple[str, str]] | None = None,
        with_request: bool = True,
    ) -> int:
        """Write a response (after its request); return the response's offset."""
        if with_request:
            req = StatusAndHeaders(f"GET {url} HTTP/1.1", [("Host", "daily.example.org")], is_http_request=True)
            self._write(self.writer.create_warc_record(url, "request", http_headers=req))
        if isinstance(body, str):
            body = body.encode("utf-8")
        hdrs = list(headers or [])
        if content_type is not None:
            hdrs.insert(0, ("Content-Type", content_type))
        http = StatusAndHeaders(status, hdrs, protocol="HTTP/1.1")
        offset = self._write(
            self.writer.create_warc_record(url, "response", payload=io.BytesIO(body), http_headers=http)
        )
        self.offsets.append(offset)
        return offset

    def record(self, url: str, kind: str, body: bytes = b"", content_type: str = "text/plain") -> int:
        """Write a record without HTTP headers (metadata, resource, ...)."""
        return self._write(
            self.writer.create_warc_record(
                url, kind, payload=io.BytesIO(body), warc_content_type=content_type, length=len(body)
            )
        )

    def close(self) -> Path:
        self.fh.close()
        return self.path


def site_warc(path: Path, gz: bool = True, canonical: bool = True) -> tuple[Path, list[str]]:
    """All stories of the site as one WARC; returns it and the stories' sources, in order."""
    w = Warc(path, gz)
    for i in range(len(HEADLINES)):
        w.response(story_url(i), story_html(i, canonical))
    w.close()
    return path, [f"{path}#{o}" for o in w.offsets]


@pytest.fixture
def html_site(tmp_path: Path) -> Path:
    root = tmp_path / "html"
    root.mkdir()
    for i in range(len(HEADLINES)):
        (root / f"story-{i}.html").write_text(story_html(i), encoding="utf-8")
    return root


# -- learn and extract ---------------------------------------------------------------------------


@pytest.mark.parametrize("gz", [True, False], ids=["warc.gz", "warc"])
def test_warc_gives_the_same_articles_as_html_files(html_site: Path, tmp_path: Path, capsys, gz: bool):
    warc, sources = site_warc(tmp_path / ("crawl.warc.gz" if gz else "crawl.warc"), gz)
    html_patterns, warc_patterns = tmp_path / "html.json", tmp_path / "warc.json"
    code, _, err = run(capsys, "learn", "-o", str(html_patterns), str(html_site))
    assert code == 0, err
    code, _, err = run(capsys, "learn", "-o", str(warc_patterns), str(warc))
    assert code == 0, err
    assert f"{warc}: 6 HTML pages in 13 records (skipped 1 warcinfo, 6 request)" in err
    assert "read 6 pages" in err and "Traceback" not in err

    files = [str(html_site / f"story-{i}.html") for i in range(len(HEADLINES))]
    code, out, err = run(capsys, "extract", "-q", "-p", str(html_patterns), *files)
    assert code == 0, err
    from_html = records(out)
    code, out, err = run(capsys, "extract", "-q", "-p", str(warc_patterns), str(warc))
    assert code == 0, err
    assert err == ""
    from_warc = records(out)

    assert [r["source"] for r in from_warc] == sources
    assert len(from_warc) == len(from_html) == len(HEADLINES)
    for i, (a, b) in enumerate(zip(from_html, from_warc)):
        assert b["matched"] is True and b["method"] == "pattern"
        assert b["url"] == story_url(i)
        assert b["title"] == HEADLINES[i]
        for key in ("url", "title", "body", "matched", "method", "is_article"):
            assert a[key] == b[key], key
        for para in paragraphs(i):
            assert para in b["body"]
        assert LEGAL not in b["body"] and BOXES[0] not in b["body"]


def test_url_is_the_target_uri(tmp_path: Path, capsys):
    w = Warc(tmp_path / "crawl.warc.gz")
    # The record's URL wins over the page's canonical link, and stands in for a missing one.
    w.response(f"{HOST}/fetched/0?id=7", story_html(0))
    w.response(f"{HOST}/fetched/1", story_html(1, canonical=False))
    warc = w.close()
    code, out, err = run(capsys, "extract", str(warc))
    assert code == 0, err
    recs = records(out)
    assert [r["url"] for r in recs] == [f"{HOST}/fetched/0?id=7", f"{HOST}/fetched/1"]
    assert [r["source"] for r in recs] == [f"{warc}#{o}" for o in w.offsets]
    assert all(r["body"] for r in recs)
    # And the pattern file names the site after the URLs' host.
    site_json = tmp_path / "site.json"
    full, _ = site_warc(tmp_path / "full.warc.gz", canonical=False)
    code, _, err = run(capsys, "learn", "-q", "-o", str(site_json), str(full))
    assert code == 0, err
    assert json.loads(site_json.read_text(encoding="utf-8"))["site"] == "daily.example.org"


@pytest.mark.parametrize(
    "charset, title, text",
    [
        ("Shift_JIS", "東京で新しい駅が開業しました", "駅の開業を祝って多くの人が集まりました。" * 5),
        ("windows-1251", "Новый мост открыт для движения", "Жители города пришли на открытие моста. " * 5),
        ("windows-1252", "Café owners “welcome” the new façade", "Déjà vu for the naïve señor, said the café. " * 5),
    ],
)
def test_charset_from_the_http_header(tmp_path: Path, capsys, charset: str, title: str, text: str):
    # No <meta charset>: only the HTTP header tells the encoding.
    page = f"<html><head><title>{title}</title></head><body><h1>{title}</h1><p>{text}</p></body></html>"
    w = Warc(tmp_path / "crawl.warc")
    w.response(f"{HOST}/jp", page.encode(charset), content_type=f"text/html; charset={charset}")
    warc = w.close()
    code, out, err = run(capsys, "extract", str(warc))
    assert code == 0, err
    (rec,) = records(out)
    assert rec["title"] == title
    assert text.split()[0] in rec["body"]
    assert "\ufffd" not in out


def test_other_records_are_skipped(tmp_path: Path, capsys):
    w = Warc(tmp_path / "mixed.warc.gz")
    keep = [w.response(story_url(0), story_html(0))]
    w.response(f"{HOST}/gone", story_html(1), status="404 Not Found")
    w.response(f"{HOST}/moved", b"", status="301 Moved Permanently", headers=[("Location", story_url(2))])
    w.response(f"{HOST}/logo.png", b"\x89PNG\r\n\x1a\n" + bytes(200), content_type="image/png")
    w.response(f"{HOST}/api.json", b'{"a": 1}', content_type="application/json")
    w.response(f"{HOST}/untyped.bin", bytes(range(256)), content_type=None)
    keep.append(w.response(f"{HOST}/untyped.html", story_html(3), content_type=None))  # sniffed as HTML
    keep.append(w.response(f"{HOST}/x.xhtml", story_html(4), content_type="application/xhtml+xml"))
    w.record(f"{HOST}/meta", "metadata", b"outlinks: none\n", "application/warc-fields")
    w.record(f"{HOST}/res", "resource", story_html(5).encode(), "text/html")
    w._write(
        w.writer.create_revisit_record(
            story_url(0), digest="sha1:AAAA", refers_to_uri=story_url(0), refers_to_date="2024-01-01T00:00:00Z"
        )
    )
    warc = w.close()

    scan = scan_warc(str(warc))
    assert scan.error is None
    assert [p.offset for p in scan.pages] == keep
    assert scan.skipped == {
        "warcinfo": 1, "request": 8, "status 404": 1, "status 301": 1, "not HTML": 3,
        "metadata": 1, "resource": 1, "revisit": 1,
    }
    code, out, err = run(capsys, "extract", str(warc))
    assert code == 0, err
    recs = records(out)
    assert [r["source"] for r in recs] == [f"{warc}#{o}" for o in keep]
    assert [r["url"] for r in recs] == [story_url(0), f"{HOST}/untyped.html", f"{HOST}/x.xhtml"]
    assert f"{warc}: 3 HTML pages in 20 records (skipped 1 warcinfo, 8 request, 1 status 404" in err
    assert "error" not in out


def test_content_encoding_is_undone(tmp_path: Path, capsys):
    w = Warc(tmp_path / "crawl.warc.gz")
    w.response(story_url(0), gzip.compress(story_html(0).encode()), headers=[("Content-Encoding", "gzip")])
    warc = w.close()
    code, out, err = run(capsys, "extract", str(warc))
    assert code == 0, err
    (rec,) = records(out)
    assert paragraphs(0)[0] in rec["body"]


def test_undecodable_payload_is_a_page_error(html_site: Path, tmp_path: Path, capsys):
    w = Warc(tmp_path / "crawl.warc.gz")
    bad = w.response(f"{HOST}/img", b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4, content_type="text/html")
    good = w.response(story_url(1), story_html(1))
    warc = w.close()
    code, out, err = run(capsys, "extract", str(warc))
    assert code == 1
    first, second = records(out)
    assert first["source"] == f"{warc}#{bad}" and first["url"] == f"{HOST}/img"
    assert "not a text page" in first["error"] and "PNG" in first["error"]
    assert f"newsstemmer: {warc}#{bad}: error: not a text page" in err
    assert second["source"] == f"{warc}#{good}" and second["body"] and "error" not in second
    assert "Traceback" not in err


# -- damaged WARC files ---------------------------------------------------------------------------


def _damaged(tmp_path: Path) -> dict[str, tuple[Path, int, str]]:
    """name -> (file, pages still readable, words of its error)."""
    good_gz, _ = site_warc(tmp_path / "good.warc.gz")
    good, _ = site_warc(tmp_path / "good.warc", gz=False)
    gz_bytes, plain_bytes = good_gz.read_bytes(), good.read_bytes()
    out = {}

    def make(name: str, data: bytes, pages: int, words: str) -> None:
        path = tmp_path / "bad" / name
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(data)
        out[name] = (path, pages, words)

    offsets = [p.offset for p in scan_warc(str(good_gz)).pages]
    # cut inside the 4th story's gzip member
    make("cut.warc.gz", gz_bytes[: offsets[3] + 100], 3, "truncated or corrupt WARC")
    # garbage in place of the 3rd story's member; seed 20 once read as a plain record
    for seed in (1, 20):
        garbage = b"\x1f\x8b" + random.Random(seed).randbytes(300)
        make(f"garbled-{seed}.warc.gz", gz_bytes[: offsets[2]] + garbage, 2, "corrupt")
    poffsets = [p.offset for p in scan_warc(str(good)).pages]
    # cut inside the last story's payload
    make("cut.warc", plain_bytes[: poffsets[5] + 1500], 5, "truncated WARC")
    make("page.warc", story_html(0).encode(), 0, "not a WARC file")
    make("whole.warc.gz", gzip.compress(plain_bytes), 0, "warcio recompress")
    return out


def test_damaged_warc_gives_an_error_line(html_site: Path, tmp_path: Path, capsys):
    damaged = _damaged(tmp_path)
    html = str(html_site / "story-0.html")
    for name, (path, pages, words) in damaged.items():
        code, out, err = run(capsys, "extract", str(path), html)
        assert code == 1, name
        recs = records(out)
        assert len(recs) == pages + 2, name
        for rec in recs[:pages]:
            assert rec["source"].startswith(f"{path}#") and rec["body"] and "error" not in rec, name
        error, last = recs[pages], recs[pages + 1]
        assert error["source"] == str(path) and words in error["error"], (name, error)
        assert error["body"] == "" and error["url"] is None
        assert last["source"] == html and last["body"], name  # the run goes on
        lines = [line for line in err.splitlines() if ": error: " in line]
        assert lines == [f"newsstemmer: {path}: error: {error['error']}"], name
        assert "Traceback" not in err and "WARNING" not in err and "non-chunked" not in err, name


def test_damaged_warc_is_skipped_by_learn(tmp_path: Path, capsys):
    damaged = _damaged(tmp_path)
    out = tmp_path / "site.json"
    cut, pages, words = damaged["cut.warc.gz"]
    code, _, err = run(capsys, "learn", "-o", str(out), str(cut), str(damaged["cut.warc"][0]))
    assert code == 0, err
    assert f"newsstemmer: {cut}: skipped: {words}" in err
    assert "read 8 pages" in err and "skipped 2 pages (2 unreadable)" in err
    # Nothing readable at all: the usual usage error.
    code, _, err = run(capsys, "learn", "-o", str(out), str(damaged["page.warc"][0]))
    assert code == 2
    assert "no readable pages among the 1 given" in err and "Traceback" not in err
    empty = tmp_path / "empty.warc"
    empty.write_bytes(b"")
    code, _, err = run(capsys, "extract", str(empty))
    assert code == 2 and "error: no pages found" in err


def test_missing_warc(tmp_path: Path, capsys):
    missing = str(tmp_path / "nope.warc.gz")
    code, out, err = run(capsys, "extract", missing)  # nothing to read at all: one line
    assert code == 2 and out == ""
    assert err.strip() == f"newsstemmer: error: {missing}: no such file or folder."
    code, out, err = run(capsys, "extract", missing, str(tmp_path))  # among others: its own record
    (rec,) = records(out)
    assert code == 1 and rec["source"] == missing and "No such file" in rec["error"]


# -- directories and linkinfo -------------------------------------------------------------------


def test_directory_with_a_warc_is_expanded(html_site: Path, tmp_path: Path, capsys):
    (html_site / "crawls").mkdir()
    warc, sources = site_warc(html_site / "crawls" / "crawl.WARC.GZ")
    (html_site / "crawls" / "crawl.cdx").write_text("not read", encoding="utf-8")
    code, out, err = run(capsys, "extract", "-q", str(html_site))
    assert code == 0, err
    got = [r["source"] for r in records(out)]
    assert got == sources + [os.path.join(str(html_site), f"story-{i}.html") for i in range(len(HEADLINES))]
    # The same file named again is read once.
    code, out, err = run(capsys, "extract", "-q", str(html_site), str(warc))
    assert code == 0 and len(records(out)) == 2 * len(HEADLINES)


def test_linkinfo_attaches_to_warc_pages(tmp_path: Path, capsys, monkeypatch):
    warc, sources = site_warc(tmp_path / "crawl.warc.gz", canonical=False)
    links = tmp_path / "links.jsonl"
    lines = [
        {"url": story_url(0), "anchors": [HEADLINES[0]]},
        {"source": sources[1], "anchors": [HEADLINES[1]]},
        {"source": os.path.basename(sources[2]), "anchors": [HEADLINES[2]]},  # relative to links.jsonl
    ]
    links.write_text("\n".join(json.dumps(x) for x in lines) + "\n", encoding="utf-8")
    seen: dict[str, list[str]] = {}
    real_learn = cli_learn.learn

    def spy(pages, *a, **kw):
        seen.update({p.source: p.anchor_texts for p in pages})
        return real_learn(pages, *a, **kw)

    monkeypatch.setattr(cli_learn, "learn", spy)
    code, _, err = run(capsys, "learn", "-o", str(tmp_path / "p.json"), "--linkinfo", str(links), str(warc))
    assert code == 0, err
    assert [seen[s] for s in sources] == [[HEADLINES[0]], [HEADLINES[1]], [HEADLINES[2]], [], [], []]
    assert "3 with anchor texts" in err


def test_other_commands_read_warc_pages(tmp_path: Path, capsys):
    warc, sources = site_warc(tmp_path / "crawl.warc.gz", canonical=False)
    patterns = tmp_path / "site.json"
    code, out, err = run(capsys, "rules", "-q", "--learn", str(warc), "--json", str(patterns))
    assert code == 0, err
    assert json.loads(out)["site"] == "daily.example.org"  # from the records' URLs
    code, out, err = run(capsys, "templates", "-q", "--json", str(warc))
    assert code == 0, err
    result = json.loads(out)
    assert sorted(s for group in result["groups"] for s in group) + result["ungrouped"] == sorted(sources)


def test_warc_pages_get_the_anchor_texts_of_links_to_them(tmp_path: Path, capsys, monkeypatch):
    w = Warc(tmp_path / "crawl.warc.gz")
    teasers = "".join(
        f'<li><a href="/news/{i}.html#top">  Teaser:\n {HEADLINES[i]}</a></li>' for i in range(3)
    )
    front = (
        f'<?xml version="1.0" encoding="utf-8"?><html><head><title>Front</title></head><body><ul>{teasers}</ul>'
        f'<a href="https://elsewhere.example.com/news/3.html">{HEADLINES[3]}</a>'  # another site
        f'<a href="/">Home</a></body></html>'  # the page itself
    )
    w.response(f"{HOST}/", front)
    for i in range(len(HEADLINES)):
        w.response(story_url(i), story_html(i).replace("</body>", f'<a href="/news/{i}.html">Permalink</a></body>'))
    warc = w.close()
    seen: dict[str, tuple[str | None, list[str]]] = {}
    real_learn = cli_learn.learn

    def spy(pages, *a, **kw):
        seen.update({p.url: p.anchor_texts for p in pages})
        return real_learn(pages, *a, **kw)

    monkeypatch.setattr(cli_learn, "learn", spy)
    code, _, err = run(capsys, "learn", "-o", str(tmp_path / "p.json"), str(warc))
    assert code == 0, err
    assert [seen[story_url(i)] for i in range(4)] == [[f"Teaser: {HEADLINES[i]}"] for i in range(3)] + [[]]
    assert seen[f"{HOST}/"] == []
    assert "(3 with anchor texts)" in err
