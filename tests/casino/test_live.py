"""casino.live: sending from sync code, after commit, and the credentials a socket carries.

Staff sockets go through the project's own ASGI stack (origin check, session and auth
middleware) in front of a tiny consumer that admits supervisors and managers.
"""

import threading

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.auth import AuthMiddlewareStack
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from channels.layers import get_channel_layer
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.db import connections, transaction
from django.test import Client
from django.urls import path

from casino import live
from casino.asgi import origin_checked_when_sent
from casino.roles import Role
from tests.factories import make_staff

OWN_ORIGIN = (b"origin", b"http://testserver")


class SupervisorProbe(AsyncJsonWebsocketConsumer):
    """What a staff consumer does first: admit the right people, refuse everyone else."""

    async def connect(self):
        await self.accept()  # so that the close code reaches the client
        staff = await live.staff_or_none(self.scope, Role.SUPERVISOR, Role.MANAGER)
        if staff is None:
            return await self.close(code=live.CLOSE_REFUSED)
        await self.send_json({"staff": staff.username})


staff_app = origin_checked_when_sent(
    AuthMiddlewareStack(URLRouter([path("ws/probe/", SupervisorProbe.as_asgi())]))
)


def session_cookie(staff) -> tuple[bytes, bytes]:
    client = Client()
    client.force_login(staff)
    key = client.cookies[settings.SESSION_COOKIE_NAME].value
    return b"cookie", f"{settings.SESSION_COOKIE_NAME}={key}".encode()


async def signed_in(*roles: str, active: bool = True) -> tuple[bytes, bytes]:
    def make():
        staff = make_staff(*roles)
        if not active:  # deactivated after signing in: the session lives on
            staff.is_active = False
            staff.save(update_fields=["is_active"])
        return session_cookie(staff)

    return await sync_to_async(make)()


async def probe(headers) -> tuple[str, object]:
    """("accepted", first message) or ("closed", close code) or ("denied", None)."""
    ws = WebsocketCommunicator(staff_app, "/ws/probe/", headers=headers)
    try:
        connected, _ = await ws.connect(timeout=5)
        if not connected:
            return "denied", None
        output = await ws.receive_output(timeout=5)
        await ws.disconnect()
    finally:
        # The middleware's queries ran in asgiref's one sync thread: close its connection
        # there, or it outlives the test and holds the test database open.
        await database_sync_to_async(connections.close_all)()
    if output["type"] == "websocket.close":
        return "closed", output["code"]
    return "accepted", output["text"]


@pytest.mark.django_db(transaction=True)
async def test_a_supervisor_signed_in_on_our_own_page_is_admitted():
    cookie = await signed_in(Role.SUPERVISOR)
    outcome, message = await probe([OWN_ORIGIN, cookie])
    assert outcome == "accepted" and '"staff"' in message


@pytest.mark.django_db(transaction=True)
async def test_a_stranger_without_a_session_is_refused():
    assert await probe([OWN_ORIGIN]) == ("closed", 4403)


@pytest.mark.django_db(transaction=True)
async def test_a_dealer_is_refused_where_a_supervisor_is_needed():
    cookie = await signed_in(Role.DEALER)
    assert await probe([OWN_ORIGIN, cookie]) == ("closed", 4403)


@pytest.mark.django_db(transaction=True)
async def test_a_deactivated_supervisor_is_refused_although_the_session_lives_on():
    cookie = await signed_in(Role.SUPERVISOR, active=False)
    assert await probe([OWN_ORIGIN, cookie]) == ("closed", 4403)


@pytest.mark.django_db(transaction=True)
async def test_a_staff_socket_without_an_origin_is_refused_even_with_a_good_session():
    # The cookie alone proves nothing: any site could have opened this socket.
    cookie = await signed_in(Role.SUPERVISOR)
    assert await probe([cookie]) == ("closed", 4403)


@pytest.mark.django_db(transaction=True)
async def test_a_staff_socket_opened_by_another_site_is_refused():
    cookie = await signed_in(Role.SUPERVISOR)
    assert await probe([(b"origin", b"https://evil.example"), cookie]) == ("denied", None)


