"""A sample page of a layout, with its blocks marked by role and every active part removed.

The report shows what a layout found on a real page: each element holding a block's
text carries ``data-role`` (``title``, ``main``, ``sub``, ``static``; the layout's byline
and date-line sections also ``data-meta``: ``byline``, ``date``), and the report's
stylesheet colours it.  Blocks come from :func:`newsstemmer.layout.blocks.block_elements`
and roles from :func:`newsstemmer.layout.matching.extracted_roles`: the same blocks
and roles extraction uses, on a copy of the page's tree.  A page whose layout marks no
block as title gets its headline from the page itself (``og:title``, ``h1``,
``<title>``), as extraction does: the sample says so.

Sample pages are untrusted.  They are shown as **rebuilt markup** inside the report,
not in ``<iframe sandbox srcdoc>``: the marked tree is serialised and cleaned by
``lxml_html_clean``'s :class:`Cleaner` with a tag allowlist and an attribute allowlist
of plain text attributes only, so no ``src``, ``href``, ``srcset``, ``style``,
``action``, ``background``, ``poster``, ``xlink:href`` or event handler survives, and
``script``, ``style``, ``link``, ``meta``, ``base``, frames, objects, forms, SVG and
MathML are dropped with their content.  What is left has nothing to run and nothing to
fetch, so it needs no frame of its own; the report's one Content-Security-Policy
(``default-src 'none'``, only the report's own stylesheet by hash) still guards it.
Rebuilt markup also keeps the marked elements in the report's document, where the
legend's colours apply and a browser test can measure them, and it keeps the page's
own stylesheets from restyling the report (its ``class`` and ``id`` go too).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from lxml import etree, html
from lxml_html_clean import Cleaner

from ..layout.blocks import BlockOptions, LayoutBlock, block_elements
from ..layout.matching import PatternMatch, extracted_roles, match_all
from ..layout.patterns import ROLES, SitePatterns
from ..page import Page

__all__ = ["ROLE_COLOURS", "Sample", "marked_sample", "sanitise"]

#: Colour of each role in the report (outline, and a light fill for the text).
ROLE_COLOURS: dict[str, tuple[str, str]] = {
    "title": ("#c2185b", "#fce4ec"),
    "main": ("#2e7d32", "#e8f5e9"),
    "sub": ("#1565c0", "#e3f2fd"),
    "static": ("#757575", "#f1f1f1"),
}
#: When one element holds blocks of several roles, the first of these wins.
_PRIORITY = {role: k for k, role in enumerate(("title", "main", "sub", "static"))}
assert set(_PRIORITY) == set(ROLES)

# Working attribute names while marking: the page's own ``data-role`` or ``title``
# attributes are dropped by the cleaner; these are renamed after cleaning.
_ROLE, _TIP, _META = "data-ns-role", "data-ns-tip", "data-ns-meta"

#: Elements a sample keeps (others lose their tag, keeping their text).
_TAGS = frozenset(
    "html body a abbr address article aside b bdi bdo big blockquote br caption center cite code col "
    "colgroup dd del details dfn dir div dl dt em fieldset figcaption figure font footer h1 h2 h3 h4 "
    "h5 h6 header hgroup hr i img ins kbd label legend li main mark menu nav ol p pre q s samp section "
    "small span strike strong sub summary sup table tbody td tfoot th thead time tr tt u ul var wbr".split()
)
#: Elements dropped with everything inside them.
_KILL = frozenset(
    "head title meta link base style script noscript template iframe frame frameset object applet "
    "svg math canvas video audio map area form input button select option optgroup textarea datalist "
    "output dialog portal slot".split()
)
#: Empty elements that libxml2 does not know as such: it nests what follows inside them,
#: so they lose their tag only (what follows is cleaned like the rest).
_UNWRAP = frozenset("embed source track param picture".split())
#: Attributes a sample keeps: plain text only, never a URL.
_ATTRS = frozenset((_ROLE, _TIP, _META, "alt", "colspan", "rowspan", "lang", "dir"))

_CLEANER = Cleaner(
    scripts=True,
    javascript=True,
    comments=True,
    style=True,
    inline_style=True,
    links=True,
    meta=True,
    page_structure=False,
    processing_instructions=True,
    embedded=True,
    frames=True,
    forms=True,
    annoying_tags=True,
    kill_tags=_KILL,
    remove_tags=_UNWRAP,
    allow_tags=_TAGS,
    remove_unknown_tags=False,
    safe_attrs_only=True,
    safe_attrs=_ATTRS,
)


@dataclass
class Sample:
    """One page of a layout as the report shows it."""

    source: str
    url: str | None
    coverage: float
    markup: str  # sanitised HTML: a <div class="ns-page"> with data-role marks
    doc_title: str = ""  # the page's <title>
    doc_title_role: str | None = None
    roles: dict[str, int] = field(default_factory=dict)  # blocks per role
    unknown_blocks: int = 0  # blocks the layout does not know (left unmarked)
    meta: list[str] = field(default_factory=list)  # the byline / date marks shown on the page
    title_from_page: bool = False  # no title block: extraction takes the page's own headline


def marked_sample(page: Page, site: SitePatterns, pattern_id: str, options: BlockOptions | None = None) -> Sample | None:
    """The page with the blocks of layout ``pattern_id`` marked by role, sanitised.

    None if the site has no such layout.  The page's own tree is not changed.
    """
    tree = copy.deepcopy(page.tree)
    for el in tree.iter(etree.Element):
        for name in (_ROLE, _TIP, _META):
            if name in el.attrib:
                del el.attrib[name]
    pb, elements = block_elements(tree, options or site.block_options())
    match: PatternMatch | None = next((m for m in match_all(pb, site) if m.pattern.id == pattern_id), None)
    if match is None:
        return None
    roles = extracted_roles(pb, match)
    doc_title, doc_title_role = _mark(pb.blocks, elements, roles)
    metas = _mark_meta(match, elements)
    counts: dict[str, int] = {}
    for role in roles:
        if role is not None:
            counts[role] = counts.get(role, 0) + 1
    body = tree.find("body")
    markup = sanitise(etree.tostring(body if body is not None else tree, method="html", encoding="unicode", with_tail=False))
    return Sample(
        source=page.name,
        url=page.url,
        coverage=match.coverage,
        markup=markup,
        doc_title=doc_title,
        doc_title_role=doc_title_role,
        roles=counts,
        unknown_blocks=sum(1 for r in roles if r is None),
        title_from_page="title" not in counts,
        meta=metas,
    )


def _mark_meta(match: PatternMatch, elements: list[list[etree._Element | None]]) -> list[str]:
    """Mark the elements of the layout's byline and date-line sections (``data-meta``);
    returns the marks made."""
    made: list[str] = []
    for mark, s in (("byline", match.pattern.byline_section), ("date", match.pattern.date_section)):
        b = match.blocks[s] if s is not None and s < len(match.blocks) else None
        if b is None:
            continue
        for el in elements[b]:
            if el is not None:
                old = el.get(_META)
                el.set(_META, mark if not old or old == mark else f"{old} {mark}")
                if mark not in made:
                    made.append(mark)
    return made


def _mark(
    blocks: list[LayoutBlock], elements: list[list[etree._Element | None]], roles: list[str | None]
) -> tuple[str, str | None]:
    """Put each block's role on the elements holding its text; return the page's
    ``<title>`` text and role (the title lives in the head, which is not shown)."""
    marks: dict[etree._Element, tuple[str, str]] = {}
    doc_title, doc_title_role = "", None
    for block, els, role in zip(blocks, elements, roles):
        if block.tag == "title" and not doc_title:
            doc_title, doc_title_role = block.text, role
        if role is None:
            continue
        for el in els:
            if el is None:
                continue
            old = marks.get(el)
            if old is None or _PRIORITY[role] < _PRIORITY[old[0]]:
                marks[el] = (role, f"{role} · {block.path}")
    # An element holding its own text around marked blocks (a body <div> with a stray
    # line) would outline them all: its own text is wrapped and marked instead.
    containers = set()
    for el in marks:
        for up in el.iterancestors():
            if up in marks:
                containers.add(up)
    for el, (role, tip) in marks.items():
        if el in containers:
            _mark_own_text(el, role, tip)
        else:
            el.set(_ROLE, role)
            el.set(_TIP, tip)
    return doc_title, doc_title_role


def _mark_own_text(el: etree._Element, role: str, tip: str) -> None:
    """Wrap the text directly inside ``el`` (not in its children) in marked spans."""

    def span(text: str) -> etree._Element:
        s = etree.Element("span")
        s.text = text
        s.set(_ROLE, role)
        s.set(_TIP, tip)
        return s

    if el.text and el.text.strip():
        el.insert(0, span(el.text))
        el.text = None
    for child in list(el):
        if child.tail and child.tail.strip() and child.get(_ROLE) is None:
            text, child.tail = child.tail, None
            child.addnext(span(text))


def sanitise(markup: str) -> str:
    """The page markup made inert: a ``<div class="ns-page">`` of allowed tags and text
    attributes only (see the module's docstring); images become text placeholders."""
    doc = html.document_fromstring(markup or "<p></p>")
    _CLEANER(doc)
    body = doc.find("body")
    root = body if body is not None else doc
    for el in list(root.iter("img")):
        alt = " ".join((el.get("alt") or "").split())
        el.tag = "span"
        el.attrib.pop("alt", None)
        el.set("class", "ns-img")
        el.text = f"image: {alt[:80]}" if alt else "image"
    for el in root.iter(etree.Element):
        if _ROLE in el.attrib:
            el.set("data-role", el.attrib.pop(_ROLE))
        if _TIP in el.attrib:
            el.set("title", el.attrib.pop(_TIP))
        if _META in el.attrib:
            el.set("data-meta", el.attrib.pop(_META))
    root.tag = "div"
    root.attrib.clear()
    root.set("class", "ns-page")
    return html.tostring(root, encoding="unicode", method="html")
