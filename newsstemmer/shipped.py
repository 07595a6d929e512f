"""The models shipped in ``newsstemmer/models/`` (its ``README.md`` says what each is and
which script trains it): their names, their files, and the one loader of the tree
models (:mod:`newsstemmer.trees`), which reads each once per process.  Naming a file
loads nothing: the CRF takes its model's path from here without numpy."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import NewsstemmerError

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

    from .trees import TreeModel

__all__ = ["SHIPPED", "load_model", "model_path", "model_resource"]

#: Every model shipped in ``newsstemmer/models/``: its name -> its file.
SHIPPED: dict[str, str] = {
    "region": "region.json",  # the region extractor's ranker (single/region)
    "region-clean": "region-clean.json",  # the region extractor's cleaning (single/region)
    "sections": "sections.json",  # the section decision after layout learning (combine/sections)
    "pagechoice": "pagechoice.json",  # the per-page layout-or-region choice (combine/pagechoice)
    "pagetype": "pagetype.json",  # article or not, for every page (pagetype)
    "pagekind": "pagekind.json",  # the kind of a non-article page (pagetype.kinds)
    "titles": "titles.json",  # the choice among a page's own titles (metadata.titles)
    "crf": "crf-default.zip",  # the CRF (single/crf; a crfsuite zip, not a tree model)
}


class UnknownModelError(NewsstemmerError, ValueError):
    """A name that is not one of the shipped models."""


def model_path(name: str) -> Path:
    """The file of the shipped model ``name`` (a key of :data:`SHIPPED`)."""
    return Path(str(model_resource(name)))


def model_resource(name: str) -> Traversable:
    """The shipped model ``name`` as a package resource: readable also where the package
    is zipped (the egg Scrapyd deploys), where :func:`model_path` names no real file."""
    try:
        file = SHIPPED[name]
    except KeyError:
        raise UnknownModelError(f"no shipped model {name!r} (expected one of {', '.join(SHIPPED)})") from None
    return resources.files(__package__ or "newsstemmer") / "models" / file


_LOADED: dict[str, TreeModel] = {}
_LOCK = threading.Lock()


def load_model(name: str, features: Sequence[str]) -> TreeModel:
    """The shipped tree model ``name``, read once per process (first use) and shared by
    every thread (a :class:`~newsstemmer.trees.TreeModel` holds no per-call state).
    ``features`` are the columns this version computes for it:
    :class:`~newsstemmer.trees.ModelFileError`, naming the file, if it is missing,
    corrupt, made for other features, or another model's."""
    model = _LOADED.get(name)
    if model is None:
        with _LOCK:
            model = _LOADED.get(name)
            if model is None:
                from .trees import ModelFileError, TreeModel  # numpy: only for a tree model

                path = model_resource(name)
                model = TreeModel.load(path, features)
                if model.kind and model.kind != name:
                    raise ModelFileError(f"{path}: holds the {model.kind!r} model, not {name!r}")
                model = _LOADED[name] = model
    return model
