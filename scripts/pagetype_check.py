"""Prove that a change leaves page typing as it was, page by page.

For every page of the evaluation data, of the demo site (days 1 and 3, every kind of
page) and of a few thousand generated pages (random nestings of the tags the features
look at: links in headings and list items, comments, skipped elements, tails, class
names, prices and dates), records the page-type features (exact floats), the model's
score, the kind given with no layout, an article layout and a non-article layout, the
declared kind and the kind model's answer, and the page's metadata twice: as the chain
gives it (after typing, from the facts typing read) and from a fresh page (metadata alone).

Then (``--parts chain``, or both with ``--parts pages,chain``) the pages as the extraction
chain types them with the site's learned layouts (the layouts' vote,
``newsstemmer.combine.layouttypes``): the demo site of days 1 and 3 and every ``cttf``
site, each learned from its own pages, then each page extracted: ``is_article``,
``page_type``, ``page_score``, the metadata fields and the method.  Only public calls
(``learn``, ``extract_with_patterns``): the script records an older checkout too
(``PYTHONPATH=/path/to/base python scripts/pagetype_check.py record --parts chain ...``).

    python scripts/pagetype_check.py record FILE [--data DIR] [--generated 3000] [--parts pages,chain]
    python scripts/pagetype_check.py compare OLD NEW

``compare`` names every page whose record differs (features beyond 1e-12, scores
beyond 1e-9, any kind or metadata field) and exits 1 if one does; of the chain's pages,
those whose kind or metadata changed (with the kinds, before and after), and how many
changed their score only.  Record before a change, record after, compare.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
if not os.environ.get("PYTHONPATH"):  # (with it, the checkout it names is recorded: a base's, for one)
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import newsstemmer  # noqa: E402  (before ``shared``, which puts this checkout first on the path)

from shared import data_dir, load_manifest  # noqa: E402

from newsstemmer import Page  # noqa: E402
from newsstemmer.metadata import article_metadata  # noqa: E402
from newsstemmer.pagetype import FEATURES, declared_kind, facts_of, page_type, page_type_features  # noqa: E402
from newsstemmer.pagetype.kinds import non_article_kind  # noqa: E402

_TAGS = ("div", "span", "a", "p", "li", "ul", "h1", "h2", "h3", "h4", "nav", "footer", "aside", "header", "form",
         "input", "button", "img", "table", "pre", "code", "article", "time", "script", "style", "noscript", "svg",
         "select", "option", "iframe", "template", "b", "section", "textarea", "main")
_WORDS = ("read more", "Reply", "Share", "$12.99", "19.99 EUR", "March 3, 2021", "2020-05-01", "add to cart",
          "3 hours ago", "the quick brown fox jumps over the lazy dog and keeps running far away", "»", "   ",
          "Buy now", "In stock", "12/05/2019", "comments", "\u0130n stock", "more", "Weiterlesen", "quote")
_CLASSES = ("comment", "share-bar", "author byline", "pagination", "card teaser", "product-price", "sidebar",
            "entry-content", "related", "post-item", "forum thread", "x", "")


def _generated(n: int, seed: int = 24) -> list[tuple[str, str]]:
    """``n`` random pages (URL, HTML), the same for a seed."""
    rnd = random.Random(seed)

    def text() -> str:
        return " ".join(rnd.choice(_WORDS) for _ in range(rnd.randint(0, 4)))

    def element(depth: int) -> str:
        tag = rnd.choice(_TAGS)
        attrs = ""
        if rnd.random() < 0.4:
            attrs += f' class="{rnd.choice(_CLASSES)}"'
        if rnd.random() < 0.15:
            attrs += f' id="{rnd.choice(_CLASSES)}"'
        if tag == "a" and rnd.random() < 0.8:
            attrs += ' href="%s"' % rnd.choice(("/a", "/b", "tel:123", "mailto:x@y.z", "/a", "#", "",
                                                 "/author/ann-lee"))
        inner = text()
        if depth < 6:
            for _ in range(rnd.randint(0, 4)):
                inner += element(depth + 1) + text()
                if rnd.random() < 0.1:
                    inner += "<!-- %s -->" % text()
        return f"<{tag}{attrs}>{inner}</{tag}>"

    pages = []
    for i in range(n):
        h1 = rnd.choice(("", "<h1>%s</h1>" % text(), "<h1>The quick brown fox</h1>", "<h2>The quick brown fox</h2>"))
        body = h1 + "".join(element(0) + text() for _ in range(rnd.randint(1, 6)))
        head = rnd.choice(("", '<meta property="og:type" content="article">',
                           '<script type="application/ld+json">{"@type": "NewsArticle", "datePublished": "2021"}'
                           "</script>", "<title>Shop | Buy now</title>", "<title>The quick brown fox | X</title>"))
        url = rnd.choice(("http://x.test/", "http://x.test/news/2021/05/a-story-%d.html" % i,
                          "http://x.test/tag/jobs/?page=2", "http://x.test/about/", None))
        pages.append((url, f"<html><head>{head}</head><body>{body}</body>" + rnd.choice(("", " tail", "</html>"))))
    return pages


def _pages(args: argparse.Namespace) -> list[tuple[str, str | None, str]]:
    """(name, URL, HTML) of every page checked."""
    from newsstemmer.demo.site import build_site

    # a page is keyed by (dataset, site, id): misinfo names its files article-1..3 on every site
    out = [(f"data:{e.dataset}/{e.site}/{e.id}", e.url, e.html()) for e in load_manifest(data_dir(args.data))]
    for day in (1, 3):
        out += [(f"demo{day}:{p.path}", "http://demo.test" + p.path, p.decoded) for p in build_site(7, 120, day)]
    out += [(f"gen:{i}", url, html) for i, (url, html) in enumerate(_generated(args.generated))]
    return out


def _record_of(url: str | None, html: str) -> dict:
    page = Page(html, url=url)
    facts = facts_of(page)
    x = page_type_features(page.tree, url, facts)
    kinds = [page_type(page, layout) for layout in (None, True, False)]
    alone = Page(html, url=url)
    return {
        "metadata": article_metadata(page.tree, url, facts=facts, html=html).as_dict(),  # (as the chain: after typing)
        "metadata_alone": article_metadata(alone.tree, url, html=html).as_dict(),
        "features": [x[n] for n in FEATURES],
        "score": kinds[0].score,
        "kinds": [k.kind for k in kinds],
        "declared": declared_kind(page),
        "kind_model": non_article_kind(x, url, facts),
    }


def _chain_sites(args: argparse.Namespace) -> list[tuple[str, list[tuple[str, str]]]]:
    """(name, [(URL, HTML)]) of every site the chain's part learns and extracts."""
    from collections import defaultdict

    from newsstemmer.demo.site import build_site

    sites = [(f"demo{day}", [("http://demo.test" + p.path, p.decoded) for p in build_site(7, 120, day)])
             for day in (1, 3)]
    by_site: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for e in load_manifest(data_dir(args.data)):
        if e.dataset == "cttf" and e.url:
            by_site[e.site].append((e.url, e.html()))
    return sites + [(f"cttf/{name}", pages) for name, pages in sorted(by_site.items())]


