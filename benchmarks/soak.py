#!/usr/bin/env python3
"""Soak: scheduled monitoring of N demo sites day after day with one state folder (issue #26).

Each site is the demo site of its own seed (``newsstemmer.demo.DemoDays`` with
``Schedule.long``: ``--new-per-day`` new and ``--updates-per-day`` updated articles a
day, no redesign unless ``--redesign-day``), served by its own ``DemoServer`` on a fixed
loopback port (site key ``127.0.0.1_PORT``) that switches to the next day's site.  Each
day is one ``scrapy crawl news`` over all sites (FAST settings: unthrottled) with the same
``NEWSSTEMMER_STATE_DIR`` and patterns folder, run under a simulated clock (libfaketime,
Debian package ``faketime``: 07:00 UTC of the day's edition, one day after the last run)
so that what the crawl keeps by age (recheck times, retention) ages as it would in
months; ``--no-clock`` runs on the real clock.

Printed per day: pages fetched (200 responses; requests in brackets; neither counts the crawl's
internal ``data:`` emit requests, ``newsstemmer/emit_requests``), articles sent
(new + updated), repeats (unchanged articles sent again), misses (new articles of the
day not sent, updated ones not sent as updates), wall time of the crawl process (its CPU time, user + system, in ``--json`` and on stderr),
its peak RSS (the largest of the crawl and its second process, measured by a small launcher
process: see :data:`LAUNCHER`), and the state folder's bytes per store
(``newsstemmer.crawl.storage.retention.census``).
At the end: the issue's targets, met or not, with the numbers.

``--redis``: two workers share a throwaway ``redis-server`` each day (each with its
own state and patterns folders, kept from day to day); Redis ``used_memory`` is
printed per day.

``--keep DIR --resume``: a run in parts (a year does not fit in one session).  A kept folder
records its run (:data:`RUN_FILE`: the arguments that make the run, the sites' ports, whose
numbers are in the state's site keys, and every finished day's figures); ``--resume``
continues from the day after the last finished one up to ``--days``, the demo sites
taken up at that day from their journals (``DIR/demo/site-SEED.jsonl``: each day's new articles'
ids, dates, headlines and the paths it updated; the pages are made on request from the seed, so
the demo's memory does not grow with the pages served; the articles' refs are rows of
``DIR/demo/site-SEED.refs.sqlite``, made again from the journal; a damaged journal stops the
resume with its file and line), and ``--json`` gets every day's figures,
the earlier parts' too.  A day stopped half-way is run again from the state it started from (kept in
``DIR/day-start`` while a day runs).  Not with ``--redis`` (its server keeps nothing).

    python benchmarks/soak.py [--sites 5] [--days 60] [--new-per-day 50] [--updates-per-day 10]
                              [--redesign-day D] [--seed S] [--redis] [--keep DIR] [--keep-feeds]
                              [--json FILE] [--no-clock] [--timeout S] [--set NAME=VALUE ...] [--resume]

Figures and what a year needs: ``benchmarks/README.md``, "Soak: months of monitoring".
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

if __name__ == "__main__" and not __package__:  # run as a file: import from the checkout's root
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from newsstemmer.crawl.storage.redis_keys import Keys  # noqa: E402
from newsstemmer.crawl.storage.redis_retention import redis_census  # noqa: E402
from newsstemmer.crawl.storage.retention import census  # noqa: E402
from newsstemmer.crawl.testing import FAST_SETTINGS, REPO_ROOT, crawl_stats, free_port, redis_server  # noqa: E402
from newsstemmer.demo import DemoServer  # noqa: E402
from newsstemmer.demo.days import Schedule, day_start  # noqa: E402
from newsstemmer.demo.journal import JournalError  # noqa: E402
from newsstemmer.demo.scoring import score_day  # noqa: E402
from newsstemmer.demo.site import DemoDays  # noqa: E402
from newsstemmer.demo.sitemodel import DemoSite  # noqa: E402

#: Column names of the state stores in the table.
STORES = {"linkinfo.sqlite": "anchors", "history.sqlite": "history", "fetchlog.sqlite": "fetchlog",
          "runs.sqlite": "runs", "buffer.sqlite": "buffer", "frontier.sqlite": "frontier", "health.jsonl": "health"}
#: The kept folder's record of its run (``--keep``), what ``--resume`` continues.
RUN_FILE = "soak-run.json"
#: The arguments that make a run: a resumed run must have the same.
RUN_ARGS = ("sites", "new_per_day", "updates_per_day", "redesign_day", "seed", "redis", "no_clock", "settings")
#: The kept folder's copy of the workers' state and patterns as the running day found them.
DAY_START = "day-start"
#: The kept folder's demo journals (``newsstemmer.demo.longrun``: one per site, the days made so far).
DEMO_DIR = "demo"
_FAKETIME_LIBS = ("/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1", "/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1",
                  "/usr/lib/faketime/libfaketime.so.1", "/usr/local/lib/faketime/libfaketime.so.1")


def faketime_lib() -> str | None:
    """The libfaketime library to preload, if installed."""
    return next((p for p in _FAKETIME_LIBS if Path(p).exists()), None)


def clock_env(day: int, lib: str | None, code: Path = REPO_ROOT) -> dict[str, str]:
    """The environment of a crawl process that believes it is 07:00 UTC on ``day``'s edition
    (and imports newsstemmer from the checkout ``code``)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(code), env.get("PYTHONPATH")) if p)
    env.pop("SCRAPY_SETTINGS_MODULE", None)
    if lib:
        when = day_start(day) + dt.timedelta(hours=1)
        env.update(LD_PRELOAD=lib, TZ="UTC", FAKETIME=f"@{when:%Y-%m-%d %H:%M:%S}")  # monotonic faked too: unfaked, sleep() fails (EINVAL)
    return env


