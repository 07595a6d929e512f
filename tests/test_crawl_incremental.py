"""Incremental runs' parts: the change measure and the page metadata they key on."""

from __future__ import annotations

import pytest

from newsstemmer.crawl.incremental import article_change, body_change, content_hash
from newsstemmer.dom.parse import parse_html
from newsstemmer.dom.text import visible_text
from newsstemmer.metadata import article_metadata

BASE = "http://127.0.0.1:8765"
PARAS = ["The council met on Monday to discuss the new harbour plan and its costs for the town.",
         "Residents said the ferry timetable had been changed three times since the summer.",
         "The mayor promised a public consultation before any contract is signed next year."]


def test_change_measure_tells_an_update_from_a_body_cut_anew():
    page = "Most read Menu " + " ".join(PARAS) + " Related stories Footer"
    body = "\n".join(PARAS)
    assert content_hash(body) == content_hash("  " + body.replace("\n", " \n ")) != content_hash(body + " x")
    assert body_change(body, body) == 0.0 and body_change("", "") == 0.0 and body_change(body, "") == 1.0
    # a redesign: the new layout also takes the page's menu line, the old one missed a paragraph
    assert article_change("\n".join(PARAS[:2]), page, "Menu\n" + body, page) < 0.02
    # an update: a new passage in the first paragraph
    update = PARAS[0] + " Update: the vote was postponed after a late objection from the fishing association."
    new_page = page.replace(PARAS[0], update)
    assert article_change(body, page, "\n".join([update, *PARAS[1:]]), new_page) > 0.2
    # a removal counts too
    assert article_change(body, page, PARAS[0], "Most read " + PARAS[0]) > 0.5


@pytest.mark.parametrize("head, body, expected", [
    ('<meta property="article:published_time" content="2026-11-22T06:00:00+00:00">', "", "2026-11-22T06:00:00+00:00"),
    ('<script type="application/ld+json">{"@graph": [{"@type": "WebPage"}, {"@type": "NewsArticle", '
     '"datePublished": "2026-11-21"}]}</script>', "", "2026-11-21"),
    ("", '<p>x</p><time datetime="2026-01-01">then</time><time class="published" datetime="2026-11-20T10:00">',
     "2026-11-20T10:00"),
    ('<script type="application/ld+json">{broken</script>', "<p>No date here.</p>", None),
])
def test_published_date_from_page_metadata(head, body, expected):
    tree = parse_html(f'<html><head>{head}<link rel="Canonical" href="/a/b.html"></head><body>{body}</body></html>')
    meta = article_metadata(tree, BASE + "/a/b.html?utm=1")
    assert meta.published == expected and meta.canonical_url == BASE + "/a/b.html"


def test_visible_text_is_the_body_text_with_element_boundaries_kept():
    tree = parse_html("<html><head><title>T</title></head><body><p>Hello <b>there</b></p><p>Bye</p></body></html>")
    assert visible_text(tree).split() == ["Hello", "there", "Bye"]
    assert "thereBye" not in visible_text(tree)


def test_the_change_sketch_measures_as_the_texts_do():
    from newsstemmer.crawl.changesketch import BODY_SAMPLE, PAGE_SAMPLE, ChangeSketch

    rng = __import__("random").Random(7)
    words = [f"w{i}" for i in range(3000)]
    paras = [" ".join(rng.choice(words) for _ in range(60)) for _ in range(12)]
    body, page = "\n".join(paras), "Menu Home World\n" + "\n".join(paras) + "\nMost read " + " ".join(words[:400])
    sketch = ChangeSketch.from_bytes(ChangeSketch.of(body, page).to_bytes())
    assert sketch is not None and len(sketch.body) <= BODY_SAMPLE and len(sketch.page) <= PAGE_SAMPLE
    assert len(ChangeSketch.of(body, page).to_bytes()) <= 11 + 2 * (BODY_SAMPLE + PAGE_SAMPLE)
    # a body cut anew from the same page (a line of the page taken in, a paragraph left out): no change at all
    assert sketch.change("\n".join(paras[:-1]) + "\nMost read " + " ".join(words[:30]), page) == 0.0
    # a paragraph added (a quarter of the new body), one taken out (a twelfth of the old): measured as the texts measure
    added = "\n".join([*paras, " ".join(rng.choice(words) for _ in range(240))])
    exact = article_change(body, page, added, page + "\n" + added)
    assert exact > 0.15 and abs(sketch.change(added, page + "\n" + added) - exact) < 0.1
    removed = "\n".join(paras[1:])
    assert sketch.change(removed, page.replace(paras[0], "")) > 0.02
    # unknown page texts: body against body; damaged records read as nothing
    assert ChangeSketch.of(body).change(body) == 0.0 and ChangeSketch.of(body).change(paras[0]) > 0.5
    assert ChangeSketch.from_bytes(b"") is None and ChangeSketch.from_bytes(b"\x09junk") is None


