"""The demo site's article pages, one renderer per layout.

* ``standard`` (world, business, tech, sport): per-article ids in ``id``/``class``,
  kicker, standfirst, byline, an optional lead photo, an inline advert inside long
  bodies, sub-headings, tags, share tools, related stories, on some a comment thread;
* ``opinion``: a styled first paragraph, a columnist box, a disclaimer, "more from
  this columnist";
* ``gallery``: intro text and slides (image, caption, credit);
* ``japanese``: the Japanese edition's article, in its own theme.

The page's text elements read exactly as the article's planned items
(:attr:`~newsstemmer.demo.plan.PlannedArticle.body`): that is the truth the tests and
benchmarks score against.
"""

from __future__ import annotations

import datetime as _dt
import bisect
import random
from collections.abc import Iterable, Iterator, Sequence

from . import text as en
from .markup import Doc, esc, long_time, short_date, slug
from .sitemodel import SECTION_BY_KEY
from .plan import AUTHOR_ROLES, CREDITS_PEOPLE, PlannedArticle, SitePlan
from .themes import ad, english_page, japanese_page

__all__ = ["article_page"]


def article_page(plan: SitePlan, art: PlannedArticle) -> Doc:
    """The page of a planned article, in its layout."""
    render = {"standard": _standard, "opinion": _opinion, "gallery": _gallery, "japanese": _japanese}[art.layout]
    doc = render(plan, art)
    doc.article = art
    return doc


def _body_html(plan: SitePlan, doc: Doc, rng: random.Random, art: PlannedArticle, inline_ad: bool) -> str:
    """The article's items as HTML: one paragraph may link a related story; long bodies carry an inline advert."""
    out: list[str] = []
    paras = [i for i, (k, _) in enumerate(art.items) if k == "p"]
    linked = rng.choice(paras) if paras and rng.random() < 0.6 else None
    ad_after = paras[2] if inline_ad and len(paras) >= 5 else None
    for i, (kind, t) in enumerate(art.items):
        if kind == "h2":
            out.append(f"<h2>{esc(t)}</h2>")
        elif i == linked:
            out.append(f"<p>{_inline_link(plan, doc, rng, art, t)}</p>")
        else:
            out.append(f"<p>{esc(t)}</p>")
        if i == ad_after:
            out.append(ad(doc, rng, "inline").rstrip("\n"))
    return "\n".join(out) + "\n"


class _Skipping(Sequence[PlannedArticle]):
    """``arts`` but the items at places ``skipped``: a view, so that a page of a section of any size
    (a long run's, read from disk) costs what it shows, not the section."""

    def __init__(self, arts: Sequence[PlannedArticle], skipped: Iterable[int]) -> None:
        self._arts, self._skipped = arts, sorted(skipped)

    def __len__(self) -> int:
        return len(self._arts) - len(self._skipped)

    def __getitem__(self, i: int) -> PlannedArticle:  # type: ignore[override]
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(i)
        for s in self._skipped:
            if s > i:
                break
            i += 1
        return self._arts[i]

    def __iter__(self) -> Iterator[PlannedArticle]:
        skipped = set(self._skipped)
        return (a for k, a in enumerate(self._arts) if k not in skipped)


def _others(arts: Sequence[PlannedArticle], art: PlannedArticle) -> _Skipping:
    """The articles of ``arts`` (in id order) but ``art``."""
    i = bisect.bisect_left(arts, art.id, key=lambda a: a.id)
    return _Skipping(arts, [i] if i < len(arts) and arts[i].id == art.id else [])


def _nearest(arts: Sequence[PlannedArticle], ident: int, k: int) -> list[int]:
    """The places of the ``k`` articles of ``arts`` (in id order) whose ids are nearest ``ident``, nearest
    first (ties: the lower id), as sorting all of ``arts`` stably by distance would give: they lie
    within ``k`` places of where ``ident`` would go."""
    i = bisect.bisect_left(arts, ident, key=lambda a: a.id)
    window = range(max(0, i - k), min(len(arts), i + k))
    return sorted(window, key=lambda j: abs(arts[j].id - ident))[:k]


