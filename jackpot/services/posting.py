"""Posting: the queued contributions and reversals turned into ledger lines under the bank's
row lock.

A table's contribution and a void's reversal are written with no lock (services.ledger), so
that no dealer waits for the bank; posting then locks the bank row once and turns every
waiting row into its ledger line. Hand-written SQL here for PostgreSQL's advisory lock
POSTING_LOCK, which correctness needs: one poster per bank at a time, a writer only tries it
(never waits), and the poster looks again after releasing it, so no committed row is left
unposted (docs/architecture/progressive.md, "Contributions and reversals are queued, then
posted").
"""

import time

from django.db import connection, transaction
from django.utils.translation import gettext_lazy as _

from casino.audit import audit_many
from casino.ids import draw_ids
from jackpot import feed
from jackpot.errors import BankNotFound
from jackpot.models import PPM, Bank, MeterEntry, PendingContribution, PendingReversal
from jackpot.services._base import (
    When,
    append_entry,
    build_entry,
    reset_to_seed,
    save_totals,
    seal_lines,
)

# At most this many contributions per transaction: the bank lock is never held for long.
POST_BATCH = 500
# A poster hands over after this long (the next writer takes the lock), so that one table's
# call is never held up posting for the others for longer.
POSTING_TURN_SECONDS = 0.25


def bank_lock_and_post(bank_id: int) -> Bank:
    """Lock the bank's row until the caller's transaction ends, with every contribution
    committed so far posted to its meter.

    The tables layer calls this first, reads the meter, settles the round with it, then calls
    the hit and contribution services in the same transaction: the meter cannot move between
    the read and the hit, because every writer of a bank's meter holds this lock, and
    hit_record does not post again to a bank this transaction already locked (contributions
    committed meanwhile are posted right after this transaction commits).

    No lock order with the audit chain: a writer of audit entries takes no lock (the sealer
    takes the chain's, after the commit, and never a bank's), so a bank may be locked before
    or after auditing. Locking the same bank again in the same transaction is always allowed.
    """
    return lock_bank(bank_id, post="always")


def lock_bank(bank_id: int, *, post: str) -> Bank:
    """bank_lock_and_post, with the posting: "always", or "first" (only when this
    transaction did not lock the bank before: a hit is paid from the meter its caller read;
    on SQLite, always)."""
    if not connection.in_atomic_block:
        raise RuntimeError("bank_lock_and_post() must run inside transaction.atomic()")
    held = _this_transactions_note() if connection.vendor == "postgresql" else None
    try:
        # FOR NO KEY UPDATE: excludes every other locker of the bank, but not the foreign-key
        # checks of rows that point at it, so tables keep queueing contributions meanwhile.
        bank = Bank.objects.select_for_update(no_key=True).get(pk=bank_id)
    except (Bank.DoesNotExist, ValueError, TypeError):
        raise BankNotFound(_("there is no progressive bank #%(id)s") % {"id": bank_id}) from None
    first = held is None or bank.pk not in held
    if held is not None:
        held.add(bank.pk)
    if post == "always" or first:
        post_all_locked(bank)  # every contribution committed so far is on the meter
    return bank


def banks_locked_here() -> set[int]:
    """The banks this transaction locked (PostgreSQL). The database cannot be asked which
    row locks a transaction holds, and a contribution is posted in its caller's transaction
    only when that holds the bank: otherwise after the commit, off the dealer's request."""
    note = getattr(connection, "jackpot_held_banks", None)
    if note is None or not note[1]:
        # Every lock is noted under its transaction's id: with none noted since the last
        # transaction that had any, this one has none, and need not ask which it is.
        return set()
    return set(_this_transactions_note())


