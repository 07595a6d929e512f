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

if __name__ == "__main__" and not __package__:  # run as a file: import from the checkout's root
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from benchmarks.shared import add_data_option, data_dir, load_manifest
from training.train_sections import FEW_PAGE_SETS, few_page_pairs, few_page_sites

from newsstemmer.trees import TreeModel
from newsstemmer.combine.sections import SECTION_FEATURES
from newsstemmer.evaluation import evaluate


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_data_option(ap)
    ap.add_argument("--sets", default=",".join(FEW_PAGE_SETS))
    ap.add_argument("--k", default="3,5,10", help="pages learned from (comma-separated)")
    ap.add_argument("--variants", default="rules,model", help="of rules, model")
    ap.add_argument("--model", help="section model file (default: the shipped one)")
    args = ap.parse_args(argv)
    entries = load_manifest(data_dir(args.data))
    groups = few_page_sites(entries, tuple(args.sets.split(",")))
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
