"""The feed's messages and when they leave (spec/signage-feed.md)."""

import json

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from jackpot import feed
from jackpot.models import Bank
from jackpot.selectors import level_amount_cents
from tests.factories import PropertyFactory
from tests.jackpot.display.support import commit_hit, commit_meter, commit_status, make_bank

# Messages leave on commit, so these tests commit for real.
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def no_publish_pending():
    """A test that leaves a publish queued must not hold the next test's flag."""
    feed._flags_by_url.clear()
    yield
    feed._flags_by_url.clear()


class Listener:
    """A channel in the bank's group, as a consumer would be."""

    def __init__(self, slug: str):
        self.layer = get_channel_layer()
        self.name = async_to_sync(self.layer.new_channel)()
        async_to_sync(self.layer.group_add)(feed.feed_group(slug), self.name)

    def messages(self) -> list[dict]:
        got = []

        async def drain():
            import asyncio

            while True:
                try:
                    event = await asyncio.wait_for(self.layer.receive(self.name), 0.05)
                except TimeoutError:
                    return
                assert event["seq"] == json.loads(event["text"]["en"])["seq"]
                got.append(json.loads(event["text"]["fr"]))

        async_to_sync(drain)()
        return got


@pytest.mark.parametrize(
    "meter, percent, expected",
    [
        (1_234_567, 100, 1_234_567),
        (1_234_567, 10, 123_456),  # 123,456.7 cents rounds down
        (1_234_567, 25, 308_641),  # 308,641.75 cents
        (999, 10, 99),
        (0, 10, 0),
    ],
)
def test_a_tier_shows_its_percent_of_the_meter_rounded_down_to_the_cent(meter, percent, expected):
    assert level_amount_cents(meter, percent) == expected


def test_snapshot_carries_every_field_of_the_contract(bank):
    snap = feed.localize(feed.snapshot(bank), "fr")
    assert set(snap) == {
        "type",
        "bank",
        "name",
        "currency",
        "seq",
        "status",
        "levels",
        "recent_hits",
        "server_time",
    }
    assert snap["type"] == "snapshot" and snap["bank"] == "grand" and snap["status"] == "open"
    assert snap["levels"] == [
        {"level": "royal_flush", "label": "Quinte flush royale", "amount_cents": 1_234_567},
        {"level": "straight_flush", "label": "Quinte flush", "amount_cents": 123_456},
    ]
    assert snap["server_time"].endswith("Z") and "T" in snap["server_time"]
    assert snap["recent_hits"] == []


def test_snapshot_currency_is_the_propertys():
    PropertyFactory(currency="CAD")
    assert feed.snapshot(make_bank())["currency"] == "CAD"


def test_english_display_gets_english_labels(bank):
    levels = feed.localize(feed.snapshot(bank), "en")["levels"]
    assert [lvl["label"] for lvl in levels] == ["Royal flush", "Straight flush"]


def test_recent_hits_newest_first(bank):
    commit_hit(bank, table="UTH-1", amount_cents=100)
    commit_hit(bank, table="UTH-2", amount_cents=200)
    hits = feed.snapshot(Bank.objects.get(pk=bank.pk))["recent_hits"]
    assert [(h["table"], h["amount_cents"], h["state"]) for h in hits] == [
        ("UTH-2", 200, "pending"),
        ("UTH-1", 100, "pending"),
    ]
    assert hits[0]["recorded_at"].endswith("Z")


def test_meter_message_leaves_only_after_commit_with_the_committed_value(bank):
    listener = Listener(bank.slug)
    with transaction.atomic():
        locked = Bank.objects.select_for_update().get(pk=bank.pk)
        locked.meter_cents = 1_300_000
        locked.save(update_fields=["meter_cents"])
        feed.announce_meter(locked)
        assert listener.messages() == []
    (message,) = listener.messages()
    assert message["type"] == "meter" and message["seq"] == 1
    assert [lvl["amount_cents"] for lvl in message["levels"]] == [1_300_000, 130_000]


def test_a_rolled_back_change_sends_nothing_and_keeps_the_seq(bank):
    listener = Listener(bank.slug)
    with pytest.raises(RuntimeError), transaction.atomic():
        locked = Bank.objects.select_for_update().get(pk=bank.pk)
        feed.announce_status(locked)
        raise RuntimeError("the service failed after announcing")
    assert listener.messages() == []
    assert Bank.objects.get(pk=bank.pk).feed_seq == 0


def test_seq_grows_across_every_kind_of_message_and_is_kept_on_the_bank(bank):
    listener = Listener(bank.slug)
    commit_meter(bank, 1_300_000)
    commit_hit(bank)
    commit_status(bank, "closed", "maintenance")
    messages = listener.messages()
    assert [(m["type"], m["seq"]) for m in messages] == [("meter", 1), ("hit", 2), ("status", 3)]
    assert Bank.objects.get(pk=bank.pk).feed_seq == 3  # survives a restart: it is on the row


def test_hit_and_status_messages_have_the_contract_fields(bank):
    listener = Listener(bank.slug)
    commit_hit(bank, table="UTH-3", seat=4, amount_cents=1_234_567)
    commit_status(bank, "closed", "link fault")
    hit, status = listener.messages()
    assert hit == {
        "type": "hit",
        "bank": "grand",
        "seq": 1,
        "table": "UTH-3",
        "seat": 4,
        "level": "royal_flush",
        "amount_cents": 1_234_567,
        "state": "pending",
    }
    assert status == {
        "type": "status",
        "bank": "grand",
        "seq": 2,
        "status": "closed",
        "reason": "link fault",
    }


def test_a_burst_of_commits_collapses_into_one_publish_of_the_last_value(bank, monkeypatch):
    queued = []
    monkeypatch.setattr(feed.publish_meter, "delay", lambda slug: queued.append(slug))
    listener = Listener(bank.slug)
    for cents in (1_250_000, 1_260_000, 1_270_000, 1_280_000):
        commit_meter(bank, cents)
    assert queued == ["grand"]  # one publish queued for the whole burst

    feed.publish_meter(queued.pop())  # the worker runs it
    (message,) = listener.messages()
    assert message["seq"] == 4
    assert message["levels"][0]["amount_cents"] == 1_280_000

    commit_meter(bank, 1_290_000)  # the next change queues a new publish
    assert queued == ["grand"]


def test_the_committing_request_gives_the_publish_to_the_broker_once_committed(
    bank, monkeypatch, settings, celery_not_eager
):
    # As under `make serve` (a broker): the request raises the flag and, once its change is
    # committed, hands the task to the broker (delay_on_commit).
    settings.REDIS_URL = ""  # this process's flags, not the shared Redis's
    queued = []
    monkeypatch.setattr(feed.publish_meter, "delay", lambda slug: queued.append(slug))
    with transaction.atomic():
        commit_meter(bank, 1_250_000)
        assert queued == []
    assert queued == ["grand"]


def test_a_commit_while_the_publish_is_queued_is_covered_by_it(bank, monkeypatch):
    queued = []
    monkeypatch.setattr(feed.publish_meter, "delay", lambda slug: queued.append(slug))
    listener = Listener(bank.slug)
    commit_meter(bank, 1_250_000)
    commit_meter(bank, 1_260_000)  # flag still raised: nothing more queued
    feed.publish_meter(queued.pop())
    assert listener.messages()[-1]["levels"][0]["amount_cents"] == 1_260_000
    assert queued == []
