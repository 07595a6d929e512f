"""Tests of HTML → layout blocks (SPEC §2.1)."""

from __future__ import annotations

import pytest
from lxml import etree, html as lxml_html

from newsstemmer.layout.blocks import BLOCK_TAGS, BlockOptions, page_blocks
from newsstemmer.dom.parse import HTMLParseError
from newsstemmer.dom.text import significant, weight

NO_MERGE = BlockOptions(merge_same_path=False)


def doc(body: str, head: str = "") -> str:
    return f"<html><head>{head}</head><body>{body}</body></html>"


def texts(source, options: BlockOptions | None = None) -> list[str]:
    return [b.text for b in page_blocks(source, options).blocks]


def paths(source, options: BlockOptions | None = None) -> list[str]:
    return [b.path for b in page_blocks(source, options).blocks]


def all_text(source, options: BlockOptions | None = None) -> str:
    return "\n".join(texts(source, options))


# -- block delimiting -----------------------------------------------------------------


@pytest.mark.parametrize(
    "tag",
    ["div", "p", "li", "article", "section", "nav", "header", "footer", "main", "aside", "figure", "h2", "blockquote"],
)
def test_block_tag_delimits_a_block(tag: str) -> None:
    page = doc(f"leading text outside<{tag}>inner text of the element</{tag}>trailing text outside")
    assert texts(page) == ["leading text outside", "inner text of the element", "trailing text outside"]
    assert paths(page)[1] == tag


def test_table_cells_are_blocks() -> None:
    page = doc("<table><tr><td>first cell text</td><td>second cell text</td></tr></table>")
    pb = page_blocks(page, NO_MERGE)
    assert [b.text for b in pb.blocks] == ["first cell text", "second cell text"]
    assert all(b.path == "table/tr/td" for b in pb.blocks)
    assert all(b.tag == "td" for b in pb.blocks)


def test_modern_tags_are_block_tags() -> None:
    for tag in "article section main header footer nav aside figure figcaption".split():
        assert tag in BLOCK_TAGS


def test_inline_tags_do_not_delimit() -> None:
    page = doc("<p>some <b>bold</b> and <i>italic</i> and <em>more</em> words</p>")
    assert texts(page) == ["some bold and italic and more words"]


def test_br_closes_the_block() -> None:
    page = doc("<div>text before the break<br>text after the break</div>")
    assert texts(page, NO_MERGE) == ["text before the break", "text after the break"]


def test_hr_closes_the_block() -> None:
    page = doc("<div>text before the rule<hr>text after the rule</div>")
    assert texts(page, NO_MERGE) == ["text before the rule", "text after the rule"]


def test_br_blocks_keep_the_enclosing_path() -> None:
    page = doc('<div class="box">first line here<br/>second line here</div>')
    assert paths(page, NO_MERGE) == ["div:class=box", "div:class=box"]
    # merged by default, since both halves have the same path
    pb = page_blocks(page)
    assert len(pb.blocks) == 1
    assert pb.blocks[0].text == "first line here\nsecond line here"


# -- ignored content -------------------------------------------------------------------


@pytest.mark.parametrize("tag", ["script", "style", "noscript"])
def test_ignored_elements_contribute_nothing(tag: str) -> None:
    page = doc(f"<p>visible words before <{tag}>hiddenmarker content xyz</{tag}> visible words after</p>")
    text = all_text(page)
    assert "hiddenmarker" not in text
    assert "visible words before" in text and "visible words after" in text


def test_ignored_element_with_block_children_makes_no_block() -> None:
    page = doc("<p>real paragraph text</p><noscript><div><p>hiddenmarker in a noscript block</p></div></noscript>")
    assert texts(page) == ["real paragraph text"]


def test_script_in_head_ignored() -> None:
    page = doc("<p>real paragraph text</p>", head="<script>var hiddenmarker = 12345;</script><style>.hiddenmarker{}</style>")
    assert "hiddenmarker" not in all_text(page)


def test_comments_ignored() -> None:
    page = doc("<p>visible start<!-- hiddenmarker comment --> visible end</p><!-- <p>hiddenmarker para</p> -->")
    text = all_text(page)
    assert "hiddenmarker" not in text
    assert text == "visible start visible end"


