"""What a page says about itself and about its parts, for DOM PageRank (SPEC §4).

* The page: its ``<title>``, og:title, description and headline (:func:`page_signals`).
* Its elements: roles named by class/id/style (reader comments, sidebar or widget,
  boilerplate inside an article, hidden), as bit flags (:func:`role_of`).
* Text likeness to the title: word sets (:func:`terms`, CJK runs as character
  bigrams) and their Dice coefficient (:func:`dice`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from lxml import etree

__all__ = [
    "BOILER",
    "GALLERY",
    "HIDDEN",
    "IN_COMMENTS",
    "IN_SIDEBAR",
    "PAGE_TAGS",
    "ROLE_ATTRS",
    "ROLE_MEMO",
    "WORD",
    "Signals",
    "dice",
    "key_role",
    "norm",
    "page_signals",
    "role_of",
    "element_role",
    "terms",
    "PLAYER_TAGS",
    "SLIDES_NAMED",
    "drop_slide_names",
    "flag_galleries",
    "gallery_seeds",
    "gallery_of",
    "media_ok",
    "named_gallery",
    "slide_like",
    "slides_named",
    "thread_shaped",
]

_SPACE = re.compile(r"\s+")
WORD = re.compile(r"\w+")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")
_TITLE_SEP = re.compile(r"\s[-|:\u2013\u2014\u00ab\u00bb/~]+\s|\s*[|\u00ab\u00bb\uff5c]\s*")
_HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.I)
# Class/id tokens of reader-comment threads: "comments", "commentbody", "disqus_thread",
# "atp-comments"; not "commentary", "responsive" or page-level flags like "has-comments".
_COMMENTS = re.compile(
    r"(?:^|\s)(?!(?:has|no|with|show|allow|enable)[-_])"
    r"(?:comment(?!ar|at)\S*|disqus\S*|respond(?:[-_]\S*)?|replies|\S*[-_](?:comments?|replies))(?=$|\s)",
    re.I,
)
# Sidebars and widgets: "sidebar", "sidebar-right", "right-sidebar", "widget_text", "footer".
_SIDEBAR = re.compile(
    r"(?:^|\s)(?:(?:sidebar|footer|aside)\S*|\S*widget\S*|\S*[-_](?:sidebar|footer))(?=$|\s)", re.I
)
# Boilerplate blocks inside an article.
_BOILERPLATE = re.compile(
    r"(?:^|[-_\s])(?:related|share|sharing|social|sharedaddy|addthis|tags?|tagged|post-tags|promo|"
    r"sponsor\w*|advert\w*|ads?|newsletter|subscribe|breadcrumbs?|pagination|pager|widget|"
    r"recommend\w*|popular|signup|sidebar|footer)(?=$|[-_\s])",
    re.I,
)
# Class words that name no role although the patterns above would read one: page
# builders' generic component names (Elementor's "elementor-widget-container", "e-con";
# HubSpot's "widget-span", "widget-type-cell", "hs_cos_wrapper_widget"; "container-widget"
# wrappers) and page-state flags ("content-has-sidebar", "with-sidebar",
# "comments-enabled").  Their blocks hold the article as often as anything else.
_NO_ROLE = re.compile(
    r"(?:^|\s)(?:elementor-\S+|e-con\S*|widget-span|widget-type-\S+|hs_cos_wrapper\S*|\S*container-widget\S*"
    r"|(?:\S*[-_])?(?:has|with|no|without)[-_]sidebar"
    r"|comments?[-_](?:enabled|disabled|open|closed|on|off|allowed|count))(?=$|\s)",
    re.I,
)
# WordPress's post_class signature: on such an element "tag-x" and "category-y" are the
# post's taxonomy labels, not a tag box, so its class and id name no role.
_POST_CLASS = re.compile(r"(?:^|\s)(?:post-\d+|hentry|type-post|status-publish)(?=$|\s)")
#: Elements whose class names describe the whole page, never one of its parts.
PAGE_TAGS = frozenset(("html", "body", "main", "article"))

#: A comment-named element is a reader thread only if it holds a list of this many
#: sibling items of one kind (tag and class) ...
THREAD_ITEMS = 2
#: ... none of which holds more than this share of the list's text (items alike in size).
THREAD_ITEM_SHARE = 0.75
#: Tags that are not items of a thread: paragraphs and inline markup.
_NOT_ITEMS = frozenset("p br a span b i em strong small img time abbr cite code sup sub font u s label".split())
#: A comment-named element whose text is mostly one run of at least this many sibling
#: paragraphs (more text than any item list) is an article body, not a thread.
BODY_PARAGRAPHS = 3
BODY_SHARE = 0.5
BODY_MIN_CHARS = 400
_DIGITS = re.compile(r"\d+")

#: A gallery: at least this many sibling items of one kind (tag and first class word) ...
GALLERY_ITEMS = 3
#: ... of which this share hold an image, holding this share of their parent's text.
GALLERY_MEDIA_SHARE = 0.8
GALLERY_TEXT_SHARE = 0.8
#: How many levels above an image its gallery item may be.
GALLERY_DEPTH = 4
#: What makes an item a slide: an image or a player (embedded frames and objects too:
#: a carousel of videos is one of iframes as often as of ``<video>``).  The compiled
#: check (``_domwalk._is_image``) reads the same tags.
_IMAGES = ("img", "picture", "video", "iframe", "embed", "object")
#: Players: the graph leaves them out (``DROP_TAGS``) but they still make an item a slide.
PLAYER_TAGS = ("iframe", "embed", "object")
#: Class or id words naming a slideshow or its slides (the names of the common slider
#: scripts: names, not words of a language).  Items of one kind named so, or under an
#: element named so, are a gallery without images (their media loaded by script).
_SLIDES_NAME = re.compile(r"carousel|slide|swiper|gallery")
_SLIDES_CACHE: dict[str, bool] = {}

#: Role flags of an element (bits of :func:`role_of`'s result).
HIDDEN, IN_COMMENTS, IN_SIDEBAR, BOILER = 1, 2, 4, 8
#: Set by DOM PageRank (not by names) on a gallery's element (:func:`gallery_of`).
GALLERY = 16
#: Set by names on an element whose class or id names a slideshow or a slide
#: (:func:`slides_named`); the graph's walk gets it through the role memo, and
#: :func:`gallery_seeds` takes it off again (a seed of the galleries, not a role).
SLIDES_NAMED = 32  # (the highest role bit: gallery_seeds looks for it with max())


# -- words -------------------------------------------------------------------------------


def norm(text: str | None) -> str:
    """``text`` with whitespace runs made one space, stripped ("" for None)."""
    return _SPACE.sub(" ", text or "").strip()


def terms(text: str, words: list[str] | None = None) -> set[str]:
    """Lower-cased words; runs of CJK characters become character bigrams.

    ``words`` are the ``\\w+`` matches of ``text.lower()`` if the caller has them.
    """
    if words is None:
        words = WORD.findall(text.lower())
    if text.isascii() or not _CJK.search(text):
        return set(words)
    out: set[str] = set()
    for w in words:
        if len(w) > 1 and _CJK.search(w):
            out.update(w[k : k + 2] for k in range(len(w) - 1))
        else:
            out.add(w)
    return out


def dice(a: set[str], b: set[str]) -> float:
    """Dice coefficient of two word sets (0 if either is empty)."""
    if not a or not b:
        return 0.0
    return 2.0 * len(a & b) / (len(a) + len(b))


# -- the page -------------------------------------------------------------------------------


@dataclass
class Signals:
    """What the page says about itself: <title>, og:title, description, headline."""

    title: str = ""
    meta_title: str = ""
    description: str = ""
    headline: str = ""
    headline_el: etree._Element | None = None


def page_signals(root: etree._Element) -> Signals:
    """The page's title, og:title, description, and its headline (text and heading)."""
    s = Signals()
    # Not only <head>: wrapped or broken pages have their <title> in the body.
    for el in root.iter("title", "meta"):
        if el.tag == "title":
            if not s.title:
                s.title = norm("".join(el.itertext()))
            continue
        prop = (el.get("property") or el.get("name") or "").lower()
        if prop in ("og:title", "twitter:title"):
            s.meta_title = s.meta_title or norm(el.get("content"))
        elif prop in ("description", "og:description", "twitter:description"):
            s.description = s.description or norm(el.get("content"))
    s.headline, s.headline_el = _headline(root, s)
    return s


