"""Rule selectors: adapted identifiers, the paper's rule templates, layout-path
selectors, and the translation of a set of selectors into one fast XPath."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any, Sequence

import cssselect
import cssselect.parser as cp
from lxml import etree
from parsel import css2xpath

from ..errors import NewsstemmerError
from ..layout.blocks import BLOCK_TAGS

__all__ = [
    "TEMPLATES",
    "adapted_identifiers",
    "id_tokens",
    "is_identifier",
    "is_stable_identifier",
    "nearest_identifiers",
    "path_selector",
    "rule_for",
    "selectors_xpath",
    "simple_selector",
    "stable_classes",
]

#: The templates, by the relation between a block and its nearest adapted identifier.
TEMPLATES = {
    ("own", "#"): "E#id",
    ("own", "."): "E.class",
    ("child", "#"): "#id > E",
    ("child", "."): ".class > E",
    ("descendant", "#"): "#id E",
    ("descendant", "."): ".class E",
    ("own", "@"): "E[attr]",
    ("child", "@"): "[attr] > E",
    ("descendant", "@"): "[attr] E",
    ("none", ""): "E",
    ("path", ""): "path",
}

# A CSS identifier that needs no escaping (ASCII; not starting with a digit or "-digit").
_IDENT = re.compile(r"-?[A-Za-z_][A-Za-z0-9_-]*\Z")
# An attribute value used in [name="value"]: no quotes, backslashes or spaces.
_ATTR_VALUE = re.compile(r"[A-Za-z0-9_%.:/-]{1,64}\Z")
_DIGIT = re.compile(r"\d")
_SPACE_SPLIT = re.compile(r"[ \t\n\f\r]+")
_KIND_RANK = {"#": 0, ".": 1}


# -- identifiers -------------------------------------------------------------------------------


def is_identifier(value: str) -> bool:
    """Whether ``value`` is a CSS identifier that needs no escaping."""
    return bool(_IDENT.match(value))


def is_stable_identifier(value: str) -> bool:
    """A plain identifier without digits (``col2``, ``story-2005`` may be per-template
    or per-article; ``story`` is stable)."""
    return bool(_IDENT.match(value)) and not _DIGIT.search(value)


def id_tokens(el: etree._Element, attributes: Sequence[str] = ()) -> list[tuple[str, str]]:
    """The element's identifiers as (kind, value): ``("#", id)``, ``(".", token)``, and
    ``("@name", value)`` for each of ``attributes`` it has."""
    out = []
    eid = el.get("id")
    if eid:
        out.append(("#", eid.strip()))
    cls = el.get("class")
    if cls:
        out.extend((".", t) for t in _SPACE_SPLIT.split(cls.strip()) if t)
    for name in attributes:
        value = el.get(name)
        if value:
            out.append(("@" + name, value.strip()))
    return out


def _plain(kind: str, value: str) -> bool:
    """Whether an identifier is written in CSS without escaping or quoting trouble."""
    if kind[0] == "@":
        return bool(_ATTR_VALUE.match(value))
    return bool(_IDENT.match(value))


def simple_selector(ident: tuple[str, str]) -> str:
    """``#id``, ``.class`` or ``[name="value"]``."""
    kind, value = ident
    if kind[0] == "@":
        return f'[{kind[1:]}="{value}"]'
    return f"{kind}{value}"


def adapted_identifiers(roots: Sequence[etree._Element], attributes: Sequence[str] = ()) -> set[tuple[str, str]]:
    """Identifiers (``("#", id)`` / ``(".", class)``) that occur exactly once in every page.

    Counted case-insensitively (a value that differs only in case elsewhere on the page
    is not unique to a browser in quirks mode); only plain CSS identifiers qualify.
    ``attributes`` adds attribute values (``("@width", "426")``) as identifiers.
    """
    common: dict[tuple[str, str], str] | None = None
    for root in roots:
        counts: Counter[tuple[str, str]] = Counter()
        spelling: dict[tuple[str, str], str] = {}
        for el in root.iter(etree.Element):
            for kind, value in id_tokens(el, attributes):
                k = (kind, value.lower())
                counts[k] += 1
                spelling[k] = value
        once = {k: spelling[k] for k, n in counts.items() if n == 1 and _plain(k[0], spelling[k])}
        if common is None:
            common = once
        else:
            common = {k: v for k, v in common.items() if once.get(k) == v}
    return {(k[0], v) for k, v in (common or {}).items()}


