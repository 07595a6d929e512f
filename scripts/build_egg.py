#!/usr/bin/env python3
"""Build the Scrapy project egg that Scrapyd deploys (``addversion.json``), without setup.py.

    python scripts/build_egg.py [OUT_DIR]        # prints the egg's path

An egg is a zip archive of the package plus ``EGG-INFO/PKG-INFO`` and
``EGG-INFO/entry_points.txt``; the ``scrapy`` entry point ``settings`` names the
project's settings module (``newsstemmer.crawl.settings``), which Scrapyd's runner
uses.  ``scrapyd-deploy`` would write a ``setup.py`` into the checkout and build with
setuptools' deprecated ``bdist_egg``: this writes the same archive directly.  The
egg holds the code only; the machine running Scrapyd needs newsstemmer's
dependencies installed (``pip install newsstemmer`` or the checkout).
"""

from __future__ import annotations

import sys
import zipfile
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

from newsstemmer import __version__  # noqa: E402

SKIP_PARTS = {"__pycache__"}


def build_egg(out_dir: Path) -> Path:
    """Write ``newsstemmer-<version>-py<X.Y>.egg`` into ``out_dir`` and return its path."""
    out_dir.mkdir(parents=True, exist_ok=True)
    egg = out_dir / f"newsstemmer-{__version__}-py{sys.version_info[0]}.{sys.version_info[1]}.egg"
    package = REPO_ROOT / "newsstemmer"
    with zipfile.ZipFile(egg, "w", zipfile.ZIP_DEFLATED) as z:
        for path in sorted(package.rglob("*")):
            if path.is_file() and not SKIP_PARTS & set(path.parts) and path.suffix not in (".pyc", ".pyo"):
                z.write(path, path.relative_to(REPO_ROOT).as_posix())
        z.writestr("EGG-INFO/PKG-INFO", f"Metadata-Version: 2.1\nName: newsstemmer\nVersion: {__version__}\n")
        z.writestr("EGG-INFO/entry_points.txt", "[scrapy]\nsettings = newsstemmer.crawl.settings\n")
        z.writestr("EGG-INFO/top_level.txt", "newsstemmer\n")
        z.writestr("EGG-INFO/zip-safe", "")
    return egg


if __name__ == "__main__":
    print(build_egg(Path(sys.argv[1] if len(sys.argv) > 1 else "dist")))
