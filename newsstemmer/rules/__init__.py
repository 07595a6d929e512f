"""CSS-selector extraction rules, learned without labels from a few pages of a site.

SPEC §6 (seed 004, Yoshida, Inui and Yamamoto): *ExtractUniqueBlock* finds the
content of a set of pages of one site as the blocks that occur on one page only;
the rules are CSS selectors that point at those blocks from the nearest stable
``id``/``class`` of the page, so that later pages are extracted alone, by a CSS
engine, with no learning and no other page at hand.

The package, one concept a module:

* :mod:`~newsstemmer.rules.blocks`: a page's blocks and ExtractUniqueBlock itself
  (and how a page is parsed: a :class:`~newsstemmer.page.Page` is read from its one
  tree, raw HTML is parsed as parsel parses it);
* :mod:`~newsstemmer.rules.selectors`: adapted identifiers, the rule templates, and
  selectors compiled to XPath;
* :mod:`~newsstemmer.rules.evidence`: headline statements and layout patterns as
  evidence of content;
* :mod:`~newsstemmer.rules.learn`: :class:`RuleOptions` and :func:`learn_rules`;
* :mod:`~newsstemmer.rules.apply`: :func:`match_rules` and :func:`apply_rules`;
* :mod:`~newsstemmer.rules.ruleset`: :class:`RuleSet` and its place in the pattern file.

Definitions (as in the paper unless marked *beyond the paper*):

* **Blocks** (:func:`page_blocks`): block-level elements (HTML 4.01's, with list
  items and table cells, plus HTML5's sectioning elements) that have no block-level
  descendant; ``body`` is a block for the text directly under it.  ``script``,
  ``noscript`` and ``style`` and their subtrees are left out.  A block's *content* is
  its normalised text, or the ``src`` of its images when it has no text.
* **Content blocks** (:func:`unique_blocks`): blocks whose content occurs exactly
  once in the whole set of (≥ 2) pages.
* **Adapted identifiers** (:func:`adapted_identifiers`): ``id`` values and ``class``
  tokens that occur exactly once in every page of the set.
* **Nearest adapted identifier** of an element, in preorder: its own, else its
  parent's, else its parent's nearest, else none; ``id`` before ``class``.
* **Rule** for a content block with element name ``E``: ``E#id`` / ``E.class`` (own
  identifier), ``#id > E`` / ``.class > E`` (the parent's), ``#id E`` / ``.class E``
  (an ancestor's, reached through the parent's nearest), ``E`` (none).  The paper
  writes the third template ``#id * E`` ("descendant, not child"); ``#id E`` is used
  here (simpler, and the same figures on the development sets).

Beyond the paper, each measured on the development sets (``benchmarks/rules.py``:
rules learned from the 3 first pages of each big9-05 / big9-09 / cleanportal site,
applied to the others; the shingle F1 lost when the feature alone is turned off,
rules learned with layout patterns unless said otherwise):

* **precision filter**: a candidate rule is kept only if, on the training pages, at
  least ``min_precision`` (0.9) of the text weight it matches is content (0.5 costs
  .03 F1 without patterns), at least half of the text blocks it matches are content
  (rules with an identifier), at most ``max_link_density`` of its content is anchor
  text (related-story lists vary from page to page too; off: -.056 on big9-09
  without patterns), and it finds ``min_weight`` word characters of content per page
  (dates and calendar cells give tiny rules; off: -.022 on big9-05);
* **greedy check**: most precise rules first, a rule must also be precise in what it
  adds to the rules before it, unless it adds nothing (a second way to the same
  blocks is kept: it may survive a layout change the first does not) (off: -.01);
* **loose text**: a block element holding blocks keeps the text directly under it
  as a block that gives rules too (table layouts of 2005 put the article as loose
  text into a cell beside nested tables; off: -.07 on big9-05);
* **own-class rules**: ``E.class`` for a content block's own class even if the class
  is not unique (``div.storybody`` survives the change of container id that breaks
  ``#template_bas > div``; +.022 on big9-09, -.004 on cleanportal);
* identifiers without digits are preferred to those with (``col2``, ``story-2005``
  may be per-template or per-article; ``story`` is stable); only plain CSS
  identifiers are used (no escaping, same meaning everywhere) and they must be
  unique case-insensitively (browsers match ``class``/``id`` without case in quirks
  mode, lxml with case: both then find the same element);
* reader-comment threads (``#comments``, ``.commentlist``…) are not article content
  (off: -.021 on cleanportal without patterns); a stray ``<title>`` inside the body
  (inline SVG) is not rendered, so not text;
* **layout patterns** (:mod:`newsstemmer.layout`, learned from the same pages), when
  given, say which varying blocks are main text and which is the headline (blocks
  meet layout blocks by their text lines): blocks the layout calls ``sub``/``static``
  are not content, and blocks of MAIN/TITLE sections also give path rules built
  from their layout path, e.g. ``div:class=x/p`` → ``div.x > p`` (from the elements
  themselves, so ids and classes keep their case; off: -.019 on cleanportal);
  altogether +.03/.02/.03 F1 over the rules from unique blocks alone;
* **title rules**, apart from the body rules: on each training page, the content
  block (unique to that page) most like the page's own headline statements
  (linkinfo anchor texts, ``og:title``, ``<title>`` and its segments, ``h1``, minus
  those several pages share), else the layout's title section; ranked by the pages
  on which the rule's first match is that block.

**Content from an extractor's decisions** (issue #12; ``learn_rules(extracted=...)``,
:func:`newsstemmer.combine.site_rules.learn_site_rules` and ``newsstemmer rules --learn`` run the
learned single-page ``region`` extractor on each training page): the blocks holding
its body text (:func:`~newsstemmer.rules.evidence.extracted_roles`, met by words) are
the article's, instead of the unique ones, so text that varies per page but is not
the article (related stories, galleries, bios) gives no rule, on sites nobody tuned
the options on.  ``RuleOptions.content``: ``extracted`` (those blocks), ``both`` (those
blocks if unique too), ``unique`` (the paper's test), ``auto`` (default): of the ways of
learning in ``auto_variants`` (from the extractor's blocks, with the greedy check in
precision or in weight order, or from unique blocks with the layouts' evidence), the
one whose rules best reproduce the extractor's text on each training page when
learned from the others.  With extractor evidence, the element holding a page's
content blocks (the article's container) gives rules too (``container_rules``), so
that paragraphs of a kind the training pages lacked are still taken.  Measured by
``benchmarks/rules.py`` under site-grouped cross-validation (the region models trained
without the held-out sites): see ``benchmarks/README.md``.

Options that measured no gain are kept off: ``attributes`` (attribute values such as
``[width="426"]`` as identifiers), ``per_page`` (content = on no other page),
``strict_descendant`` (the paper's ``#id * E``: the same figures as ``#id E``).

Applying (:func:`apply_rules`) reads a :class:`~newsstemmer.page.Page`'s own tree, or
parses HTML with parsel (lxml, lenient as a browser); every element matched by a rule
is content, except those with neither text nor an ``img``; matches are taken in document order, and an element inside
another matched element is not taken twice.  Selectors are plain CSS 3 (no
parsel pseudo-elements): ``response.css(selector)`` in a Scrapy spider, a
browser's ``document.querySelectorAll`` and ``lxml.cssselect`` select the same
elements.

The rules are kept in the site's pattern file as ``extras["rules"]``::

    {
      "format": "newsstemmer-rules", "version": 1,
      "method": "extract-unique-block",  # or "extracted-blocks:<content>"
      "pages": 3,                       # training pages the rules were learned from
      "used_patterns": true,            # whether layout patterns helped
      "title": [RULE, ...],             # ranked: the first that matches gives the title
      "body":  [RULE, ...]              # all of them: their matches are the body
    }
    RULE = {"selector": "#main > p", "template": "#id > E",
            "support": 3,               # training pages where it matched content
            "blocks": 41,               # content blocks it matched there
            "weight": 5210,             # their weight (word characters)
            "precision": 0.97}          # share of the matched weight that was content

Only ``selector`` is required when reading; a bare list of selector strings is read
as body rules.  :func:`rules_from_extras` validates everything and raises
:class:`RulesError` (a :class:`~newsstemmer.layout.patterns.PatternFileError`) naming the
rule and the problem.
"""