def test_comments_ignored_in_pre_parsed_tree() -> None:
    # lxml.html (and parsel) keep comments; the walker must skip them and keep their tail text.
    root = lxml_html.document_fromstring(doc("<p>visible start<!-- hiddenmarker --> visible end</p>"))
    assert any(isinstance(e, etree._Comment) for e in root.iter())
    assert texts(root) == ["visible start visible end"]


# -- anchor text -------------------------------------------------------------------------


def test_anchor_text_vs_plain_text() -> None:
    page = doc('<p>Read the <a href="/x">full report here</a> before tomorrow</p>')
    (block,) = page_blocks(page).blocks
    assert block.text == "Read the full report here before tomorrow"
    assert block.plain_text == "Read the before tomorrow"
    assert block.weight == weight("Read the full report here before tomorrow")
    assert block.plain_weight == weight("Read the before tomorrow")


def test_all_anchor_block_has_no_plain_weight() -> None:
    page = doc('<ul><li><a href="/1">Home page link</a></li></ul>')
    (block,) = page_blocks(page).blocks
    assert block.text == "Home page link"
    assert block.plain_text == ""
    assert block.plain_weight == 0


def test_anchor_with_inline_children_counts_as_anchor() -> None:
    page = doc('<p>plain words <a href="/x"><b>bold</b> linked words</a> more plain</p>')
    (block,) = page_blocks(page).blocks
    assert block.plain_text == "plain words more plain"
    assert "bold linked words" in block.text


# -- paths -------------------------------------------------------------------------------


def test_path_is_last_three_block_ancestors() -> None:
    page = doc("<div><section><article><div><p>deeply placed paragraph</p></div></article></section></div>")
    assert paths(page) == ["article/div/p"]


def test_path_shorter_than_three_at_top_level() -> None:
    assert paths(doc("<p>top level paragraph</p>")) == ["p"]
    assert paths(doc("<div><p>second level paragraph</p></div>")) == ["div/p"]


def test_path_depth_option() -> None:
    page = doc("<div><section><article><p>deeply placed paragraph</p></article></section></div>")
    assert paths(page, BlockOptions(path_depth=1)) == ["p"]
    assert paths(page, BlockOptions(path_depth=5)) == ["div/section/article/p"]


def test_path_key_attributes_in_code_order_lowercased() -> None:
    page = doc(
        '<table><tr><td colspan="2" CLASS="Standard" id="Main" align="LEFT" valign="Top" rowspan="3">'
        "cell with attributes</td></tr></table>"
    )
    assert paths(page) == ["table/tr/td:id=main:class=standard:align=left:valign=top:rowspan=#:colspan=#"]


def test_path_attribute_order_in_source_does_not_matter() -> None:
    a = doc('<div class="story" id="body" align="left"><p>paragraph text a</p></div>')
    b = doc('<div align="left" id="body" class="story"><p>paragraph text b</p></div>')
    assert paths(a) == paths(b) == ["div:id=body:class=story:align=left/p"]


def test_path_ignores_other_attributes() -> None:
    page = doc('<div style="color:red" data-x="1" title="t" class="box"><p>paragraph text here</p></div>')
    assert paths(page) == ["div:class=box/p"]


def test_path_class_whitespace_normalised() -> None:
    a = doc('<div class="  story   Lead "><p>paragraph text a</p></div>')
    assert paths(a) == ["div:class=story lead/p"]


def test_digits_in_class_and_id_normalised() -> None:
    a = doc('<div class="post-35697" id="item7"><p>paragraph text one</p></div>')
    b = doc('<div class="post-12" id="item123"><p>paragraph text two</p></div>')
    assert paths(a) == paths(b)
    assert paths(a) == ["div:id=item#:class=post-#/p"]


def test_digit_normalisation_can_be_turned_off() -> None:
    opts = BlockOptions(normalise_digits=False)
    a = doc('<div class="post-35697"><p>paragraph text one</p></div>')
    b = doc('<div class="post-12"><p>paragraph text two</p></div>')
    assert paths(a, opts) == ["div:class=post-35697/p"]
    assert paths(a, opts) != paths(b, opts)


# -- weight --------------------------------------------------------------------------------


def test_weight_counts_word_characters_only() -> None:
    assert weight("Hello, world!") == 10
    assert weight("  ... --- !!! ") == 0
    assert weight("abc 123") == 6
    assert weight("") == 0


