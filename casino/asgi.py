"""HTTP and websockets on one ASGI application (daphne in development, uvicorn workers in production)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from casino.routing import websocket_urlpatterns  # noqa: E402


def origin_checked_when_sent(inner):
    """Browsers always send Origin, so checking it stops cross-site socket hijacking; signage
    players often send none, and for them the display token is the credential. Channels'
    AllowedHostsOriginValidator alone would refuse every socket without an Origin header."""
    validated = AllowedHostsOriginValidator(inner)

    async def app(scope, receive, send):
        if any(name == b"origin" for name, _ in scope.get("headers", [])):
            return await validated(scope, receive, send)
        return await inner(scope, receive, send)

    return app


application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": origin_checked_when_sent(URLRouter(websocket_urlpatterns)),
    }
)
