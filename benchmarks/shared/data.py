"""The evaluation data: where it is, its manifest, a page's HTML and gold, what is scored."""

from __future__ import annotations

import argparse
import gzip
import json
import os
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
if str(REPO_ROOT) not in sys.path:
    # Benchmark the checkout the script lives in, whatever is installed.
    sys.path.insert(0, str(REPO_ROOT))

from newsstemmer.blocks import Block, blocks_text, in_convention  # noqa: E402
from newsstemmer.dom.decoding import decode_html  # noqa: E402

ENV_VAR = "NEWSSTEMMER_DATASETS"
DEFAULT_DATA = REPO_ROOT.parent / "shared" / "datasets"


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
    page_type: str | None = None  # "article" or another kind (wcxb-dev), None where not given
    html_lang: str | None = None  # the page's declared language (fundus-recent), None where not given
    gold_html_path: Path | None = None  # the gold as HTML (readability): its structure
    gold_blocks_path: Path | None = None  # the gold as typed blocks, JSON (fundus-recent)
    meta: dict | None = None  # gold metadata where the set has it (title, authors, byline...)

    def raw(self) -> bytes:
        """The page's bytes as captured (``.html.gz`` pages decompressed)."""
        data = self.html_path.read_bytes()
        return gzip.decompress(data) if self.html_path.suffix == ".gz" else data

    def html(self) -> str:
        """The page decoded as the library decodes it (its own charset honoured)."""
        return decode_html(self.raw()).text

    def gold(self) -> str:
        """The page's gold text."""
        return self.gold_path.read_text(encoding="utf-8")


def add_data_option(parser: argparse.ArgumentParser) -> None:
    """The ``--data`` option every benchmark and trainer takes (read by :func:`data_dir`)."""
    parser.add_argument("--data", help=f"datasets folder, the one holding manifest.jsonl "
                                       f"(default: ${ENV_VAR}, else {DEFAULT_DATA})")


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
    """Every page of ``root/manifest.jsonl``, in its order."""
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
                    page_type=r.get("page_type"),
                    html_lang=r.get("html_lang"),
                    gold_html_path=root / r["gold_html"] if r.get("gold_html") else None,
                    gold_blocks_path=root / r["gold_blocks"] if r.get("gold_blocks") else None,
                    meta=r.get("meta"),
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


def prediction(title: str, body: str, with_title: bool, blocks: list[Block] | None = None,
               keep: frozenset[str] = frozenset()) -> str:
    """What is scored against the gold: title + "\n" + body where the gold has the headline.

    With ``blocks`` (the article's typed blocks, ``conventions.article_blocks``) the body is
    their text in the convention that adds the optional kinds ``keep`` to the default body
    (``newsstemmer.blocks.in_convention``; ``conventions.keep_of`` gives a set's); without,
    ``body`` as given.
    """
    if blocks is not None:
        body = blocks_text(in_convention(blocks, keep))
    if with_title and title:
        return f"{title}\n{body}" if body else title
    return body


def select(entries: list[Entry], name: str) -> list[Entry]:
    """The pages of dataset ``name`` (``X-single``: the one-page sites of X; ``X-articles``:
    the pages of X whose ``page_type`` is "article")."""
    if name.endswith("-articles"):
        return [e for e in entries if e.dataset == name[: -len("-articles")] and e.page_type == "article"]
    if name.endswith("-single"):
        base = name[: -len("-single")]
        sizes = Counter(e.site for e in entries if e.dataset == base)
        return [e for e in entries if e.dataset == base and sizes[e.site] == 1]
    return [e for e in entries if e.dataset == name]
