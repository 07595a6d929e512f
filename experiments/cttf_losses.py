#!/usr/bin/env python3
"""Where the layout chain loses on cttf, page by page, with a verdict for each page.

Question: on cttf's site-eras, is a page lost to the wrong layout, to the layout's static
lines, to the page choice, or to the cleaning?  Answer: benchmarks/README.md, "cttf: where
the layout chain loses" (session 18, branch ``cttf``).

Each site-era is learned from all its pages (``newsstemmer.learn``'s defaults, the shipped
models) and every page extracted as ``cv.py --methods layout-choice`` extracts it (the
chain, region for unmatched pages).  Per page it also runs region alone and every layout
of the site forced on the page (no threshold, no page choice), and the chosen layout
without its ``static_lines``.  Verdicts, for pages whose chain F1 is under ``--below``:

* ``gold``: the chain, region and every layout score under ``NOTHING_FITS`` (the gold is
  not the page's article);
* ``choice-took``: the page choice took region's body and region scores lower than the layout;
* ``layout``: another layout of the site that covers the page above the pattern threshold
  scores ``GAP`` more than the chosen one;
* ``static``: the chosen layout without its static lines scores ``GAP`` more;
* ``choice-kept``: region scores ``GAP`` more than the layout the chain kept;
* ``unmatched``: no layout matched (region's body);
* ``cleaning``: none of these (layout and region lose alike: the gold's convention or both
  methods' cleaning).

``loss`` is a page's share of the set's lost F1: ((1 - P) + (1 - R)) / 2 / pages.

    python experiments/cttf_losses.py [--sites forbes.com-2000,...] [--below 0.9] [--json FILE]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

if __name__ == "__main__" and not __package__:  # run as a file: import from the checkout's root
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from benchmarks.shared import add_data_option, data_dir, load_manifest, prediction, set_entries
from benchmarks.shared.conventions import own_pair

from newsstemmer import ExtractOptions, Page, learn
from newsstemmer.combine.extract import extract_with_patterns
from newsstemmer.evaluation import shingle_prf
from newsstemmer.layout.matching import LayoutExtractOptions, extract_with_layouts, match_all
from newsstemmer.layout.blocks import blocks_of
from newsstemmer.layout.patterns import SitePatterns
from newsstemmer.single import extract_single

#: F1 by which another way of extracting a page must beat the chain's to be named the cause.
GAP = 0.05

FORCED = LayoutExtractOptions(pattern_threshold=0.0, loose_threshold=0.0)

#: A page where the chain, region and every layout all score under this F1: the gold is
#: not the page's article (cttf's entertainment.msn.com-2005 movie pages: a ZIP-code form).
NOTHING_FITS = 0.1

#: The coverage a layout must have to be in the running (``LayoutExtractOptions.pattern_threshold``).
FORCED_APPLIES = LayoutExtractOptions().pattern_threshold


def page_f1(pred: str, gold: str) -> tuple[float, float, float]:
    """The page's (P, R, F1); an empty prediction has P 0 here."""
    p, r = shingle_prf(pred, gold)
    p = p or 0.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def forced_f1(page: Page, site: SitePatterns, index: int, e, static: bool = True) -> float:
    """F1 of the site's layout ``index`` alone on ``page`` (``static``: with its static lines)."""
    pattern = site.patterns[index]
    if not static:
        pattern = dataclasses.replace(pattern, static_lines=[])
    one = dataclasses.replace(site, patterns=[pattern], extras={})
    art = extract_with_layouts(page, one, FORCED)
    return page_f1(prediction(art.title, art.body, e.gold_has_title), e.gold())[2]


def site_losses(entries: list, n_set: int, chain_only: bool = False) -> list[dict]:
    """Every page of one site-era with its figures and verdict (``chain_only``: the
    chain's figures alone, no verdict)."""
    pages = [Page(html=e.html(), url=e.url, source=f"{e.site}/{e.id}") for e in entries]
    site = learn(pages)
    chain_opts = ExtractOptions(fallback="region")
    out = []
    for e, page in zip(entries, pages):
        gold = e.gold()
        art = extract_with_patterns(page, site, chain_opts)
        pred = prediction(art.title, art.body, e.gold_has_title)
        p, r, f1 = page_f1(pred, gold)
        f1_region = None
        if not chain_only:
            alone = extract_single(page, "region")
            f1_region = round(page_f1(prediction(alone.title, alone.body, e.gold_has_title), gold)[2], 3)
        own_p, own_r, _ = page_f1(*own_pair(e, art.title, art, gold))
        row = {"site": e.site, "id": e.id, "f1": round(f1, 3), "p": round(p, 5), "r": round(r, 5),
               "own_p": round(own_p, 5), "own_r": round(own_r, 5),
               "loss": ((1 - p) + (1 - r)) / 2 / n_set, "method": art.method, "pattern": art.pattern,
               "f1_region": f1_region, "empty": not pred.strip()}
        if chain_only:
            out.append(row)
            continue
        if art.matched and site.patterns:
            pb = blocks_of(page, site.block_options())
            matches = match_all(pb, site)
            ids = [m.pattern.id for m in matches]
            forced = [forced_f1(page, site, i, e) for i in range(len(site.patterns))]
            chosen = ids.index(art.pattern) if art.pattern in ids else None
            best = max(range(len(forced)), key=forced.__getitem__)
            row.update(layouts={m.pattern.id: [round(m.coverage, 2), round(m.aligned, 2), m.pattern.pages,
                                               round(f, 3)] for m, f in zip(matches, forced)},
                       best=ids[best], f1_best=round(forced[best], 3))
            if chosen is not None:
                row["f1_layout"] = round(forced[chosen], 3)
                row["f1_nostatic"] = round(forced_f1(page, site, chosen, e, static=False), 3)
        row["verdict"] = verdict(row)
        out.append(row)
    return out