def cpu_self() -> float:
    """CPU seconds of this process so far (user + system): the demo sites' making and serving."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def rss_now() -> int:
    """This process's resident memory now, in kB (``VmRSS``; 0 where /proc is not there)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def folder_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) if folder.exists() else 0


def state_bytes(folder: Path) -> dict[str, int]:
    """Bytes per store of a state folder (its ``-wal``/``-shm`` files included) and ``total`` (every file)."""
    out = {STORES.get(c.name, c.name): c.bytes for c in census(folder)} if folder.exists() else {}
    out["total"] = folder_bytes(folder)
    return out


def table_bytes(folder: Path) -> dict[str, list[int]]:
    """``store/table`` -> [rows, bytes of its pages and its indexes' pages] (SQLite's ``dbstat``;
    empty where SQLite is built without it): what a recent article (``articles``, ``urls``,
    ``anchors`` rows) and an archived one (``archived`` rows) cost."""
    import sqlite3

    out: dict[str, list[int]] = {}
    for path in sorted(folder.glob("*.sqlite")):
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            if not conn.execute("SELECT 1 FROM pragma_module_list WHERE name = 'dbstat'").fetchone():
                return {}
            pages = dict(conn.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name"))
            owner = dict(conn.execute("SELECT name, tbl_name FROM sqlite_master WHERE type IN ('table', 'index')"))
            for (table,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall():
                size = sum(b for name, b in pages.items() if owner.get(name) == table)
                rows = conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
                out[f"{path.stem}/{table}"] = [rows, size]
        finally:
            conn.close()
    return out


#: Runs ``argv[2:]``, waits for it and writes its ``wait4`` usage to ``argv[1]`` (JSON), exiting with
#: its exit code.  Linux keeps a process's peak RSS (``ru_maxrss``) across ``exec``: a crawl started
#: by this process directly would report at least this process's own peak, which grows with the
#: demo sites it holds and serves (20 sites × 5 days: 145 → 253 MB, the crawl's own ~110 MB).  A
#: child of this small launcher starts from the launcher's few MB, so its figure is its own.
LAUNCHER = """import json, os, subprocess, sys
proc = subprocess.Popen(sys.argv[2:])
_, status, usage = os.wait4(proc.pid, 0)
with open(sys.argv[1], "w") as out:
    json.dump({"maxrss_kb": usage.ru_maxrss, "cpu_s": usage.ru_utime + usage.ru_stime}, out)
sys.exit(os.waitstatus_to_exitcode(status))
"""


def run_worker(day: int, folder: Path, urls: list[str], settings: dict[str, str], lib: str | None,
               profile: bool = False, code: Path = REPO_ROOT) -> subprocess.Popen:
    """Start one ``scrapy crawl news`` of ``day`` with its state in ``folder``, through :data:`LAUNCHER`
    (in a session of its own, so that a timeout stops the crawl and its second process too);
    ``profile``: under ``py-spy record`` (both processes sampled, collapsed stacks in ``dayN.pyspy``)."""
    cmd = [sys.executable, "-m", "scrapy", "crawl", "news", "-a", "urls=" + ",".join(urls),
           "-O", str(folder / f"day{day}.jsonl")]
    if profile:
        spy = shutil.which("py-spy")
        if spy is None:
            sys.exit("--profile needs py-spy (pip install py-spy)")
        cmd = [spy, "record", "--subprocesses", "--gil", "--rate", "50", "--format", "raw",
               "--output", str(folder / f"day{day}.pyspy"), "--", *cmd]
    every = {**FAST_SETTINGS, "NEWSSTEMMER_STATE_DIR": str(folder / "state"),
             "NEWSSTEMMER_PATTERNS_DIR": str(folder / "patterns"), **settings}
    for name, value in every.items():
        cmd += ["-s", f"{name}={value}"]
    usage = folder / f"day{day}.usage.json"
    usage.unlink(missing_ok=True)
    log = open(folder / f"day{day}.log", "w")
    try:
        return subprocess.Popen([sys.executable, "-c", LAUNCHER, str(usage), *cmd], cwd=code,
                                env=clock_env(day, lib, code), stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    finally:
        log.close()


def wait_all(procs: list[subprocess.Popen], usages: list[Path], timeout: float) -> tuple[list[int], list[float], list[int]]:
    """Wait for every launcher; the crawls' own peak RSS in kB (``ru_maxrss``, with their second
    processes), their CPU seconds (user + system: less noisy than wall time on a shared machine) and,
    for comparison, the peak RSS as the launchers' ``wait4`` gives it (what a crawl started by this
    process directly reports: at least this process's peak)."""
    rss = [0] * len(procs)
    cpu = [0.0] * len(procs)
    inherited = [0] * len(procs)
    end = time.monotonic() + timeout
    left = set(range(len(procs)))
    try:
        while left:
            for i in list(left):
                pid, status, usage = os.wait4(procs[i].pid, os.WNOHANG)
                if pid:
                    procs[i].returncode = os.waitstatus_to_exitcode(status)
                    inherited[i] = usage.ru_maxrss
                    own = json.loads(usages[i].read_text()) if usages[i].exists() else {}
                    rss[i] = own.get("maxrss_kb", 0)
                    cpu[i] = own.get("cpu_s", 0.0)  # (with its reaped children: the second process)
                    left.discard(i)
            if left and time.monotonic() > end:
                raise TimeoutError(f"crawl still running after {timeout} s")
            if left:
                time.sleep(0.05)
    except BaseException:  # interrupted or too slow: leave no crawl behind
        for i in left:
            os.killpg(procs[i].pid, signal.SIGKILL)
            procs[i].wait()
        raise
    return rss, cpu, inherited


def read_items(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def score_sites(items: list[dict[str, Any]], keys: list[str], before: list[DemoSite | None],
                sites: list[DemoSite]) -> dict[str, Any]:
    """The day's feed against the sites' truth, summed over the sites."""
    by_site: dict[str, list[dict[str, Any]]] = {k: [] for k in keys}
    stray = 0
    for item in items:
        key = urlsplit(item.get("url", "")).netloc
        if key in by_site:
            by_site[key].append(item)
        else:
            stray += 1
    out = {"new": 0, "updated": 0, "new_sent": 0, "updated_sent": 0, "repeats": 0, "extra": stray, "f1_low": 0,
           "articles": 0, "missed": []}
    for key, prev, site in zip(keys, before, sites):
        got = by_site[key]
        s = score_day(got, prev, site)
        sent = {urlsplit(i.get("url", "")).path: i for i in got}
        new = [p.path for p in site.articles() if prev is None or p.path not in prev.pages]
        upd = [p for p, d in site.updated.items() if d == site.day and p not in set(new)]
        out["new"] += len(new)
        out["updated"] += len(upd)
        out["new_sent"] += sum(1 for p in new if p in sent)
        out["updated_sent"] += sum(1 for p in upd if sent.get(p, {}).get("update"))
        out["missed"] += [f"{key}{p}" for p in new if p not in sent]
        out["missed"] += [f"{key}{p} (update{', sent as new' if p in sent else ''})" for p in upd
                          if not sent.get(p, {}).get("update")]
        out["repeats"] += s["repeated"]
        out["extra"] += s["extra"]
        out["f1_low"] += len(s["low_f1"])
        out["articles"] += s["articles"]
    out["missed_new"] = out["new"] - out["new_sent"]
    out["missed_updates"] = out["updated"] - out["updated_sent"]
    out["misses"] = out["missed_new"] + out["missed_updates"]
    return out


def redis_memory(url: str) -> tuple[int, int]:
    """``used_memory`` and the key count of a Redis database."""
    import redis

    r = redis.Redis.from_url(url)
    return int(r.info("memory")["used_memory"]), int(r.dbsize())


def redis_overhead(url: str) -> dict[str, int]:
    """Where ``used_memory`` goes besides the keys' own bytes (``MEMORY STATS``, ``INFO``): the server's
    start-up allocation, the key space's hash tables, clients, scripts, and the per-command latency
    histograms of Redis 7 (``latency-tracking``: one of ~24 KB for each command name ever run,
    counted in ``dataset.bytes`` and not freed by ``FLUSHALL``)."""
    import redis

    r = redis.Redis.from_url(url)
    stats = r.memory_stats()
    db = stats.get("db.0") or {}
    return {"startup": int(stats["startup.allocated"]), "dataset": int(stats["dataset.bytes"]),
            "main_table": int(db.get("overhead.hashtable.main", 0)), "expires_table": int(db.get("overhead.hashtable.expires", 0)),
            "clients": int(stats["clients.normal"]), "scripts": int(stats.get("lua.caches", 0)),
            "latency_histograms": len(r.info("latencystats"))}


def redis_families(url: str) -> dict[str, list[int]]:
    """The crawl's key census (``scrapy state --redis``): family -> [keys, bytes]."""
    import redis

    return {f.name: [f.keys, f.bytes] for f in redis_census(redis.Redis.from_url(url), Keys("newsstemmer"))}


def run_record(args: argparse.Namespace, ports: list[int], rows: list[dict[str, Any]]) -> dict[str, Any]:
    return {"run": {name: getattr(args, name) for name in RUN_ARGS}, "ports": ports, "days": rows}


def write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def save_day_start(work: Path, workers: list[Path], day: int) -> None:
    """Copy the workers' state and patterns folders as ``day`` finds them (a kept run: see ``--resume``)."""
    target = work / DAY_START
    shutil.rmtree(target, ignore_errors=True)
    for w in workers:
        for name in ("state", "patterns"):
            if (w / name).exists():
                shutil.copytree(w / name, target / w.name / name)
    (target / "day").parent.mkdir(parents=True, exist_ok=True)
    (target / "day").write_text(str(day))


def restore_day_start(work: Path, workers: list[Path], day: int) -> bool:
    """Put back the state and patterns ``day`` started from if it was stopped half-way; whether it was."""
    target = work / DAY_START
    if not (target / "day").exists():
        return False
    if int((target / "day").read_text()) != day:  # that day finished: its copy is stale
        shutil.rmtree(target)
        return False
    for w in workers:
        for name in ("state", "patterns"):
            shutil.rmtree(w / name, ignore_errors=True)
            if (target / w.name / name).exists():
                shutil.copytree(target / w.name / name, w / name)
    return True


def soak(args: argparse.Namespace, work: Path, done: list[dict[str, Any]] | None = None,
         ports: list[int] | None = None) -> list[dict[str, Any]]:
    """Run the days after ``done`` (the finished days' records of a resumed run, whose sites were on
    ``ports``) up to ``args.days``; every day's record, ``done``'s first."""
    lib = None if args.no_clock else faketime_lib()
    if not args.no_clock and lib is None:
        sys.exit("libfaketime not found (apt-get install faketime), or run with --no-clock")
    schedule = Schedule.long(args.new_per_day, args.updates_per_day, args.redesign_day, max(args.days, 1))
    rows: list[dict[str, Any]] = list(done or [])
    first = len(rows) + 1
    kept = work / RUN_FILE if args.keep else None
    t = time.perf_counter()
    try:
        makers = [DemoDays(seed, schedule=schedule, journal=work / DEMO_DIR / f"site-{seed}.jsonl" if kept else None,
                           refs=work / DEMO_DIR / f"site-{seed}.refs.sqlite")
                  for seed in range(args.seed, args.seed + args.sites)]
    except JournalError as exc:
        sys.exit(f"[soak] a demo journal cannot be continued: {exc}\n[soak] remove {work / DEMO_DIR} and resume "
                 "again to make the demo's days again from day 1 (the same days, slower)")
    if first > 1:
        held = min(m.day for m in makers)
        print(f"[soak] demo sites at day {held} from their journals ({time.perf_counter() - t:.1f} s)"
              + (f"; days {held + 1}-{first - 1} made again (a run kept without journals)" if held < first - 1 else ""),
              file=sys.stderr, flush=True)
    with ExitStack() as stack:
        redis_url = stack.enter_context(redis_server(work / "redis")) if args.redis else None
        ports = list(ports) if ports else [free_port() for _ in makers]
        servers: list[DemoServer] = []
        before: list[DemoSite | None] = [m.site(first - 1) for m in makers] if first > 1 else [None] * len(makers)
        workers = [work / f"w{i + 1}" for i in range(2 if redis_url else 1)]
        for w in workers:
            w.mkdir(parents=True, exist_ok=True)
        if kept and restore_day_start(work, workers, first):
            print(f"[soak] day {first} was stopped half-way: run again from the state it started from",
                  file=sys.stderr, flush=True)
        settings = {"NEWSSTEMMER_WORKER_TIMEOUT": "5"} if redis_url else {}
        settings.update(args.settings)
        if redis_url:
            settings["NEWSSTEMMER_REDIS_URL"] = redis_url
        for day in range(first, args.days + 1):
            if kept:
                save_day_start(work, workers, day)
            t = time.perf_counter()
            demo_cpu = cpu_self()
            sites = [m.site(day) for m in makers]
            gen = time.perf_counter() - t
            if not servers:
                servers = [stack.enter_context(DemoServer(s, port=p)) for s, p in zip(sites, ports)]
            for server, site in zip(servers, sites):
                server.switch(site)
            urls = [s.base_url + "/" for s in servers]
            t = time.perf_counter()
            procs = [run_worker(day, w, urls, settings, lib, args.profile, Path(args.code)) for w in workers]
            rss, cpu, inherited = wait_all(procs, [w / f"day{day}.usage.json" for w in workers], args.timeout)
            wall = time.perf_counter() - t
            logs = [(w / f"day{day}.log").read_text(encoding="utf-8", errors="replace") for w in workers]
            for w, p, log in zip(workers, procs, logs):
                if p.returncode != 0:
                    sys.exit(f"day {day}: the crawl in {w} failed ({p.returncode}):\n{log[-3000:]}")
            items = [i for w in workers for i in read_items(w / f"day{day}.jsonl")]
            stats = [crawl_stats(log) for log in logs]
            keys = [urlsplit(u).netloc for u in urls]
            row: dict[str, Any] = {"day": day, "items": len(items), "wall_s": round(wall, 2), "gen_s": round(gen, 2),
                                   "rss_mb": round(max(rss) / 1024, 1), "cpu_s": round(sum(cpu), 2),
                                   "rss_inherited_mb": round(max(inherited) / 1024, 1),
                                   "harness_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
                                   "harness_rss_now_mb": round(rss_now() / 1024, 1),
                                   "demo_cpu_s": round(cpu_self() - demo_cpu, 2),
                                   # (not the crawl's internal data: requests that carry articles into the engine,
                                   # whose number depends on when its rounds end)
                                   "pages": sum(int(s.get("downloader/response_status_count/200", 0))
                                                - int(s.get("newsstemmer/emit_requests", 0)) for s in stats),
                                   "requests": sum(int(s.get("downloader/request_count", 0))
                                                   - int(s.get("newsstemmer/emit_requests", 0)) for s in stats),
                                   "not_modified": sum(int(s.get("downloader/response_status_count/304", 0))
                                                       for s in stats),
                                   "tracebacks": sum(log.count("Traceback") for log in logs)}
            row.update(score_sites(items, keys, before, sites))
            state: dict[str, int] = {}
            for w in workers:
                for k, v in state_bytes(w / "state").items():
                    state[k] = state.get(k, 0) + v
            row["state"] = state
            row["patterns_bytes"] = sum(folder_bytes(w / "patterns") for w in workers)
            row["tables"] = table_bytes(workers[0] / "state")
            if redis_url:
                row["redis_used_memory"], row["redis_keys"] = redis_memory(redis_url)
                row["redis_families"] = redis_families(redis_url)
                row["redis_overhead"] = redis_overhead(redis_url)
            rows.append(row)
            before = list(sites)
            print_row(row, header=day == first, redis=bool(redis_url))
            if kept:  # the day is done: a resumed run starts after it
                write_atomic(kept, json.dumps(run_record(args, ports, rows), indent=1))
                shutil.rmtree(work / DAY_START, ignore_errors=True)
            if args.json:  # the days so far (a stopped run keeps them; the targets are added at the end)
                Path(args.json).write_text(json.dumps({"args": vars(args), "days": rows}, indent=1), encoding="utf-8")
            print(f"[soak] day {day}/{args.days}: {row['items']} items, {row['pages']} pages, {wall:.1f} s crawl ({row['cpu_s']:.1f} s CPU), "
                  f"{gen:.1f} s demo ({row['demo_cpu_s']:.1f} s CPU with its serving), state {state['total'] / 1e6:.2f} MB, "
                  f"peak RSS {row['rss_mb']:.0f} MB (as inherited: {row['rss_inherited_mb']:.0f}; this process "
                  f"{row['harness_rss_now_mb']:.0f} now, {row['harness_rss_mb']:.0f} at most)", file=sys.stderr, flush=True)
            if redis_url:
                over = row["redis_overhead"]
                keys_bytes = sum(b for _, b in row["redis_families"].values())
                print(f"[soak] day {day} Redis: used_memory {row['redis_used_memory'] / 1e6:.3f} MB = start-up "
                      f"{over['startup'] / 1e6:.3f} + dataset {over['dataset'] / 1e6:.3f} + the rest; key census "
                      f"{keys_bytes / 1e6:.3f} MB, key table {over['main_table'] / 1e3:.0f} KB, "
                      f"{over['latency_histograms']} latency histograms", file=sys.stderr, flush=True)
            if not args.keep_feeds:
                for w in workers:
                    (w / f"day{day}.jsonl").unlink(missing_ok=True)
    return rows


def print_row(r: dict[str, Any], header: bool, redis: bool) -> None:
    cols = ["day", "pages (req)", "sent new+upd", "repeats", "missed new+upd", "wall s", "RSS MB",
            *STORES.values(), "state total", *(["redis MB", "keys"] if redis else [])]
    if header:
        print("| " + " | ".join(cols) + " |")
        print("|" + "---|" * len(cols))
    kb = [f"{r['state'].get(name, 0) / 1024:.0f}K" for name in STORES.values()]
    cells = [str(r["day"]), f"{r['pages']} ({r['requests']})", f"{r['new_sent']}+{r['updated_sent']}", str(r["repeats"]),
             f"{r['missed_new']}+{r['missed_updates']}", f"{r['wall_s']:.1f}", f"{r['rss_mb']:.0f}", *kb, f"{r['state']['total'] / 1e6:.2f} MB"]
    if redis:
        cells += [f"{r['redis_used_memory'] / 1e6:.1f}", str(r["redis_keys"])]
    print("| " + " | ".join(cells) + " |", flush=True)


def _window(rows: list[dict[str, Any]], day: int, key: str, width: int = 5) -> float:
    """The median of ``key`` over the ``width`` days ending on ``day``."""
    vals = [r[key] for r in rows if day - width < r["day"] <= day]
    return statistics.median(vals)


def targets(rows: list[dict[str, Any]], redis: bool) -> list[tuple[str, str, bool]]:
    """The issue's targets: (name, figures, met)."""
    last = rows[-1]
    ref = min(30, max(1, len(rows) // 2))
    base = rows[ref - 1]
    out = [
        ("every new article sent (recall 1.0)",
         f"{sum(r['missed_new'] for r in rows)} of {sum(r['new'] for r in rows)} new articles missed",
         sum(r["missed_new"] for r in rows) == 0),
        ("updates sent as updates",
         f"{sum(r['missed_updates'] for r in rows)} of {sum(r['updated'] for r in rows)} updates missed",
         sum(r["missed_updates"] for r in rows) == 0),
        ("0 repeats", f"{sum(r['repeats'] for r in rows)}", sum(r["repeats"] for r in rows) == 0),
        (f"state at day {last['day']} ≤ 2× day {ref}",
         f"{last['state']['total'] / 1e6:.2f} MB vs {base['state']['total'] / 1e6:.2f} MB "
         f"({last['state']['total'] / max(1, base['state']['total']):.2f}×)",
         last["state"]["total"] <= 2 * base["state"]["total"]),
    ]
    recent = sum(r["new_sent"] + r["updated_sent"] for r in rows[-30:])
    older = sum(r["new_sent"] for r in rows[:-30])
    allowed = 1024 * recent + 150 * older
    out.append(("state ≤ 1 KB per article sent in the last 30 days + 150 B per older one",
                f"{last['state']['total'] / 1e6:.2f} MB vs {allowed / 1e6:.2f} MB allowed ({recent} recent, {older} older)",
                last["state"]["total"] <= allowed))
    w_last, w_ref = _window(rows, last["day"], "wall_s"), _window(rows, ref, "wall_s")
    out.append((f"run time at day {last['day']} ≤ 1.2× day {ref} (5-day medians)",
                f"{w_last:.1f} s vs {w_ref:.1f} s ({w_last / w_ref:.2f}×; single days {last['wall_s']:.1f} vs "
                f"{base['wall_s']:.1f} s)", w_last <= 1.2 * w_ref))
    m_last, m_ref = _window(rows, last["day"], "rss_mb"), _window(rows, ref, "rss_mb")
    out.append((f"peak RSS flat within 10% (day {last['day']} vs day {ref}, 5-day medians)",
                f"{m_last:.0f} MB vs {m_ref:.0f} MB ({m_last / m_ref - 1:+.1%}; single days {last['rss_mb']:.0f} vs "
                f"{base['rss_mb']:.0f})", abs(m_last / m_ref - 1) <= 0.10))
    if redis:
        ref10 = rows[min(10, len(rows)) - 1]
        out.append((f"Redis memory at day {last['day']} ≤ 1.5× day {ref10['day']}",
                    f"{last['redis_used_memory'] / 1e6:.1f} MB vs {ref10['redis_used_memory'] / 1e6:.1f} MB "
                    f"({last['redis_used_memory'] / ref10['redis_used_memory']:.2f}×)",
                    last["redis_used_memory"] <= 1.5 * ref10["redis_used_memory"]))
    return out


def main(argv: list[str] | None = None) -> int:
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # stop the day's crawl too
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sites", type=int, default=5)
    ap.add_argument("--days", type=int, default=60)
    ap.add_argument("--new-per-day", type=int, default=50)
    ap.add_argument("--updates-per-day", type=int, default=10)
    ap.add_argument("--redesign-day", type=int, default=None, help="redesign every site on this day (default: never)")
    ap.add_argument("--seed", type=int, default=1, help="the first site's seed (the others: the next ones)")
    ap.add_argument("--redis", action="store_true", help="two workers sharing a throwaway redis-server")
    ap.add_argument("--no-clock", action="store_true", help="run the crawls on the real clock (no libfaketime)")
    ap.add_argument("--timeout", type=float, default=1800, help="seconds a day's crawl may take")
    ap.add_argument("--keep", metavar="DIR", help="work in DIR (kept) instead of a temporary folder")
    ap.add_argument("--keep-feeds", action="store_true", help="keep each day's feed (dayN.jsonl)")
    ap.add_argument("--json", metavar="FILE", help="write the per-day figures and the targets as JSON")
    ap.add_argument("--set", metavar="NAME=VALUE", action="append", default=[],
                    help="a crawl setting for every day (e.g. NEWSSTEMMER_KEEP_TEXT_DAYS=3); repeatable")
    ap.add_argument("--profile", action="store_true",
                    help="sample each day's crawl with py-spy (DIR/w1/dayN.pyspy; its CPU figures then include py-spy's)")
    ap.add_argument("--code", metavar="CHECKOUT", default=str(REPO_ROOT),
                    help="run the crawls with another checkout's newsstemmer (A/B: two copies of a kept run)")
    ap.add_argument("--resume", action="store_true",
                    help="continue the run kept in --keep DIR from its last finished day up to --days")
    args = ap.parse_args(argv)
    args.settings = dict(item.split("=", 1) for item in args.set)
    if args.resume:
        if not args.keep:
            sys.exit("--resume needs --keep DIR (the folder of the run to continue)")
        if args.redis:
            sys.exit("--resume does not work with --redis (the throwaway redis-server keeps nothing)")
        record_path = Path(args.keep) / RUN_FILE
        if not record_path.exists():
            sys.exit(f"{record_path} not found: nothing to resume")
        record = json.loads(record_path.read_text(encoding="utf-8"))
        mine = json.loads(json.dumps({name: getattr(args, name) for name in RUN_ARGS}))
        differ = [f"{k}: {record['run'].get(k)!r} kept, {v!r} given" for k, v in mine.items() if record["run"].get(k) != v]
        if differ:
            sys.exit("--resume with other arguments than the kept run's: " + "; ".join(differ))
        print(f"[soak] resuming {args.keep}: {len(record['days'])} days done, running to day {args.days}",
              file=sys.stderr, flush=True)
        rows = soak(args, Path(args.keep), record["days"], record["ports"])
    elif args.keep:
        work = Path(args.keep)
        if work.exists() and any(work.iterdir()):
            sys.exit(f"{work} is not empty: the soak starts from an empty state folder (or --resume)")
        work.mkdir(parents=True, exist_ok=True)
        rows = soak(args, work)
    else:
        with tempfile.TemporaryDirectory(prefix="soak-") as tmp:
            rows = soak(args, Path(tmp))
    checks = targets(rows, args.redis)
    print(f"\n{args.days} days, {args.sites} sites, {args.new_per_day} new + {args.updates_per_day} updated articles "
          f"a day per site{', 2 Redis workers' if args.redis else ''}:")
    for name, value, met in checks:
        print(f"  {'met    ' if met else 'NOT met'} {name}: {value}")
    if rows and rows[-1].get("tables"):
        print(f"Rows and bytes per table (pages and indexes, dbstat) at day {rows[-1]['day']}:")
        for name, (n, size) in rows[-1]["tables"].items():
            if n:
                print(f"  {name:<24} {n:>8} rows {size / 1e3:>9.0f} KB {size / n:>7.0f} B a row")
    if args.redis and rows:
        first, last = rows[0]["redis_families"], rows[-1]["redis_families"]
        print(f"Redis key families, day 1 -> day {rows[-1]['day']} (keys, KB):")
        for name in sorted(set(first) | set(last), key=lambda n: -last.get(n, [0, 0])[1]):
            a, b = first.get(name, [0, 0]), last.get(name, [0, 0])
            print(f"  {name:<20} {a[0]:>7} {a[1] / 1e3:>9.0f}  ->  {b[0]:>7} {b[1] / 1e3:>9.0f}")
    if args.json:
        Path(args.json).write_text(json.dumps({"args": vars(args), "days": rows,
                                               "targets": [{"target": n, "value": v, "met": m} for n, v, m in checks]},
                                              indent=1), encoding="utf-8")
    return 0 if all(m for _, _, m in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
