"""Posting: the bank lock, and the queued contributions and reversals turned into ledger lines
under it.

A table's contribution and a void's reversal are written with no lock (services.ledger), so
that no dealer waits for the bank; posting then locks the bank row once and turns every
waiting row into its ledger line, with one batch of audit entries. One poster per bank at a
time (PostgreSQL's advisory lock POSTING_LOCK): a writer only tries it, and the poster looks
again after releasing it, so no committed row is left unposted. Why it is shaped so, and the
proof that nothing is stranded: docs/architecture/progressive.md, "Contributions and reversals
are queued, then posted".
"""

import time

from django.conf import settings
from django.db import connection, transaction
from django.db.models.expressions import RawSQL
from django.utils.translation import gettext_lazy as _

from casino.audit import audit_many
from jackpot import feed
from jackpot.errors import BankNotFound
from jackpot.models import PPM, Bank, MeterEntry, PendingContribution, PendingReversal
from jackpot.services._base import (
    When,
    append_entry,
    build_entry,
    drawn_line_id,
    next_line_id_sql,
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
    transaction did not lock the bank before; on SQLite, always)."""
    if not connection.in_atomic_block:
        raise RuntimeError("bank_lock_and_post() must run inside transaction.atomic()")
    first = True
    if connection.vendor == "postgresql":
        held = _held_by_this_transaction()
        first = bank_id not in held["locked"]
        if getattr(settings, "JACKPOT_ASYNC_COMMIT", False):
            with connection.cursor() as cursor:
                # Opt-in (JACKPOT_ASYNC_COMMIT, docs/operations/settings.md): the commit
                # returns before its WAL reaches the disk.
                cursor.execute("SET LOCAL synchronous_commit TO OFF")
    try:
        # FOR NO KEY UPDATE: excludes every other locker of the bank, but not the foreign-key
        # checks of rows that point at it, so tables keep queueing contributions meanwhile.
        bank = Bank.objects.select_for_update(no_key=True).get(pk=bank_id)
    except (Bank.DoesNotExist, ValueError, TypeError):
        raise BankNotFound(_("there is no progressive bank #%(id)s") % {"id": bank_id}) from None
    if connection.vendor == "postgresql":
        held["locked"].add(bank.pk)
    if post == "always" or first:
        post_all_locked(bank)  # every contribution committed so far is on the meter
    return bank


def claim_new_bank(bank_id: int) -> None:
    """A bank row inserted by this transaction counts as held by it (bank_create, the
    admin's add): no other transaction sees the row before commit, so what is posted to it
    meanwhile is posted in this transaction (`banks_locked_here`)."""
    if connection.vendor == "postgresql" and connection.in_atomic_block:
        _held_by_this_transaction()["claimed"].add(bank_id)


def banks_locked_here() -> set[int]:
    """The banks this transaction locked or created (PostgreSQL)."""
    known = getattr(connection, "jackpot_held_banks", None)
    if known is None or not (known[1]["locked"] or known[1]["claimed"]):
        # Every lock or creation is noted here first, under its transaction's id: with none
        # noted since the last one that had any, this transaction has none, and a table's
        # `bets_locked` need not ask the database which transaction it is.
        return set()
    held = _held_by_this_transaction()
    return held["locked"] | held["claimed"]


def _held_by_this_transaction() -> dict:
    """{"locked": bank ids this transaction locked, "claimed": bank ids it created}. Keyed
    by the transaction id, so nothing leaks to the next transaction."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_current_xact_id()::text")
        (xid,) = cursor.fetchone()
    known = getattr(connection, "jackpot_held_banks", None)
    if known is None or known[0] != xid:
        known = connection.jackpot_held_banks = (xid, {"locked": set(), "claimed": set()})
    return dict(known[1])


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
    # The ledger lines' ids come with the rows they are drawn for (their MAC covers them):
    # no query more than before the ledger was keyed.
    line_id = RawSQL(next_line_id_sql(), [])  # on PostgreSQL, drawn after the ORDER BY and LIMIT
    rows = list(
        waiting(bank.pk)
        .order_by("pk")
        .annotate(line_id=line_id)
        .values_list(
            "pk",
            "reference",
            "wager_count",
            "wager_cents",
            "actor_id",
            "created_at",
            "gaming_date",
            "shift",
            "line_id",
        )[:POST_BATCH]
    )
    if not rows:
        return {}
    if connection.vendor == "postgresql":
        ids = sorted(row[-1] for row in rows)
    else:  # the same highest id on every row: the batch's ids follow it
        first = drawn_line_id(rows[0][-1])
        ids = list(range(first, first + len(rows)))
    entries = []
    for _pk, reference, count, cents, actor_id, at, gaming_date, shift, _id in rows:
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
    seal_lines(bank, entries, ids)
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
            locking = Bank.objects.select_for_update(no_key=True)
            if connection.vendor == "postgresql" and not getattr(
                settings, "JACKPOT_POSTING_SYNC_COMMIT", False
            ):
                # Posting only derives ledger lines from rows already durable: its commit
                # need not wait for the disk (docs/architecture/progressive.md, "Contributions
                # and reversals are queued, then posted"). A crash may lose the last postings;
                # their rows are waiting again and the next posting redoes them.
                # Any later synchronous commit (an acceptance, a hit) flushes them first.
                # (set_config(..., true) is SET LOCAL, sent with the lock: one round trip.)
                setting = "set_config('synchronous_commit', 'off', true)"
                locking = locking.annotate(posting_commit=RawSQL(setting, []))
            bank = locking.get(pk=bank_id)
            done = post_locked(bank)
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
    the ledger line it was posted into, in one statement."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {model._meta.db_table} AS p SET entry_id = v.entry"
                " FROM (SELECT unnest(%s::bigint[]) AS id, unnest(%s::bigint[]) AS entry) AS v"
                " WHERE p.id = v.id",
                [pending_ids, entry_ids],
            )
        return
    rows = [model(pk=p, entry_id=e) for p, e in zip(pending_ids, entry_ids, strict=True)]
    model.objects.bulk_update(rows, ["entry"])