def _headline(root: etree._Element, sig: Signals) -> tuple[str, etree._Element | None]:
    """The headline and the heading that shows it, if any.

    A heading (h1-h3) is the headline when it shares most of its words with
    og:title or the whole <title> (the site's name, also a heading and a <title>
    segment, shares fewer).  Without one: og:title, else the longest <title> segment.
    """
    refs = [terms(t) for t in (sig.meta_title, sig.title) if t]
    best, best_el, best_sim = "", None, 0.0
    if refs:
        for el in root.iter("h1", "h2", "h3"):
            text = norm("".join(el.itertext()))
            if not text or len(text) > 300:
                continue
            words = terms(text)
            sim = max(dice(words, r) for r in refs)
            if sim > best_sim + 1e-9:
                best, best_el, best_sim = text, el, sim
    if best_sim >= 0.6:
        return best, best_el
    if sig.meta_title:
        return sig.meta_title, None
    if sig.title:
        segments = [s.strip() for s in _TITLE_SEP.split(sig.title) if s.strip()]
        return (max(segments, key=len) if segments else sig.title), None
    return best, None


# -- element roles from class/id/style -----------------------------------------------------

#: The attributes a role is read from, with their place in :func:`role_of`'s key.
ROLE_ATTRS = {"class": 1, "id": 2, "style": 3, "hidden": 4, "aria-hidden": 5}
#: Memos: whole keys of :func:`role_of`, then class values, id values and class words.
#: Pages repeat class values, and sites repeat class words, far more than whole keys
#: (ids are often unique to an element: ``post-123``, ``comment-4567``).
ROLE_MEMO: dict[tuple, int] = {}
_CLASS_CACHE: dict[str, tuple[int, bool]] = {}
_ID_CACHE: dict[str, int] = {}
_CLASS_WORD_CACHE: dict[str, tuple[int, bool]] = {}
_MEMO_MAX = 50_000


