"""End to end: a real contribution, a real `celery worker` process, real Redis, a socket.

test_feed_redis.py runs the publish task in a thread of the test process. Here the commit
queues `publish_meter` on the broker, a worker subprocess (on the PostgreSQL test database,
so it sees the committed rows) picks it up, reads the bank and publishes to the Redis channel
layer, and the display socket connected in the test process hears the committed meter.
"""

import asyncio
import time
import uuid
from urllib.parse import urlsplit

import pytest
from celery.signals import after_task_publish
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connections

from casino.asgi import application
from casino.celery import app as celery_app
from jackpot import services
from jackpot.display_tokens import display_token_issue
from jackpot.models import Bank
from tests.conftest import TEST_REDIS_URL
from tests.jackpot.factories import make_bank
from tests.processes import CeleryWorker, use_broker

pytestmark = [pytest.mark.redis, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

# The worker consumes every task queued in its Redis database: no other test may share it.
WORKER_REDIS_DB = 11
READY_SECONDS = 30
METER_SECONDS = 10
PUBLISH_TASK = "jackpot.feed.publish_meter"


def worker_redis_url() -> str:
    return urlsplit(TEST_REDIS_URL)._replace(path=f"/{WORKER_REDIS_DB}").geturl()


@pytest.fixture
def celery_worker_process(transactional_db, tmp_path):
    """A `celery worker` subprocess on the test database and a Redis database of its own.
    Stopped before the test database is flushed (it depends on transactional_db)."""
    worker = CeleryWorker(tmp_path / "celery-worker.log", redis_url=worker_redis_url())
    try:
        if not worker.wait_for_line(" ready.", READY_SECONDS):
            pytest.fail(
                f"the Celery worker was not ready within {READY_SECONDS} s:\n{worker.log()}"
            )
        yield worker
    finally:
        worker.stop()


@pytest.fixture
def worker_redis(settings):
    """This process on the worker's Redis: broker and channel layer."""
    url = worker_redis_url()
    settings.REDIS_URL = url
    settings.CHANNEL_LAYERS = {
        "default": {"BACKEND": settings.CHANNEL_LAYER_BACKEND, "CONFIG": {"hosts": [url]}}
    }
    broker, eager = celery_app.conf.broker_url, celery_app.conf.task_always_eager
    use_broker(url)
    celery_app.conf.task_always_eager = False
    yield url
    use_broker(broker)
    celery_app.conf.task_always_eager = eager


@pytest.fixture
def published_tasks():
    """(task id, args) of every publish_meter this process sent to the broker."""
    sent: list[tuple[str, str]] = []

    def record(sender=None, headers=None, **kwargs):
        if sender == PUBLISH_TASK:
            sent.append((headers["id"], headers.get("argsrepr")))

    after_task_publish.connect(record, weak=False)
    yield sent
    after_task_publish.disconnect(record)


async def in_thread(fn, /, *args, **kwargs):
    """Sync ORM work off the event loop, leaving no connection open to the test database."""

    def run():
        try:
            return fn(*args, **kwargs)
        finally:
            connections.close_all()

    return await asyncio.to_thread(run)


async def next_meter(ws: WebsocketCommunicator, worker: CeleryWorker) -> dict:
    deadline = time.monotonic() + METER_SECONDS
    while (left := deadline - time.monotonic()) > 0:
        try:
            message = await ws.receive_json_from(timeout=left)
        except TimeoutError:
            break
        if message["type"] == "meter":
            return message
        assert message["type"] == "heartbeat", message
    pytest.fail(f"no meter message within {METER_SECONDS} s; worker log:\n{worker.log()}")


async def test_a_contribution_reaches_a_connected_screen_through_a_celery_worker_process(
    celery_worker_process, worker_redis, published_tasks, casino_property, manager, dealer
):
    slug = f"e2e-{uuid.uuid4().hex[:10]}"  # its group is its own in Redis
    # Meter at its 100.00 reset; a 1.00 wager sends 20 cents to the meter.
    bank = await in_thread(make_bank, manager=manager, slug=slug)
    _, raw = await in_thread(display_token_issue, bank_slug=slug, name="Entrée salle")
    ws = WebsocketCommunicator(application, f"/ws/jackpot/{slug}/?token={raw}")
    assert (await ws.connect())[0]
    try:
        first = await ws.receive_json_from(timeout=5)
        assert first["type"] == "snapshot"
        assert [lvl["amount_cents"] for lvl in first["levels"]] == [10_000, 1_000]

        await in_thread(
            services.bank_contribute,
            bank_id=bank.pk,
            reference=f"{slug}-round-1",
            wager_count=3,
            wager_cents=100,
            actor=dealer,
        )
        committed = await in_thread(Bank.objects.get, pk=bank.pk)
        # 3 wagers x 1.00 x 20 % = 0.60 on the 100.00 meter; the straight flush shows 10 %.
        assert committed.meter_cents == 10_060

        message = await next_meter(ws, celery_worker_process)
        assert message["seq"] > first["seq"]
        assert message == {
            "type": "meter",
            "bank": slug,
            "seq": committed.feed_seq,
            "levels": [
                {"level": "royal_flush", "label": "Quinte flush royale", "amount_cents": 10_060},
                {"level": "straight_flush", "label": "Quinte flush", "amount_cents": 1_006},
            ],
        }
    finally:
        if not ws.future.done():  # a receive that timed out has already stopped the consumer
            await ws.disconnect()
        # The consumer's queries ran in asgiref's one sync thread: close its connection there,
        # or it outlives the test and holds the test database open.
        await database_sync_to_async(connections.close_all)()

    # It went through the broker (not eagerly here), and the worker process ran it.
    assert celery_app.conf.task_always_eager is False
    assert len(published_tasks) == 1, published_tasks
    task_id, args = published_tasks[0]
    assert slug in args
    ran = f"Task {PUBLISH_TASK}[{task_id}] succeeded"
    assert await asyncio.to_thread(celery_worker_process.wait_for_line, ran, 5), (
        celery_worker_process.log()
    )
    assert f"Task {PUBLISH_TASK}[{task_id}] received" in celery_worker_process.log()
