#!/usr/bin/env python3
"""The Scrapy crawl end to end: throughput with newsstemmer on and off, and its quality.

1. **Demo throughput.** The bundled demo site (``newsstemmer.demo``) is crawled with
   ``scrapy crawl news`` in a subprocess, alternately with ``NEWSSTEMMER_ENABLED=False``
   (baseline: raw pages to the feed) and with newsstemmer on, ``--runs`` times each,
   unthrottled, each run with fresh state and pattern folders.  Pages/s come from the
   crawl's own stats (pages handed over by the spider / ``elapsed_time_seconds``).
   The articles of the enabled runs are scored against the site's truth (shingle F1).
2. **Dataset crawl.** Every site of the evaluation data is served on loopback (an index
   page linking each article with its headline, the articles' raw bytes), all sites are
   crawled in one ``scrapy crawl news`` run with ``NEWSSTEMMER_MIN_PAGES=5``, and the
   emitted articles are scored per dataset against the gold texts, beside the
   transductive figures of ``benchmarks/quality.py`` (run here too).

    python benchmarks/crawl.py [--runs 3] [--datasets big9-05,big9-09,cleanportal]
                               [--dragnet] [--skip-demo] [--skip-datasets] [--per-site]
                               [--same-host] [--demo-server own|spider] [--keep DIR]
                               [--json FILE] [--data DIR] [--profile]

``--profile`` adds, for the demo crawls, the CPU time of the crawl's steps per thread
(``benchmarks/crawl_profile.py``): medians off and on, and the reactor thread's CPU
time off/on of each pair, a steadier figure than pages/s on a loaded machine.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

if __name__ == "__main__" and not __package__:  # run as a file: import from the checkout's root
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from benchmarks.crawl_sites import DRAGNET_MIN_PAGES, SiteServer, dataset_sites, loopback_hosts
from benchmarks.shared import REPO_ROOT, add_data_option, data_dir, load_manifest, prediction

from newsstemmer.demo import DemoServer, build_site
from newsstemmer.evaluation import evaluate
from newsstemmer.layout.learning import site_of

DEFAULT_DATASETS = ("big9-05", "big9-09", "cleanportal")

#: Unthrottled: what is measured is the crawler, not AutoThrottle's politeness.
FAST = {
    "AUTOTHROTTLE_ENABLED": "False",
    "DOWNLOAD_DELAY": "0",
    "CONCURRENT_REQUESTS": "16",
    "CONCURRENT_REQUESTS_PER_DOMAIN": "16",
    "TELNETCONSOLE_ENABLED": "False",
    "LOG_LEVEL": "INFO",  # the final stats dump is read from the log
}

TARGET_RATIO = 0.85  # issue #11 (issue #3 asked for 0.8)
TARGET_DEMO_F1 = 0.98


# --------------------------------------------------------------------------------------
# Running one crawl


@dataclass
class Crawl:
    """One finished ``scrapy crawl news`` subprocess."""

    folder: Path
    returncode: int
    wall_s: float  # the subprocess, interpreter start-up included
    cpu_s: float  # user + system CPU of the subprocess, start-up included
    stats: dict[str, Any]
    items: list[dict]

    @property
    def elapsed(self) -> float:
        """Crawl start to finish, from the crawl's own stats."""
        return float(self.stats.get("elapsed_time_seconds") or 0.0)


_STAT_RE = re.compile(r"'([^']+)': (-?\d+(?:\.\d+)?(?:e-?\d+)?|'[^']*')")


def parse_stats(log: str) -> dict[str, Any]:
    """Numbers and strings of the last "Dumping Scrapy stats" block of a crawl log."""
    if "Dumping Scrapy stats:" not in log:
        return {}
    block = log.rsplit("Dumping Scrapy stats:", 1)[1].split("}", 1)[0]
    out: dict[str, Any] = {}
    for name, value in _STAT_RE.findall(block):
        if value.startswith("'"):
            out[name] = value.strip("'")
        elif re.fullmatch(r"-?\d+", value):
            out[name] = int(value)
        else:
            out[name] = float(value)
    return out