def _remember(memo: dict, key, value):
    """``value``, stored in ``memo`` under ``key`` (a full memo is emptied first)."""
    if len(memo) > _MEMO_MAX:
        memo.clear()
    memo[key] = value
    return value


def role_of(tag: str, attrs: Sequence[tuple[str, str]]) -> int:
    """Role flags of an element from its tag and attributes (``el.items()``).

    Memoised on the values of ``ROLE_ATTRS`` (the first of a repeated name, as
    ``el.get``), since sites repeat the same class names on every page.
    """
    slots: list = [tag in PAGE_TAGS, None, None, None, None, None]
    for name, value in attrs:
        slot = ROLE_ATTRS.get(name)
        if slot and slots[slot] is None:
            slots[slot] = value
    key = tuple(slots)
    role = ROLE_MEMO.get(key)
    return _remember(ROLE_MEMO, key, _key_role(key)) if role is None else role


def element_role(tag: str, el: etree._Element) -> int:
    """:func:`role_of` of an element, read with ``el.get`` (the first of a repeated name,
    as ``role_of`` reads ``el.items()``): the same memo and flags, without building the
    element's list of attributes."""
    get = el.get
    key = (tag in PAGE_TAGS, get("class"), get("id"), get("style"), get("hidden"), get("aria-hidden"))
    role = ROLE_MEMO.get(key)
    return _remember(ROLE_MEMO, key, _key_role(key)) if role is None else role


def key_role(key: tuple) -> int:
    """The role flags of an :func:`element_role` key read elsewhere (the compiled graph walk
    reads the attributes from libxml2's tree itself), through the same memo."""
    role = ROLE_MEMO.get(key)
    return _remember(ROLE_MEMO, key, _key_role(key)) if role is None else role


def _key_role(key: tuple) -> int:
    """The role flags of a memo key of :func:`role_of` (page level, class, id, style, hidden, aria-hidden)."""
    page_level, cls, ident, style, hidden, aria = key
    role = 0
    if hidden is not None or aria == "true" or (style and _HIDDEN_STYLE.search(style)):
        role |= HIDDEN
    if not page_level:
        role |= _names_role(cls, ident)
    if (cls or ident) and _named_slides(cls, ident):
        role |= SLIDES_NAMED
    return role


