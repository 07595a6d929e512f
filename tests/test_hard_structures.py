"""The two failure structures of issue #12, on small purpose-made sites (tests/fixtures/
hard_structures.py): learn the site from its pages, extract every page, score the body
against the true body (shingle P/R/F1 of newsstemmer.evaluation).

What the user should get is asserted plainly.  History (mean over 10 pages):

* inline box with a teaser paragraph: F1 0.921 (P 0.860, R 0.991) with the hand rules
  alone (``LearnOptions(section_model=False)``): the card's headline and teaser come out
  inside the body on every page.  The learned section model alone scores the card's
  section P 0.32 against its demotion threshold of 0.3 (0.17-0.35 over training seeds:
  a borderline case, a strict xfail until session 8).  Since then the card is told by its
  shape (``newsstemmer.combine.boxes``: a MAIN unit that opens with a wholly linked
  headline line in a branch holding a linked picture is not main), whatever the model's P.
* varying boilerplate: F1 0.907 (P 0.830, R 1.000) before session 8; the author bio came
  out as body on every page (the model scores it 0.98: in the training data, main
  sections whose own branch is named author/byline/meta are article text as often as not,
  10 of 21, and the region extractor takes the bio too); the archive banner and the
  related-stories list did not.  Since then a MAIN unit after the article that opens with
  the name the byline carries is not main (``boxes``), and the F1 is 1.0.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from newsstemmer import Page, extract, learn
from newsstemmer.evaluation import evaluate, shingle_prf

sys.path.insert(0, str(Path(__file__).parent / "fixtures"))
from hard_structures import FixturePage, inline_box_site, inline_links_site, varying_boilerplate_site  # noqa: E402

F1_TARGET = 0.95


def _run(pages: list[FixturePage]) -> list[tuple[FixturePage, str]]:
    """Learn the site from all its pages, then extract each: (page, extracted body)."""
    site = learn([Page(p.html, url=p.url) for p in pages])
    return [(p, extract(p.html, site, url=p.url).body) for p in pages]


def _report(results: list[tuple[FixturePage, str]]) -> str:
    rows = []
    for page, body in results:
        p, r = shingle_prf(body, page.body)
        f1 = 2 * p * r / (p + r) if p else 0.0
        rows.append(f"{page.url.rsplit('/', 1)[-1]}: F1 {f1:.3f} P {p or 0:.3f} R {r:.3f}")
    return "\n".join(rows)


def _paragraphs(body: str) -> list[str]:
    return [line for line in body.split("\n") if line.strip()]


@pytest.fixture(scope="module")
def inline_teaser():
    return _run(inline_box_site(teaser=True))


@pytest.fixture(scope="module")
def inline_caption():
    return _run(inline_box_site(teaser=False))


@pytest.fixture(scope="module")
def varying():
    return _run(varying_boilerplate_site())


def test_inline_teaser_box_taken_by_the_rules_alone():
    """The unsupervised roles (the option the learned decision corrects) still take the card."""
    from newsstemmer import LearnOptions

    pages = inline_box_site(teaser=True)
    site = learn([Page(p.html, url=p.url) for p in pages], LearnOptions(section_model=False))
    bodies = [(extract(p.html, site, url=p.url).body, p.body) for p in pages]
    assert any(p.not_body[1] in body for (body, _), p in zip(bodies, pages))
    assert evaluate(bodies).f1 < F1_TARGET


def test_fixtures_are_deterministic():
    assert [p.html for p in inline_box_site()] == [p.html for p in inline_box_site()]
    assert [p.html for p in varying_boilerplate_site()] == [p.html for p in varying_boilerplate_site()]
    # the box moves: a different paragraph position on (nearly) every page
    positions = {p.html.split('<div class="story">')[1].split('<div class="related">')[0].count("<p>")
                 for p in inline_box_site()}
    assert len(positions) >= 7


# --- 1. an article body interrupted by an inline box ---------------------------------

def test_inline_box_body_kept_whole(inline_teaser, inline_caption):
    """Every paragraph, before and after the box, comes out once and in order (issue #12
    reports the paragraphs after the box lost and the lead paragraph doubled on real
    pages; these fixtures do not reproduce that)."""
    for results in (inline_teaser, inline_caption):
        for page, body in results:
            got = _paragraphs(body)
            for para in _paragraphs(page.body):
                assert sum(para in line for line in got) == 1, (page.url, para[:40])
            positions = [next(i for i, line in enumerate(got) if para in line) for para in _paragraphs(page.body)]
            assert positions == sorted(positions), page.url
            assert shingle_prf(body, page.body)[1] >= 0.98, _report(results)


def test_inline_caption_box_left_out(inline_caption):
    """A card with a one-line caption: the body is exactly the article's paragraphs."""
    for page, body in inline_caption:
        assert body == page.body, page.url
    assert evaluate([(body, page.body) for page, body in inline_caption]).f1 == 1.0


def test_inline_teaser_box_left_out(inline_teaser):
    for page, body in inline_teaser:
        for text in page.not_body:
            assert text not in body, (page.url, text[:40])


def test_inline_teaser_box_f1(inline_teaser):
    score = evaluate([(body, page.body) for page, body in inline_teaser])
    assert score.f1 >= F1_TARGET, _report(inline_teaser)


# --- 2. text that varies per page but is not the article ------------------------------


def test_varying_banner_and_related_left_out(varying):
    """The archive banner and the related-stories list (headlines and summaries) are not
    body, and the whole article is."""
    for page, body in varying:
        banner, _bio, *related = page.not_body
        assert banner not in body, page.url
        for text in related:
            assert text not in body, (page.url, text[:40])
        assert shingle_prf(body, page.body)[1] == 1.0, _report(varying)


def test_varying_author_bio_left_out(varying):
    for page, body in varying:
        bio = page.not_body[1]
        assert bio not in body, page.url


def test_varying_boilerplate_f1(varying):
    score = evaluate([(body, page.body) for page, body in varying])
    assert score.f1 >= F1_TARGET, _report(varying)


# --- 1b. the body cut by several one-line related links (the real sites' form) ----------


@pytest.mark.parametrize("section_model", [True, False], ids=["learned", "rules"])
def test_inline_links_body_kept_whole(section_model):
    """Paragraph runs after inline "[related story]" links pair with them as a listing's
    summaries pair with headlines; they are on the body's own path, so they are body
    (before this, recall 0.05-0.36 on every page, as issue #12 reports for a real site)
    and the links are not."""
    from newsstemmer import LearnOptions

    pages = inline_links_site()
    site = learn([Page(p.html, url=p.url) for p in pages], LearnOptions(section_model=section_model))
    for p in pages:
        body = extract(p.html, site, url=p.url).body
        assert shingle_prf(body, p.body)[1] == 1.0, p.url
        for link in p.not_body:
            assert link not in body, (p.url, link)
