#!/usr/bin/env python3
"""Why a kept soak run missed the updates it missed (issue #26).

For a folder that ``benchmarks/soak.py --keep DIR --keep-feeds`` left, each missed update
(``soak-run.json``'s days) is put in one of two kinds:

* ``lede left out``: the body the crawl last sent for the article lacks the demo's true first
  paragraph, where every demo update goes (``newsstemmer.demo.days.apply_update``): the learned
  layout leaves it out, so the body cannot change (the layout's id is printed);
* ``sketch``: the sent body had it; the change sketch of the version before the update (made
  from the demo's true texts, as the crawl's should be) against the updated version says
  ``told`` (the code on ``PYTHONPATH`` sends it) or ``not told``.

The demo's days are made again from the seeds (the run's journals are not read).  Also printed:
the layouts, per site, that score the ``p.lede`` section other than main.

    PYTHONPATH=CHECKOUT python benchmarks/soak_misses.py DIR
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from pathlib import Path
from typing import Any

if __name__ == "__main__" and not __package__ and not os.environ.get("PYTHONPATH"):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # (else PYTHONPATH's checkout is the code judged)

import lxml.html  # noqa: E402

from newsstemmer.crawl.changesketch import EDIT_MIN_WORDS, ChangeSketch  # noqa: E402
from newsstemmer.demo.days import Schedule  # noqa: E402
from newsstemmer.demo.longrun import DemoDays  # noqa: E402
from newsstemmer.dom.text import visible_text  # noqa: E402


def page_text(body: bytes) -> str:
    """The page's visible text, as the crawl keeps it."""
    return visible_text(lxml.html.fromstring(body))


def last_sent(work: Path, port: int, path: str, before: int) -> dict[str, Any] | None:
    """The article's last item in the kept feeds of the days before ``before``."""
    found = None
    suffix = f"127.0.0.1:{port}{path}"
    for day in range(1, before):
        feed = work / "w1" / f"day{day}.jsonl"
        if not feed.exists():
            sys.exit(f"{feed} is missing: run the soak with --keep-feeds")
        for line in feed.read_text(encoding="utf-8").splitlines():
            if suffix in line:
                item = json.loads(line)
                if item["url"].endswith(suffix):
                    found = item
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("work", type=Path, help="the folder soak.py --keep --keep-feeds left")
    args = parser.parse_args(argv)
    run = json.loads((args.work / "soak-run.json").read_text(encoding="utf-8"))
    spec, ports = run["run"], run["ports"]
    schedule = Schedule.long(spec["new_per_day"], spec["updates_per_day"], spec["redesign_day"],
                             max(len(run["days"]), 1))
    for port in ports:
        patterns = json.loads((args.work / "w1" / "patterns" / f"127.0.0.1_{port}.json").read_text(encoding="utf-8"))
        off = [p["id"] for p in patterns["patterns"] for s in p["sections"]
               if s["path"].endswith("p:class=lede") and s["role"] != "main"]
        if off:
            print(f"site 127.0.0.1:{port} (seed {spec['seed'] + ports.index(port)}): layouts leaving the lede out: {off}")
    makers: dict[int, DemoDays] = {}
    kinds: Counter[str] = Counter()
    for row in run["days"]:
        for missed in row["missed"]:
            if "(update" not in missed:
                continue
            url = missed.split(" ")[0]
            host, path = url.split("/", 1)
            port, path = int(host.split(":")[1]), "/" + path
            seed = spec["seed"] + ports.index(port)
            days = makers.setdefault(seed, DemoDays(seed, schedule=schedule))
            old, new = days.site(row["day"] - 1).pages[path], days.site(row["day"]).pages[path]
            sent = last_sent(args.work, port, path, row["day"])
            if sent is not None and (old.text or "").split("\n")[0] not in sent["body"]:
                kind, detail = "lede left out", f"layout {sent.get('pattern')}"
            else:
                sketch = ChangeSketch.from_bytes(ChangeSketch.of(old.text or "", page_text(old.body)).to_bytes())
                assert sketch is not None
                words = sketch.added_words(new.text or "")
                share = sketch.change(new.text or "", page_text(new.body))
                kind = "sketch: " + ("told" if share >= 0.02 or words >= EDIT_MIN_WORDS else "not told")
                detail = f"share {share:.4f}, {words} words added"
            kinds[kind] += 1
            print(f"day {row['day']} seed {seed} {path}: {kind} ({detail})")
    print(dict(kinds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
