"""Each metadata field decided from a page's facts (:mod:`.facts`), most trusted source first."""

from __future__ import annotations

import re
from html import unescape as html_unescape
from dataclasses import asdict, dataclass, field
from typing import Any
from urllib.parse import urljoin, urlsplit

from lxml import etree

from .facts import PageFacts, ld_types, page_facts
from .facts import ld_text as _ld_text, ld_values as _ld_values, meta_source as _source
from .neighbourhood import HoodWalk, Neighbourhood, dice, title_words
from .neighbourhood import in_comments as _in_comments
from .people import bold_names_opening, byline_line, is_handle, names_from_ld, names_in_text, plausible_name, split_names
from .threads import post_headers, thread_starter
from .titles import choose_title
from .published import PUBLISHED_META, modified_date, published_date, structured_date

__all__ = ["CANDIDATE_KINDS", "ArticleMetadata", "article_metadata", "author_candidates", "headline_neighbourhood",
           "house_test", "neighbourhood_walk", "page_titles", "rules_title",
           "structured_people_and_date", "title_candidates"]

_AUTHOR_META = ("author", "article:author", "parsely-author", "sailthru.author", "dc.creator", "dcterms.creator",
                "byl", "cxenseparse:author", "twitter:creator")
_TITLE_SEPARATORS = re.compile(r"\s+[|\-–—:·»]\s+|\s+::\s+")
_MAX_MARKUP_MATCHES = 40
_ABSOLUTE = re.compile(r"https?://[^/\\\s]")
#: what each author candidate is (:func:`author_candidates`), in the order they are read
CANDIDATE_KINDS = ("ld", "ld-thread", "meta", "microdata", "rel-author", "thread", "author-page", "byline-mark",
                   "microdata-thread", "by-line", "bold-line")
_THREAD_TYPES = frozenset({"discussionforumposting", "question"})  # JSON-LD types of a thread's first post
_BY_LINES_AFTER = 15  # text lines under the headline searched for a line opening with a by-word


@dataclass
class ArticleMetadata:
    """What a page says about its article; ``meta_source`` names each field's source."""

    title: str | None = None
    authors: list[str] = field(default_factory=list)
    published: str | None = None
    modified: str | None = None
    language: str | None = None
    section: str | None = None
    tags: list[str] = field(default_factory=list)
    description: str | None = None
    image: str | None = None
    canonical_url: str | None = None
    site_name: str | None = None
    meta_source: dict[str, str] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """The fields as a plain dict (JSON-ready)."""
        return asdict(self)


def _language(facts: PageFacts) -> tuple[str | None, str | None]:
    tag = bcp47(facts.lang)
    if tag:
        return tag, "html"
    for value, source in ((*((v, "meta") for v in facts.meta.get("content-language", ())),
                           *((v, "opengraph") for v in facts.meta.get("og:locale", ())),
                           *((_ld_text(v), s) for v, s in _ld_values(facts, "inLanguage")))):
        tag = bcp47(value)
        if tag:
            return tag, source
    return None, None


_PRIMARY = re.compile(r"[A-Za-z]{2,3}")
_REGION = re.compile(r"[A-Za-z]{2}|\d{3}")
_SCRIPT = re.compile(r"[A-Za-z]{4}")
_LANG_PARTS = re.compile(r"[-_]")


def bcp47(value: str | None) -> str | None:
    """A language tag in BCP 47 form (``en_us`` → ``en-US``), or None if it is not one."""
    if not value:
        return None
    parts = _LANG_PARTS.split(value.strip().split(",")[0].strip())
    if not parts or not _PRIMARY.fullmatch(parts[0]):
        return None
    out = [parts[0].lower()]
    for part in parts[1:]:
        if _REGION.fullmatch(part):
            out.append(part.upper())
        elif _SCRIPT.fullmatch(part):
            out.append(part.title())
        else:
            break
    return "-".join(out)


