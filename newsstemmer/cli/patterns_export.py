"""``newsstemmer patterns export --redis URL DIR``: the layouts a crawl shared through Redis
learned, written as pattern files.

Workers of a crawl shared through Redis (``NEWSSTEMMER_REDIS_URL``) each write the
pattern files of the sites they learned on their own machine; Redis holds all of them
(hash ``<prefix>:patterns``: site -> pattern file JSON, see
``newsstemmer/crawl/storage/redis_keys.py``).  This command writes every one into DIR
under the crawl's file names (``<site>.json``, characters unsafe in file names as
``_``), after validating it like any pattern file: a damaged entry is reported and
skipped (exit code 1), never evaluated.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ..layout.patterns import PatternFileError, SitePatterns, pattern_file_name
from .common import CLIError, Reporter

__all__ = ["export"]


def export(args: argparse.Namespace, rep: Reporter) -> int:
    """Write the crawl's patterns from Redis into the folder ``args.patterns``."""
    if not args.redis:
        raise CLIError("patterns export needs --redis URL (the crawl's NEWSSTEMMER_REDIS_URL)")
    try:
        import redis
    except ImportError:
        raise CLIError("patterns export needs the redis package: pip install 'newsstemmer[redis]'") from None
    out = Path(args.patterns)
    if out.exists() and not out.is_dir():
        raise CLIError(f"{out}: not a folder")
    try:
        conn = redis.Redis.from_url(args.redis, socket_connect_timeout=10, socket_timeout=60)
        entries = conn.hgetall(f"{args.prefix}:patterns")
    except (ValueError, redis.RedisError) as exc:
        raise CLIError(f"--redis {args.redis}: {exc}") from None
    out.mkdir(parents=True, exist_ok=True)
    written = bad = 0
    for key, raw in sorted(entries.items()):
        site = key.decode("utf-8", "replace")
        try:
            sp = SitePatterns.from_dict(json.loads(raw))
        except (ValueError, PatternFileError) as exc:
            rep.message(f"skipped {site}: not a valid pattern file in Redis ({exc})")
            bad += 1
            continue
        sp.save(out / pattern_file_name(sp.site))  # the crawl's file names
        written += 1
    rep.info(f"{written} pattern files written to {out} (prefix {args.prefix})" + (f"; {bad} skipped" if bad else ""))
    return 1 if bad else 0
