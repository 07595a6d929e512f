"""Helpers shared by the benchmark scripts: locating and reading the evaluation data."""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import pickle
import sys
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

REPO_ROOT = Path(__file__).resolve().parent.parent
if str(REPO_ROOT) not in sys.path:
    # Benchmark the checkout the script lives in, whatever is installed.
    sys.path.insert(0, str(REPO_ROOT))

from newsstemmer.dom.decoding import decode_html  # noqa: E402

ENV_VAR = "NEWSSTEMMER_DATASETS"
DEFAULT_DATA = REPO_ROOT.parent / "shared" / "datasets"

# What a benchmark cache (units, records, rows) does not depend on: the models the
# trainers write (the units and records are built without them, so shipping a retrained
# model keeps its caches valid), and the packages no benchmark computation goes through.
STAMP_SKIP_FILES = ("models/sections.json", "models/pagechoice.json")
STAMP_SKIP_DIRS = ("crawl", "cli", "__pycache__")
STAMP_SKIP_SUFFIXES = (".pyc", ".md")  # compiled code, documentation

T = TypeVar("T")


@dataclass
class Entry:
    """One page of the manifest, with its decoded HTML loaded on demand."""

    dataset: str
    site: str
    id: str
    html_path: Path
    gold_path: Path
    url: str | None
    gold_has_title: bool

    def raw(self) -> bytes:
        """The page's bytes as captured (``.html.gz`` pages decompressed)."""
        data = self.html_path.read_bytes()
        return gzip.decompress(data) if self.html_path.suffix == ".gz" else data

    def html(self) -> str:
        return decode_html(self.raw()).text

    def gold(self) -> str:
        return self.gold_path.read_text(encoding="utf-8")


def data_dir(cli_value: str | None) -> Path:
    """The dataset folder: ``--data``, else $NEWSSTEMMER_DATASETS, else ../shared/datasets.

    Exits with a clear message if it has no ``manifest.jsonl``.
    """
    if cli_value:
        path, how = Path(cli_value), "--data"
    elif os.environ.get(ENV_VAR):
        path, how = Path(os.environ[ENV_VAR]), f"${ENV_VAR}"
    else:
        path, how = DEFAULT_DATA, "default location"
    if not (path / "manifest.jsonl").is_file():
        sys.exit(
            f"error: no evaluation data at {path} ({how}): manifest.jsonl not found.\n"
            f"Point --data DIR or ${ENV_VAR} at the datasets folder (the one holding manifest.jsonl)."
        )
    return path


def load_manifest(root: Path) -> list[Entry]:
    entries = []
    with open(root / "manifest.jsonl", encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            r = json.loads(line)
            entries.append(
                Entry(
                    dataset=r["dataset"],
                    site=r["site"],
                    id=r["id"],
                    html_path=root / r["html"],
                    gold_path=root / r["gold"],
                    url=r.get("url"),
                    gold_has_title=bool(r.get("gold_has_title")),
                )
            )
    return entries


def by_site(entries: list[Entry], dataset: str) -> dict[str, list[Entry]]:
    """The pages of one dataset grouped by site (sites sorted, pages in manifest order)."""
    groups: dict[str, list[Entry]] = defaultdict(list)
    for e in entries:
        if e.dataset == dataset:
            groups[e.site].append(e)
    return dict(sorted(groups.items()))


def prediction(title: str, body: str, with_title: bool) -> str:
    """What is scored against the gold: title + "\n" + body where the gold has the headline."""
    if with_title and title:
        return f"{title}\n{body}" if body else title
    return body


def select(entries: list[Entry], name: str) -> list[Entry]:
    """The pages of dataset ``name`` (``X-single``: the one-page sites of X)."""
    if name.endswith("-single"):
        base = name[: -len("-single")]
        sizes = Counter(e.site for e in entries if e.dataset == base)
        return [e for e in entries if e.dataset == base and sizes[e.site] == 1]
    return [e for e in entries if e.dataset == name]


def code_stamp() -> str:
    """A digest of this checkout's package code, shipped models (``STAMP_SKIP_*`` left
    out) and benchmark scripts: what the cached training data of the benchmarks is
    computed with.  A cache built with another stamp is stale (e.g. units built before
    the region models were retrained), and a model trained from it is not the one the
    checkout would train."""
    h = hashlib.sha256()
    pkg = REPO_ROOT / "newsstemmer"
    for path in sorted(pkg.rglob("*")):
        rel = path.relative_to(pkg)
        if (not path.is_file() or path.suffix in STAMP_SKIP_SUFFIXES or rel.as_posix() in STAMP_SKIP_FILES
                or any(part in STAMP_SKIP_DIRS for part in rel.parts[:-1])):
            continue
        h.update(rel.as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    # the benchmark scripts too: the records hold fold models trained by their code
    for path in sorted((REPO_ROOT / "benchmarks").glob("*.py")):
        h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def cached(path: str | None, build: Callable[[], T], what: str, params: dict[str, Any] | None = None) -> T:
    """``build()``, kept in the pickle ``path`` (None: not kept).  The file is read back only
    if it was written by the same code and models (:func:`code_stamp`) with the same
    ``params``; otherwise ``what`` is built again and the file rewritten, so that a cache
    left by older code never silently trains or scores with stale data."""
    key = {"stamp": code_stamp(), "params": params or {}}
    if path and Path(path).is_file():
        stored = pickle.loads(Path(path).read_bytes())
        if isinstance(stored, dict) and stored.get("key") == key:
            return stored["data"]
        print(f"{path}: {what} made by other code, models or settings; made again", file=sys.stderr, flush=True)
    data = build()
    if path:
        Path(path).write_bytes(pickle.dumps({"key": key, "data": data}, protocol=pickle.HIGHEST_PROTOCOL))
    return data
