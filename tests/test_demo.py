"""The bundled demo news site (newsstemmer.demo): shape, determinism, truth, server, learnability."""

from __future__ import annotations

import hashlib
import re
import time
import urllib.error
import urllib.request
from collections import Counter, defaultdict

import pytest
from lxml import html as lxml_html

from newsstemmer import Page, extract_with_patterns, learn
from newsstemmer.dom.decoding import decode_html
from newsstemmer.demo import DemoServer, DemoSite, build_site
from newsstemmer.evaluation import evaluate

HREF = re.compile(rb'<a\s[^>]*?href="([^"]+)"')
BASE = "http://127.0.0.1:8765"  # URLs given to the learner in the offline quality test


@pytest.fixture(scope="module")
def site() -> DemoSite:
    return build_site()


def _texts(page) -> tuple[object, set[str]]:
    """The parsed page and the whitespace-normalised text of each of its elements."""
    root = lxml_html.document_fromstring(decode_html(page.body, page.content_type).text)
    return root, {" ".join(el.text_content().split()) for el in root.iter() if isinstance(el.tag, str)}


def _internal_hrefs(page) -> list[str]:
    out = []
    for raw in HREF.findall(page.body):
        href = raw.decode("ascii").replace("&amp;", "&")
        if href.startswith("/") and not href.startswith("//"):
            out.append(href.split("#")[0].split("?")[0])
    return out


# --- shape ------------------------------------------------------------------------------------


def test_build_is_deterministic_and_fast():
    t = time.perf_counter()
    a = build_site(7)
    elapsed = time.perf_counter() - t
    b = build_site(7)
    assert list(a.pages) == list(b.pages)
    assert all(a.pages[p].body == b.pages[p].body for p in a.pages)
    assert a.truth() == b.truth()
    c = build_site(8)
    assert c.truth() != a.truth()
    assert elapsed < 5, elapsed  # about 0.15 s here; generous for slow CI machines


#: Digest of every page of ``build_site(7)`` and ``build_site(3, 20)`` (bytes, as served on
#: :data:`BASE`, and what the site says about each page).  The crawl and learning tests and
#: the benchmarks are calibrated on these pages: a deliberate change to the demo site
#: updates this digest; a refactoring must leave it alone.
DEMO_DIGEST = "49d1c1cf0fdefb638d2397f1b71ae5eb18a579d430fb9e07ca6bae7aecfe7967"


def test_pages_are_byte_for_byte_the_recorded_ones():
    h = hashlib.sha256()
    for seed, articles in ((7, 120), (3, 20)):
        s = build_site(seed, articles)
        for page in s:
            meta = {k: v for k, v in vars(page).items() if k != "body"}
            h.update(f"{page.path}\0{meta!r}\0".encode() + s.render(page.path, BASE) + b"\0")
    assert h.hexdigest() == DEMO_DIGEST


def test_site_shape(site):
    arts = site.articles()
    assert len(arts) >= 100
    layouts = Counter(p.layout for p in arts)
    assert set(layouts) == {"standard", "opinion", "gallery", "japanese"}, layouts
    assert all(n >= 10 for n in layouts.values()), layouts
    sections = Counter(p.section for p in arts)
    assert {"world", "business", "tech", "sport", "opinion", "photos", "ja"} <= set(sections)
    kinds = Counter(p.kind for p in site)
    assert kinds["index"] >= 10 and kinds["robots"] == 1 and kinds["sitemap"] == 1
    assert {"/", "/world/", "/world/page/2/", "/ja/", "/robots.txt", "/sitemap.xml"} <= set(site.pages)
    assert site.total_bytes < 10_000_000
    assert len(build_site(articles=30).articles()) == 30


def test_article_paths_and_ids(site):
    for p in site.articles():
        assert p.article_id is not None and str(p.article_id) in p.path
        if p.lang == "en":
            assert re.fullmatch(rf"/{p.section}/\d{{4}}/\d\d/\d\d/[a-z0-9-]+-{p.article_id}\.html", p.path), p.path
        else:
            assert re.fullmatch(r"/ja/\d{4}/\d\d/\d\d/k\d{8}\.html", p.path), p.path
        if p.layout == "standard":  # WordPress-style per-article ids in id and class
            assert f'<article id="post-{p.article_id}" class="post post-{p.article_id} '.encode() in p.body