def _this_transactions_note() -> set[int]:
    """The banks noted locked, kept under the transaction's id: nothing leaks to the next."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_current_xact_id()::text")
        (xid,) = cursor.fetchone()
    note = getattr(connection, "jackpot_held_banks", None)
    if note is None or note[0] != xid:
        note = connection.jackpot_held_banks = (xid, set())
    return note[1]


def split_contribution(bank: Bank, wagered_cents: int) -> dict:
    """How `wagered_cents` of progressive wagers move the meter, the overflow and the reserve.

    Shares are computed in millionths of a cent; the whole cents move now and the remainder
    is carried to the next contribution, so nothing is ever rounded away. Above the cap, the
    meter's share goes to the overflow instead.
    """
    meter_total = wagered_cents * bank.increment_rate_ppm + bank.meter_carry_ppm
    meter_share, meter_carry = divmod(meter_total, PPM)
    reserve_total = wagered_cents * bank.hidden_rate_ppm + bank.reserve_carry_ppm
    reserve_share, reserve_carry = divmod(reserve_total, PPM)
    to_meter = meter_share
    if bank.cap_cents is not None:
        to_meter = max(0, min(meter_share, bank.cap_cents - bank.meter_cents))
    return {
        "meter": to_meter,
        "overflow": meter_share - to_meter,
        "reserve": reserve_share,
        "meter_carry": meter_carry - bank.meter_carry_ppm,
        "reserve_carry": reserve_carry - bank.reserve_carry_ppm,
    }


def waiting(bank_id: int):
    return PendingContribution.objects.filter(bank_id=bank_id, entry__isnull=True)


def reversals_waiting(bank_id: int):
    return PendingReversal.objects.filter(bank_id=bank_id, entry__isnull=True)


def post_locked(bank: Bank) -> dict[int, MeterEntry]:
    """Post up to POST_BATCH waiting contributions of `bank`, whose row the caller has locked
    (and keeps locked until commit), then, once no contribution waits, every waiting
    reversal. Returns {pending contribution id: its ledger line}."""
    audits: list[dict] = []
    posted = _post_contributions(bank, audits)
    reversed_ = 0
    if len(posted) < POST_BATCH:
        # A reversal comes after the contribution it reverses, which is posted by now.
        reversed_ = _post_reversals(bank, audits)
    if not posted and not reversed_:
        return {}
    audit_many(audits)
    feed.announce_meter(bank, save=False)
    save_totals(bank)
    return posted


def _post_contributions(bank: Bank, audits: list) -> dict[int, MeterEntry]:
    rows = list(
        waiting(bank.pk)
        .order_by("pk")
        .values_list(
            "pk",
            "reference",
            "wager_count",
            "wager_cents",
            "actor_id",
            "created_at",
            "gaming_date",
            "shift",
        )[:POST_BATCH]
    )
    if not rows:
        return {}
    entries = []
    for _pk, reference, count, cents, actor_id, at, gaming_date, shift in rows:
        wagered = count * cents
        split = split_contribution(bank, wagered)
        # The ledger line keeps the time, gaming date and shift the wager was accepted at.
        entry = build_entry(
            bank,
            kind=MeterEntry.Kind.CONTRIBUTION,
            when=When(at, gaming_date, shift),
            reference=reference,
            wager_count=count,
            wager_cents=cents,
            **split,
        )
        entry.actor_id = actor_id
        bank.contributions_count += count
        bank.wagered_cents += wagered
        entries.append(entry)
        audits.append(
            {
                "actor_id": actor_id,
                "code": "jackpot.contribution.recorded",
                "subject": bank,
                "data": {"seq": entry.seq, "ref": reference, "wagers": count, **split},
            }
        )
    seal_lines(bank, entries, draw_ids(MeterEntry, len(entries)))
    MeterEntry.objects.bulk_create(entries)
    ids = [row[0] for row in rows]
    _link(PendingContribution, ids, [entry.pk for entry in entries])
    return dict(zip(ids, entries, strict=True))


def _undo_carry(delta_cents: int, carry_delta: int, carry_now: int) -> tuple[int, int]:
    """Undo a carry change. If that leaves the carry outside [0, 1 cent), a whole cent moves
    with it, so the sum cents * PPM + carry stays exact and the carry stays a remainder."""
    whole, carry_after = divmod(carry_now - carry_delta, PPM)
    return delta_cents + whole, carry_after - carry_now


def _post_reversals(bank: Bank, audits: list) -> int:
    """Every waiting reversal of `bank`, in the order approved: each a REVERSAL line that
    takes back exactly what its contribution added (and a reseed if that leaves the meter
    below its reset amount). Not batched like contributions: a void is rare, and each
    approval waits for its supervisor's PIN. Returns how many were posted."""
    waiting_reversals = list(reversals_waiting(bank.pk).select_related("actor").order_by("pk"))
    if not waiting_reversals:
        return 0
    originals = {
        entry.reference: entry
        for entry in MeterEntry.objects.filter(
            bank=bank,
            kind=MeterEntry.Kind.CONTRIBUTION,
            reference__in=[r.reference for r in waiting_reversals],
        )
    }
    entries = []
    for pending in waiting_reversals:
        if pending.reference not in originals:  # the queueing INSERT saw it accepted
            raise RuntimeError(f"reversal {pending.pk}: contribution not posted first")
        entries.append(_post_reversal(bank, pending, originals[pending.reference], audits))
    _link(PendingReversal, [r.pk for r in waiting_reversals], [e.pk for e in entries])
    return len(waiting_reversals)


