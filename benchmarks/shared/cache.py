"""The benchmarks' caches: where they live, and when one may be read back.

Training data that takes minutes to compute (region rows, section units, page-choice
records, few-page subsets) is kept in pickles between runs.  They are benchmark
intermediates, not product data, so they go to one temporary folder, :data:`CACHE_DIR`:
``$NEWSSTEMMER_BENCH_CACHE`` if set, else ``newsstemmer-bench`` in the system's
temporary folder (``/tmp/newsstemmer-bench``).  A cache is read back only if the same
code, models and settings made it (:func:`cached`), so a stale one cannot train a model
the checkout would not.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from .data import REPO_ROOT

CACHE_ENV_VAR = "NEWSSTEMMER_BENCH_CACHE"
CACHE_DIR = Path(os.environ.get(CACHE_ENV_VAR) or Path(tempfile.gettempdir()) / "newsstemmer-bench")

# What a benchmark cache (units, records, rows) does not depend on: the models the
# trainers write (the units and records are built without them, so shipping a retrained
# model keeps its caches valid), and the packages no benchmark computation goes through.
STAMP_SKIP_FILES = ("models/sections.json", "models/pagechoice.json", "models/pagetype.json")
STAMP_SKIP_DIRS = ("crawl", "cli", "__pycache__")
STAMP_SKIP_SUFFIXES = (".pyc", ".md")  # compiled code, documentation
# The scripts whose code the cached data is computed with: the shared module and the
# trainers (the records hold fold models trained by their code), and the measurement
# scripts (cv.py and rules.py build caches too).  experiments/ computes none.
STAMP_SCRIPT_DIRS = ("benchmarks", "training")

T = TypeVar("T")


def cache_file(name: str) -> Path:
    """The path of cache ``name`` in :data:`CACHE_DIR` (the folder is made if missing)."""
    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    return CACHE_DIR / name


def code_stamp() -> str:
    """A digest of this checkout's package code, shipped models (``STAMP_SKIP_*`` left
    out) and benchmark and training scripts: what the cached training data of the
    benchmarks is computed with.  A cache built with another stamp is stale (e.g. units
    built before the region models were retrained), and a model trained from it is not
    the one the checkout would train."""
    h = hashlib.sha256()
    pkg = REPO_ROOT / "newsstemmer"
    for path in sorted(pkg.rglob("*")):
        rel = path.relative_to(pkg)
        if (not path.is_file() or path.suffix in STAMP_SKIP_SUFFIXES or rel.as_posix() in STAMP_SKIP_FILES
                or any(part in STAMP_SKIP_DIRS for part in rel.parts[:-1])):
            continue
        h.update(rel.as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    for folder in STAMP_SCRIPT_DIRS:
        for path in sorted((REPO_ROOT / folder).rglob("*.py")):
            if "__pycache__" not in path.parts:
                rel = path.relative_to(REPO_ROOT).as_posix()
                h.update(rel.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def cached(path: str | Path | None, build: Callable[[], T], what: str, params: dict[str, Any] | None = None) -> T:
    """``build()``, kept in the pickle ``path`` (None: not kept).  The file is read back only
    if it was written by the same code and models (:func:`code_stamp`) with the same
    ``params``; otherwise ``what`` is built again and the file rewritten, so that a cache
    left by older code never silently trains or scores with stale data."""
    key = {"stamp": code_stamp(), "params": params or {}}
    if path and Path(path).is_file():
        try:
            stored = pickle.loads(Path(path).read_bytes())
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, IndexError, TypeError,
                ValueError) as exc:  # (not a cache file, or one cut short: made again, as a stale one is)
            print(f"{path}: not a readable cache ({type(exc).__name__}: {exc}); {what} made again", file=sys.stderr,
                  flush=True)
        else:
            if isinstance(stored, dict) and stored.get("key") == key:
                return stored["data"]
            print(f"{path}: {what} made by other code, models or settings; made again", file=sys.stderr, flush=True)
    data = build()
    if path:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_bytes(pickle.dumps({"key": key, "data": data}, protocol=pickle.HIGHEST_PROTOCOL))
    return data