from __future__ import annotations

from .apply import apply_rules, has_content, match_rules, text_lines
from .blocks import (
    BLOCK_LEVEL,
    EXCLUDED,
    Block,
    body_of,
    extract_unique_blocks,
    page_blocks,
    parse_page,
    root_of,
    unique_blocks,
)
from .learn import CONTENT_MODES, RuleOptions, learn_rules, learn_ruleset
from .selectors import (
    TEMPLATES,
    adapted_identifiers,
    nearest_identifiers,
    path_selector,
    rule_for,
    selectors_xpath,
    simple_selector,
)
from .ruleset import (
    RULES_FORMAT,
    RULES_VERSION,
    Rule,
    RuleSet,
    RulesError,
    check_selector,
    rules_from_extras,
    rules_of,
    store_rules,
)

__all__ = [
    "BLOCK_LEVEL",
    "CONTENT_MODES",
    "EXCLUDED",
    "RULES_FORMAT",
    "RULES_VERSION",
    "TEMPLATES",
    "Block",
    "Rule",
    "RuleOptions",
    "RuleSet",
    "RulesError",
    "adapted_identifiers",
    "apply_rules",
    "body_of",
    "check_selector",
    "extract_unique_blocks",
    "has_content",
    "learn_rules",
    "learn_ruleset",
    "match_rules",
    "nearest_identifiers",
    "page_blocks",
    "parse_page",
    "path_selector",
    "root_of",
    "rule_for",
    "rules_from_extras",
    "rules_of",
    "selectors_xpath",
    "simple_selector",
    "store_rules",
    "text_lines",
    "unique_blocks",
]