def _names_role(cls: str | None, ident: str | None) -> int:
    """The role flags an element's class and id values name (see _NO_ROLE and _POST_CLASS).

    Every role pattern matches within one whitespace-free word, so the flags of a value
    are those of its words put together: a class value's come from its words (memoised
    one by one), an id value's from the value (memoised whole).
    """
    role = 0
    if cls:
        found = _CLASS_CACHE.get(cls)
        if found is None:
            found = _remember(_CLASS_CACHE, cls, _class_role(cls))
        role, post_class = found
        if post_class:
            return 0
    if ident:
        named = _ID_CACHE.get(ident)
        if named is None:
            named = _remember(_ID_CACHE, ident, _named_roles(ident))
        role |= named
    return role


def _class_role(cls: str) -> tuple[int, bool]:
    """(role flags of a class value's words, whether one of them is WordPress's post_class signature)."""
    role, post_class = 0, False
    for word in cls.split():
        found = _CLASS_WORD_CACHE.get(word)
        if found is None:
            found = _remember(_CLASS_WORD_CACHE, word, (
                0 if _NO_ROLE.match(word) else _named_roles(word),
                _POST_CLASS.match(word) is not None,
            ))
        role |= found[0]
        post_class = post_class or found[1]
    return role, post_class


def _named_roles(names: str) -> int:
    """The role flags class and id words name (comments, sidebar, boilerplate)."""
    role = 0
    if _COMMENTS.search(names):
        role |= IN_COMMENTS
    if _SIDEBAR.search(names):
        role |= IN_SIDEBAR
    if _BOILERPLATE.search(names):
        role |= BOILER
    return role


# -- the shape of a reader thread -----------------------------------------------------------


def _chars(text: str | None) -> int:
    """Non-space characters of ``text``."""
    return len(text) - text.count(" ") - text.count("\n") - text.count("\t") if text else 0


#: :func:`_chars` by a public name (the compiled gallery check calls it for the texts it leaves to Python).
nonspace_chars = _chars


def thread_shaped(el: etree._Element) -> bool:
    """Whether a comment-named element has the shape of a reader thread.

    Class and id words name a thread ("comments", "disqus_thread") but also an
    article's tone or section ("tone-comment" on an opinion piece).  A thread is a
    list of repeated items (comments: same tag and class, each a small share of
    the list), and one comment is one of such items; an article body is a run of
    sibling paragraphs.  The element is *not* a thread when it has no sibling of
    its own kind (tag and first class word) and one run of ``BODY_PARAGRAPHS`` or
    more sibling ``<p>`` outside list items holds at least ``BODY_SHARE`` of its
    text, ``BODY_MIN_CHARS`` or more, and more than any item list does.
    """
    parent = el.getparent()
    if parent is not None:
        kind = (el.get("class") or "").split()[:1]
        for sib in parent:
            if sib is not el and sib.tag == el.tag and (sib.get("class") or "").split()[:1] == kind:
                return True
    nodes = [d for d in el.iter() if d.tag.__class__ is str]
    in_items = {d for li in el.iter("li") for d in li.iter()}
    size: dict[etree._Element, int] = {}
    for d in reversed(nodes):
        n = _chars(d.text)
        for child in d:
            n += size.get(child, 0) + _chars(child.tail)
        size[d] = n
    total = size[el]
    if not total:
        return True
    run = thread = 0
    for d in nodes:
        paras = count = 0
        groups: dict[tuple, list[int]] = {}
        for child in d:
            tag = child.tag
            if tag.__class__ is not str:
                continue
            n = size[child]
            if tag == "p":
                paras += n
                count += 1
            elif n and tag not in _NOT_ITEMS:
                key = (tag, _DIGITS.sub("", child.get("class") or ""))
                groups.setdefault(key, []).append(n)
        if count >= BODY_PARAGRAPHS and paras > run and d not in in_items:
            run = paras
        for sizes in groups.values():
            if len(sizes) >= THREAD_ITEMS:
                s = sum(sizes)
                if max(sizes) <= THREAD_ITEM_SHARE * s and s > thread:
                    thread = s
    return not (run >= BODY_SHARE * total and run >= BODY_MIN_CHARS and run > thread)


