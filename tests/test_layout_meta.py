"""The byline and date line learned from a site's layouts (newsstemmer.combine.metasections),
and the flag of a loose match that leaves body text out."""

from __future__ import annotations

import json
import random

from newsstemmer import Page, SitePatterns, extract_with_patterns, learn
from newsstemmer.combine.extract import ExtractOptions
from newsstemmer.metadata.sections import byline_names, date_line, meta_sections

WORDS = ("council budget river station school market winter league players museum festival harbour "
         "railway farmers harvest doctors hospital election mayor storm coast bridge library residents "
         "announced yesterday expect change during summer while officials warned about delays water").split()
PEOPLE = ["Ann Lee", "Bo Kim", "Carla Mendes", "Dev Patel", "Eva Novak", "Farid Haddad"]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October"]


def sentence(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n)).capitalize() + "."


def article(rng: random.Random, k: int, structured: bool = False, split_body: bool = False) -> tuple[str, str, str, str]:
    """A page of a small site with a byline and a date line under its headline (no JSON-LD
    or meta tags unless ``structured``); returns (url, html, author, iso date)."""
    author = PEOPLE[k % len(PEOPLE)]
    month, day = 1 + k % 10, 1 + (3 * k) % 27
    headline = f"{sentence(rng, 7)[:-1]} {k}"
    paragraphs = [" ".join(sentence(rng, rng.randint(9, 15)) for _ in range(3)) for _ in range(rng.randint(5, 8))]
    body = "".join(f"<p>{p}</p>" for p in paragraphs)
    if split_body:  # a redesign moved the second half of the text into a new box
        half = len(paragraphs) // 2
        body = ("".join(f"<p>{p}</p>" for p in paragraphs[:half]) + '</div><section class="continued"><div class="c2">'
                + "".join(f"<span class='para'>{p}</span><br>" for p in paragraphs[half:]) + "</div></section><div>")
    head = (f'<meta property="article:published_time" content="2024-{month:02d}-{day:02d}T10:00:00Z">'
            f'<meta name="author" content="{author}">' if structured else "")
    html = f"""<html><head><title>{headline} - The Gazette</title>{head}</head><body>
<div id="top"><a href="/">The Gazette</a> <a href="/news/">News</a> <a href="/sport/">Sport</a></div>
<div id="story"><h1>{headline}</h1>
<div class="credit">By {author}</div>
<div class="when">{MONTHS[month - 1]} {day}, 2024</div>
<div class="text">{body}</div></div>
<div id="foot">The Gazette, 1 Harbour Street. All rights reserved.</div>
</body></html>"""
    return f"http://gazette.test/news/{k:03d}.html", html, author, f"2024-{month:02d}-{day:02d}"


def site(n: int = 8, seed: int = 3) -> list[tuple[Page, str, str]]:
    rng = random.Random(seed)
    out = []
    for k in range(n):
        url, html, author, when = article(rng, k)
        out.append((Page(html, url=url), author, when))
    return out


def test_a_section_reads_as_names_or_a_date_only_when_it_varies_and_agrees() -> None:
    assert byline_names("By Ann Lee and Bo Kim") == ["Ann Lee", "Bo Kim"]
    assert byline_names("Politics") == [] and byline_names("Home, World, Business") == []
    assert byline_names("スポーツ") == []  # (a one-word label of a caseless script is not taken for a name)
    assert date_line("Posted: 9:45 AM, May 14, 2019") == "2019-05-14"
    names = [["By Ann Lee", "By Bo Kim", "By Eva Novak"]]
    dates = [["May 3, 2024", "May 9, 2024", "June 1, 2024"]]
    menu = [["Daily Brief", "Daily Brief", "Daily Brief"]]
    assert meta_sections(names + dates, None) == (0, 1)
    assert meta_sections(menu + dates, None) == (None, 1)  # the same text on every page: the template's
    # the pages' own structured data says otherwise: not the byline
    known = [(["Zoe Park"], None), (["Zoe Park"], None), (["Zoe Park"], None)]
    assert meta_sections(names, None, known) == (None, None)
    assert meta_sections(names[:1] + [[None, None, None]], None) == (0, None)
    assert meta_sections([["By Ann Lee", "By Bo Kim"]], None) == (None, None)  # two pages are too few for a byline
    # capitalised words that change per page ("SPECIAL REPORT", "SEARCH JOBS") are a name only
    # when the line says "By ..." or the pages' own metadata names the same people
    bare = [["Ann Lee", "Bo Kim", "Eva Novak"]]
    assert meta_sections(bare, None) == (None, None)
    assert meta_sections(bare, None, [(["Ann Lee"], None), ([], None), ([], None)]) == (0, None)


