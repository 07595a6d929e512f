"""The evaluation sets and the figures every CV table shows (issue #12's protocol).

An evaluation set is pages of some datasets (``X-single``: X's one-page sites) with a
minimum of pages per site.  :func:`figures` gives per set the dev figure (every page
pooled) beside the CV figure (the mean over folds of the held-out fold's pooled shingle
F1 / P / R) and the count of near-empty pages (:func:`near_empty`); :func:`print_tables`
prints them as markdown, one table per set, with per-language dev figures where a set's
pages declare their language (``html_lang``).
"""

from __future__ import annotations

import statistics
from collections import defaultdict

from newsstemmer.evaluation import evaluate, shingle_prf, tokens

from .data import Entry, select

#: evaluation set -> (datasets, minimum pages per site) ; "-single": one-page sites only.
SETS: dict[str, tuple[tuple[str, ...], int]] = {
    "big9": (("big9-05", "big9-09"), 1),
    "big9-05": (("big9-05",), 1),
    "big9-09": (("big9-09",), 1),
    "cleanportal": (("cleanportal",), 1),
    "dragnet": (("dragnet",), 5),
    "readability": (("readability",), 1),
    "chaos": (("chaos",), 1),
    "dragnet-single": (("dragnet-single",), 1),
    # chaos's sites with 2-6 pages (2017): modern layouts learned from few pages
    "chaos-multi": (("chaos",), 2),
    # today's pages (issue 23): news of 2023-2026 in ~15 languages, news of 2017-2019,
    # news sites of 2000/2005, and the article pages of wcxb-dev (2023-2026)
    "fundus-recent": (("fundus-recent",), 1),
    "misinfo": (("misinfo",), 1),
    "cttf": (("cttf",), 1),
    "wcxb-dev-articles": (("wcxb-dev-articles",), 1),
}
MULTI_SETS = ("big9", "cleanportal", "dragnet")
#: Single-page sets whose sites also have many pages each (cttf: ~25 pages per site and
#: era, one site-era one group): judged by the single-page methods and by the layout
#: methods (learned per site-era; their section units and page-choice records are built,
#: ``train_sections.py``'s UNIT_DATASETS).
LAYOUT_SINGLE_SETS = ("cttf",)
#: Sets whose sites the section and page-choice models are not trained on
#: (train_sections.py's TRAIN_DATASETS): ``layout`` and ``layout-choice`` give their dev
#: figure only, which for these sites is already a figure on unseen sites (the region
#: models did see their pages).
UNTRAINED_LAYOUT_SETS = frozenset({"chaos-multi"})
#: Sets the single-page methods are judged on (the last four are not default sets).
SINGLE_SETS = ("readability", "chaos", "dragnet-single", "fundus-recent", "misinfo", "cttf", "wcxb-dev-articles")
DEFAULT_SETS = MULTI_SETS + SINGLE_SETS[:3]
#: A page is *near-empty* when its F1 is below this while its gold has more than
#: NEAR_EMPTY_WORDS words (issue 23: the body returned is a standfirst, or nothing).
NEAR_EMPTY_F1 = 0.2
NEAR_EMPTY_WORDS = 50
#: Per-language figures are printed for a set whose pages declare a language this often.
LANGUAGE_SHARE = 0.9


def near_empty(pairs: list[tuple[str, str]]) -> int:
    """How many (prediction, gold) pairs are near-empty pages (see NEAR_EMPTY_F1)."""
    count = 0
    for predicted, gold in pairs:
        if len(tokens(gold)) > NEAR_EMPTY_WORDS:
            p, r = shingle_prf(predicted, gold)
            if not p or 2 * p * r / (p + r) < NEAR_EMPTY_F1:
                count += 1
    return count


def by_language(pairs_by_page: dict, pages: list[Entry]) -> dict[str, dict]:
    """Dev figures per declared language (``html_lang``'s primary tag) of a set's pages,
    or {} when fewer than LANGUAGE_SHARE of them declare one or all declare the same."""
    groups: dict[str, list] = defaultdict(list)
    for e in pages:
        if e.html_lang:
            groups[e.html_lang.strip().lower().replace("_", "-").split("-")[0]].append(pairs_by_page[page_id(e)])
    if len(groups) < 2 or sum(map(len, groups.values())) < LANGUAGE_SHARE * len(pages):
        return {}
    return {lang: {"pages": len(p), "f1": evaluate(p).f1, "near_empty": near_empty(p)}
            for lang, p in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))}


def set_entries(entries: list[Entry], name: str) -> list[Entry]:
    """The pages of one evaluation set, in manifest order (min pages per site as quality.py)."""
    datasets, min_pages = SETS[name]
    out: list[Entry] = []
    for ds in datasets:
        chosen = select(entries, ds)
        if min_pages > 1:
            sizes: dict[str, int] = {}
            for e in chosen:
                sizes[e.site] = sizes.get(e.site, 0) + 1
            chosen = [e for e in chosen if sizes[e.site] >= min_pages]
        out += chosen
    return out


