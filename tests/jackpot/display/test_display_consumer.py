"""The display socket, through the project's ASGI application (spec/signage-feed.md)."""

import asyncio

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator

from casino.asgi import application
from jackpot import feed
from jackpot.display_tokens import display_token_revoke
from jackpot.models import DisplayConnection, DisplayToken
from tests.jackpot.display.support import commit_hit, commit_meter, commit_status

pytestmark = pytest.mark.django_db(transaction=True)


def socket(path: str, headers=None) -> WebsocketCommunicator:
    return WebsocketCommunicator(application, path, headers=headers or [])


async def open_feed(raw: str, slug: str = "grand") -> tuple[WebsocketCommunicator, dict]:
    ws = socket(f"/ws/jackpot/{slug}/?token={raw}")
    connected, _ = await ws.connect()
    assert connected
    return ws, await ws.receive_json_from(timeout=2)


async def closed_with(ws: WebsocketCommunicator) -> int:
    connected, _ = await ws.connect()
    assert connected  # accepted, so that the close code reaches the screen
    output = await ws.receive_output(timeout=2)
    assert output["type"] == "websocket.close"
    return output["code"]


async def test_first_message_is_the_snapshot_in_the_displays_language(english_display):
    ws, snap = await open_feed(english_display[1])
    assert snap["type"] == "snapshot" and snap["bank"] == "grand" and snap["seq"] == 0
    assert snap["levels"][0] == {
        "level": "royal_flush",
        "label": "Royal flush",
        "amount_cents": 1_234_567,
    }
    assert snap["currency"] == "EUR" and snap["status"] == "open"
    await ws.disconnect()


async def test_a_committed_meter_change_reaches_the_screen_with_a_higher_seq(bank, display):
    ws, snap = await open_feed(display[1])
    await sync_to_async(commit_meter)(bank, 1_300_000)
    message = await ws.receive_json_from(timeout=2)
    assert message["type"] == "meter" and message["seq"] == snap["seq"] + 1
    assert [lvl["amount_cents"] for lvl in message["levels"]] == [1_300_000, 130_000]
    assert message["levels"][1]["label"] == "Quinte flush"
    await ws.disconnect()


async def test_hit_then_closed_status_reach_the_screen_in_order(bank, display):
    ws, _ = await open_feed(display[1])
    await sync_to_async(commit_hit)(bank, table="UTH-7", seat=2, amount_cents=1_234_567)
    await sync_to_async(commit_status)(bank, "closed", "link fault")
    hit = await ws.receive_json_from(timeout=2)
    status = await ws.receive_json_from(timeout=2)
    assert (hit["type"], hit["table"], hit["seat"], hit["seq"]) == ("hit", "UTH-7", 2, 1)
    assert (status["type"], status["status"], status["reason"], status["seq"]) == (
        "status",
        "closed",
        "link fault",
        2,
    )
    await ws.disconnect()


async def test_an_older_seq_is_not_forwarded(bank, display):
    ws, _ = await open_feed(display[1])
    await sync_to_async(commit_meter)(bank, 1_300_000)
    assert (await ws.receive_json_from(timeout=2))["seq"] == 1
    stale = {"type": "meter", "bank": "grand", "seq": 0, "levels": []}
    await get_channel_layer().group_send(feed.feed_group("grand"), feed.group_event(stale))
    assert await ws.receive_nothing(timeout=0.2)
    await ws.disconnect()


async def test_heartbeat_repeats_the_last_seq(bank, display, settings):
    settings.JACKPOT_FEED_HEARTBEAT_SECONDS = 0.1
    ws, _ = await open_feed(display[1])
    first = await ws.receive_json_from(timeout=2)
    assert first["type"] == "heartbeat" and first["seq"] == 0  # nothing sent yet but the snapshot
    await sync_to_async(commit_meter)(bank, 1_300_000)
    message = first
    while message["type"] == "heartbeat":  # a beat may come before the meter
        message = await ws.receive_json_from(timeout=2)
    assert (message["type"], message["seq"]) == ("meter", 1)
    beat = await ws.receive_json_from(timeout=2)
    assert beat["type"] == "heartbeat" and beat["seq"] == 1 and beat["bank"] == "grand"
    assert beat["server_time"].endswith("Z")
    await ws.disconnect()


async def test_anything_a_client_sends_closes_the_socket_4400(display):
    ws, _ = await open_feed(display[1])
    await ws.send_to(text_data='{"type": "meter", "levels": []}')
    output = await ws.receive_output(timeout=2)
    assert output == {"type": "websocket.close", "code": 4400}


async def test_missing_token_is_refused_4403(bank):
    assert await closed_with(socket("/ws/jackpot/grand/")) == 4403
    assert await sync_to_async(DisplayConnection.objects.count)() == 0


