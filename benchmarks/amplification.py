#!/usr/bin/env python3
"""Substring amplification (SPEC §3, issue #4): grouping quality, learning with pre-grouping, growth.

    python benchmarks/amplification.py [--datasets big9-09,big9-05,cleanportal]
                                       [--sizes 1000,10000] [--skip-scale] [--skip-learning]
                                       [--max-gb 8] [--json FILE] [--data DIR]

A) Grouping mixed pages of many sites.  All pages of a dataset (big9-09: 9 sites x 10
   pages; big9-05; cleanportal) are given together to ``amplify``; the groups are
   compared with the site labels: share of pages grouped, purity (pages of a group's
   majority site / grouped pages), adjusted Rand index (every ungrouped page its own
   cluster).  Raw HTML and tag skeletons, automatic boundary (alpha) and a fixed delta.
   Targets: purity >= 0.9 and >= 80% of pages grouped.

B) Learning with pre-grouping.  Per site, and with all pages of a dataset pooled as one
   pseudo-site: ``learn`` on all pages, against ``pregroup`` then ``learn`` on each
   group's pages (each page extracted with its own group's patterns).  Shingle F1
   (``newsstemmer.evaluation.evaluate``, prediction as in quality.py) and time ratio
   (pre-grouping included).  Also all pages of big9-05, big9-09, cleanportal and
   dragnet (about 1,000 pages, 270 sites) pooled as one pseudo-site, where learning's
   clustering has many layouts to compare with.

C) Growth.  1,000 and 10,000 pages made from all dev pages, shuffled once (copies get
   a copy-specific comment and paragraph, so no two pages are identical); each measurement runs in its
   own process: time of amplify + groups (skeleton: plus making the skeletons) and peak
   RSS (ru_maxrss, the pages themselves included).  Raw HTML at a size whose peak is
   estimated (from the smaller size) above --max-gb is not run, and the estimate is
   reported.  Targets: t(10x)/t(1x) <= 12; 10,000 pages <= 8 GB.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import resource
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

if __name__ == "__main__" and not __package__:  # run as a file: import from the checkout's root
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from benchmarks.shared import Entry, by_site, add_data_option, data_dir, load_manifest, prediction

from newsstemmer import Page, extract_with_patterns, learn
from newsstemmer.templates import DEFAULT_ALPHA, DEFAULT_DELTA, amplify, pregroup, skeleton
from newsstemmer.evaluation import evaluate

DATASETS = ("big9-09", "big9-05", "cleanportal")
POOLED = ("big9-05", "big9-09", "cleanportal", "dragnet")
PURITY_TARGET, GROUPED_TARGET, GROWTH_TARGET, MEMORY_TARGET_GB = 0.9, 0.8, 12.0, 8.0


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


# -- measures ------------------------------------------------------------------------------


def adjusted_rand_index(labels: list, predicted: list) -> float:
    """ARI of two labelings of the same items (Hubert & Arabie)."""
    n = len(labels)
    if n < 2:
        return 1.0
    pairs = lambda c: sum(v * (v - 1) // 2 for v in c.values())  # noqa: E731
    index = pairs(Counter(zip(labels, predicted)))
    a, b = pairs(Counter(labels)), pairs(Counter(predicted))
    expected = a * b / (n * (n - 1) / 2)
    top = (a + b) / 2
    return 1.0 if top == expected else (index - expected) / (top - expected)


def grouping_scores(groups: list[list[int]], labels: list[str]) -> dict:
    grouped = sum(len(g) for g in groups)
    majority = sum(Counter(labels[i] for i in g).most_common(1)[0][1] for g in groups)
    predicted: list = [("alone", i) for i in range(len(labels))]
    for k, g in enumerate(groups):
        for i in g:
            predicted[i] = k
    return {
        "groups": len(groups),
        "grouped": grouped / len(labels),
        "purity": majority / grouped if grouped else 0.0,
        "ari": adjusted_rand_index(labels, predicted),
    }


# -- A) grouping ------------------------------------------------------------------------------


def grouping_quality(entries: list[Entry], datasets: list[str]) -> list[dict]:
    rows = []
    for ds in datasets:
        pages = [e for e in entries if e.dataset == ds]
        texts = [e.html() for e in pages]
        labels = [e.site for e in pages]
        for variant in ("raw", "skeleton"):
            t0 = time.perf_counter()
            docs = [skeleton(t) for t in texts] if variant == "skeleton" else texts
            t_skel = time.perf_counter() - t0
            t0 = time.perf_counter()
            amp = amplify(docs)
            t_amp = time.perf_counter() - t0
            for name, kw in ((f"alpha {DEFAULT_ALPHA:g}", {"alpha": DEFAULT_ALPHA}),
                             (f"delta {DEFAULT_DELTA:g}", {"delta": DEFAULT_DELTA})):
                t0 = time.perf_counter()
                g = amp.groups(**kw)
                t_group = time.perf_counter() - t0
                row = {"dataset": ds, "sites": len(set(labels)), "pages": len(pages), "text": variant,
                       "bytes": amp.n_bytes, "boundary": name, "peaks": len(g.peaks),
                       **grouping_scores(g.groups, labels),
                       "seconds": round(t_skel + t_amp + t_group, 2)}
                rows.append(row)
                log(f"grouping {ds} {variant} {name}: purity {row['purity']:.3f} grouped {row['grouped']:.3f}")
    return rows


# -- B) learning with pre-grouping ------------------------------------------------------------------


def learn_and_extract(entries: list[Entry], texts: list[str], parts: list[list[int]], site: str) -> tuple[list, float]:
    """Learn each part, extract its pages with its patterns; predictions in entry order, seconds learning."""
    preds = [""] * len(entries)
    seconds = 0.0
    for part in parts:
        pages = [Page(html=texts[i], url=entries[i].url, source=f"{entries[i].site}/{entries[i].id}") for i in part]
        t0 = time.perf_counter()
        patterns = learn(pages, site=site) if len(pages) >= 2 else None
        seconds += time.perf_counter() - t0
        for i, page in zip(part, pages):
            if patterns is None:
                continue
            art = extract_with_patterns(page, patterns)
            preds[i] = prediction(art.title, art.body, entries[i].gold_has_title)
    return preds, seconds


def learning_comparison(entries: list[Entry], datasets: list[str]) -> list[dict]:
    rows = []
    for ds in datasets:
        sets = [(site, es) for site, es in by_site(entries, ds).items()]
        sets.append(("(all sites pooled)", [e for e in entries if e.dataset == ds]))
        per_site_pairs = {"without": [], "with": []}
        t_without = t_with = 0.0
        for site, es in sets:
            texts = [e.html() for e in es]
            golds = [e.gold() for e in es]
            everything = [list(range(len(es)))]
            pred0, s0 = learn_and_extract(es, texts, everything, site)
            t0 = time.perf_counter()
            parts = pregroup(texts)
            t_pre = time.perf_counter() - t0
            pred1, s1 = learn_and_extract(es, texts, parts, site)
            f0 = evaluate(zip(pred0, golds)).f1
            f1 = evaluate(zip(pred1, golds)).f1
            row = {"dataset": ds, "site": site, "pages": len(es), "groups": len(parts),
                   "f1_without": f0, "f1_with": f1, "learn_s": s0, "pregroup_s": t_pre, "learn_groups_s": s1,
                   "time_ratio": (t_pre + s1) / s0 if s0 else math.nan}
            rows.append(row)
            if not site.startswith("("):
                per_site_pairs["without"] += list(zip(pred0, golds))
                per_site_pairs["with"] += list(zip(pred1, golds))
                t_without += s0
                t_with += t_pre + s1
            log(f"learning {ds} {site}: F1 {f0:.3f} -> {f1:.3f}, {len(parts)} groups, time x{row['time_ratio']:.2f}")
        rows.append({"dataset": ds, "site": "(per site, total)", "pages": len(per_site_pairs["with"]),
                     "groups": None, "f1_without": evaluate(per_site_pairs["without"]).f1,
                     "f1_with": evaluate(per_site_pairs["with"]).f1, "learn_s": t_without,
                     "pregroup_s": None, "learn_groups_s": None,
                     "time_ratio": t_with / t_without if t_without else math.nan})
    return rows


def pooled_learning(entries: list[Entry], datasets: list[str]) -> dict:
    """All pages of several sets (many sites, many layouts) learned as one pseudo-site."""
    es = [e for e in entries if e.dataset in datasets]
    texts = [e.html() for e in es]
    golds = [e.gold() for e in es]
    pred0, s0 = learn_and_extract(es, texts, [list(range(len(es)))], "pool")
    t0 = time.perf_counter()
    parts = pregroup(texts)
    t_pre = time.perf_counter() - t0
    pred1, s1 = learn_and_extract(es, texts, parts, "pool")
    row = {"dataset": "+".join(datasets), "site": "(all pooled)", "pages": len(es), "groups": len(parts),
           "f1_without": evaluate(zip(pred0, golds)).f1, "f1_with": evaluate(zip(pred1, golds)).f1,
           "learn_s": s0, "pregroup_s": t_pre, "learn_groups_s": s1, "time_ratio": (t_pre + s1) / s0}
    log(f"learning pooled {row['pages']} pages: F1 {row['f1_without']:.3f} -> {row['f1_with']:.3f}, "
        f"learn {s0:.1f} s -> pregroup {t_pre:.1f} s + learn {s1:.1f} s")
    return row


# -- C) growth ------------------------------------------------------------------------------------------


_WORDS = "harbour council market winter station river library museum bridge garden forest valley".split()


def replicate(html: str, copy: int, rng: random.Random) -> str:
    """A copy of a page with a copy-specific comment after <body> and a paragraph before </body>."""
    words = " ".join(rng.choice(_WORDS) for _ in range(12))
    low = html.lower()
    at = low.rfind("</body>")
    html = html[:at] + f"<p>Copy {copy}: {words}.</p>" + html[at:] if at >= 0 else html + f"<p>{words}</p>"
    at = low.find("<body")
    end = html.find(">", at) + 1 if at >= 0 else 0
    return html[:end] + f"<!-- copy {copy} {rng.random():.6f} -->" + html[end:]


def page_set(root: Path, size: int) -> list[str]:
    """``size`` pages: all dev pages in one shuffled order (same for every size), then altered copies."""
    entries = load_manifest(root)
    random.Random(0).shuffle(entries)
    pool = [e.html() for e in entries]
    rng = random.Random(size)
    out = []
    for i in range(size):
        copy, html = i // len(pool), pool[i % len(pool)]
        out.append(replicate(html, copy, rng) if copy else html)
    return out


def scale_worker(root: Path, size: int, variant: str) -> dict:
    pages = page_set(root, size)
    t0 = time.perf_counter()
    docs = [skeleton(p) for p in pages] if variant == "skeleton" else pages
    t_skel = time.perf_counter() - t0
    t0 = time.perf_counter()
    amp = amplify(docs)
    t_amp = time.perf_counter() - t0
    t0 = time.perf_counter()
    g = amp.groups()
    t_group = time.perf_counter() - t0
    return {"pages": size, "text": variant, "bytes": amp.n_bytes,
            "skeleton_s": round(t_skel, 2), "amplify_s": round(t_amp, 2), "groups_s": round(t_group, 2),
            "seconds": round(t_skel + t_amp + t_group, 2), "groups": len(g.groups),
            "grouped": round(1 - len(g.ungrouped) / size, 3),
            "peak_gb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024**2, 3)}


def growth(root: Path, sizes: list[int], max_gb: float) -> list[dict]:
    rows = []
    for variant in ("skeleton", "raw"):
        prev = None
        for size in sizes:
            if prev and variant == "raw":
                estimate = prev["peak_gb"] * size / prev["pages"]
                if estimate > max_gb:
                    rows.append({"pages": size, "text": variant, "skipped": True, "estimated_peak_gb": round(estimate, 1)})
                    log(f"growth {variant} {size}: skipped, estimated peak {estimate:.1f} GB > {max_gb} GB")
                    continue
            cmd = [sys.executable, __file__, "--data", str(root), "--_worker", f"{size}:{variant}"]
            log(f"growth {variant} {size} pages ...")
            out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
            row = json.loads(out.strip().splitlines()[-1])
            if prev:
                row["time_ratio"] = round(row["seconds"] / prev["seconds"], 2)
                row["size_ratio"] = size / prev["pages"]
            rows.append(row)
            prev = row
            log(f"growth {variant} {size}: {row['seconds']} s, peak {row['peak_gb']} GB")
    return rows


# -- report ------------------------------------------------------------------------------------------------


def table(rows: list[dict], cols: list[tuple[str, str, str]]) -> str:
    head = "| " + " | ".join(c[1] for c in cols) + " |"
    sep = "|" + "|".join("---" for _ in cols) + "|"
    lines = [head, sep]
    for r in rows:
        cells = []
        for key, _, fmt in cols:
            v = r.get(key)
            cells.append("" if v is None else (format(v, fmt) if fmt and isinstance(v, (int, float)) else str(v)))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_data_option(ap)
    ap.add_argument("--datasets", default=",".join(DATASETS))
    ap.add_argument("--sizes", default="1000,10000")
    ap.add_argument("--max-gb", type=float, default=MEMORY_TARGET_GB)
    ap.add_argument("--skip-scale", action="store_true")
    ap.add_argument("--skip-learning", action="store_true")
    ap.add_argument("--json")
    ap.add_argument("--_worker", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    root = data_dir(args.data)
    if args._worker:
        size, variant = args._worker.split(":")
        print(json.dumps(scale_worker(root, int(size), variant)))
        return 0
    entries = load_manifest(root)
    datasets = [d for d in args.datasets.split(",") if d]
    results: dict = {}

    results["grouping"] = rows = grouping_quality(entries, datasets)
    print("## A) Grouping mixed pages of many sites\n")
    print(table(rows, [("dataset", "set", ""), ("sites", "sites", "d"), ("pages", "pages", "d"), ("text", "text", ""),
                       ("boundary", "boundary", ""), ("peaks", "peaks", "d"), ("groups", "groups", "d"),
                       ("grouped", "grouped", ".3f"), ("purity", "purity", ".3f"), ("ari", "ARI", ".3f"),
                       ("seconds", "s", ".2f")]))
    print(f"\nTargets: purity >= {PURITY_TARGET}, grouped >= {GROUPED_TARGET}.")

    if not args.skip_learning:
        results["learning"] = rows = learning_comparison(entries, datasets)
        pooled = [d for d in POOLED if d in {e.dataset for e in entries}]
        results["learning_pooled"] = big = pooled_learning(entries, pooled)
        print("\n## B) Learning with pre-grouping (pregroup: tag skeletons, automatic boundary)\n")
        shown = [r for r in rows if r["site"].startswith("(")] + [big]
        print(table(shown, [("dataset", "set", ""), ("site", "pages learned as", ""), ("pages", "pages", "d"),
                            ("f1_without", "F1 without", ".3f"), ("f1_with", "F1 with", ".3f"),
                            ("groups", "groups", "d"), ("learn_s", "learn s (without)", ".2f"),
                            ("time_ratio", "time with/without", ".2f")]))
        print("\n'(per site, total)': each site learned on its own, then all pages scored together;"
              " '(all sites pooled)': all pages of the set learned as one pseudo-site; '(all pooled)': the"
              f" pages of {', '.join(pooled)} (many sites and layouts) learned as one pseudo-site."
              " Time with = pregroup (skeletons + amplify + groups) + learning each group.")

    if not args.skip_scale:
        sizes = [int(s) for s in args.sizes.split(",") if s]
        results["growth"] = rows = growth(root, sizes, args.max_gb)
        print("\n## C) Growth\n")
        print(table(rows, [("text", "text", ""), ("pages", "pages", "d"), ("bytes", "bytes", "d"),
                           ("skeleton_s", "skeleton s", ".2f"), ("amplify_s", "amplify s", ".2f"),
                           ("groups_s", "groups s", ".2f"), ("seconds", "total s", ".2f"),
                           ("time_ratio", "time ratio", ".2f"), ("peak_gb", "peak GB", ".2f"),
                           ("estimated_peak_gb", "estimated GB (not run)", ".1f")]))
        print(f"\nTargets: time ratio for 10x pages <= {GROWTH_TARGET}; 10,000 pages <= {MEMORY_TARGET_GB} GB peak.")

    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1, default=str), encoding="utf-8")
        log(f"figures written to {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
