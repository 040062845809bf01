"""What every live channel of the house needs: the display feed (jackpot.feed), a table's
channel and the pit's.

Sending. `group_send` and `channel_send` work from any sync code (a view, a service, a Celery
worker) through async_to_sync; `after_commit` schedules a send once the change it announces
is committed.

Credentials. `scope_token` reads a device's token (`?token=` or `Authorization: Token ...`).
A staff member's socket is authenticated by the session cookie (casino.asgi puts channels'
session and auth middleware in front of every route, so `scope["user"]` is the signed-in
staff member or AnonymousUser). A browser sends that cookie whichever site opened the
socket, so a staff socket is open to cross-site hijacking unless its Origin is checked
strictly: `staff_or_none` admits a socket only if it carries an Origin header naming one of
ALLOWED_HOSTS, and only for an active staff member holding one of the roles asked for.
(Display sockets may come without an Origin, since the token is their credential; casino.asgi
refuses a foreign Origin on every socket.)
"""

from typing import TYPE_CHECKING
from urllib.parse import parse_qs, urlparse

from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.security.websocket import OriginValidator
from django.conf import settings
from django.db import transaction
from django.utils.functional import LazyObject

from casino.roles import has_role

if TYPE_CHECKING:
    from casino.models import Staff

# The close code for a socket refused for its credential (the display feed uses it too).
CLOSE_REFUSED = 4403


# --- sending -------------------------------------------------------------------------------


def group_send(group: str, event: dict) -> None:
    """Send `event` (a dict whose "type" names the consumers' handler) to every socket in
    `group`. Sync; works from a view, a service or a Celery worker, on any channel layer."""
    group_sends([(group, event)])


def group_sends(sends: list[tuple[str, dict]]) -> None:
    """group_send for each (group, event), in order, in one trip to the event loop."""
    layer = get_channel_layer()
    if layer is None:
        return

    async def send_all():
        for group, event in sends:
            await layer.group_send(group, event)

    async_to_sync(send_all)()


def channel_send(channel_name: str, event: dict) -> None:
    """Send `event` to one socket (its consumer's channel_name). Sync, like group_send."""
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.send)(channel_name, event)


def after_commit(fn) -> None:
    """Run `fn` once the current transaction commits (at once outside a transaction).

    Robust: the change is committed whatever happens to the send; a failure is logged by
    Django, and the sockets recover at the next message or their reconnection snapshot.
    """
    transaction.on_commit(fn, robust=True)


# --- credentials ---------------------------------------------------------------------------


def scope_token(scope) -> str | None:
    """A device's token: the `token` query parameter, else `Authorization: Token <token>`."""
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    if query.get("token"):
        return query["token"][0]
    for name, value in scope.get("headers", []):
        if name == b"authorization":
            scheme, _, credential = value.decode("latin-1").partition(" ")
            if scheme.lower() == "token" and credential.strip():
                return credential.strip()
    return None


def allowed_origins() -> list[str]:
    """The origins a browser's socket may come from: ALLOWED_HOSTS (in DEBUG with none set,
    localhost), as channels' AllowedHostsOriginValidator reads them."""
    hosts = list(settings.ALLOWED_HOSTS)
    if settings.DEBUG and not hosts:
        hosts = ["localhost", "127.0.0.1", "[::1]"]
    return hosts


def origin_allowed(scope, *, required: bool) -> bool:
    """Is the socket's Origin one of allowed_origins()? Without an Origin header: `not
    required` (a signage player sends none; a browser always does)."""
    origins = [value for name, value in scope.get("headers", []) if name == b"origin"]
    if not origins:
        return not required
    try:
        parsed = urlparse(origins[0].decode("latin-1"))
    except (UnicodeDecodeError, ValueError):
        return False
    return OriginValidator(None, allowed_origins()).valid_origin(parsed)


async def staff_or_none(scope, *roles: str) -> "Staff | None":
    """The signed-in, active staff member holding one of `roles`, or None: refuse the socket
    (close it with CLOSE_REFUSED).

    A staff socket must carry an Origin header naming one of ALLOWED_HOSTS: the session
    cookie alone would let another site open it in a signed-in supervisor's browser.
    """
    if not roles:
        raise TypeError("staff_or_none() needs the roles it admits (deny by default)")
    if not origin_allowed(scope, required=True):
        return None
    user = scope.get("user")
    if user is None or not await database_sync_to_async(has_role)(user, *roles):
        return None
    # channels' AuthMiddleware leaves a resolved lazy object: hand the services the Staff row.
    return user._wrapped if isinstance(user, LazyObject) else user
