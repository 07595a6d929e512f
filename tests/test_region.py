"""The learned region decision (issue #12): DOM PageRank with a learned choice of the
article's element and of what to leave out of it (``newsstemmer.single.region.extractor``).

Pages are built here; nothing is read from the datasets.
"""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import numpy as np
import pytest

from newsstemmer import Page
from newsstemmer.combine.extract import extract
from newsstemmer.single import DEFAULT_SINGLE_PAGE_METHOD, SINGLE_PAGE_METHODS, extract_single
from newsstemmer.cli import main
from newsstemmer.blocks import in_convention
from newsstemmer.single.region.cleaning import CLEAN_FEATURES, cleaning_candidates, cleaning_features, rule_cleaning
from newsstemmer.trees import ModelFileError, TreeModel
from newsstemmer.single.region.candidates import (REGION_FEATURES, RegionView, log1p, region_candidates, region_features,
                                                   top_indices)
from newsstemmer.single.region.extractor import RegionExtractor
from newsstemmer.shipped import model_path
from newsstemmer.dom.parse import HTMLParseError
from newsstemmer.evaluation import shingle_prf
from newsstemmer.single.pagerank import PageRankOptions, pagerank_analysis, region_cleaning, region_paragraphs

_COMMON = "the of and a to in is was for on that with as by at from his her they were had have which this".split()
_TOPIC = "river council budget school plan water road market hospital court police energy transport housing".split()
TITLE = "Council approves the new river bridge after a long budget fight"


def _sentence(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(_COMMON + _TOPIC + _TOPIC) for _ in range(n)).capitalize() + "."


def header_only_page(seed: int) -> tuple[str, str]:
    """Headline and standfirst in a header block; the body, in four sibling sections, in a
    sibling of the header whose only common ancestor also holds a list of 40 links.

    DensitySum's core is the header (the headline and the title-like standfirst weigh
    most) and the widening stops there: the common ancestor is mostly link text.
    """
    rng = random.Random(seed)
    words = TITLE.lower().split()
    stand = [" ".join(rng.choice(words + _COMMON) for _ in range(30)).capitalize() + "." for _ in range(2)]
    sections = [[" ".join(_sentence(rng, rng.randint(10, 16)) for _ in range(2)) for _ in range(3)] for _ in range(4)]
    menu = "".join(f'<li><a href="/s{i}">Section {i}</a></li>' for i in range(12))
    links = "".join(f'<li><a href="/p/{i}">{_sentence(rng, 6)}</a></li>' for i in range(40))
    body = "".join("<section>" + "".join(f"<p>{p}</p>" for p in sec) + "</section>" for sec in sections)
    html = f"""<html><head><title>{TITLE} | The Daily</title>
<meta name="description" content="{stand[0][:150]}"></head><body>
<div id="top"><ul class="menu">{menu}</ul></div>
<div class="container">
 <header class="page-title"><div class="col-9"><h1>{TITLE}</h1>
  {''.join(f'<p class="standfirst">{s}</p>' for s in stand)}
  <p class="byline">By <a href="/a">Jo Park</a>, 6 November 2012</p></div></header>
 <section class="main col-9"><article>{body}</article></section>
 <aside class="col-3"><h3>Most read</h3><ul>{links}</ul></aside>
</div>
<div id="foot">Copyright 2026 The Daily. <a href="/terms">Terms</a></div></body></html>"""
    return html, "\n".join([TITLE, *stand, *(p for sec in sections for p in sec)])


def gallery_page(seed: int) -> tuple[str, str]:
    """An article whose element also holds a video carousel (titles, captions, "n of 6")
    and photo credits: PageRank takes them with the text."""
    rng = random.Random(seed)
    paragraphs = [" ".join(_sentence(rng, rng.randint(12, 24)) for _ in range(3)) for _ in range(8)]
    slides = "".join(
        f'<div class="gallery-slide"><div class="video-title">{_sentence(rng, 8)}</div>'
        f'<p class="caption">{_sentence(rng, 20)}</p><span>{i + 1} of 6</span></div>'
        for i in range(6)
    )
    photos = "".join(
        f'<figure class="photo"><figcaption class="credit">{_sentence(rng, 15)} PHOTO: AGENCY</figcaption></figure>'
        for _ in range(4)
    )
    text = "".join(f"<p>{p}</p>" for p in paragraphs[:4]) + photos + "".join(f"<p>{p}</p>" for p in paragraphs[4:])
    html = f"""<html><head><title>{TITLE}</title></head><body><div class="nav"><a href="/">Home</a></div>
<article><h1>{TITLE}</h1><div class="story"><div class="video-gallery">{slides}</div>{text}</div></article>
<div class="footer">Copyright</div></body></html>"""
    return html, "\n".join(paragraphs)


