#!/usr/bin/env python3
"""What a method's worst pages lost, line by line: text kept that the gold leaves out, gold missed.

Question: on a set's worst pages under site-grouped CV, which lines cost the F1 (extra text
the gold leaves out, gold text not returned)?  Answer: read by hand into failure kinds, in
the report of the session that ran it (session 25: ``/work/reports/s25/recentloss.md``).

Reads ``benchmarks/cv.py --pages FILE --page-texts`` rows (held-out predictions) and the
golds of the manifest.  A predicted line is *extra* when under half of its 4-token shingles
are in the gold; a gold line is *missed* when under half of its shingles are in the
prediction (the page's shingle multisets, as the F1 counts them).  Per page it prints CV
F1 / P / R, the cost ``1 - F1`` and the extra and missed lines with their token counts.

    python experiments/page_losses.py PAGES.jsonl [--sets fundus-recent,wcxb-dev-articles]
        [--worst 25] [--width 160] [--method region]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

if __name__ == "__main__" and not __package__:  # run as a file: import from the checkout's root
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from benchmarks.shared import add_data_option, data_dir, load_manifest, page_id

from newsstemmer.evaluation import shingles, tokens

#: A line counts as matched when at least this share of its shingles is on the other side.
MATCHED = 0.5


def unmatched_lines(text: str, other: str) -> list[tuple[int, str]]:
    """The lines of ``text`` (token count, line) with under :data:`MATCHED` of their shingles
    in ``other``, in order: each matched shingle is used up, so a second copy of a gold
    line counts as extra (as the F1's multisets count it)."""
    pool = shingles(tokens(other))
    out = []
    for line in text.splitlines():
        toks = tokens(line)
        sh = shingles(toks)
        if not sh:
            continue
        hit = 0
        for s, n in sh.items():
            k = min(n, pool[s])
            hit += k
            pool[s] -= k
        if hit < MATCHED * sum(sh.values()):
            out.append((len(toks), line.strip()))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pages", help="cv.py --pages FILE --page-texts output")
    ap.add_argument("--sets", default="fundus-recent,wcxb-dev-articles")
    ap.add_argument("--method", default="region")
    ap.add_argument("--worst", type=int, default=25)
    ap.add_argument("--width", type=int, default=160, help="characters of each line shown")
    add_data_option(ap)
    args = ap.parse_args(argv)

    golds = {"/".join(page_id(e)): e for e in load_manifest(data_dir(args.data))}
    rows = [json.loads(line) for line in Path(args.pages).read_text(encoding="utf-8").splitlines() if line]
    for name in [s for s in args.sets.split(",") if s]:
        mine = [r for r in rows if r["set"] == name and r["method"] == args.method]
        if not mine:
            print(f"(no rows of {name})")
            continue
        if "predicted" not in mine[0]:
            sys.exit("error: the rows hold no predicted text: run cv.py with --page-texts")
        key = "cv" if "cv" in mine[0] else "dev"
        mine.sort(key=lambda r: r[key])
        total = sum(1 - r[key] for r in mine)
        print(f"## {name}: {len(mine)} pages, sum of (1 - F1) {total:.2f}; the {args.worst} worst ({key})")
        for r in mine[: args.worst]:
            e = golds[r["page"]]
            gold = e.gold()
            pred = r["predicted"]
            extra, missed = unmatched_lines(pred, gold), unmatched_lines(gold, pred)
            print(f"\n### {r['page']} [{r.get('lang')}] F1 {r[key]:.3f} P {r[key + '_p']} R {r[key + '_r']}"
                  f" cost {1 - r[key]:.3f} ({len(tokens(pred))} predicted / {r['gold_words']} gold tokens)")
            print(f"  extra: {sum(n for n, _ in extra)} tokens in {len(extra)} lines")
            for n, line in extra:
                print(f"   + [{n}] {line[: args.width]}")
            print(f"  missed: {sum(n for n, _ in missed)} tokens in {len(missed)} lines")
            for n, line in missed:
                print(f"   - [{n}] {line[: args.width]}")
        print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
