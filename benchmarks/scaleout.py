#!/usr/bin/env python3
"""Scale-out: one crawl shared by 1, 2 and 4 workers through Redis, and a worker killed.

Every site of the evaluation data (big9-05, big9-09, cleanportal and dragnet sites with
≥ 5 pages: 84 sites, 725 pages by default) is served on its own loopback address
(``benchmarks/crawl.py``'s servers: an index page linking each article with its
headline).  A throwaway ``redis-server`` (Debian package ``redis-server``) runs on a
free port.  Then, each from a fresh state (Redis flushed, new folders):

1. **single**: one ``scrapy crawl news`` without Redis (SQLite): the reference;
2. **1 / 2 / 4 workers**: the same command with ``NEWSSTEMMER_REDIS_URL``, started
   together (``--runs`` times for 1 and 2, alternating);
3. **kill**: 2 workers; once the crawl has emitted ``--kill-at`` of the pages, one is
   killed with SIGKILL and a replacement started.

Non-article pages are emitted too (``NEWSSTEMMER_INCLUDE_NON_ARTICLES``, scored as
empty), so that a page missing from every feed is a page lost.  Printed per run: pages
emitted (share of the served pages with an item), duplicates
(items beyond the first per page, share of the pages), shingle F1 of all pages
against the gold (as ``benchmarks/crawl.py``), sites learned (from the workers' logs; in
brackets those learned by two workers) against the sites with a pattern file, learning
rounds, requests
recovered from a dead worker, and throughput: pages crawled / crawl time (earliest
``start_time`` to latest ``finish_time`` of the workers' stats; process start-up is
outside it).  Targets (issue #14): emitted ≥ 98%, duplicates ≤ 2%, F1 within ±0.005 of
the single crawl, each site learned once, 2 workers ≥ 1.6× one worker.

    python benchmarks/scaleout.py [--runs 2] [--datasets big9-05,big9-09,cleanportal]
                                  [--no-dragnet] [--min-pages 5] [--kill-at 0.4]
                                  [--keep DIR] [--json FILE] [--data DIR]
    python benchmarks/scaleout.py --demo [--runs 2]

``--demo`` (no data needed): the bundled demo site instead, crawled as a user would
(non-articles not emitted) by one worker without Redis and by 2 workers sharing Redis,
``--runs`` times each: per run the items, the demo's articles found (of its 120),
items that are no article (issue #24: 0), duplicates and shingle F1 against the
demo's truth.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

if __name__ == "__main__" and not __package__:  # run as a file: import from the checkout's root
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from benchmarks.shared import REPO_ROOT, add_data_option, data_dir, load_manifest, prediction
from benchmarks.crawl import FAST, parse_stats
from benchmarks.crawl_sites import SiteServer, dataset_sites, loopback_hosts

from newsstemmer.crawl.testing import redis_server
from newsstemmer.evaluation import evaluate

_LEARNED = re.compile(r"newsstemmer: (\S+): \d+ layouts \(.*?\) learned from (?:only )?\d+ pages")
_TIME = re.compile(r"'(start_time|finish_time)': datetime\.datetime\(([\d, ]+)")


def crawl_span(log: str) -> tuple[dt.datetime, dt.datetime] | None:
    """The ``start_time`` and ``finish_time`` of a crawl's final stats."""
    block = log.rsplit("Dumping Scrapy stats:", 1)[-1]
    found = {name: dt.datetime(*[int(x) for x in args.split(",") if x.strip()]) for name, args in _TIME.findall(block)}
    if len(found) != 2:
        return None
    return found["start_time"], found["finish_time"]