def run_crawl(folder: Path, urls: list[str], settings: dict[str, str], timeout: float) -> Crawl:
    """``scrapy crawl news`` from a fresh project folder (a copy of scrapy.cfg), fresh state."""
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(REPO_ROOT / "scrapy.cfg", folder / "scrapy.cfg")
    out = folder / "items.jsonl"
    cmd = [sys.executable, "-m", "scrapy", "crawl", "news", "-O", str(out)]
    if urls:
        cmd += ["-a", "urls=" + ",".join(urls)]
    every = {
        **FAST,
        "NEWSSTEMMER_STATE_DIR": str(folder / "state"),
        "NEWSSTEMMER_PATTERNS_DIR": str(folder / "patterns"),
        **settings,
    }
    for name, value in every.items():
        cmd += ["-s", f"{name}={value}"]
    env = dict(os.environ)
    # the checkout's root: its newsstemmer, and crawl_profile's extension (--profile)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO_ROOT), env.get("PYTHONPATH")) if p)
    env.pop("SCRAPY_SETTINGS_MODULE", None)  # scrapy.cfg of the folder decides
    ru0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    with open(folder / "crawl.log", "w", encoding="utf-8") as log:
        proc = subprocess.run(cmd, cwd=folder, env=env, stdout=log, stderr=subprocess.STDOUT, timeout=timeout)
    wall = time.perf_counter() - t0
    ru1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (ru1.ru_utime - ru0.ru_utime) + (ru1.ru_stime - ru0.ru_stime)
    text = (folder / "crawl.log").read_text(encoding="utf-8", errors="replace")
    items = []
    if out.exists():
        with open(out, encoding="utf-8") as fh:
            items = [json.loads(line) for line in fh if line.strip()]
    crawl = Crawl(folder, proc.returncode, wall, cpu, parse_stats(text), items)
    if proc.returncode != 0 or not crawl.stats:
        tail = "\n".join(text.splitlines()[-20:])
        print(f"warning: crawl in {folder} exited {proc.returncode}; log tail:\n{tail}", file=sys.stderr)
    return crawl


def best_items(items: list[dict]) -> tuple[dict[str, dict], int]:
    """One item per URL (an article item preferred over others); and the number of duplicate URLs."""
    out: dict[str, dict] = {}
    dupes = 0
    for it in items:
        url = it.get("url", "")
        if url in out:
            dupes += 1
            if out[url].get("is_article") or not it.get("is_article"):
                continue
        out[url] = it
    return out, dupes


def is_article_item(it: dict) -> bool:
    """An item a learned layout made into an article (single-page fallbacks are not)."""
    return bool(it.get("pattern")) and it.get("is_article") is not False


def is_unmatched_item(it: dict) -> bool:
    """An item no layout matched (emitted with the single-page method's body, or none)."""
    return not it.get("pattern")


def fmt(x: float, nd: int = 3) -> str:
    return f"{x:.{nd}f}"


# --------------------------------------------------------------------------------------
# 1. Demo throughput


def score_demo(crawl: Crawl, site: Any) -> dict[str, Any]:
    """Articles of an enabled demo crawl against the site's truth, matched by URL path."""
    truth = site.truth()
    by_path: dict[str, dict] = {}
    items, dupes = best_items(crawl.items)
    for url, it in items.items():
        by_path[unquote(urlsplit(url).path) or "/"] = it
    pairs = []
    missing = 0
    for path, (title, body) in truth.items():
        it = by_path.get(path)
        if it is None:
            missing += 1
            pairs.append(("", f"{title}\n{body}"))
        else:
            pairs.append((prediction(it.get("title") or "", it.get("body") or "", True), f"{title}\n{body}"))
    score = evaluate(pairs)
    wrong: dict[str, int] = {}
    for path, it in by_path.items():
        if is_article_item(it) and path not in truth:
            page = site.get(path)
            kind = page.kind if page is not None else "unknown"
            wrong[kind] = wrong.get(kind, 0) + 1
    return {
        "f1": score.f1,
        "precision": score.precision,
        "recall": score.recall,
        "empty": score.empty,
        "articles": sum(1 for it in items.values() if is_article_item(it)),
        "true_articles_emitted": sum(1 for p in truth if p in by_path and is_article_item(by_path[p])),
        "unmatched": sum(1 for it in items.values() if is_unmatched_item(it)),
        "missing": missing,
        "index_as_article": wrong.get("index", 0),
        "static_as_article": wrong.get("static", 0),
        "other_as_article": sum(v for k, v in wrong.items() if k not in ("index", "static")),
        "duplicate_urls": dupes,
    }


