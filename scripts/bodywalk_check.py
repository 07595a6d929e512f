"""Prove that page typing's compiled body walk (``pagetype/_bodywalk.pyx``) counts and
feeds the headline neighbourhood as its Python reference (``features.walk_python``) does.

For every page of the evaluation data (``.html.gz`` included), the demo site's days 1
and 3 and a few thousand generated pages (``pagetype_check.py``'s random nestings), both
walks run on the same tree: without a neighbourhood reading; with page typing's deferred
reading (the headline worked out when the result is asked for); with the metadata's own
reading (headline known); and rooted at each child of ``<body>``.  The counts are
compared exactly, and after each pair the readings' whole state and result (elements by
identity).

    python scripts/bodywalk_check.py [--data DIR] [--datasets a,b] [--generated 3000] [--limit N] [--show 5]

Prints how many walks differ (exit 1 if one does) and the CPU a walk of ``<body>`` takes,
Python against compiled (the two in turn page by page).
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
from newsstemmer.metadata.neighbourhood import HoodWalk, byline_marked  # noqa: E402
from newsstemmer.pagetype import facts_of, features  # noqa: E402


def compiled_walk(root: Any, hood: HoodWalk | None) -> features.BodyCounts:
    """The compiled walk, called as ``features`` calls it."""
    return features._bodywalk.walk(root, hood, features._short_link, features._SHORT_LINK_CACHE, features._roles_of,
                                   features._ROLE_CACHE, byline_marked)


def _same(a: Any, b: Any) -> bool:
    """Equal, elements compared by identity (lists and tuples item by item)."""
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, etree._Element) or isinstance(b, etree._Element):
        return a is b
    return a == b


def _state(reading: HoodWalk | None) -> dict[str, Any]:
    """Everything a walk leaves in ``reading``, and its result (read last: it resolves)."""
    if reading is None:
        return {}
    out = {name: getattr(reading, name) for name in ("lines", "at", "limit", "open", "bylines", "links",
                                                      "h1s", "far", "pending")}
    result = reading.result()
    out.update(result_lines=result.lines, result_at=result.at, result_bylines=result.bylines,
               result_links=result.author_links)
    return {k: (list(v) if isinstance(v, list) else v) for k, v in out.items()}


def _walks(page: Page) -> Iterator[tuple[str, Callable[[], HoodWalk | None], Any]]:
    """(name, a fresh reading or None, root) of each walk compared on ``page``."""
    tree = page.tree
    body = tree.find("body") if tree is not None else None
    facts = facts_of(page)
    yield "alone", (lambda: None), body
    if body is None:
        return
    yield "deferred", (lambda: neighbourhood_walk(facts, deferred=True)), body
    yield "metadata", (lambda: neighbourhood_walk(facts)), body
    for el in body:
        yield "child", (lambda: neighbourhood_walk(facts, deferred=True)), el


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
    if args.generated:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from pagetype_check import _generated  # (its random nestings of the features' tags)

        for i, (url, html) in enumerate(_generated(args.generated)):
            yield f"generated:{i}", url, html


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", help="the evaluation data's folder (default: $NEWSSTEMMER_DATASETS)")
    ap.add_argument("--datasets", help="only these sets (comma-separated; 'demo' for the demo's days 1 and 3)")
    ap.add_argument("--generated", type=int, default=3000, help="generated pages (0: none)")
    ap.add_argument("--limit", type=int, help="only the first N pages")
    ap.add_argument("--show", type=int, default=5, help="walks that differ shown in full")
    args = ap.parse_args(argv)
    if features._bodywalk is None:
        print("the compiled body walk is not built (or not used) here")
        return 2

    pages = walks = 0
    differ: Counter[str] = Counter()
    walks_of: Counter[str] = Counter()
    shown = 0
    cpu = {"python": 0.0, "compiled": 0.0}
    for name, url, html in _pages(args):
        if args.limit is not None and pages >= args.limit:
            break
        pages += 1
        page = Page(html, url=url)
        try:
            walk_list = list(_walks(page))
        except (ValueError, etree.Error) as exc:
            print(f"skipped {name}: {type(exc).__name__}")
            continue
        for i, (kind, fresh, root) in enumerate(walk_list):
            states = {}
            order = (("python", features.walk_python), ("compiled", compiled_walk))
            for label, walk in order if (pages + i) % 2 else order[::-1]:  # (each first in turn: a warm tree)
                reading = fresh()
                t0 = time.process_time()
                try:
                    counts: Any = walk(root, reading)
                except (ValueError, etree.Error) as exc:
                    counts = type(exc).__name__
                if kind == "alone":
                    cpu[label] += time.process_time() - t0
                states[label] = {"counts": counts, **_state(reading)}
            walks += 1
            walks_of[kind] += 1
            old, new = states["python"], states["compiled"]
            gaps = [k for k in old if not _same(old[k], new.get(k))]
            if gaps or set(old) != set(new):
                differ[kind] += 1
                if shown < args.show:
                    shown += 1
                    print(f"differs: {name} {kind}: {', '.join(gaps)}")
                    for k in gaps[:3]:
                        if k == "counts" and isinstance(old[k], tuple) and isinstance(new[k], tuple):
                            for j, (x, y) in enumerate(zip(old[k], new[k])):
                                if not _same(x, y):
                                    print(f"  counts[{j}]: {str(x)[:200]} -> {str(y)[:200]}")
                        else:
                            print(f"  {k}: {str(old[k])[:200]} -> {str(new.get(k))[:200]}")
    n = max(1, walks_of["alone"])
    print(f"newsstemmer from {Path(newsstemmer.__file__).parent.parent}")
    print(f"{walks} walks on {pages} pages, {sum(differ.values())} differ" + (f" ({dict(differ)})" if differ else ""))
    print(f"the walk of <body> alone ({n} walks), CPU a walk: python {1000 * cpu['python'] / n:.4f} ms, "
          f"compiled {1000 * cpu['compiled'] / n:.4f} ms (ratio {cpu['compiled'] / max(cpu['python'], 1e-12):.3f})")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
