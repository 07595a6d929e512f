#!/usr/bin/env python3
"""CSS-selector rules (SPEC §6): the paper's experiment on the development sites.

For every site of big9-05, big9-09 and cleanportal: sort its pages by manifest id,
learn rules from the first 3 ("oldest"), apply the rules alone to each other page.
Reported per dataset (shingle metric of ``newsstemmer.evaluation.evaluate``;
prediction title + "\\n" + body where the gold has the headline, else body):

* ``paper``: the paper's method as written: every content block's template rule,
  no filter (``#id * E`` for the third template, comments counted as content);
* ``rules``: newsstemmer's rules from the 3 pages alone (``RuleOptions()`` defaults:
  precision filter, title rules, ...);
* ``rules+patterns``: the same, with layout patterns learned from the same 3 pages
  as evidence of main text and headline (still nothing but the 3 pages);
* ``set``: the set method itself, ExtractUniqueBlock on the page plus the 3 pages.

Speed, per test page, in CPU time of this process (best of ``--repeat`` runs, garbage
collector off; CPU time rather than wall time, so that other work on the machine
counts less): applying the ``rules+patterns`` rules (parse + match + text), against
learning-plus-extraction by the set method (the page and its 3 training pages parsed,
cut into blocks and compared), and against a bare parse of the page by parsel; also
against the set method in the paper's setting, where the set is every page of the site.

    python benchmarks/rules.py [--datasets big9-05,cleanportal] [--train 3]
                               [--per-site] [--repeat 5] [--json FILE] [--data DIR]
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time
from statistics import median

from _common import Entry, by_site, data_dir, load_manifest, prediction

from parsel import Selector

from newsstemmer import Page, learn
from newsstemmer.evaluation import evaluate
from newsstemmer.rules import RuleOptions, apply_rules, extract_unique_blocks, learn_rules, rules_of

DEFAULT_DATASETS = ("big9-05", "big9-09", "cleanportal")
METHODS = ("paper", "rules", "rules+patterns", "set")
#: The paper as written: no filter, every template rule kept, comments are content.
PAPER = RuleOptions(
    min_precision=0.0,
    min_block_precision=0.0,
    bare_block_precision=0.0,
    max_link_density=1.0,
    min_support=0.0,
    min_weight=0,
    greedy=False,
    class_rules=False,
    loose_rules=False,
    path_rules=False,
    use_patterns=False,
    skip_comments=False,
    strict_descendant=True,
)


def best_time(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        fn()
        best = min(best, time.process_time() - t0)
    return best


def run_site(entries: list[Entry], n_train: int, repeat: int, opts: RuleOptions | None = None) -> dict:
    opts = opts or RuleOptions()
    entries = sorted(entries, key=lambda e: e.id)
    train, test = entries[:n_train], entries[n_train:]
    train_html = [e.html() for e in train]
    site_html = {e.id: e.html() for e in entries}
    train_pages = [Page(html=h, url=e.url, source=e.id) for e, h in zip(train, train_html)]
    out: dict = {"train": [e.id for e in train], "pairs": {m: [] for m in METHODS}, "pages": []}
    if not test:
        return out
    paper = rules_of(learn_rules(train_pages, options=PAPER))
    t0 = time.process_time()
    plain = rules_of(learn_rules(train_pages, options=opts))
    t_learn = time.process_time() - t0
    try:
        patterns = learn(train_pages)
    except Exception:  # noqa: BLE001 - a site whose layout cannot be learned: rules alone
        patterns = None
    helped = rules_of(learn_rules(train_pages, patterns, opts))
    out["rules"] = {"paper": paper.to_dict(), "rules": plain.to_dict(), "rules+patterns": helped.to_dict()}
    out["learn_seconds"] = t_learn
    for e in test:
        html, gold = e.html(), e.gold()
        rec: dict = {"id": e.id}
        for name, rs in (("paper", paper), ("rules", plain), ("rules+patterns", helped)):
            title, body = apply_rules(html, rs)
            out["pairs"][name].append((prediction(title, body, e.gold_has_title), gold))
        out["pairs"]["set"].append((extract_unique_blocks(html, train_html), gold))
        if repeat > 0:
            gc.disable()
            try:
                rec["apply"] = best_time(lambda: apply_rules(html, helped), repeat)
                rec["set"] = best_time(lambda: extract_unique_blocks(html, train_html), repeat)
                rec["parse"] = best_time(lambda: Selector(text=html), repeat)
                # The paper's setting: the set is every page of the site.
                others = [h for k, h in site_html.items() if k != e.id]
                rec["set_site"] = best_time(lambda: extract_unique_blocks(html, others), max(1, repeat // 2))
                rec["site_pages"] = len(others) + 1
            finally:
                gc.enable()
            out["pages"].append(rec)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", help="datasets folder (holding manifest.jsonl)")
    ap.add_argument("--datasets", default=",".join(DEFAULT_DATASETS))
    ap.add_argument("--train", type=int, default=3, help="training pages per site (default 3)")
    ap.add_argument("--repeat", type=int, default=5, help="timing runs per page, best kept (default 5; 0: no timing)")
    ap.add_argument("--per-site", action="store_true", help="also a table per site")
    ap.add_argument("--json", metavar="FILE", help="write every figure and the learned rules as JSON")
    args = ap.parse_args(argv)
    entries = load_manifest(data_dir(args.data))
    report: dict = {"datasets": {}, "speed": {}}
    timings: list[dict] = []
    rows = []
    for ds in args.datasets.split(","):
        sites = by_site(entries, ds)
        pairs: dict[str, list] = {m: [] for m in METHODS}
        per_site = {}
        for k, (site, site_entries) in enumerate(sites.items(), 1):
            print(f"[{ds}] {k}/{len(sites)} {site}", file=sys.stderr)
            res = run_site(site_entries, args.train, args.repeat)
            for m in METHODS:
                pairs[m].extend(res["pairs"][m])
            timings.extend(res["pages"])
            per_site[site] = {
                "train": res["train"],
                "test_pages": len(res["pairs"]["rules"]),
                "scores": {m: evaluate(res["pairs"][m]).as_dict() for m in METHODS if res["pairs"][m]},
                "rules": res.get("rules"),
            }
        scores = {m: evaluate(pairs[m]).as_dict() for m in METHODS}
        report["datasets"][ds] = {"scores": scores, "sites": per_site}
        rows.append((ds, len(pairs["rules"]), scores))
        if args.per_site:
            print(f"\n{ds}: F1 per site")
            print(f"| site | test pages | {' | '.join(METHODS)} | title rules | body rules |")
            print("|---|---|" + "---|" * len(METHODS) + "---|---|")
            for site, info in per_site.items():
                f1s = " | ".join(
                    f"{info['scores'][m]['f1']:.3f}" if m in info["scores"] else "-" for m in METHODS
                )
                r = (info.get("rules") or {}).get("rules+patterns") or {"body": [], "title": []}
                print(f"| {site} | {info['test_pages']} | {f1s} | {len(r['title'])} | {len(r['body'])} |")

    print("\nQuality: rules learned from the 3 first pages of each site (by id), applied alone to the others")
    print("| dataset | test pages | method | P | R | F1 | empty |")
    print("|---|---|---|---|---|---|---|")
    for ds, n, scores in rows:
        for m in METHODS:
            s = scores[m]
            print(f"| {ds} | {n} | {m} | {s['precision']:.3f} | {s['recall']:.3f} | {s['f1']:.3f} | {s['empty']} |")

    if timings:
        apply_t = [t["apply"] for t in timings]
        set_t = [t["set"] for t in timings]
        parse_t = [t["parse"] for t in timings]
        speed = {
            "pages": len(timings),
            "apply_ms_median": median(apply_t) * 1000,
            "set_ms_median": median(set_t) * 1000,
            "parse_ms_median": median(parse_t) * 1000,
            "apply_pages_per_s": len(apply_t) / sum(apply_t),
            "set_pages_per_s": len(set_t) / sum(set_t),
            "set_over_apply_total": sum(set_t) / sum(apply_t),
            "set_over_apply_median": median(s / a for s, a in zip(set_t, apply_t)),
            "apply_over_parse_total": sum(apply_t) / sum(parse_t),
            # The most the set method can cost relative to a parse-only extractor:
            "set_over_parse_total": sum(set_t) / sum(parse_t),
            "set_site_over_apply_total": sum(t["set_site"] for t in timings) / sum(apply_t),
            "site_pages_mean": sum(t["site_pages"] for t in timings) / len(timings),
        }
        report["speed"] = speed
        print(f"\nSpeed per test page (CPU time, one core, best of {args.repeat})")
        print("| pages | parse (parsel) ms | apply rules ms | set method (page + 3 training pages) ms "
              "| apply pages/s | set/apply | apply/parse | set/parse |")
        print("|---|---|---|---|---|---|---|---|")
        print(
            f"| {speed['pages']} | {speed['parse_ms_median']:.2f} | {speed['apply_ms_median']:.2f} | "
            f"{speed['set_ms_median']:.2f} | {speed['apply_pages_per_s']:.0f} | "
            f"{speed['set_over_apply_total']:.1f}x (median {speed['set_over_apply_median']:.1f}x) | "
            f"{speed['apply_over_parse_total']:.2f}x | {speed['set_over_parse_total']:.1f}x |"
        )
        print("(ms: medians; pages/s and ratios: totals over all pages)")
        print(
            f"set method with every page of the site as the set (the paper's setting, "
            f"{speed['site_pages_mean']:.1f} pages on average) / apply: {speed['set_site_over_apply_total']:.1f}x"
        )
        print("targets: F1 >= 0.85, apply >= 300 pages/s per core, set/apply >= 20x")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(report, fh, ensure_ascii=False, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
