"""The evidence of a page's type, as numbers: what the URL looks like, what the page
declares (``og:type``, JSON-LD ``@type``, dates and authors), and the shape of its text
and links (teaser blocks of headline links, paragraph runs, forms, prices, comments).

Everything is read from the page's one parse: :func:`page_type_features` takes the
page's facts (:func:`newsstemmer.metadata.page_facts`) and walks the ``<body>`` once.
(The extracted body's length and share of the page were tried and left out: under
site-grouped CV they moved wcxb-dev accuracy by 0.003, and without them a page is typed
before, and whatever, a method extracts from it.)
"""

from __future__ import annotations

import importlib
import logging
import math
import os
import re
from typing import Any
from urllib.parse import urlsplit

from lxml import etree

from ..metadata.dates import date_in_url
from ..metadata.facts import PageFacts, ld_types
from ..metadata.fields import neighbourhood_walk
from ..metadata.neighbourhood import AUTHOR_PAGE, BYLINE_MARK, SKIP_TAGS, HoodWalk, Neighbourhood, byline_marked

__all__ = ["BODY_WALK", "FEATURES", "KIND_WORDS", "BodyCounts", "declared_signs", "declared_types",
           "page_type_features", "url_words", "walk_python"]
log = logging.getLogger(__name__)

# Words of a URL path that name a kind of page (matched against whole path segments or
# their dash/underscore-separated words).
KIND_WORDS: dict[str, frozenset[str]] = {
    "service": frozenset(
        "about about-us aboutus contact contact-us contactus privacy privacy-policy terms terms-of-service "
        "terms-of-use legal imprint impressum cookies cookie-policy faq faqs help advertise advertising careers "
        "jobs subscribe subscription subscriptions newsletter newsletters login signin sign-in register signup "
        "sign-up account corrections accessibility sitemap disclaimer policy policies support pricing plans "
        "team partners press services solutions company mission ethics donate membership".split()),
    "listing": frozenset(
        "tag tags topic topics category categories section sections author authors archive archives page search "
        "latest index people series collection collections staff contributors all list lists feed".split()),
    "forum": frozenset("forum forums thread threads questions question community discussion discussions board "
                       "boards viewtopic showthread t r comments answers".split()),
    "product": frozenset("product products shop store item items p dp buy cart collections-all catalog "
                         "pricing".split()),
    "docs": frozenset("docs doc documentation manual reference api guide guides wiki reference-manual man "
                      "tutorial sdk".split()),
    "media": frozenset("video videos watch gallery galleries photos photo podcast podcasts live tv".split()),
    "post": frozenset("article articles news blog blogs story stories post posts opinion insights "
                      "resources".split()),
}
_LD_KINDS: dict[str, frozenset[str]] = {
    "article": frozenset({"article", "newsarticle", "blogposting", "reportagenewsarticle", "analysisnewsarticle",
                          "opinionnewsarticle", "reviewnewsarticle", "backgroundnewsarticle", "posting",
                          "socialmediaposting", "report", "liveblogposting", "satiricalarticle"}),
    "listing": frozenset({"collectionpage", "itemlist", "searchresultspage", "blog", "profilepage", "person"}),
    "product": frozenset({"product", "offer", "aggregateoffer", "productgroup", "aggregaterating",
                          "softwareapplication", "service"}),
    "forum": frozenset({"discussionforumposting", "qapage", "question", "answer", "comment"}),
    "service": frozenset({"aboutpage", "contactpage", "localbusiness", "faqpage", "organization"}),
    "media": frozenset({"videoobject", "imagegallery", "mediagallery", "podcastepisode"}),
    "docs": frozenset({"techarticle", "apireference", "howto", "course", "recipe", "scholarlyarticle"}),
    "webpage": frozenset({"webpage", "website"}),
}
_ALL_KIND_WORDS = frozenset().union(*KIND_WORDS.values())
_TITLE_POST = re.compile(r"\b(?:how|why|what|when|who|guide|tips|best|vs|review|ways|things|explained|"
                         r"\d+ (?:ways|things|tips|reasons|best))\b", re.I)
_TITLE_OTHER = re.compile(r"\b(?:services?|solutions|pricing|plans|contact|about us|home|homepage|shop|buy|store|"
                          r"sale|login|sign in|forum|thread|docs|documentation|api|reference|archives?|category|"
                          r"tag|topics?|page \d+|search|results|products?|company|careers|welcome)\b", re.I)
