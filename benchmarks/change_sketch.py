#!/usr/bin/env python3
"""The change sketch against the texts it replaces: does it send the same updates?

An incremental crawl measures an article's change from the last version it sent
(:func:`newsstemmer.crawl.incremental.article_change`, on the old body and page text)
or, since issue #26's per-article state work, from a fixed-size sketch of them
(:class:`newsstemmer.crawl.changesketch.ChangeSketch`).  This script edits real
articles as their sites do and as a crawl sees them, and counts how often the two
decisions (change ≥ ``--threshold``, the ``NEWSSTEMMER_UPDATE_MIN_CHANGE`` default
0.02) differ.  Each page of the sets (gold text as the body, the page's visible text as
the page) is edited once per kind, at random (seeded by the page):

* ``recut+line``: the body also takes the dozen words of its page right after (or before) it (a new layout); no change;
* ``recut-para``: the body loses its last paragraph, the page keeps it (a new layout); no change;
* ``add-para``: a paragraph of another article added to body and page (an update);
* ``append``: a sentence of another article appended to one paragraph (an update);
* ``remove-para``: one paragraph gone from body and page (a correction);
* ``edit-word``: one word replaced in one paragraph (below the threshold on long articles).

    python benchmarks/change_sketch.py [--datasets misinfo,fundus-recent,wcxb-dev-articles,readability]
                                      [--limit 400] [--threshold 0.02] [--data DIR]

Prints, per kind: pages, the exact measure's updates, the sketch's, both ways of
disagreeing, the mean absolute difference of the two measures, and what the crawl sends
(the sketch's share, or at least ``EDIT_MIN_WORDS`` words added told by the sketch's lines:
:meth:`~newsstemmer.crawl.changesketch.ChangeSketch.added_words`); and the bytes kept per
article (texts zlib-compressed as the history kept them, against the sketch).
"""

from __future__ import annotations

import argparse
import pickle
import random
import sys
import time
import zlib
from pathlib import Path

if __name__ == "__main__" and not __package__:  # run as a file: import from the checkout's root
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from benchmarks.shared import add_data_option, data_dir, load_manifest
from benchmarks.shared.data import select

from newsstemmer.crawl import changesketch
from newsstemmer.crawl.changesketch import ChangeSketch
from newsstemmer.crawl.incremental import article_change
from newsstemmer.dom.parse import parse_html
from newsstemmer.dom.text import visible_text
from newsstemmer.evaluation import tokens

CACHE = Path("/tmp/newsstemmer-bench")  # the pages' texts, parsed once
KINDS = ("recut+line", "recut-para", "add-para", "append", "remove-para", "edit-word")


def _paragraphs(text: str) -> list[str]:
    return [line.strip() for line in text.split("\n") if len(tokens(line)) >= 4]


def edited(kind: str, body: list[str], page: str, other: list[str], rng: random.Random) -> tuple[str, str] | None:
    """The new (body, page) after an edit of ``kind``; None when the page does not allow it."""
    if kind == "recut+line":  # the words next to the body (a caption, standfirst, byline or related box)
        start, end = page.find(body[0]), page.rfind(body[-1])
        if start < 0 or end < 0:
            return None
        before, after = page[:start].split()[-12:], page[end + len(body[-1]):].split()[:12]
        extra = " ".join(after if len(tokens(" ".join(after))) >= 4 else before)
        if len(tokens(extra)) < 4:
            return None
        return "\n".join([*body, extra]), page
    if kind == "recut-para":
        return ("\n".join(body[:-1]), page) if len(body) >= 2 else None
    if kind == "add-para":
        para = rng.choice(other)
        at = rng.randrange(len(body) + 1)
        return "\n".join([*body[:at], para, *body[at:]]), page + "\n" + para
    i = rng.randrange(len(body))
    old = body[i]
    if old not in page:
        return None
    if kind == "append":
        words = rng.choice(other).split()
        new = old + " " + " ".join(words[: rng.randint(12, 25)])
    elif kind == "remove-para":
        if len(body) < 2:
            return None
        return "\n".join(body[:i] + body[i + 1:]), page.replace(old, "", 1)
    else:  # edit-word
        words = old.split()
        j = rng.randrange(len(words))
        words[j] = "corrected" if words[j] != "corrected" else "amended"
        new = " ".join(words)
    return "\n".join([*body[:i], new, *body[i + 1:]]), page.replace(old, new, 1)


