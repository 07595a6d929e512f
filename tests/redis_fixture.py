"""A real ``redis-server`` for the tests (Debian package ``redis-server``), on a free loopback port.

Outside CI (env ``CI`` unset) a missing server skips the tests that need it, with a
message naming the package; under ``CI`` it fails them.
"""

from __future__ import annotations

import os
import shutil

import pytest

from newsstemmer.crawl.testing import redis_server

NEEDS = "needs redis-server: apt-get install redis-server (Debian package)"


def start_redis(tmp_path_factory):
    """Yield a throwaway Redis server's URL (use from a fixture)."""
    if shutil.which("redis-server") is None:
        if os.environ.get("CI"):
            pytest.fail(f"redis-server not found under CI: {NEEDS}")
        pytest.skip(NEEDS)
    with redis_server(tmp_path_factory.mktemp("redis")) as url:
        yield url


def flush(url: str) -> None:
    import redis

    redis.Redis.from_url(url).flushdb()