def test_learned_layouts_mark_the_byline_and_date_sections_and_fill_pages_without_metadata(tmp_path) -> None:
    pages = site()
    patterns = learn([p for p, _, _ in pages], site="gazette.test")
    marked = [p for p in patterns.patterns if p.article]
    assert marked and all(p.byline_section is not None and p.date_section is not None for p in marked)
    for page, author, when in pages:
        art = extract_with_patterns(page, patterns, ExtractOptions(fallback=None))
        assert art.authors == [author] and art.published == when
        # (the page has a byline near its headline too; the layout's mark is what decides)
        assert art.meta_source["authors"] == "layout" and art.meta_source["published"] in ("layout", "text")
    # a new page of the site, with nothing but its byline and date line
    rng = random.Random(99)
    url, html, author, when = article(rng, 31)
    art = extract_with_patterns(Page(html, url=url), patterns, ExtractOptions(fallback=None))
    assert art.authors == [author] and art.published == when
    assert ("byline", f"By {author}") in art.sections

    # the marks are saved in the pattern file and read back; a file without them still loads
    path = tmp_path / "gazette.json"
    patterns.save(path)
    again = SitePatterns.load(path)
    assert [(p.byline_section, p.date_section) for p in again.patterns] == \
        [(p.byline_section, p.date_section) for p in patterns.patterns]
    raw = json.loads(path.read_text())
    for p in raw["patterns"]:
        p.pop("byline_section", None)
        p.pop("date_section", None)
    path.write_text(json.dumps(raw))
    old = SitePatterns.load(path)
    assert all(p.byline_section is None and p.date_section is None for p in old.patterns)
    plain = extract_with_patterns(Page(html, url=url), old, ExtractOptions(fallback=None))
    assert all(role not in ("byline", "date") for role, _ in plain.sections)


def test_structured_data_wins_over_the_layout() -> None:
    pages = site()
    patterns = learn([p for p, _, _ in pages], site="gazette.test")
    rng = random.Random(5)
    url, html, author, when = article(rng, 12, structured=True)
    art = extract_with_patterns(Page(html, url=url), patterns, ExtractOptions(fallback=None))
    assert art.meta_source["authors"] == "meta" and art.meta_source["published"] == "opengraph"
    assert art.authors == [author] and art.published.startswith(when)


def test_the_report_marks_the_byline_and_the_date_line() -> None:
    from newsstemmer.report.sample import marked_sample

    pages = site()
    patterns = learn([p for p, _, _ in pages], site="gazette.test")
    layout = next(p for p in patterns.patterns if p.article)
    sample = marked_sample(pages[0][0], patterns, layout.id)
    assert sample is not None and sample.meta == ["byline", "date"]
    assert 'data-meta="byline"' in sample.markup and 'data-meta="date"' in sample.markup


def test_a_loose_match_that_leaves_body_text_out_says_so() -> None:
    pages = site(10)
    patterns = learn([p for p, _, _ in pages], site="gazette.test")
    rng = random.Random(77)
    url, html, _, _ = article(rng, 40, split_body=True)
    art = extract_with_patterns(Page(html, url=url), patterns, ExtractOptions(fallback=None, page_choice=False))
    assert art.method == "pattern-loose", art.method
    assert art.detail == "loose-partial"
    # a page the layout covers whole is not flagged
    url, html, _, _ = article(rng, 41)
    whole = extract_with_patterns(Page(html, url=url), patterns, ExtractOptions(fallback=None, page_choice=False))
    assert whole.method == "pattern" and whole.detail is None
