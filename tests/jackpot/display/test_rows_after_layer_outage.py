"""A display's connection row ends when its socket does, whatever the channel layer did (issue
23, item 4): with displays connected and Redis stopped, the sockets ended but their rows stayed
(no disconnect ran, and the process's heartbeat kept renewing them), so that after the screens
reconnected the connected-displays list held twice as many rows as live sockets.

A throw-away redis-server of this test (port 8536) carries the channel layer; it is killed
under connected displays and started again; the screens reconnect."""

import asyncio
import time

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from casino.asgi import application
from jackpot.display_tokens import display_token_issue
from jackpot.models import DisplayConnection
from tests.processes import start_redis_server, stop_group

pytestmark = pytest.mark.django_db(transaction=True)

PORT = 8536
SCREENS = 4


@pytest.fixture
def layer_redis(settings, tmp_path):
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [f"redis://127.0.0.1:{PORT}/0"]},
        }
    }
    servers = [start_redis_server(PORT, tmp_path)]

    class Redis:
        def kill(self) -> None:
            stop_group(servers[-1], grace=0)

        def start(self) -> None:
            servers.append(start_redis_server(PORT, tmp_path))

    yield Redis()
    for server in servers:
        stop_group(server, grace=0)


async def open_screen(raw: str) -> WebsocketCommunicator:
    ws = WebsocketCommunicator(application, f"/ws/jackpot/grand/?token={raw}")
    connected, _ = await ws.connect(timeout=5)
    assert connected
    assert (await ws.receive_json_from(timeout=5))["type"] == "snapshot"
    return ws


async def ended(ws: WebsocketCommunicator, seconds: float) -> bool:
    """True once the socket's application has ended (closed, or crashed without Redis)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            output = await ws.receive_output(timeout=deadline - time.monotonic())
        except TimeoutError:
            return False
        except Exception:
            return True  # the consumer raised: its socket is gone
        if output["type"] == "websocket.close":
            await ws.wait(timeout=5)  # the application's own end (its cleanup) too
            return True
    return False


def rows() -> int:
    return DisplayConnection.objects.count()


async def test_rows_match_live_sockets_after_redis_stopped_under_connected_displays(
    layer_redis, settings, bank
):
    settings.JACKPOT_FEED_HEARTBEAT_SECONDS = 0.2
    raws = [
        (await sync_to_async(display_token_issue)(bank_slug=bank.slug, name=f"Écran {n}"))[1]
        for n in range(SCREENS)
    ]
    first = [await open_screen(raw) for raw in raws]
    assert await sync_to_async(rows)() == SCREENS

    layer_redis.kill()
    for ws in first:  # each socket ends: its layer is gone
        assert await ended(ws, 20)
    layer_redis.start()
    restarted = await sync_to_async(timezone.now)()
    again = [await open_screen(raw) for raw in raws]  # the screens reconnect
    await asyncio.sleep(1)  # beats of the live sockets (which renewed the dead rows before)

    assert await sync_to_async(rows)() == SCREENS
    oldest = await sync_to_async(
        lambda: min(r.connected_at for r in DisplayConnection.objects.all())
    )()
    assert oldest >= restarted  # only the live sockets' rows: none of the dead ones
    for ws in again:
        await ws.disconnect()
    assert await sync_to_async(rows)() == 0
