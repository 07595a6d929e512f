"""``scrapy state [--prune] [--json] [--redis]``: what the crawl's state folder holds, and pruning it.

Reads the same settings as ``scrapy crawl`` (``NEWSSTEMMER_STATE_DIR``, the
``NEWSSTEMMER_KEEP_*`` retention settings; ``-s NAME=VALUE`` overrides them), prints one
line per store (size on disk, rows, space SQLite holds free) and, with ``--prune``, drops
what the retention settings do not keep (:mod:`newsstemmer.crawl.storage.retention`), as
every crawl does at its close.  With ``NEWSSTEMMER_REDIS_URL`` set (or ``--redis``), the
same for the crawl's keys in Redis: one line per key family (keys, memory by ``MEMORY
USAGE``, how many expire), pruned by ``--prune`` (:mod:`newsstemmer.crawl.storage.redis_retention`).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from ..config import Config, SettingError
from ..storage.retention import Retention, census, prune


class Command(ScrapyCommand):
    requires_project = True
    default_settings = {"LOG_ENABLED": False}

    def syntax(self) -> str:
        return "[--prune] [--json] [--redis]"

    def short_desc(self) -> str:
        return "Show the sizes of newsstemmer's state stores (and prune them with --prune)"

    def long_desc(self) -> str:
        return (__doc__ or "").split("\n\n", 1)[1]

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument("--prune", action="store_true", help="drop what the NEWSSTEMMER_KEEP_* settings do not keep")
        parser.add_argument("--json", action="store_true", help="one JSON object instead of the table")
        parser.add_argument("--redis", action="store_true",
                            help="the key census of the crawl in Redis (NEWSSTEMMER_REDIS_URL; the default when it is set)")

    def run(self, args: list[str], opts: Any) -> None:
        if args:
            raise UsageError(f"unexpected arguments: {' '.join(args)} (the folder is NEWSSTEMMER_STATE_DIR)")
        try:
            config = Config.from_settings(self.settings)
        except SettingError as exc:
            raise UsageError(str(exc)) from None
        if opts.redis or config.redis_url:
            self._redis(config, opts)
            return
        state = config.state_dir
        if not state.is_dir():
            raise UsageError(f"no state folder at {state} (NEWSSTEMMER_STATE_DIR): nothing crawled here yet")
        removed = None
        if opts.prune:
            removed = prune(state, _retention(config))
        stores = census(state)
        if opts.json:
            print(json.dumps({"state_dir": str(state), "stores": [s.as_dict() for s in stores],
                              "total_bytes": sum(s.bytes for s in stores), "pruned": removed}))
            return
        print(f"state folder {state}: {_mb(sum(s.bytes for s in stores))}")
        for s in stores:
            rows = ", ".join(f"{n:,} {t}" for t, n in s.rows.items()) or "no rows"
            free = f"; {_mb(s.free_bytes)} free" if s.free_bytes else ""
            err = f"; unreadable: {s.error}" if s.error else ""
            print(f"  {s.name:<17} {_mb(s.bytes):>10}  {rows}{free}{err}  ({s.holds})")
        if removed is not None:
            freed = removed.pop("bytes_freed", 0)
            parts = [f"{n:,} from {name}" for name, n in removed.items() if n]
            print(f"pruned: {', '.join(parts) or 'nothing to drop'}; {_mb(freed)} given back")


    def _redis(self, config: Config, opts: Any) -> None:
        from ..storage.redis_keys import Keys, RedisUnavailable, client
        from ..storage.redis_retention import redis_census, redis_prune

        if not config.redis_url:
            raise UsageError("--redis: set NEWSSTEMMER_REDIS_URL (-s NEWSSTEMMER_REDIS_URL=redis://HOST:PORT/DB)")
        try:
            redis, keys = client(config.redis_url), Keys(config.redis_prefix)
        except RedisUnavailable as exc:
            raise UsageError(str(exc)) from None
        removed = redis_prune(redis, keys, _retention(config)) if opts.prune else None
        families = redis_census(redis, keys)
        used = int(redis.info("memory").get("used_memory", 0))
        if opts.json:
            print(json.dumps({"redis_url": config.redis_url, "prefix": keys.prefix, "used_memory": used,
                              "families": [f.as_dict() for f in families], "pruned": removed}))
            return
        total = sum(f.keys for f in families)
        print(f"redis {keys.prefix}:* : {total:,} keys, {_mb(sum(f.bytes for f in families))} "
              f"(server used_memory {_mb(used)})")
        for f in families:
            ttl = f"; {f.expiring:,} expire (longest {f.max_ttl_s:.0f} s)" if f.expiring else ""
            print(f"  {f.name:<20} {f.keys:>9,} keys {_mb(f.bytes):>10}{ttl}")
        if removed is not None:
            parts = [f"{n:,} from {name}" for name, n in removed.items() if n]
            print(f"pruned: {', '.join(parts) or 'nothing to drop'}")


def _retention(config: Config) -> Retention:
    return Retention(config.keep_text_days, config.keep_anchors, max(config.keep_runs, config.retire_after_runs + 1),
                     config.health_max_mb, config.drift_sample, config.recheck_window)


def _mb(n: int) -> str:
    return f"{n / 2**20:.2f} MB"