_READ_MORE = re.compile(r"^(?:read more|continue reading|more|learn more|view all|see all|see more|weiterlesen|"
                        r"lire la suite|leer más|read full|full story|›|»|→)\b", re.I)
_FORUM_LINK = re.compile(r"^(?:reply|quote|report|permalink|share|like|helpful|upvote|vote|flag)$", re.I)
_CART_PHRASES = ("add to cart", "add to bag", "add to basket", "buy now", "in stock", "out of stock", "checkout",
                 "free shipping")
_CART = re.compile(r"\b(?:%s)\b" % "|".join(_CART_PHRASES), re.I)
# The characters besides ASCII letters that a case-blind regex takes for a letter of
# _CART_PHRASES and that ``str.lower`` does not turn into it (İ and ı for i, ſ for s).
_CASE_FOLDED = ("\u0130", "\u0131", "\u017f")
_DATE_TEXT = re.compile(r"\b(?:\d{1,2}[./-]\d{1,2}[./-](?:19|20)\d\d|(?:19|20)\d\d-\d\d-\d\d|"
                        r"[A-Z][a-z]{2,8}\.? \d{1,2},? (?:19|20)\d\d|\d{1,2}\.? [A-Z][a-z]{2,8} (?:19|20)\d\d|"
                        r"\d+ (?:minutes?|hours?|days?|weeks?|months?|years?) ago)\b")
_TITLE_SEP = re.compile(r"\s[|\-–—:·»]\s")
_ARCHIVED = re.compile(r"/web/\d+[a-z_]*/(https?://.*)$")
_PAGE_QUERY = re.compile(r"(?:^|&)(?:page|paged|s|q|query|search|tag|cat|category)=")
_ID_QUERY = re.compile(r"(?:^|&)(?:p|id|story|article|aid|postid|sid)=\d+")
_LONG_NUMBER = re.compile(r"\d{5,}")
_EXTENSION = re.compile(r"\.\w+$")
_PAGE_EXTENSION = re.compile(r"\.(?:html?|php|aspx?|jsp)$")
_WORD_SEPARATORS = re.compile(r"[-_.]")
_OG_TYPES = ("article", "website", "product", "profile", "video", "blog")
_SKIP = frozenset({"script", "style", "noscript", "template", "svg", "head", "iframe", "select", "option"})
_PRICE = re.compile(r"[$€£¥]\s?\d|\d\s?(?:€|EUR|USD)\b")
_WORDS = re.compile(r"[^\W\d_]+")
# class and id words worth counting: what a page is built of
_ROLE = re.compile(r"(comment|share|sharing|social|author|byline|pagination|pager|breadcrumb|card|teaser|tile|"
                   r"post-item|entry-title|product|price|cart|forum|thread|reply|replies|sidebar|related|"
                   r"article-body|post-body|entry-content|story-body|article__body|content-body)", re.I)
_ROLE_GROUPS = {
    "comment": "comment", "reply": "comment", "replies": "comment", "forum": "forum", "thread": "forum",
    "share": "share", "sharing": "share", "social": "share", "author": "byline", "byline": "byline",
    "pagination": "pager", "pager": "pager", "breadcrumb": "crumb", "card": "card", "teaser": "card",
    "tile": "card", "post-item": "card", "entry-title": "card", "product": "product", "price": "product",
    "cart": "product", "sidebar": "aside", "related": "aside", "article-body": "body", "post-body": "body",
    "entry-content": "body", "story-body": "body", "article__body": "body", "content-body": "body",
}
_ROLE_NAMES = ("comment", "forum", "share", "byline", "pager", "crumb", "card", "product", "aside", "body")
_BOILER = frozenset({"nav", "footer", "aside", "header"})
_HEADS = frozenset({"h2", "h3", "h4", "h5"})
_HEADLINE_TAGS = frozenset({"h1", "h2", "h3"})  # (where the metadata's neighbourhood looks for the headline)


_ROLE_CACHE: dict[str, tuple[str, ...]] = {}