def _cases(pages: list[tuple[list[str], str]], args: argparse.Namespace) -> list[tuple[int, str, str, str, float]]:
    """Every page's edits with the change the texts measure (cached: the exact measure is slow on long pages)."""
    cache = CACHE / f"change_sketch-cases-{args.datasets.replace(',', '_')}-{args.limit}.pickle"
    if cache.exists():
        return pickle.loads(cache.read_bytes())
    out = []
    for n, (body, page) in enumerate(pages):
        other = _paragraphs("\n".join(pages[(n + 1) % len(pages)][0])) or ["nothing else was said in this place"]
        for kind in KINDS:
            new = edited(kind, body, page, other, random.Random(f"{n}:{kind}"))
            if new is not None:
                out.append((n, kind, *new, article_change("\n".join(body), page, *new)))
    cache.write_bytes(pickle.dumps(out))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--datasets", default="misinfo,fundus-recent,wcxb-dev-articles,readability")
    ap.add_argument("--limit", type=int, default=400, help="pages per set (the first ones)")
    ap.add_argument("--threshold", type=float, default=0.02)
    add_data_option(ap)
    ap.add_argument("--sizes", metavar="BODY,PAGE,NEAR", help="other sketch sizes than the shipped ones (to compare)")
    args = ap.parse_args(argv)
    if args.sizes:
        changesketch.BODY_SAMPLE, changesketch.PAGE_SAMPLE, changesketch.NEAR = (int(x) for x in args.sizes.split(","))
    entries = load_manifest(data_dir(args.data))
    cache = CACHE / f"change_sketch-{args.datasets.replace(',', '_')}-{args.limit}.pickle"
    pages: list[tuple[list[str], str]] = pickle.loads(cache.read_bytes()) if cache.exists() else []
    for name in [] if pages else args.datasets.split(","):
        for e in select(entries, name)[: args.limit]:
            body = _paragraphs(e.gold())
            if len(body) < 1:
                continue
            try:
                page = visible_text(parse_html(e.html()))
            except Exception:  # noqa: BLE001 - a page that does not parse is left out
                continue
            pages.append((body, page))
    if not cache.exists():
        cache.parent.mkdir(parents=True, exist_ok=True)
        cache.write_bytes(pickle.dumps(pages))
    cases = _cases(pages, args)  # (page index, kind, new body, new page, exact change)
    rows = {k: [0, 0, 0, 0, 0, 0.0, 0] for k in KINDS}  # pages, exact, sketch, missed, extra, |diff|, sketch or lines
    texts_bytes = sketch_bytes = 0
    t_sketch = 0.0
    sketches = []
    for body, page in pages:
        old_body = "\n".join(body)
        t = time.perf_counter()
        packed = ChangeSketch.of(old_body, page).to_bytes()
        t_sketch += time.perf_counter() - t
        sketch_bytes += len(packed)
        c = zlib.compressobj(1, zdict=old_body.encode())
        texts_bytes += len(zlib.compress(old_body.encode(), 1)) + len(c.compress(page.encode()) + c.flush())
        sketches.append(ChangeSketch.from_bytes(packed))
    for n, kind, new_body, new_page, exact in cases:
        t = time.perf_counter()
        est = sketches[n].change(new_body, new_page)
        grew = sketches[n].added_words(new_body)
        t_sketch += time.perf_counter() - t
        row = rows[kind]
        row[0] += 1
        row[1] += exact >= args.threshold
        row[2] += est >= args.threshold
        row[3] += exact >= args.threshold > est
        row[4] += est >= args.threshold > exact
        row[5] += abs(est - exact)
        row[6] += est >= args.threshold or grew >= changesketch.EDIT_MIN_WORDS
    print(f"{len(pages)} pages ({args.datasets}), threshold {args.threshold}, sketch of {changesketch.BODY_SAMPLE} "
          f"body and {changesketch.PAGE_SAMPLE} page shingles ({changesketch.NEAR} around the body)\n")
    print("| edit | pages | updates (texts) | updates (sketch) | missed | extra | mean abs diff | sent (sketch or lines) |")
    print("|---|---|---|---|---|---|---|---|")
    for kind, (k, exact, est, missed, extra, diff, lines) in rows.items():
        print(f"| {kind} | {k} | {exact} | {est} | {missed} | {extra} | {diff / max(k, 1):.4f} | {lines} |")
    total = [sum(r[i] for r in rows.values()) for i in range(7)]
    print(f"| all | {total[0]} | {total[1]} | {total[2]} | {total[3]} | {total[4]} | | {total[6]} |")
    print(f"\nbytes an article: texts {texts_bytes / len(pages):.0f} (body + page, zlib), sketch {sketch_bytes / len(pages):.0f}")
    print(f"CPU: sketch made and measured {1000 * t_sketch / len(pages):.2f} ms a page (all its edits)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
