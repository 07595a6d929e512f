"""Prove that the headline neighbourhood's walk (``HoodWalk.walk``) reads as main's did.

Session 22 made the walk lighter (steps inline, skipped subtrees not walked).  This
script keeps a reference of the walk before that change (:func:`reference_walk`: one
``iterwalk`` over everything, a depth counter for skipped elements, every element
through ``HoodWalk.start`` and every text through ``HoodWalk.add_line``, which the
change left as they were) and runs both, on fresh readings of the same tree, for every
page of the evaluation data (``.html.gz`` included) and the demo site's days 1 and 3.

Per page, the walks compared are: the metadata's own reading of ``<body>``; page
typing's deferred reading of it (the headline worked out when the result is asked
for); a reading with each of the first three ``<h1>`` as the headline; one without
``<h1>`` whose headline is an ``<h2>``/``<h3>`` agreeing with the page's titles; and
readings rooted at each element page typing hands to the walk (``<iframe>``,
``<select>``, ``<option>``) and at each child of ``<body>``, with and without the
root's tail.  After each pair of walks the whole state (lines, headline line, limit,
open, bylines, author links, the deferred reading's ``<h1>`` notes) and the result are
compared; elements by identity.

    python scripts/hoodwalk_check.py [--data DIR] [--datasets a,b] [--limit N] [--show 5]

Prints how many walks differ (exit 1 if one does) and the time a walk takes, reference
against the walk of the checkout on ``PYTHONPATH`` (the metadata's reading of
``<body>``: the walk the chain runs; CPU of the walks alone, the two in turn page by page).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
if not os.environ.get("PYTHONPATH"):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import newsstemmer  # noqa: E402  (before ``shared``, which puts this checkout first on the path)

from lxml import etree  # noqa: E402

from shared import data_dir, load_manifest  # noqa: E402

from newsstemmer import Page  # noqa: E402
from newsstemmer.metadata.fields import neighbourhood_walk  # noqa: E402
from newsstemmer.metadata.neighbourhood import SKIP_TAGS, HoodWalk, title_words  # noqa: E402
from newsstemmer.pagetype import facts_of  # noqa: E402

#: the elements page typing's walk passes over but hands to the neighbourhood's walk
_HANDED = ("iframe", "select", "option")


def reference_walk(reading: HoodWalk, root: Any, with_tail: bool = True) -> None:
    """Main's walk before session 22: every event of ``root``'s subtree visited, a
    depth counter over skipped elements (:data:`SKIP_TAGS`; the tail of the outermost
    is read), comments and processing instructions passed over with their tails."""
    depth_skipped = 0
    for event, el in etree.iterwalk(root, events=("start", "end")):
        tag = el.tag
        if not isinstance(tag, str):
            continue
        if event == "start":
            if depth_skipped or tag in SKIP_TAGS:
                depth_skipped += 1
                continue
            reading.start(el, tag, el.get("class") or el.get("id"))
            if el.text and el.text.strip():
                reading.add_line(el.text)
        else:
            if depth_skipped:
                depth_skipped -= 1
                if depth_skipped:
                    continue
            if el.tail and el.tail.strip() and (with_tail or el is not root):
                reading.add_line(el.tail)
        if not reading.open:
            return


def _new_walk(reading: HoodWalk, root: Any, with_tail: bool = True) -> None:
    reading.walk(root, with_tail=with_tail)


def _same(a: Any, b: Any) -> bool:
    """Equal, elements compared by identity (lists and tuples item by item)."""
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, etree._Element) or isinstance(b, etree._Element):
        return a is b
    return a == b


def _state(reading: HoodWalk) -> dict[str, Any]:
    """Everything a walk leaves in ``reading``, and its result (read last: it resolves)."""
    out = {name: getattr(reading, name) for name in ("lines", "at", "limit", "open", "bylines", "links",
                                                      "h1s", "far", "pending")}
    result = reading.result()
    out.update(result_lines=result.lines, result_at=result.at, result_bylines=result.bylines,
               result_links=result.author_links)
    return {k: (list(v) if isinstance(v, list) else v) for k, v in out.items()}


def _readings(page: Page) -> Iterator[tuple[str, Callable[[], HoodWalk], Any, bool]]:
    """(name, a fresh reading, root, with_tail) of each walk compared on ``page``."""
    tree = page.tree
    body = tree.find("body") if tree is not None else None
    if body is None:
        return
    facts = facts_of(page)
    yield "metadata", lambda: neighbourhood_walk(facts), body, True
    yield "deferred", lambda: neighbourhood_walk(facts, deferred=True), body, True
    for i, h1 in enumerate(facts.h1_elements[:3]):
        yield f"h1-{i}", (lambda h1=h1: HoodWalk(True, h1, [])), body, True
    lower = [el for el in body.iter("h2", "h3")][:3]
    own = [title_words(" ".join("".join(el.itertext()).split())) for el in lower]
    own += [title_words(t) for t in [facts.title, *facts.meta.get("og:title", ())] if t]
    if own:
        yield "no-h1", (lambda: HoodWalk(False, None, own)), body, True
    for el in body.iter(*_HANDED):
        yield f"handed-{el.tag}", (lambda: neighbourhood_walk(facts, deferred=True)), el, False
    for el in body:
        if isinstance(el.tag, str):
            for tail in (False, True):
                yield "child", (lambda: neighbourhood_walk(facts)), el, tail


def _pages(args: argparse.Namespace) -> Iterator[tuple[str, str | None, str]]:
    """(name, URL, HTML) of every page walked."""
    from newsstemmer.demo.site import build_site

    wanted = set(args.datasets.split(",")) if args.datasets else None
    for e in load_manifest(data_dir(args.data)):
        if wanted is None or e.dataset in wanted:
            yield f"data:{e.dataset}/{e.site}/{e.id}", e.url, e.html()
    if wanted is None or "demo" in wanted:
        for day in (1, 3):
            for p in build_site(7, 120, day):
                yield f"demo{day}:{p.path}", "http://demo.test" + p.path, p.decoded


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", help="the evaluation data's folder (default: $NEWSSTEMMER_DATASETS)")
    ap.add_argument("--datasets", help="only these sets (comma-separated; 'demo' for the demo's days 1 and 3)")
    ap.add_argument("--limit", type=int, help="only the first N pages")
    ap.add_argument("--show", type=int, default=5, help="walks that differ shown in full")
    args = ap.parse_args(argv)

    pages = walks = 0
    differ: Counter[str] = Counter()
    walks_of: Counter[str] = Counter()
    shown = 0
    cpu = {"reference": 0.0, "new": 0.0}
    for name, url, html in _pages(args):
        if args.limit is not None and pages >= args.limit:
            break
        pages += 1
        page = Page(html, url=url)
        try:
            readings = list(_readings(page))
        except (ValueError, etree.Error) as exc:
            print(f"skipped {name}: {type(exc).__name__}")
            continue
        for i, (kind, fresh, root, with_tail) in enumerate(readings):
            states = {}
            order = (("reference", reference_walk), ("new", _new_walk))
            for label, walk in order if (pages + i) % 2 else order[::-1]:  # (each first in turn: a warm tree)
                reading = fresh()
                t0 = time.process_time()
                try:
                    walk(reading, root, with_tail)
                    error = None
                except (ValueError, etree.Error) as exc:
                    error = type(exc).__name__
                if kind == "metadata":
                    cpu[label] += time.process_time() - t0
                states[label] = _state(reading) if error is None else {"error": error}
            walks += 1
            walks_of[kind] += 1
            old, new = states["reference"], states["new"]
            gaps = [k for k in old if not _same(old[k], new.get(k))]
            if gaps or set(old) != set(new):
                differ[kind] += 1
                if shown < args.show:
                    shown += 1
                    print(f"differs: {name} {kind} (with_tail={with_tail}): {', '.join(gaps)}")
                    for k in gaps[:3]:
                        print(f"  {k}: {str(old[k])[:200]} -> {str(new.get(k))[:200]}")
    n_meta = max(1, walks_of["metadata"])
    print(f"newsstemmer from {Path(newsstemmer.__file__).parent.parent}")
    print(f"{walks} walks on {pages} pages, {sum(differ.values())} differ" + (f" ({dict(differ)})" if differ else ""))
    print(f"the metadata's walk of <body> ({n_meta} walks), CPU a walk: "
          f"reference {1000 * cpu['reference'] / n_meta:.4f} ms, "
          f"new {1000 * cpu['new'] / n_meta:.4f} ms (ratio {cpu['new'] / max(cpu['reference'], 1e-12):.3f})")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