def _roles_of(names: str) -> tuple[str, ...]:
    """The role groups an element's class and id name (kept: pages repeat their class names)."""
    found = _ROLE_CACHE.get(names)
    if found is None:
        found = tuple(_ROLE_GROUPS[m.lower()] for m in _ROLE.findall(names))
        if len(_ROLE_CACHE) > 50_000:
            _ROLE_CACHE.clear()
        _ROLE_CACHE[names] = found
    return found


def url_words(url: str | None) -> list[str]:
    """The lower-cased segments of a URL's path and their dash/underscore-separated words."""
    return _path_words(urlsplit(url or "").path)


def _path_words(path: str) -> list[str]:
    """:func:`url_words` of a URL's ``path``."""
    out: list[str] = []
    for seg in path.lower().split("/"):
        if "." in seg:
            seg = _PAGE_EXTENSION.sub("", seg)
        if seg:
            out.append(seg)
            if "-" in seg or "_" in seg or "." in seg:  # (the regexes' work only where they have some)
                out.extend(w for w in _WORD_SEPARATORS.split(seg) if w and w != seg)
    return out


def _log(n: float) -> float:
    return math.log1p(max(n, 0.0))


def _dice(a: str, b: str | set[str]) -> float:
    """Word-set overlap of two short texts (0..1); ``b`` may be given as :func:`_word_set`."""
    x, y = _word_set(a), _word_set(b) if isinstance(b, str) else b
    return 2 * len(x & y) / (len(x) + len(y)) if x and y else 0.0


def _word_set(text: str) -> set[str]:
    """The lower-cased words of ``text``."""
    return set(_WORDS.findall(text.lower()))


def declared_types(facts: PageFacts) -> set[str]:
    """The lower-cased ``@type`` names of the page's JSON-LD and microdata nodes."""
    out: set[str] = set()
    for node in facts.ld:
        out |= ld_types(node)
    return out


def declared_signs(facts: PageFacts) -> tuple[bool, bool]:
    """Whether the page declares an article and whether it declares a video, gallery or
    podcast: the features ``og_article or ld_article`` and ``og_video or ld_media`` of
    :func:`page_type_features`, read from the facts alone (no walk of the body)."""
    og = (facts.first_meta("og:type") or ("", ""))[1].lower()
    types = declared_types(facts)
    return (og.startswith("article") or bool(types & _LD_KINDS["article"]),
            og.startswith("video") or bool(types & _LD_KINDS["media"]))


def _url_features(url: str | None, f: dict[str, float]) -> None:
    inner = _ARCHIVED.search(url or "")  # an archive's copy: the archived URL
    if inner:
        url = inner.group(1)
    parts = urlsplit(url or "")
    path = parts.path or "/"
    segs = [s for s in path.split("/") if s]
    last = _EXTENSION.sub("", segs[-1]) if segs else ""
    words = set(_path_words(parts.path))
    f["url_depth"] = len(segs)
    f["url_root"] = float(not segs and not parts.query)
    f["url_query"] = float(bool(parts.query))
    f["url_page_query"] = float(bool(_PAGE_QUERY.search(parts.query)))
    f["url_id_query"] = float(bool(_ID_QUERY.search(parts.query)))
    f["url_date"] = float(date_in_url(url) is not None)
    f["url_last_words"] = len(_WORDS.findall(last))
    f["url_last_len"] = len(last)
    f["url_long_number"] = float(bool(_LONG_NUMBER.search(path)))
    f["url_ends_slash"] = float(path.endswith("/") and bool(segs))
    f["url_last_numeric"] = float(bool(last) and last.isdigit())
    for kind, names in KIND_WORDS.items():
        f[f"url_{kind}"] = float(bool(words & names))
    f["url_last_kind"] = float(bool(segs) and segs[-1].lower() in _ALL_KIND_WORDS)
    if not url:  # no URL known: nothing to say
        for name in f:
            if name.startswith("url_"):
                f[name] = -1.0