async def test_revoked_token_is_refused_4403_and_nothing_changes(revoked_display):
    token, raw = revoked_display
    assert await closed_with(socket(f"/ws/jackpot/grand/?token={raw}")) == 4403
    assert await sync_to_async(DisplayConnection.objects.count)() == 0
    refreshed = await sync_to_async(DisplayToken.objects.get)(pk=token.pk)
    assert refreshed.last_seen_at is None


async def test_unknown_bank_is_4404(display):
    assert await closed_with(socket(f"/ws/jackpot/nowhere/?token={display[1]}")) == 4404


async def test_token_of_another_bank_is_refused_4403(display, other_bank):
    assert await closed_with(socket(f"/ws/jackpot/petit/?token={display[1]}")) == 4403


async def test_authorization_header_is_accepted_too(display):
    ws = socket("/ws/jackpot/grand/", headers=[(b"authorization", f"Token {display[1]}".encode())])
    connected, _ = await ws.connect()
    assert connected
    assert (await ws.receive_json_from(timeout=2))["type"] == "snapshot"
    await ws.disconnect()


async def test_connected_display_is_listed_until_it_disconnects(display):
    token, raw = display
    ws, _ = await open_feed(raw)
    connection = await sync_to_async(DisplayConnection.objects.get)()
    assert connection.token_id == token.pk
    seen = await sync_to_async(lambda: DisplayToken.objects.get(pk=token.pk).last_seen_at)()
    assert seen is not None
    await ws.disconnect()
    await asyncio.sleep(0.05)
    assert await sync_to_async(DisplayConnection.objects.count)() == 0


async def test_revoking_a_token_closes_its_open_socket(display):
    token, raw = display
    ws, _ = await open_feed(raw)
    await sync_to_async(display_token_revoke)(token_id=token.pk)
    output = await ws.receive_output(timeout=2)
    assert output == {"type": "websocket.close", "code": 4403}


async def test_signage_player_without_origin_is_accepted_but_a_foreign_origin_is_not(display):
    ws, snap = await open_feed(display[1])  # WebsocketCommunicator sends no Origin
    assert snap["type"] == "snapshot"
    await ws.disconnect()
    foreign = socket(
        f"/ws/jackpot/grand/?token={display[1]}", headers=[(b"origin", b"https://evil.example")]
    )
    connected, _ = await foreign.connect()
    assert not connected
    own = socket(
        f"/ws/jackpot/grand/?token={display[1]}", headers=[(b"origin", b"http://localhost")]
    )
    connected, _ = await own.connect()
    assert connected
    await own.disconnect()


async def test_an_expired_group_membership_heals_at_the_next_periodic_rejoin(
    bank, display, settings, monkeypatch
):
    # RedisChannelLayer drops members after group_expiry; simulate it with group_discard.
    from jackpot import consumers

    settings.JACKPOT_FEED_HEARTBEAT_SECONDS = 0.05
    monkeypatch.setattr(consumers, "REJOIN_EVERY_SECONDS", 0)
    ws, _ = await open_feed(display[1])
    (channel,) = await sync_to_async(
        lambda: list(DisplayConnection.objects.values_list("channel_name", flat=True))
    )()
    await get_channel_layer().group_discard(feed.feed_group("grand"), channel)
    await asyncio.sleep(0.2)  # a few heartbeats: the consumer joins again
    await sync_to_async(commit_meter)(bank, 1_300_000)
    for _ in range(20):
        message = await ws.receive_json_from(timeout=2)
        if message["type"] == "meter":
            break
    assert message["type"] == "meter" and message["levels"][0]["amount_cents"] == 1_300_000
    await ws.disconnect()


# --- the heartbeat keeps the feed true whatever the channel layer lost (issue 12 item 6) ----


def _commit_meter_unheard(bank, cents, monkeypatch):
    """A commit whose message never reaches this process's layer (another process, or lost)."""
    with monkeypatch.context() as patch:
        patch.setattr(feed, "request_meter_publish", lambda slug: None)
        commit_meter(bank, cents)


async def test_heartbeat_carries_the_banks_committed_seq_not_only_the_last_sent(
    bank, display, settings, monkeypatch
):
    settings.JACKPOT_FEED_HEARTBEAT_SECONDS = 0.05
    ws, snap = await open_feed(display[1])
    await sync_to_async(_commit_meter_unheard)(bank, 1_300_000, monkeypatch)
    beat = await ws.receive_json_from(timeout=2)
    assert beat["type"] == "heartbeat" and beat["seq"] == snap["seq"] + 1
    await ws.disconnect()


async def test_a_lost_meter_message_is_caught_up_one_beat_later_from_the_committed_row(
    bank, display, settings, monkeypatch
):
    settings.JACKPOT_FEED_HEARTBEAT_SECONDS = 0.05
    ws, snap = await open_feed(display[1])
    await sync_to_async(_commit_meter_unheard)(bank, 1_300_000, monkeypatch)
    seen = []
    while not seen or seen[-1]["type"] != "meter":
        seen.append(await ws.receive_json_from(timeout=2))
    assert [m["type"] for m in seen] == ["heartbeat", "meter"]  # one beat of grace, no more
    meter = seen[-1]
    assert meter["seq"] == snap["seq"] + 1
    assert [lvl["amount_cents"] for lvl in meter["levels"]] == [1_300_000, 130_000]
    assert meter["levels"][0]["label"] == "Quinte flush royale"
    await ws.disconnect()


