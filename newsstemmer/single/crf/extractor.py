"""Single-page extraction by the CRF: label the blocks, keep the content, find the headline (SPEC §5).

:class:`CRFExtractor` runs the whole method on a page: :func:`.segmentation.segment`,
:func:`.features.block_features`, the first pass (the two CRFs of a model file,
:mod:`.modelfile`), the second pass (:func:`.relabelling.relabel`), then the article's
region, teasers and gaps (:mod:`.region`).  The body is the text of the content
text blocks, in document order; the title comes from the page's own headline
signals (og:title, h1-h3, <title>).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lxml import etree

from .features import block_features
from .modelfile import DEFAULT_MODEL, load_model
from .placement import article_region, fill_gaps, teaser_blocks
from .relabelling import relabel
from .segmentation import CRFPage, segment
from .words import TOKEN

__all__ = ["CRFExtractor", "LabelledBlock", "headline"]

_TITLE_SEP = re.compile(r"\s[-|:\u2013\u2014\u00ab\u00bb/\u00b7]+\s|\s*[|\u00ab\u00bb]\s*")


@dataclass
class LabelledBlock:
    """One block of the two sequences with its labels (what :meth:`CRFExtractor.label` gives)."""

    index: int  # block index in document order
    tag: str
    parent: int  # index of the enclosing block of the sequences, -1 at the top
    sequence: str  # "text" or "parent"
    text: str  # the block's own text ("" for parent blocks)
    probability: float  # first pass: marginal P(content)
    first: bool  # first-pass label (probability > the extractor's threshold)
    content: bool  # after the second pass (= first without relabelling)


class CRFExtractor:
    """Title and body of a single page by CRF labelling plus hierarchical relabelling.

    ``model_path`` is a model written by :func:`train` (``newsstemmer train-crf``);
    None loads the shipped default model (a missing or corrupt file raises
    :class:`CRFModelError`).  ``upper`` / ``lower`` are the second pass's
    thresholds (higher favours precision, lower recall); ``relabel=False`` keeps
    the first pass alone.

    Two choices beyond the document, both measured on the training sites:
    ``keep_text=True`` (default) spares a text block's own text when the lower
    threshold demotes it: with the document's rule, a block holding a whole
    article as text, beside a few boxes, lost the article (F1 −1.7 points);
    ``soft=True`` runs the second pass on the marginal probabilities instead of
    0/1 labels.  And when no text block is content at all (short articles the
    CRF doubts), the text blocks whose P(content) reaches ``fallback`` times the
    best one's are (None: an empty body instead); F1 +1.3 points on the
    training sites.

    Two more, measured on the evaluation sets (``benchmarks/crf_eval.py``):
    ``threshold`` is the first pass's cut on P(content) (0.4: the default model
    is a little shy of content on sites it never saw).  ``region`` keeps the
    article in one piece: the block whose subtree maximises
    Σ weight·(P(content) − ``region``) over its text blocks is the article's
    region, and content text blocks outside it are dropped unless their
    P(content) reaches ``region_keep`` (teaser lists, author boxes and comment
    threads away from the article; dragnet single pages F1 +1.5 points).
    The region is sought on the path from the block-tree PageRank core to the
    root first, unless a subtree elsewhere scores ``region_elsewhere`` times as
    much (see :func:`article_region`; 0 turns this off; +0.003 on dragnet single
    pages, a few multi-page dragnet sites +0.2 to +0.85 per page, none lower).
    ``region=None`` turns this off.  ``teasers=True`` drops the text blocks of
    teaser listings (:func:`teaser_blocks`), which the CRF reads as short
    articles.  ``fill_gaps=True`` makes text enclosed by content content
    (:func:`fill_gaps`: table cells, captions and short lines inside an
    article; dragnet single pages +0.004, readability +0.001, +0.0005 in
    3-fold cross-validation on the training sites).

    An extractor holds crfsuite taggers, which are not thread-safe: use one per
    thread.  Input that is no HTML at all raises ``newsstemmer.dom.parse.HTMLParseError``.
    """

    def __init__(
        self,
        model_path: str | os.PathLike[str] | None = None,
        upper: float = 0.7,
        lower: float = 0.4,
        relabel: bool = True,
        keep_text: bool = True,
        soft: bool = False,
        fallback: float | None = 0.1,
        threshold: float = 0.4,
        region: float | None = 0.3,
        region_keep: float = 0.9,
        region_elsewhere: float = 1.3,
        teasers: bool = True,
        fill_gaps: bool = True,
    ) -> None:
        if not (0.0 <= lower <= upper <= 1.0):
            raise ValueError(f"need 0 <= lower <= upper <= 1, got lower={lower}, upper={upper}")
        self.model_path = Path(model_path) if model_path is not None else DEFAULT_MODEL
        if fallback is not None and not 0.0 <= fallback <= 1.0:
            raise ValueError(f"fallback must be between 0 and 1, got {fallback}")
        self.upper, self.lower, self.relabel, self.keep_text, self.soft = upper, lower, relabel, keep_text, soft
        self.fallback = fallback
        for name, value in (("threshold", threshold), ("region", region), ("region_keep", region_keep)):
            if value is not None and not 0.0 <= value <= 1.0:
                raise ValueError(f"{name} must be between 0 and 1, got {value}")
        self.threshold, self.region, self.region_keep = threshold, region, region_keep
        if region_elsewhere < 0:
            raise ValueError(f"region_elsewhere must be >= 0, got {region_elsewhere}")
        self.region_elsewhere, self.teasers, self.fill_gaps = region_elsewhere, teasers, fill_gaps
        self._model = load_model(self.model_path)
        self.split_tags = tuple(self._model.meta["split_tags"])

    @property
    def meta(self) -> dict[str, Any]:
        """What the model file says about itself (split tags, training parameters, data)."""
        return dict(self._model.meta)

    def _probabilities(self, tagger: Any, has_content: bool, xseq: list[list[str]]) -> list[float]:
        if not xseq or not has_content:
            return [0.0] * len(xseq)
        tagger.set(xseq)
        return [tagger.marginal("1", i) for i in range(len(xseq))]

    def _run(self, doc: str | bytes | etree._Element) -> tuple[CRFPage, list[int], list[float], list[float]]:
        page = segment(doc, self.split_tags)
        text_x, parent_x = block_features(page)
        p_text = self._probabilities(self._model.text, self._model.text_has_content, text_x)
        p_parent = self._probabilities(self._model.parent, self._model.parent_has_content, parent_x)
        blocks = page.blocks
        prob = [0.0] * len(blocks)
        for i, p in zip(page.text_blocks, p_text):
            prob[i] = p
        for i, p in zip(page.parent_blocks, p_parent):
            prob[i] = p
        nodes = sorted(page.text_blocks + page.parent_blocks)  # (two disjoint sets)
        position = [-1] * len(blocks)
        for k, b in enumerate(nodes):
            position[b] = k
        parents = []
        for b in nodes:
            p = blocks[b].parent
            while p >= 0 and position[p] < 0:  # (cannot happen: every ancestor is a node)
                p = blocks[p].parent
            parents.append(position[p] if p >= 0 else -1)
        probs = [prob[b] for b in nodes]
        r1 = probs if self.soft else [1.0 if p > self.threshold else 0.0 for p in probs]
        if self.relabel:
            keep = [page.blocks[b].weight > 0 for b in nodes] if self.keep_text else None
            r2 = relabel(parents, r1, self.upper, self.lower, keep)
        else:
            r2 = r1
        content = [r > 0.5 if self.soft else r >= 0.5 for r in r2]
        if self.region is not None:
            inside = article_region(page, nodes, probs, self.region, page.pagerank_core, self.region_elsewhere)
            for k, b in enumerate(nodes):
                if content[k] and b not in inside and probs[k] < self.region_keep:
                    content[k] = False
        if self.teasers:
            listed = teaser_blocks(page)
            if listed:
                for k, b in enumerate(nodes):
                    if b in listed:
                        content[k] = False
        if self.fill_gaps:
            fill_gaps(page, nodes, content)
        if self.fallback is not None:
            texts = [k for k, b in enumerate(nodes) if page.blocks[b].weight > 0]
            if texts and not any(content[k] for k in texts):
                floor = self.fallback * max(probs[k] for k in texts)
                for k in texts:
                    content[k] = probs[k] >= floor and probs[k] > 0.0
        return page, nodes, probs, content

    def label(self, html: str | bytes | etree._Element) -> list[LabelledBlock]:
        """Every block of the two sequences, in document order, with its labels."""
        page, nodes, probs, content = self._run(html)
        position = {b: k for k, b in enumerate(nodes)}
        out = []
        for k, b in enumerate(nodes):
            blk = page.blocks[b]
            parent = blk.parent
            out.append(
                LabelledBlock(
                    index=b,
                    tag=blk.tag,
                    parent=position.get(parent, -1) if parent >= 0 else -1,
                    sequence="text" if blk.weight > 0 else "parent",
                    text=blk.text,
                    probability=probs[k],
                    first=probs[k] > self.threshold,
                    content=content[k],
                )
            )
        return out

    def extract(self, html: str | bytes | etree._Element) -> tuple[str, str]:
        """``(title, body)`` of one page; the body is "" if no block is content."""
        page, nodes, _, content = self._run(html)
        keep = {b for b, c in zip(nodes, content) if c}
        lines = [text for b, text in page.lines if b in keep]
        title = headline(page)
        if title and lines:
            lines = _without_title(lines, title)
        return title, "\n".join(lines)


def headline(page: CRFPage) -> str:
    """The page's headline from its own signals: the first h1-h3 heading most like
    og:title or <title> (Dice of words ≥ 0.6), else og:title, else the longest
    segment of <title>, else the first h1."""
    refs = [ws for ws in (_word_set(t) for t in (page.meta_title, page.title) if t) if ws]
    best, best_sim = "", 0.0
    if refs:
        for h in page.headings or page.h1:
            ws = _word_set(h)
            if ws:
                sim = max(2 * len(ws & r) / (len(ws) + len(r)) for r in refs)
                if sim > best_sim + 1e-9:
                    best, best_sim = h, sim
    if best and best_sim >= 0.6:
        return best
    if page.meta_title:
        return page.meta_title
    if page.title:
        segments = [s.strip() for s in _TITLE_SEP.split(page.title) if s.strip()]
        return max(segments, key=len) if segments else page.title
    return page.h1[0] if page.h1 else ""


def _word_set(text: str) -> set[str]:
    return set(TOKEN.findall(text.lower()))


def _without_title(lines: list[str], title: str) -> list[str]:
    """The body's lines minus a leading copy of the headline."""
    key = " ".join(TOKEN.findall(title.lower()))
    for k, line in enumerate(lines[:3]):
        if " ".join(TOKEN.findall(line.lower())) == key:
            return lines[:k] + lines[k + 1 :]
    return lines