def _facts_features(facts: PageFacts, f: dict[str, float]) -> None:
    og = (facts.first_meta("og:type") or ("", ""))[1].lower()
    for t in _OG_TYPES:
        f[f"og_{t}"] = float(og.startswith(t))
    f["og_none"] = float(not og)
    types = declared_types(facts)
    for kind, names in _LD_KINDS.items():
        f[f"ld_{kind}"] = float(bool(types & names))
    f["ld_any"] = float(bool(types))
    ld_pub = any(n.get("datePublished") for n in facts.ld)
    f["meta_published"] = float(ld_pub or bool(facts.first_meta("article:published_time", "datepublished",
                                                                  "pubdate", "publish-date", "date")))
    f["meta_author"] = float(bool(facts.first_meta("author", "article:author", "parsely-author"))
                             or any(n.get("author") for n in facts.ld))
    f["meta_section"] = float(bool(facts.first_meta("article:section", "parsely-section")))
    f["meta_tags"] = min(len(facts.meta.get("article:tag", ())), 20)
    f["h1s"] = min(len(facts.h1), 10)
    title = facts.title or ""
    h1 = facts.h1[0] if facts.h1 else ""
    og_title = (facts.first_meta("og:title") or ("", ""))[1]
    h1_set = _word_set(h1)
    f["title_h1"] = _dice(title, h1_set)
    f["og_h1"] = _dice(og_title, h1_set) if og_title else -1.0
    f["h1_words"] = min(len(_WORDS.findall(h1)), 40)
    f["title_words"] = min(len(_WORDS.findall(title)), 40)
    f["title_sep"] = float(bool(_TITLE_SEP.search(title)))
    head = h1 or title
    f["title_post_words"] = float(bool(_TITLE_POST.search(head)))
    f["title_other_words"] = float(bool(_TITLE_OTHER.search(head)))
    f["title_question"] = float("?" in head)


def page_type_features(tree: Any, url: str | None, facts: PageFacts) -> dict[str, float]:
    """The features of one page (:data:`FEATURES`, in that order); ``facts`` are the
    page's facts (:func:`~newsstemmer.metadata.page_facts`).

    The body's walk also reads the metadata's headline neighbourhood where the facts do
    not hold it yet and the page declares no published date or no author (where the
    metadata then looks for a byline or a date line in the text), and keeps the reading on
    them (``facts.neighbourhood``): the page's metadata, asked for next, then does not walk
    the body again."""
    f: dict[str, float] = {}
    _url_features(url, f)
    _facts_features(facts, f)
    body = tree.find("body") if tree is not None else None
    hood = None
    # (read where the page's structured data leaves its byline or date to be found in the
    # text: elsewhere the metadata seldom asks for the neighbourhood, and walks it itself if it does)
    wanted = not (f["meta_published"] and f["meta_author"])
    if wanted and facts.neighbourhood is None and tree is not None and facts.tree is tree:
        if body is None:
            facts.neighbourhood = Neighbourhood([], -1, [])
        else:
            hood = neighbourhood_walk(facts, deferred=True)
    _body_features(body, f, facts.h1[0] if facts.h1 else "", hood)
    if hood is not None:
        facts.neighbourhood = hood  # (its result is made when the metadata asks for it)
    return f


# What the walk does at an element besides reading its text, by tag (other tags: nothing).
_PLAIN, _SKIPPED, _COUNTED, _LINK, _PARA, _HEAD, _ITEM, _BOILER_PART = range(8)
_COUNTED_TAGS = ("form", "input", "textarea", "button", "img", "table", "pre", "code", "article", "time")
_ACTS: dict[str, int] = {"a": _LINK, "p": _PARA, "li": _ITEM, **dict.fromkeys(_HEADS, _HEAD),
                         **dict.fromkeys(_BOILER, _BOILER_PART), **dict.fromkeys(_COUNTED_TAGS, _COUNTED),
                         **dict.fromkeys(_SKIP, _SKIPPED)}
_READ_MORE_LINK, _FORUM_LINK_WORD = 1, 2
#: What the body's walk counts (:func:`walk_python`): text, link, paragraph, boilerplate characters;
#: paragraphs' lengths, the longest run; headline links and their characters; "read more" and forum
#: links; headings, linked ones; list items, with links; :data:`_COUNTED_TAGS`; role groups; ``href``
#: values given twice or more, ``tel:``, ``mailto:`` ones; elements' own text lengths; the text joined.
BodyCounts = tuple[int, int, int, int, list[int], int, int, int, int, int, int, int, int, int, list[int],
                   dict[str, int], int, int, int, list[int], str]
_SHORT_LINK_CACHE: dict[str, int] = {}