def _kind(el: etree._Element) -> tuple:
    return (el.tag, (el.get("class") or "").split()[:1])


def gallery_of(img: etree._Element, seen: dict) -> etree._Element | None:
    """The gallery an image (or player) belongs to, if any: the element whose children
    are ``GALLERY_ITEMS`` or more items of one kind (tag, first class word), most with an
    image or player, holding most of its text (slides, not paragraphs with a figure
    between them).  ``seen`` caches the verdict per candidate parent (one dict per page)."""
    return _gallery_above(img, seen, GALLERY_DEPTH, False)


def _gallery_above(item: etree._Element, seen: dict, depth: int, named: bool) -> etree._Element | None:
    """The first of ``item``'s ``depth`` ancestors that is a gallery with ``item`` (or the
    ancestor's child on its way) as one of its items; ``named``: no images needed (its
    verdicts cached apart, under ``(parent, True)``)."""
    for _ in range(depth):
        parent = item.getparent()
        if parent is None:
            return None
        key = (parent, True) if named else parent
        verdict = seen.get(key, False)
        if verdict is False:
            verdict = seen[key] = _gallery(parent, _kind(item), named)
        if verdict is not None:
            return verdict
        item = parent
    return None


def slides_named(el: etree._Element) -> bool:
    """Whether an element's class or id names a slideshow or a slide (:data:`_SLIDES_NAME`)."""
    return _named_slides(el.get("class"), el.get("id"))


def _named_slides(cls: str | None, ident: str | None) -> bool:
    """Whether the class or the id value names a slideshow (the two lower-cased, joined by
    a space, searched for :data:`_SLIDES_NAME`).  No name of it holds a space, so a match
    lies within one value: each value is looked up on its own, memoised apart, since a
    page's ids are mostly its own (``post-123``) while its class values repeat."""
    return bool(cls and _value_slides(cls)) or bool(ident and _value_slides(ident))


def _value_slides(value: str) -> bool:
    found = _SLIDES_CACHE.get(value)
    if found is None:
        found = _remember(_SLIDES_CACHE, value, _SLIDES_NAME.search(value.lower()) is not None)
    return found


_PLAYERS = ("video",) + PLAYER_TAGS


def slide_like(gallery: etree._Element) -> bool:
    """Whether a gallery's items are slides (a carousel), not a list of pictured items:
    it or its first item is named as a slideshow or slide, or it holds a player."""
    if slides_named(gallery):
        return True
    first = next((c for c in gallery if c.tag.__class__ is str), None)
    if first is not None and slides_named(first):
        return True
    return next(gallery.iter(*_PLAYERS), None) is not None


def named_gallery(el: etree._Element, seen: dict) -> etree._Element | None:
    """The gallery an element named as a slideshow or slide (:func:`slides_named`) makes,
    if any: the element itself when its children are a gallery's items (the commonest kind
    among them), else its parent when it is one of that parent's items.  The items need
    no image (a carousel's media are often loaded by script), but must still be
    ``GALLERY_ITEMS`` or more of one kind holding most of the text."""
    key = (el, True)
    verdict = seen.get(key, False)
    if verdict is False:
        verdict = None
        if len(el) >= GALLERY_ITEMS:
            kinds: dict[tuple, int] = {}
            for c in el:
                if c.tag.__class__ is str:
                    k = (c.tag, tuple((c.get("class") or "").split()[:1]))
                    kinds[k] = kinds.get(k, 0) + 1
            if kinds:
                (tag, first), n = max(kinds.items(), key=lambda kv: kv[1])
                if n >= GALLERY_ITEMS:
                    verdict = _gallery(el, (tag, list(first)), True)
        seen[key] = verdict
    return verdict if verdict is not None else _gallery_above(el, seen, 1, True)