def set_of_pages(entries: list[Entry], names: list[str]) -> dict[tuple[str, str, str], str]:
    """Each page's evaluation set among ``names`` (the first that holds it), by :func:`page_id`."""
    out: dict[tuple[str, str, str], str] = {}
    for name in names:
        for e in set_entries(entries, name):
            out.setdefault(page_id(e), name)
    return out


def page_id(e: Entry) -> tuple[str, str, str]:
    """A page's key in every table of predictions: (dataset, site, id)."""
    return (e.dataset, e.site, e.id)


def figures(pairs_by_page: dict, sets: dict[str, list[Entry]], folds: list[list[Entry]], fold_pairs=None,
            dev_only: frozenset[str] = frozenset()) -> dict:
    """Per set: dev score of all pages, and per fold the held-out pages' pooled score.

    ``fold_pairs`` (one mapping per fold) replaces ``pairs_by_page`` for the CV
    figure of a trained method (the fold's own model); None: the same predictions.
    Sets named in ``dev_only`` get the dev figure alone (the method's training
    scripts make no fold predictions for their pages).
    """
    out = {}
    fold_ids = [{page_id(e) for e in fold} for fold in folds]
    for name, pages in sets.items():
        dev_pairs = [pairs_by_page[page_id(e)] for e in pages] if pairs_by_page is not None else []
        dev = evaluate(dev_pairs) if pairs_by_page is not None else None
        per_fold = []
        for k, ids in enumerate(fold_ids):
            if name in dev_only:
                break
            source = fold_pairs[k] if fold_pairs is not None else pairs_by_page
            held = [source[page_id(e)] for e in pages if page_id(e) in ids]
            if held:
                s = evaluate(held)
                per_fold.append({"fold": k, "pages": s.pages, "f1": s.f1, "precision": s.precision, "recall": s.recall,
                                 "near_empty": near_empty(held)})
        cv = {
            key: statistics.mean(f[key] for f in per_fold) for key in ("f1", "precision", "recall")
        } if per_fold else {}
        if per_fold:
            cv["f1_min"] = min(f["f1"] for f in per_fold)
            cv["f1_max"] = max(f["f1"] for f in per_fold)
            cv["folds"] = len(per_fold)
            cv["near_empty"] = sum(f["near_empty"] for f in per_fold)
        dev_dict = dev.as_dict() if dev else None
        if dev_dict is not None:
            dev_dict["near_empty"] = near_empty(dev_pairs)
        out[name] = {"pages": len(pages), "dev": dev_dict, "cv": cv, "per_fold": per_fold,
                     "languages": by_language(pairs_by_page, pages) if pairs_by_page is not None else {}}
    return out


def print_tables(results: dict, k: int, per_fold: bool) -> None:
    """One markdown table per evaluation set: a row per method, dev beside K-fold CV."""
    names = []
    for by_set in results.values():
        names += [n for n in by_set if n not in names]
    for name in names:
        rows = [(m, by_set[name]) for m, by_set in results.items() if name in by_set]
        pages = rows[0][1]["pages"]
        print(f"\n### {name} ({pages} pages)\n")
        print(f"| method | dev F1 | dev P | dev R | dev near-empty | {k}-fold CV F1 (min–max) | CV P | CV R "
              "| CV near-empty |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
        for method, r in rows:
            d, c = r["dev"], r["cv"]
            dev = (f"{d['f1']:.3f} | {d['precision']:.3f} | {d['recall']:.3f} | {d.get('near_empty', '–')}"
                   if d else "– | – | – | –")
            if c:
                folds_note = "" if c["folds"] == k else f", {c['folds']} folds"
                cv = (f"{c['f1']:.3f} ({c['f1_min']:.3f}–{c['f1_max']:.3f}{folds_note}) | "
                      f"{c['precision']:.3f} | {c['recall']:.3f} | {c.get('near_empty', '–')}")
            else:
                cv = "– | – | – | –"
            print(f"| {method} | {dev} | {cv} |")
        langs = [(m, r["languages"]) for m, r in rows if r.get("languages")]
        if langs:
            print("\ndev per language (pages: F1 / near-empty):\n")
            for method, by_lang in langs:
                cells = ", ".join(f"{lang} ({v['pages']}): {v['f1']:.3f} / {v['near_empty']}"
                                  for lang, v in by_lang.items())
                print(f"- {method}: {cells}")
        if per_fold:
            print("\nper fold (pages: F1):\n")
            for method, r in rows:
                cells = ", ".join(f"{f['fold']} ({f['pages']}): {f['f1']:.3f}" for f in r["per_fold"])
                print(f"- {method}: {cells}")