def _chain_records(args: argparse.Namespace) -> dict:
    """Per page of :func:`_chain_sites`, its type and metadata as the chain gives them."""
    from newsstemmer import ExtractOptions, learn
    from newsstemmer.combine.extract import extract_with_patterns

    out = {}
    opts = ExtractOptions(fallback="region")
    for name, pages in _chain_sites(args):
        site = learn([Page(html, url=url) for url, html in pages], site=name)
        for url, html in pages:
            try:
                art = extract_with_patterns(Page(html, url=url), site, opts)
            except Exception as exc:
                out[f"chain:{name}:{url}"] = {"error": type(exc).__name__}
                continue
            out[f"chain:{name}:{url}"] = {
                "chain": [art.is_article, art.page_type, art.method, art.pattern], "page_score": art.page_score,
                "metadata": {k: v for k, v in art.to_json_dict().items() if k in _META_KEYS}}
    return out


_META_KEYS = ("authors", "published", "modified", "language", "section", "tags", "description", "image",
              "canonical_url", "site_name", "meta_source")


def record(args: argparse.Namespace) -> int:
    started = time.time()
    out = {}
    parts = set(args.parts.split(","))
    for name, url, html in _pages(args) if "pages" in parts else ():
        try:
            out[name] = _record_of(url, html)
        except Exception as exc:  # (a page the parser refuses: the same error must come back)
            out[name] = {"error": type(exc).__name__}
    if "chain" in parts:
        out.update(_chain_records(args))
    Path(args.file).write_text(json.dumps(out), encoding="utf-8")
    print(f"newsstemmer from {Path(newsstemmer.__file__).parent.parent}")
    print(f"{len(out)} pages recorded in {time.time() - started:.0f} s -> {args.file}")
    return 0


def compare(args: argparse.Namespace) -> int:
    old = json.loads(Path(args.old).read_text(encoding="utf-8"))
    new = json.loads(Path(args.new).read_text(encoding="utf-8"))
    differ = sorted(set(old) ^ set(new))
    worst_feature = worst_score = 0.0
    score_only = 0
    for name in sorted(set(old) & set(new)):
        a, b = old[name], new[name]
        if "error" in a or "error" in b:
            if a != b:
                differ.append(name)
            continue
        if "chain" in a:
            if a["chain"][:2] != b["chain"][:2] or a["metadata"] != b["metadata"]:
                print(f"chain differs: {name}: {a['chain']} {a['page_score']} -> {b['chain']} {b['page_score']}"
                      + ("" if a["metadata"] == b["metadata"] else " (metadata)"))
                differ.append(name)
            elif a != b:
                score_only += 1
            continue
        gaps = [abs(u - v) for u, v in zip(a["features"], b["features"])]
        feature_gap, score_gap = max(gaps, default=0.0), abs(a["score"] - b["score"])
        worst_feature, worst_score = max(worst_feature, feature_gap), max(worst_score, score_gap)
        same_kinds = all(a.get(k) == b.get(k)
                         for k in ("kinds", "declared", "kind_model", "metadata", "metadata_alone"))
        if feature_gap > 1e-12 or score_gap > 1e-9 or not same_kinds or len(a["features"]) != len(b["features"]):
            differ.append(name)
    for name in differ:
        print("differs:", name)
    print(f"{len(differ)} of {len(set(old) | set(new))} pages differ (largest feature gap {worst_feature:.3g}, "
          f"score gap {worst_score:.3g}); chain pages with the same kind and metadata but another score "
          f"or method: {score_only}")
    return 1 if differ else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record")
    rec.add_argument("file")
    rec.add_argument("--data")
    rec.add_argument("--generated", type=int, default=3000)
    rec.add_argument("--parts", default="pages,chain", help="pages (each page alone), chain (with learned layouts)")
    cmp_ = sub.add_parser("compare")
    cmp_.add_argument("old")
    cmp_.add_argument("new")
    args = ap.parse_args()
    return record(args) if args.command == "record" else compare(args)


if __name__ == "__main__":
    sys.exit(main())
