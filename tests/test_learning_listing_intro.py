"""A listing with an introduction that varies per page is no article layout.

Author and tag pages print a line or two of their own (a bio, a description) above
teasers: linked headlines, each followed by the article's summary, which the article
pages print too.  Learned from two such pages, the bio is the layout's largest varying
section; the teasers must keep the layout from being flagged as articles.
"""

from __future__ import annotations

import random
from dataclasses import replace

from newsstemmer import Page
from newsstemmer.layout.learning import LayoutLearnOptions
from newsstemmer.layout.learning import learn as learn_layouts

WORDS = ("harbour council budget river school election bridge museum farmers railway festival court "
         "market tunnel library energy coast village report season rescue flood mayor airport").split()
NAMES = ("Ada Brennan", "Tomas Okafor", "Lena Petrov")


def _sentence(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n)).capitalize() + "."


def _frame(title: str, main: str) -> str:
    return (f"<html><head><title>{title} | Example Courier</title></head><body>"
            "<header><p class='brand'>Example Courier</p><nav><a href='/'>Home</a> <a href='/world/'>World</a></nav></header>"
            f"<main>{main}</main><footer><p>Example Courier Ltd, all rights reserved.</p></footer></body></html>")


def _site(seed: int = 3) -> tuple[list[Page], list[str]]:
    rng = random.Random(seed)
    pages, authors = [], []
    teasers: dict[str, list[tuple[str, str, str]]] = {name: [] for name in NAMES}
    for k in range(12):
        headline = f"{_sentence(rng, 6)[:-1]} {k}"
        dek = _sentence(rng, 7)
        url = f"http://example.com/world/2026/{k:03d}.html"
        body = "".join(f"<p>{' '.join(_sentence(rng, 14) for _ in range(3))}</p>" for _ in range(5))
        pages.append(Page(_frame(headline, f"<article><h1>{headline}</h1><p class='dek'>{dek}</p>{body}</article>"), url=url))
        teasers[NAMES[k % len(NAMES)]].append((url, headline, dek))
    for name in NAMES:
        tiles = "".join(f"<div class='tile'><h2><a href='{u}'>{h}</a></h2><p class='tile-dek'>{d}</p></div>"
                        for u, h, d in teasers[name])
        bio = f"{name} {_sentence(rng, 16)[:-1].lower()}."
        url = f"http://example.com/authors/{name.lower().replace(' ', '-')}/"
        pages.append(Page(_frame(name, f"<div class='listing'><h1>{name}</h1><p class='bio'>{bio}</p>{tiles}</div>"), url=url))
        authors.append(url)
    return pages, authors


def _author_layout(options: LayoutLearnOptions):
    pages, authors = _site()
    site = learn_layouts(pages, options)
    found = [p for p in site.patterns if set(p.sample_urls) & set(authors)]
    assert len(found) == 1, [(p.id, p.pages, p.sample_urls) for p in site.patterns]
    return found[0], site


def test_author_pages_with_a_bio_above_teasers_are_no_article_layout() -> None:
    layout, site = _author_layout(LayoutLearnOptions())
    assert not layout.article
    assert any(p.article for p in site.patterns if p is not layout)  # the articles' layout stays one


def test_without_the_teaser_ratio_the_bio_makes_it_an_article_layout() -> None:
    layout, _ = _author_layout(replace(LayoutLearnOptions(), max_teaser_ratio=1e9))
    assert layout.article  # (the fixture really has the bio as main text)
    roles = {s.role for s in layout.sections}
    assert "main" in roles
