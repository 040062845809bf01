"""The Redis cache (the sign-in and approval throttle's counts), with one client per process.

Django's cache handler keeps one cache object per context, and under ASGI every request runs
in a context of its own: with Django's RedisCache, each request that touched the cache (every
sign-in and every supervisor's PIN approval checks the throttle) built a new client, with a
new connection pool, and opened a new connection to Redis, left for the garbage collector to
close. redis-py's client is thread-safe and its pool opens new connections in a forked child
(it checks the process id), so one client per process, per configuration, serves them all.
"""

import threading

from django.core.cache.backends.redis import RedisCache
from django.utils.functional import cached_property

_clients: dict[tuple, object] = {}
_lock = threading.Lock()


class SharedRedisCache(RedisCache):
    @cached_property
    def _cache(self):
        key = (tuple(self._servers), repr(sorted(self._options.items())))
        with _lock:
            if key not in _clients:
                _clients[key] = self._class(self._servers, **self._options)
            return _clients[key]