def gallery_seeds(elements: list, roles: list[int], images: list) -> list[tuple[int, etree._Element, bool]]:
    """What :func:`flag_galleries` starts from, in node order: the walk's ``images`` (image
    nodes, and (parent node, element) of the players the graph leaves out) and the
    elements named as slides (role :data:`SLIDES_NAMED`, taken off ``roles`` here).  Each
    is (node, element, named).  Read after the walk, so both walks share it."""
    seeds = [(i, elements[i], False) if i.__class__ is int else (i[0], i[1], False) for i in images]
    if roles and max(roles) >= SLIDES_NAMED:  # (the highest bit: a look in C before the loop)
        for i, r in enumerate(roles):
            if r & SLIDES_NAMED:
                roles[i] = r & ~SLIDES_NAMED
                seeds.append((i, elements[i], True))
    seeds.sort(key=lambda s: s[0])  # (stable: a player after the images of its parent's node)
    return seeds


def drop_slide_names(roles: list[int]) -> None:
    """Take :data:`SLIDES_NAMED` off a graph's roles (a graph built without galleries)."""
    if not roles or max(roles) < SLIDES_NAMED:
        return
    for i, r in enumerate(roles):
        if r & SLIDES_NAMED:
            roles[i] = r & ~SLIDES_NAMED


def _gallery(parent: etree._Element, kind: tuple, named: bool = False) -> etree._Element | None:
    if len(parent) < GALLERY_ITEMS:  # (fewer children than a gallery's items)
        return None
    tag, first = kind
    items = [c for c in parent if c.tag == tag]  # (the tag first: a class is read only on a match)
    if len(items) < GALLERY_ITEMS:
        return None
    items = [c for c in items if (c.get("class") or "").split()[:1] == first]
    if len(items) < GALLERY_ITEMS:
        return None
    if not named:
        media = sum(1 for c in items if c.tag in _IMAGES or next(c.iter(*_IMAGES), None) is not None)
        if media < GALLERY_MEDIA_SHARE * len(items):
            return None
    inside = sum(_chars("".join(c.itertext())) for c in items)
    total = _chars("".join(parent.itertext()))
    return parent if total and inside >= GALLERY_TEXT_SHARE * total else None


def flag_galleries(seeds: list[tuple[int, etree._Element, bool]], parent: list[int], u: list[float], elements: list,
                   roles: list[int], w: float,
                   find: Callable[[etree._Element, dict], etree._Element | None] | None = None) -> None:
    """Flag the galleries (:func:`gallery_of`, :func:`named_gallery`) of a page's graph as
    ``GALLERY`` and cut u of the text nodes inside them by ``w``.  ``seeds`` are
    :func:`gallery_seeds`' (node, element, named): the page's images and players and its
    elements named as slides; the graph is given as DOM PageRank builds it
    (``parent[i] < i``, None for a text node).  ``find``: another form of
    :func:`gallery_of` giving the same verdicts (the compiled one; its cache keys are
    node addresses, apart from :func:`named_gallery`'s)."""
    find = find or gallery_of
    seen: dict = {}
    found: set = set()
    first = len(parent)  # the first gallery's node: nothing before it is inside one
    for i, el, named in seeds:
        g = named_gallery(el, seen) if named else find(el, seen)
        if g is None:
            continue
        found.add(g)
        j = i  # (a player's node is its parent's, which may be the gallery itself)
        while j >= 0 and elements[j] is not g:
            j = parent[j]
        if j >= 0:  # (else the gallery lies above the graph's root)
            first = min(first, j)
    if first == len(parent):
        return
    inside = [False] * len(parent)
    for i in range(first, len(parent)):
        el = elements[i]
        if el is not None and el in found:
            inside[i] = True
            roles[i] |= GALLERY
        elif parent[i] >= 0 and inside[parent[i]]:
            inside[i] = True
            if el is None:
                u[i] *= w


def media_ok(el: etree._Element, min_size: int) -> bool:
    """Images that look like content, not spacers, icons or tracking pixels."""
    if el.tag == "video":
        return True
    for name in ("width", "height"):
        v = el.get(name)
        if v and v.strip().isdigit() and int(v) < min_size:
            return False
    return bool(el.get("src") or el.get("data-src") or el.get("srcset"))