def test_weight_counts_japanese() -> None:
    assert weight("日本語のテキスト") == 8  # kanji, hiragana, katakana
    assert weight("東京、晴れ。") == 4  # Japanese punctuation does not count
    assert weight("ニュース") == 4  # the long-vowel mark counts
    assert significant("東京、晴れ。") == "東京晴れ"


def test_significant_is_lowercased_word_chars() -> None:
    assert significant("Hello, World! 42") == "helloworld42"
    assert len(significant("Hello, World! 42")) == weight("Hello, World! 42")


def test_block_weight_is_weight_of_text() -> None:
    page = doc("<p>Ünïcödé wörds, and 東京の天気!</p>")
    (block,) = page_blocks(page).blocks
    assert block.weight == weight(block.text) == len("Ünïcödéwördsand東京の天気")
    assert block.sig == "ünïcödéwördsand東京の天気"


def test_blocks_under_five_significant_chars_dropped() -> None:
    page = doc("<p>abcd</p><p>-- a.b.c.d --</p><div>abcde</div><li>東京都</li><td>東京都の天気</td>")
    assert texts(page, NO_MERGE) == ["abcde", "東京都の天気"]


def test_min_weight_option() -> None:
    page = doc("<p>abc</p><div>abcdefgh</div>")
    assert texts(page, BlockOptions(min_weight=1)) == ["abc", "abcdefgh"]
    assert texts(page, BlockOptions(min_weight=9)) == []


# -- merging -------------------------------------------------------------------------------


def test_consecutive_same_path_blocks_merged() -> None:
    page = doc('<div class="body"><p>First paragraph of the story.</p><p>Second paragraph <a href="/">link</a> here.</p></div>')
    pb = page_blocks(page)
    assert len(pb.blocks) == 1
    block = pb.blocks[0]
    assert block.path == "div:class=body/p"
    assert "First paragraph of the story." in block.text
    assert "Second paragraph link here." in block.text
    assert block.plain_text == "First paragraph of the story.\nSecond paragraph here."
    assert block.weight == weight("First paragraph of the story.") + weight("Second paragraph link here.")
    assert block.plain_weight == weight("First paragraph of the story.") + weight("Second paragraph here.")


def test_paragraph_count_does_not_change_block_sequence() -> None:
    a = doc("<h1>headline text</h1>" + "".join(f"<p>paragraph number {i}</p>" for i in range(3)) + "<div>footer text</div>")
    b = doc("<h1>headline text</h1>" + "".join(f"<p>paragraph number {i}</p>" for i in range(20)) + "<div>footer text</div>")
    assert paths(a) == paths(b) == ["h1", "p", "div"]


def test_same_path_not_consecutive_not_merged() -> None:
    page = doc("<p>first paragraph</p><div>interruption</div><p>second paragraph</p>")
    assert texts(page) == ["first paragraph", "interruption", "second paragraph"]


def test_merge_can_be_turned_off() -> None:
    page = doc("<p>first paragraph</p><p>second paragraph</p>")
    assert texts(page, NO_MERGE) == ["first paragraph", "second paragraph"]


def test_block_indexes_are_positions() -> None:
    page = doc("<p>first paragraph</p><div>second block</div><p>third block</p>")
    assert [b.index for b in page_blocks(page).blocks] == [0, 1, 2]


# -- drop caps -------------------------------------------------------------------------------


def test_drop_cap_img_alt_at_block_start() -> None:
    page = doc('<p><img src="o.gif" alt="O">nce upon a time</p>')
    assert texts(page) == ["Once upon a time"]


def test_img_alt_not_single_char_or_not_at_start_ignored() -> None:
    page = doc('<p><img src="x.gif" alt="Logo">story text here</p><div>middle text <img alt="Z"> end</div>')
    assert texts(page) == ["story text here", "middle text end"]


# -- page-level signals ------------------------------------------------------------------------


def test_title_og_title_h1_captured() -> None:
    page = doc(
        "<h1>The Big Headline</h1><p>body paragraph text</p><h1>Second Heading</h1>",
        head='<title>The Big Headline - Daily Site</title><meta property="og:title" content="OG Headline">'
        '<meta name="description" content="A short description">',
    )
    pb = page_blocks(page)
    assert pb.title == "The Big Headline - Daily Site"
    assert pb.meta_title == "OG Headline"
    assert pb.h1 == ["The Big Headline", "Second Heading"]
    assert pb.description == "A short description"
    cands = pb.title_candidates()
    assert "OG Headline" in cands and "The Big Headline" in cands
    assert "The Big Headline - Daily Site" in cands


