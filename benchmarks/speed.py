#!/usr/bin/env python3
"""Speed of learning and extraction, as ratios measured in one process (machines are noisy).

a) Learning growth: learn() on N and on 4N pages drawn from one pool (big9 of both
   years plus cleanportal, as one pseudo-site); report t(4N)/t(N).  Target <= 6
   (linear growth gives 4, quadratic 16).
b) Extraction cost: for every big9-05 site, learn once, then time per page a bare
   lxml parse (``parse_html``), ``extract_with_patterns`` on a fresh Page (so the
   blocks are recomputed), and the same from the page's bytes (``decode_html``
   first); report the ratio extract/parse (target <= 3) and pages/s with decoding
   (target >= 300 on one core).

    python benchmarks/speed.py [--n 50] [--learn-repeat 3] [--extract-repeat 5]
                               [--json FILE] [--data DIR]
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Callable

if __name__ == "__main__" and not __package__:  # run as a file: import from the checkout's root
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from benchmarks.shared import by_site, add_data_option, data_dir, load_manifest

from newsstemmer import Page, extract_with_patterns, learn
from newsstemmer.dom.decoding import decode_html
from newsstemmer.dom.parse import parse_html

POOL_DATASETS = ("big9-05", "big9-09", "cleanportal")
EXTRACT_DATASET = "big9-05"
LEARN_TARGET = 6.0
EXTRACT_TARGET = 3.0
PAGES_PER_S_TARGET = 300.0
SEED = 20240601

_WORDS = (
    "river harbour council budget station festival winter market village ferry "
    "orchard senate bridge library tunnel museum election forecast stadium garden"
).split()


def best_of(repeat: int, fn: Callable[[], object]) -> float:
    """Smallest wall time of ``repeat`` calls of ``fn`` (GC off while timing, as timeit)."""
    best = float("inf")
    for _ in range(repeat):
        gc.collect()
        gc.disable()
        try:
            t0 = time.perf_counter()
            fn()
            dt = time.perf_counter() - t0
        finally:
            gc.enable()
        best = min(best, dt)
    return best


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


# --- a) learning growth -------------------------------------------------------


def unique_paragraph(copy: int, rng: random.Random) -> str:
    words = " ".join(rng.choice(_WORDS) for _ in range(12))
    return f"<p>Copy {copy} note: {words}.</p>"


def replicate(html: str, copy: int, rng: random.Random) -> str:
    """A copy of a page with a unique paragraph added at the end of its body."""
    para = unique_paragraph(copy, rng)
    low = html.lower()
    at = low.rfind("</body>")
    return html[:at] + para + html[at:] if at >= 0 else html + para


def page_set(pool: list[tuple[str, str | None, str]], size: int, rng: random.Random) -> list[tuple[str, str, str]]:
    """``size`` (html, url, source) items: the pool in order, then altered copies as needed."""
    out = []
    for i in range(size):
        html, url, source = pool[i % len(pool)]
        copy = i // len(pool)
        if copy:
            html = replicate(html, copy, rng)
            url = f"{url}?copy={copy}" if url else None
            source = f"{source}#copy{copy}"
        out.append((html, url or f"http://pool.invalid/{source}", source))
    return out


def learning_growth(entries, n: int, repeat: int) -> dict:
    pool = []
    for ds in POOL_DATASETS:
        for site, es in by_site(entries, ds).items():
            for e in es:
                try:
                    pool.append((e.html(), e.url, f"{ds}/{site}/{e.id}"))
                except Exception as exc:
                    log(f"  skipped {ds}/{site}/{e.id}: {exc}")
    rng = random.Random(SEED)
    rng.shuffle(pool)  # mix sites and years; the N set is the first N of the 4N set
    big = page_set(pool, 4 * n, rng)
    rows = []
    for size in (n, 4 * n):
        items = big[:size]
        patterns_found = []

        def run() -> None:
            # Fresh Pages every time: Page caches its blocks, and parsing is part of learning.
            sp = learn([Page(html=h, url=u, source=s) for h, u, s in items], site="pool")
            patterns_found.append(len(sp.patterns))

        log(f"learning on {size} pages (best of {repeat})")
        t = best_of(repeat, run)
        copies = sum(1 for _, _, s in items if "#copy" in s)
        rows.append({"pages": size, "copies": copies, "seconds": t, "patterns": patterns_found[-1]})
    ratio = rows[1]["seconds"] / rows[0]["seconds"]
    return {"pool_pages": len(pool), "n": n, "repeat": repeat, "rows": rows, "ratio": ratio, "target": LEARN_TARGET}


# --- b) extraction vs bare parse ---------------------------------------------


def extraction_cost(entries, repeat: int) -> dict:
    sites = by_site(entries, EXTRACT_DATASET)
    per_site = []
    parse_all: list[float] = []
    extract_all: list[float] = []
    decoded_all: list[float] = []  # decoding + extraction
    unmatched = 0
    for k, (site, es) in enumerate(sites.items(), 1):
        log(f"[extract {k}/{len(sites)}] {site} ({len(es)} pages, best of {repeat} each)")
        docs = [(e.html(), e.url, f"{site}/{e.id}") for e in es]
        raws = [e.html_path.read_bytes() for e in es]
        patterns = learn([Page(html=h, url=u, source=s) for h, u, s in docs])
        parse_t, extract_t, decoded_t = [], [], []
        for (html, url, source), raw in zip(docs, raws):
            parse_t.append(best_of(repeat, lambda: parse_html(html)))
            matched = []

            def run() -> None:
                matched.append(extract_with_patterns(Page(html=html, url=url, source=source), patterns).matched)

            extract_t.append(best_of(repeat, run))
            unmatched += not matched[-1]
            decoded_t.append(
                best_of(
                    repeat,
                    lambda: extract_with_patterns(Page(html=decode_html(raw).text, url=url, source=source), patterns),
                )
            )
        parse_all += parse_t
        extract_all += extract_t
        decoded_all += decoded_t
        per_site.append(
            {
                "site": site,
                "pages": len(docs),
                "parse_ms_median": 1000 * statistics.median(parse_t),
                "extract_ms_median": 1000 * statistics.median(extract_t),
                "ratio": sum(extract_t) / sum(parse_t),
            }
        )
    return {
        "dataset": EXTRACT_DATASET,
        "repeat": repeat,
        "pages": len(parse_all),
        "unmatched": unmatched,
        "parse_ms_median": 1000 * statistics.median(parse_all),
        "extract_ms_median": 1000 * statistics.median(extract_all),
        "ratio": sum(extract_all) / sum(parse_all),
        "ratio_median_page": statistics.median(e / p for e, p in zip(extract_all, parse_all)),
        "parse_pages_per_s": len(parse_all) / sum(parse_all),
        "extract_pages_per_s": len(extract_all) / sum(extract_all),
        "decode_extract_ms_median": 1000 * statistics.median(decoded_all),
        "decode_extract_pages_per_s": len(decoded_all) / sum(decoded_all),
        "target": EXTRACT_TARGET,
        "pages_per_s_target": PAGES_PER_S_TARGET,
        "per_site": per_site,
    }


# --- report --------------------------------------------------------------------


def verdict(value: float, target: float) -> str:
    return "ok" if value <= target else "OVER TARGET"


def report(growth: dict | None, cost: dict) -> str:
    g, c = growth, cost
    lines: list[str] = []
    if g is not None:
        lines += [
            "## a) Learning growth",
            "",
            f"Pool: {g['pool_pages']} pages of {', '.join(POOL_DATASETS)} as one pseudo-site; "
            f"best of {g['repeat']}; altered copies are added when the pool is too small.",
            "",
            "| set | pages | of which copies | patterns | learn() s | ms/page |",
            "|---|---:|---:|---:|---:|---:|",
        ]
        for label, r in zip(("N", "4N"), g["rows"]):
            lines.append(
                f"| {label} | {r['pages']} | {r['copies']} | {r['patterns']} | {r['seconds']:.3f} "
                f"| {1000 * r['seconds'] / r['pages']:.1f} |"
            )
        lines += [
            "",
            f"t(4N)/t(N) = {g['ratio']:.2f} (target <= {g['target']:g}: {verdict(g['ratio'], g['target'])}; "
            "linear = 4, quadratic = 16)",
            "",
        ]
    lines += [
        f"## b) Extraction vs bare lxml parse ({c['dataset']}, learn each site once, best of {c['repeat']} per page)",
        "",
        "| site | pages | parse median ms | extract median ms | extract/parse |",
        "|---|---:|---:|---:|---:|",
    ]
    for s in c["per_site"]:
        lines.append(
            f"| {s['site']} | {s['pages']} | {s['parse_ms_median']:.2f} | {s['extract_ms_median']:.2f} "
            f"| {s['ratio']:.2f} |"
        )
    lines.append(
        f"| **all** | {c['pages']} | {c['parse_ms_median']:.2f} | {c['extract_ms_median']:.2f} | {c['ratio']:.2f} |"
    )
    lines += [
        "",
        f"extract/parse overall (sum of page times) = {c['ratio']:.2f} "
        f"(target <= {c['target']:g}: {verdict(c['ratio'], c['target'])}); "
        f"median of per-page ratios = {c['ratio_median_page']:.2f}",
        f"pages/s: parse {c['parse_pages_per_s']:.1f}, extract {c['extract_pages_per_s']:.1f}, "
        f"decode + extract {c['decode_extract_pages_per_s']:.1f} (one core; target >= "
        f"{c['pages_per_s_target']:g}: {'ok' if c['decode_extract_pages_per_s'] >= c['pages_per_s_target'] else 'BELOW TARGET'}); "
        f"unmatched pages: {c['unmatched']}",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_data_option(ap)
    ap.add_argument("--n", type=int, default=50, help="size N of the small learning set (the large one is 4N)")
    ap.add_argument("--learn-repeat", type=int, default=3, help="learn() runs per set; the best counts")
    ap.add_argument("--extract-repeat", type=int, default=5, help="timed runs per page; the best counts")
    ap.add_argument("--json", metavar="FILE", help="write all figures as JSON")
    ap.add_argument("--extraction-only", action="store_true", help="skip a) learning growth")
    args = ap.parse_args(argv)
    if args.n < 1 or args.learn_repeat < 1 or args.extract_repeat < 1:
        ap.error("--n and the repeat counts must be positive")

    entries = load_manifest(data_dir(args.data))
    t0 = time.perf_counter()
    growth = None if args.extraction_only else learning_growth(entries, args.n, args.learn_repeat)
    cost = extraction_cost(entries, args.extract_repeat)
    elapsed = time.perf_counter() - t0
    log(f"done in {elapsed:.1f}s")
    print(report(growth, cost))
    if args.json:
        out = {"python": sys.version.split()[0], "learning": growth, "extraction": cost, "elapsed_s": elapsed}
        Path(args.json).write_text(json.dumps(out, indent=1), encoding="utf-8")
        log(f"figures written to {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