def headline_neighbourhood(tree: Any, facts: PageFacts) -> Neighbourhood:
    """The headline's neighbourhood (:mod:`.neighbourhood`), read once per page and kept
    on the facts: by its own walk, or from page typing's walk where that read it."""
    hood = facts.neighbourhood
    if hood is None:
        hood = facts.neighbourhood = _neighbourhood(tree, facts)
    elif isinstance(hood, HoodWalk):
        hood = facts.neighbourhood = hood.result()
    return hood


def _strip_site(title: str, site_name: str | None, host: str) -> str:
    """A ``<title>``/``og:title`` without its site-name segment ("Story | Site" → "Story")."""
    parts = [p for p in _TITLE_SEPARATORS.split(title) if p.strip()]
    if len(parts) < 2:
        return title
    site_words = set(re.findall(r"\w+", (site_name or "").lower())) | set(re.findall(r"[a-z0-9]+", host.lower()))
    labels = {w for w in re.findall(r"[a-z0-9]+", host.lower()) if len(w) >= 5 and w not in ("www", "blogs")}

    def the_site(i: int, part: str) -> bool:
        words = set(re.findall(r"\w+", part.lower()))
        # (the last part may name the site in more words: "Die Neue Südtiroler Tageszeitung")
        return words <= site_words or (i == len(parts) - 1 and bool(words & labels) and len(words) <= 5)

    kept = [p for i, p in enumerate(parts) if not the_site(i, p)]
    if not kept:
        return title
    if len(kept) < len(parts):
        return _TITLE_SEPARATORS.split(title)[0] if kept[0] == parts[0] and len(kept) == 1 else " - ".join(kept)
    return title


def _own_titles(facts: PageFacts) -> tuple[str | None, tuple[str, str] | None, list[str]]:
    """The page's titles for itself: JSON-LD headline, ``og:title``, and all of them with ``<title>``."""
    ld = next((_ld_text(v) for v, _ in _ld_values(facts, "headline", any_node=False)), None)
    og = facts.first_meta("og:title", "twitter:title")
    return ld, og, [t for t in (ld, og[1] if og else None, facts.title) if t]


def _headline_index(facts: PageFacts) -> int | None:
    """Which of the first ``<h1>`` is the headline: the first that agrees with the page's own
    titles (a site's logo is often an ``<h1>`` too), or None (worked out once per page)."""
    if facts.headline_at is None:
        facts.headline_at = -1
        if not facts.h1:
            return None  # (no <h1>: the titles are not read)
        site = _site_name(facts)  # (a logo's <h1> agrees with the site's part of the titles only)
        own = [title_words(_strip_site(t, site, "")) for t in _own_titles(facts)[2]]
        for i, h1 in enumerate(facts.h1[:3]):
            if 3 <= len(h1) <= 300:
                words = title_words(h1)
                if any(dice(words, t) >= 0.6 for t in own):
                    facts.headline_at = i
                    break
    return facts.headline_at if facts.headline_at >= 0 else None


def rules_title(facts: PageFacts, site_name: str | None, host: str) -> tuple[str | None, str | None]:
    """The title by the rules: the headline ``<h1>`` (after a kicker, the page's own title
    it ends with), else JSON-LD, ``og:title``, ``<title>`` without the site's name; and its source."""
    ld, og, _ = _own_titles(facts)
    at = _headline_index(facts)
    if at is not None:
        h1 = _strip_site(facts.h1[at], site_name, host)
        for own, source in ((ld, "json-ld"), (_strip_site(og[1], site_name, host) if og else None, "opengraph")):
            if own and _kicker_before(h1, own):
                return own, source
        return h1, "html"
    if ld:
        return ld, "json-ld"
    if og:
        return _strip_site(og[1], site_name, host), "opengraph"
    if facts.title:
        return _strip_site(facts.title, site_name, host), "html"
    if len(facts.h1) == 1 and len(facts.h1[0]) <= 300:
        return facts.h1[0], "html"
    return None, None


