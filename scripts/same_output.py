"""Prove that a change leaves newsstemmer's output as it was, page by page.

Runs every method on every page of the evaluation data and records a digest of
what each gives: the layout blocks, the CRF segmentation, learned pattern files
(each site learned from all its pages) with the section roles the section decision
gave each layout and the per-layout page choice kept with them, extraction with those
patterns (PageRank fallback, and the default chain: region fallback and the per-page
layout-or-region choice), PageRank alone, the default single-page method (region)
alone (for these two and the default chain also the typed blocks, Markdown, HTML,
captions and pictures), the CRF alone, and CSS rules learned from a site's first 3 pages (with the
layouts of those pages) applied to the others.

    python scripts/same_output.py record FILE [--data DIR] [--datasets a,b] [--max-sites N]
    python scripts/same_output.py compare OLD NEW

``compare`` lists every (method, page) whose output differs and exits 1 if any
does.  Record before a refactor, record after, compare.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import newsstemmer  # noqa: E402  (before ``shared``, which puts this checkout first on the path)

from shared import by_site, data_dir, load_manifest  # noqa: E402
from newsstemmer import ExtractOptions, Page, learn, page_blocks, pagerank_extract  # noqa: E402


def _digest(obj: object) -> str:
    raw = json.dumps(obj, ensure_ascii=False, sort_keys=True, default=str)
    return hashlib.blake2b(raw.encode("utf-8"), digest_size=12).hexdigest()


def _sections_record(site_patterns) -> list:
    """Each layout's section roles (what the section decision leaves MAIN) and the
    learned page choice kept with the patterns."""
    layouts = [
        [p.id, [[s.path, s.role] for s in p.sections]]
        for p in site_patterns.patterns
    ]
    return [layouts, site_patterns.extras.get("region_choice"), site_patterns.extras.get("region_agreement")]


def _single(page, method: str):
    """One single-page method's article, wherever this version keeps the chain."""
    try:
        from newsstemmer import extract_single
    except ImportError:  # pragma: no cover
        from newsstemmer.single import extract_single  # type: ignore[no-redef]
    return extract_single(page, method)


def _crf_api():
    """The CRF extractor and segmenter, wherever this version keeps them."""
    try:
        from newsstemmer.single.crf import CRFExtractor, segment
    except ImportError:
        from newsstemmer.crf import CRFExtractor, segment  # type: ignore[no-redef]
    return CRFExtractor, segment


def _rules_api():
    try:
        from newsstemmer.rules import apply_rules, learn_rules
    except ImportError:  # pragma: no cover
        raise
    return learn_rules, apply_rules


def _blocks_record(pb) -> list:
    return [
        [b.path, b.text, b.plain_text, b.weight, b.plain_weight, b.tag, b.in_comments] for b in pb.blocks
    ] + [pb.title, pb.meta_title, pb.h1, pb.description]


def _fields(block) -> dict:
    """A block's fields by name (a block with slots has no ``__dict__``; sequences are
    written as JSON lists, tuple or list alike)."""
    if hasattr(block, "__dict__"):
        return dict(vars(block))
    return {name: getattr(block, name) for name in block.__dataclass_fields__}


def _typed_record(article) -> list:
    """An article's typed blocks (every field, left-out ones too), whether they came from
    the page's structure, its Markdown and HTML, captions and pictures (issue #25)."""
    return [[_fields(b) for b in article.blocks], article.typed, article.body_markdown, article.body_html,
            article.captions, article.images]


def _segment_record(page) -> list:
    return [
        [b.tag, b.parent, b.text if hasattr(b, "text") else None, sorted(b.hints), sorted(b.context_hints),
         sorted(b.context_tags)]
        for b in page.blocks
    ]


