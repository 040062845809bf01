"""Ratings over the live channels (issue 28, 2): every pit page hears which table's ratings
changed (`/ws/pit/`, by the table's id only; nobody outside the pit's readers), and a tablet
that connects or reconnects has the rated seats' aliases in its connect snapshot (alias only:
never a card, a name or a figure)."""

import datetime as dt
import json

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from casino.asgi import application
from casino.roles import Role
from tables.ratings.models import Rating
from tests.casino.test_live import OWN_ORIGIN, session_cookie
from tests.factories import make_staff
from tests.tables.ratings.conftest import do, rate

pytestmark = pytest.mark.django_db(transaction=True)


async def connect(path: str, staff):
    cookie = await sync_to_async(session_cookie)(staff)
    ws = WebsocketCommunicator(application, path, headers=[OWN_ORIGIN, cookie])
    connected, _ = await ws.connect(timeout=5)
    assert connected
    return ws


async def heard(ws) -> list[dict]:
    """Every message waiting on the socket (the after-commit sends are done by then)."""
    messages = []
    while not await ws.receive_nothing(timeout=0.3):
        messages.append(await ws.receive_json_from(timeout=5))
    return messages


def seats_notices(messages) -> list[int]:
    return [m["table"] for m in messages if m["type"] == "seats"]


@pytest.fixture
def second_supervisor(db):
    return make_staff(Role.SUPERVISOR, username="second")


# --- the pit: another supervisor's page of the table reads its seat map again ---------------


async def test_each_rating_write_tells_every_pit_page_which_table_changed(
    table, supervisor, second_supervisor, marie
):
    ws = await connect("/ws/pit/", second_supervisor)
    assert await ws.receive_json_from(timeout=5) == {"type": "hello"}
    opened = await sync_to_async(rate)(supervisor, table, 3, card=marie.card)
    assert seats_notices(await heard(ws)) == [table.pk]
    for action in ("pause", "resume"):
        await sync_to_async(do)(action, supervisor, opened)
        assert seats_notices(await heard(ws)) == [table.pk], action
    await sync_to_async(do)("close", supervisor, opened, walk_with_cents=None)
    assert seats_notices(await heard(ws)) == [table.pk]
    await ws.disconnect()


async def test_a_move_to_another_table_tells_both_tables_pages(
    table, uth9, supervisor, second_supervisor, marie
):
    opened = await sync_to_async(rate)(supervisor, table, 3, card=marie.card)
    ws = await connect("/ws/pit/", second_supervisor)
    await ws.receive_json_from(timeout=5)
    await sync_to_async(do)("move", supervisor, opened, table=uth9.pk, seat=1)
    assert sorted(seats_notices(await heard(ws))) == sorted([table.pk, uth9.pk])
    await ws.disconnect()


async def test_a_table_closed_with_open_ratings_tells_the_pit_its_seats_are_free(
    uth9, supervisor, second_supervisor, marie
):
    from tables import services as floor

    await sync_to_async(rate)(supervisor, uth9, 2, card=marie.card)
    ws = await connect("/ws/pit/", second_supervisor)
    await ws.receive_json_from(timeout=5)
    await sync_to_async(floor.table_close)(table_id=uth9.pk, supervisor=supervisor)
    assert uth9.pk in seats_notices(await heard(ws))
    assert await sync_to_async(Rating.objects.filter(closed_at__isnull=True).count)() == 0
    await ws.disconnect()


@pytest.mark.parametrize("role", [Role.DEALER, Role.HOST, Role.COMPLIANCE, Role.STAFF_ADMIN])
async def test_nobody_outside_the_pits_readers_hears_of_a_rating(role, table, supervisor, marie):
    outsider = await sync_to_async(make_staff)(role)
    ws = await connect("/ws/pit/", outsider)
    output = await ws.receive_output(timeout=5)
    assert output == {"type": "websocket.close", "code": 4403}
    await sync_to_async(rate)(supervisor, table, 3, card=marie.card)
    assert await ws.receive_nothing(timeout=0.3)  # refused: joined no group