def test_missing_title_signals_are_empty() -> None:
    pb = page_blocks(doc("<p>just a paragraph of text</p>"))
    assert pb.title == "" and pb.meta_title == "" and pb.h1 == []
    assert pb.title_candidates() == []


def test_total_weight() -> None:
    pb = page_blocks(doc("<p>abcde</p><div>fghij klm</div>"))
    assert pb.total_weight == 13


# -- robustness ---------------------------------------------------------------------------------


def test_deeply_nested_divs_no_recursion_error() -> None:
    n = 5000
    page = doc("<p>before the deep part</p>" + "<div>" * n + "<p>deep paragraph text</p>" + "</div>" * n)
    pb = page_blocks(page)  # must not raise RecursionError
    assert isinstance(pb.blocks, list)


def test_deeply_nested_spans_no_recursion_error() -> None:
    n = 100_000
    page = doc("<p>" + "<span>" * n + "deep span text" + "</span>" * n + "</p>")
    pb = page_blocks(page)  # must not raise RecursionError
    assert isinstance(pb.blocks, list)


def test_deep_prebuilt_tree_walked_iteratively() -> None:
    # A tree built through the API has no parser depth limit: this exercises the walker itself.
    root = etree.Element("html")
    body = etree.SubElement(root, "body")
    el = body
    for _ in range(20_000):
        el = etree.SubElement(el, "div")
    p = etree.SubElement(el, "p")
    p.text = "the deepest paragraph text"
    tail = etree.SubElement(body, "p")
    tail.text = "a shallow paragraph after"
    pb = page_blocks(root)
    assert [b.text for b in pb.blocks] == ["the deepest paragraph text", "a shallow paragraph after"]
    assert pb.blocks[0].path == "div/div/p"


def test_deeply_nested_page_keeps_its_text() -> None:
    # libxml2 stops building the tree at 2048 levels and drops the rest of the page;
    # parse_html then flattens the excess nesting and parses again.
    n = 5000
    page = doc("<p>before the deep part</p>" + "<div>" * n + "<p>deep paragraph text</p>" + "</div>" * n + "<p>after the deep part</p>")
    text = all_text(page)
    assert "before the deep part" in text
    assert "deep paragraph text" in text
    assert "after the deep part" in text


def test_cap_nesting_keeps_text_and_shallow_structure() -> None:
    from newsstemmer.dom.parse import cap_nesting

    deep = "<div>" * 50 + "<b>bold</b> text" + "</div>" * 50
    capped = cap_nesting(f"<p>lead</p><section>{deep}</section><p>tail</p>", limit=10)
    assert capped.count("<div>") == 9 and capped.count("</div>") == 9
    assert "<b>" not in capped and "</b>" not in capped  # deeper than the limit
    assert "lead" in capped and "bold" in capped and "tail" in capped
    assert "<section>" in capped and "</section>" in capped
    # shallow pages are left as they are
    page = "<div><p>one<p>two</div><img src=x><br/>"
    assert cap_nesting(page) == page


def test_deeply_nested_mixed_tags_parse_completely() -> None:
    n = 3000
    page = doc("<p>first words</p>" + "<div><span>" * n + "deep words" + "</span></div>" * n + "<p>last words</p>")
    text = all_text(page)
    assert "first words" in text and "deep words" in text and "last words" in text


def test_comments_in_pre_parsed_tree_not_in_text() -> None:
    root = lxml_html.document_fromstring(doc("<p>visible start text<!-- hiddenmarker --></p>"))
    assert "hiddenmarker" not in all_text(root)


def test_malformed_html_still_gives_blocks() -> None:
    page = "<html><body><div>unclosed div text <p>first para text<p>second para text<li>list item text<td>cell text here"
    text = all_text(page)
    for part in ("unclosed div text", "first para text", "second para text", "list item text", "cell text here"):
        assert part in text


def test_fragment_without_html_body_gives_blocks() -> None:
    assert texts("<p>just a fragment paragraph</p>") == ["just a fragment paragraph"]


def test_bytes_input() -> None:
    assert texts(doc("<p>東京の天気は晴れ</p>").encode("utf-8")) == ["東京の天気は晴れ"]