def record(args: argparse.Namespace) -> int:
    root = data_dir(args.data)
    entries = load_manifest(root)
    datasets = args.datasets.split(",") if args.datasets else sorted({e.dataset for e in entries})
    CRFExtractor, segment = _crf_api()
    learn_rules, apply_rules = _rules_api()
    crf = CRFExtractor()
    out: dict[str, str] = {}
    t0 = time.perf_counter()
    n = 0
    for ds in datasets:
        for i, (site, group) in enumerate(sorted(by_site(entries, ds).items())):
            if args.max_sites and i >= args.max_sites:
                break
            htmls = [e.html() for e in group]
            pages = [Page(h, url=e.url, source=e.id) for e, h in zip(group, htmls)]
            for e, h in zip(group, htmls):
                key = f"{ds}/{site}/{e.id}"
                try:
                    out[f"blocks {key}"] = _digest(_blocks_record(page_blocks(h)))
                except Exception as exc:  # an error is output too
                    out[f"blocks {key}"] = f"error {type(exc).__name__}"
                try:
                    out[f"segment {key}"] = _digest(_segment_record(segment(h)))
                except Exception as exc:
                    out[f"segment {key}"] = f"error {type(exc).__name__}"
                r = pagerank_extract(h, e.url)
                out[f"pagerank {key}"] = _digest([r.title, r.body])
                out[f"typed-pagerank {key}"] = _digest(_typed_record(_single(Page(h, url=e.url), "pagerank")))
                try:
                    a = _single(Page(h, url=e.url, source=e.id), "region")
                    out[f"region {key}"] = _digest([a.title, a.body, a.method])
                    out[f"typed-region {key}"] = _digest(_typed_record(a))
                except Exception as exc:
                    out[f"region {key}"] = f"error {type(exc).__name__}"

                out[f"crf {key}"] = _digest(list(crf.extract(h)))
                n += 1
            site_patterns = learn(pages)
            learned = site_patterns.to_dict()
            learned.pop("created", None)  # (when it was learned)
            out[f"patterns {ds}/{site}"] = _digest(learned)
            out[f"sections {ds}/{site}"] = _digest(_sections_record(site_patterns))
            opts = ExtractOptions(fallback="pagerank")
            for e, h in zip(group, htmls):
                a = newsstemmer.extract(h, site_patterns, url=e.url, options=opts)
                out[f"layout {ds}/{site}/{e.id}"] = _digest(
                    [a.title, a.body, a.matched, a.method, a.pattern, a.score, a.is_article]
                )
                a = newsstemmer.extract(h, site_patterns, url=e.url)  # the default chain
                out[f"default {ds}/{site}/{e.id}"] = _digest(
                    [a.title, a.body, a.matched, a.method, a.pattern, a.score, a.is_article]
                )
                out[f"typed-default {ds}/{site}/{e.id}"] = _digest(_typed_record(a))
            if len(group) >= 4 and ds != "dragnet" or len(group) >= 6:
                ordered = sorted(zip(group, htmls), key=lambda p: p[0].id)
                train = [Page(h, url=e.url, source=e.id) for e, h in ordered[:3]]
                rules = learn_rules(train, learn(train))
                out[f"rules-learned {ds}/{site}"] = _digest(rules.to_dict() if hasattr(rules, "to_dict") else str(rules))
                for e, h in ordered[3:]:
                    out[f"rules {ds}/{site}/{e.id}"] = _digest(list(apply_rules(h, rules)))
        print(f"{ds}: {n} pages so far, {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    Path(args.file).write_text(json.dumps(out, indent=0, sort_keys=True), encoding="utf-8")
    print(f"{len(out)} outputs of {n} pages written to {args.file} (newsstemmer from {Path(newsstemmer.__file__).parent.parent})", file=sys.stderr)
    return 0


def compare(args: argparse.Namespace) -> int:
    old = json.loads(Path(args.old).read_text(encoding="utf-8"))
    new = json.loads(Path(args.new).read_text(encoding="utf-8"))
    differ = sorted(k for k in old.keys() | new.keys() if old.get(k) != new.get(k))
    by_method: dict[str, int] = {}
    for k in differ:
        by_method[k.split(" ", 1)[0]] = by_method.get(k.split(" ", 1)[0], 0) + 1
        print(f"differs: {k}: {old.get(k)} -> {new.get(k)}")
    print(f"{len(old)} outputs before, {len(new)} after, {len(differ)} differ {by_method or ''}")
    return 1 if differ else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record", help="run every method on every page, write digests to FILE")
    rec.add_argument("file")
    rec.add_argument("--data")
    rec.add_argument("--datasets", help="comma-separated dataset names (default: all)")
    rec.add_argument("--max-sites", type=int, default=0, help="at most N sites of each set (a quick check)")
    cmp_ = sub.add_parser("compare", help="list the outputs that differ between two records")
    cmp_.add_argument("old")
    cmp_.add_argument("new")
    args = parser.parse_args()
    return record(args) if args.command == "record" else compare(args)


if __name__ == "__main__":
    sys.exit(main())
