"""HTTP and websockets on one ASGI application (daphne in development, uvicorn workers in production)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
# Django first: the routing below imports the consumers and their models.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import WebsocketDenier  # noqa: E402

from casino import live  # noqa: E402
from casino.celery import broker_warm_up  # noqa: E402
from casino.routing import websocket_urlpatterns  # noqa: E402
from tables.rules.evaluator import warm_up  # noqa: E402

# The hand evaluator's lookup tables and Celery's first task each take about a second: built
# at a worker's start, not inside a dealer's first request.
warm_up()
broker_warm_up()


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