def page_titles(facts: PageFacts, host: str) -> tuple[list[tuple[str, str]], str | None, str | None]:
    """The page's title candidates (:func:`title_candidates`), the rules' title and the
    site's name: what the learned title choice (:mod:`.titles`) reads and is trained on."""
    site = _site_name(facts)
    return title_candidates(facts, site, host), rules_title(facts, site, host)[0], site


def title_candidates(facts: PageFacts, site_name: str | None, host: str) -> list[tuple[str, str]]:
    """Every title the page gives for itself, as (kind, text) in :data:`.titles.TITLE_KINDS`'s
    order: the headline ``<h1>`` and the first one, the JSON-LD headline (entities
    decoded), ``og:title``, ``twitter:title`` and ``<title>`` without their site-name part,
    and the last two as written.  What a learned choice among titles reads."""
    at = _headline_index(facts)
    ld, _, _ = _own_titles(facts)
    og = facts.first_meta("og:title")
    tw = facts.first_meta("twitter:title")
    found = (("h1", _strip_site(facts.h1[at], site_name, host) if at is not None else None),
             ("h1-first", facts.h1[0] if facts.h1 and len(facts.h1[0]) <= 300 else None),
             ("ld", html_unescape(ld) if ld and "&" in ld else ld),
             ("og", _strip_site(og[1], site_name, host) if og else None),
             ("twitter", _strip_site(tw[1], site_name, host) if tw else None),
             ("title", _strip_site(facts.title, site_name, host) if facts.title else None),
             ("og-raw", og[1] if og else None), ("title-raw", facts.title))
    return [(kind, text) for kind, text in found if text]


def _kicker_before(h1: str, title: str) -> bool:
    """Whether the ``<h1>`` is the page's own title after a kicker and a colon
    ("Olympics: Title" where ``og:title`` says "Title"): the kicker is a label, not the title."""
    if len(title) < 12 or len(h1) <= len(title) or not h1.endswith(title):
        return False
    kicker = h1[:-len(title)].rstrip()
    return kicker.endswith(":") and 0 < len(kicker) <= 80


def _authors(facts: PageFacts, tree: Any, host: str = "") -> tuple[list[str], str | None]:
    """The first source whose names look like people's.  A source that gives only user
    names ("col_cops") or the site's own name ("Lesotho Times" on lesothotimes.com) is
    kept in reserve in case no other source has names; names read from the page's text
    must be plausible names (:func:`.people.plausible_name`)."""
    reserve: tuple[list[str], str | None] = ([], None)
    house = house_test(facts, host)
    for names, source, kind in author_candidates(facts, tree):
        if not names or (source == "text" and not all(plausible_name(n) for n in names)):
            continue
        if kind != "thread" and all(is_handle(n) or house(n) for n in names):  # (house: asked only here)
            reserve = reserve if reserve[0] else (names, source)
            continue
        if reserve[0] and source == "text" and all(" " not in n for n in names) and reserve[1] != "text":
            continue  # (one word in the page's text, "APA", is weaker than the house's name in its data)
        return names, source
    return reserve


def _folded(text: str | None) -> str:
    return _NOT_WORD.sub("", (text or "").casefold())


_NOT_WORD = re.compile(r"[\W_]+")


def house_test(facts: PageFacts, host: str) -> Any:
    """A test of whether a name is the site's own (its site name, publisher or host name)."""
    known: list[tuple[set[str], list[str]]] = []  # (site names, host labels), made on first need

    def is_house(name: str) -> bool:
        if not known:
            publisher = next((_ld_text(v) for v, _ in _ld_values(facts, "publisher")), None)
            names = {f for f in (_folded(_site_name(facts)), _folded(publisher)) if f}
            labels = [_folded(p) for p in host.lower().split(".")[:-1] if p not in ("www", "m", "amp", "co", "com")]
            known.append((names, [label for label in labels if len(label) >= 3]))
        names, labels = known[0]
        f = _folded(name)
        return bool(f) and (f in names or any(f.startswith(label) or label.startswith(f) for label in labels))

    return is_house


