"""Helpers for the display feed's tests: a bank with a given meter, and commits that
announce to the feed the way the ledger services do."""

import datetime as dt

from django.db import transaction
from django.utils import timezone

from jackpot.feed import announce_hit, announce_meter, announce_status
from jackpot.models import Bank, Hit

LEVELS = [
    {
        "level": "royal_flush",
        "percent": 100,
        "label_fr": "Quinte flush royale",
        "label_en": "Royal flush",
    },
    {
        "level": "straight_flush",
        "percent": 10,
        "label_fr": "Quinte flush",
        "label_en": "Straight flush",
    },
]


def make_bank(slug: str = "grand", meter_cents: int = 1_234_567, **kwargs) -> Bank:
    fields = {
        "name": f"Jackpot {slug}",
        "status": Bank.Status.OPEN,
        "reset_cents": 1_000_000,
        "increment_rate_ppm": 250_000,
        "levels": LEVELS,
        "meter_cents": meter_cents,
        **kwargs,
    }
    return Bank.objects.create(slug=slug, **fields)


def commit_meter(bank: Bank, meter_cents: int) -> None:
    """Stand-in for a ledger service: change the meter under the bank's lock and announce it.
    The feed only reads the bank's committed row, which is what this exercises."""
    with transaction.atomic():
        locked = Bank.objects.select_for_update().get(pk=bank.pk)
        locked.meter_cents = meter_cents
        locked.save(update_fields=["meter_cents"])
        announce_meter(locked)


def commit_status(bank: Bank, status: str, reason: str = "") -> None:
    with transaction.atomic():
        locked = Bank.objects.select_for_update().get(pk=bank.pk)
        locked.status, locked.status_reason = status, reason
        locked.save(update_fields=["status", "status_reason"])
        announce_status(locked)


def commit_hit(
    bank: Bank, *, table: str = "UTH-3", seat: int = 4, amount_cents: int = 1_234_567
) -> Hit:
    with transaction.atomic():
        locked = Bank.objects.select_for_update().get(pk=bank.pk)
        locked.hit_seq += 1
        locked.save(update_fields=["hit_seq"])
        hit = Hit.objects.create(
            bank=locked,
            order=locked.hit_seq,
            table_label=table,
            seat=seat,
            level="royal_flush",
            amount_cents=amount_cents,
            meter_before_cents=locked.meter_cents,
            recorded_at=timezone.now() - dt.timedelta(seconds=1),
        )
        announce_hit(hit)
    return hit
