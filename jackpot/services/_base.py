"""What every progressive service shares: the bank lock, the clock, and the ledger append."""

import datetime as dt

from django.conf import settings
from django.db import connection
from django.utils import timezone

from casino.audit import _ADVISORY_LOCK_KEY as AUDIT_CHAIN_LOCK
from casino.clock import stamp
from jackpot.errors import BankNotFound
from jackpot.models import Bank, MeterEntry

# The cached totals a service writes back; feed_seq belongs to jackpot.feed, which updates it.
TOTAL_FIELDS = [
    "meter_cents",
    "reserve_cents",
    "overflow_cents",
    "meter_carry_ppm",
    "reserve_carry_ppm",
    "contributions_count",
    "wagered_cents",
    "hits_count",
    "paid_total_cents",
    "house_funded_cents",
    "ledger_seq",
    "hit_seq",
]


def bank_for_update(bank_id: int) -> Bank:
    """Lock the bank's row until the caller's transaction ends.

    The tables layer calls this first, reads the meter, settles the round with it, then calls
    the hit and contribution services in the same transaction: the meter cannot move between
    the read and the hit because every writer of a bank takes this lock first.
    """
    if not connection.in_atomic_block:
        raise RuntimeError("bank_for_update() must run inside transaction.atomic()")
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            # Every service that locks a bank also writes the audit chain, whose writers hold
            # a global advisory lock until commit. Taking that lock first, here, gives every
            # transaction one lock order (chain, then bank) whether it audited something
            # before (the tables layer) or not: no deadlock between the two.
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [AUDIT_CHAIN_LOCK])
            if getattr(settings, "JACKPOT_ASYNC_COMMIT", False):
                # Opt-in (see README): the commit returns before its WAL reaches the disk.
                cursor.execute("SET LOCAL synchronous_commit TO OFF")
    try:
        return Bank.objects.select_for_update().get(pk=bank_id)
    except (Bank.DoesNotExist, ValueError, TypeError):
        raise BankNotFound(f"there is no progressive bank #{bank_id}") from None


class When:
    """One instant, with the gaming date and shift the server assigns to it."""

    __slots__ = ("at", "gaming_date", "shift")

    def __init__(self, at: dt.datetime, gaming_date, shift: str) -> None:
        self.at, self.gaming_date, self.shift = at, gaming_date, shift

    @classmethod
    def now(cls) -> "When":
        at = timezone.now()
        gaming_date, shift = stamp(at)
        return cls(at, gaming_date, shift)

    @classmethod
    def of_audit(cls, entry) -> "When":
        # The audit entry was stamped a moment ago: reuse it rather than ask the clock again.
        return cls(entry.created_at, entry.gaming_date, entry.shift)


def append_entry(
    bank: Bank,
    *,
    kind: str,
    when: When,
    actor=None,
    meter: int = 0,
    reserve: int = 0,
    overflow: int = 0,
    meter_carry: int = 0,
    reserve_carry: int = 0,
    **fields,
) -> MeterEntry:
    """Add one ledger line and move the bank's cached totals by the same amounts.

    The caller holds the bank lock and saves the bank (TOTAL_FIELDS) before commit.
    """
    bank.ledger_seq += 1
    bank.meter_cents += meter
    bank.reserve_cents += reserve
    bank.overflow_cents += overflow
    bank.meter_carry_ppm += meter_carry
    bank.reserve_carry_ppm += reserve_carry
    bank.house_funded_cents += fields.get("house_funded_cents", 0)
    entry = MeterEntry(
        bank=bank,
        seq=bank.ledger_seq,
        kind=kind,
        created_at=when.at,
        gaming_date=when.gaming_date,
        shift=when.shift,
        actor=actor if getattr(actor, "pk", None) else None,
        meter_delta_cents=meter,
        reserve_delta_cents=reserve,
        overflow_delta_cents=overflow,
        meter_carry_delta_ppm=meter_carry,
        reserve_carry_delta_ppm=reserve_carry,
        meter_after_cents=bank.meter_cents,
        reserve_after_cents=bank.reserve_cents,
        overflow_after_cents=bank.overflow_cents,
        **fields,
    )
    entry.save(force_insert=True)
    return entry


def save_totals(bank: Bank, *extra_fields: str) -> None:
    bank.save(update_fields=[*TOTAL_FIELDS, *extra_fields])


def reset_to_seed(bank: Bank, *, when: When, actor=None, hit=None, reference: str = ""):
    """Bring the meter up to the reset amount, drawn from the reserve; the house pays what
    the reserve cannot (recorded on the entry). Nothing is written if the meter is already
    at or above the reset amount."""
    need = bank.reset_cents - bank.meter_cents
    if need <= 0:
        return None
    from_reserve = min(max(bank.reserve_cents, 0), need)
    return append_entry(
        bank,
        kind=MeterEntry.Kind.RESET,
        when=when,
        actor=actor,
        meter=need,
        reserve=-from_reserve,
        house_funded_cents=need - from_reserve,
        hit=hit,
        reference=reference,
        data={"reset_cents": bank.reset_cents, "from_reserve_cents": from_reserve},
    )