class Worker:
    """One ``scrapy crawl news`` subprocess of a run."""

    def __init__(self, folder: Path, urls: list[str], settings: dict[str, str]):
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copy(REPO_ROOT / "scrapy.cfg", folder / "scrapy.cfg")
        self.out = folder / "items.jsonl"
        cmd = [sys.executable, "-m", "scrapy", "crawl", "news", "-O", str(self.out), "-a", "urls=" + ",".join(urls)]
        every = {**FAST, "NEWSSTEMMER_STATE_DIR": str(folder / "state"),
                 "NEWSSTEMMER_PATTERNS_DIR": str(folder / "patterns"), **settings}
        for name, value in every.items():
            cmd += ["-s", f"{name}={value}"]
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO_ROOT), env.get("PYTHONPATH")) if p)
        env.pop("SCRAPY_SETTINGS_MODULE", None)
        self.log_path = folder / "crawl.log"
        self.proc = subprocess.Popen(cmd, cwd=folder, env=env, stdout=open(self.log_path, "w"),
                                     stderr=subprocess.STDOUT)

    def items(self) -> list[dict]:
        if not self.out.exists():
            return []
        lines = self.out.read_text(encoding="utf-8", errors="replace").splitlines()
        out = []
        for line in lines:
            try:
                out.append(json.loads(line))
            except ValueError:
                pass  # a line cut by SIGKILL
        return out

    def wait(self, timeout: float) -> dict[str, Any]:
        end = time.monotonic() + timeout
        cpu = 0.0
        while True:  # wait4: the worker's own CPU time (user + system)
            pid, status, usage = os.wait4(self.proc.pid, os.WNOHANG)
            if pid:
                self.proc.returncode = code = os.waitstatus_to_exitcode(status)
                cpu = usage.ru_utime + usage.ru_stime
                break
            if time.monotonic() > end:
                self.proc.kill()
                raise TimeoutError(f"worker in {self.folder} still running after {timeout} s")
            time.sleep(0.05)
        log = self.log_path.read_text(encoding="utf-8", errors="replace")
        if code not in (0, -signal.SIGKILL):
            print(f"warning: worker in {self.folder} exited {code}:\n" + "\n".join(log.splitlines()[-15:]),
                  file=sys.stderr)
        return {"code": code, "cpu_s": cpu, "stats": parse_stats(log), "span": crawl_span(log), "items": self.items(),
                "learned": sorted(set(_LEARNED.findall(log))),
                "patterns": sorted(p.name for p in (self.folder / "patterns").glob("*.json")),
                "tracebacks": log.count("Traceback")}


def flush(url: str) -> None:
    import redis

    redis.Redis.from_url(url).flushdb()


def run(name: str, work: Path, urls: list[str], redis_url: str | None, workers: int, settings: dict[str, str],
        timeout: float, kill_at: float | None = None, total_pages: int = 0) -> dict[str, Any]:
    """One configuration: ``workers`` processes (SQLite when ``redis_url`` is None)."""
    folder = work / name
    if folder.exists():
        shutil.rmtree(folder)
    extra = dict(settings)
    if redis_url:
        flush(redis_url)
        extra["NEWSSTEMMER_REDIS_URL"] = redis_url
    print(f"[{name}] {workers} worker(s){' + Redis' if redis_url else ' (SQLite)'}", file=sys.stderr, flush=True)
    pool = [Worker(folder / f"w{i + 1}", urls, extra) for i in range(workers)]
    killed = None
    if kill_at is not None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if sum(len(w.items()) for w in pool) >= kill_at * total_pages:
                break
            time.sleep(0.1)
        victim = pool[0]
        if victim.proc.returncode is None:
            victim.proc.send_signal(signal.SIGKILL)
            killed = sum(len(w.items()) for w in pool)
            print(f"[{name}] worker 1 killed after {killed} items; replacement started", file=sys.stderr, flush=True)
            pool.append(Worker(folder / f"w{workers + 1}", urls, extra))
    results = [w.wait(timeout) for w in pool]
    return {"name": name, "workers": workers, "results": results, "killed_after_items": killed}


def score(res: dict[str, Any], servers: list[SiteServer]) -> dict[str, Any]:
    """Emitted share, duplicates and F1 of one run over every served page."""
    by_url: dict[str, list[dict]] = {}
    for r in res["results"]:
        for it in r["items"]:
            by_url.setdefault(it.get("url", ""), []).append(it)
    pairs, emitted, dupes, pages = [], 0, 0, 0
    for s in servers:
        for path, e in s.paths.items():
            pages += 1
            got = by_url.get(s.base_url + path, [])
            if got:
                emitted += 1
                dupes += len(got) - 1
                it = got[0]
                if it.get("is_article") is False:  # emitted only to account for every page
                    pairs.append(("", e.gold()))
                else:
                    pairs.append((prediction(it.get("title") or "", it.get("body") or "", e.gold_has_title), e.gold()))
            else:
                pairs.append(("", e.gold()))
    stats = [r["stats"] for r in res["results"]]
    spans = [r["span"] for r in res["results"] if r["span"] is not None]
    # a killed worker has no stats: its pages count through the others' (they re-crawl what it held)
    crawled = sum(int(st.get("newsstemmer/pages", 0)) for st in stats)
    span = (max(b for _, b in spans) - min(a for a, _ in spans)).total_seconds() if spans else 0.0
    pattern_sites = {p for r in res["results"] for p in r["patterns"]}
    learners: dict[str, int] = {}
    for r in res["results"]:  # from the logs: a killed worker has no closing stats
        for site in r["learned"]:
            learners[site] = learners.get(site, 0) + 1

    def total(key: str) -> int:
        return sum(int(st.get(f"newsstemmer/{key}", 0)) for st in stats)

    return {
        "name": res["name"], "workers": res["workers"], "pages": pages, "emitted": emitted,
        "emitted_share": emitted / pages if pages else 0.0, "duplicates": dupes,
        "duplicate_share": dupes / pages if pages else 0.0, "f1": evaluate(pairs).f1,
        "sites_learned": len(learners), "learned_twice": sum(n > 1 for n in learners.values()),
        "sites_with_patterns": len(pattern_sites),
        "learning_rounds": total("learning_rounds"), "recovered": total("requests_recovered"),
        "duplicates_skipped": total("duplicates_skipped"), "crawled": crawled, "span_s": span,
        "pages_per_s": crawled / span if span else 0.0, "killed_after_items": res["killed_after_items"],
        "tracebacks": sum(r["tracebacks"] for r in res["results"]),
        "per_worker_pages": [int(st.get("newsstemmer/pages", 0)) for st in stats],
        "cpu_s": sum(r["cpu_s"] for r in res["results"]),
        "cpu_ms_per_page": 1000 * sum(r["cpu_s"] for r in res["results"]) / crawled if crawled else 0.0,
    }