async def test_the_notice_carries_the_tables_id_only(table, supervisor, marie):
    ws = await connect("/ws/pit/", supervisor)
    await ws.receive_json_from(timeout=5)
    await sync_to_async(rate)(supervisor, table, 3, card=marie.card)
    notice = next(m for m in await heard(ws) if m["type"] == "seats")
    assert notice == {"type": "seats", "table": table.pk}
    await ws.disconnect()


def test_the_seat_map_is_read_alone_by_the_pits_readers_only(
    client, table, supervisor, auditor, dealer, marie
):
    rate(supervisor, table, 3, card=marie.card)
    path = f"/pit/tables/{table.pk}/fragments/seats/"
    client.force_login(supervisor)
    page = client.get(path)
    assert page.status_code == 200
    html = page.content.decode()
    assert "Marie D." in html and "data-seat-map" in html
    # Its forms come back to the table's page, not to the fragment.
    assert f'name="next" value="/pit/tables/{table.pk}/"' in html and "fragments" not in html
    client.force_login(auditor)
    seen = client.get(path).content.decode()
    assert "Marie D." in seen and "/ratings/open/" not in seen  # reads, never writes
    client.force_login(dealer)
    assert client.get(path).status_code == 403


# --- the tablet: the aliases in the connect snapshot ----------------------------------------


async def snapshot(ws) -> list[dict]:
    """The connect messages: round, table, seats, then the bank's meter."""
    return [await ws.receive_json_from(timeout=5) for _ in range(4)]


async def test_a_tablet_connecting_after_a_rating_opened_has_the_alias_at_once(
    table, dealer, supervisor, marie
):
    await sync_to_async(rate)(supervisor, table, 3, card=marie.card)
    ws = await connect(f"/ws/tables/{table.pk}/", dealer)
    messages = await snapshot(ws)
    assert [m["type"] for m in messages] == ["round", "table", "seats", "meter"]
    assert messages[2] == {"type": "seats", "seats": {"3": "Marie D."}}
    await ws.disconnect()


async def test_the_snapshot_tells_the_dealer_the_alias_and_nothing_of_the_file(
    table, dealer, supervisor, marie
):
    from tables.ratings.identity import identity_record

    await sync_to_async(identity_record)(
        officer=await sync_to_async(make_staff)(Role.COMPLIANCE),
        player_id=marie.pk,
        family_name="Dupont",
        given_names="Marie",
        birth_date=dt.date(1970, 1, 1),
        document_kind="passport",
    )
    await sync_to_async(rate)(supervisor, table, 3, card=marie.card)
    ws = await connect(f"/ws/tables/{table.pk}/", dealer)
    text = json.dumps(await snapshot(ws))
    assert "Marie D." in text
    for secret in ("400123", "Dupont", "1970", "theo", "player"):
        assert secret not in text
    await ws.disconnect()


async def test_a_tablet_connecting_after_the_close_has_no_alias(table, dealer, supervisor, marie):
    opened = await sync_to_async(rate)(supervisor, table, 3, card=marie.card)
    await sync_to_async(do)("close", supervisor, opened, walk_with_cents=None)
    ws = await connect(f"/ws/tables/{table.pk}/", dealer)
    assert (await snapshot(ws))[2] == {"type": "seats", "seats": {}}
    await ws.disconnect()


def test_reading_the_seat_map_again_costs_the_same_with_more_seats_rated(
    client, table, supervisor, marie, paul
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tables.ratings.models import Player

    client.force_login(supervisor)
    path = f"/pit/tables/{table.pk}/fragments/seats/"

    def queries() -> int:
        with CaptureQueriesContext(connection) as seen:
            assert client.get(path).status_code == 200
        return len(seen.captured_queries)

    rate(supervisor, table, 1, card=marie.card)
    one = queries()
    rate(supervisor, table, 2, card=paul.card)
    for seat in (3, 4):
        rate(supervisor, table, seat, anonymous=f"player at {seat}")
    assert Player.objects.count() == 4
    assert queries() == one
