#!/usr/bin/env python3
"""Scheduled monitoring of the demo site over three days, state kept between runs (issue #13).

Day 1 is the original demo site; day 2 publishes new articles and updates a few; day 3
is a redesign (new markup for every layout) with more new articles.  Each day is one
``scrapy crawl news`` (the demo served by the spider on one fixed port, so the site key
and the URLs stay the same), with the same ``NEWSSTEMMER_STATE_DIR`` and patterns
folder, into ``day<N>.jsonl``.  The items are scored against the day's truth
(:func:`newsstemmer.demo.scoring.score_day`), and the issue's targets printed:

* day 1: ≥ 97% of the articles in the feed;
* day 2: ≥ 97% of the articles new or updated that day, ≤ 2% of the unchanged ones
  repeated, ≤ half of day 1's downloads (full ``200`` responses; requests shown too);
* day 3: drift reported, relearned within the run, ≥ 95% of the new articles in the
  feed with shingle F1 ≥ 0.97, the pattern file holds both versions.

    python benchmarks/monitor.py [--keep DIR] [--json FILE] [--runs N]

``--runs N`` repeats the three days N times (fresh state each time) and prints each.
"""

from __future__ import annotations

import argparse
import json
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

from newsstemmer.crawl.testing import FAST_SETTINGS, crawl_stats  # noqa: E402
from newsstemmer.demo import build_site  # noqa: E402
from newsstemmer.demo.scoring import score_day  # noqa: E402
from newsstemmer.layout.patterns import SitePatterns  # noqa: E402


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def crawl_day(day: int, port: int, work: Path) -> tuple[list[dict], dict, float, str]:
    """Run one day's crawl; ``(items, stats, seconds, log)``."""
    out = work / f"day{day}.jsonl"
    settings = {**FAST_SETTINGS, "NEWSSTEMMER_STATE_DIR": str(work / "state"),
                "NEWSSTEMMER_PATTERNS_DIR": str(work / "patterns"), "NEWSSTEMMER_DEMO_PORT": str(port),
                "NEWSSTEMMER_DEMO_DAY": str(day)}
    cmd = [sys.executable, "-m", "scrapy", "crawl", "news", "-O", str(out)]
    for k, v in settings.items():
        cmd += ["-s", f"{k}={v}"]
    t = time.perf_counter()
    proc = subprocess.run(cmd, cwd=REPO_ROOT, capture_output=True, text=True, timeout=600)
    seconds = time.perf_counter() - t
    (work / f"day{day}.log").write_text(proc.stderr, encoding="utf-8")
    if proc.returncode != 0:
        sys.exit(f"day {day}: the crawl failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    items = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines() if line.strip()]
    return items, crawl_stats(proc.stderr), seconds, proc.stderr


def run_days(work: Path) -> dict:
    port = free_port()
    sites = {d: build_site(day=d) for d in (1, 2, 3)}
    days = {}
    for d in (1, 2, 3):
        items, stats, seconds, _ = crawl_day(d, port, work)
        score = score_day(items, sites.get(d - 1), sites[d])
        score.update(seconds=round(seconds, 1), downloads=stats.get("downloader/response_status_count/200", 0),
                     requests=stats.get("downloader/request_count", 0),
                     not_modified=stats.get("newsstemmer/not_modified", 0),
                     skipped=stats.get("newsstemmer/skipped_fresh", 0),
                     drift=stats.get("newsstemmer/drift_detected", 0),
                     relearned=stats.get("newsstemmer/drift_relearned", 0), items=len(items))
        days[d] = score
    (pattern_file,) = (work / "patterns").glob("*.json")
    sp = SitePatterns.load(pattern_file)
    versions = sorted({p.version or 1 for p in sp.patterns + sp.retired})
    health = [json.loads(line) for line in (work / "state" / "health.jsonl").read_text().splitlines()]
    return {"days": days, "pattern_versions": versions, "history": sp.history, "health": health}


def targets(r: dict) -> list[tuple[str, str, bool]]:
    d1, d2, d3 = r["days"][1], r["days"][2], r["days"][3]
    return [
        ("day 1: articles in the feed ≥ 97%", f"{d1['delivered_share']:.1%} ({d1['delivered']}/{d1['expected']})",
         d1["delivered_share"] >= 0.97),
        ("day 2: new + updated in the feed ≥ 97%", f"{d2['delivered_share']:.1%} ({d2['delivered']}/{d2['expected']}: "
         f"{d2['new']} new, {d2['updated']} updated)", d2["delivered_share"] >= 0.97),
        ("day 2: unchanged repeated ≤ 2%", f"{d2['repeated_share']:.1%} ({d2['repeated']}/{d2['unchanged']})",
         d2["repeated_share"] <= 0.02),
        ("day 2: downloads ≤ half of day 1's", f"{d2['downloads']} vs {d1['downloads']} "
         f"({d2['downloads'] / d1['downloads']:.2f}; requests {d2['requests']} vs {d1['requests']}, "
         f"304: {d2['not_modified']}, skipped: {d2['skipped']})", d2["downloads"] <= d1["downloads"] / 2),
        ("day 3: drift reported", str(d3["drift"]), d3["drift"] >= 1),
        ("day 3: relearned within the run", str(d3["relearned"]), d3["relearned"] >= 1),
        ("day 3: new articles with F1 ≥ 0.97 ≥ 95%", f"{d3['new_f1_ok_share']:.1%} of {d3['new']}",
         d3["new_f1_ok_share"] >= 0.95),
        ("day 3: pattern file holds both versions", f"versions {r['pattern_versions']}", len(r["pattern_versions"]) >= 2),
        ("days 1-3: no item that is not an article", " / ".join(str(r["days"][d]["extra"]) for d in (1, 2, 3)),
         all(r["days"][d]["extra"] == 0 for d in (1, 2, 3))),
    ]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--keep", metavar="DIR", help="work in DIR (kept) instead of a temporary folder")
    ap.add_argument("--json", metavar="FILE", help="write the figures as JSON")
    ap.add_argument("--runs", type=int, default=1)
    args = ap.parse_args()
    results, ok = [], True
    for n in range(args.runs):
        if args.keep:
            work = Path(args.keep) / (f"run{n + 1}" if args.runs > 1 else "")
            work.mkdir(parents=True, exist_ok=True)
            r = run_days(work)
        else:
            with tempfile.TemporaryDirectory(prefix="monitor-bench-") as tmp:
                r = run_days(Path(tmp))
        results.append(r)
        print(f"run {n + 1}:")
        for d, s in r["days"].items():
            print(f"  day {d}: {s['items']} items, {s['downloads']} downloads ({s['requests']} requests, "
                  f"{s['not_modified']} not modified, {s['skipped']} skipped), {s['seconds']} s; "
                  f"expected {s['expected']}, delivered {s['delivered']}, not articles {s['extra']}, repeated {s['repeated']} "
                  f"(as updates {s['false_updates']}), F1 mean {s['f1_mean'] or 0:.3f}, F1≥0.97 {s['f1_ok']}")
            if s["low_f1"]:
                print(f"    below 0.97: {s['low_f1'][:8]}")
        for name, value, met in targets(r):
            ok &= met
            print(f"  {'MET ' if met else 'MISS'} {name}: {value}")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1, default=str), encoding="utf-8")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
