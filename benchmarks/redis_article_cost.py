#!/usr/bin/env python3
"""What one recent article costs in Redis, key family by key family (issue #26).

Writes N articles of a few demo-like sites into a throwaway ``redis-server`` as a crawl
does (``RedisArticleHistory.put`` with a real change sketch of a generated body,
``RedisFetchLog.seen`` + ``commit`` with an ETag, a Last-Modified and a sitemap date),
prunes with the default retention at once (nothing is old enough to archive: it cuts the
per-site indexes), again 8 days later (past the re-check window: fetch records are
compacted where the code does so) and 40 days later (past ``NEWSSTEMMER_KEEP_TEXT_DAYS``:
every article archived, the archives' cost at this fill), and prints each time
``used_memory`` per article and the key census (``scrapy state --redis``) per article.  Seconds, not days: the soak (``benchmarks/soak.py --redis``)
measures the same over simulated days with the real crawl.

    python benchmarks/redis_article_cost.py [--articles 3000] [--sites 2]
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

if __name__ == "__main__" and not __package__:  # run as a file: import from the checkout's root
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from newsstemmer.crawl.changesketch import ChangeSketch  # noqa: E402
from newsstemmer.crawl.config import Config  # noqa: E402
from newsstemmer.crawl.storage import Storage  # noqa: E402
from newsstemmer.crawl.storage.records import Emitted  # noqa: E402
from newsstemmer.crawl.storage.redis_keys import Keys, client  # noqa: E402
from newsstemmer.crawl.storage.redis_retention import redis_census, redis_prune  # noqa: E402
from newsstemmer.crawl.storage.retention import Retention  # noqa: E402
from newsstemmer.crawl.testing import redis_server  # noqa: E402

WORDS = ("council budget river school harbour minister storm vote market station museum festival court "
         "hospital bridge league season report plan water energy city village police road farm").split()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--articles", type=int, default=3000)
    ap.add_argument("--sites", type=int, default=2)
    args = ap.parse_args()
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as tmp, redis_server(Path(tmp) / "redis") as url:
        config = Config(state_dir=Path(tmp) / "state", redis_url=url, redis_prefix="newsstemmer")
        storage = Storage(config)
        history, fetchlog = storage.history(), storage.fetchlog()
        redis = client(url)
        base = int(redis.info("memory")["used_memory"])
        sites = [f"127.0.0.1:{40000 + i}" for i in range(args.sites)]
        for i in range(args.articles):
            site = sites[i % len(sites)]
            slug = "-".join(rng.choice(WORDS) for _ in range(7))
            page_url = f"http://{site}/world/2026/11/{1 + i % 28:02d}/{slug}-{i}.html"
            body = "\n".join(" ".join(rng.choice(WORDS) for _ in range(30)) for _ in range(12))
            page = "Home World Sport " + body.replace("\n", " ") + " Related stories More from World"
            fetchlog.seen(page_url, site, f'"{rng.getrandbits(80):020x}"', "Tue, 10 Nov 2026 05:52:00 GMT", "2026-11-10")
            fetchlog.commit([page_url], article=True)
            history.put(Emitted(page_url, site, page_url, f"{rng.getrandbits(128):032x}",
                                ChangeSketch.of(body, page).to_bytes(), 1, "2026-11-22T07:00:25+00:00",
                                "2026-11-10T05:52:00+00:00"))
        for label, days in (("just sent", 0), ("past the re-check window (8 days)", 8),
                            ("archived (40 days: past NEWSSTEMMER_KEEP_TEXT_DAYS)", 40)):
            redis_prune(redis, Keys("newsstemmer"), Retention(), now=time.time() + days * 86400)
            used = int(redis.info("memory")["used_memory"]) - base
            print(f"\n{args.articles} articles of {args.sites} sites, {label}: used_memory +{used / 1e6:.2f} MB, "
                  f"{used / args.articles:.0f} B an article")
            print("| family | keys | B an article |")
            print("|---|---|---|")
            for fam in redis_census(redis, Keys("newsstemmer")):
                print(f"| `{fam.name}` | {fam.keys} | {fam.bytes / args.articles:.0f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
