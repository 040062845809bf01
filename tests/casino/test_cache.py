"""casino.cache.SharedRedisCache: one Redis client per process, whatever the request."""

import asyncio
import uuid

import pytest
import redis
from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.core.cache import caches

from tests.conftest import TEST_REDIS_URL

pytestmark = pytest.mark.redis


@pytest.fixture
def shared_cache(settings):
    settings.CACHES = {
        "default": {
            "BACKEND": "casino.cache.SharedRedisCache",
            "LOCATION": TEST_REDIS_URL,
            "KEY_PREFIX": f"tapis-test-{uuid.uuid4().hex[:8]}",
        }
    }
    return caches


def connections_received() -> int:
    return redis.Redis.from_url(TEST_REDIS_URL).info("stats")["total_connections_received"]


def test_requests_share_one_client_and_its_connections(shared_cache):
    clients = []

    def request_uses_the_cache(n: int) -> None:
        cache = shared_cache["default"]
        cache.set(f"count-{n}", n, timeout=30)
        assert cache.get(f"count-{n}") == n
        clients.append(cache._cache)

    async def request(n: int) -> None:
        async with ThreadSensitiveContext():
            await sync_to_async(request_uses_the_cache, thread_sensitive=True)(n)

    async def requests() -> None:
        for n in range(5):
            # As the server serves each request: a task (a copy of the server's context, not
            # of the last request's) and a thread of its own.
            await asyncio.create_task(request(n))

    asyncio.run(requests())  # the first opens the process's connection
    before = connections_received()
    asyncio.run(requests())
    opened = connections_received() - before

    # Django's RedisCache opened one connection per request (5 here); other tests' threads
    # may open one now and then, never five.
    assert opened <= 2, f"{opened} connections for 5 requests"
    assert all(client is clients[0] for client in clients)


def test_a_different_server_or_option_gets_its_own_client(settings):
    settings.CACHES = {
        "default": {"BACKEND": "casino.cache.SharedRedisCache", "LOCATION": TEST_REDIS_URL},
        "other": {
            "BACKEND": "casino.cache.SharedRedisCache",
            "LOCATION": TEST_REDIS_URL,
            "OPTIONS": {"socket_timeout": 2},
        },
    }
    assert caches["default"]._cache is not caches["other"]._cache
