"""``benchmarks/region_speed.py --base CHECKOUT --once``: each page's first extraction by both
codes, in turns, the warming first page and pages either code cannot read left out.

Run in a child process: the base package is imported beside this one as
``newsstemmer_base``, which must not stay in this process's modules."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_CODE = """
import json, sys
from benchmarks import region_speed
page = ("<html><head><title>Rivers rise</title></head><body><nav><a href='/'>Home</a></nav><article>"
        "<h1>Rivers rise</h1>" + "<p>The rivers rose two metres overnight after the storm passed.</p>" * 6
        + "</article></body></html>").encode()
raws = [(page, "https://example.org/a"), (page, "https://example.org/b"), (b"\\x89PNG\\r\\n\\x1a\\n....", None),
        (page.replace(b"Rivers", b"Storms"), None)]
print(json.dumps(region_speed.first_visits(sys.argv[1], raws)))
"""


def test_first_visits_times_each_readable_page_once_for_both_codes() -> None:
    env = {k: v for k, v in os.environ.items() if k != "NEWSSTEMMER_PURE_PYTHON"} | {"PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", _CODE, str(ROOT)], cwd=ROOT, env=env, capture_output=True,
                         text=True, check=True)
    cost = json.loads(out.stdout.strip().splitlines()[-1])
    assert cost["pages"] == 2.0  # (the first page warms, the image is no page)
    assert cost["base"] > 0 and cost["this"] > 0