def test_the_change_sketch_packs_its_fingerprints_by_their_gaps_and_reads_version_1():
    import random
    import struct

    from newsstemmer.crawl.changesketch import ChangeSketch

    rng = random.Random(3)
    for n_body, n_page in ((128, 64), (0, 0), (1, 0), (5, 3), (128, 0), (40, 64)):
        for values in (rng.sample(range(65536), n_body), list(range(n_body)), list(range(65536 - n_body, 65536))):
            sketch = ChangeSketch(rng.getrandbits(32), rng.getrandbits(32), frozenset(values),
                                  frozenset(rng.sample(range(65536), n_page)))
            packed = ChangeSketch.from_bytes(sketch.to_bytes())
            assert packed == sketch
            body, page = sorted(sketch.body), sorted(sketch.page)  # as version 1 stored it: 2 bytes a fingerprint
            v1 = struct.pack("<BIIH", 1, sketch.body_below, sketch.page_below, len(body)) + struct.pack(
                f"<{len(body) + len(page)}H", *body, *page)
            assert ChangeSketch.from_bytes(v1) == sketch
    full = ChangeSketch(1 << 20, 1 << 19, frozenset(rng.sample(range(65536), 128)), frozenset(rng.sample(range(65536), 64)))
    assert len(full.to_bytes()) < 300  # (version 1: 395)
    assert ChangeSketch.from_bytes(full.to_bytes()[:40]) is None  # cut short: damaged


def test_a_sentence_added_to_a_long_article_is_an_update_and_a_body_cut_anew_is_not():
    """A dated sentence added to one paragraph of a 720-word story (repeating one of the story's
    own sentences, as the demo's updates may) is ~10 new shingles: 0-2 of the sketch's ~130
    samples, under the 2 % share; the sketch's lines count the words the paragraph gained
    (issue #26: 38 of the 39 updates a 60-day soak missed)."""
    import random
    import struct

    import dataclasses

    from newsstemmer.crawl.changesketch import EDIT_MIN_WORDS, ChangeSketch

    rng = random.Random(11)
    words = [f"w{i}" for i in range(3000)]
    sentences = [" ".join(rng.choice(words) for _ in range(12)) + "." for _ in range(60)]
    paras = [" ".join(sentences[i:i + 5]) for i in range(0, 60, 5)]
    body = "\n".join(paras)
    page = "Menu Home World Business " + " ".join(["Most read", *paras, "Related stories",
                                                 " ".join(rng.choice(words) for _ in range(80))])
    old = ChangeSketch.from_bytes(ChangeSketch.of(body, page).to_bytes())
    assert old is not None and len(old.lines) == 12
    update = paras[3] + " Update, Monday 23 November 2026: " + sentences[1]
    new_body = "\n".join([*paras[:3], update, *paras[4:]])
    new_page = page.replace(paras[3], update)
    assert old.change(new_body, new_page) < 0.02  # the share misses it
    assert old.added_words(new_body) == len(update.split()) - len(paras[3].split()) >= EDIT_MIN_WORDS
    # a new paragraph of new text (counted when the samples show new text in it: a paragraph of
    # ~11 shingles has none sampled one time in ten)
    fresh = " ".join(rng.choice(words) for _ in range(40))
    assert old.added_words("\n".join([fresh, *paras])) == 40
    # no update: a body cut anew (a line of the page taken in, the last paragraph left out, a paragraph
    # split in two, two merged), a word corrected, the same body
    taken_in = " ".join(page.split("Related stories ")[1].split()[:20])
    half = len(paras[2].split()) // 2
    split = [" ".join(paras[2].split()[:half]), " ".join(paras[2].split()[half:])]
    for cut in ([*paras, taken_in], paras[:-1], [*paras[:2], *split, *paras[3:]],
                [paras[0] + " " + paras[1], *paras[2:]], [paras[0].replace("w", "v", 1), *paras[1:]], paras):
        assert old.added_words("\n".join(cut)) == 0, cut
    # a sketch of version 2 (no lines) is read, and tells changes by its shares only
    v3 = dataclasses.replace(ChangeSketch.of(body, page), joints=None).to_bytes()  # (version 4 without its junction bits)
    n_lines = v3[14]
    v2 = b"\x02" + v3[1:14] + v3[15 + 3 * n_lines:]
    older = ChangeSketch.from_bytes(v2)
    assert older is not None and older.lines == () and older.body == old.body and older.page == old.page
    assert older.added_words(new_body) == 0
    assert struct.unpack_from("<HB", v3, 15) == old.lines[0]


