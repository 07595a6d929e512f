"""The learned block decision as a single-page extractor (``--method decision``).

Each layout block of the page gets P(article text) from the shipped tree model
(:mod:`.model`, trained by ``benchmarks/train_decision.py`` on the gold of many
sites); the body is the blocks at or above the threshold, in page order.  The
title is DOM PageRank's headline.
"""

from __future__ import annotations

import os
import threading
from importlib import resources
from pathlib import Path

from ..page import Page
from .evidence import page_evidence
from .features import FEATURE_NAMES
from .model import TreeModel, body_of

__all__ = ["DEFAULT_THRESHOLD", "DecisionExtractor", "default_model_path", "shared_decision"]

#: P(article text) from which a block is taken (the cross-validated default).
DEFAULT_THRESHOLD = 0.5

_LOCK = threading.Lock()
_SHARED: "DecisionExtractor | None" = None


def default_model_path() -> Path:
    """The model shipped in the package."""
    return Path(str(resources.files("newsstemmer") / "models" / "decision.json"))


class DecisionExtractor:
    """Extract a page by the learned per-block decision.

    ``model`` is a model file (default: the shipped one); a corrupt file or one made
    for other features raises :class:`~newsstemmer.decision.model.DecisionModelError`.
    The extractor holds no per-page state: one instance serves every thread.
    """

    def __init__(self, model: str | os.PathLike[str] | None = None, threshold: float = DEFAULT_THRESHOLD) -> None:
        self.model = TreeModel.load(model or default_model_path(), FEATURE_NAMES)
        self.threshold = threshold

    def extract(self, page: Page) -> tuple[str, str]:
        """(title, body) of one page on its own."""
        ev = page_evidence(page, None, pagerank=True)
        title = ev.pagerank_title or ""
        if not ev.blocks.blocks:
            return title, ""
        p = self.model.predict(ev.X)
        return title, body_of([b.text for b in ev.blocks.blocks], p, self.threshold, title)


def shared_decision() -> DecisionExtractor:
    """The process's extractor with the shipped model (loaded on first use)."""
    global _SHARED
    if _SHARED is None:
        with _LOCK:
            if _SHARED is None:
                _SHARED = DecisionExtractor()
    return _SHARED
