"""How the long-run demo's memory and CPU grow with the days (issue #26: a year of soak in parts).

Makes ``--sites`` demo sites (:class:`~newsstemmer.demo.longrun.DemoDays`) day after day and, each
day, renders what a crawl asks for: every listing, sitemap and the feed, and the day's new and
updated article pages.  Prints, every ``--every`` days, this process's resident memory and the
CPU the days took; at the end the growth of memory a day (a line fitted over the second half of
the days, when the caches of recent days are full) and the CPU of a day at the start and the end.

    python benchmarks/demo_longrun_probe.py --sites 10 --new-per-day 50 --days 70
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import json
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from newsstemmer.demo.days import Schedule  # noqa: E402
from newsstemmer.demo.longrun import DemoDays  # noqa: E402

BASE = "http://127.0.0.1:9"


def rss_mb() -> float:
    """Resident memory now (``VmRSS``), MB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def serve_day(days: DemoDays, day: int) -> int:
    """Render what a day's crawl fetches: the non-article pages, the feed, new and updated articles."""
    site = days.site(day)
    n = 0
    for path in list(site.pages._others) + list(site.extras):
        site.render(path, BASE)
        n += 1
    if day == 1:  # the whole site is new
        fresh = site.articles()
    else:
        new = days.refs[days.counts[day - 1]: days.counts[day]]
        fresh = [site.pages[r.path] for r in new] + [site.pages[p] for p, d in site.updated.items() if d == day]
    for page in fresh:
        site.render(page.path, BASE)
        n += 1
    return n


def slope(xs: list[float], ys: list[float]) -> float:
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    den = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / den if den else 0.0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sites", type=int, default=10)
    ap.add_argument("--days", type=int, default=70)
    ap.add_argument("--new-per-day", type=int, default=50)
    ap.add_argument("--updates-per-day", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--every", type=int, default=10, help="print a line every this many days")
    ap.add_argument("--json", metavar="FILE", help="write the per-day figures as JSON")
    ap.add_argument("--trim", action="store_true",
                    help="give freed heap back to the system each day (glibc malloc_trim): RSS then shows what is live")
    args = ap.parse_args(argv)
    schedule = Schedule.long(args.new_per_day, args.updates_per_day, None, args.days)
    trim = ctypes.CDLL("libc.so.6").malloc_trim if args.trim else None
    makers = [DemoDays(seed, schedule=schedule) for seed in range(args.seed, args.seed + args.sites)]
    rows = []
    start = time.perf_counter()
    for day in range(1, args.days + 1):
        t = cpu()
        pages = sum(serve_day(m, day) for m in makers)
        spent = cpu() - t
        gc.collect()
        if trim is not None:
            trim(0)
        rows.append({"day": day, "cpu_s": round(spent, 3), "pages": pages, "rss_mb": round(rss_mb(), 1),
                     "articles": sum(len(m.refs) for m in makers)})
        if day % args.every == 0 or day in (1, args.days):
            r = rows[-1]
            print(f"day {day:>4}: {r['articles']:>7} articles, {pages:>5} pages rendered, {spent:6.2f} s CPU, "
                  f"RSS {r['rss_mb']:7.1f} MB ({time.perf_counter() - start:.0f} s so far)", flush=True)
    half = rows[len(rows) // 2:]
    growth = slope([r["day"] for r in half], [r["rss_mb"] for r in half])
    first_cpu = sum(r["cpu_s"] for r in rows[1:6]) / max(1, len(rows[1:6]))
    last_cpu = sum(r["cpu_s"] for r in rows[-5:]) / len(rows[-5:])
    print(f"\n{args.sites} sites x {args.new_per_day} new + {args.updates_per_day} updated a day, {args.days} days: "
          f"RSS {rows[0]['rss_mb']:.0f} -> {rows[-1]['rss_mb']:.0f} MB, growing {growth:.2f} MB a day over days "
          f"{half[0]['day']}-{args.days}; CPU a day (all sites) {first_cpu:.2f} s (days 2-6) -> {last_cpu:.2f} s "
          f"(last 5 days)")
    if args.json:
        Path(args.json).write_text(json.dumps({"args": vars(args), "growth_mb_per_day": growth, "days": rows}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