def test_body_lengths_vary(site):
    words = [len(p.text.split()) for p in site.articles() if p.layout == "standard"]
    paragraphs = [p.text.count("\n") + 1 for p in site.articles() if p.layout == "standard"]
    assert min(words) < 100 and max(words) > 500 and 150 < sum(words) / len(words) < 450
    assert min(paragraphs) <= 3 and max(paragraphs) >= 14


def test_truth_is_the_page_text(site):
    for p in site.articles():
        title, body = site.truth()[p.path]
        assert title and body and "\n\n" not in body and body == body.strip()
        root, texts = _texts(p)
        assert [" ".join(h.text_content().split()) for h in root.iter("h1")] == [title], p.path
        for line in body.split("\n"):
            assert line in texts, (p.path, line)
        # Boilerplate is not in the truth.
        for junk in ("Advertisement", "Most read", "Photograph:", "Share this article", "comments", "広告"):
            assert junk not in body, (p.path, junk)


def test_japanese_section_declares_and_uses_shift_jis(site):
    ja = [p for p in site if p.section == "ja"]
    assert len([p for p in ja if p.kind == "article"]) >= 10
    for p in ja:
        head = p.body[:1024]
        assert b'<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">' in head
        with pytest.raises(UnicodeDecodeError):
            p.body.decode("utf-8")
        text = p.body.decode("shift_jis")  # strict: every byte is valid Shift_JIS
        assert p.body.decode("cp932") == text
        # As a crawler sees it: header charset on index pages, only <meta> on articles.
        assert ("charset" in p.content_type) == (p.kind == "index")
        decoded = decode_html(p.body, p.content_type)
        assert decoded.encoding == "cp932" and decoded.text == text
        if p.kind == "article":
            assert p.title in text and p.text.split("\n")[0] in text
            assert re.search("[\u3040-\u30ff]", p.text)


def test_english_pages_declare_utf8(site):
    for p in site:
        if p.kind in ("index", "article", "static") and p.lang == "en":
            assert b'<meta charset="utf-8">' in p.body[:200]
            p.body.decode("utf-8")
    headers = Counter("charset" in p.content_type for p in site if p.lang == "en" and p.kind == "article")
    assert headers[True] and headers[False]  # some name it in the header, some only in <meta>


# --- links and boxes --------------------------------------------------------------------------


def test_every_page_is_reachable_from_home(site):
    seen, queue = {"/"}, ["/"]
    while queue:
        page = site.get(queue.pop())
        for href in _internal_hrefs(page) if page else ():
            if href not in seen:
                seen.add(href)
                queue.append(href)
    missing = [p.path for p in site.articles() if p.path not in seen]
    assert not missing, missing[:5]
    unlinked = [p.path for p in site if p.kind in ("index", "static") and p.path not in seen]
    assert not unlinked, unlinked[:5]
    broken = sorted(h for h in seen if h not in site)
    assert not broken, broken[:5]  # no dead internal links


def test_anchor_texts_vary(site):
    anchors = site.anchor_texts()
    full = short = read_more = 0
    for p in site.articles():
        texts = anchors.get(p.path, [])
        assert p.title in texts, p.path  # every article is linked with its headline somewhere
        full += texts.count(p.title)
        short += sum(1 for t in texts if t not in (p.title, "Read more"))
        read_more += texts.count("Read more")
    assert full > short > read_more > 0


def _box(page, pattern: str) -> tuple:
    m = re.search(pattern.encode(), page.body, re.S)
    assert m, (page.path, pattern)
    return tuple(HREF.findall(m.group(0))) or (m.group(0),)


def test_boxes_change_from_page_to_page(site):
    arts = [p for p in site.articles() if p.lang == "en"]
    most_read = {_box(p, r'<ol class="most-read-list">.*?</ol>') for p in arts}
    ads = {_box(p, r'<p class="ad-copy">.*?</p>') for p in arts}
    related = {_box(p, r'<section class="related-stories.*?</section>') for p in arts if p.layout == "standard"}
    assert len(most_read) > 0.8 * len(arts)
    assert len(ads) >= 10
    assert len(related) > 0.8 * len([p for p in arts if p.layout == "standard"])
    with_comments = [p for p in arts if b'id="comments"' in p.body]
    assert 0.2 * len(arts) < len(with_comments) < 0.8 * len(arts)