def _site_name(facts: PageFacts) -> str | None:
    og = facts.first_meta("og:site_name", "application-name")
    if og:
        return og[1]
    return next((_ld_text(v) for v, _ in _ld_values(facts, "publisher")), None)


def _microdata_names(el: Any) -> list[str]:
    """The names of one ``itemprop=author`` element: its ``itemprop=name`` if it has one."""
    value = el.get("content")
    if value:
        return split_names(value)
    try:
        inner = el.xpath(".//*[@itemprop='name']")
    except (ValueError, etree.Error):
        inner = []
    text = (inner[0].get("content") or " ".join("".join(inner[0].itertext()).split())) if inner else ""
    return split_names(text) if text else names_in_text(" ".join("".join(el.itertext()).split()))


def _in_related(el: Any) -> bool:
    """Inside a box of related stories (a class that says "related"): another article's card."""
    return any("related" in (up.get("class") or "") for up in el.iterancestors())


def author_candidates(facts: PageFacts, tree: Any) -> Any:
    """The page's author candidates, most trusted first: ``(names, meta_source, kind)``,
    ``kind`` one of :data:`CANDIDATE_KINDS` (lazily: a source is read when asked for)."""
    for value, source in _ld_values(facts, "author", any_node=False) + _ld_values(facts, "creator", any_node=False):
        yield names_from_ld(value), source, "ld"
    for node in facts.ld:  # a thread's or a question's own post: its starter (not a reply's writer)
        if node.get("author") and ld_types(node) & _THREAD_TYPES:
            yield names_from_ld(node["author"]), "json-ld", "ld-thread"
    for name in _AUTHOR_META:
        for value in facts.meta.get(name, ()):
            yield split_names(value), _source(name), "meta"
    props = [el for _, el in facts.microdata("author") + facts.microdata("creator")
             if not _in_comments(el) and not _in_related(el)]
    # the first author scope only (forums and comment threads repeat itemprop=author); where
    # the scopes name several people (the posts of a thread, of which this page may show a
    # later page), after the bylines near the headline ("Thread starter ...")
    thread = len(props) > 2 and len({tuple(_microdata_names(el)) for el in props[:4]}) > 2
    if props and not thread:
        yield _microdata_names(props[0]), "microdata", "microdata"
    for value in facts.author_links:
        yield split_names(value), "html", "rel-author"
    hood = headline_neighbourhood(tree, facts)
    starter = thread_starter(hood.bylines) or thread_starter(
        post_headers(tree, facts.html if facts.dt_headers_named() else None))  # (the text scanned once)
    if starter is not None:
        yield [starter.name], "html", "thread"
    yield _author_page_names(hood), "html", "author-page"
    for el in hood.bylines:
        if not _in_comments(el):
            yield names_in_text(" ".join("".join(el.itertext()).split())), "text", "byline-mark"
    if thread:
        yield _microdata_names(props[0]), "microdata", "microdata-thread"
    if hood.at >= 0:  # a line just under the headline that opens with "By", "Von", "Por", ...
        under = hood.lines[hood.at + 1:hood.at + _BY_LINES_AFTER]
        for i, line in enumerate(under):
            if len(line) < 12 and i + 1 < len(under) and not byline_line(line):
                line = f"{line} {under[i + 1]}"  # ("By" and a linked name are two pieces of text)
            names = byline_line(line)
            if names:
                yield names, "text", "by-line"
                break
    yield _bold_names_opening(tree, facts), "text", "bold-line"


def _bold_names_opening(tree: Any, facts: PageFacts) -> list[str]:
    """The names of a bold line opening one of the first paragraphs under the headline
    (:func:`.people.bold_names_opening`): read last, where no other source named a person.
    Nothing where no ``<p>`` of the page opens with a bold element (the page facts' pass tells:
    the paragraphs are not looked for, on a page with few ``<p>`` most of the tree)."""
    if facts.bold_paragraph is False and facts.tree is tree:
        return []
    at = _headline_index(facts)
    start = facts.h1_elements[at] if at is not None else (facts.h1_elements or [None])[0]
    body = tree.find("body") if start is None and tree is not None else None
    paragraphs = _paragraphs_after(start) if start is not None else (body.iter("p") if body is not None else ())
    return bold_names_opening([p for p, _ in zip(paragraphs, range(8))],
                              lambda: facts.html or "".join(tree.itertext()), lambda p: not _in_comments(p))