async def test_a_lost_closed_status_is_caught_up_before_the_meter(
    bank, display, settings, monkeypatch
):
    settings.JACKPOT_FEED_HEARTBEAT_SECONDS = 0.05
    ws, _ = await open_feed(display[1])
    monkeypatch.setattr(feed, "send_to_group", lambda slug, payload: None)
    await sync_to_async(commit_status)(bank, "closed", "link fault")
    message = {"type": "heartbeat"}
    while message["type"] == "heartbeat":
        message = await ws.receive_json_from(timeout=2)
    assert (message["type"], message["status"], message["reason"]) == (
        "status",
        "closed",
        "link fault",
    )
    assert (await ws.receive_json_from(timeout=2))["type"] == "meter"
    await ws.disconnect()


async def test_a_message_on_its_way_is_not_duplicated_by_the_catch_up(bank, display, settings):
    settings.JACKPOT_FEED_HEARTBEAT_SECONDS = 0.05
    ws, _ = await open_feed(display[1])
    await sync_to_async(commit_meter)(bank, 1_300_000)
    types = [(await ws.receive_json_from(timeout=2))["type"] for _ in range(6)]
    assert types.count("meter") == 1
    await ws.disconnect()


async def test_a_revocation_whose_message_was_lost_closes_the_socket_at_the_next_beat(
    display, settings, monkeypatch
):
    from jackpot import display_tokens

    settings.JACKPOT_FEED_HEARTBEAT_SECONDS = 0.05
    token, raw = display
    ws, _ = await open_feed(raw)
    monkeypatch.setattr(display_tokens, "_close_sockets", lambda channels: None)
    await sync_to_async(display_token_revoke)(token_id=token.pk)
    output = {"type": "websocket.send"}
    while output["type"] == "websocket.send":
        output = await ws.receive_output(timeout=2)
    assert output == {"type": "websocket.close", "code": 4403}


# --- connection rows match live sockets (issue 11 item 5) ----------------------------------


async def test_no_connection_row_when_joining_the_group_fails(display, monkeypatch):
    from channels.layers import InMemoryChannelLayer

    async def redis_down(self, group, channel):
        raise ConnectionError("redis is down")

    monkeypatch.setattr(InMemoryChannelLayer, "group_add", redis_down)
    ws = socket(f"/ws/jackpot/grand/?token={display[1]}")
    connected, _ = await ws.connect()
    assert connected
    output = await ws.receive_output(timeout=2)
    assert output == {"type": "websocket.close", "code": 1013}  # try again later
    assert await sync_to_async(DisplayConnection.objects.count)() == 0


async def test_the_heartbeat_renews_the_connection_row(display, settings, monkeypatch):
    from jackpot import consumers

    settings.JACKPOT_FEED_HEARTBEAT_SECONDS = 0.05
    monkeypatch.setattr(consumers, "SEEN_EVERY_SECONDS", 0)
    ws, _ = await open_feed(display[1])
    first = await sync_to_async(lambda: DisplayConnection.objects.get().last_seen_at)()
    await ws.receive_json_from(timeout=2)
    await ws.receive_json_from(timeout=2)
    renewed = await sync_to_async(lambda: DisplayConnection.objects.get().last_seen_at)()
    assert renewed > first
    await ws.disconnect()


# --- credentials that stay out of the access logs (issue 11 item 7) ------------------------


async def test_the_display_pages_cookie_authenticates_the_socket(display):
    ws = socket(
        "/ws/jackpot/grand/", headers=[(b"cookie", f"tapis_display_grand={display[1]}".encode())]
    )
    connected, _ = await ws.connect()
    assert connected
    assert (await ws.receive_json_from(timeout=2))["type"] == "snapshot"
    await ws.disconnect()


async def test_a_player_may_send_its_token_as_a_subprotocol_and_gets_only_the_feeds_back(display):
    ws = WebsocketCommunicator(
        application,
        "/ws/jackpot/grand/",
        subprotocols=["tapis.jackpot-feed", f"tapis.token.{display[1]}"],
    )
    connected, subprotocol = await ws.connect()
    assert connected and subprotocol == "tapis.jackpot-feed"
    assert (await ws.receive_json_from(timeout=2))["type"] == "snapshot"
    await ws.disconnect()


async def test_a_wrong_token_subprotocol_is_refused_4403(display):
    ws = WebsocketCommunicator(
        application, "/ws/jackpot/grand/", subprotocols=["tapis.jackpot-feed", "tapis.token.nope"]
    )
    connected, _ = await ws.connect()
    assert connected
    assert (await ws.receive_output(timeout=2))["code"] == 4403
