#!/usr/bin/env python3
"""CSS-selector rules (SPEC §6): learned from 3 pages of a site, applied alone to its others.

For every site of big9-05, big9-09, cleanportal and the dragnet sites with >= 5 pages
(``cv.py``'s sets): sort its pages by manifest id, learn rules from the first 3
("oldest"), apply the rules alone to each other page.  Reported per set (shingle
metric of ``newsstemmer.evaluation.evaluate``; prediction title + "\\n" + body where
the gold has the headline, else body), dev and site-grouped cross-validated figures
side by side (``cv.py``'s protocol: ``folds.py``'s 5 folds, a Big9 site one group
across years; the CV figure is the mean over folds of the held-out fold's pooled F1):

* ``paper``: the paper's method as written: every content block's template rule,
  no filter (``#id * E`` for the third template, comments counted as content);
* ``rules``: newsstemmer's rules from the 3 pages alone, content = the unique blocks
  (``RuleOptions(content="unique")``: precision filter, title rules, ...);
* ``rules+patterns``: the same, with layout patterns learned from the same 3 pages
  as evidence of main text and headline (still nothing but the 3 pages);
* ``region``: the default (``newsstemmer.combine.extract.learn_site_rules``): the learned
  single-page extractor (``region``) run on the 3 pages says which blocks are the
  article; the rules from those blocks or those of ``rules+patterns``, whichever
  reproduces the extractor's text on the 3 pages better (``content="auto"``).  Dev:
  the shipped region models; CV: per fold, models trained (``train_region.py``'s
  defaults) without the fold's sites (``--region-data FILE``: ``region_data.py``'s rows;
  computed when missing, about 80 s);
* ``region-ho2`` / ``region-fit3`` / ``region-ho3``: ``region`` judging its two ways of
  learning on each training page left out in turn (the rules of the other two applied
  to it; ``auto_holdout=True``), or choosing among three (the extractor's blocks also
  with the greedy check taking the rules that find the most content first,
  ``greedy_order="weight"``), on the pages learned from or left out;
* ``region-nocontainer``: ``region`` without the rules for the element holding a
  page's content blocks (``RuleOptions(container_rules=False)``);
* ``region-extracted`` / ``region-both``: content = the extractor's blocks alone / the
  extractor's unique blocks with the layouts' evidence;
* ``chosen``: per fold, the one of ``rules+patterns`` and the ``region*`` rows with the
  best F1 on the other folds' pages, scored on the fold (the
  choice of content made under CV; ``dev`` is the choice on all pages, from the same CV predictions);
* ``set``: the set method itself, ExtractUniqueBlock on the page plus the 3 pages.

Speed, per test page, in CPU time of this process (best of ``--repeat`` runs, garbage
collector off; CPU time rather than wall time, so that other work on the machine
counts less): applying the ``region`` rules (parse + match + text), against
learning-plus-extraction by the set method (the page and its 3 training pages parsed,
cut into blocks and compared), and against a bare parse of the page by parsel; also
against the set method in the paper's setting, where the set is every page of the site.

    python benchmarks/rules.py [--sets big9,big9-05,big9-09,cleanportal,dragnet] [--train 3]
                               [--per-site] [--repeat 5] [--no-cv] [--region-data FILE]
                               [--json FILE] [--data DIR]
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time
from pathlib import Path
from statistics import median

from parsel import Selector

if __name__ == "__main__" and not __package__:  # run as a file: import from the checkout's root
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from benchmarks.shared import (Entry, add_data_option, data_dir, figures, grouped_folds, load_manifest, page_id, prediction,
                               print_tables, set_entries)

from newsstemmer import LearnOptions, Page, learn
from newsstemmer.evaluation import evaluate
from newsstemmer.rules import RuleOptions, apply_rules, extract_unique_blocks, learn_ruleset, parse_page

DEFAULT_SETS = ("big9", "big9-05", "big9-09", "cleanportal", "dragnet")
#: Methods that learn nothing from other sites: one prediction serves dev and CV.
PLAIN = ("paper", "rules", "rules+patterns", "set")
#: "auto" choosing among three ways of learning (the extractor's blocks with the greedy
#: check in weight order too).
THREE = (("extracted", False, "precision"), ("extracted", False, "weight"), ("unique", True, "precision"))
#: Methods whose evidence is the region extractor (trained on other sites' pages).
REGIONAL = {
    "region": RuleOptions(),
    "region-ho2": RuleOptions(auto_holdout=True),
    "region-fit3": RuleOptions(auto_variants=THREE),
    "region-ho3": RuleOptions(auto_variants=THREE, auto_holdout=True),
    "region-nocontainer": RuleOptions(container_rules=False),
    "region-extracted": RuleOptions(content="extracted"),
    "region-both": RuleOptions(content="both"),
}
#: What ``chosen`` chooses from, per fold.
CHOICES = ("rules+patterns", *REGIONAL)
METHODS = PLAIN[:3] + tuple(REGIONAL) + ("chosen", "set")
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
    content="unique",
)


def best_time(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        fn()
        best = min(best, time.process_time() - t0)
    return best


def region_bodies(extractor, pages: list[Page]) -> list[str | None]:
    """The extractor's body text of each page (None where it fails)."""
    out: list[str | None] = []
    for p in pages:
        try:
            out.append(extractor.extract(p.html, p.url)[1])
        except Exception:  # noqa: BLE001 - an unreadable page gives no evidence
            out.append(None)
    return out


