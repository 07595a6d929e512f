"""Only articles in the feed: a real crawl of a small site with a front page, section, tag
and author pages, service pages (about, contact, privacy) and articles.  By default the
feed holds the articles alone and the other pages are counted; with
``NEWSSTEMMER_INCLUDE_NON_ARTICLES`` they go out as ``NonArticleItem``, which a feed's
``item_classes`` routes to a file of its own."""

from __future__ import annotations

import html
import json
import random

import pytest

from newsstemmer.crawl.testing import REPRODUCIBLE_SETTINGS, TestSite, crawl_stats, run_crawl, serve

pytestmark = pytest.mark.crawl

_WORDS = ("harbour council budget ferry museum election storm bridge farmers railway festival court market "
          "tunnel library teachers energy coast village mayor contract airport orchestra lighthouse").split()
TAGS = ("transport", "culture", "weather")
AUTHORS = ("ann-lee", "bo-chen", "cy-diaz")


def _sentence(rng: random.Random) -> str:
    return " ".join(rng.choice(_WORDS) for _ in range(rng.randint(9, 16))).capitalize() + "."


def _frame(title: str, main: str) -> bytes:
    nav = "".join(f'<li><a href="/tag/{t}/">{t.capitalize()}</a></li>' for t in TAGS)
    page = (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)} | Valley Post'
            f'</title></head><body><header><a href="/">Valley Post</a><nav><ul>{nav}'
            '<li><a href="/about/">About</a></li><li><a href="/contact/">Contact</a></li></ul></nav></header>'
            f'<main>{main}</main><footer><p>Valley Post, 2 Quay Street. <a href="/privacy/">Privacy</a> '
            '<a href="/about/">About us</a></p></footer></body></html>')
    return page.encode("utf-8")


def build_site(n_articles: int = 15, seed: int = 3) -> TestSite:
    """Articles under /news/2026/, each with a tag and an author; a front page, tag pages,
    author pages, and three service pages."""
    rng = random.Random(seed)
    site = TestSite()
    heads, paths = [], []
    for i in range(n_articles):
        heads.append(" ".join(rng.choice(_WORDS) for _ in range(rng.randint(6, 9))).capitalize() + f" in ward {i}")
        paths.append(f"/news/2026/03/{i + 10:02d}/{'-'.join(heads[-1].lower().split()[:5])}.html")
    teaser = {p: _sentence(rng) for p in paths}
    for i, (path, head) in enumerate(zip(paths, heads)):
        tag, author = TAGS[i % 3], AUTHORS[i % 3]
        paras = [" ".join(_sentence(rng) for _ in range(rng.randint(3, 5))) for _ in range(rng.randint(4, 8))]
        main = (f'<article><h1>{html.escape(head)}</h1><p class="byline">By <a href="/author/{author}/">'
                f'{author.replace("-", " ").title()}</a>, 2026-03-{i + 10:02d}</p>'
                + "".join(f"<p>{html.escape(p)}</p>" for p in paras)
                + f'<p class="tags">Filed under <a href="/tag/{tag}/">{tag}</a></p></article>')
        site.pages[path] = (200, "text/html; charset=utf-8", _frame(head, main))
        site.articles[path] = (head, "\n".join(paras))

    def listing(title: str, chosen: list[int]) -> bytes:
        cards = "".join(f'<div class="card"><h2><a href="{paths[j]}">{html.escape(heads[j])}</a></h2>'
                        f'<p>{html.escape(teaser[paths[j]])}</p><a href="{paths[j]}">Read more</a></div>'
                        for j in chosen)
        return _frame(title, f"<h1>{html.escape(title)}</h1>{cards}")

    site.pages["/"] = (200, "text/html; charset=utf-8", listing("Latest news", list(range(n_articles))))
    for k, tag in enumerate(TAGS):
        site.pages[f"/tag/{tag}/"] = (200, "text/html; charset=utf-8",
                                      listing(f"Tagged {tag}", [i for i in range(n_articles) if i % 3 == k]))
    for k, author in enumerate(AUTHORS):
        site.pages[f"/author/{author}/"] = (200, "text/html; charset=utf-8",
                                            listing(f"Stories by {author}", [i for i in range(n_articles)
                                                                              if i % 3 == k]))
    site.pages["/about/"] = (200, "text/html; charset=utf-8", _frame("About us", (
        "<h1>About us</h1><p>The Valley Post is the valley's independent newspaper, founded in 1921.</p>"
        "<p>Write to the newsroom at the address below.</p>")))
    site.pages["/contact/"] = (200, "text/html; charset=utf-8", _frame("Contact", (
        '<h1>Contact</h1><form action="/send"><input name="name"><input name="email"><textarea name="m">'
        "</textarea><button>Send</button></form><p>Phone 555 0100.</p>")))
    site.pages["/privacy/"] = (200, "text/html; charset=utf-8", _frame("Privacy policy", (
        "<h1>Privacy policy</h1><p>We keep the addresses of our subscribers to send them the paper.</p>"
        "<p>We use no tracking cookies.</p>")))
    return site


