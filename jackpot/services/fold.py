"""Folding: waiting contributions move into the meter, in batches, under the bank lock.

A table's contribution is first written as a PendingContribution and committed, with no lock
(services.ledger.bank_contribute). A fold then locks the bank row, turns every waiting row
into its ledger line (in id order, the sub-cent carries exactly as one by one), writes one
audit entry per contribution in a single batch, and commits. One transaction folds what many
tables wrote meanwhile: the locked section is paid once per batch, not once per contribution.

Who folds (PostgreSQL). Each bank has one "folder" at a time: whoever holds the session
advisory lock (FOLDER_LOCK, bank id). After committing its row, a writer TRIES that lock
(one statement, never waits). If it gets it, it folds (waiting for the bank row if a hit or
an adjustment holds it), releases it, then looks for waiting rows and, if any, tries again.
If it does not get it, it returns at once: its row is folded by the folder. Also,
bank_for_update (hits, reversals, adjustments, status, parameters) folds every waiting row
right after locking the bank, so nothing reads a meter missing a committed contribution.

No row is stranded. A writer commits its row BEFORE it tries the folder lock. If the try
fails, the folder held the lock then; the folder releases it only after folding, and looks
for waiting rows only AFTER releasing it: that look comes after the writer's commit and sees
the row (it folds it, or the writer that took the lock meanwhile does, by the same rule).
The bank row's lock plays no part in this, so a hit that holds the bank and then rolls back
strands nothing. The one remaining case: a fold that fails (a database error) gives up; its
rows stay waiting, durable, until the next fold of the bank (the next contribution, any
bank_for_update, the minute's shift-change reading, the reconciliation).

SQLite serialises every writer: the fold there simply runs after the row is written.
"""

import time

from django.conf import settings
from django.db import connection, transaction
from django.db.models.expressions import RawSQL

from casino.audit import audit_many
from casino.bulk import insert_many
from jackpot import feed
from jackpot.models import PPM, Bank, MeterEntry, PendingContribution
from jackpot.services._base import When, build_entry, save_totals

# At most this many contributions per transaction: the bank lock is never held for long.
FOLD_BATCH = 500
# A folder hands over after this long (the next writer takes the lock), so that one table's
# call is never held up folding for the others for longer.
FOLDER_TURN_SECONDS = 0.25


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


def fold_locked(bank: Bank) -> dict[int, MeterEntry]:
    """Fold up to FOLD_BATCH waiting rows of `bank`, whose row the caller has locked (and
    keeps locked until commit). Returns {pending id: its ledger line}."""
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
        )[:FOLD_BATCH]
    )
    if not rows:
        return {}
    entries, audits = [], []
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
    insert_many(entries, key="seq")  # (bank, seq) is unique: seq is within one bank
    audit_many(audits)
    ids = [row[0] for row in rows]
    _link(ids, [entry.pk for entry in entries])
    save_totals(bank)
    feed.announce_meter(bank)
    return dict(zip(ids, entries, strict=True))


# Two-int advisory key (FOLDER_LOCK, bank id); the audit chain uses a one-bigint key, and the
# two kinds never collide.
FOLDER_LOCK = 0x7A9152
_TRY_FOLDER = "SELECT pg_try_advisory_lock(%s::int, %s::int)"
_TRY_FOLDER_IF_WAITING = (
    "SELECT pg_try_advisory_lock(%s::int, %s::int) WHERE EXISTS (SELECT 1 FROM"
    " jackpot_pendingcontribution WHERE bank_id = %s AND entry_id IS NULL)"
)
_RELEASE_FOLDER = "SELECT pg_advisory_unlock(%s::int, %s::int)"


def fold_all_locked(bank: Bank) -> dict[int, MeterEntry]:
    """Fold every waiting row of `bank`, whose row the caller has locked."""
    folded: dict[int, MeterEntry] = {}
    while True:
        done = fold_locked(bank)
        folded.update(done)
        if len(done) < FOLD_BATCH:
            return folded


