"""HTTP and websockets on one ASGI application (daphne in development, uvicorn workers in production)."""

import gc
import logging
import os
import threading

import django
from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.core.handlers.base import BaseHandler

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
django.setup(set_prefix=False)


class SyncStackASGIHandler(ASGIHandler):
    """Django's ASGI handler, with the whole request (middleware, view) in ONE hop to the
    request's thread. Every view and middleware of the house is synchronous: Django's own
    handler runs the middleware in that thread, comes back to the event loop to resolve the
    URL, then goes to the thread again for the view, and each hop waits its turn on a loop
    that serves every other socket of the worker (docs/architecture/overview.md, "Where a
    tap's time goes"). The request thread is the same one Django would use (one per
    request, ThreadSensitiveContext), so connections and transactions are as before."""

    def __init__(self):
        BaseHandler.__init__(self)
        self.load_middleware(is_async=False)

    async def get_response_async(self, request):
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)


django_asgi_app = SyncStackASGIHandler()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import WebsocketDenier  # noqa: E402

from casino import live  # noqa: E402
from casino.celery import broker_warm_up  # noqa: E402
from casino.routing import websocket_urlpatterns  # noqa: E402
from tables.rules.evaluator import warm_up  # noqa: E402


def database_warm_up() -> None:
    """Open this worker's connection pool now, with its first connections (DB_POOL_MIN_SIZE):
    otherwise the first dealers' requests after a start wait for them, each a backend start.
    In a thread: uvicorn imports this module inside its event loop, where Django refuses to
    touch the database; the pool is the process's, whichever thread opened it."""

    def warm() -> None:
        from django.db import connection

        try:
            connection.ensure_connection()
            connection.close()
        except Exception:  # a warm-up is never a reason not to start
            logging.getLogger(__name__).warning(
                "the database did not answer at start", exc_info=True
            )

    thread = threading.Thread(target=warm, name="database-warm-up")
    thread.start()
    thread.join(timeout=15)


# The hand evaluator's lookup tables take about a second to build, and so does Celery's first
# task: a worker does both before its first request, not inside a dealer's, and opens its
# database connections.
warm_up()
broker_warm_up()
database_warm_up()
# What the worker has loaded by now lives as long as it does: out of the garbage collector's
# sight, a full collection no longer walks it (about 60 ms over the 126,000 objects of a
# loaded worker, measured, landing in whichever dealer's request triggered it).
gc.freeze()


def origin_checked_when_sent(inner):
    """Browsers always send Origin, so checking it stops cross-site socket hijacking; signage
    players often send none, and for them the display token is the credential. Channels'
    AllowedHostsOriginValidator alone would refuse every socket without an Origin header.
    Staff sockets are stricter still: casino.live.staff_or_none refuses one without Origin."""

    async def app(scope, receive, send):
        if live.origin_allowed(scope, required=False):
            return await inner(scope, receive, send)
        return await WebsocketDenier()(scope, receive, send)

    return app


application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # The session cookie gives every consumer scope["user"] (AnonymousUser without one);
        # a consumer admits staff only through casino.live.staff_or_none.
        "websocket": origin_checked_when_sent(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)
