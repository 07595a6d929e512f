"""Rules as a site keeps them: :class:`Rule` and :class:`RuleSet`, their
``extras["rules"]`` form in the pattern file, and its validation."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

import cssselect
from lxml import etree
from parsel import css2xpath

from ..layout.patterns import PatternFileError, SitePatterns
from .selectors import selectors_xpath

__all__ = [
    "RULES_FORMAT",
    "RULES_VERSION",
    "Rule",
    "RuleSet",
    "RulesError",
    "check_selector",
    "rules_from_extras",
    "rules_of",
    "store_rules",
]

RULES_FORMAT = "newsstemmer-rules"
RULES_VERSION = 1


class RulesError(PatternFileError):
    """Rules in a pattern file (``extras["rules"]``) or given to a function are invalid."""


@dataclass
class Rule:
    """One selector with what it did on the training pages."""

    selector: str
    template: str = ""
    support: int = 0
    blocks: int = 0
    weight: int = 0
    precision: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "selector": self.selector,
            "template": self.template,
            "support": self.support,
            "blocks": self.blocks,
            "weight": self.weight,
            "precision": round(self.precision, 4),
        }


@dataclass
class RuleSet:
    """A site's rules: ranked title rules and the body rules."""

    title: list[Rule] = field(default_factory=list)
    body: list[Rule] = field(default_factory=list)
    pages: int = 0
    used_patterns: bool = False
    method: str = "extract-unique-block"
    _compiled: tuple | None = field(default=None, repr=False, compare=False)

    def selectors(self) -> dict[str, list[str]]:
        return {"title": [r.selector for r in self.title], "body": [r.selector for r in self.body]}

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": RULES_FORMAT,
            "version": RULES_VERSION,
            "method": self.method,
            "pages": self.pages,
            "used_patterns": self.used_patterns,
            "title": [r.to_dict() for r in self.title],
            "body": [r.to_dict() for r in self.body],
        }

    def compiled(self) -> tuple[list[etree.XPath], etree.XPath | None]:
        """The title rules' XPath (one per rule, ranked) and the body rules' union."""
        if self._compiled is None:
            titles = [etree.XPath(selectors_xpath([r.selector])) for r in self.title]
            body = etree.XPath(selectors_xpath([r.selector for r in self.body])) if self.body else None
            self._compiled = (titles, body)
        return self._compiled


# -- validation ------------------------------------------------------------------------------------


def check_selector(selector: Any, where: str = "rule") -> str:
    """Validate one selector: a non-empty plain CSS 3 selector (no pseudo-elements)."""
    if not isinstance(selector, str) or not selector.strip():
        raise RulesError(f"{where}: \"selector\" must be a non-empty string, got {_kind(selector)}")
    if len(selector) > 2000:
        raise RulesError(f"{where}: selector longer than 2000 characters")
    try:
        parsed = cssselect.parse(selector)
    except cssselect.SelectorError as exc:
        raise RulesError(f"{where}: invalid CSS selector {selector!r}: {exc}") from None
    for p in parsed:
        if p.pseudo_element is not None:
            raise RulesError(f"{where}: selector {selector!r} uses a pseudo-element (::{p.pseudo_element}); rules are plain CSS")
    try:
        etree.XPath(css2xpath(selector))
    except Exception as exc:  # cssselect.ExpressionError, lxml.etree.XPathSyntaxError
        raise RulesError(f"{where}: selector {selector!r} cannot be used: {exc}") from None
    return selector


def _kind(value: Any) -> str:
    return {list: "a list", dict: "an object", str: "a string", bool: "a boolean", type(None): "null"}.get(
        type(value), "a number"
    )