def _short_link(words: str) -> int:
    """Whether a short link's text is a "read more" (:data:`_READ_MORE_LINK`) or a forum
    post's action (:data:`_FORUM_LINK_WORD`), else 0 (kept: menus repeat their links)."""
    found = _SHORT_LINK_CACHE.get(words)
    if found is None:
        found = _READ_MORE_LINK if _READ_MORE.match(words) else _FORUM_LINK_WORD if _FORUM_LINK.match(words) else 0
        if len(_SHORT_LINK_CACHE) > 50_000:
            _SHORT_LINK_CACHE.clear()
        _SHORT_LINK_CACHE[words] = found
    return found


def walk_python(root: Any, hood: HoodWalk | None = None) -> BodyCounts:
    """The counts of the ``<body>`` ``root`` (None: a page without one) that its features
    are made of (:data:`BodyCounts`); ``hood`` a reading of the metadata's headline
    neighbourhood, fed as the walk goes (while it is open) with what its own walk would
    read: the elements' starts and text nodes, the parts this walk passes over that it
    reads (``<iframe>``, ``<select>``), not the tails of comments.  The reference of the
    compiled walk (``_bodywalk.pyx``), and its fallback.

    One walk in document order (lxml's ``iterwalk``: no recursion), skipping what a
    reader does not see (:data:`_SKIP`); text is counted as stripped text nodes (an
    element's ``text`` and ``tail``).  Per element the walk does as little as it can: one
    look-up of its tag says what else to do (:data:`_ACTS`; kept on a stack for its end),
    class and id names and short links' words are looked up in caches.
    """
    text = links = para_text = boiler = 0
    headline_links = headline_chars = read_more = forum_links = 0
    paras: list[int] = []
    runs: dict[Any, int] = {}
    heads = linked_heads = lis = li_links = 0
    counted = dict.fromkeys(_COUNTED_TAGS, 0)
    roles: dict[str, int] = {}
    hrefs: dict[str, int] = {}
    own: dict[Any, int] = {}  # an element's own text (its text and its children's tails), by element
    pieces: list[str] = []  # the page's text nodes, searched at once for prices and dates
    link_parts: list[str] = []
    open_acts: list[int] = []  # the action of each open element
    open_p: list[tuple[Any, int]] = []  # (element, text count at its start)
    open_li: list[bool] = []  # whether each open <li> holds a link
    open_head: list[bool] = []  # whether each open heading holds a link
    in_link = in_boiler = link_start = 0
    reading = hood is not None
    if hood is not None:
        hood_lines, hood_bylines, hood_limit, marked = hood.lines, hood.bylines, hood.limit, hood.marked
    if root is not None:
        walker = etree.iterwalk(root, events=("start", "end"))
        skip = walker.skip_subtree
        add_piece, push_act, pop_act = pieces.append, open_acts.append, open_acts.pop
        acts, role_cache = _ACTS, _ROLE_CACHE
        for event, el in walker:
            if event == "start":
                tag = el.tag
                act = acts.get(tag, _PLAIN)
                if act == _SKIPPED or not isinstance(tag, str):
                    if reading and isinstance(tag, str) and tag not in SKIP_TAGS:
                        hood.walk(el, with_tail=False)  # (the neighbourhood reads an <iframe>'s text)
                        reading, hood_limit = hood.open, hood.limit
                    push_act(_SKIPPED)
                    skip()
                    continue
                push_act(act)
                cls = el.get("class")
                ident = el.get("id")
                if reading:  # (HoodWalk.start, its common case inline)
                    if tag in _HEADLINE_TAGS or (act == _LINK and hood.at >= 0):
                        hood.start(el, tag, cls or ident)
                        hood_limit = hood.limit
                    elif cls or ident:
                        is_byline = marked.get(cls or ident)
                        if is_byline is None:
                            is_byline = byline_marked(cls or ident)
                        if is_byline:
                            hood_bylines.append((len(hood_lines), el))
                if cls or ident:
                    names = f"{cls or ''} {ident}" if ident else cls
                    found = role_cache.get(names)
                    if found is None:
                        found = _roles_of(names)
                    for group in found:
                        roles[group] = roles.get(group, 0) + 1
                if act:
                    if act == _LINK:
                        if not in_link:
                            link_start = text
                            link_parts = []
                        in_link += 1
                        href = el.get("href")
                        if href:
                            hrefs[href] = hrefs.get(href, 0) + 1
                        if open_li:
                            open_li[-1] = True
                        if open_head:
                            open_head[-1] = True
                    elif act == _COUNTED:
                        counted[tag] += 1
                    elif act == _PARA:
                        open_p.append((el, text))
                    elif act == _ITEM:
                        lis += 1
                        open_li.append(False)
                    elif act == _HEAD:
                        heads += 1
                        open_head.append(bool(in_link))
                    else:
                        in_boiler += 1
                s = el.text
                if not s:
                    continue
                stripped = s.strip()
                if not stripped:
                    continue
                if reading:
                    hood_lines.append(s)
                    if len(hood_lines) > hood_limit:
                        reading = hood.open = False
                s = stripped
                holder = el
            else:
                act = pop_act()
                if act > _COUNTED:
                    if act == _LINK:
                        if in_link:
                            in_link -= 1
                            if not in_link:
                                n = text - link_start
                                if n >= 25:
                                    headline_links += 1
                                    headline_chars += n
                                elif n:
                                    kind = _short_link(" ".join(link_parts))
                                    if kind == _READ_MORE_LINK:
                                        read_more += 1
                                    elif kind == _FORUM_LINK_WORD:
                                        forum_links += 1
                    elif act == _PARA:
                        if open_p and open_p[-1][0] is el:
                            n = text - open_p.pop()[1]
                            paras.append(n)
                            para_text += n
                            parent = el.getparent()
                            if parent is not None and n >= 40:
                                runs[parent] = runs.get(parent, 0) + n
                    elif act == _ITEM:
                        if open_li and open_li.pop():
                            li_links += 1
                    elif act == _HEAD:
                        if open_head and open_head.pop():
                            linked_heads += 1
                    elif in_boiler:
                        in_boiler -= 1
                s = el.tail
                if not s:
                    continue
                stripped = s.strip()
                if not stripped:
                    continue
                if reading and (act != _SKIPPED or isinstance(el.tag, str)):  # (not a comment's tail)
                    hood_lines.append(s)
                    if len(hood_lines) > hood_limit:
                        reading = hood.open = False
                s = stripped
                holder = None if in_link else el.getparent()
            n = len(s)
            text += n
            add_piece(s)
            if in_link:
                links += n
                link_parts.append(s)
            elif holder is not None:
                own[holder] = own.get(holder, 0) + n  # (the element itself: an id() of an lxml proxy may be reused)
            if in_boiler:
                boiler += n
    return (text, links, para_text, boiler, paras, max(runs.values(), default=0), headline_links, headline_chars,
            read_more, forum_links, heads, linked_heads, lis, li_links, [counted[t] for t in _COUNTED_TAGS], roles,
            sum(1 for c in hrefs.values() if c > 1), sum(1 for h in hrefs if h.startswith("tel:")),
            sum(1 for h in hrefs if h.startswith("mailto:")), list(own.values()), "\n".join(pieces))