# --- server -----------------------------------------------------------------------------------


def _get(url: str):
    with urllib.request.urlopen(url, timeout=10) as r:
        return r.status, r.headers.get("Content-Type"), r.read()


def test_server_serves_pages_over_http(site):
    ja = next(p for p in site.articles() if p.section == "ja")
    std = next(p for p in site.articles() if p.layout == "standard")
    with DemoServer(site) as server:
        base = server.base_url
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+", base)
        for page in (site["/"], std, ja, site["/world/page/2/"]):
            status, ctype, body = _get(base + page.path)
            assert (status, ctype, body) == (200, page.content_type, page.body)
        status, ctype, body = _get(base + "/robots.txt")
        assert status == 200 and f"Sitemap: {base}/sitemap.xml".encode() in body
        assert f"<loc>{base}{std.path}</loc>".encode() in _get(base + "/sitemap.xml")[2]
        assert _get(base + "/world")[2] == site["/world/"].body  # redirected to the slash
        for missing in ("/no/such/page.html", "/world/2026/01/01/nothing-1.html", "/media/1/lead.jpg"):
            with pytest.raises(urllib.error.HTTPError) as err:
                _get(base + missing)
            assert err.value.code == 404
        req = urllib.request.Request(base + std.path, method="HEAD")
        with urllib.request.urlopen(req, timeout=10) as r:
            assert r.status == 200 and int(r.headers["Content-Length"]) == len(std.body) and r.read() == b""
    assert not server.running
    with pytest.raises(urllib.error.URLError):
        _get(base + "/")


def test_server_handles_concurrent_clients(site):
    from concurrent.futures import ThreadPoolExecutor

    paths = [p.path for p in site.articles()[:40]]
    server = DemoServer(site, max_threads=4)
    base = server.start()
    assert server.start() == base  # idempotent
    try:
        with ThreadPoolExecutor(12) as pool:
            bodies = list(pool.map(lambda p: _get(base + p)[2], paths))
        assert bodies == [site[p].body for p in paths]
    finally:
        server.stop()
        server.stop()


# --- learning on the demo site ----------------------------------------------------------------


@pytest.fixture(scope="module")
def learned(site):
    """Pages decoded from their bytes (as served), and the patterns learned from all of them."""
    pages = {
        p.path: Page(decode_html(p.body, p.content_type).text, url=BASE + p.path)
        for p in site
        if p.kind in ("index", "article", "static")
    }
    return pages, learn(list(pages.values()))


@pytest.fixture(scope="module")
def scores(site, learned):
    pages, patterns = learned
    pairs: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for p in site.articles():
        art = extract_with_patterns(pages[p.path], patterns)
        title, body = site.truth()[p.path]
        pair = (art.title + "\n" + art.body, title + "\n" + body)
        pairs["all"].append(pair)
        pairs[p.layout].append(pair)
        pairs[f"section:{p.section}"].append(pair)
    return {k: evaluate(v) for k, v in pairs.items()}


def test_learning_extracts_the_demo_articles(scores):
    for key, s in sorted(scores.items()):
        print(f"{key:18s} pages={s.pages:3d} P={s.precision:.3f} R={s.recall:.3f} F1={s.f1:.3f}")
    assert scores["all"].f1 >= 0.95, scores["all"]
    for layout in ("standard", "opinion", "japanese"):
        assert scores[layout].f1 >= 0.95, (layout, scores[layout])


def test_learning_keeps_boxes_out_of_bodies(site, learned):
    pages, patterns = learned
    for p in site.articles():
        art = extract_with_patterns(pages[p.path], patterns)
        assert art.matched and art.is_article, p.path
        assert art.title == p.title, p.path
        for junk in ("Most read", "Advertisement", "Related stories", "Share this article", "The views expressed"):
            assert junk not in art.body, (p.path, junk)


def test_learning_extracts_galleries(scores):
    assert scores["gallery"].f1 >= 0.95, scores["gallery"]
