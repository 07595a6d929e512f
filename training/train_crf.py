#!/usr/bin/env python3
"""Train the CRF model shipped with newsstemmer, from self-labelled development pages.

No hand labels: each training site's layout patterns are learned from its own
pages (``newsstemmer.learn``), and the pages the patterns match are labelled by
them (``newsstemmer.combine.crf_labels.pattern_labels``: MAIN/TITLE text is content, the rest
is not).  Training sites: every big9-05, big9-09, cleanportal and dragnet site
with at least 2 pages (a layout is learned from as few as two; the sites with
2-4 pages added 50 sites and lifted readability F1 by about a point).  The
readability set and dragnet's single-page sites are never used (they are the
evaluation, ``crf_eval.py``).

    python training/train_crf.py [-o newsstemmer/models/crf-default.zip]
                                   [--set c1=0.1 --set feature.minfreq=3]
                                   [--split-tags body,div,p,td] [--cache DIR] [--data DIR]
    python training/train_crf.py --cv 3 [--thresholds 0.7:0.4,0.8:0.4]   # tuning
    python training/train_crf.py --cv 3 --cache DIR --variant "no gaps:fill_gaps=False" \
                                   --variant "elsewhere 2:region_elsewhere=2"

``--cv K`` trains on K-1 folds of the training sites (folds by site) and scores
the held-out sites against their gold text, CRF alone and with relabelling: the
way the defaults were tuned without touching the evaluation sets.
``--variant LABEL:NAME=VALUE,...`` adds a row with those ``CRFExtractor``
settings (numbers, True/False, None) to the CV table.  The same data and
settings give the same model file, byte for byte.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

if __name__ == "__main__" and not __package__:  # run as a file: import from the checkout's root
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from benchmarks.shared import Entry, REPO_ROOT, add_data_option, data_dir, load_manifest, prediction

from newsstemmer import LearnOptions, Page, learn
from newsstemmer.single.crf import (
    DEFAULT_SPLIT_TAGS,
    DEFAULT_TRAIN_PARAMS,
    CRFExtractor,
    TrainingPage,
    train,
)
from newsstemmer.combine.crf_labels import pattern_labels
from newsstemmer.evaluation import evaluate
from newsstemmer.layout.patterns import SitePatterns

DEFAULT_OUTPUT = REPO_ROOT / "newsstemmer" / "models" / "crf-default.zip"
TRAIN_DATASETS = ("big9-05", "big9-09", "cleanportal", "dragnet")
MIN_PAGES = 2


def training_sites(entries: list[Entry]) -> dict[str, list[Entry]]:
    """(dataset/site) -> pages, for the training sites (>= MIN_PAGES pages), sorted."""
    sizes = Counter((e.dataset, e.site) for e in entries)
    sites: dict[str, list[Entry]] = {}
    for e in entries:
        if e.dataset in TRAIN_DATASETS and sizes[(e.dataset, e.site)] >= MIN_PAGES:
            sites.setdefault(f"{e.dataset}/{e.site}", []).append(e)
    return dict(sorted(sites.items()))


def site_patterns(key: str, pages: list[Page], cache: Path | None) -> SitePatterns:
    """Learn a site's patterns (or read them from the cache, keyed by the pages' bytes)."""
    digest = hashlib.sha1("\0".join(p.html for p in pages).encode("utf-8", "replace")).hexdigest()[:16]
    path = cache / f"{key.replace('/', '__')}-{digest}.json" if cache else None
    if path is not None and path.exists():
        return SitePatterns.load(path)
    # The unsupervised roles: the CRF is trained without gold labels, and the learned
    # section decision was trained on the gold of these very sites.
    site = learn(pages, LearnOptions(section_model=False))
    if path is not None:
        site.save(path)
    return site


def load_training(
    root: Path, split_tags=DEFAULT_SPLIT_TAGS, cache: Path | None = None, verbose: bool = True
) -> dict[str, list[tuple[Entry, Page, TrainingPage | None]]]:
    """Per training site: its pages with their pattern labels (None: no article layout matched)."""
    out = {}
    for key, entries in training_sites(load_manifest(root)).items():
        pages = [Page(html=e.html(), url=e.url, source=f"{key}/{e.id}") for e in entries]
        site = site_patterns(key, pages, cache)
        rows = []
        for e, page in zip(entries, pages):
            try:
                tp = pattern_labels(page, site, split_tags)
            except Exception as exc:  # a page that breaks labelling is left out, visibly
                print(f"{page.source}: not labelled: {type(exc).__name__}: {exc}", file=sys.stderr)
                tp = None
            rows.append((e, page, tp))
        out[key] = rows
        if verbose:
            n = sum(1 for r in rows if r[2] is not None)
            print(f"{key}: {n}/{len(rows)} pages labelled", file=sys.stderr)
    return out


def parse_params(items: list[str]) -> dict:
    params = dict(DEFAULT_TRAIN_PARAMS)
    for item in items:
        name, _, value = item.partition("=")
        try:
            params[name] = int(value)
        except ValueError:
            params[name] = float(value)
    return params


def parse_variant(text: str) -> tuple[str, dict]:
    """``"LABEL:name=value,..."`` as (label, CRFExtractor settings)."""
    label, _, items = text.partition(":")
    words = {"None": None, "True": True, "False": False}
    settings: dict = {}
    for item in filter(None, (x.strip() for x in items.split(","))):
        name, sep, value = item.partition("=")
        if not sep:
            raise SystemExit(f"error: --variant {text!r}: {item!r} is not NAME=VALUE")
        if value in words:
            settings[name] = words[value]
            continue
        try:
            settings[name] = float(value)
        except ValueError:
            raise SystemExit(f"error: --variant {text!r}: {value!r} is not a number, True, False or None") from None
    return label, settings


def variants(thresholds: str = "0.7:0.4", soft: bool = False, first_pass: bool = True) -> list[tuple[str, dict]]:
    """(label, CRFExtractor settings) to compare, each row adding one step: the
    first pass alone, then per upper:lower pair the document's relabelling, the
    relabelling that keeps text blocks' own text, the article region, and the
    teaser and gap steps (the extractor's default).  All with the default
    fallback for pages left without content."""
    plain = dict(region=None, teasers=False, fill_gaps=False)
    out: list[tuple[str, dict]] = []
    if first_pass:
        out += [
            ("CRF alone", dict(relabel=False, **plain)),
            ("CRF alone, no fallback", dict(relabel=False, fallback=None, **plain)),
        ]
    for pair in thresholds.split(","):
        u, lo = (float(x) for x in pair.split(":"))
        extra = ", soft" if soft else ""
        rule = f"+ relabelling {u:g}/{lo:g}"
        out.append((f"{rule}, document's rule{extra}", dict(upper=u, lower=lo, keep_text=False, soft=soft, **plain)))
        out.append((f"{rule}, text kept{extra}", dict(upper=u, lower=lo, soft=soft, **plain)))
        out.append((f"{rule}, text kept, article region{extra}",
                    dict(upper=u, lower=lo, soft=soft, teasers=False, fill_gaps=False)))
        out.append((f"{rule}, text kept, article region, teasers, gaps (default){extra}",
                    dict(upper=u, lower=lo, soft=soft)))
    return out


def cross_validate(
    data, folds: int, params: dict, split_tags, thresholds: str, soft: bool, extra: Sequence[tuple[str, dict]] = ()
) -> None:
    """Train on K-1 folds of the sites, score the held-out fold against gold."""
    import tempfile

    keys = list(data)
    chosen = variants(thresholds, soft) + list(extra)
    results: dict[str, list] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(folds):
            held = [key for i, key in enumerate(keys) if i % folds == k]
            rest = [tp for key in keys if key not in held for _, _, tp in data[key] if tp is not None]
            path = train(rest, Path(tmp) / f"fold{k}.zip", params, split_tags)
            for name, kw in chosen:
                ex = CRFExtractor(path, **kw)
                for key in held:
                    for e, page, _ in data[key]:
                        title, body = ex.extract(page.html)
                        results.setdefault(name, []).append((prediction(title, body, e.gold_has_title), e.gold()))
    print(f"| variant ({folds}-fold CV by site) | F1 | P | R | BLEU-4 | ROUGE-2 |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, pairs in results.items():
        s = evaluate(pairs)
        print(f"| {name} | {s.f1:.3f} | {s.precision:.3f} | {s.recall:.3f} | {s.bleu4:.3f} | {s.rouge2:.3f} |", flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_data_option(ap)
    ap.add_argument("-o", "--output", default=str(DEFAULT_OUTPUT), help="model file to write")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE", help="crfsuite training parameter")
    ap.add_argument("--split-tags", default=",".join(DEFAULT_SPLIT_TAGS), help="tags that cut blocks")
    ap.add_argument("--cache", metavar="DIR", help="keep learned site patterns here (speeds up reruns)")
    ap.add_argument("--cv", type=int, metavar="K", help="K-fold cross-validation by site instead of training")
    ap.add_argument("--thresholds", default="0.7:0.4", help="upper:lower pairs for --cv, comma-separated")
    ap.add_argument("--soft", action="store_true", help="--cv: relabel on marginal probabilities")
    ap.add_argument("--variant", action="append", default=[], metavar="LABEL:NAME=VALUE,...",
                    help="--cv: one more row with these CRFExtractor settings (repeatable)")
    args = ap.parse_args(argv)

    root = data_dir(args.data)
    split_tags = tuple(t.strip() for t in args.split_tags.split(",") if t.strip())
    params = parse_params(args.set)
    cache = Path(args.cache) if args.cache else None
    if cache:
        cache.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    data = load_training(root, split_tags, cache)
    labelled = [tp for rows in data.values() for _, _, tp in rows if tp is not None]
    total = sum(len(rows) for rows in data.values())
    print(f"{len(labelled)} of {total} pages of {len(data)} sites labelled ({time.perf_counter() - t0:.0f}s)", file=sys.stderr)
    if args.cv:
        extra = [parse_variant(v) for v in args.variant]
        cross_validate(data, args.cv, params, split_tags, args.thresholds, args.soft, extra)
        return 0
    info = {"training_sites": len(data), "datasets": list(TRAIN_DATASETS), "min_pages": MIN_PAGES}
    path = train(labelled, args.output, params, split_tags, info)
    size = path.stat().st_size
    digest = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    print(f"wrote {path} ({size / 1024:.0f} KiB, sha256 {digest}…) in {time.perf_counter() - t0:.0f}s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