def _paragraphs_after(el: Any) -> Any:
    """The ``<p>`` elements after ``el`` in document order (lazily: the first few are read)."""
    while el is not None:
        for sibling in el.itersiblings():
            if isinstance(sibling.tag, str):
                yield from sibling.iter("p")
        el = el.getparent()


def neighbourhood_walk(facts: PageFacts, deferred: bool = False) -> HoodWalk:
    """A reading of the headline's neighbourhood (:class:`.neighbourhood.HoodWalk`), its
    headline known from the page's facts: the ``<h1>`` that agrees with the page's own
    titles (else the first one met), or on a page without ``<h1>`` the titles an
    ``<h2>``/``<h3>`` must agree with.  ``deferred``: which ``<h1>`` it is is worked out
    only when the reading's result is asked for (page typing's walk: most of the cost of
    knowing the headline, ~0.2 ms, is then paid for the pages whose metadata is read)."""
    if deferred and facts.h1:
        candidates = [el for text, el in zip(facts.h1[:3], facts.h1_elements[:3]) if 3 <= len(text) <= 300]

        def headline() -> Any:
            agreed = _headline_index(facts)
            return facts.h1_elements[agreed] if agreed is not None else None

        return HoodWalk(True, None, [], resolve=headline, candidates=candidates)
    agreed = _headline_index(facts) if facts.h1 else None
    headline = facts.h1_elements[agreed] if agreed is not None else None
    own = [] if facts.h1 else [title_words(t) for t in _own_titles(facts)[2]]
    return HoodWalk(bool(facts.h1), headline, own)


def _neighbourhood(tree: Any, facts: PageFacts) -> Neighbourhood:
    """The neighbourhood by its own walk of the body (one that stops early: on a large
    page with a headline most of the tree is never visited)."""
    body = tree.find("body") if tree is not None else None
    if body is None:
        return Neighbourhood([], -1, [])
    reading = neighbourhood_walk(facts)
    try:
        reading.walk(body)
    except (ValueError, etree.Error):
        return Neighbourhood(reading.lines, -1, [])
    return reading.result()


def _author_page_names(hood: Neighbourhood) -> list[str]:
    """The names of the link to an author page nearest the headline, and of the links
    beside it in the same element (a byline that links each of its writers)."""
    if not hood.author_links:
        return []
    parent = hood.author_links[0][1].getparent()
    names: list[str] = []
    for _, el in hood.author_links:
        if el.getparent() is not parent:
            continue
        text = " ".join("".join(el.itertext()).split())
        found = split_names(text) if 0 < len(text) <= 60 else []
        if found and all(plausible_name(n) for n in found):
            names.extend(n for n in found if n not in names)
    return names


def _first(*candidates: tuple[Any, str]) -> tuple[Any, str | None]:
    for value, source in candidates:
        if value:
            return value, source
    return None, None


def _tags(facts: PageFacts) -> tuple[list[str], str | None]:
    tags = [t for t in facts.meta.get("article:tag", ()) if t]
    if tags:
        return list(dict.fromkeys(tags)), "opengraph"
    for value, source in _ld_values(facts, "keywords", any_node=False):
        items = value if isinstance(value, list) else str(value).split(",")
        tags = [" ".join(str(t).split()) for t in items if str(t).strip()]
        if tags:
            return list(dict.fromkeys(tags)), source
    found = facts.first_meta("news_keywords", "keywords")
    if found:
        tags = [t.strip() for t in found[1].split(",") if t.strip()]
        return list(dict.fromkeys(tags)), "meta"
    return [], None