def pooled_f1(rows: list[dict], key: str = "") -> float:
    """The set's F1 as ``evaluate`` pools it: mean P over non-empty predictions, mean R
    (``key`` "own_": in the set's own convention)."""
    ps = [row[key + "p"] for row in rows if not row.get("empty") and key + "p" in row]
    p = sum(ps) / len(ps) if ps else 0.0
    r = sum(row.get(key + "r", 0.0) for row in rows) / len(rows) if rows else 0.0
    return 2 * p * r / (p + r) if p + r else 0.0


def verdict(row: dict) -> str:
    """The page's cause of loss (see the module docstring)."""
    if row["method"] is None or "pattern" not in str(row["method"]):
        return "unmatched"
    layout = row.get("f1_layout", row["f1"])
    if max(layout, row["f1_region"], row.get("f1_best", 0)) < NOTHING_FITS:
        return "gold"
    if str(row["method"]).endswith("+region") and row["f1_region"] < layout:
        return "choice-took"
    best = row.get("layouts", {}).get(row.get("best"), [0.0])
    if row.get("f1_best", 0) > layout + GAP and best[0] > FORCED_APPLIES:
        return "layout"
    if row.get("f1_nostatic", 0) > layout + GAP:
        return "static"
    if row["f1_region"] > row["f1"] + GAP:
        return "choice-kept"
    return "cleaning"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_data_option(ap)
    ap.add_argument("--sites", help="site-eras, comma-separated (default: all)")
    ap.add_argument("--dataset", default="cttf", help="another layout set of cv.py (big9, cleanportal, dragnet): the same run")
    ap.add_argument("--chain-only", action="store_true", help="the chain's figures alone (no forced layouts, no verdict)")
    ap.add_argument("--below", type=float, default=0.9, help="list pages whose chain F1 is under this")
    ap.add_argument("--json", metavar="FILE", help="write every page's row (JSON lines)")
    ap.add_argument("--rows", metavar="FILE", help="summarise the rows a --json run wrote (verdicts made again)")
    args = ap.parse_args(argv)
    if args.rows:
        try:
            rows = [json.loads(line) for line in Path(args.rows).read_text(encoding="utf-8").splitlines() if line]
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            sys.exit(f"error: --rows {args.rows}: not the JSON lines of an earlier --json run ({type(exc).__name__}: {exc})")
        for row in rows:
            if "verdict" in row:
                row["verdict"] = verdict(row)
    else:
        sites: dict[str, list] = defaultdict(list)
        for e in set_entries(load_manifest(data_dir(args.data)), args.dataset):  # (cv.py's sets: dragnet >= 5 pages)
            sites[e.site].append(e)
        n_set = sum(len(es) for es in sites.values())
        wanted = set(args.sites.split(",")) if args.sites else set(sites)
        rows = []
        for name, es in sites.items():
            if name in wanted:
                print(f"[{name}] {len(es)} pages", file=sys.stderr, flush=True)
                rows += site_losses(es, n_set, args.chain_only)
    if args.json:
        Path(args.json).write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    lost = [r for r in rows if r["f1"] < args.below]
    by_verdict: Counter = Counter()
    by_site_loss: dict[str, float] = defaultdict(float)
    for r in rows:
        by_verdict[r.get("verdict", "-")] += r["loss"]
        by_site_loss[r["site"]] += r["loss"]
    print(f"{len(rows)} pages, F1 {pooled_f1(rows):.4f} (own convention {pooled_f1(rows, 'own_'):.4f}); lost F1 (share of the set, all pages) by verdict:")
    for v, loss in by_verdict.most_common():
        print(f"  {v:12s} {loss:.4f}  ({sum(1 for r in lost if r.get('verdict', '-') == v)} pages under {args.below})")
    print("by site-era:")
    for s, loss in sorted(by_site_loss.items(), key=lambda kv: -kv[1]):
        print(f"  {s:24s} {loss:.4f}")
    print(f"pages under {args.below}:")
    for r in sorted(lost, key=lambda r: -r["loss"]):
        print(f"  {r['site']:22s} {r['id']} F1 {r['f1']:.3f} (P {r['p']:.2f} R {r['r']:.2f}) "
              f"{r['method']} {r['pattern']} region {r['f1_region']} layout {r.get('f1_layout', '-')} "
              f"best {r.get('best')} {r.get('f1_best', '-')} nostatic {r.get('f1_nostatic', '-')} -> {r.get('verdict', '-')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