def demo_runs(args: argparse.Namespace, work: Path) -> None:
    """The demo site crawled by 1 worker (SQLite) and 2 workers (Redis): what the feed holds."""
    from newsstemmer.demo import DemoServer, build_site

    site = build_site()
    truth = site.truth()
    settings = {"NEWSSTEMMER_WORKER_TIMEOUT": "5", "CONCURRENT_REQUESTS": "16"}
    print("| run | workers | items | articles found | not articles | duplicates | F1 | pages per worker |")
    print("|---|---|---|---|---|---|---|---|")
    with DemoServer(site) as server, redis_server(work / "redis") as url:
        start = [server.base_url.rstrip("/") + "/"]
        for k in range(args.runs):
            for name, n, redis_url in (("single", 1, None), ("2w", 2, url)):
                res = run(f"demo-{name}-{k + 1}", work, start, redis_url, n, settings, args.timeout)
                items = [i for r in res["results"] for i in r["items"]]
                by_path: dict[str, list[dict]] = {}
                for it in items:
                    by_path.setdefault(urlsplit(it.get("url", "")).path, []).append(it)
                found = [p for p in truth if p in by_path]
                pairs = [(prediction(by_path[p][0].get("title") or "", by_path[p][0].get("body") or "", True)
                          if p in by_path else "", f"{title}\n{body}") for p, (title, body) in truth.items()]
                extra = sorted(p for p in by_path if p not in truth)
                dupes = sum(len(v) - 1 for v in by_path.values())
                pages = [int(r["stats"].get("newsstemmer/pages", 0)) for r in res["results"]]
                print(f"| {name} {k + 1} | {n} | {len(items)} | {len(found)} of {len(truth)} | {len(extra)}"
                      f"{' (' + ', '.join(extra[:6]) + ')' if extra else ''} | {dupes} | {evaluate(pairs).f1:.4f} "
                      f"| {', '.join(map(str, pages))} |", flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_data_option(ap)
    ap.add_argument("--datasets", default="big9-05,big9-09,cleanportal")
    ap.add_argument("--no-dragnet", action="store_true", help="leave out the dragnet sites with ≥ 5 pages")
    ap.add_argument("--runs", type=int, default=2, help="runs of 1 and of 2 workers, alternating (default 2)")
    ap.add_argument("--min-pages", type=int, default=10, help="NEWSSTEMMER_MIN_PAGES (default 10)")
    ap.add_argument("--kill-at", type=float, default=0.4, help="share of the pages emitted before the kill")
    ap.add_argument("--timeout", type=float, default=300, help="seconds per run")
    ap.add_argument("--keep", metavar="DIR", help="keep the runs' folders under DIR")
    ap.add_argument("--json", metavar="FILE", help="write the figures as JSON")
    ap.add_argument("--demo", action="store_true", help="the bundled demo site: what the feed holds, 1 and 2 workers")
    args = ap.parse_args(argv)
    if shutil.which("redis-server") is None:
        sys.exit("error: redis-server not found: apt-get install redis-server (Debian package)")
    if args.demo:
        work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="ns-scaleout-demo-"))
        try:
            demo_runs(args, work)
        finally:
            if not args.keep:
                shutil.rmtree(work, ignore_errors=True)
        return 0
    entries = load_manifest(data_dir(args.data))
    names = [d.strip() for d in args.datasets.split(",") if d.strip()]
    sites = dataset_sites(entries, names, not args.no_dragnet)
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="ns-scaleout-"))
    work.mkdir(parents=True, exist_ok=True)
    # non-article pages emitted too (with their reason): every page accounts for itself in the feeds
    settings = {"NEWSSTEMMER_MIN_PAGES": str(args.min_pages), "NEWSSTEMMER_MAX_DEPTH": "1",
                "NEWSSTEMMER_INCLUDE_NON_ARTICLES": "True",
                "NEWSSTEMMER_WORKER_TIMEOUT": "5", "CONCURRENT_REQUESTS": "16"}
    servers: list[SiteServer] = []
    hosts = loopback_hosts(False)
    rows = []
    try:
        for ds, site, es in sites:
            s = SiteServer(ds, site, es, next(hosts))
            s.start()
            servers.append(s)
        urls = [s.base_url + "/" for s in servers]
        total = sum(len(s.paths) for s in servers)
        print(f"{len(servers)} sites, {total} pages; work folder {work}", file=sys.stderr, flush=True)
        with redis_server(work / "redis") as url:
            rows.append(score(run("single", work, urls, None, 1, settings, args.timeout), servers))
            rows.append(score(run("single-again", work, urls, None, 1, settings, args.timeout), servers))
            for k in range(args.runs):
                for n in (1, 2):
                    rows.append(score(run(f"{n}w-{k + 1}", work, urls, url, n, settings, args.timeout), servers))
            rows.append(score(run("4w", work, urls, url, 4, settings, args.timeout), servers))
            rows.append(score(run("kill", work, urls, url, 2, settings, args.timeout, args.kill_at, total), servers))
    finally:
        for s in servers:
            s.stop()
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    report(rows, len(servers))
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2), encoding="utf-8")
    return 0