def demo_benchmark(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    site = build_site()
    load = machine_load()
    server = None
    urls: list[str] = []
    if args.demo_server == "own":
        server = DemoServer(site)
        urls = [server.start() + "/"]
    rows = []
    try:
        for k in range(args.runs):
            for mode in ("off", "on"):
                settings = dict(args.set) if mode == "on" else {"NEWSSTEMMER_ENABLED": "False"}
                name = f"demo-{k + 1}-{mode}"
                profile = work / f"{name}.profile.json"
                if args.profile:
                    settings.update(EXTENSIONS=json.dumps({"benchmarks.crawl_profile.CrawlProfile": 0}),
                                    CRAWL_PROFILE_OUT=str(profile))
                print(f"[demo] run {k + 1}/{args.runs}, newsstemmer {mode}", file=sys.stderr, flush=True)
                crawl = run_crawl(work / name, urls, settings, args.timeout)
                st = crawl.stats
                pages = st.get("newsstemmer/pages", 0) if mode == "on" else st.get("item_scraped_count", 0)
                row = {
                    "run": k + 1,
                    "mode": mode,
                    "returncode": crawl.returncode,
                    "pages": pages,
                    "responses": st.get("downloader/response_count", 0),
                    "elapsed_s": crawl.elapsed,
                    "wall_s": crawl.wall_s,
                    "cpu_s": crawl.cpu_s,
                    "pages_per_s": pages / crawl.elapsed if crawl.elapsed else 0.0,
                    "items": len(crawl.items),
                    "non_articles": st.get("newsstemmer/non_articles", 0),
                    "learning_rounds": st.get("newsstemmer/learning_rounds", 0),
                    "left_in_buffer": st.get("newsstemmer/pages_left_in_buffer", 0),
                    "failed": st.get("newsstemmer/pages_failed", 0),
                }
                if mode == "on":
                    row.update(score_demo(crawl, site))
                if args.profile and profile.exists():
                    row["profile"] = json.loads(profile.read_text(encoding="utf-8"))
                rows.append(row)
    finally:
        if server is not None:
            server.stop()
    off = [r["pages_per_s"] for r in rows if r["mode"] == "off"]
    on = [r["pages_per_s"] for r in rows if r["mode"] == "on"]
    f1s = [r["f1"] for r in rows if r["mode"] == "on"]
    cpu_off = [r["cpu_s"] for r in rows if r["mode"] == "off"]
    cpu_on = [r["cpu_s"] for r in rows if r["mode"] == "on"]
    # each on run against the off run just before it: load that drifts during the benchmark
    # moves both runs of a pair alike
    pairs = [b / a for a, b in zip(off, on) if a]
    summary = {
        "off_mean": statistics.mean(off),
        "on_mean": statistics.mean(on),
        "off_median": statistics.median(off),
        "on_median": statistics.median(on),
        "ratio_mean": statistics.mean(on) / statistics.mean(off),
        "ratio_median": statistics.median(on) / statistics.median(off),
        "ratio_pairs_median": statistics.median(pairs),
        "ratio_pairs_min": min(pairs),
        "ratio_pairs_max": max(pairs),
        "cpu_off_median": statistics.median(cpu_off),
        "cpu_on_median": statistics.median(cpu_on),
        "cpu_ratio": statistics.median(cpu_off) / statistics.median(cpu_on),
        "f1_mean": statistics.mean(f1s),
        "f1_min": min(f1s),
        "truth_articles": len(site.truth()),
        "site_pages": len(site),
    }
    return {"runs": rows, "summary": summary, "server": args.demo_server, "load": load}


def print_profile(runs: list[dict[str, Any]]) -> None:
    """Medians of the per-step CPU times of the demo crawls (``--profile``)."""
    off = [r["profile"] for r in runs if r["mode"] == "off" and "profile" in r]
    on = [r["profile"] for r in runs if r["mode"] == "on" and "profile" in r]
    if not off or not on:
        return
    med = lambda xs: statistics.median(xs) if xs else 0.0  # noqa: E731
    pairs = [a["reactor_cpu_s"] / b["reactor_cpu_s"] for a, b in zip(off, on) if b["reactor_cpu_s"]]
    print("### CPU time per step (`--profile`), medians over the runs\n")
    print(f"Reactor thread CPU, off / on: {med([p['reactor_cpu_s'] for p in off]):.3f} / "
          f"{med([p['reactor_cpu_s'] for p in on]):.3f} s; off/on of each pair: median {med(pairs):.3f} "
          f"[{min(pairs):.3f}–{max(pairs):.3f}]; best off / best on: "
          f"{min(p['reactor_cpu_s'] for p in off) / min(p['reactor_cpu_s'] for p in on):.3f}. "
          f"Garbage collector, off / on: {med([p['gc_s'] for p in off]):.3f} / {med([p['gc_s'] for p in on]):.3f} s.\n")
    print("| thread:step | off s | on s | calls (on) |")
    print("|---|---:|---:|---:|")
    steps = {k for p in off + on for k in p["steps"]}
    get = lambda ps, k, i: med([p["steps"].get(k, [0.0, 0])[i] for p in ps])  # noqa: E731
    for k in sorted(steps, key=lambda k: -get(on, k, 0)):
        print(f"| {k} | {get(off, k, 0):.3f} | {get(on, k, 0):.3f} | {get(on, k, 1):.0f} |")
    print("\nthread_time of each step (CPU of its own thread; steps nest: extract_page includes the "
          "page_blocks it calls, spider.parse the link reading); reactor: the main thread, worker: "
          "Twisted's thread pool.\n")


def machine_load() -> str:
    try:
        one, five, _ = os.getloadavg()
    except OSError:
        return f"{os.cpu_count()} CPUs"
    return f"{os.cpu_count()} CPUs, load average {one:.2f} (1 min) / {five:.2f} (5 min) at start"


def print_demo(res: dict[str, Any]) -> None:
    s = res["summary"]
    where = ("served by this script (another process than the crawl)" if res["server"] == "own"
             else "started by the spider inside the crawl process")
    print("## Demo crawl: throughput with newsstemmer off / on\n")
    print(f"Demo site: {s['site_pages']} pages, {s['truth_articles']} true articles, {where}. "
          f"Unthrottled (16 concurrent), fresh state each run. Machine: {res['load']}.\n")
    print("| run | newsstemmer | pages | responses | crawl s | pages/s | process s | CPU s | items | articles "
          "| non-articles | unmatched | index→article | static→article | missing | F1 | P | R |")
    print("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in res["runs"]:
        if r["mode"] == "on":
            extra = (f"{r['articles']} | {r['non_articles']} | {r['unmatched']} | {r['index_as_article']} "
                     f"| {r['static_as_article']} | {r['missing']} | {fmt(r['f1'])} | {fmt(r['precision'])} "
                     f"| {fmt(r['recall'])}")
        else:
            extra = "– | – | – | – | – | – | – | – | –"
        print(f"| {r['run']} | {r['mode']} | {r['pages']} | {r['responses']} | {r['elapsed_s']:.2f} "
              f"| {r['pages_per_s']:.1f} | {r['wall_s']:.2f} | {r['cpu_s']:.2f} | {r['items']} | {extra} |")
    ok_ratio = "met" if s["ratio_mean"] >= TARGET_RATIO else "NOT met"
    ok_f1 = "met" if s["f1_min"] >= TARGET_DEMO_F1 else "NOT met"
    print()
    print("| measure | value | target |")
    print("|---|---:|---|")
    print(f"| pages/s off (mean / median) | {s['off_mean']:.1f} / {s['off_median']:.1f} | |")
    print(f"| pages/s on (mean / median) | {s['on_mean']:.1f} / {s['on_median']:.1f} | |")
    print(f"| ratio on/off (of means / of medians) | {s['ratio_mean']:.2f} / {s['ratio_median']:.2f} "
          f"| ≥ {TARGET_RATIO} ({ok_ratio}) |")
    print(f"| ratio on/off of each run to the off run before it (median [min–max]) | "
          f"{s['ratio_pairs_median']:.2f} [{s['ratio_pairs_min']:.2f}–{s['ratio_pairs_max']:.2f}] | |")
    print(f"| CPU s of the crawl process, off / on (medians; start-up included) | {s['cpu_off_median']:.2f} / "
          f"{s['cpu_on_median']:.2f} (off/on {s['cpu_ratio']:.2f}) | |")
    print(f"| shingle F1 of the enabled crawls (mean / min) | {fmt(s['f1_mean'])} / {fmt(s['f1_min'])} "
          f"| ≥ {TARGET_DEMO_F1} ({ok_f1}) |")
    print("\npages: HTML pages the spider handed over (off: items written; on: newsstemmer/pages); "
          "responses: downloader responses (robots.txt and, when on, newsstemmer's internal data: "
          "requests included); crawl s: elapsed_time_seconds of the crawl's stats (learning at the end "
          "included); process s: the whole subprocess; CPU s: its user + system CPU time (less sensitive to "
          "other load than the wall times; the demo server's CPU counts only when the spider starts it). articles: emitted items with a layout applied "
          "and is_article; unmatched: emitted items no layout matched; index/static→article: such "
          "items whose page is not an article of the truth; missing: true articles with no item. "
          "F1 over the true articles (missing = empty prediction), title + \"\\n\" + body.\n")


# --------------------------------------------------------------------------------------
# 2. Dataset crawl


def quality_baseline(args: argparse.Namespace, names: list[str], work: Path) -> tuple[str, dict]:
    """Run benchmarks/quality.py on the same datasets; its printed tables and its JSON."""
    out = work / "quality.json"
    cmd = [sys.executable, str(Path(__file__).with_name("quality.py")), "--datasets", ",".join(names),
           "--json", str(out)]
    if args.data:
        cmd += ["--data", args.data]
    print("[quality] benchmarks/quality.py (transductive)", file=sys.stderr, flush=True)
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout * 3)
    if proc.returncode != 0:
        print(f"warning: quality.py exited {proc.returncode}:\n{proc.stderr[-2000:]}", file=sys.stderr)
        return proc.stdout, {}
    return proc.stdout, json.loads(out.read_text(encoding="utf-8"))["datasets"]


def dataset_benchmark(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    root = data_dir(args.data)
    entries = load_manifest(root)
    names = [d.strip() for d in args.datasets.split(",") if d.strip()]
    known = {e.dataset for e in entries}
    unknown = [d for d in names if d not in known]
    if unknown:
        sys.exit(f"error: unknown dataset(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
    sites = dataset_sites(entries, names, args.dragnet)
    all_names = list(dict.fromkeys(ds for ds, _, _ in sites))

    servers: list[SiteServer] = []
    hosts = loopback_hosts(args.same_host)
    try:
        for ds, site, es in sites:
            s = SiteServer(ds, site, es, next(hosts), id_paths=args.id_paths)
            s.start()
            servers.append(s)
        keys = [site_of(s.base_url) for s in servers]
        collisions = len(keys) - len(set(keys))
        print(f"[datasets] {len(servers)} sites, {sum(len(s.entries) for s in servers)} pages; "
              f"one crawl", file=sys.stderr, flush=True)
        settings = {"NEWSSTEMMER_MIN_PAGES": str(args.min_pages), "NEWSSTEMMER_MAX_DEPTH": str(args.max_depth)}
        crawl = run_crawl(work / "datasets", [s.base_url + "/" for s in servers], settings, args.timeout * 3)
    finally:
        for s in servers:
            s.stop()

    items, dupes = best_items(crawl.items)
    by_origin = {urlsplit(s.base_url).netloc: s for s in servers}
    pairs: dict[str, list[tuple[str, str]]] = {ds: [] for ds in all_names}
    site_pairs: dict[tuple[str, str], list[tuple[str, str]]] = {}
    counts: dict[str, dict[str, int]] = {
        ds: {"sites": 0, "pages": 0, "articles": 0, "unmatched": 0, "missing": 0, "index_as_article": 0}
        for ds in all_names
    }
    index_items = 0
    for s in servers:
        c = counts[s.dataset]
        c["sites"] += 1
        sp = site_pairs.setdefault((s.dataset, s.site), [])
        for path, e in s.paths.items():
            it = items.get(s.base_url + path)
            gold = e.gold()
            c["pages"] += 1
            if it is None:
                c["missing"] += 1
                pred = ""
            else:
                if is_article_item(it):
                    c["articles"] += 1
                elif is_unmatched_item(it):
                    c["unmatched"] += 1
                pred = prediction(it.get("title") or "", it.get("body") or "", e.gold_has_title)
            pairs[s.dataset].append((pred, gold))
            sp.append((pred, gold))
        front = items.get(s.base_url + "/") or items.get(s.base_url)
        if front is not None:
            index_items += 1
            if is_article_item(front):
                c["index_as_article"] += 1
    foreign = [u for u in items if urlsplit(u).netloc not in by_origin]
    sites_in_output = sorted({it.get("site", "") for it in crawl.items})

    quality_out, quality = quality_baseline(args, all_names, work)
    results = {}
    for ds in all_names:
        score = evaluate(pairs[ds]).as_dict()
        results[ds] = {**counts[ds], **score, "transductive": quality.get(ds, {})}
    per_site = {
        f"{ds}/{site}": {**evaluate(p).as_dict(),
                         "transductive_f1": quality.get(ds, {}).get("per_site", {}).get(site, {}).get("f1")}
        for (ds, site), p in site_pairs.items()
    }
    st = crawl.stats
    return {
        "datasets": results,
        "per_site": per_site,
        "quality_stdout": quality_out,
        "crawl": {
            "returncode": crawl.returncode,
            "elapsed_s": crawl.elapsed,
            "wall_s": crawl.wall_s,
            "pages": st.get("newsstemmer/pages", 0),
            "responses": st.get("downloader/response_count", 0),
            "items": len(crawl.items),
            "index_items": index_items,
            "duplicate_urls": dupes,
            "items_outside_served_sites": len(foreign),
            "learning_rounds": st.get("newsstemmer/learning_rounds", 0),
            "sites_learned": st.get("newsstemmer/sites_learned", 0),
            "pattern_files": len(list((crawl.folder / "patterns").glob("*.json"))),
            "non_articles": st.get("newsstemmer/non_articles", 0),
            "pages_failed": st.get("newsstemmer/pages_failed", 0),
            "http_errors": st.get("newsstemmer/http_errors", 0),
            "left_in_buffer": st.get("newsstemmer/pages_left_in_buffer", 0),
            "site_keys": len(set(keys)),
            "servers": len(servers),
            "site_key_collisions": collisions,
            "sites_in_output": len(sites_in_output),
            "same_host": args.same_host,
            "min_pages": args.min_pages,
            "max_depth": args.max_depth,
        },
    }


def print_datasets(res: dict[str, Any], per_site: bool) -> None:
    c = res["crawl"]
    print("## Dataset crawl: every site served on loopback, one `scrapy crawl news` run\n")
    hosts = "all on 127.0.0.1, one port each" if c["same_host"] else "one loopback address per site (127.0.0.2, …)"
    print(f"{c['servers']} sites ({hosts}), NEWSSTEMMER_MIN_PAGES={c['min_pages']}, "
          f"NEWSSTEMMER_MAX_DEPTH={c['max_depth']}, unthrottled. Crawl: {c['pages']} pages, {c['responses']} "
          f"responses in {c['elapsed_s']:.2f} s ({c['wall_s']:.2f} s with start-up); {c['items']} items "
          f"({c['index_items']} of them the served index pages, {c['duplicate_urls']} duplicate URLs); "
          f"{c['learning_rounds']} learning rounds, {c['pattern_files']} pattern files, "
          f"{c['non_articles']} non-articles, {c['pages_failed']} pages failed, {c['left_in_buffer']} pages "
          f"left in the buffer; site keys: {c['site_keys']} for {c['servers']} servers, "
          f"{c['sites_in_output']} in the output.\n")
    if c["site_key_collisions"]:
        print(f"**Site-key collision:** {c['site_key_collisions']} servers share a site key with another "
              "(newsstemmer.layout.learning.site_of drops the port), so their pages are learned as one site.\n")
    print("| dataset | sites | pages | articles | unmatched | missing | index→article | F1 | P | R "
          "| transductive F1 | P | R | ΔF1 |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for ds, r in res["datasets"].items():
        t = r["transductive"]
        tf = (f"{fmt(t['f1'])} | {fmt(t['precision'])} | {fmt(t['recall'])} | {r['f1'] - t['f1']:+.3f}"
              if t else "– | – | – | –")
        print(f"| {ds} | {r['sites']} | {r['pages']} | {r['articles']} | {r['unmatched']} | {r['missing']} "
              f"| {r['index_as_article']} | {fmt(r['f1'])} | {fmt(r['precision'])} | {fmt(r['recall'])} | {tf} |")
    print("\narticles: gold pages emitted with an article layout applied; unmatched: emitted with no layout "
          "(body from the single-page method); missing: no item (e.g. matched a non-article layout); index→article: the served "
          "index page emitted as an article of a layout. Prediction title + \"\\n\" + body where the gold has the "
          "headline; a missing page counts as empty. Transductive: benchmarks/quality.py (learn from all "
          "pages, then extract them), same pages.\n")
    if per_site:
        print("| site | pages | empty | F1 | P | R | transductive F1 |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for name, r in res["per_site"].items():
            tf = fmt(r["transductive_f1"]) if r["transductive_f1"] is not None else "–"
            print(f"| {name} | {r['pages']} | {r['empty']} | {fmt(r['f1'])} | {fmt(r['precision'])} "
                  f"| {fmt(r['recall'])} | {tf} |")
        print()
    print("### benchmarks/quality.py, as it prints\n")
    print(res["quality_stdout"].rstrip())
    print()


# --------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_data_option(ap)
    ap.add_argument("--runs", type=int, default=3, help="demo crawls per mode, alternating off/on (default 3)")
    ap.add_argument("--demo-server", choices=("own", "spider"), default="own",
                    help="own: this script serves the demo site (default); spider: the spider starts it "
                         "itself, in the crawl's process (no urls)")
    ap.add_argument("--datasets", default=",".join(DEFAULT_DATASETS), help="comma-separated dataset names")
    ap.add_argument("--dragnet", action="store_true", help=f"add dragnet sites with ≥ {DRAGNET_MIN_PAGES} pages")
    ap.add_argument("--min-pages", type=int, default=5, help="NEWSSTEMMER_MIN_PAGES of the dataset crawl")
    ap.add_argument("--max-depth", type=int, default=1,
                    help="NEWSSTEMMER_MAX_DEPTH of the dataset crawl (default 1: index → articles; the "
                         "articles' own relative links point at pages that are not served)")
    ap.add_argument("--same-host", action="store_true",
                    help="serve every dataset site on 127.0.0.1 (distinct ports) instead of distinct addresses")
    ap.add_argument("--set", metavar="NAME=VALUE", action="append", default=[],
                    type=lambda s: tuple(s.split("=", 1)) if "=" in s else ap.error(f"--set {s}: NAME=VALUE"),
                    help="a Scrapy setting for the demo crawls with newsstemmer on (repeatable), "
                         "e.g. NEWSSTEMMER_SIDECAR=False")
    ap.add_argument("--id-paths", action="store_true",
                    help="serve every dataset page at /a/<id>.html (before session 22: not at its real URL's path)")
    ap.add_argument("--skip-demo", action="store_true")
    ap.add_argument("--skip-datasets", action="store_true")
    ap.add_argument("--per-site", action="store_true", help="also a per-site table of the dataset crawl")
    ap.add_argument("--timeout", type=float, default=120, help="seconds per demo crawl (dataset crawl: 3×)")
    ap.add_argument("--keep", metavar="DIR", help="keep crawl folders (logs, items, patterns) under DIR")
    ap.add_argument("--json", metavar="FILE", help="write every figure as JSON")
    ap.add_argument("--profile", action="store_true",
                    help="demo crawls: CPU time per step and thread (benchmarks/crawl_profile.py)")
    args = ap.parse_args(argv)
    if args.runs < 1:
        ap.error("--runs must be at least 1")

    t0 = time.perf_counter()
    if args.keep:
        work = Path(args.keep)
        work.mkdir(parents=True, exist_ok=True)
        cleanup = None
    else:
        cleanup = tempfile.TemporaryDirectory(prefix="newsstemmer-crawl-bench-")
        work = Path(cleanup.name)
    out: dict[str, Any] = {}
    try:
        if not args.skip_demo:
            out["demo"] = demo_benchmark(args, work)
            print_demo(out["demo"])
            print_profile(out["demo"]["runs"])
        if not args.skip_datasets:
            out["datasets"] = dataset_benchmark(args, work)
            print_datasets(out["datasets"], args.per_site)
    finally:
        if cleanup is not None:
            cleanup.cleanup()
    out["elapsed_s"] = round(time.perf_counter() - t0, 2)
    print(f"done in {out['elapsed_s']:.1f}s", file=sys.stderr)
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1, ensure_ascii=False, default=str), encoding="utf-8")
        print(f"figures written to {args.json}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