def _post_reversal(
    bank: Bank, pending: PendingReversal, original: MeterEntry, audits: list
) -> MeterEntry:
    meter, meter_carry = _undo_carry(
        -original.meter_delta_cents, original.meter_carry_delta_ppm, bank.meter_carry_ppm
    )
    reserve, reserve_carry = _undo_carry(
        -original.reserve_delta_cents, original.reserve_carry_delta_ppm, bank.reserve_carry_ppm
    )
    # The ledger line keeps the time, gaming date and shift the void was approved at.
    when = When(pending.created_at, pending.gaming_date, pending.shift)
    entry = append_entry(
        bank,
        kind=MeterEntry.Kind.REVERSAL,
        when=when,
        actor=pending.actor,
        meter=meter,
        overflow=-original.overflow_delta_cents,
        reserve=reserve,
        meter_carry=meter_carry,
        reserve_carry=reserve_carry,
        reference=pending.reference,
        wager_count=-original.wager_count,
        wager_cents=original.wager_cents,
        reverses=original,
        data={"reason": pending.reason} if pending.reason else {},
    )
    bank.contributions_count -= original.wager_count
    bank.wagered_cents -= original.wager_count * original.wager_cents
    # A round voided after a hit paid out its contribution would leave the meter below the
    # reset amount (Fla 75-14.034: never below it): a recorded reseed tops it up again.
    topped_up = reset_to_seed(bank, when=when, actor=pending.actor, reference=pending.reference)
    audits.append(
        {
            "actor_id": pending.actor_id,
            "code": "jackpot.contribution.reversed",
            "subject": bank,
            "data": {
                "seq": entry.seq,
                "reverses": original.seq,
                "ref": pending.reference,
                "meter": meter,
                "overflow": -original.overflow_delta_cents,
                "reserve": reserve,
                "reason": pending.reason,
                "reseeded_cents": topped_up.meter_delta_cents if topped_up else 0,
            },
        }
    )
    return entry


# Two-int advisory key (POSTING_LOCK, bank id); the audit chain uses a one-bigint key, and the
# two kinds never collide.
POSTING_LOCK = 0x7A9152
_TRY_POSTING = "SELECT pg_try_advisory_lock(%s::int, %s::int)"
_TRY_POSTING_IF_WAITING = (
    "SELECT pg_try_advisory_lock(%s::int, %s::int) WHERE EXISTS (SELECT 1 FROM"
    " jackpot_pendingcontribution WHERE bank_id = %s AND entry_id IS NULL) OR EXISTS"
    " (SELECT 1 FROM jackpot_pendingreversal WHERE bank_id = %s AND entry_id IS NULL)"
)
_RELEASE_POSTING = "SELECT pg_advisory_unlock(%s::int, %s::int)"


