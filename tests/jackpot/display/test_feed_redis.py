"""End to end through real Redis: a Celery-side publisher reaches a connected socket."""

import asyncio
import uuid

import pytest
from channels.testing import WebsocketCommunicator

from casino.asgi import application
from jackpot import feed
from jackpot.display_tokens import display_token_issue
from tests.conftest import TEST_REDIS_URL
from tests.jackpot.display.support import commit_meter, make_bank

pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(
    "backend",
    ["channels_redis.pubsub.RedisPubSubChannelLayer", "channels_redis.core.RedisChannelLayer"],
)
async def test_celery_side_publish_reaches_a_connected_socket_through_redis(
    backend, settings, casino_property, monkeypatch
):
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": backend,
            "CONFIG": {"hosts": [TEST_REDIS_URL], "prefix": f"tapis-test-{uuid.uuid4().hex[:8]}"},
        }
    }
    slug = f"r{uuid.uuid4().hex[:10]}"  # its group is its own in the shared Redis
    bank = await asyncio.to_thread(make_bank, slug)
    _, raw = await asyncio.to_thread(display_token_issue, bank_slug=slug, name="Redis")
    ws = WebsocketCommunicator(application, f"/ws/jackpot/{slug}/?token={raw}")
    assert (await ws.connect())[0]
    assert (await ws.receive_json_from(timeout=3))["type"] == "snapshot"

    queued = []
    monkeypatch.setattr(feed.publish_meter, "delay", lambda s: queued.append(s))
    # The commit queues the publish; the worker (another thread, its own event loop each
    # call, as in a Celery worker) reads the committed row and publishes to Redis.
    await asyncio.to_thread(commit_meter, bank, 1_300_000)
    await asyncio.to_thread(commit_meter, bank, 1_310_000)
    assert queued == [slug, slug]  # one publish per commit, each reads the committed row
    # disable_sync_subtasks=False: Celery's "a task is running" flag is one per process, and an
    # eager task run by another thread of the test process at that moment would set it.
    await asyncio.to_thread(
        lambda: feed.publish_meter.apply(args=[slug]).get(disable_sync_subtasks=False)
    )

    message = await ws.receive_json_from(timeout=3)
    assert message["type"] == "meter" and message["seq"] == 2
    assert message["levels"][0]["amount_cents"] == 1_310_000
    await ws.disconnect()
