"""The headline neighbourhood's walk (``metadata.neighbourhood.HoodWalk.walk``) on small
purpose-made pages: what it passes over, where it stops, the headline, bylines and links
to author pages it finds."""

from __future__ import annotations

from lxml import html as lxml_html

from newsstemmer.metadata.fields import neighbourhood_walk
from newsstemmer.metadata.neighbourhood import LINES_AFTER, HoodWalk, title_words
from newsstemmer.metadata import page_facts


def _body(markup: str):
    page = f"<html><head><title>T</title></head><body>{markup}</body></html>"
    return lxml_html.document_fromstring(page).find("body")


def _read(markup: str, has_h1: bool = True, headline=None, own=None, root=None, with_tail: bool = True) -> HoodWalk:
    body = _body(markup) if root is None else root
    reading = HoodWalk(has_h1, headline, own or [])
    reading.walk(body, with_tail=with_tail)
    return reading


def _stripped(lines: list[str]) -> list[str]:
    return [line.strip() for line in lines]


def test_skipped_elements_are_passed_over_with_what_is_in_them_but_their_tails_are_read():
    reading = _read("<p>one</p><script>var x = 'no';</script>two<style>p {}</style>three"
                    "<noscript><p>no</p></noscript>four<template><p>no</p></template>five"
                    "<svg><text>no</text></svg>six")
    assert _stripped(reading.lines) == ["one", "two", "three", "four", "five", "six"]


def test_inside_a_skipped_element_nothing_is_read_not_even_the_tails_of_its_children():
    reading = _read("<noscript><div class='byline'>no<svg><g>no</g></svg>no tail</div>no</noscript>after"
                    "<h1>Headline here</h1>")
    assert _stripped(reading.lines) == ["after", "Headline here"]
    assert reading.bylines == []  # (a byline mark inside a skipped element is not seen)
    assert reading.at == 1


def test_comments_and_processing_instructions_are_passed_over_with_their_tails():
    reading = _read("<p>one<!-- a comment -->comment tail</p><?php echo 1 ?>pi tail<p>two</p>")
    assert "a comment" not in " ".join(reading.lines)
    assert _stripped(reading.lines) == ["one", "two"]


def test_white_space_is_no_line_and_lines_are_kept_as_found():
    reading = _read("<p>  one  </p>\n   \n<p>\t</p><span> two</span>")
    assert reading.lines == ["  one  ", " two"]


def test_the_roots_own_tail_is_read_only_when_asked():
    body = _body("<div><p>inside</p>inner tail</div>root tail<p>next</p>")
    root = body[0]
    assert _stripped(_read("", root=root, with_tail=False).lines) == ["inside", "inner tail"]
    assert _stripped(_read("", root=root, with_tail=True).lines) == ["inside", "inner tail", "root tail"]


def test_a_skipped_root_gives_its_tail_alone():
    body = _body("<script>var no = 1;</script>after the script")
    assert _stripped(_read("", root=body[0]).lines) == ["after the script"]
    assert _read("", root=body[0], with_tail=False).lines == []


def test_reading_stops_a_set_number_of_lines_past_the_headline():
    before = "".join(f"<p>menu {i}</p>" for i in range(5))
    after = "".join(f"<p>line {i}</p>" for i in range(LINES_AFTER + 40))
    reading = _read(before + "<h1>The headline</h1>" + after)
    assert reading.at == 5 and reading.lines[5] == "The headline"
    assert len(reading.lines) == 5 + LINES_AFTER + 1 and reading.open is False
    assert reading.result().lines == reading.lines


def test_without_a_headline_reading_stops_after_300_lines():
    reading = _read("".join(f"<div><span>line {i}</span></div>" for i in range(400)))
    assert reading.at == -1 and len(reading.lines) == 301 and reading.open is False


def test_the_headline_is_the_given_h1_else_the_first_one():
    markup = "<h1>Site name</h1><p>menu</p><h1>The story's headline</h1><p>body</p>"
    body = _body(markup)
    second = body.findall("h1")[1]
    assert _read("", root=body, headline=second).at == 2
    assert _read(markup).at == 0
    assert _read(markup, has_h1=False).at == -1  # (a page said to have no <h1>: none is taken)


def test_without_h1_an_h2_agreeing_with_the_pages_titles_is_the_headline():
    markup = "<h2>Latest news</h2><p>menu</p><h3>Harbour ferry returns after storm</h3><p>body</p>"
    own = [title_words("Harbour ferry returns after storm | The Gazette")]
    assert _read(markup, has_h1=False, own=own).at == 2
    assert _read(markup, has_h1=False, own=[title_words("Something else entirely")]).at == -1


def test_byline_marks_are_found_by_class_or_id_nearest_the_headline_first():
    markup = ("<div class='author-box'>Top writer</div><p>menu</p><a class='byline' href='/x'>menu link</a>"
              "<h1>The headline</h1><p id='postuser'>By Ann Lee</p><p>body</p><span class='user-name'>Bo</span>"
              "<p class='lede'>no mark</p>")
    reading = _read(markup)
    marked = [el.get("class") or el.get("id") for el in reading.result().bylines]
    # after the headline first (nearest first), then those above it (nearest first)
    assert marked == ["postuser", "user-name", "byline", "author-box"]


def test_links_to_author_pages_count_after_the_headline_only():
    markup = ("<nav><a href='/author/menu-writer'>Our writers</a></nav><h1>The headline</h1>"
              "<p>By <a href='/author/ann-lee'>Ann Lee</a> and <a href='/autoren/bo-berg'>Bo Berg</a></p>"
              "<p><a href='/news/other-story'>Other story</a> <a href='/?author=3'>Cy</a></p>")
    links = _read(markup).result().author_links
    assert [el.get("href") for _, el in links] == ["/author/ann-lee", "/autoren/bo-berg", "/?author=3"]


def test_the_deferred_reading_gives_what_the_reading_with_the_headline_known_gives():
    page = ("<html><head><title>Harbour ferry returns after storm | Gazette</title></head><body>"
            "<h1>Gazette</h1><p>menu</p><a href='/author/x'>early link</a>"
            + "".join(f"<p>teaser {i}</p>" for i in range(20))
            + "<h1>Harbour ferry returns after storm</h1><p class='byline'>By <a href='/author/ann'>Ann</a></p>"
            + "".join(f"<p>line {i}</p>" for i in range(LINES_AFTER + 10)) + "</body></html>")
    tree = lxml_html.document_fromstring(page)
    facts = page_facts(tree, page)
    known, deferred = neighbourhood_walk(facts), neighbourhood_walk(facts, deferred=True)
    for reading in (known, deferred):
        reading.walk(tree.find("body"))
    assert deferred.result() == known.result()
    result = known.result()
    assert result.lines[result.at] == "Harbour ferry returns after storm"
    assert [el.get("href") for _, el in result.author_links] == ["/author/ann"]


def test_reading_stops_inside_an_element_and_reads_nothing_after():
    lines = "".join(f"<span>line {i}</span>" for i in range(LINES_AFTER + 5))
    reading = _read(f"<h1>The headline</h1><div class='story'>{lines}<p class='byline'>late</p></div>tail")
    assert len(reading.lines) == LINES_AFTER + 1 and reading.lines[-1] == f"line {LINES_AFTER - 1}"
    assert reading.bylines == [] and "tail" not in reading.lines
