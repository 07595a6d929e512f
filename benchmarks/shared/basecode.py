"""The code to compare with in an A/B speed run: another checkout's package, imported beside this one."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType


def base_package(checkout: str) -> ModuleType:
    """The ``newsstemmer`` package of another checkout (e.g. ``git worktree`` or ``git
    archive`` of the base commit), imported as ``newsstemmer_base`` beside this one."""
    init = Path(checkout).resolve() / "newsstemmer" / "__init__.py"
    if not init.is_file():
        raise SystemExit(f"--base {checkout}: no newsstemmer package there ({init} not found); give a checkout "
                         "of the base commit, e.g. git worktree add /tmp/base main")
    spec = importlib.util.spec_from_file_location("newsstemmer_base", init, submodule_search_locations=[str(init.parent)])
    module = importlib.util.module_from_spec(spec)
    sys.modules["newsstemmer_base"] = module
    spec.loader.exec_module(module)
    _own_models(init.parent)
    return module


def _own_models(package: Path) -> None:
    """Make the base package read its own ``models/`` folder: a checkout whose
    ``shipped.model_resource`` asks for the ``newsstemmer`` package by name would read
    this checkout's models (refused where their features differ)."""
    try:
        shipped = importlib.import_module("newsstemmer_base.shipped")
    except ImportError:  # (a base from before the shipped module: its loaders find their files themselves)
        return

    def model_resource(name: str, _table: dict[str, str] = shipped.SHIPPED) -> Path:
        try:
            return package / "models" / _table[name]
        except KeyError:
            raise shipped.UnknownModelError(f"no shipped model {name!r}") from None

    shipped.model_resource = model_resource
