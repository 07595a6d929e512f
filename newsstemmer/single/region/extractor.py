"""The learned region extractor for single pages (``--method region``).

DOM PageRank's analysis of the page, then two learned decisions in place of its
hand-set ones: which element holds the article (:mod:`.candidates`: a tree model
ranks the candidates, PageRank's own main element kept unless another scores
clearly higher) and which of that element's parts to leave out beyond PageRank's
own cleaning (:mod:`.cleaning`).  The text is extracted as PageRank extracts its
own, so what PageRank keeps (short lines, captions of the article) stays.

A region that holds two or more articles (a next story loaded under the first) gives
way to the ``<article>`` holding the headline (:mod:`.units`); one that is a part of an
article cut into parallel blocks (the same wrapper repeated) is widened to hold them all
(:mod:`.parallel`).
Around them, four safety steps against near-empty bodies on today's pages (issue 23):
the page is read as a browser shows it (:mod:`.reveal`), the guard that falls back on
PageRank's own text never trades a body for one less than half as long, a body left
near-empty beside the page's paragraph region gives way to that region (:mod:`.fallback`),
and one still near-empty beside an article the page's scripts carry as data gives way to
that article, extracted the same way (:mod:`.embedded`).
:meth:`RegionExtractor.extract_detail` says which of them acted.
Both models (``region`` and ``region-clean`` of :data:`newsstemmer.trees.SHIPPED`) are
trained by ``training/train_region.py``.
"""

from __future__ import annotations

import os
from collections.abc import Callable

import numpy as np
from lxml import etree

from ...blocks import Block
from ...dom.parse import parse_html
from ...shipped import load_model
from ...trees import ModelFileError, TreeModel
from ..pagerank import PageRankAnalysis, pagerank_analysis, region_paragraphs
from ..typed import region_block_maker
from .candidates import REGION_FEATURES, RegionView, region_candidates, region_features
from .cleaning import CLEAN_FEATURES, cleaning_candidates, cleaning_features, rule_cleaning
from .embedded import MARKUP_BODY_MAX, embedded_article_html
from .fallback import BODY_CAP, BODY_SHARE, REGION_MIN, near_empty_alternative, word_chars
from .reveal import revealed
from .parallel import widened_region
from .units import headline_article

__all__ = ["GUARD_SHORTER", "RegionExtractor"]

#: The guard keeps the learned body when PageRank's own text is less than this share of it.
GUARD_SHORTER = 0.5

#: Where a body was found: the analysis of the page (or of the article in its script
#: data), the node of the element and the nodes left out of it (None: its own cleaning).
Chosen = tuple[PageRankAnalysis, int, "list[int] | None"]


def _margin(model: TreeModel | None, key: str, default: float) -> float:
    if model is None:
        return default
    value = model.info.get(key, default)
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not np.isfinite(value):
        raise ModelFileError(f"the model's {key!r} is not a number: {value!r}")
    return float(value)


