"""CSS rules learned from an extractor's choice of each page's article (issue #12):
``extracted_roles``, ``text_agreement``, ``RuleOptions.content`` and
``chain.learn_site_rules``, on purpose-made pages."""

from __future__ import annotations

import json
import random

import pytest

from newsstemmer import Page, cli
from newsstemmer.combine.site_rules import learn_site_rules
from newsstemmer.single import extract_single
from newsstemmer.layout.patterns import SitePatterns
from newsstemmer.rules import RuleOptions, apply_rules, learn_ruleset, page_blocks, rules_of
from newsstemmer.rules.evidence import extracted_roles, text_agreement

WORDS = (
    "council residents engineers weekend station market river village budget report "
    "harbour bridge orchestra farmers harvest summer tram commute scientists square"
).split()
OTHER = (
    "celebrity gossip diet trick shocking photos weekend deals gadgets ranked winners "
    "quiz recipes travel secrets reveals stunning slideshow viral"
).split()


def sentence(rng: random.Random, words: list[str], n: int = 18) -> str:
    return " ".join(rng.choice(words) for _ in range(n)).capitalize() + "."


def article(i: int) -> tuple[str, str]:
    """A page whose story is interrupted by nothing, followed by a box of "more stories":
    plain text (no links) that changes on every page, so the unique-block test takes it
    for content.  Returns (html, the story's text, one paragraph a line)."""
    rng = random.Random(i)
    paras = [f"{sentence(rng, WORDS)} {sentence(rng, WORDS)}" for _ in range(4)]
    more = "".join(f"<p>{sentence(rng, OTHER, 24)}</p>" for _ in range(3))
    html = f"""<html><head><title>Story {i}</title></head><body>
<div id="nav"><a href="/">Home</a> <a href="/news">News</a></div>
<div id="main">
  <div class="story">{''.join(f'<p>{p}</p>' for p in paras)}</div>
  <div class="more">{more}</div>
</div>
<div id="footer"><p>Copyright Example Media, all rights reserved.</p></div>
</body></html>"""
    return html, "\n".join(paras)


def test_extracted_roles_meet_the_text_by_words():
    html = (
        "<html><body><p>The council met on Monday to discuss the budget, again.</p>"
        "<p>Home</p><p>Share this</p><p>Unrelated words nobody extracted here at all</p></body></html>"
    )
    blocks = page_blocks(html)
    body = "The council met on Monday to discuss the budget again\nShare this\nWelcome Home visitors"
    roles = extracted_roles(blocks, body)
    # Punctuation and case do not matter; a short line counts only as a whole line
    # ("Home" is inside "Welcome Home visitors", but no line of the body is "Home").
    assert roles == ["main", None, "main", None]
    assert extracted_roles(blocks, "") == [None] * 4


def test_text_agreement():
    assert text_agreement("a b c d e", "a b c d e") == 1.0
    assert text_agreement("", "") == 1.0
    assert text_agreement("a b c d e", "") == 0.0
    assert 0 < text_agreement("a b c d e f", "a b c d e x y z") < 1


def test_extracted_blocks_keep_varying_text_that_is_not_the_article_out():
    pages = [article(i) for i in range(4)]
    htmls = [h for h, _ in pages]
    unique = learn_ruleset(htmls[:3], options=RuleOptions(content="unique"))
    _, body = apply_rules(htmls[3], unique)
    assert "Celebrity" in body or "celebrity" in body  # the varying box is unique: taken
    extracted = learn_ruleset(htmls[:3], options=RuleOptions(content="extracted"), extracted=[t for _, t in pages[:3]])
    assert extracted.method == "extracted-blocks:extracted"
    _, body = apply_rules(htmls[3], extracted)
    assert body == pages[3][1]
    # auto: the rules that reproduce the extractor's text best, here the extracted ones.
    auto = learn_ruleset(htmls[:3], extracted=[t for _, t in pages[:3]])
    assert auto.selectors() == extracted.selectors()