def stable_classes(roots: Sequence[etree._Element]) -> set[tuple[str, str]]:
    """Class tokens (lower-cased) present on every page, however often."""
    common: set[tuple[str, str]] | None = None
    for root in roots:
        seen = {(".", t.lower()) for el in root.iter(etree.Element) if el.get("class") for t in el.get("class").split()}
        common = seen if common is None else common & seen
    return common or set()


def _own_identifier(
    el: etree._Element, adapted: set[tuple[str, str]], attributes: Sequence[str] = ()
) -> tuple[str, str] | None:
    """The element's best adapted identifier: without digits first, then id, class,
    attributes."""
    best = None
    best_rank: tuple[bool, int, int] | None = None
    for i, (kind, value) in enumerate(id_tokens(el, attributes)):
        if (kind, value) in adapted:
            rank = (bool(_DIGIT.search(value)), _KIND_RANK.get(kind, 2), i)
            if best_rank is None or rank < best_rank:
                best, best_rank = (kind, value), rank
    return best


def nearest_identifiers(
    root: etree._Element, adapted: set[tuple[str, str]], attributes: Sequence[str] = ()
) -> dict[etree._Element, tuple[str, tuple[str, str] | None]]:
    """For every element, in preorder: (relation, identifier) of its nearest adapted
    identifier; relation is ``own``, ``child`` (the parent's), ``descendant`` (the
    parent's nearest) or ``none``."""
    out: dict[etree._Element, tuple[str, tuple[str, str] | None]] = {}
    for el in root.iter(etree.Element):
        own = _own_identifier(el, adapted, attributes)
        if own is not None:
            out[el] = ("own", own)
            continue
        parent = el.getparent()
        up = out.get(parent) if parent is not None else None
        if up is None or up[1] is None:
            out[el] = ("none", None)
        elif up[0] == "own":
            out[el] = ("child", up[1])
        else:
            out[el] = ("descendant", up[1])
    return out


# -- rule templates ------------------------------------------------------------------------------


def rule_for(
    tag: str, nearest: tuple[str, tuple[str, str] | None], strict_descendant: bool = False
) -> tuple[str, str]:
    """The selector and template name for an element named ``tag`` with its nearest
    adapted identifier (the paper's Table 1).  ``strict_descendant`` writes the third
    template as the paper does, ``#id * E`` (a descendant that is not a child)."""
    relation, ident = nearest
    if ident is None:
        return tag, "E"
    template = TEMPLATES[(relation, ident[0][0])]
    simple = simple_selector(ident)
    if relation == "own":
        return f"{tag}{simple}", template
    if relation == "child":
        return f"{simple} > {tag}", template
    if strict_descendant:
        return f"{simple} * {tag}", template.replace(" E", " * E")
    return f"{simple} {tag}", template


def path_selector(el: etree._Element, depth: int = 3) -> str | None:
    """A selector from the element's layout path: ``div:class=x/p`` → ``div.x > p``.

    Each step is a block element's tag with its digit-free plain identifiers, joined
    by ``>`` where the step is the DOM parent of the next, by a space where inline
    elements lie between.  A path naming no identifier gives no rule.
    """
    steps: list[tuple[str, etree._Element]] = []
    named = False
    node: etree._Element | None = el
    while node is not None and len(steps) < depth:
        tag = node.tag
        if isinstance(tag, str) and (tag in BLOCK_TAGS or node is el):
            step = tag
            for kind, value in id_tokens(node):
                if is_stable_identifier(value):
                    step += f"{kind}{value}"
                    named = True
            steps.append((step, node))
        node = node.getparent()
    if not named:
        return None
    steps.reverse()
    out = steps[0][0]
    for (_, outer), (step, inner) in zip(steps, steps[1:]):
        out += (" > " if inner.getparent() is outer else " ") + step
    return out