def learn_or_none(pages, patterns, opts, extracted=None):
    try:
        return learn_ruleset(pages, patterns, opts, extracted)
    except ValueError:  # fewer than 2 readable pages: no rules
        return None


def run_site(entries: list[Entry], n_train: int, repeat: int, dev_region, cv_region=None) -> dict:
    """One site: its pages' (prediction, gold) per method, dev (``dev_region``: the shipped
    region extractor) and, for the regional methods, CV (``cv_region``: an extractor
    trained without the site)."""
    entries = sorted(entries, key=lambda e: e.id)
    train, test = entries[:n_train], entries[n_train:]
    train_html = [e.html() for e in train]
    train_pages = [Page(html=h, url=e.url, source=e.id) for e, h in zip(train, train_html)]
    out: dict = {"train": [e.id for e in train], "test": test, "dev": {}, "cv": {}, "pages": [], "rules": {}}
    if not test:
        return out
    try:
        # Layouts of 3 pages with the unsupervised roles: the section decision is trained on
        # layouts of whole sites, and on 3-page layouts it demotes the article (big9-05 rules
        # with layout evidence 0.908 -> 0.820; NOTES.md, session 6).
        patterns = learn(train_pages, LearnOptions(section_model=False))
    except Exception:  # noqa: BLE001 - a site whose layout cannot be learned: rules alone
        patterns = None
    sets = {
        "paper": learn_or_none(train_pages, None, PAPER),
        "rules": learn_or_none(train_pages, None, RuleOptions(content="unique")),
        "rules+patterns": learn_or_none(train_pages, patterns, RuleOptions(content="unique")),
    }
    cv_sets = {}
    evidence = {"dev": region_bodies(dev_region, train_pages)}
    if cv_region is not None:
        evidence["cv"] = region_bodies(cv_region, train_pages)
    for kind, texts in evidence.items():
        target = sets if kind == "dev" else cv_sets
        for name, opts in REGIONAL.items():
            target[name] = learn_or_none(train_pages, patterns, opts, texts)
    out["rules"] = {k: (v.to_dict() if v is not None else None) for k, v in sets.items()}
    site_html = {e.id: e.html() for e in entries}
    for e in test:
        html, gold = site_html[e.id], e.gold()
        root = parse_page(html)
        for kind, rulesets in (("dev", sets), ("cv", cv_sets)):
            for name, rs in rulesets.items():
                title, body = apply_rules(root, rs) if rs is not None else ("", "")
                out[kind].setdefault(name, []).append((prediction(title, body, e.gold_has_title), gold))
        out["dev"].setdefault("set", []).append((extract_unique_blocks(html, train_html), gold))
        helped = sets["region"]
        if repeat > 0 and helped is not None:
            gc.disable()
            try:
                rec: dict = {"id": e.id}
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


def fold_extractors(entries: list[Entry], folds: list[list[Entry]], data_file: str | None) -> list:
    """Per fold: the region extractor trained (train_region.py's defaults) without the fold's groups."""
    from training.train_region import fold_extractors as trained_per_fold

    return trained_per_fold(entries, folds, data_file)


