"""Liveness and readiness for a load balancer or a service manager, without a login.

`/healthz`: the process answers (nothing else is asked, so a database outage does not get the
workers restarted for nothing). `/readyz`: this worker can serve the floor now: the database
answers a query on the schema and, when REDIS_URL is set, Redis answers a ping. Neither says
more than which dependency failed: they are public.
"""

import logging

import redis
from django.conf import settings
from django.db import DatabaseError
from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from casino.access import public

log = logging.getLogger("casino.health")


@public
@never_cache
@require_http_methods(["GET", "HEAD"])
def healthz_view(request):
    return JsonResponse({"status": "ok"})


def _database() -> str:
    from casino.models import Staff

    try:
        Staff.objects.exists()
    except DatabaseError as exc:
        log.warning("readiness: the database does not answer: %s", exc)
        return "failing"
    return "ok"


def _redis() -> str:
    if not settings.REDIS_URL:
        return "not configured"
    try:
        redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=1, socket_timeout=1).ping()
    except redis.RedisError as exc:
        log.warning("readiness: Redis does not answer: %s", exc)
        return "failing"
    return "ok"


@public
@never_cache
@require_http_methods(["GET", "HEAD"])
def readyz_view(request):
    checks = {"database": _database(), "redis": _redis()}
    ready = "failing" not in checks.values()
    return JsonResponse(
        {"status": "ready" if ready else "not ready", "checks": checks},
        status=200 if ready else 503,
    )
