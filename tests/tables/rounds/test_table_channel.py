"""/ws/tables/<id>/: staff only by the session, a dealer only at their own table; the current
round first on connect, then the table, then its seats' labels, then the bank's meter; after that every committed
change and the bank's feed (meter, hit, status) in the socket's language."""

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from casino.asgi import application
from tests.casino.test_live import OWN_ORIGIN, session_cookie
from tests.tables.rounds.conftest import Felt

pytestmark = pytest.mark.django_db(transaction=True)


async def connect(table_id, staff=None, origin=OWN_ORIGIN, query=""):
    headers = [h for h in (origin,) if h]
    if staff is not None:
        headers.append(await sync_to_async(session_cookie)(staff))
    ws = WebsocketCommunicator(application, f"/ws/tables/{table_id}/{query}", headers=headers)
    connected, _ = await ws.connect(timeout=5)
    assert connected
    return ws


async def closed_with(ws) -> int | None:
    output = await ws.receive_output(timeout=5)
    await ws.disconnect()
    return output["code"] if output["type"] == "websocket.close" else None


async def test_the_dealer_gets_the_round_first_then_every_committed_change(
    table, dealer, progressive
):
    felt = Felt(table, dealer)
    opened = await sync_to_async(felt.open)()
    ws = await connect(table.pk, dealer)
    first = await ws.receive_json_from(timeout=5)
    assert first["type"] == "round" and first["round"]["id"] == opened["id"]
    second = await ws.receive_json_from(timeout=5)
    assert second["type"] == "table" and second["table"]["round"]["id"] == opened["id"]
    assert await ws.receive_json_from(timeout=5) == {"type": "seats", "seats": {}}
    third = await ws.receive_json_from(timeout=5)
    assert third["type"] == "meter" and third["bank"] == progressive.slug
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
    for _ in ("round", "table", "seats", "meter"):
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
    for _ in ("round", "table", "seats", "meter"):
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


# --- the progressive meter, forwarded from the bank's display feed -------------------------


async def opened(ws) -> dict:
    """Read the connect messages (round, table, seats); the meter that follows them."""
    assert (await ws.receive_json_from(timeout=5))["type"] == "round"
    assert (await ws.receive_json_from(timeout=5))["type"] == "table"
    assert (await ws.receive_json_from(timeout=5))["type"] == "seats"
    meter = await ws.receive_json_from(timeout=5)
    assert meter["type"] == "meter"
    return meter


async def test_the_meter_follows_the_table_on_connect_in_the_pages_language(
    table, dealer, progressive
):
    from jackpot.feed import bank_levels

    levels = bank_levels(progressive)
    french = await opened(await connect(table.pk, dealer))
    english = await opened(await connect(table.pk, dealer, query="?language=en"))
    assert french["bank"] == progressive.slug and french["seq"] == english["seq"]
    assert [lvl["label"] for lvl in french["levels"]] == [lvl["label_fr"] for lvl in levels]
    assert [lvl["label"] for lvl in english["levels"]] == [lvl["label_en"] for lvl in levels]
    assert [lvl["amount_cents"] for lvl in english["levels"]] == [
        lvl["amount_cents"] for lvl in levels
    ]


async def test_a_contribution_committed_reaches_the_table_socket_as_the_new_meter(
    table, dealer, progressive
):
    felt = Felt(table, dealer)
    await sync_to_async(felt.open)()
    await sync_to_async(felt.wagers)(1, ante=1000, progressive=progressive.wager_cents)
    ws = await connect(table.pk, dealer, query="?language=en")
    before = await opened(ws)
    await sync_to_async(felt.step)("bets_locked")
    # Two after-commit sends, in either order: the round as locked, and the meter.
    heard = {m["type"]: m for m in [await ws.receive_json_from(timeout=5) for _ in range(2)]}
    assert heard["round"]["round"]["stage"] == "preflop"
    meter = heard["meter"]
    await sync_to_async(progressive.refresh_from_db)()
    assert meter["type"] == "meter" and meter["seq"] > before["seq"]
    assert meter["levels"][0]["amount_cents"] > before["levels"][0]["amount_cents"]
    assert meter["levels"][0]["amount_cents"] == progressive.meter_cents
    await ws.disconnect()


async def test_the_banks_status_and_hits_reach_the_table_socket(table, supervisor, progressive):
    from tests.jackpot.display.support import commit_hit, commit_status

    ws = await connect(table.pk, supervisor)
    await opened(ws)
    await sync_to_async(commit_status)(progressive, "closed", "link fault")
    await sync_to_async(commit_hit)(progressive, table="UTH 1", seat=3, amount_cents=50_000)
    status = await ws.receive_json_from(timeout=5)
    hit = await ws.receive_json_from(timeout=5)
    assert (status["type"], status["status"]) == ("status", "closed")
    assert (hit["type"], hit["seat"], hit["amount_cents"]) == ("hit", 3, 50_000)
    await ws.disconnect()


async def test_an_older_meter_is_not_forwarded(table, supervisor, progressive):
    from channels.layers import get_channel_layer

    from jackpot.feed import feed_group, group_event

    ws = await connect(table.pk, supervisor)
    meter = await opened(ws)
    stale = {"type": "meter", "bank": progressive.slug, "seq": meter["seq"] - 1, "levels": []}
    await get_channel_layer().group_send(feed_group(progressive.slug), group_event(stale))
    assert await ws.receive_nothing(timeout=0.3)
    await ws.disconnect()


async def test_a_table_without_a_bank_sends_no_meter(bankless_felt):
    ws = await connect(bankless_felt.table.pk, bankless_felt.dealer)
    assert (await ws.receive_json_from(timeout=5))["type"] == "round"
    assert (await ws.receive_json_from(timeout=5))["type"] == "table"
    assert (await ws.receive_json_from(timeout=5))["type"] == "seats"
    assert await ws.receive_nothing(timeout=0.3)
    await ws.disconnect()