def test_history_schema_2_texts_become_sketches(tmp_path):
    import sqlite3

    from newsstemmer.crawl.storage.records import pack_text
    from newsstemmer.crawl.storage.sqlite_history import ArticleHistory

    body = "\n".join(PARAS)
    page = "Most read Menu " + " ".join(PARAS) + " Related stories Footer"
    conn = sqlite3.connect(tmp_path / "history.sqlite")  # a file as schema 2 wrote it
    conn.executescript("""
        CREATE TABLE articles (key TEXT PRIMARY KEY, site TEXT NOT NULL, url TEXT NOT NULL, content_hash TEXT NOT NULL,
            body BLOB NOT NULL, version INTEGER NOT NULL, first_seen TEXT NOT NULL, emitted TEXT NOT NULL,
            published TEXT, page_text BLOB);
        CREATE INDEX articles_site ON articles (site, emitted);
        CREATE TABLE archived (h INTEGER PRIMARY KEY, day INTEGER NOT NULL);
        PRAGMA user_version = 2;
    """)
    conn.execute("INSERT INTO articles VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                 (BASE + "/a", "s", BASE + "/a?x", content_hash(body), pack_text(body), 2, "2026-11-01T06:00:00+00:00",
                  "2026-11-02T06:00:00+00:00", None, pack_text(page, body)))
    conn.commit()
    conn.close()
    history = ArticleHistory(tmp_path / "history.sqlite")
    old = history.get(BASE + "/a")
    assert (old.url, old.content_hash, old.version, old.first_seen, old.archived) == (
        BASE + "/a?x", content_hash(body), 2, "2026-11-01T06:00:00+00:00", False)
    from newsstemmer.crawl.changesketch import ChangeSketch

    sketch = ChangeSketch.from_bytes(old.sketch)
    update = PARAS[0] + " Update: the vote was postponed after a late objection from the fishing association."
    assert sketch.change("\n".join(PARAS[:2]), page) == 0.0  # measured against the migrated page text
    assert sketch.change("\n".join([update, *PARAS[1:]]), page.replace(PARAS[0], update)) > 0.2
    assert history.recent("s", 5) == [BASE + "/a?x"] and history.count() == 1
    history.close()
    with sqlite3.connect(tmp_path / "history.sqlite") as conn:
        tables = {t for (t,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert tables == {"sent", "archived"} and conn.execute("PRAGMA user_version").fetchone()[0] == 4  # (4: packed times, URLs emptied)


def test_one_page_fingerprint_matching_a_grown_paragraph_does_not_hide_the_update():
    """The sketch keeps 16 bits of each sampled shingle: a new shingle matches one of the page's 64
    one time in ~1,000.  One such match among the grown paragraph's sampled shingles is no body
    cut anew (issue #26: one of a year's soak's 7 missed updates, "Update Tuesday 6 July" read as
    text of the old page); most of them matching is (a line of the page taken in)."""
    import dataclasses
    import random

    from newsstemmer.crawl.changesketch import ChangeSketch, body_shingle_hashes

    rng = random.Random(5)
    words = [f"w{i}" for i in range(3000)]
    paras = [" ".join(rng.choice(words) for _ in range(60)) for _ in range(12)]
    body, page = "\n".join(paras), "Menu " + " ".join(paras) + " Related " + " ".join(rng.choice(words) for _ in range(80))
    old = ChangeSketch.of(body, page)
    assert old.joints and old.joints <= old.page and ChangeSketch.from_bytes(old.to_bytes()) == old  # (version 4)
    update = paras[0] + " Update, Tuesday 6 July 2027: " + " ".join(rng.choice(words) for _ in range(25))
    new_body = "\n".join([update, *paras[1:]])
    sampled = [h for h in body_shingle_hashes(update) if h < old.page_below and h & 0xFFFF not in old.body]
    assert len(sampled) >= 2 and old.added_words(new_body) >= 6
    collided = dataclasses.replace(old, page=old.page | {sampled[0] & 0xFFFF})  # one fingerprint of the page matches
    assert collided.added_words(new_body) == old.added_words(new_body)
    everything = dataclasses.replace(old, page=old.page | {h & 0xFFFF for h in sampled})  # the text was on the page
    assert everything.added_words(new_body) == 0