def choose(cv_pairs: dict[str, dict], folds: list[list[Entry]], pages: list[Entry]) -> tuple[list[dict], list[str]]:
    """``chosen``: per fold, the method of CHOICES best on the other folds' pages (their
    CV predictions), its predictions on the fold."""
    fold_ids = [{page_id(e) for e in fold} for fold in folds]
    per_fold, names = [], []
    for ids in fold_ids:
        rest = [page_id(e) for e in pages if page_id(e) not in ids]
        best = max(CHOICES, key=lambda m: (evaluate([cv_pairs[m][i] for i in rest]).f1, -CHOICES.index(m)))
        names.append(best)
        per_fold.append(cv_pairs[best])
    return per_fold, names


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_data_option(ap)
    ap.add_argument("--sets", default=",".join(DEFAULT_SETS), help="evaluation sets (cv.py's names)")
    ap.add_argument("--train", type=int, default=3, help="training pages per site (default 3)")
    ap.add_argument("--repeat", type=int, default=5, help="timing runs per page, best kept (default 5; 0: no timing)")
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--no-cv", action="store_true", help="dev figures only (no fold models)")
    ap.add_argument("--region-data", metavar="FILE", help="region_data.py's rows (default: computed)")
    ap.add_argument("--per-site", action="store_true", help="also a table per site (dev)")
    ap.add_argument("--per-fold", action="store_true", help="also the figures per fold")
    ap.add_argument("--json", metavar="FILE", help="write every figure and the learned rules as JSON")
    args = ap.parse_args(argv)
    from newsstemmer.single.region.extractor import RegionExtractor

    root = data_dir(args.data)
    entries = load_manifest(root)
    names = [n for n in args.sets.split(",") if n]
    sets = {n: set_entries(entries, n) for n in names}
    pages = {page_id(e): e for es in sets.values() for e in es}
    folds = grouped_folds(entries, args.folds, args.seed)
    fold_of = {page_id(e): k for k, fold in enumerate(folds) for e in fold}
    cv_extractors = None if args.no_cv else fold_extractors(entries, folds, args.region_data)
    dev_region = RegionExtractor()
    sites: dict[tuple[str, str], list[Entry]] = {}
    for e in pages.values():
        sites.setdefault((e.dataset, e.site), []).append(e)
    dev: dict[str, dict] = {m: {} for m in METHODS}
    cv: dict[str, dict] = {m: {} for m in METHODS}
    report: dict = {"sets": {}, "sites": {}, "speed": {}}
    timings: list[dict] = []
    for k, ((ds, site), es) in enumerate(sorted(sites.items()), 1):
        print(f"[{k}/{len(sites)}] {ds}/{site}", file=sys.stderr, flush=True)
        fold = fold_of[page_id(es[0])]
        res = run_site(es, args.train, args.repeat, dev_region, cv_extractors[fold] if cv_extractors else None)
        timings.extend(res["pages"])
        for kind, target in (("dev", dev), ("cv", cv)):
            for m, pairs in res[kind].items():
                target[m].update({page_id(e): pair for e, pair in zip(res["test"], pairs)})
        report["sites"][f"{ds}/{site}"] = {
            "train": res["train"],
            "test_pages": len(res["test"]),
            "fold": fold,
            "dev": {m: evaluate(p).f1 for m, p in res["dev"].items()},
            "cv": {m: evaluate(p).f1 for m, p in res["cv"].items()},
            "rules": res["rules"],
        }
    tested = {n: [e for e in es if page_id(e) in dev["set"]] for n, es in sets.items()}
    results: dict[str, dict] = {}
    chosen_names: dict[str, list[str]] = {}
    for m in METHODS:
        if m == "chosen":
            continue
        fold_pairs = None
        if m in REGIONAL and cv_extractors:
            fold_pairs = [cv[m]] * len(folds)
        results[m] = figures(dev[m], tested, folds, fold_pairs)
    # Content chosen on the data, under CV: over all the rule sets' pages together.  The
    # choice on all pages (the default's) is made on the CV predictions too when there
    # are some: the shipped region models have seen every page.
    everything = [pages[i] for i in dev["set"]]
    cv_pairs = {m: (cv[m] if m in REGIONAL and cv_extractors else dev[m]) for m in CHOICES}
    dev_best = max(CHOICES, key=lambda m: (evaluate([cv_pairs[m][page_id(e)] for e in everything]).f1, -CHOICES.index(m)))
    if cv_extractors:
        per_fold, chosen_names["folds"] = choose(cv_pairs, folds, everything)
        results[f"chosen (dev: {dev_best})"] = figures(dev[dev_best], tested, folds, per_fold)
        print(f"\nchosen per fold: {', '.join(chosen_names['folds'])}")
    report["sets"] = results
    report["chosen"] = {"dev": dev_best, **chosen_names}
    print("\nQuality: rules learned from the 3 first pages of each site (by id), applied alone to the others")
    print_tables(results, args.folds, args.per_fold)

    if args.per_site:
        print("\nF1 per site (dev; region: CV in brackets)")
        print(f"| site | test pages | {' | '.join(m for m in METHODS if m != 'chosen')} |")
        print("|---|---|" + "---|" * (len(METHODS) - 1))
        for name, info in report["sites"].items():
            cells = []
            for m in METHODS:
                if m == "chosen":
                    continue
                d = info["dev"].get(m)
                c = info["cv"].get(m)
                cell = f"{d:.3f}" if d is not None else "-"
                if c is not None:
                    cell += f" ({c:.3f})"
                cells.append(cell)
            print(f"| {name} | {info['test_pages']} | {' | '.join(cells)} |")

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
        print(f"\nSpeed per test page (CPU time, one core, best of {args.repeat}), region rules")
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
        print("targets: F1 >= 0.90 (CV), apply >= 300 pages/s per core, set/apply >= 20x")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(report, fh, ensure_ascii=False, indent=1, default=str)
    return 0


if __name__ == "__main__":
    sys.exit(main())
