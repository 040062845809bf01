"""/ws/pit/: supervisors, managers and auditors by the session; it says what moved (a
table, an alert, a bank, a pit action) and the page reads that part again."""

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from casino.asgi import application
from casino.roles import Role
from tests.casino.test_live import OWN_ORIGIN, session_cookie
from tests.factories import make_staff
from tests.tables.rounds.conftest import (
    Felt,
)

pytestmark = pytest.mark.django_db(transaction=True)


async def connect(staff=None, origin=OWN_ORIGIN):
    headers = [h for h in (origin,) if h]
    if staff is not None:
        headers.append(await sync_to_async(session_cookie)(staff))
    ws = WebsocketCommunicator(application, "/ws/pit/", headers=headers)
    connected, _ = await ws.connect(timeout=5)
    assert connected
    return ws


async def closed_with(ws) -> int | None:
    output = await ws.receive_output(timeout=5)
    await ws.disconnect()
    return output["code"] if output["type"] == "websocket.close" else None


@pytest.mark.parametrize(
    ("role", "admitted"),
    [
        (Role.DEALER, False),
        (Role.SUPERVISOR, True),
        (Role.MANAGER, True),
        (Role.AUDITOR, True),
        (Role.STAFF_ADMIN, False),
    ],
)
async def test_each_role_is_admitted_or_refused(role, admitted):
    staff = await sync_to_async(make_staff)(role)
    ws = await connect(staff)
    if admitted:
        assert await ws.receive_json_from(timeout=5) == {"type": "hello"}
        await ws.disconnect()
    else:
        assert await closed_with(ws) == 4403


async def test_a_foreign_origin_is_refused(supervisor):
    cookie = await sync_to_async(session_cookie)(supervisor)
    ws = WebsocketCommunicator(
        application, "/ws/pit/", headers=[(b"origin", b"https://evil.example"), cookie]
    )
    connected, _ = await ws.connect(timeout=5)
    assert not connected  # refused before the handshake completes (casino.asgi)


async def test_a_round_moving_at_a_table_reaches_the_pit(table, dealer, supervisor, progressive):
    ws = await connect(supervisor)
    assert await ws.receive_json_from(timeout=5) == {"type": "hello"}
    felt = Felt(table, dealer)
    await sync_to_async(felt.open)()
    assert await ws.receive_json_from(timeout=5) == {"type": "table", "table": table.pk}
    await ws.disconnect()


async def test_a_raised_alert_reaches_the_pit_by_its_id(table, supervisor):
    from tables.pit.alerts import alert_raise

    ws = await connect(supervisor)
    await ws.receive_json_from(timeout=5)
    alert = await sync_to_async(alert_raise)(
        kind="table_idle", key="test-idle", table=table, params={"minutes": 20}
    )
    message = await ws.receive_json_from(timeout=5)
    assert message == {"type": "alert", "alert": alert.pk}
    await ws.disconnect()


async def test_a_pit_that_speaks_is_closed(supervisor):
    ws = await connect(supervisor)
    await ws.receive_json_from(timeout=5)
    await ws.send_json_to({"hello": "server"})
    assert await closed_with(ws) == 4400