def _inline_link(plan: SitePlan, doc: Doc, rng: random.Random, art: PlannedArticle, t: str) -> str:
    """The paragraph with one phrase linked to a related story (the text is unchanged)."""
    for name in (art.ctx.get("company"), art.ctx.get("city"), art.ctx.get("team"), art.ctx.get("person")):
        if name and name in t:
            i = t.index(name)
            others = _others(plan.by_section[art.section], art)
            target = rng.choice(others).path if others else f"/{art.section}/"
            return esc(t[:i]) + doc.a(target, name) + esc(t[i + len(name):])
    return esc(t)


def _related(plan: SitePlan, doc: Doc, rng: random.Random, art: PlannedArticle, heading: str, cls: str) -> str:
    """A box of stories of the same section, the nearest ids first."""
    same = _others(plan.by_section[art.section], art)
    # ``same`` is in id order: the three nearest ids lie within three places of the article's own
    # (sorting that window, stably, gives what sorting the whole section would, at any size)
    taken = _nearest(same, art.id, 3)
    near = [same[k] for k in taken]
    rest = _Skipping(same, taken)  # ids are unique: the same as ``a not in near``, without comparing dataclasses
    picks = near + rng.sample(rest, min(len(rest), rng.randint(0, 2)))
    if not picks:
        return ""
    items = "".join(
        f'<li class="related-item">{doc.a(a.path, a.title)} <span class="related-date">{short_date(a.when)}</span></li>\n'
        for a in picks
    )
    return f'<section class="{cls} {cls}-{art.id}" id="{cls}-{art.id}"><h2>{heading}</h2>\n<ul>\n{items}</ul></section>\n'


def _topics(doc: Doc, art: PlannedArticle) -> str:
    """The line linking the article's tags (empty without tags)."""
    links = " ".join(doc.a(f"/tag/{slug(t)}/", t) for t in art.tags)
    return f'<p class="topics">Topics: {links}</p>\n' if links else ""


def _comment_thread(art: PlannedArticle, rng: random.Random) -> str:
    """The readers' comments (empty without comments)."""
    if not art.comments:
        return ""
    cid = art.id * 10
    items = []
    for name, body in art.comments:
        cid += rng.randint(1, 9)
        when = art.when + _dt.timedelta(minutes=rng.randint(20, 3000))
        items.append(
            f'<li id="comment-{cid}" class="comment comment-{cid} depth-1"><article class="comment-body">'
            f'<footer class="comment-meta"><b class="fn">{esc(name)}</b> <time>{short_date(when)} at {when:%H:%M}</time></footer>\n'
            f'<div class="comment-content"><p>{esc(body)}</p></div>'
            f'<a class="comment-reply-link" href="#comment-{cid}">Reply</a></article></li>\n'
        )
    n = len(art.comments)
    return (
        f'<section id="comments" class="comments-area"><h2 class="comments-title">{n} comments</h2>\n'
        f'<ol class="comment-list">\n{"".join(items)}</ol></section>\n'
    )


