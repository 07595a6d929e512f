"""Layouts learned from a few pages (a crawl's first learning round) and inline boxes.

A box between a body's paragraphs (a fact box) that only some pages carry aligns to no
section: it is judged by its path alone (``LayoutPattern.free_paths``).  Seen on one or
two of the pages learned from, it must not pass as main text, or every later article
with such a box gets it in its body (docs/history/notes-sessions-01-10.md, session 6: 2 demo crawls in 24).
"""

from __future__ import annotations

import html
import random

import pytest

from newsstemmer import ExtractOptions, LearnOptions, Page, extract_with_patterns, learn
from newsstemmer.crawl.testing import build_test_site

WORDS = (
    "council budget river station school market winter league players museum festival harbour "
    "railway farmers harvest doctors hospital election mayor storm coast bridge library residents "
    "announced yesterday expect change during summer officials warned about delays water prices"
).split()
BOX = "factbox"


def _sentence(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n)).capitalize() + "."


def _page(rng: random.Random, k: int, box: str | None = None, quote: str | None = None) -> tuple[Page, str, str]:
    """One article page; returns the page, its headline and its body (paragraphs only)."""
    head = f"{_sentence(rng, 7)[:-1]} number {k}"
    paras = [" ".join(_sentence(rng, 14) for _ in range(3)) for _ in range(rng.randint(3, 6))]
    parts = [f"<p>{html.escape(p)}</p>" for p in paras]
    body = list(paras)
    if box is not None:
        parts.insert(2, f'<aside class="{BOX}"><p>{html.escape(box)}</p></aside>')
    if quote is not None:
        parts.insert(1, f"<blockquote><p>{html.escape(quote)}</p></blockquote>")
        body.insert(1, quote)
    nav = "".join(f"<li><a href='/{w}/'>{w.capitalize()}</a></li>" for w in ("news", "sport", "arts", "travel"))
    doc = f"""<html><head><title>{html.escape(head)} | Valley Post</title></head><body>
<div id="top"><a href="/">Valley Post</a>: news from the valley since 1921<ul>{nav}</ul></div>
<div id="content"><h1>{html.escape(head)}</h1><div class="story-body">{''.join(parts)}</div></div>
<div id="footer"><p>Copyright Valley Post. All rights reserved. Registered office: 4 Mill Lane.</p></div>
</body></html>"""
    return Page(doc, url=f"http://valley.example/news/{1000 + k}.html"), head, "\n".join(body)


def _norm(text: str) -> str:
    return " ".join(text.split())


def test_inline_box_on_one_page_of_a_few_is_not_main() -> None:
    rng = random.Random(5)
    made = [_page(rng, k, box=f"Fact box: {_sentence(rng, 12)}" if k == 3 else None) for k in range(9)]
    site = learn([p for p, _, _ in made], LearnOptions(section_model=False))
    (pattern,) = [p for p in site.patterns if p.article]
    boxes = {path: role for path, role in pattern.free_paths.items() if BOX in path}
    assert boxes and "main" not in boxes.values(), boxes
    # A later page with a fact box elsewhere in its body gets its paragraphs, not the box.
    page, head, body = _page(random.Random(11), 20, box="Fact box: the bridge opened in 1921 after four years.")
    art = extract_with_patterns(page, site)
    assert art.matched and art.title == head
    assert _norm(art.body) == _norm(body)


def test_long_quote_on_one_page_stays_main() -> None:
    # Body text on a path only one page of the few carries (a long quote in the text) is
    # still main: its weight, averaged over all the pages, is that of a paragraph.
    rng = random.Random(6)
    quote = lambda: " ".join(_sentence(rng, 15) for _ in range(5))  # noqa: E731
    made = [_page(rng, k, quote=quote() if k == 4 else None) for k in range(8)]
    site = learn([p for p, _, _ in made], LearnOptions(section_model=False))
    (pattern,) = [p for p in site.patterns if p.article]
    quotes = {path: role for path, role in pattern.free_paths.items() if "blockquote" in path}
    assert quotes == {next(iter(quotes)): "main"}, pattern.free_paths
    for page, head, body in made:
        art = extract_with_patterns(page, site)
        assert _norm(art.body) == _norm(body), page.url


@pytest.fixture(scope="module")
def crawl_site():
    return build_test_site()


def test_crawl_test_site_first_round_without_its_fact_boxes(crawl_site) -> None:
    # The pages one unlucky first learning round of the end-to-end crawl saw: culture and
    # sport articles and a single news article, the only kind with a fact box.
    site = crawl_site
    arts = sorted(site.articles)
    chosen = [p for p in arts if p.startswith("/culture/")][:3] + [p for p in arts if p.startswith("/news/")][:1] + [
        p for p in arts if p.startswith("/sport/")
    ][:5]
    base = "http://127.0.0.1:8765"
    learned = learn([Page(site.pages[p][2].decode(), url=base + p) for p in chosen], LearnOptions(section_model=False))
    wrong = []
    for path, (title, body) in site.articles.items():
        art = extract_with_patterns(Page(site.pages[path][2].decode(), url=base + path), learned,
                                    ExtractOptions(fallback="region"))
        if _norm(art.body) != _norm(body) or art.title != title:
            wrong.append((path, art.body[:80]))
    assert not wrong, wrong