def report(rows: list[dict[str, Any]], n_sites: int) -> None:
    single = rows[0]
    print(f"## Scale-out: {n_sites} loopback sites, {single['pages']} pages\n")
    print("| run | workers | emitted | duplicates | F1 | ΔF1 vs single | sites learned (twice) / with patterns | rounds "
          "| recovered | pages | crawl s | pages/s | pages per worker | CPU ms/page |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['name']} | {r['workers']}{' + 1' if r['killed_after_items'] is not None else ''} "
              f"| {r['emitted_share']:.1%} | {r['duplicates']} ({r['duplicate_share']:.1%}) | {r['f1']:.4f} "
              f"| {r['f1'] - single['f1']:+.4f} | {r['sites_learned']} ({r['learned_twice']}) / {r['sites_with_patterns']} "
              f"| {r['learning_rounds']} | {r['recovered']} | {r['crawled']} | {r['span_s']:.1f} "
              f"| {r['pages_per_s']:.1f} | {', '.join(map(str, r['per_worker_pages']))} | {r['cpu_ms_per_page']:.0f} |")
    one = [r["pages_per_s"] for r in rows if r["name"].startswith("1w-")]
    two = [r["pages_per_s"] for r in rows if r["name"].startswith("2w-")]
    four = [r["pages_per_s"] for r in rows if r["name"] == "4w"]
    if one and two:
        m1, m2 = statistics.median(one), statistics.median(two)
        print(f"\nThroughput (medians): 1 worker {m1:.1f} pages/s, 2 workers {m2:.1f} "
              f"(×{m2 / m1:.2f}, target ≥ 1.6)" + (f", 4 workers {four[0]:.1f} (×{four[0] / m1:.2f})" if four else ""))
    shared = [r for r in rows if not r["name"].startswith("single")]
    print("Targets: emitted ≥ 98%: " + ("met" if all(r["emitted_share"] >= 0.98 for r in shared) else "NOT met")
          + "; duplicates ≤ 2%: " + ("met" if all(r["duplicate_share"] <= 0.02 for r in shared) else "NOT met")
          + "; F1 ±0.005: " + ("met" if all(abs(r["f1"] - single["f1"]) <= 0.005 for r in shared) else "NOT met")
          + "; each site learned once: "
          + ("met" if all(not r["learned_twice"] for r in shared) else "NOT met")
          + f" (the single crawl run again: ΔF1 {rows[1]['f1'] - single['f1']:+.4f}: the crawl's own spread)")
    print(f"Machine: {os.cpu_count()} cores, load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} at the end "
          "(other work on the machine lowers the throughput ratio; CPU ms/page is the workers' own CPU, start-up "
          "included)")
    if any(r["tracebacks"] for r in rows):
        print("Tracebacks in the logs: " + ", ".join(f"{r['name']} {r['tracebacks']}" for r in rows if r["tracebacks"]))


if __name__ == "__main__":
    sys.exit(main())