@pytest.fixture(scope="module")
def crawls(tmp_path_factory):
    site = build_site()
    out = {}
    with serve(site) as base:
        for name, extra in (("default", {}), ("routed", {"NEWSSTEMMER_INCLUDE_NON_ARTICLES": "True"})):
            tmp = tmp_path_factory.mktemp(name)
            settings = {"NEWSSTEMMER_STATE_DIR": str(tmp / "state"), "NEWSSTEMMER_PATTERNS_DIR": str(tmp / "patterns"),
                        "NEWSSTEMMER_INCREMENTAL": "False", **REPRODUCIBLE_SETTINGS, **extra}
            args = []
            if name == "routed":
                feeds = {str(tmp / "articles.jsonl"): {"format": "jsonlines",
                                                       "item_classes": ["newsstemmer.crawl.items.ArticleItem"]},
                         str(tmp / "others.jsonl"): {"format": "jsonlines",
                                                     "item_classes": ["newsstemmer.crawl.items.NonArticleItem"]}}
                args = ["-s", "FEEDS=" + json.dumps(feeds)]
            result = run_crawl([base + "/"], tmp / "all.jsonl", settings, extra_args=args)
            assert result.returncode == 0, result.stderr[-3000:]
            read = lambda p: [json.loads(x) for x in p.read_text().splitlines()] if p.exists() else []  # noqa: E731
            out[name] = {"all": read(tmp / "all.jsonl"), "articles": read(tmp / "articles.jsonl"),
                         "others": read(tmp / "others.jsonl"), "stats": crawl_stats(result.stderr),
                         "health": [json.loads(x) for x in (tmp / "state" / "health.jsonl").read_text().splitlines()],
                         "base": base}
    return site, out


def _path(url: str, base: str) -> str:
    return url[len(base):]


def test_the_feed_holds_every_article_and_nothing_else(crawls):
    site, out = crawls
    run = out["default"]
    paths = [_path(item["url"], run["base"]) for item in run["all"]]
    assert sorted(paths) == sorted(site.articles)  # every article, no front, tag, author or service page
    for item in run["all"]:
        assert item["is_article"] is True and item["page_type"] == "article"
    n_other = len(site.pages) - len(site.articles)
    stats = run["stats"]
    assert stats.get("newsstemmer/non_articles") == n_other
    kinds = {k.split("/", 2)[2]: v for k, v in stats.items() if k.startswith("newsstemmer/non_articles/")}
    assert sum(kinds.values()) == n_other
    assert kinds.get("listing", 0) >= 7  # the front page, 3 tag pages, 3 author pages
    assert run["health"][-1]["non_articles"] == n_other


def test_non_articles_go_out_as_their_own_item_class(crawls):
    site, out = crawls
    run = out["routed"]
    base = run["base"]
    assert sorted(_path(i["url"], base) for i in run["articles"]) == sorted(site.articles)
    others = {_path(i["url"], base): i for i in run["others"]}
    assert set(others) == set(site.pages) - set(site.articles)
    for item in others.values():
        assert item["is_article"] is False and item["page_type"] != "article"
        assert 0.0 <= item["page_score"] <= 1.0
        assert "published" not in item  # not an article's item
    for path in ("/", "/tag/weather/", "/author/ann-lee/"):
        assert others[path]["page_type"] == "listing", path
    for path in ("/about/", "/contact/", "/privacy/"):
        assert others[path]["page_type"] in ("service", "error"), path
    assert len(run["all"]) == len(run["articles"]) + len(run["others"])  # the unrouted feed has both
