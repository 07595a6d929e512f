"""CSS rules learned with a single-page extractor's choices as evidence of the article:
the rules (:mod:`newsstemmer.rules`) and a single-page method (:mod:`newsstemmer.single`)
combined, so it lives above both."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..dom.parse import HTMLParseError
from ..layout.patterns import SitePatterns
from ..page import Page
from ..single import DEFAULT_SINGLE_PAGE_METHOD, extract_single

if TYPE_CHECKING:
    from ..rules import RuleSet

__all__ = ["learn_site_rules"]


def learn_site_rules(
    pages: "list[Page]",
    patterns: SitePatterns | None = None,
    options: object = None,
    evidence: str | None = DEFAULT_SINGLE_PAGE_METHOD,
) -> "RuleSet":
    """Learn a site's CSS rules from a few of its pages (:mod:`newsstemmer.rules`), with
    a single-page extractor's decisions as evidence of the article.

    ``evidence`` names the single-page method run on each page (:func:`extract_single`;
    default: the learned ``region`` extractor): the blocks it keeps are the article's,
    and ``options`` (a :class:`~newsstemmer.rules.RuleOptions`, its ``content``) says
    how that combines with the paper's unique-block test.  ``None``: the unique-block
    test alone (SPEC §6 as the paper has it).  ``patterns`` are the site's layouts if
    known.  Raises ``ValueError`` for fewer than 2 readable pages.
    """
    from ..rules import learn_ruleset

    bodies: list[str | None] | None = None
    if evidence is not None:
        bodies = []
        for page in pages:
            try:
                bodies.append(extract_single(page, evidence).body)
            except HTMLParseError:
                bodies.append(None)
    return learn_ruleset(pages, patterns, options, bodies)  # type: ignore[arg-type]