class _PostAfterCommit:
    """After the caller's commit: its row is posted by a Celery worker, off the table's
    request (the dealer waits for the contribution to be accepted, not for it to be on the
    meter). The worker then plays the writer's part described above: it tries the posting
    lock and posts, or leaves the row to the poster at work. With eager Celery (the embedded
    defaults) this process posts, now; with no broker to take the task (Redis down), too, as if
    there were no worker (casino.celery.Task)."""

    def __init__(self, bank_id: int) -> None:
        self.bank_id = bank_id

    def __call__(self) -> None:
        from jackpot.tasks import post_pending

        post_pending.delay_on_commit(self.bank_id)


def _post_inside_caller(bank_id: int) -> dict[int, MeterEntry]:
    if connection.vendor == "postgresql" and bank_id not in banks_locked_here():
        # Our row commits with the caller's transaction: post it then, as a poster. Taking
        # the bank here could wait, and this transaction may already hold the audit chain.
        for _, callback, _robust in connection.run_on_commit:
            if isinstance(callback, _PostAfterCommit) and callback.bank_id == bank_id:
                return {}
        # robust: the caller's change is committed whatever happens here.
        transaction.on_commit(_PostAfterCommit(bank_id), robust=True)
        return {}
    # The caller holds the bank (or SQLite, where nobody else writes): post in its transaction.
    return post_all_locked(Bank.objects.select_for_update(no_key=True).get(pk=bank_id))


def post_waiting(bank_id: int, *, known_waiting: bool = True) -> dict[int, MeterEntry]:
    """Post the bank's waiting rows, or leave them to the poster at work.
    Returns {pending id: ledger line} of what this call posted."""
    if connection.in_atomic_block:
        return _post_inside_caller(bank_id)
    if connection.vendor != "postgresql":
        return _post_in_transactions(bank_id)
    return _post_holding_the_lock(
        bank_id, first_try=_TRY_POSTING if known_waiting else _TRY_POSTING_IF_WAITING
    )


def bank_post_pending(*, bank_id: int) -> int:
    """Post the bank's waiting contributions and reversals to its meter; returns how many
    contributions were posted.

    One lock-free statement when nothing waits; when posting is already running, returns
    at once (that poster posts them). Readings and reconciliation call it before they read the
    meter. System work: no role, the rows were accepted already.
    """
    if connection.vendor != "postgresql" and not (
        waiting(bank_id).exists() or reversals_waiting(bank_id).exists()
    ):
        return 0
    return len(post_waiting(bank_id, known_waiting=False))