def _standard(plan: SitePlan, art: PlannedArticle) -> Doc:
    """A news article (world, business, tech, sport)."""
    doc = Doc(art.path)
    rng = plan.page_rng(art.path)
    section = SECTION_BY_KEY[art.section]
    tag_classes = " ".join(f"tag-{slug(t)}" for t in art.tags)
    kicker = art.tags[0]
    figure = ""
    if art.lead_caption:
        person = rng.choice(CREDITS_PEOPLE)
        figure = (
            f'<figure class="lead-media"><img src="/media/{art.id}/lead.jpg" alt="" width="1200" height="675">'
            f'<figcaption class="caption">{esc(art.lead_caption)} <span class="credit">Photograph: {esc(person)}/'
            f"{rng.choice(en.AGENCIES)}</span></figcaption></figure>\n"
        )
    updated = ""
    if rng.random() < 0.4:
        later = art.when + _dt.timedelta(minutes=rng.randint(30, 600))
        updated = f' <span class="updated">Last modified on {long_time(later)}</span>'
    tags = "".join(f'<li>{doc.a(f"/tag/{slug(t)}/", t)}</li>' for t in art.tags)
    author_href = f"/authors/{slug(art.author or '')}/"
    share = " ".join(doc.a(f"https://social.example/{net}?u={art.id}", label) for net, label in
                     (("fb", "Facebook"), ("x", "X"), ("mail", "Email")))
    main = (
        '<main id="content" class="site-main">\n'
        f'<nav class="breadcrumbs" aria-label="Breadcrumb"><ol><li>{doc.a("/", "Home")}</li>'
        f'<li>{doc.a(f"/{section.key}/", section.name)}</li><li class="crumb-current">{esc(art.short)}</li></ol></nav>\n'
        f'<article id="post-{art.id}" class="post post-{art.id} type-post status-publish format-standard '
        f'category-{section.key} {tag_classes}">\n'
        '<header class="entry-header">\n'
        f'<span class="kicker">{doc.a(f"/tag/{slug(kicker)}/", kicker)}</span>\n'
        f'<h1 class="entry-title">{esc(art.title)}</h1>\n'
        f'<p class="standfirst">{esc(art.dek)}</p>\n'
        f'<div class="entry-meta"><span class="byline">By {doc.a(author_href, art.author or "", "author")}</span>'
        f' <span class="role">{AUTHOR_ROLES[section.key]}</span> <time class="published" datetime="{art.when.isoformat()}">'
        f"{long_time(art.when)}</time>{updated}</div>\n"
        "</header>\n"
        f"{figure}"
        f'<div class="entry-content" itemprop="articleBody">\n{_body_html(plan, doc, rng, art, inline_ad=True)}</div>\n'
        f'<footer class="entry-footer"><ul class="tag-list">{tags}</ul>\n'
        f'<div class="share-tools"><span>Share this article</span> {share}</div></footer>\n'
        "</article>\n"
        f"{_related(plan, doc, rng, art, 'Related stories', 'related-stories')}"
        f"{_comment_thread(art, rng)}"
        "</main>\n"
    )
    english_page(plan, doc, rng, art.title, art.dek, section.key, main, art,
                 f"single single-post postid-{art.id} section-{section.key}", exclude=art.id)
    return doc


def _opinion(plan: SitePlan, art: PlannedArticle) -> Doc:
    """An opinion column."""
    doc = Doc(art.path)
    rng = plan.page_rng(art.path)
    author = art.author or ""
    author_slug = slug(author)
    paras = []
    for kind, t in art.items:
        cls = ' class="lede"' if kind == "lede" else ""
        paras.append(f"<p{cls}>{esc(t)}</p>")
    others = [a for a in plan.by_section["opinion"] if a.author == author and a.id != art.id]
    more = ""
    if others:
        picks = sorted(rng.sample(others, min(3, len(others))), key=lambda a: -a.id)
        more = (f'<div class="more-from"><h2>More from {esc(author)}</h2><ul>'
                + "".join(f"<li>{doc.a(a.path, a.title)}</li>" for a in picks) + "</ul></div>\n")
    main = (
        '<main id="content" class="site-main opinion-main">\n'
        f'<article id="column-{art.id}" class="column column-{art.id} opinion-piece">\n'
        f'<div class="column-head"><p class="section-label">{doc.a("/opinion/", "Opinion")}</p>\n'
        f'<h1 class="column-title">{esc(art.title)}</h1>\n'
        f'<p class="column-dek">{esc(art.dek)}</p></div>\n'
        f'<div class="columnist"><img class="columnist-photo" src="/media/authors/{author_slug}.jpg" alt="">'
        f'<div class="columnist-info">{doc.a(f"/authors/{author_slug}/", author, "columnist-name")}'
        f'<p class="columnist-bio">{esc(plan.bios[author])}</p></div>'
        f'<time datetime="{art.when.isoformat()}">{long_time(art.when)}</time></div>\n'
        f'<div class="column-text">\n' + "\n".join(paras) + "\n</div>\n"
        "<p class=\"disclaimer\">The views expressed in this column are the author's own and do not necessarily "
        "reflect those of The Meridian Courier.</p>\n"
        f"{_topics(doc, art)}"
        f"{more}"
        "</article>\n"
        f"{_comment_thread(art, rng)}"
        "</main>\n"
    )
    english_page(plan, doc, rng, art.title, art.dek, "opinion", main, art,
                 f"single single-column postid-{art.id} section-opinion", exclude=art.id)
    return doc