@pytest.mark.parametrize("empty", ["", "   \n\t ", b"", b"  "])
def test_empty_input_raises(empty) -> None:
    with pytest.raises(HTMLParseError):
        page_blocks(empty)


def test_html_parse_error_is_value_error() -> None:
    assert issubclass(HTMLParseError, ValueError)


def test_early_end_of_document_tags_do_not_cut_the_page() -> None:
    # An ad include closing </body></html> mid-page must not hide the article after it.
    doc = (
        "<html><body><div class='ad'><p>An advertisement for shoes and bags</p></div>"
        "</body></html></td></tr></table>"
        "<div class='story'><p>The article text follows the stray end tags here.</p></div></body></html>"
    )
    texts = [b.text for b in page_blocks(doc).blocks]
    assert "The article text follows the stray end tags here." in texts


def test_binary_data_decoded_as_text_is_not_a_page() -> None:
    import random

    from newsstemmer.dom.parse import HTMLParseError, parse_html

    rng = random.Random(5)
    noise = bytes(rng.randrange(256) for _ in range(3000)).decode("latin-1")
    with pytest.raises(HTMLParseError, match="not a text page"):
        parse_html(noise)
    # a page with a few stray control characters is still a page
    assert parse_html("<p>caf\x85 menu\x0b and more text</p>" * 20) is not None


@pytest.mark.parametrize("method", ["pagerank", "crf"])
def test_single_page_methods_refuse_binary_data(method: str) -> None:
    import random

    from newsstemmer import Page, extract_single
    from newsstemmer.dom.parse import HTMLParseError

    rng = random.Random(6)
    noise = bytes(rng.randrange(256) for _ in range(3000)).decode("latin-1")
    with pytest.raises(HTMLParseError):
        extract_single(Page(noise), method)


# -- reader-comment threads and the walk's other node kinds ------------------------------------


def test_blocks_inside_a_comment_thread_are_marked() -> None:
    page = doc(
        "<div class='story'><p>The article text of the page</p></div>"
        "<div id='comments'><p>A reader says the article is good</p></div>"
        "<p>The footer text after the thread</p>"
    )
    pb = page_blocks(page, NO_MERGE)
    assert [(b.text, b.in_comments) for b in pb.blocks] == [
        ("The article text of the page", False),
        ("A reader says the article is good", True),
        ("The footer text after the thread", False),
    ]


def test_an_inline_comment_thread_closes_the_block_around_it() -> None:
    page = doc("<p>Story words before <span class='comment-body'>reader words inside</span> story words after</p>")
    pb = page_blocks(page, NO_MERGE)
    assert [(b.text, b.in_comments) for b in pb.blocks] == [
        ("Story words before", False),
        ("reader words inside", True),
        ("story words after", False),
    ]


def test_comment_naming_needs_a_whole_token() -> None:
    from newsstemmer.layout.blocks import comment_named

    assert comment_named("comments", None)
    assert comment_named(None, "commentlist widget")
    assert comment_named(None, "disqus_thread")
    assert not comment_named(None, "commentary")
    assert not comment_named("main", "story")


def test_path_step_from_key_attribute_values() -> None:
    from newsstemmer.layout.blocks import path_step

    values = ("post-35697", "Entry  tag-guns Hentry", None, "TOP", None, "2")
    assert path_step("div", values) == "div:id=post-#:class=entry hentry:valign=top:colspan=#"
    assert path_step("div", values, normalise_digits=False) == (
        "div:id=post-35697:class=entry tag-guns hentry:valign=top:colspan=2"
    )
    assert path_step("td", (None,) * 6) == "td"


def test_entities_and_processing_instructions_give_only_their_tail() -> None:
    # A tree built through the API can hold nodes the parser never makes.
    root = etree.Element("html")
    body = etree.SubElement(root, "body")
    p = etree.SubElement(body, "p")
    p.text = "fish "
    amp = etree.Entity("amp")
    amp.tail = " chips for supper"
    p.append(amp)
    pi = etree.ProcessingInstruction("php", "echo 'hidden words';")
    pi.tail = " and peas"
    p.append(pi)
    assert texts(root) == ["fish chips for supper and peas"]


def test_names_comment_thread_reads_id_and_class() -> None:
    from newsstemmer.layout.blocks import names_comment_thread

    root = etree.fromstring("<div><ol id='comments'/><div class='story'/><p/></div>")
    assert [names_comment_thread(el) for el in root] == [True, False, False]
