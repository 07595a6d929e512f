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
    return module
