"""Decoded HTML → one lenient lxml tree, refusing what is not a page.

Every method reads the tree this module makes (``Page.tree`` parses once per page).
"""

from __future__ import annotations

import re

from lxml import etree, html

from ..errors import NewsstemmerError

__all__ = ["MAX_NESTING", "HTMLParseError", "cap_nesting", "parse_html"]


class HTMLParseError(NewsstemmerError, ValueError):
    """The input could not be turned into a document (empty, binary, unparsable)."""


# ``collect_ids=False``: libxml2 would otherwise index every ``id`` attribute in a hash
# table, for XPath's ``id()``, which nothing here calls; the index costs a quarter of
# the parse and leaves the tree as it is.
_PARSER = etree.HTMLParser(remove_comments=True, remove_pis=True, huge_tree=True, recover=True, collect_ids=False)


def parse_html(text: str | bytes) -> etree._Element:
    """Parse HTML leniently into an lxml tree; raise ``HTMLParseError`` if nothing is left."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    if not text or not text.strip():
        raise HTMLParseError("empty document")
    head = text[:2048]
    if len(_CONTROL.findall(head)) > 0.1 * len(head):
        # binary data decoded as text (a mislabelled image or archive), not a page
        raise HTMLParseError("not a text page: control characters in the first 2048 characters")
    # lxml refuses str input that carries an XML encoding declaration.
    if text.lstrip().startswith("<?xml"):
        text = re.sub(r"^\s*<\?xml[^>]*>", "", text, count=1)
    text = text.replace("\x00", "")
    # libxml2 drops what follows an early "</body></html>" (ad includes, archive
    # toolbars leave them mid-page); browsers ignore such end tags, and so do we.
    text = _END_OF_DOCUMENT.sub("", text)
    try:
        root = html.document_fromstring(text, parser=_PARSER)
        if _hit_depth_limit(_PARSER):
            # libxml2 stops building the tree at 2048 levels and drops everything
            # after that point; flatten the excess nesting and parse again.
            root = html.document_fromstring(cap_nesting(text), parser=_PARSER)
    except (etree.ParserError, ValueError) as exc:
        raise HTMLParseError(f"cannot parse HTML: {exc}") from exc
    if root is None:
        raise HTMLParseError("cannot parse HTML: no root element")
    return root


_END_OF_DOCUMENT = re.compile(r"</(?:body|html)\s*>", re.IGNORECASE)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f\ufffd]")

_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9:-]*)\b[^>]*?(/?)>")
# Elements that never hold children, and ones a parser closes by itself when a sibling
# opens: neither deepens the tree.
_NO_DEPTH = frozenset(
    "area base br col embed hr img input link meta param source track wbr "
    "p li dt dd tr td th option thead tbody tfoot".split()
)
MAX_NESTING = 1000


def _hit_depth_limit(parser: etree.HTMLParser) -> bool:
    return any(e.type_name == "ERR_RESOURCE_LIMIT" and "depth" in e.message for e in parser.error_log)


def cap_nesting(text: str, limit: int = MAX_NESTING) -> str:
    """``text`` with the start and end tags of elements nested deeper than ``limit`` removed.

    Their text stays, joined to the element at the limit, so nothing is lost; only
    pathological pages (thousands of levels) are ever passed here.
    """
    out: list[str] = []
    stack: list[tuple[str, bool]] = []  # (tag name, kept)
    pos = 0
    for m in _TAG.finditer(text):
        closing, name, self_closing = m.group(1), m.group(2).lower(), m.group(3)
        if name in _NO_DEPTH or self_closing:
            continue
        if not closing:
            keep = len(stack) < limit
            stack.append((name, keep))
            if not keep:
                out.append(text[pos : m.start()])
                out.append(" ")
                pos = m.end()
            continue
        # an end tag closes the nearest open element of its name (and those inside it)
        for k in range(len(stack) - 1, -1, -1):
            if stack[k][0] == name:
                kept = stack[k][1]
                del stack[k:]
                if not kept:
                    out.append(text[pos : m.start()])
                    out.append(" ")
                    pos = m.end()
                break
    out.append(text[pos:])
    return "".join(out)


