#!/usr/bin/env python3
"""The site-grouped folds of every CV figure, summarised and self-checked.

The folds themselves are dealt by ``benchmarks/shared/folds.py`` (its docstring has the
rule); this prints, per fold, its pages and groups and how many pages of each evaluation
set it holds, after checking that dealing twice gives the same folds and that no group
and no page is in two folds::

    python benchmarks/folds.py [--folds 5] [--seed 0] [--merge-hosts]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from pathlib import Path

if __name__ == "__main__" and not __package__:  # run as a file: import from the checkout's root
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from benchmarks.shared import add_data_option, data_dir, group_key, grouped_folds, load_manifest, site_groups
from benchmarks.shared.folds import stratum


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_data_option(ap)
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--merge-hosts", action="store_true", help="merge groups of different datasets sharing a host")
    args = ap.parse_args(argv)
    entries = load_manifest(data_dir(args.data))
    folds = grouped_folds(entries, args.folds, args.seed, args.merge_hosts)
    again = grouped_folds(entries, args.folds, args.seed, args.merge_hosts)
    assert [[(e.dataset, e.site, e.id) for e in f] for f in folds] == [
        [(e.dataset, e.site, e.id) for e in f] for f in again
    ], "folds are not deterministic"
    keys = site_groups(entries, args.merge_hosts)
    sizes = Counter(keys)
    strata_names = sorted({stratum(e, sizes, k) for e, k in zip(entries, keys)})
    print(f"{len(entries)} pages, {len(sizes)} groups, {args.folds} folds (seed {args.seed}); self-check passed\n")
    print("| fold | pages | groups | " + " | ".join(strata_names) + " |")
    print("|---:|---:|---:|" + "---:|" * len(strata_names))
    for f, fold in enumerate(folds):
        ks = site_groups(fold, args.merge_hosts)
        per = Counter(stratum(e, sizes, k) for e, k in zip(fold, ks))
        print(f"| {f} | {len(fold)} | {len(set(ks))} | " + " | ".join(str(per[s]) for s in strata_names) + " |")
    if args.merge_hosts:
        plain = Counter(group_key(e) for e in entries)
        merged = defaultdict(set)
        for e, k in zip(entries, keys):
            merged[k].add(group_key(e))
        multi = {k: sorted(v) for k, v in merged.items() if len(v) > 1}
        print(f"\n{len(plain)} groups before merging hosts, {len(sizes)} after; merged:")
        for k, v in sorted(multi.items()):
            print(f"- {', '.join(v)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