def _gallery(plan: SitePlan, art: PlannedArticle) -> Doc:
    """A photo gallery: intro and slides."""
    doc = Doc(art.path)
    rng = plan.page_rng(art.path)
    intro = [t for k, t in art.items if k == "p"]
    captions = [t for k, t in art.items if k == "caption"]
    author_href = f"/authors/{slug(art.author or '')}/"
    slides = []
    for k, (cap, credit) in enumerate(zip(captions, art.credits), 1):
        slides.append(
            f'<figure class="slide" id="slide-{art.id}-{k}"><img src="/media/{art.id}/{k}.jpg" alt="" loading="lazy">'
            f'<figcaption><span class="slide-count">{k}/{len(captions)}</span>'
            f'<p class="slide-caption">{esc(cap)}</p><p class="slide-credit">{esc(credit)}</p></figcaption></figure>'
        )
    main = (
        '<main id="content" class="site-main gallery-main">\n'
        f'<article id="gallery-{art.id}" class="gallery gallery-{art.id} media-gallery">\n'
        f'<header class="gallery-header"><p class="section-label">{doc.a("/photos/", "Photos")}</p>\n'
        f'<h1 class="gallery-title">{esc(art.title)}</h1>\n'
        f'<p class="gallery-dek">{esc(art.dek)}</p>\n'
        f'<p class="gallery-meta">{len(captions)} photographs, chosen by {doc.a(author_href, art.author or "")} '
        f'<time datetime="{art.when.isoformat()}">'
        f"{long_time(art.when)}</time></p></header>\n"
        '<div class="gallery-intro">' + "".join(f"<p>{esc(t)}</p>" for t in intro) + "</div>\n"
        '<div class="gallery-slides">\n' + "\n".join(slides) + "\n</div>\n"
        f"{_topics(doc, art)}"
        "</article>\n"
        f"{_related(plan, doc, rng, art, 'More galleries', 'more-galleries')}"
        "</main>\n"
    )
    english_page(plan, doc, rng, art.title, art.dek, "photos", main, art,
                 f"single single-gallery postid-{art.id} section-photos", exclude=art.id)
    return doc


def _japanese(plan: SitePlan, art: PlannedArticle) -> Doc:
    """An article of the Japanese edition."""
    doc = Doc(art.path)
    rng = plan.page_rng(art.path)
    w = art.when + _dt.timedelta(hours=9)  # JST
    date = f"{w.year}年{w.month}月{w.day}日 {w.hour}時{w.minute}分"
    body = "\n".join(f"<p>{esc(t)}</p>" for _, t in art.items)
    same = _others(plan.by_section["ja"], art)
    related = [same[k] for k in _nearest(same, art.id, 4)][: rng.randint(2, 4)]
    rel = "".join(f"<li>{doc.a(a.path, a.title)}</li>" for a in related)
    main = (
        f'<div class="topicpath">{doc.a("/ja/", "日本語版トップ")} &gt; {esc(art.category)}</div>\n'
        f'<div class="entry" id="entry{art.id}">\n'
        f'<h1 class="entry-title">{esc(art.title)}</h1>\n'
        f'<p class="entry-date">{date}</p>\n'
        f'<div class="entry-body">\n{body}\n</div>\n'
        f'<div class="entry-related"><h2>関連記事</h2><ul>{rel}</ul></div>\n'
        "</div>\n"
    )
    japanese_page(plan, doc, rng, art.title, main, art.title, art.id)
    return doc

