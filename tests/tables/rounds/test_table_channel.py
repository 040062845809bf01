"""/ws/tables/<id>/: staff only by the session, a dealer only at their own table; the current
round first on connect, then every committed change."""

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from casino.asgi import application
from tests.casino.test_live import OWN_ORIGIN, session_cookie
from tests.tables.rounds.conftest import Felt

pytestmark = pytest.mark.django_db(transaction=True)


async def connect(table_id, staff=None, origin=OWN_ORIGIN):
    headers = [h for h in (origin,) if h]
    if staff is not None:
        headers.append(await sync_to_async(session_cookie)(staff))
    ws = WebsocketCommunicator(application, f"/ws/tables/{table_id}/", headers=headers)
    connected, _ = await ws.connect(timeout=5)
    assert connected
    return ws


async def closed_with(ws) -> int | None:
    output = await ws.receive_output(timeout=5)
    await ws.disconnect()
    return output["code"] if output["type"] == "websocket.close" else None


async def test_the_dealer_gets_the_round_first_then_every_committed_change(table, dealer):
    felt = Felt(table, dealer)
    opened = await sync_to_async(felt.open)()
    ws = await connect(table.pk, dealer)
    first = await ws.receive_json_from(timeout=5)
    assert first["type"] == "round" and first["round"]["id"] == opened["id"]
    second = await ws.receive_json_from(timeout=5)
    assert second["type"] == "table" and second["table"]["round"]["id"] == opened["id"]
    await sync_to_async(felt.wagers)(1, ante=1000)
    change = await ws.receive_json_from(timeout=5)
    assert change["type"] == "round" and change["round"]["seq"] == 1
    assert change["round"]["seats"][0]["ante"] == 1000
    await ws.disconnect()


async def test_a_dealer_of_another_table_is_refused(table, other_dealer):
    ws = await connect(table.pk, other_dealer)
    assert await closed_with(ws) == 4403


async def test_a_supervisor_may_watch_any_table(table, supervisor):
    ws = await connect(table.pk, supervisor)
    first = await ws.receive_json_from(timeout=5)
    assert first == {"type": "round", "round": None}
    await ws.disconnect()


async def test_no_session_no_origin_or_no_table_is_refused(table, dealer, supervisor):
    assert await closed_with(await connect(table.pk)) == 4403
    assert await closed_with(await connect(table.pk, dealer, origin=None)) == 4403
    assert await closed_with(await connect(table.pk + 999, supervisor)) == 4404


async def test_a_client_that_speaks_is_closed(table, supervisor):
    ws = await connect(table.pk, supervisor)
    await ws.receive_json_from(timeout=5)
    await ws.receive_json_from(timeout=5)
    await ws.send_json_to({"kind": "bets_locked"})
    assert await closed_with(ws) == 4400


async def test_the_table_is_announced_when_it_closes_and_a_round_in_progress_stops_it(
    table, dealer, supervisor
):
    from tables import services
    from tables.errors import IllegalTransition

    felt = Felt(table, dealer)
    await sync_to_async(felt.open)()
    ws = await connect(table.pk, supervisor)
    await ws.receive_json_from(timeout=5)
    await ws.receive_json_from(timeout=5)
    with pytest.raises(IllegalTransition) as refused:
        await sync_to_async(services.table_close)(table_id=table.pk, supervisor=supervisor)
    assert refused.value.code == "round_in_progress"
    await sync_to_async(felt.step)("wagers_placed", seat=1, ante=1000, blind=1000)
    await ws.receive_json_from(timeout=5)  # the round moved
    await sync_to_async(felt.step)("wagers_withdrawn", seat=1)
    await ws.receive_json_from(timeout=5)
    assignment = await sync_to_async(table.assignments.get)()
    await sync_to_async(services.assignment_end)(assignment_id=assignment.pk, supervisor=supervisor)
    change = await ws.receive_json_from(timeout=5)
    assert change["type"] == "table" and change["table"]["dealer"] is None
    await ws.disconnect()