def post_all_locked(bank: Bank) -> dict[int, MeterEntry]:
    """Post every waiting row of `bank`, whose row the caller has locked."""
    posted: dict[int, MeterEntry] = {}
    while True:
        done = post_locked(bank)
        posted.update(done)
        if len(done) < POST_BATCH:
            return posted


def _post_in_transactions(bank_id: int, *, until_empty: bool = False) -> dict[int, MeterEntry]:
    """Post in transactions of POST_BATCH rows at most, until nothing waits (`until_empty`:
    until a transaction finds nothing, or the poster's turn is over)."""
    posted: dict[int, MeterEntry] = {}
    turn_ends = time.monotonic() + POSTING_TURN_SECONDS
    while True:
        with transaction.atomic():
            done = post_locked(Bank.objects.select_for_update(no_key=True).get(pk=bank_id))
        posted.update(done)
        if not until_empty and len(done) < POST_BATCH:
            return posted
        if until_empty and (not done or time.monotonic() > turn_ends):
            return posted


def _post_holding_the_lock(bank_id: int, *, first_try: str) -> dict[int, MeterEntry]:
    posted: dict[int, MeterEntry] = {}
    key = [POSTING_LOCK, bank_id]
    with connection.cursor() as cursor:
        cursor.execute(first_try, key if first_try == _TRY_POSTING else [*key, bank_id, bank_id])
        while (row := cursor.fetchone()) is not None and row[0]:
            try:
                # While rows keep coming the poster keeps the lock (bigger batches), for
                # one turn at most, so no table's call is held up for long.
                posted.update(_post_in_transactions(bank_id, until_empty=True))
            finally:
                cursor.execute(_RELEASE_POSTING, key)
            # Only now, after the release, does the look count (see the module doc).
            cursor.execute(_TRY_POSTING_IF_WAITING, [*key, bank_id, bank_id])
    return posted


def _link(model, pending_ids: list[int], entry_ids: list[int]) -> None:
    """Set each waiting row's `entry` (of `model`: PendingContribution or PendingReversal) to
    the ledger line it was posted into."""
    rows = [model(pk=p, entry_id=e) for p, e in zip(pending_ids, entry_ids, strict=True)]
    model.objects.bulk_update(rows, ["entry"])


def post_waiting(bank_id: int, *, known_waiting: bool = True) -> dict[int, MeterEntry]:
    """Post the bank's waiting rows, or leave them to the poster at work.
    Returns {pending id: ledger line} of what this call posted."""
    if connection.in_atomic_block:
        if connection.vendor == "postgresql" and bank_id not in banks_locked_here():
            # The caller's rows commit with it: a worker posts them then, off the dealer's
            # request (with no broker, this process: casino.celery.Task).
            from jackpot.tasks import post_pending

            post_pending.delay_on_commit(bank_id)
            return {}
        # The caller holds the bank (or SQLite, where writers take turns): post in its
        # transaction.
        return post_all_locked(Bank.objects.select_for_update(no_key=True).get(pk=bank_id))
    if connection.vendor == "postgresql":
        first_try = _TRY_POSTING if known_waiting else _TRY_POSTING_IF_WAITING
        return _post_holding_the_lock(bank_id, first_try=first_try)
    if not known_waiting and not (waiting(bank_id).exists() or reversals_waiting(bank_id).exists()):
        return {}
    return _post_in_transactions(bank_id)


def bank_post_pending(*, bank_id: int) -> int:
    """Post the bank's waiting contributions and reversals to its meter; returns how many
    contributions were posted.

    One lock-free statement when nothing waits; when posting is already running, returns
    at once (that poster posts them). Readings and reconciliation call it before they read the
    meter. System work: no role, the rows were accepted already.
    """
    return len(post_waiting(bank_id, known_waiting=False))
