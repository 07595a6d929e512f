#!/usr/bin/env python3
"""Rebuild every shipped model in ``newsstemmer/models/``, in the order they depend on.

The retrain chain is region → sections → pagechoice → crf → pagetype → titles: the section units,
the page-choice records and the page-type rows hold the region extractor's bodies
(``region_share``, ``body_share``, ...), so those models are trained after the region
models they were computed with.  Each step runs its trainer (training/README.md) as its own process, so it loads
the models the steps before it wrote.  Training is deterministic: the same checkout,
data and LightGBM version give the same bytes, on any CPU (training/README.md,
"Reproducible on every CPU").

    python training/rebuild.py                        # every model, written into newsstemmer/models
    python training/rebuild.py --only sections,pagechoice
    python training/rebuild.py --check [--only crf]   # retrain into a temporary folder and compare

``--check`` writes nothing in the checkout: it says of each shipped file whether the
retrained one is byte-identical, and exits 1 if one is not.  Its steps still read the
*shipped* upstream models (the package loads them from ``newsstemmer/models``), so once a
step differs, the checks after it say what the shipped files give, not the new ones.
"""

from __future__ import annotations

import argparse
import hashlib
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

if __name__ == "__main__" and not __package__:  # run as a file: import from the checkout's root
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from benchmarks.shared import REPO_ROOT, add_data_option, cache_file

MODELS = REPO_ROOT / "newsstemmer" / "models"
HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Step:
    """One link of the retrain chain: the files it writes and the commands that write them."""

    name: str
    files: tuple[str, ...]
    seconds: int  # about, on the development data

    def commands(self, out: Path, rows: Path, data: list[str]) -> list[list[str]]:
        """The trainer runs that write this step's files into ``out`` (``rows``: region's rows file)."""
        py = [sys.executable]
        if self.name == "region":
            return [py + [str(HERE / "region_data.py"), "-o", str(rows)] + data,
                    py + [str(HERE / "train_region.py"), "--data-file", str(rows), "--no-cv", "--variants", "both",
                          "-o", str(out)] + data]
        if self.name == "sections":
            return [py + [str(HERE / "train_sections.py"), "--no-cv", "-o", str(out / "sections.json")] + data]
        if self.name == "pagetype":
            return [py + [str(HERE / "train_pagetype.py"), "--no-cv", "-o", str(out / "pagetype.json"),
                          "--kind-output", str(out / "pagekind.json")] + data]
        if self.name == "titles":
            return [py + [str(HERE / "train_titles.py"), "--no-cv", "-o", str(out / "titles.json")] + data]
        if self.name == "pagechoice":
            return [py + [str(HERE / "train_pagechoice.py"), "--no-cv", "-o", str(out / "pagechoice.json")] + data]
        return [py + [str(HERE / "train_crf.py"), "-o", str(out / "crf-default.zip")] + data]


#: The retrain chain, in order.
CHAIN = (
    Step("region", ("region.json", "region-clean.json"), 60),
    Step("sections", ("sections.json",), 50),
    Step("pagechoice", ("pagechoice.json",), 120),
    Step("crf", ("crf-default.zip",), 25),
    Step("pagetype", ("pagetype.json", "pagekind.json"), 240),
    Step("titles", ("titles.json",), 60),
)


def chosen_steps(only: str | None) -> list[Step]:
    """The steps named in ``only`` (comma-separated), in the chain's order; all if None."""
    if not only:
        return list(CHAIN)
    names = {n.strip() for n in only.split(",") if n.strip()}
    unknown = names - {s.name for s in CHAIN}
    if unknown:
        raise SystemExit(f"error: unknown step(s) {', '.join(sorted(unknown))}; known: "
                         f"{', '.join(s.name for s in CHAIN)}")
    return [s for s in CHAIN if s.name in names]


def digest(path: Path) -> str:
    """The first 16 hex digits of a file's sha256."""
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def compare(step: Step, out: Path) -> bool:
    """Print whether each retrained file of ``step`` is the shipped file's bytes; True if all are."""
    same = True
    for name in step.files:
        new, shipped = out / name, MODELS / name
        if new.read_bytes() == shipped.read_bytes():
            print(f"  {name}: identical ({digest(new)})")
        else:
            same = False
            print(f"  {name}: DIFFERS (shipped {shipped.stat().st_size} bytes {digest(shipped)}, "
                  f"retrained {new.stat().st_size} bytes {digest(new)})")
    return same


def run(steps: list[Step], out: Path, rows: Path, data: list[str], check: bool) -> int:
    """Run ``steps`` in order into ``out``; with ``check``, compare each with the shipped files."""
    all_same = True
    for step in steps:
        print(f"[{step.name}] {', '.join(step.files)} (about {step.seconds} s)", flush=True)
        t0 = time.perf_counter()
        for cmd in step.commands(out, rows, data):
            print("  $ " + " ".join(Path(c).relative_to(REPO_ROOT).as_posix() if c.startswith(str(REPO_ROOT)) else c
                                     for c in cmd[1:]), flush=True)
            if subprocess.run(cmd, cwd=REPO_ROOT).returncode != 0:
                print(f"error: step {step.name} failed", file=sys.stderr)
                return 2
        print(f"  done in {time.perf_counter() - t0:.0f} s", flush=True)
        if check:
            all_same = compare(step, out) and all_same
    if check:
        print("every retrained file is byte-identical to the shipped one" if all_same
              else "some retrained files differ from the shipped ones")
    return 0 if all_same else 1


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", metavar="STEPS", help=f"comma-separated, of {', '.join(s.name for s in CHAIN)} "
                                                    "(run in the chain's order)")
    ap.add_argument("--check", action="store_true",
                    help="retrain into a temporary folder and say whether each shipped file is byte-identical")
    add_data_option(ap)
    args = ap.parse_args(argv)
    steps = chosen_steps(args.only)
    data = ["--data", args.data] if args.data else []
    if args.check:
        with tempfile.TemporaryDirectory(prefix="newsstemmer-rebuild-") as tmp:
            return run(steps, Path(tmp), Path(tmp) / "region-data.pkl", data, check=True)
    names = [s.name for s in steps]
    later = [s.name for s in CHAIN[[s.name for s in CHAIN].index(names[0]) + 1:] if s.name not in names]
    code = run(steps, MODELS, cache_file("region-data.pkl"), data, check=False)
    if code == 0 and later:
        print(f"note: the models after {names[0]} in the chain ({', '.join(later)}) were trained with the "
              f"models before it; retrain them too if they depend on what changed", flush=True)
    return code


if __name__ == "__main__":
    sys.exit(main())