@pytest.mark.django_db(transaction=True)
async def test_the_helper_refuses_a_foreign_origin_by_itself(supervisor):
    scope = {"headers": [(b"origin", b"https://evil.example")], "user": supervisor}
    assert await live.staff_or_none(scope, Role.SUPERVISOR) is None
    scope["headers"] = [OWN_ORIGIN]
    assert await live.staff_or_none(scope, Role.SUPERVISOR) == supervisor
    await database_sync_to_async(connections.close_all)()


async def test_the_helper_wants_the_roles_it_admits():
    with pytest.raises(TypeError):
        await live.staff_or_none({"headers": [OWN_ORIGIN]})


@pytest.mark.django_db(transaction=True)
async def test_a_display_socket_gets_nothing_from_a_staff_session():
    # The display feed's credential is its token: a manager's cookie is no substitute.
    from casino.asgi import application

    cookie = await signed_in(Role.MANAGER)
    ws = WebsocketCommunicator(application, "/ws/jackpot/demo/", headers=[OWN_ORIGIN, cookie])
    connected, _ = await ws.connect(timeout=5)
    assert connected
    assert await ws.receive_output(timeout=5) == {"type": "websocket.close", "code": 4403}
    await database_sync_to_async(connections.close_all)()


@pytest.mark.parametrize(
    "scope, token",
    [
        ({"query_string": b"token=abc"}, "abc"),
        ({"headers": [(b"authorization", b"Token  xyz ")]}, "xyz"),
        ({"headers": [(b"authorization", b"Bearer xyz")]}, None),
        ({"query_string": b"token=", "headers": []}, None),
        ({}, None),
    ],
)
def test_scope_token_reads_the_query_then_the_authorization_header(scope, token):
    assert live.scope_token(scope) == token


def test_group_send_reaches_a_group_from_sync_code_in_another_thread():
    layer = get_channel_layer()
    name = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)("live.test", name)
    worker = threading.Thread(target=live.group_send, args=("live.test", {"type": "x.y"}))
    worker.start()
    worker.join(5)
    assert async_to_sync(layer.receive)(name) == {"type": "x.y"}
    live.channel_send(name, {"type": "x.z"})
    assert async_to_sync(layer.receive)(name) == {"type": "x.z"}


def test_group_sends_delivers_each_event_to_its_group_in_order():
    """A round's two announcements (its table, the floor) go in one trip to the loop."""
    layer = get_channel_layer()
    table, floor = (async_to_sync(layer.new_channel)() for _ in range(2))
    async_to_sync(layer.group_add)("live.table", table)
    async_to_sync(layer.group_add)("live.floor", floor)
    live.group_sends(
        [
            ("live.table", {"type": "x.round", "n": 1}),
            ("live.floor", {"type": "x.floor", "n": 2}),
            ("live.table", {"type": "x.round", "n": 3}),
        ]
    )
    assert [async_to_sync(layer.receive)(table)["n"] for _ in range(2)] == [1, 3]
    assert async_to_sync(layer.receive)(floor) == {"type": "x.floor", "n": 2}


@pytest.mark.django_db(transaction=True)
def test_after_commit_sends_only_once_the_change_is_committed():
    sent = []
    with transaction.atomic():
        live.after_commit(lambda: sent.append("after"))
        assert sent == []
    assert sent == ["after"]
    with pytest.raises(RuntimeError), transaction.atomic():
        live.after_commit(lambda: sent.append("rolled back"))
        raise RuntimeError
    assert sent == ["after"]


@pytest.mark.redis
def test_group_send_reaches_a_group_through_redis_in_order(settings):
    import uuid

    from channels.layers import channel_layers

    from tests.conftest import TEST_REDIS_URL

    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [TEST_REDIS_URL], "prefix": f"tapis-test-{uuid.uuid4().hex[:8]}"},
        }
    }
    channel_layers.backends.clear()
    try:
        layer = get_channel_layer()
        name = async_to_sync(layer.new_channel)()
        async_to_sync(layer.group_add)("live.soon", name)
        live.group_send("live.soon", {"type": "x.first"})
        live.group_send("live.soon", {"type": "x.second"})
        received = [async_to_sync(layer.receive)(name) for _ in range(2)]
        assert [m["type"] for m in received] == ["x.first", "x.second"]
    finally:
        channel_layers.backends.clear()