def _body_features(root: Any, f: dict[str, float], h1: str = "", hood: HoodWalk | None = None) -> None:
    """The text, link and tag features of the ``<body>`` ``root`` (None: a page without one);
    ``h1`` is the text of the page's first ``<h1>`` (:func:`_headline_features`); ``hood``
    a reading of the headline neighbourhood the walk feeds (:func:`walk_python`).  The
    walk is the compiled one (:data:`BODY_WALK`) where it is built; the text is searched
    for prices, dates and shop words once, joined (:func:`_text_counts`)."""
    if _bodywalk is not None:
        counts = _bodywalk.walk(root, hood, _short_link, _SHORT_LINK_CACHE, _roles_of, _ROLE_CACHE, byline_marked)
    else:
        counts = walk_python(root, hood)
    (text, links, para_text, boiler, paras, best_run, headline_links, headline_chars, read_more, forum_links, heads,
     linked_heads, lis, li_links, counts_by_tag, roles, repeated_hrefs, tel_links, mail_links, blocks, joined) = counts
    counted = dict(zip(_COUNTED_TAGS, counts_by_tag))
    prices, dates, carts = _text_counts(joined)
    f["text_log"] = _log(text)
    f["link_share"] = links / text if text else 1.0
    f["boiler_share"] = boiler / text if text else 0.0
    f["para_share"] = para_text / text if text else 0.0
    paras.sort(reverse=True)
    f["paras"] = min(len(paras), 400)
    f["long_paras"] = min(sum(1 for n in paras if n >= 150), 200)
    f["top3_paras_log"] = _log(sum(paras[:3]))
    f["run_log"] = _log(best_run)
    f["run_share"] = best_run / text if text else 0.0
    f["headline_links"] = min(headline_links, 300)
    f["headline_link_share"] = headline_chars / text if text else 0.0
    f["repeated_hrefs"] = min(repeated_hrefs, 300)
    f["heads"] = min(heads, 300)
    f["linked_heads"] = min(linked_heads, 300)
    f["linked_head_share"] = linked_heads / heads if heads else -1.0
    f["lis"] = min(lis, 1000)
    f["li_link_share"] = li_links / lis if lis else -1.0
    for name, value in (("forms", counted["form"]), ("inputs", counted["input"] + counted["textarea"]),
                        ("buttons", counted["button"]), ("imgs", counted["img"]), ("tables", counted["table"]),
                        ("pres", counted["pre"] + counted["code"]), ("prices", prices),
                        ("article_tags", counted["article"]), ("times", counted["time"])):
        f[name] = min(value, 300)
    f["read_more"] = min(read_more, 200)
    f["forum_links"] = min(forum_links, 200)
    f["carts"] = min(carts, 100)
    f["date_texts"] = min(dates, 200)
    blocks = sorted(blocks, reverse=True)
    top = blocks[0] if blocks else 0
    f["blocks_200"] = min(sum(1 for n in blocks if n >= 200), 300)
    f["blocks_80"] = min(sum(1 for n in blocks if n >= 80), 500)
    f["block_top_share"] = top / text if text else 0.0
    f["block_second_ratio"] = blocks[1] / top if len(blocks) > 1 and top else 0.0
    f["blocks_top5_share"] = sum(blocks[:5]) / text if text else 0.0
    for name in _ROLE_NAMES:
        f[f"role_{name}"] = min(roles.get(name, 0), 100)
    _headline_features(joined, h1, f)
    f["tel_links"] = min(tel_links, 50)  # (a business's service pages)
    f["mail_links"] = min(mail_links, 50)