def _rule_from(raw: Any, where: str) -> Rule:
    if isinstance(raw, str):
        return Rule(check_selector(raw, where))
    if not isinstance(raw, dict):
        raise RulesError(f"{where} must be an object or a selector string, got {_kind(raw)}")
    sel = check_selector(raw.get("selector"), where)
    template = raw.get("template", "")
    if not isinstance(template, str):
        raise RulesError(f"{where}: \"template\" must be a string")
    nums = {}
    for key in ("support", "blocks", "weight"):
        v = raw.get(key, 0)
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise RulesError(f"{where}: \"{key}\" must be a non-negative integer, got {v!r}")
        nums[key] = v
    prec = raw.get("precision", 0.0)
    if not isinstance(prec, (int, float)) or isinstance(prec, bool) or not 0.0 <= prec <= 1.0:
        raise RulesError(f"{where}: \"precision\" must be a number between 0 and 1, got {prec!r}")
    return Rule(sel, template, nums["support"], nums["blocks"], nums["weight"], float(prec))


def rules_from_extras(raw: Any) -> RuleSet:
    """Validate ``extras["rules"]`` (as stored in a pattern file) and build a :class:`RuleSet`."""
    if isinstance(raw, list):
        return RuleSet(body=[_rule_from(r, f"rules: body rule #{i}") for i, r in enumerate(raw)])
    if not isinstance(raw, dict):
        raise RulesError(f"rules: expected an object (or a list of selectors), got {_kind(raw)}")
    fmt = raw.get("format", RULES_FORMAT)
    if fmt != RULES_FORMAT:
        raise RulesError(f"rules: unknown \"format\" {fmt!r} (expected {RULES_FORMAT!r})")
    version = raw.get("version", RULES_VERSION)
    if not isinstance(version, int) or isinstance(version, bool):
        raise RulesError("rules: \"version\" must be an integer")
    if version > RULES_VERSION:
        raise RulesError(f"rules: version {version} is newer than this newsstemmer understands ({RULES_VERSION}); upgrade newsstemmer")
    out = RuleSet()
    for part in ("title", "body"):
        items = raw.get(part, [])
        if not isinstance(items, list):
            raise RulesError(f"rules: \"{part}\" must be a list of rules, got {_kind(items)}")
        setattr(out, part, [_rule_from(r, f"rules: {part} rule #{i}") for i, r in enumerate(items)])
    pages = raw.get("pages", 0)
    if not isinstance(pages, int) or isinstance(pages, bool) or pages < 0:
        raise RulesError("rules: \"pages\" must be a non-negative integer")
    out.pages = pages
    used = raw.get("used_patterns", False)
    if not isinstance(used, bool):
        raise RulesError("rules: \"used_patterns\" must be true or false")
    out.used_patterns = used
    method = raw.get("method", out.method)
    if not isinstance(method, str):
        raise RulesError("rules: \"method\" must be a string")
    out.method = method
    return out


# -- reading -------------------------------------------------------------------------------------

# The last few rule objects read, with a snapshot of what they were read from: a page
# after page of one site does not validate and compile its rules again, and a rules
# dict changed in place is read again.
_READ: list[tuple[Any, Any, RuleSet]] = []


def _read_cached(raw: Any) -> RuleSet:
    for ref, snapshot, rs in _READ:
        if ref is raw and snapshot == raw:
            return rs
    rs = rules_from_extras(raw)
    _READ.insert(0, (raw, copy.deepcopy(raw), rs))
    del _READ[8:]
    return rs


def rules_of(rules: RuleSet | dict[str, Any] | SitePatterns | list) -> RuleSet:
    """A :class:`RuleSet` from any of the forms rules are kept in (validated, and
    compiled once: passing the same dict or site page after page costs nothing)."""
    if isinstance(rules, RuleSet):
        return rules
    if isinstance(rules, SitePatterns):
        if "rules" not in rules.extras:
            raise RulesError(f"site {rules.site}: no rules in its pattern file (learn them with 'newsstemmer rules')")
        try:
            return _read_cached(rules.extras["rules"])
        except RulesError as exc:
            raise RulesError(f"site {rules.site}: {exc}") from None
    return _read_cached(rules)


def store_rules(site: SitePatterns, rules: dict[str, Any] | RuleSet) -> SitePatterns:
    """Put rules into a site's patterns (``extras["rules"]``); save the site to keep them."""
    rs = rules_of(rules)
    site.extras["rules"] = rs.to_dict()
    return site