def article_metadata(tree: Any, url: str | None = None, facts: PageFacts | None = None,
                     html: str | None = None, title: bool = True,
                     learned_title: bool = True) -> ArticleMetadata:
    """The metadata of a parsed page (``Page.tree``); fields the page lacks stay empty.

    ``html`` (the text the tree was parsed from) only saves work: see :func:`.facts.page_facts`.
    ``title=False`` leaves ``title`` out (None): the extraction chain gives an article its
    extraction's title, not this one. ``learned_title=False`` keeps the rules' title
    (:func:`rules_title`) without asking the title model (:mod:`.titles`).
    """
    facts = facts or page_facts(tree, html)
    meta = ArticleMetadata()
    src = meta.meta_source
    parts = urlsplit(url or "")
    host = parts.hostname or ""
    origin = f"{parts.scheme}://{parts.netloc}" if parts.scheme and parts.netloc else ""

    publisher = next((_ld_text(v) for v, _ in _ld_values(facts, "publisher")), None)
    og_site = facts.first_meta("og:site_name", "application-name")
    meta.site_name, src["site_name"] = _first((og_site[1] if og_site else None, _source(og_site[0]) if og_site else ""),
                                              (publisher, "json-ld"))
    if title:
        meta.title, src["title"] = rules_title(facts, meta.site_name, host)
        better = learned_title and choose_title(title_candidates(facts, meta.site_name, host), meta.title,
                                                meta.site_name, host)
        if better:
            meta.title, src["title"] = better
    meta.authors, src["authors"] = _authors(facts, tree, host)
    meta.published, src["published"] = published_date(facts, lambda: headline_neighbourhood(tree, facts), url)
    meta.modified, src["modified"] = modified_date(facts)
    meta.language, src["language"] = _language(facts)
    section_meta = facts.first_meta("article:section", "section", "parsely-section")
    section_ld = next((_ld_text(v) for v, _ in _ld_values(facts, "articleSection", any_node=False)), None)
    meta.section, src["section"] = _first((section_ld, "json-ld"),
                                          (section_meta[1] if section_meta else None,
                                           _source(section_meta[0]) if section_meta else ""))
    meta.tags, src["tags"] = _tags(facts)
    desc = facts.first_meta("og:description", "description", "twitter:description")
    meta.description, src["description"] = _first(
        (desc[1] if desc else None, _source(desc[0]) if desc else ""),
        (next((_ld_text(v) for v, _ in _ld_values(facts, "description", any_node=False)), None), "json-ld"))
    image = facts.first_meta("og:image", "og:image:url", "twitter:image", "twitter:image:src")
    ld_image = next((_ld_text(v) for v, _ in _ld_values(facts, "image", any_node=False)), None)
    meta.image, src["image"] = _first((image[1] if image else None, _source(image[0]) if image else ""),
                                      (ld_image, "json-ld"))
    og_url = facts.first_meta("og:url")
    meta.canonical_url, src["canonical_url"] = _first((facts.canonical, "html"),
                                                      (og_url[1] if og_url else None, "opengraph"))
    for name in ("image", "canonical_url"):
        value = getattr(meta, name)
        if value and url and not _ABSOLUTE.match(value):  # (urljoin is ~15 µs: skipped where it changes nothing)
            simple = origin and value[0] == "/" and value[1:2] != "/" and "/." not in value and "\\" not in value
            setattr(meta, name, origin + value if simple else urljoin(url, value))
    for name in list(src):
        if not src[name]:
            del src[name]
    return meta


def structured_people_and_date(tree: Any, html: str | None = None) -> tuple[list[str], str | None]:
    """A page's authors and published date as its structured data alone gives them
    (JSON-LD, meta tags, microdata): what the layout's byline and date-line sections are
    checked against when they are learned (no walk of the page's text)."""
    facts = page_facts(tree, html)
    names: list[str] = []
    for found, source, _ in author_candidates(facts, tree):
        if source in ("html", "text"):
            break
        if found and not all(is_handle(n) for n in found):
            names = found
            break
    when, _ = structured_date(facts, ("datePublished", "dateCreated"), PUBLISHED_META,
                              ("datepublished", "datecreated"))
    return names, when
