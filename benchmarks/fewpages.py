"""Layouts learned from a few pages, as a crawl's first learning round sees a site.

For every site of the chosen sets with at least k + 2 pages: learn from the site's
first k pages (by page id) with ``newsstemmer.learn``, extract the site's other pages
with the learned layouts and the region fallback, score them pooled per set::

    python benchmarks/fewpages.py                           # k = 3,5,10; rules-only and section model
    python benchmarks/fewpages.py --k 3,5 --variants rules  # the hand rules' roles only
    python benchmarks/fewpages.py --model FILE              # a section model file of one's own

Variants: ``rules`` (``LearnOptions(section_model=False)``), ``model`` (the section
decision with the shipped model, or ``--model FILE``).  Nothing is trained here: a
model given with ``--model`` must not have been trained on these sites (for a CV
figure use ``train_sections.py --subsets``, which scores held-out folds this way).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import Entry, data_dir, load_manifest, prediction  # noqa: E402

from newsstemmer import LearnOptions, Page, learn  # noqa: E402
from newsstemmer.chain import extract_with_patterns  # noqa: E402
from newsstemmer.decision.model import TreeModel  # noqa: E402
from newsstemmer.decision.sections import SECTION_FEATURES, decide_site  # noqa: E402
from newsstemmer.evaluation import evaluate  # noqa: E402
from newsstemmer.layout.matching import ExtractOptions  # noqa: E402

SETS = ("big9-05", "big9-09", "cleanportal", "dragnet")


def site_groups(entries: list[Entry], sets: tuple[str, ...]) -> dict[tuple[str, str], list[Entry]]:
    """The pages of each site of ``sets``, sorted by id."""
    groups: dict[tuple[str, str], list[Entry]] = {}
    for e in entries:
        if e.dataset in sets:
            groups.setdefault((e.dataset, e.site), []).append(e)
    return {key: sorted(es, key=lambda e: e.id) for key, es in sorted(groups.items())}


def few_page_pairs(es: list[Entry], htmls: list[str], k: int, model: TreeModel | None,
                   use_model: bool) -> list[tuple[str, str]]:
    """(prediction, gold) of the site's pages after the first ``k``, learned from those ``k``."""
    pages = [Page(h, url=e.url) for e, h in zip(es, htmls)]
    try:
        site = learn(pages[:k], LearnOptions(section_model=use_model and model is None))
        if use_model and model is not None:
            decide_site(site, pages[:k], model=model)
    except Exception:  # a site no layout can be learned from: every page goes to region
        site = None
    out = []
    for e, p in zip(es[k:], pages[k:]):
        a = extract_with_patterns(p, site, ExtractOptions(fallback="region")) if site else None
        out.append((prediction(a.title, a.body, e.gold_has_title) if a else "", e.gold()))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", help="datasets folder")
    ap.add_argument("--sets", default=",".join(SETS))
    ap.add_argument("--k", default="3,5,10", help="pages learned from (comma-separated)")
    ap.add_argument("--variants", default="rules,model", help="of rules, model")
    ap.add_argument("--model", help="section model file (default: the shipped one)")
    args = ap.parse_args(argv)
    entries = load_manifest(data_dir(args.data))
    groups = site_groups(entries, tuple(args.sets.split(",")))
    htmls = {key: [e.html() for e in es] for key, es in groups.items()}
    model = TreeModel.load(args.model, SECTION_FEATURES) if args.model else None
    for k in map(int, args.k.split(",")):
        for variant in args.variants.split(","):
            res: dict[str, list[tuple[str, str]]] = {}
            for key, es in groups.items():
                if len(es) >= k + 2:
                    res.setdefault(key[0], []).extend(
                        few_page_pairs(es, htmls[key], k, model, variant == "model"))
            figs = {d: f"{evaluate(v).f1:.3f} ({len(v)})" for d, v in res.items()}
            print(f"k={k} {variant}: {figs}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