def _headline_features(text: str, h1: str, f: dict[str, float]) -> None:
    """Where the page's first ``<h1>`` stands in its ``text`` (the stripped text nodes,
    joined) and whether a date is written near it: an article's date line sits by its
    headline, where a service, product or documentation page has none.  -1 for each where
    the headline's first 40 characters are not found in the text (no ``<h1>``, or one
    split over text nodes).  (Its first occurrence: looking for it as a text node of its
    own first, a short headline's menu link passed over, did not help under CV.)"""
    head = h1.strip()[:40]
    at = text.find(head) if head else -1
    if at < 0:
        f["date_near_h1"] = f["h1_at"] = f["after_h1_log"] = -1.0
        return
    f["date_near_h1"] = float(_DATE_TEXT.search(text, max(at - 150, 0), at + 300) is not None)
    f["h1_at"] = at / len(text)  # how much of the page comes before the headline ...
    f["after_h1_log"] = _log(len(text) - at)  # ... and how much after it


def _text_counts(text: str) -> tuple[int, int, int]:
    """The numbers of prices, dates and shop phrases (:data:`_PRICE`, :data:`_DATE_TEXT`,
    :data:`_CART`) in the page's joined text: what the regexes' ``findall`` counts.

    A regex run over a whole page costs ~50 ns a character; a substring search ~1 ns.  So
    each regex is tried only where the words every one of its matches holds are found
    (most pages have few prices and dates, and no shop phrase).
    """
    return _count_prices(text), _count_dates(text), _count_carts(text)


