"""Single-page extraction by CRF labelling with hierarchical consistency (SPEC §5).

A page is cut into blocks at ``body``, ``div``, ``p``, ``td`` and the modern
sectioning tags, in document order.  Two sequences come out of it: *text
blocks* (blocks with text of their own) and *parent blocks* (their ancestors
with no text of their own).  A linear-chain CRF per sequence gives every block
its marginal probability of being content (first pass).  The second pass
restores consistency between a block and its children, bottom-up over the
block tree::

    ratio = (R1(b) + Σ_c R2(c)) / (|C(b)| + 1)
    ratio > upper  →  b and its children are content
    ratio < lower  →  b is not content (children unchanged)
    otherwise      →  R2(b) = R1(b)

Then the article is kept in one piece: content text blocks outside the subtree
that holds most of the likely content are dropped unless the CRF is sure of
them (:func:`article_region`), teaser listings are dropped
(:func:`teaser_blocks`), and plain text enclosed by content is content
(:func:`fill_gaps`).  Among the features, the block's place relative
to the main block that DOM PageRank + DensitySum (SPEC §4) finds, computed on
the block tree (each line a leaf) so that it costs little.

The body is the text of the content text blocks, in document order; the
title comes from the page's own headline signals (og:title, h1-h3, <title>).

The CRF needs labelled pages.  Instead of labelling by hand, newsstemmer
labels the pages its learned layout patterns match: text in MAIN and TITLE
sections is content, the rest (static sections, boxes) is not
(:func:`newsstemmer.combine.crf_labels.pattern_labels`: it combines two methods, so it
lives above them).  :func:`train` writes a model file: a zip archive holding
``meta.json`` and one crfsuite model per sequence.  A small default model
trained that way on the development sites ships in ``newsstemmer/models/``
(``training/train_crf.py`` rebuilds it).

The modules, in the order they import each other:

* :mod:`.words`: tokens, footer / menu keywords, dates;
* :mod:`newsstemmer.single.signals.hints` (outside this package: the region
  extractor reads it too): role hints of ``id`` / ``class`` values;
* :mod:`.segmentation`: the page walk into blocks and lines (:func:`segment`);
* :mod:`.placement`: a block's place relative to another; the article's region,
  teaser listings, gaps;
* :mod:`.blockrank`: PageRank + DensitySum on the block tree;
* :mod:`.features`: the features of the two sequences (:func:`block_features`);
* :mod:`.relabelling`: the second pass (:func:`relabel`);
* :mod:`.modelfile`: model files (:func:`train`, :data:`DEFAULT_MODEL`);
* :mod:`.extractor`: :class:`CRFExtractor` and the headline.

The names below are imported from their modules on first use (PEP 562): a caller
that needs only one part does not load the segmenter, the features and crfsuite with it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

#: Public name -> the module (in this package) that defines it.
_HOMES: dict[str, str] = {
    "CRFExtractor": ".extractor",
    "LabelledBlock": ".extractor",
    "headline": ".extractor",
    "FEATURE_VERSION": ".features",
    "block_features": ".features",
    "DEFAULT_MODEL": ".modelfile",
    "DEFAULT_TRAIN_PARAMS": ".modelfile",
    "CRFModelError": ".modelfile",
    "TrainingPage": ".modelfile",
    "train": ".modelfile",
    "article_region": ".placement",
    "fill_gaps": ".placement",
    "teaser_blocks": ".placement",
    "relabel": ".relabelling",
    "DEFAULT_SPLIT_TAGS": ".segmentation",
    "IGNORED_TAGS": ".segmentation",
    "LINE_TAGS": ".segmentation",
    "PAPER_SPLIT_TAGS": ".segmentation",
    "CRFBlock": ".segmentation",
    "CRFPage": ".segmentation",
    "segment": ".segmentation",
}

__all__ = sorted(_HOMES, key=str.lower)

if TYPE_CHECKING:  # what type checkers see; at run time __getattr__ imports on demand
    from .extractor import CRFExtractor, LabelledBlock, headline
    from .features import FEATURE_VERSION, block_features
    from .modelfile import DEFAULT_MODEL, DEFAULT_TRAIN_PARAMS, CRFModelError, TrainingPage, train
    from .placement import article_region, fill_gaps, teaser_blocks
    from .relabelling import relabel
    from .segmentation import (
        DEFAULT_SPLIT_TAGS,
        IGNORED_TAGS,
        LINE_TAGS,
        PAPER_SPLIT_TAGS,
        CRFBlock,
        CRFPage,
        segment,
    )


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(home, __name__), name)
    globals()[name] = value  # found once: later lookups do not come here
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
