"""Fixtures shared by the test modules."""

from __future__ import annotations

import pytest

from redis_fixture import start_redis


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory):
    """A throwaway ``redis-server``'s URL, one per test module that asks for it
    (:func:`redis_fixture.start_redis`: skipped without the server, failed under CI)."""
    yield from start_redis(tmp_path_factory)
