"""One body cut into parallel parts (``newsstemmer.single.region.parallel``): a region
that is the first of several blocks of one template is widened to hold the others; a
block above the headline, a comment of the same class under other tags and a teaser
of another class set stay out.

Pages are built here; nothing is read from the datasets.
"""

from __future__ import annotations

from newsstemmer.dom.parse import parse_html
from newsstemmer.single.pagerank import pagerank_analysis
from newsstemmer.single.region.candidates import RegionView
from newsstemmer.single.region.extractor import RegionExtractor
from newsstemmer.single.region.parallel import parallel_parts

_WORDS = "the council approved a new bridge over the river after a long fight about its budget".split()


def _text(n: int, k: int) -> str:
    return " ".join(_WORDS[(i + k) % len(_WORDS)] for i in range(n)).capitalize() + "."


def _block(marker: str, k: int, paragraphs: int = 3, classes: str = "block-content") -> str:
    body = "".join(f"<p>{marker} {_text(30, k + j)}</p>" for j in range(paragraphs))
    return f'<div class="story-block"><div class="{classes}">{body}</div></div>'


def _page() -> str:
    article = ("<article>"
               + _block("Welcome", 9, 2)  # (above the headline: a box, not the article)
               + "<h1>Council approves the bridge</h1>"
               + _block("First", 0, 8)
               + '<div class="slot"><a href="/ad">Advertisement</a></div>'
               + _block("Second", 3)
               + _block("Teaser", 6, classes="block-content teaser")
               + _block("Third", 5)
               + "</article>")
    comments = ('<section><div class="comment">'
                f'<div class="block-content"><p>Reader {_text(40, 1)}</p><p>Reader {_text(40, 2)}</p></div>'
                "</div></section>")
    return ("<html><head><title>Council approves the bridge | The Daily</title></head><body>"
            f'<div id="nav"><a href="/">Home</a></div><main>{article}{comments}</main></body></html>')


def _first_block(view: RegionView) -> int:
    els = view.an.scores.graph.elements
    return next(i for i, el in enumerate(els)
                if el is not None and el.get("class") == "block-content" and "First" in "".join(el.itertext()))


def test_parts_are_the_same_template_after_the_headline() -> None:
    view = RegionView.of(pagerank_analysis(parse_html(_page()), None, text=False))
    first = _first_block(view)
    top, parts = parallel_parts(view, first)
    els = view.an.scores.graph.elements
    assert els[top].tag == "article"
    texts = ["".join(els[p].itertext()) for p in parts]
    assert [t.split()[0] for t in texts] == ["Second", "Third"]


def test_the_region_widens_to_the_parts_and_the_rule_can_be_turned_off() -> None:
    html = _page()
    ex = RegionExtractor(region=False)
    ex.choose_region = _first_block  # (the ranker's smaller choice: the first block alone)
    title, body, detail = ex.extract_detail(html)
    assert detail == "parts"
    assert "First" in body and "Second" in body and "Third" in body
    for left_out in ("Welcome", "Teaser", "Reader", "Advertisement"):
        assert left_out not in body
    assert body.index("First") < body.index("Second") < body.index("Third")
    ex.parallel_parts = False
    title, body, detail = ex.extract_detail(html)
    assert detail is None and "First" in body and "Second" not in body


def _parts_by_paths(view: RegionView, region: int) -> tuple[int, list[int]]:
    """``parallel_parts`` as first written (every same-tag node's path walked up to the
    ancestor, its length compared), the reference of the depth test that now comes first."""
    from newsstemmer.single.continuation import continues
    from newsstemmer.single.region.parallel import LEVELS, _classes, _path

    elements = view.an.scores.graph.elements
    el = elements[region]
    if el is None or not _classes(el):
        return region, []
    words, parent, size, tags = _classes(el), view.parent, view.size, view.tags
    hidden, tag, ups = view.an.hidden(), tags[region], []
    a = int(parent[region])
    while a >= 0 and len(ups) < LEVELS:
        ups.append(a)
        a = int(parent[a])
    region_end = region + int(size[region])
    for level, top in enumerate(ups, 1):
        down = [tags[i] for i in reversed(_path(parent, region, top))]
        parts, i, end = [], top + 1, top + int(size[top])
        while i < end:
            if region <= i < region_end:
                i = region_end
                continue
            if tags[i] == tag and i not in ups:
                path, cand = _path(parent, i, top), elements[i]
                if (len(path) == level and [tags[j] for j in reversed(path)] == down and cand is not None
                        and cand not in hidden and _classes(cand) == words
                        and (view.headline < 0 or i > view.headline) and continues(cand)):
                    parts.append(i)
                    i += int(size[i])
                    continue
            i += 1
        if parts:
            return top, parts
    return region, []


def test_a_part_one_level_deeper_stays_out_and_every_region_gets_the_reference_parts() -> None:
    deeper = ('<div class="story-block"><div class="wrap"><div class="block-content">'
              f"<p>Deeper {_text(30, 4)}</p><p>Deeper {_text(30, 7)}</p></div></div></div>")
    html = _page().replace("</article>", deeper + "</article>")
    view = RegionView.of(pagerank_analysis(parse_html(html), None, text=False))
    top, parts = parallel_parts(view, _first_block(view))
    els = view.an.scores.graph.elements
    assert ["".join(els[p].itertext()).split()[0] for p in parts] == ["Second", "Third"]
    found = 0
    for region, el in enumerate(els):
        if el is not None:
            assert parallel_parts(view, region) == _parts_by_paths(view, region)
            found += bool(parallel_parts(view, region)[1])
    assert found >= 3  # (regions with parts were compared, not only regions without)