def captioned_page(seed: int) -> tuple[str, str, list[str]]:
    """An article whose pictures have long captions, in ``<figcaption>`` paragraphs, between its
    paragraphs (the shipped cleaning of session 20 kept them in the body)."""
    rng = random.Random(seed)
    paragraphs = [" ".join(_sentence(rng, rng.randint(12, 20)) for _ in range(3)) for _ in range(6)]
    captions = [f"{_sentence(rng, 30)} {_sentence(rng, 20)}" for _ in range(2)]
    figures = [f'<figure><img src="/p{i}.jpg"><figcaption><p>{c}</p></figcaption></figure>' for i, c in enumerate(captions)]
    text = "".join(f"<p>{p}</p>" + (figures[k // 3] if k % 3 == 1 else "") for k, p in enumerate(paragraphs))
    html = f"""<html><head><title>{TITLE}</title></head><body>
<article><h1>{TITLE}</h1><div class="story">{text}</div></article></body></html>"""
    return html, "\n".join(paragraphs), captions


def plain_page(seed: int) -> tuple[str, str]:
    """An ordinary article page that PageRank gets right."""
    rng = random.Random(seed)
    paragraphs = [" ".join(_sentence(rng, rng.randint(12, 20)) for _ in range(3)) for _ in range(6)]
    menu = "".join(f'<li><a href="/s{i}">Section {i}</a></li>' for i in range(10))
    related = "".join(f'<li><a href="/r{i}">{_sentence(rng, 7)}</a></li>' for i in range(8))
    html = f"""<html><head><title>{TITLE} - Daily</title></head><body>
<ul class="menu">{menu}</ul>
<div id="content"><h1>{TITLE}</h1><div class="story-body">{''.join(f'<p>{p}</p>' for p in paragraphs)}</div>
<div class="related"><h3>Related</h3><ul>{related}</ul></div></div>
<div id="foot">Copyright 2026 The Daily.</div></body></html>"""
    return html, "\n".join(paragraphs)


# -- the shipped models -----------------------------------------------------------------------


def test_shipped_models_load_and_fit_their_features() -> None:
    ex = RegionExtractor()
    assert ex.region is not None and ex.clean is not None
    assert ex.region.features == REGION_FEATURES and ex.clean.features == CLEAN_FEATURES
    assert len(ex.region.roots) > 10 and len(ex.clean.roots) > 10
    assert np.isfinite(ex.region_margin) and np.isfinite(ex.clean_threshold)
    region_file, clean_file = model_path("region"), model_path("region-clean")
    assert region_file.stat().st_size < 400_000 and clean_file.stat().st_size < 400_000
    html, _ = gallery_page(0)
    an = pagerank_analysis(html, text=False)
    view = RegionView.of(an)
    cands = region_candidates(view)
    X = region_features(view, cands)
    assert X.shape == (len(cands), len(ex.region.features)) and np.isfinite(X).all()
    assert np.isfinite(ex.region.raw(X)).all()
    J = cleaning_candidates(view, an.main, region_cleaning(an, an.main))
    Xc = cleaning_features(view, an.main, J)
    assert len(J) and Xc.shape == (len(J), len(ex.clean.features)) and np.isfinite(Xc).all()


def test_feature_logs_are_the_c_librarys_on_every_cpu() -> None:
    # numpy's np.log1p is one bit off math.log1p on some counts where it takes its AVX-512
    # loop (47.0 among them); the region models retrained on such a CPU were then other bytes
    # than the shipped ones (training/README.md, "Reproducible").  The rows use the C library's.
    counts = np.arange(0.0, 3000.0)
    assert log1p(counts).tolist() == [math.log1p(c) for c in counts.tolist()]
    assert log1p(np.array([[47.0, 0.0]])).tolist() == [[math.log1p(47.0), 0.0]] and log1p(np.zeros(0)).shape == (0,)
    an = pagerank_analysis(plain_page(0)[0], text=False)
    view = RegionView.of(an)
    cands = region_candidates(view)
    X = region_features(view, cands)
    chars = view.chars[np.asarray(cands)].tolist()
    assert X[:, REGION_FEATURES.index("log_chars")].tolist() == [math.log1p(c) for c in chars]
    J = cleaning_candidates(view, an.main, region_cleaning(an, an.main))
    Xc = cleaning_features(view, an.main, J)
    assert Xc[:, CLEAN_FEATURES.index("log_chars")].tolist() == [math.log1p(c) for c in view.chars[J].tolist()]


def test_top_elements_break_ties_by_page_order_on_every_cpu() -> None:
    # np.argpartition kept other elements among equal DensitySums where numpy takes its
    # AVX-512 selection (the candidates of 134 dataset pages moved): ties go by index.
    values = np.array([1.0, 3.0, 3.0, 3.0, 2.0, 3.0, -1.0])
    assert top_indices(values, 2).tolist() == [1, 2]
    assert top_indices(values, 5).tolist() == [1, 2, 3, 5, 4]
    assert top_indices(values, 50).tolist() == [1, 2, 3, 5, 4, 0, 6] and len(top_indices(values[:0], 3)) == 0
    rng = np.random.default_rng(0)
    for _ in range(50):  # (many ties: a stable sort by value, descending)
        v = rng.integers(0, 4, 200).astype(float)
        assert top_indices(v, 10).tolist() == sorted(range(200), key=lambda i: (-v[i], i))[:10]


def test_region_is_the_default_single_page_method() -> None:
    assert SINGLE_PAGE_METHODS[0] == DEFAULT_SINGLE_PAGE_METHOD == "region"
    assert "pagerank" in SINGLE_PAGE_METHODS  # still available by name
    html, _ = plain_page(1)
    art = extract(html, url="http://example.com/a")
    assert art.method == "region" and not art.matched and art.title == TITLE and art.body
    pr = extract_single(Page(html), "pagerank")
    assert pr.method == "pagerank" and pr.body


def test_corrupt_model_files_give_clear_errors(tmp_path: Path) -> None:
    region_file, clean_file = model_path("region"), model_path("region-clean")
    garbage = tmp_path / "garbage.json"
    garbage.write_bytes(b"\x00\x01 not json")
    with pytest.raises(ModelFileError, match="garbage.json: not a readable tree model"):
        RegionExtractor(region=garbage)
    with pytest.raises(ModelFileError, match="other features"):
        RegionExtractor(region=clean_file)  # the cleaning model where the region ranker goes
    data = json.loads(region_file.read_text(encoding="utf-8"))
    data["left"] = data["left"][:-3]
    short = tmp_path / "short.json"
    short.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ModelFileError, match="corrupt"):
        RegionExtractor(region=short)
    data = json.loads(region_file.read_text(encoding="utf-8"))
    data["info"]["margin"] = "wide"
    odd = tmp_path / "odd.json"
    odd.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ModelFileError, match="margin"):
        RegionExtractor(region=odd)
    with pytest.raises(ModelFileError, match="other features"):
        RegionExtractor(clean=TreeModel.load(region_file, REGION_FEATURES))
    with pytest.raises(ModelFileError, match="missing.json"):
        RegionExtractor(clean=tmp_path / "missing.json")


def test_tree_walk_without_missing_values_matches_the_general_walk() -> None:
    model = RegionExtractor().region
    rng = np.random.default_rng(0)
    X = rng.random((30, len(REGION_FEATURES))) * rng.choice([1.0, 10.0, 1000.0], len(REGION_FEATURES))
    X[:, 0] = 0.0  # (values on a threshold)
    with_nan = np.vstack([X, np.full((1, X.shape[1]), np.nan)])  # one NaN row: the general walk for all
    assert np.allclose(model.raw(X), model.raw(with_nan)[:-1])



def _short_post_page(tag: str) -> str:
    """A short blog post under a reader thread, its wrapper and content elements ``tag``."""
    rng = random.Random(0)
    post = "".join(f"<p>{_sentence(rng, 14)}</p>" for _ in range(3))
    comments = "".join(f'<li class="comment"><p>{_sentence(rng, 30)}</p></li>' for _ in range(4))
    return f"""<html><head><title>{TITLE}</title></head><body><div id="wrap">
<{tag} class="post"><h2>{TITLE}</h2><div class="meta">Posted on 6 November 2012 by Jo Park</div>
<{tag} class="post-content">{post}</{tag}></{tag}><ol class="comment-list">{comments}</ol></div></body></html>"""


def test_candidate_rows_do_not_read_the_tag_name() -> None:
    # Tag flags tied the ranker to its training sites' templates (a site's posts in
    # <div>, another's in <section>): the same page with other container tags gives the
    # same candidates and the same rows.
    rows = []
    for tag in ("div", "section"):
        view = RegionView.of(pagerank_analysis(_short_post_page(tag), text=False))
        cands = region_candidates(view)
        rows.append((cands, region_features(view, cands)))
    (c1, X1), (c2, X2) = rows
    assert len(c1) > 3 and c1 == c2 and np.array_equal(X1, X2)

# -- what it decides ----------------------------------------------------------------------------


def _pr(text: str, gold: str) -> tuple[float, float]:
    p, r = shingle_prf(text, gold)
    return p or 0.0, r


@pytest.mark.parametrize("seed", range(4))
def test_finds_the_article_where_densitysum_picks_the_header_only(seed: int) -> None:
    html, gold = header_only_page(seed)
    pagerank = pagerank_analysis(html).result
    p0, r0 = _pr(f"{pagerank.title}\n{pagerank.body}", gold)
    assert r0 < 0.5  # (the structure does defeat DensitySum and the widening)
    title, body = RegionExtractor().extract(html)
    p1, r1 = _pr(f"{title}\n{body}", gold)
    # The ranker retrained on today's pages too (issue 23) takes the <article> (the
    # headline comes with the title): the standfirst in the header beside it is left out,
    # the body's every section is found, no less precisely than PageRank's header.
    assert _pr(f"{title}\n{body}", _without_standfirst(gold))[1] > 0.95
    assert r1 > 0.8 and p1 >= p0 - 0.01


def _without_standfirst(gold: str) -> str:
    lines = gold.split("\n")
    return "\n".join([lines[0], *lines[3:]])


@pytest.mark.parametrize("seed", range(4))
def test_leaves_most_of_a_video_carousel_out(seed: int) -> None:
    html, gold = gallery_page(seed)
    p0, r0 = _pr(pagerank_analysis(html).result.body, gold)
    assert p0 < 0.7
    _, body = RegionExtractor().extract(html)
    p1, r1 = _pr(body, gold)
    assert p1 > p0 + 0.08 and r1 >= r0 - 0.02


def test_leaves_slides_out() -> None:
    ex = RegionExtractor()
    kept = [ex.extract(gallery_page(seed)[0])[1].count(" of 6") for seed in range(8)]
    # of 48 slides (their "n of 6" lines; the photo credits may stay): 12 or fewer with the
    # models trained on the sets of before issue 23, 24 with today's pages in training
    assert sum(kept) <= 24


@pytest.mark.parametrize("seed", [3, 4])
def test_leaves_figure_captions_out_of_the_body_as_caption_blocks(seed: int) -> None:
    html, gold, captions = captioned_page(seed)
    article = extract_single(Page(html, url="https://example.org/a"), "region")
    assert not any(c[:40] in article.body for c in captions)
    assert shingle_prf(article.body, gold)[1] > 0.95
    left_out = [b.text for b in article.blocks if b.kind == "caption" and b.in_body is False]
    assert left_out == captions
    kept = "\n".join(b.text for b in in_convention(article.blocks, frozenset({"caption"})))
    assert all(c in kept for c in captions)


@pytest.mark.parametrize("seed", range(3))
def test_keeps_what_pagerank_gets_right(seed: int) -> None:
    html, gold = plain_page(seed)
    pagerank = pagerank_analysis(html).result
    _, body = RegionExtractor().extract(html)
    assert _pr(body, gold)[1] > 0.97 and _pr(body, gold)[0] >= _pr(pagerank.body, gold)[0] - 0.01


def test_with_both_steps_off_it_is_pagerank() -> None:
    # PageRank's cleaning with its galleries left out: the region's rule-based cleaning
    # drops the carousels PageRank only flags (region_cleaning)
    dropped = PageRankOptions(drop_galleries=True)
    for html, _ in (header_only_page(0), gallery_page(0), plain_page(0)):
        an = pagerank_analysis(html)
        result = pagerank_analysis(html, options=dropped).result
        assert region_paragraphs(an, an.main) == result.paragraphs
        assert RegionExtractor(region=False, clean=False).extract(html) == (result.title, result.body)
    an = pagerank_analysis(gallery_page(0)[0])
    assert " of 6" in an.result.body and " of 6" not in "\n".join(region_paragraphs(an, an.main))


def _constant(features: tuple[str, ...], value: float, **info) -> TreeModel:
    """A model giving every row the same score (one leaf)."""
    one = np.zeros(1)
    return TreeModel(features, one, one, np.full(1, np.inf), one, one, np.ones(1), np.full(1, value), 0, info)


def test_the_guard_returns_pagerank_text_when_the_learned_steps_gut_it() -> None:
    html, gold = plain_page(0)
    drop_all = _constant(CLEAN_FEATURES, 10.0, threshold=1.5)
    ex = RegionExtractor(region=False, clean=drop_all)
    ex.guard = 0.0
    # every block of the article left out: the near-empty body gives way to the paragraphs
    assert ex.extract_detail(html)[2] == "paragraphs"
    ex.guard = 0.5  # most of PageRank's text lost: PageRank's text instead
    assert ex.extract(html)[1] == pagerank_analysis(html).result.body
    assert ex.extract_detail(html)[2] == "pagerank"
    assert _pr(ex.extract(html)[1], gold)[1] > 0.97
    keep_all = _constant(CLEAN_FEATURES, -10.0, threshold=1.5)
    ex = RegionExtractor(region=False, clean=keep_all)
    assert ex.extract(html)[1] == pagerank_analysis(html).result.body
    assert RegionExtractor().guard == 0.3  # (the shipped models' setting)


def test_cleaning_scores_are_what_left_out_decides_on() -> None:
    html, _ = plain_page(0)
    an = pagerank_analysis(html, text=False)
    view = RegionView.of(an)
    ex = RegionExtractor()
    skip, J, scores = ex.cleaning_scores(view, an.main)
    assert skip == rule_cleaning(an, an.main) == region_cleaning(an, an.main) and len(J) == len(scores) > 0
    assert ex.left_out(view, an.main) == skip + J[scores > ex.clean_threshold].tolist()
    off = RegionExtractor(clean=False)
    skip_off, J_off, scores_off = off.cleaning_scores(view, an.main)
    assert skip_off == skip and not len(J_off) and not len(scores_off)
    assert off.left_out(view, an.main) == skip


def test_ranked_region_gives_the_choice_with_its_rows_and_scores() -> None:
    html, _ = header_only_page(0)
    an = pagerank_analysis(html)
    view = RegionView.of(an)
    ex = RegionExtractor()
    node, rows, s_chosen, s_main, n = ex.ranked_region(view)
    cands = region_candidates(view)
    X = region_features(view, cands)
    assert node == ex.choose_region(view) and n == len(cands)
    assert np.array_equal(rows, X[[cands.index(node), cands.index(an.main)]])
    assert node != an.main and s_chosen - s_main > ex.region_margin  # (the header-only page: moved)
    node, rows, s_chosen, s_main, n = RegionExtractor(region=False).ranked_region(view)
    assert node == an.main and s_chosen == s_main == 0.0 and np.array_equal(rows[0], rows[1])


# -- odd pages ------------------------------------------------------------------------------------


ODD_PAGES = {
    "empty body": "<html><head><title>T</title></head><body></body></html>",
    "no body": "<html><head><title>Only a head</title></head></html>",
    "text only": "just a few words and nothing else",
    "links only": "<html><body>" + "".join(f'<a href="/{i}">link {i}</a> ' for i in range(50)) + "</body></html>",
    "image only": '<html><body><img src="a.jpg" width="600"></body></html>',
    "deep": "<html><body>" + "<div>" * 3000 + "Deep text here. " * 30 + "</div>" * 3000 + "</body></html>",
    "wide": "<html><body>" + "".join(f"<p>Paragraph {i} has a few words.</p>" for i in range(3000)) + "</body></html>",
    "frameset": '<html><frameset><frame src="a.html"></frameset></html>',
    "hidden article": '<html><body><div hidden><p>' + "Hidden words. " * 50 + "</p></div><p>Shown.</p></body></html>",
    "comments and scripts": "<html><body><!-- c --><script>var a=1;</script><p>Some text. Some more.</p></body></html>",
    "headline only": f"<html><head><title>{TITLE}</title></head><body><h1>{TITLE}</h1></body></html>",
}


@pytest.mark.parametrize("name", sorted(ODD_PAGES))
def test_odd_pages_do_not_crash(name: str) -> None:
    html = ODD_PAGES[name]
    title, body = RegionExtractor().extract(html)
    assert isinstance(title, str) and isinstance(body, str)
    art = extract_single(Page(html), "region")
    assert art.method == "region" and art.body == body
    if name == "hidden article":
        assert "Hidden" not in body


def test_unreadable_input_is_refused_as_pagerank_refuses_it() -> None:
    for doc in ("", "   "):
        with pytest.raises(HTMLParseError):
            RegionExtractor().extract(doc)


def test_cli_extract_method_region(tmp_path: Path, capsys) -> None:
    html, gold = header_only_page(2)
    page = tmp_path / "page.html"
    page.write_text(html, encoding="utf-8")
    assert main(["extract", "-q", "--method", "region", str(page)]) == 0
    (line,) = capsys.readouterr().out.splitlines()
    rec = json.loads(line)
    assert rec["method"] == "region" and rec["title"] == TITLE
    assert _pr(f"{rec['title']}\n{rec['body']}", _without_standfirst(gold))[1] > 0.95