def _fold_transactions(bank_id: int, *, until_empty: bool = False) -> dict[int, MeterEntry]:
    """Fold in transactions of FOLD_BATCH rows at most, until nothing waits (`until_empty`:
    until a transaction finds nothing, or the folder's turn is over)."""
    folded: dict[int, MeterEntry] = {}
    turn_ends = time.monotonic() + FOLDER_TURN_SECONDS
    while True:
        with transaction.atomic():
            locking = Bank.objects.select_for_update(no_key=True)
            if connection.vendor == "postgresql" and not getattr(
                settings, "JACKPOT_FOLD_SYNC_COMMIT", False
            ):
                # A fold only derives ledger lines from rows already durable: its commit
                # need not wait for the disk (README, "ledger"). A crash may lose the last
                # folds; their rows are waiting again and the next fold redoes them. Any
                # later synchronous commit (an acceptance, a hit) flushes the fold first.
                # (set_config(..., true) is SET LOCAL, sent with the lock: one round trip.)
                setting = "set_config('synchronous_commit', 'off', true)"
                locking = locking.annotate(fold_commit=RawSQL(setting, []))
            bank = locking.get(pk=bank_id)
            done = fold_locked(bank)
        folded.update(done)
        if not until_empty and len(done) < FOLD_BATCH:
            return folded
        if until_empty and (not done or time.monotonic() > turn_ends):
            return folded


def _fold_as_folder(bank_id: int, *, first_try: str) -> dict[int, MeterEntry]:
    folded: dict[int, MeterEntry] = {}
    key = [FOLDER_LOCK, bank_id]
    with connection.cursor() as cursor:
        cursor.execute(first_try, key if first_try == _TRY_FOLDER else [*key, bank_id])
        while (row := cursor.fetchone()) is not None and row[0]:
            try:
                # While rows keep coming the folder keeps the lock (bigger batches), for
                # one turn at most, so no table's call is held up for long.
                folded.update(_fold_transactions(bank_id, until_empty=True))
            finally:
                cursor.execute(_RELEASE_FOLDER, key)
            # Only now, after the release, does the look count (see the module doc).
            cursor.execute(_TRY_FOLDER_IF_WAITING, [*key, bank_id])
    return folded


def _link(pending_ids: list[int], entry_ids: list[int]) -> None:
    """Set each pending row's `entry` to the ledger line it was folded into."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "UPDATE jackpot_pendingcontribution AS p SET entry_id = v.entry"
                " FROM (SELECT unnest(%s::bigint[]) AS id, unnest(%s::bigint[]) AS entry) AS v"
                " WHERE p.id = v.id",
                [pending_ids, entry_ids],
            )
        return
    rows = [
        PendingContribution(pk=p, entry_id=e) for p, e in zip(pending_ids, entry_ids, strict=True)
    ]
    PendingContribution.objects.bulk_update(rows, ["entry"])


class _FoldAfterCommit:
    def __init__(self, bank_id: int) -> None:
        self.bank_id = bank_id

    def __call__(self) -> None:
        bank_fold(bank_id=self.bank_id)


def _fold_inside_caller(bank_id: int) -> dict[int, MeterEntry]:
    from jackpot.services._base import banks_locked_here

    if connection.vendor == "postgresql" and bank_id not in banks_locked_here():
        # Our row commits with the caller's transaction: fold it then, as a folder. Taking
        # the bank here could wait, and this transaction may already hold the audit chain.
        for _, callback, _robust in connection.run_on_commit:
            if isinstance(callback, _FoldAfterCommit) and callback.bank_id == bank_id:
                return {}
        # robust: the caller's change is committed whatever happens here.
        transaction.on_commit(_FoldAfterCommit(bank_id), robust=True)
        return {}
    # The caller holds the bank (or SQLite, where nobody else writes): fold in its transaction.
    return fold_all_locked(Bank.objects.select_for_update(no_key=True).get(pk=bank_id))


def fold(bank_id: int, *, known_waiting: bool = True) -> dict[int, MeterEntry]:
    """Fold the bank's waiting rows, or leave them to the folder at work.
    Returns {pending id: ledger line} of what this call folded."""
    if connection.in_atomic_block:
        return _fold_inside_caller(bank_id)
    if connection.vendor != "postgresql":
        return _fold_transactions(bank_id)
    return _fold_as_folder(
        bank_id, first_try=_TRY_FOLDER if known_waiting else _TRY_FOLDER_IF_WAITING
    )


def bank_fold(*, bank_id: int) -> int:
    """Fold the bank's waiting contributions into its meter; returns how many were folded.

    One lock-free statement when nothing waits; when a fold is already running, returns at
    once (that folder folds them). Readings and reconciliation call it before they read the
    meter. System work: no role, the rows were accepted already.
    """
    if connection.vendor != "postgresql" and not waiting(bank_id).exists():
        return 0
    return len(fold(bank_id, known_waiting=False))
