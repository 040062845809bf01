"""What every progressive service shares: the bank lock, the clock, and the ledger append."""

import datetime as dt

from django.conf import settings
from django.db import connection
from django.utils import timezone

from casino.audit import CHAIN_LOCK_HELD_PARAMS, CHAIN_LOCK_HELD_SQL
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
    """Lock the bank's row until the caller's transaction ends, with every contribution
    committed so far folded into its meter.

    The tables layer calls this first, reads the meter, settles the round with it, then calls
    the hit and contribution services in the same transaction: the meter cannot move between
    the read and the hit, because every writer of a bank's meter holds this lock, and
    hit_record does not fold again a bank this transaction already locked (contributions
    committed meanwhile are folded right after this transaction commits, see services.fold).

    Lock order: a transaction locks its bank(s) BEFORE it writes any audit entry (the chain's
    lock is then taken after the bank's, by everyone). On PostgreSQL this refuses, with a
    RuntimeError, to lock a bank not already locked by this transaction once the transaction
    has audited something; the tables layer must therefore call it before auditing anything.
    Locking the same bank again in the same transaction is always allowed.
    """
    return lock_bank(bank_id, fold="always")


def lock_bank(bank_id: int, *, fold: str) -> Bank:
    """bank_for_update, with the fold: "always", or "first" (only when this transaction did
    not lock the bank before; on SQLite, always)."""
    if not connection.in_atomic_block:
        raise RuntimeError("bank_for_update() must run inside transaction.atomic()")
    first = True
    if connection.vendor == "postgresql":
        held = _held_by_this_transaction()
        first = bank_id not in held["locked"]
        if first and bank_id not in held["claimed"] and held["chain"]:
            raise RuntimeError(
                "bank_for_update() after the audit chain's lock: lock the bank first, then "
                "audit (one lock order, or two transactions can deadlock)"
            )
        if getattr(settings, "JACKPOT_ASYNC_COMMIT", False):
            with connection.cursor() as cursor:
                # Opt-in (see README): the commit returns before its WAL reaches the disk.
                cursor.execute("SET LOCAL synchronous_commit TO OFF")
    try:
        # FOR NO KEY UPDATE: excludes every other locker of the bank, but not the foreign-key
        # checks of rows that point at it, so tables keep queueing contributions meanwhile.
        bank = Bank.objects.select_for_update(no_key=True).get(pk=bank_id)
    except (Bank.DoesNotExist, ValueError, TypeError):
        raise BankNotFound(f"there is no progressive bank #{bank_id}") from None
    if connection.vendor == "postgresql":
        held["locked"].add(bank.pk)
    if fold == "always" or first:
        from jackpot.services.fold import fold_all_locked

        fold_all_locked(bank)  # every contribution committed so far is on the meter
    return bank


def claim_new_bank(bank_id: int) -> None:
    """A bank row inserted by this transaction may be locked after the audit: no other
    transaction sees the row before commit, so none can wait for it (bank_create, the
    admin's add)."""
    if connection.vendor == "postgresql" and connection.in_atomic_block:
        _held_by_this_transaction()["claimed"].add(bank_id)


def banks_locked_here() -> set[int]:
    """The banks this transaction locked or created (PostgreSQL)."""
    held = _held_by_this_transaction()
    return held["locked"] | held["claimed"]


def _held_by_this_transaction() -> dict:
    """{"chain": does this transaction hold the audit chain's lock, "locked": bank ids it
    locked, "claimed": bank ids it created}. Keyed by the transaction id, so nothing leaks
    to the next transaction."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT pg_current_xact_id()::text, {CHAIN_LOCK_HELD_SQL}", CHAIN_LOCK_HELD_PARAMS
        )
        xid, chain = cursor.fetchone()
    known = getattr(connection, "jackpot_held_banks", None)
    if known is None or known[0] != xid:
        known = connection.jackpot_held_banks = (xid, {"locked": set(), "claimed": set()})
    return {"chain": chain, **known[1]}


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


def build_entry(
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
    """The next ledger line, not saved yet; the bank's cached totals move by its amounts.

    The caller holds the bank lock, saves the line and the bank (TOTAL_FIELDS) before commit.
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
    return entry


def append_entry(bank: Bank, **kwargs) -> MeterEntry:
    """Add one ledger line (see build_entry) and save it."""
    entry = build_entry(bank, **kwargs)
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