class RegionExtractor:
    """Extract one page by DOM PageRank with a learned region choice and cleaning.

    ``region`` and ``clean`` are model files or loaded :class:`TreeModel` objects
    (default: the shipped ones); ``None`` as a loaded model keeps PageRank's own
    decision for that step (``RegionExtractor(region=False)`` and ``clean=False``
    turn one off).  A corrupt file, or one made for other features, raises
    :class:`~newsstemmer.trees.ModelFileError`.  Holds no per-page
    state: one instance serves every thread.
    """

    def __init__(
        self,
        region: str | os.PathLike[str] | TreeModel | bool | None = None,
        clean: str | os.PathLike[str] | TreeModel | bool | None = None,
    ) -> None:
        self.region = self._load(region, "region", REGION_FEATURES)
        self.clean = self._load(clean, "region-clean", CLEAN_FEATURES)
        #: A candidate replaces PageRank's main element only if it scores this much higher.
        self.region_margin = _margin(self.region, "margin", 0.0)
        #: An element is left out when its score passes this.
        self.clean_threshold = _margin(self.clean, "threshold", 0.0)
        #: PageRank's own text is returned instead when the learned steps keep less than
        #: this share of it (characters of its lines): a body that lost most of what
        #: PageRank found is not returned without that check (0: off).
        self.guard = _margin(self.region if self.region is not None else self.clean, "guard", 0.0)
        #: A region holding two or more articles gives way to the one holding the headline
        #: (:func:`~.units.headline_article`).
        self.one_article = True
        #: A region whose article goes on in parallel parts beside it (the same wrapper
        #: repeated) is widened to hold them (:func:`~.parallel.widened_region`).
        self.parallel_parts = True

    @staticmethod
    def _load(model, shipped: str, features: tuple[str, ...]) -> TreeModel | None:
        if model is False:
            return None
        if isinstance(model, TreeModel):
            if model.features != tuple(features):
                raise ModelFileError("the model was trained on other features than this version computes")
            return model
        if model is None or model is True:
            return load_model(shipped, features)  # (read once per process)
        return TreeModel.load(model, features)

    def extract(self, tree: etree._Element | str, url: str | None = None) -> tuple[str, str]:
        """(title, body) of one page on its own (its tree, or its HTML as text)."""
        return self.extract_detail(tree, url)[:2]

    def extract_detail(self, tree: etree._Element | str, url: str | None = None) -> tuple[str, str, str | None]:
        """(title, body, detail) of one page on its own: ``detail`` names, joined by
        ``+``, what changed the plain path (``react``, ``noscript``, ``button``: hidden
        content read; ``article``: the region held two or more articles and gave way to
        the one holding the headline; ``parts``: the region was widened to hold the
        article's parallel parts beside it; ``pagerank``: the guard returned PageRank's own text;
        ``paragraphs``: the near-empty body gave way to the paragraph region;
        ``embedded``: to the article in the page's script data), or None."""
        return self.extract_typed(tree, url)[:3]

    def extract_typed(
        self, tree: etree._Element | str, url: str | None = None
    ) -> tuple[str, str, str | None, Callable[[], list[Block]] | None]:
        """(title, body, detail) as :meth:`extract_detail` gives them, and a function
        that gives the body's typed blocks when called (None for an empty body):
        :func:`~newsstemmer.single.typed.region_blocks` of the element and cleaning that
        made the body, links and pictures made absolute against ``url``."""
        if isinstance(tree, str):
            tree = parse_html(tree)
        elif isinstance(tree, etree._ElementTree):
            tree = tree.getroot()
        tree, steps = revealed(tree)
        title, body, step, chosen = self._extract(pagerank_analysis(tree, url, text=False))
        if step:
            steps.append(step)
        maker = region_block_maker(chosen[0], chosen[1], chosen[2], url) if chosen is not None else None
        return title, body, "+".join(steps) or None, maker

    def _embedded(self, an: PageRankAnalysis, title: str, body_chars: int) -> tuple[str, Chosen] | None:
        """The body (and where it was found) of the article the page's scripts carry as HTML data, for a body found in
        the markup of fewer than :data:`MARKUP_BODY_MAX` word characters, when that
        article stands beside the page's headline ``title``, is long enough
        (:data:`REGION_MIN` paragraph word characters) and the body found in the markup
        is less than :data:`BODY_SHARE` of it; else None."""
        if body_chars >= MARKUP_BODY_MAX:
            return None
        some = next((el for el in an.scores.graph.elements if el is not None), None)
        if some is None:
            return None
        found = embedded_article_html(some.getroottree().getroot(), title)
        if found is None or found[1] < REGION_MIN or body_chars >= BODY_SHARE * found[1]:
            return None
        _, body, _, chosen = self._markup_extract(pagerank_analysis(found[2], None, text=False))
        return (body, chosen) if chosen is not None and word_chars(body) > body_chars else None

    def choose_region(self, view: RegionView) -> int:
        """The node of the element chosen to hold the article."""
        return view.an.main if self.region is None else self.ranked_region(view)[0]

    def ranked_region(self, view: RegionView) -> tuple[int, np.ndarray, float, float, int]:
        """The chosen node, the feature rows of the chosen candidate and of PageRank's main
        element (2 x :data:`REGION_FEATURES`), their ranker scores (0 without a ranker) and
        the number of candidates (session 7's learned-guard investigation read a page's
        choice off them)."""
        main = view.an.main
        cands = region_candidates(view)
        if not cands:  # (no main element: nothing to rank)
            return main, np.zeros((2, len(REGION_FEATURES))), 0.0, 0.0, 0
        X = region_features(view, cands)
        k = cands.index(main)
        if self.region is None or len(cands) < 2:
            return main, X[[k, k]], 0.0, 0.0, len(cands)
        s = self.region.raw(X)
        best = int(np.argmax(s))
        c = best if s[best] - s[k] > self.region_margin else k
        return cands[c], X[[c, k]], float(s[c]), float(s[k]), len(cands)

    def cleaning_scores(self, view: RegionView, region: int) -> tuple[list[int], np.ndarray, np.ndarray]:
        """The rule-based cleaning of ``region`` (nodes left out: :func:`rule_cleaning`), the learned cleaning's
        candidates and their scores (an element goes when its score passes
        :attr:`clean_threshold`; no candidates without a cleaning model)."""
        skip = rule_cleaning(view.an, region)
        J = cleaning_candidates(view, region, skip) if self.clean is not None else np.zeros(0, dtype=np.int64)
        if not len(J):
            return skip, J, np.zeros(0)
        return skip, J, self.clean.raw(cleaning_features(view, region, J))

    def left_out(self, view: RegionView, region: int) -> list[int]:
        """The nodes left out of the region's text: PageRank's cleaning and the learned one."""
        skip, learned = self._left_out_parts(view, region)
        return skip + learned

    def _left_out_parts(self, view: RegionView, region: int) -> tuple[list[int], list[int]]:
        """:meth:`left_out` in its two parts: PageRank's cleaning, then what the learned one adds."""
        skip, J, s = self.cleaning_scores(view, region)
        return skip, J[s > self.clean_threshold].tolist()

    def guarded(self, an: PageRankAnalysis, lines: list[str], own: list[str] | None = None) -> list[str]:
        """``lines``, or PageRank's own text if they keep less than :attr:`guard` of it
        (and it is not less than :data:`GUARD_SHORTER` as long as they are).  ``own`` is
        PageRank's own text when the caller has it (None: extracted here)."""
        if self.guard > 0:
            if own is None:
                own = region_paragraphs(an, an.main)
            total = sum(map(len, own))
            if total:
                found = set(lines)
                if (sum(len(line) for line in own if line in found) < self.guard * total
                        and total >= GUARD_SHORTER * sum(map(len, lines))):
                    return own
        return lines

    def extract_analysis(self, an: PageRankAnalysis) -> tuple[str, str]:
        """(title, body) from PageRank's analysis of the page (its text is not needed)."""
        return self._extract(an)[:2]

    def _extract(self, an: PageRankAnalysis) -> tuple[str, str, str | None, Chosen | None]:
        """(title, body, step, where the body was found): the body found in the markup, or
        the article the page's script data holds where that body is near-empty."""
        title, body, step, chosen = self._markup_extract(an)
        other = self._embedded(an, title, word_chars(body, BODY_CAP))
        if other is None:
            return title, body, step, chosen
        return title, other[0], f"{step}+embedded" if step else "embedded", other[1]

    def _markup_extract(self, an: PageRankAnalysis) -> tuple[str, str, str | None, Chosen | None]:
        """(title, body, step, (analysis, node, left-out nodes) of the body's element or None)."""
        title = an.result.title
        if an.main < 0:
            return title, "", None, None
        if self.region is None and self.clean is None:
            return title, "\n".join(region_paragraphs(an, an.main)), None, (an, an.main, None)
        view = RegionView.of(an)
        chosen_region = self.choose_region(view)
        region = headline_article(view, chosen_region) if self.one_article else chosen_region
        skip, learned = self._left_out_parts(view, region)
        left = skip + learned
        narrowed = region != chosen_region
        widened = widened_region(view, region, left, lambda part: self.left_out(view, part)) \
            if self.parallel_parts else None
        if widened is not None:
            region, left = widened
        lines = region_paragraphs(an, region, left)
        # PageRank's own element with nothing more left out: the lines are PageRank's own text.
        own = region == an.main and not learned and widened is None
        kept = self.guarded(an, lines, lines if own else None)
        inner = "+".join(name for name, done in (("article", narrowed), ("parts", widened is not None)) if done)
        step = "pagerank" if kept is not lines else (inner or None)
        chosen: Chosen = (an, region, left) if kept is lines else (an, an.main, None)
        body = "\n".join(kept)
        alternative = near_empty_alternative(an, word_chars(body, BODY_CAP))
        if alternative is not None:
            other = "\n".join(region_paragraphs(an, *alternative))
            if word_chars(other) > word_chars(body):
                return title, other, "paragraphs", (an, *alternative)
        return title, body, step, chosen
