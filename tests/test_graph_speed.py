"""benchmarks/graph_speed.py: the DOM graph A/B against a base checkout tells same graphs from
different ones (run as a script on a two-page data folder made here; no data set read)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PAGES = {
    "plain": "<html><head><title>Rivers rise after the storm</title></head><body>"
             "<nav><a href='/'>Home</a> | <a href='/news'>News</a></nav>"
             "<article><h1>Rivers rise after the storm</h1><p>The rivers rose two metres overnight "
             "after the <a href='/storm'>storm</a> passed, and <b>three</b> towns were warned.</p>"
             "<p>Water is expected to fall by Friday.</p></article>"
             "<aside class='related'><a href='/x'>Other news</a></aside></body></html>",
    "accents": "<html><head><title>Café prices – a year on</title></head><body><div id='main'>"
               "<p>Les prix du café ont augmenté d’un tiers « en un an », selon l’étude.</p>"
               "<ul><li><a href='/a'>Voir aussi</a></li><li><a href='/b'>Archives</a></li></ul>"
               "</div></body></html>",
}


def data_folder(tmp_path: Path) -> Path:
    data = tmp_path / "data"
    lines = []
    for name, html in PAGES.items():
        page = data / "readability" / "site" / f"{name}.html"
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(html, encoding="utf-8")
        page.with_suffix(".gold.txt").write_text("gold", encoding="utf-8")
        lines.append(json.dumps({"dataset": "readability", "site": "site", "id": name,
                                 "html": f"readability/site/{name}.html",
                                 "gold": f"readability/site/{name}.gold.txt", "url": f"http://example.org/{name}"}))
    (data / "manifest.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return data


def run(base: Path, data: Path) -> str:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "graph_speed.py"), "--base", str(base),
                          "--data", str(data), "--datasets", "readability", "--repeat", "1"],
                         capture_output=True, text=True, env=env, timeout=300, check=True)
    return out.stdout


def test_the_same_code_builds_the_same_graphs(tmp_path):
    out = run(ROOT, data_folder(tmp_path))
    assert "2 pages (readability)" in out
    assert "pages whose graphs differ: 0" in out
    assert "this/base CPU" in out


def test_a_base_that_weighs_link_text_otherwise_differs_in_u(tmp_path):
    base = tmp_path / "base"
    shutil.copytree(ROOT / "newsstemmer", base / "newsstemmer", ignore=shutil.ignore_patterns("__pycache__"))
    graph_code = base / "newsstemmer" / "single" / "domgraph.py"
    source = graph_code.read_text(encoding="utf-8")
    assert "link_weight: float = 0.1\n" in source
    graph_code.write_text(source.replace("link_weight: float = 0.1\n", "link_weight: float = 0.2\n"), encoding="utf-8")
    out = run(base, data_folder(tmp_path))
    assert "pages whose graphs differ: 2 (first differing field: {'u': 2})" in out