def _count_prices(text: str) -> int:
    """``len(_PRICE.findall(text))``, matching only at the starts a price can have: a
    currency sign, or one or two characters before "€", "EUR" or "USD" (an amount, then
    maybe a space)."""
    starts: set[int] = set()
    for sign in ("$", "€", "£", "¥"):
        at = text.find(sign)
        while at >= 0:
            starts.add(at)
            at = text.find(sign, at + 1)
    for code in ("€", "EUR", "USD"):
        at = text.find(code)
        while at >= 0:
            starts.update((max(at - 1, 0), max(at - 2, 0)))
            at = text.find(code, at + 1)
    count = end = 0
    for at in sorted(starts):
        if at >= end:  # (findall's matches do not overlap: it goes on where the last one ended)
            m = _PRICE.match(text, at)
            if m:
                count += 1
                end = m.end()
    return count


def _count_dates(text: str) -> int:
    """``len(_DATE_TEXT.findall(text))``, counted line by line (no date runs over two
    lines) on the lines that hold a year's "19" or "20" or the word "ago"; a short line's
    count is kept (a site's pages repeat their dated lines: the day's date, teasers, footers)."""
    lines: set[tuple[int, int]] = set()
    for needle in ("19", "20", " ago"):
        at = text.find(needle)
        while at >= 0:
            start = text.rfind("\n", 0, at) + 1
            end = text.find("\n", at)
            if end < 0:
                end = len(text)
            lines.add((start, end))
            at = text.find(needle, end)
    count = 0
    for start, end in lines:
        line = text[start:end]
        found = _DATES_IN_LINE.get(line)
        if found is None:
            found = len(_DATE_TEXT.findall(line))
            if end - start <= 200:  # (a long line is a paragraph of one page's own)
                if len(_DATES_IN_LINE) > 20_000:
                    _DATES_IN_LINE.clear()
                _DATES_IN_LINE[line] = found
        count += found
    return count


_DATES_IN_LINE: dict[str, int] = {}


def _count_carts(text: str) -> int:
    """``len(_CART.findall(text))``, searched only where the lower-cased text holds a
    shop phrase (or a letter ``str.lower`` keeps apart from the one the regex takes it for)."""
    low = text.lower()
    if any(phrase in low for phrase in _CART_PHRASES) or any(c in text for c in _CASE_FOLDED):
        return len(_CART.findall(text))
    return 0


def _compiled_walk() -> Any:
    """The compiled body walk (``_bodywalk``, built by ``pip install``) if it is there, agrees
    with this module's tags and words and is not turned off by ``NEWSSTEMMER_PURE_PYTHON=1``;
    else None."""
    try:
        if os.environ.get("NEWSSTEMMER_PURE_PYTHON", "") not in ("", "0"):
            raise ImportError("NEWSSTEMMER_PURE_PYTHON is set")
        module = importlib.import_module(f"{__package__}._bodywalk")
        acts = {act: frozenset(t for t, a in _ACTS.items() if a == act) for act in (_SKIPPED, _HEAD, _BOILER_PART)}
        if (module.SKIPPED_TAGS != acts[_SKIPPED] or module.HEAD_TAGS != acts[_HEAD]
                or module.BOILER_TAGS != acts[_BOILER_PART] or module.COUNTED_TAGS != _COUNTED_TAGS
                or module.HOOD_SKIP_TAGS != SKIP_TAGS or module.HEADLINE_TAGS != _HEADLINE_TAGS
                or module.MARK_PATTERN != BYLINE_MARK.pattern or module.AUTHOR_PAGE != AUTHOR_PAGE.pattern
                or module.ROLE_WORDS != tuple(_ROLE.pattern[1:-1].split("|"))
                or set(_ACTS) != module.SKIPPED_TAGS | module.HEAD_TAGS | module.BOILER_TAGS
                | set(module.COUNTED_TAGS) | {"a", "p", "li"}):
            log.warning("newsstemmer: the compiled body walk is older than this code: the pure-Python one "
                        "is used; rebuild it (pip install)")
            return None
        return module
    except Exception as exc:  # (not built: no compiler, or an lxml without its headers)
        log.debug("page typing: pure-Python body walk (%s)", exc)
        return None


_bodywalk = _compiled_walk()
#: which walk :func:`page_type_features` reads the body with: ``"compiled"`` or ``"python"``
BODY_WALK = "python" if _bodywalk is None else "compiled"


def _names() -> tuple[str, ...]:
    facts = PageFacts()
    return tuple(page_type_features(None, "http://example.com/a", facts))


#: The model's columns, in order.
FEATURES: tuple[str, ...] = _names()