def test_auto_falls_back_to_unique_blocks_when_the_extractor_misses():
    pages = [article(i) for i in range(3)]
    htmls = [h for h, _ in pages]
    # The extractor kept something no block holds: no rule comes from its choice.
    wrong = ["words that are on none of the pages at all, anywhere"] * 3
    auto = learn_ruleset(htmls, extracted=wrong)
    assert auto.method == "extract-unique-block"
    assert auto.selectors() == learn_ruleset(htmls, options=RuleOptions(content="unique")).selectors()
    # Nothing extracted on any page: the unique-block test alone.
    assert learn_ruleset(htmls, extracted=["", None, ""]).method == "extract-unique-block"


def test_options_and_arguments_are_checked():
    htmls = [article(i)[0] for i in range(3)]
    with pytest.raises(ValueError, match="content"):
        learn_ruleset(htmls, options=RuleOptions(content="guess"))
    with pytest.raises(ValueError, match="extracted texts"):
        learn_ruleset(htmls, extracted=["x"])
    with pytest.raises(ValueError, match="greedy_order"):
        learn_ruleset(htmls, options=RuleOptions(greedy_order="size"))
    with pytest.raises(ValueError, match="auto_variants"):
        learn_ruleset(htmls, options=RuleOptions(auto_variants=(("auto", False, "precision"),)))


def test_learn_site_rules_runs_the_single_page_extractor():
    pages = [Page(article(i)[0], url=f"http://example.com/{i}.html") for i in range(4)]
    plain = learn_site_rules(pages[:3], evidence=None)
    assert plain.method == "extract-unique-block"
    for evidence in ("pagerank", "region"):
        rules = learn_site_rules(pages[:3], evidence=evidence)
        assert rules.method.startswith("extracted-blocks"), evidence
        # On a page not learned from, the rules give what the extractor takes there.
        _, body = apply_rules(pages[3].html, rules)
        assert article(3)[1] in body
        assert text_agreement(body, extract_single(pages[3], evidence).body) > 0.95, evidence


def test_cli_learns_rules_from_the_extractor_by_default(tmp_path, capsys):
    folder = tmp_path / "site"
    folder.mkdir()
    for i in range(3):
        (folder / f"a{i}.html").write_text(article(i)[0], encoding="utf-8")
    target = tmp_path / "example.json"
    assert cli.main(["rules", str(target), "--learn", str(folder), "--site", "example.com", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rules"]["method"].startswith("extracted-blocks")
    _, body = apply_rules(article(5)[0], rules_of(SitePatterns.load(target)))
    assert article(5)[1] in body and "Copyright" not in body
    assert cli.main(["rules", str(target), "--evidence", "pagerank"]) == 2
    assert "--evidence needs --learn" in capsys.readouterr().err


def test_the_articles_container_gives_a_rule_for_what_training_pages_lacked():
    pages = [article(i) for i in range(3)]
    htmls = [h for h, _ in pages]
    texts = [t for _, t in pages]
    with_container = learn_ruleset(htmls, options=RuleOptions(content="extracted"), extracted=texts)
    without = learn_ruleset(htmls, options=RuleOptions(content="extracted", container_rules=False), extracted=texts)
    assert "div.story" in with_container.selectors()["body"]
    assert "div.story" not in without.selectors()["body"]
    # A later page whose story holds a list, a kind of block no training page had.
    html, story = article(7)
    html = html.replace("</p></div>", "</p><ul><li>A list item the training pages never had</li></ul></div>", 1)
    assert "A list item" in apply_rules(html, with_container)[1]
    assert "A list item" not in apply_rules(html, without)[1]


@pytest.mark.parametrize("holdout", [False, True])
def test_auto_variants_and_holdout_judge_the_ways_of_learning(holdout):
    pages = [article(i) for i in range(4)]
    htmls, texts = [h for h, _ in pages], [t for _, t in pages]
    three = (("extracted", False, "precision"), ("extracted", False, "weight"), ("unique", True, "precision"))
    rules = learn_ruleset(htmls[:3], options=RuleOptions(auto_variants=three, auto_holdout=holdout), extracted=texts[:3])
    assert rules.method == "extracted-blocks:extracted"
    assert apply_rules(htmls[3], rules)[1] == texts[3]
    # Only the unique-block way offered: its rules, whatever the extractor says.
    only_unique = RuleOptions(auto_variants=(("unique", True, "precision"),), auto_holdout=holdout)
    assert learn_ruleset(htmls[:3], options=only_unique, extracted=texts[:3]).method == "extract-unique-block"
