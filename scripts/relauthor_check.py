"""Prove that the compiled searches of ``metadata/_hoodwalk.pyx`` find what lxml's do on
every page of the evaluation data (the same elements, in the same order):

* ``rel_author_links`` (``<a rel=author>``: ``tree.iter("a")``, ``rel`` split into
  lower-cased words);
* ``fact_elements``, page facts' one pass: ``tree.iter(*facts._TAGS)`` less the elements
  ``facts._read`` takes nothing from (``_read`` takes the same facts from what is kept, a
  ``<meta>`` given as what it reads), ``tree.iter("time")``, the same links, the
  ``itemprop`` elements (``//*[@itemprop]``), whether the tree holds a ``<dt>`` (post
  headers are looked for only then: the same post headers) and whether a ``<p>`` opens
  with a bold element (the bold line of names the same with this known and without);
* the microdata page facts give with the ``itemprop`` elements known (most pages have
  none: the text is not scanned) and without (the text scanned, the tree searched), for
  every property;
* ``text_marks``, the one scan of the text for the microdata's ``itemprop`` spellings and
  ``<dt><`` (``facts._props_named`` and ``in``).

    python scripts/relauthor_check.py [--data DIR]

Prints the pages, links found, pages that differ (exit 1 if one does) and the CPU time
a page of each.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
if not os.environ.get("PYTHONPATH"):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import newsstemmer  # noqa: E402,F401  (before ``shared``, which puts this checkout first on the path)

from shared import data_dir, load_manifest  # noqa: E402

from newsstemmer import Page  # noqa: E402
from newsstemmer.metadata import _hoodwalk  # noqa: E402
from newsstemmer.metadata.facts import _ITEMPROPS, _TAGS, _ITEMPROP_XPATH, _props_named, _text_scan  # noqa: E402
from newsstemmer.metadata.facts import PageFacts, _read, page_facts  # noqa: E402
from newsstemmer.metadata.threads import post_headers  # noqa: E402
from newsstemmer.metadata.fields import _bold_names_opening  # noqa: E402


def _same(found: list, wanted: list) -> bool:
    return len(found) == len(wanted) and all(a is b for a, b in zip(found, wanted))


def _same_read(found: list, every: list) -> bool:
    """Whether the fact elements the pass keeps are some of ``every`` (``tree.iter(*_TAGS)``)
    in its order, and ``facts._read`` takes the same facts from them as from all."""
    place = {id(el): i for i, el in enumerate(every)}
    at = [place.get(id(el), -1) for el in found if type(el) is not tuple]  # (a tuple: a <meta> as read)
    if -1 in at or at != sorted(set(at)):
        return False
    (a, sa), (b, sb) = (_read_facts(found), _read_facts(every))
    return (dict(a.meta) == dict(b.meta) and sa == sb and (a.canonical, a.title, a.h1) == (b.canonical, b.title, b.h1)
            and _same(a.h1_elements, b.h1_elements))


def _read_facts(elements: list) -> tuple[PageFacts, list[str]]:
    facts, scripts = PageFacts(), []
    _read(facts, elements, scripts)
    return facts, scripts


def _same_microdata(tree: object, html: str) -> bool:
    """Whether the page facts' microdata, property by property (each asked of fresh facts, and
    all of one), are the same with the ``itemprop`` elements known and searched for."""
    for props in [[p] for p in sorted(_ITEMPROPS)] + [sorted(_ITEMPROPS)]:
        known, searched = page_facts(tree, html), page_facts(tree, html)
        searched._itemprop_elements = None
        if known._itemprop_elements is None:
            return False  # (the pass should have found them on a document's root)
        for prop in props:
            a, b = known.microdata(prop), searched.microdata(prop)
            if [v for v, _ in a] != [v for v, _ in b] or not _same([e for _, e in a], [e for _, e in b]):
                return False
        if known._items is not None and known.microdata_order() != searched.microdata_order():
            return False
    return True


def _same_post_headers(tree: Any, html: str, dt: bool) -> bool:
    """Whether the pass's ``<dt>`` flag is right (any element whose local name is ``dt``) and
    the post headers the facts' answer leads to are those of the text's own test."""
    if dt != any(isinstance(el.tag, str) and el.tag.rpartition("}")[2] == "dt" for el in tree.iter()):
        return False
    facts = page_facts(tree, html)
    return _same(post_headers(tree, html if facts.dt_headers_named() else None), post_headers(tree, html))


def _same_bold_line(tree: Any, html: str, bold: bool) -> bool:
    """Whether the pass's bold-paragraph flag is right (a ``<p>`` whose ``p[0]`` is a
    ``<strong>``/``<b>``) and the bold line of names is the same with the flag and without."""
    if bold != any(len(p) and p[0].tag in ("strong", "b") for p in tree.iter("p")):
        return False
    told, searched = page_facts(tree, html), page_facts(tree, html)
    searched.bold_paragraph = None
    return _bold_names_opening(tree, told) == _bold_names_opening(tree, searched)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", help="the evaluation data's folder (default: $NEWSSTEMMER_DATASETS)")
    args = ap.parse_args(argv)
    pages = differ = links = 0
    compiled = python = 0.0
    for entry in load_manifest(data_dir(args.data)):
        try:
            html = entry.html()
        except OSError:
            continue
        tree = Page(html, url=entry.url).tree
        if tree is None:
            continue
        t0 = time.thread_time()
        found = _hoodwalk.rel_author_links(tree)
        t1 = time.thread_time()
        wanted = [el for el in tree.iter("a") if (rel := el.get("rel")) and "author" in rel.lower().split()]
        t2 = time.thread_time()
        compiled, python = compiled + t1 - t0, python + t2 - t1
        pages, links = pages + 1, links + len(wanted)
        facts, times, in_pass, items, dt, bold = _hoodwalk.fact_elements(tree)
        if not (_same(found, wanted) and _same(in_pass, wanted) and _same_read(facts, list(tree.iter(*_TAGS)))
                and _same(times, list(tree.iter("time"))) and _same(items, _ITEMPROP_XPATH(tree))
                and _text_scan(html) == (_props_named(html), "<dt><" in html)
                and _same_microdata(tree, html) and _same_post_headers(tree, html, dt)
                and _same_bold_line(tree, html, bold)):
            differ += 1
            print("differs:", entry.dataset, entry.url)
    print(f"{pages} pages, {links} rel=author links, {differ} pages differ; CPU ms a page of rel_author_links: "
          f"compiled {1000 * compiled / max(pages, 1):.4f}, python {1000 * python / max(pages, 1):.4f}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