# -- selectors to XPath ---------------------------------------------------------------------------
#
# parsel (``response.css``) translates a selector with cssselect's HTMLTranslator, whose
# XPath walks the tree from the left of the selector: ``#main > p`` becomes
# ``descendant-or-self::*[@id = 'main']/p``, a full walk testing attributes on every
# element, and one walk per rule.  For the selectors rules are made of (type, ``#id``,
# ``.class``, ``[name="value"]``, and the ``>`` and descendant combinators), the same
# elements are found from the right: ``descendant-or-self::p[parent::*[@id = 'main']]``,
# where the name test ``p`` rejects most elements at once, and rules ending in the same
# element name share one walk.  The predicates are cssselect's own; any other selector
# is translated by cssselect as parsel does.  (tests/test_rules.py checks that both
# forms select the same elements.)


class _Unsupported(NewsstemmerError):
    pass


def _compound(node: Any) -> tuple[str, list[str]]:
    """(element name, predicates) of a compound selector of the supported kinds."""
    preds: list[str] = []
    while True:
        if isinstance(node, cp.Element):
            if node.namespace is not None:
                raise _Unsupported
            tag = (node.element or "*").lower()
            if tag != "*" and not _IDENT.match(tag):
                raise _Unsupported
            preds.reverse()
            return tag, preds
        if isinstance(node, cp.Hash):
            preds.append(f"@id = {_literal(node.id)}")
        elif isinstance(node, cp.Class):
            lit = _literal(f" {node.class_name} ")
            preds.append(f"@class and contains(concat(' ', normalize-space(@class), ' '), {lit})")
        elif isinstance(node, cp.Attrib) and node.namespace is None and node.operator in ("exists", "="):
            name = node.attrib.lower()
            if not _IDENT.match(name):
                raise _Unsupported
            if node.operator == "exists":
                preds.append(f"@{name}")
            else:
                value = node.value.value if hasattr(node.value, "value") else node.value
                preds.append(f"@{name} = {_literal(value)}")
        else:
            raise _Unsupported
        node = node.selector


def _literal(text: str) -> str:
    if "'" in text:
        raise _Unsupported
    return f"'{text}'"


def _step(node: Any) -> tuple[str, str]:
    """(element name, predicate) of the rightmost compound, with the selector's left
    part as a condition on the parent (``>``) or an ancestor (descendant)."""
    if isinstance(node, cp.CombinedSelector):
        if node.combinator not in (">", " "):
            raise _Unsupported
        tag, preds = _compound(node.subselector)
        left_tag, left_pred = _step(node.selector)
        axis = "parent" if node.combinator == ">" else "ancestor"
        preds.append(f"{axis}::{left_tag}" + (f"[{left_pred}]" if left_pred else ""))
    else:
        tag, preds = _compound(node)
    return tag, " and ".join(f"({p})" if " or " in p else p for p in preds)


def selectors_xpath(selectors: Sequence[str]) -> str:
    """One XPath selecting, in document order and once each, what any of the selectors
    selects (as ``response.css`` would)."""
    groups: dict[str, list[str]] = {}
    fallback: list[str] = []
    for sel in selectors:
        try:
            parsed = cssselect.parse(sel)
            for p in parsed:
                if p.pseudo_element is not None:
                    raise _Unsupported
                tag, pred = _step(p.parsed_tree)
                groups.setdefault(tag, []).append(pred)
        except _Unsupported:
            fallback.append(css2xpath(sel))
    parts = []
    for tag, preds in groups.items():
        if any(not p for p in preds):
            parts.append(f"descendant-or-self::{tag}")
        else:
            parts.append(f"descendant-or-self::{tag}[" + " or ".join(f"({p})" for p in preds) + "]")
    return " | ".join(parts + fallback)
