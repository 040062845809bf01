"""The reads of every step of a round: the round (locked) with who deals its table now, the
answer already kept under the request's key (a retry), and the round's events. Through the
ORM, the same on every database."""

from django.db.models import OuterRef, Subquery

from casino.ids import db_id
from tables.models import DealerAssignment, IdempotentWrite, Round, RoundEvent


def _one(rows):
    """The one row of a read by a unique key, or None (no LIMIT nor ORDER BY to add)."""
    found = list(rows.order_by())
    return found[0] if found else None


def _dealing(at):
    """Who deals the round's table at `at`: DealerAssignment.objects.covering(at), the latest
    first, as `current_assignment` takes it (tests/tables/rounds/test_round_reads.py)."""
    covering = DealerAssignment.objects.covering(at).filter(table_id=OuterRef("table_id"))
    return Subquery(covering.order_by("-starts_at").values("dealer_id")[:1])


def round_locked(round_id, *, at, lock: bool = True) -> Round | None:
    """The round, its row locked until the transaction ends (FOR NO KEY UPDATE: see
    tables.services._base), with its dealer and table and `dealing_id`: who deals its table
    at `at` (None: nobody). None when there is no such round. `lock=False`: the same, read
    without the lock (before an approval's PIN is checked)."""
    round_id = db_id(round_id)
    if round_id is None:
        return None
    rounds = Round.objects.select_related("dealer", "table").annotate(dealing_id=_dealing(at))
    if lock:
        rounds = rounds.select_for_update(no_key=True, of=("self",))
    return _one(rounds.filter(pk=round_id))


def round_seq_locked(round_id: int) -> int | None:
    """The round's seq, its row locked as by round_locked (None: no such round)."""
    locked = Round.objects.select_for_update(no_key=True).filter(pk=round_id)
    return _one(locked.values_list("seq", flat=True))


def round_events(round_id: int) -> list[tuple[dict, str]]:
    """Each event's data and hash, in order."""
    return list(
        RoundEvent.objects.filter(round_id=round_id).order_by("seq").values_list("data", "hash")
    )


def write_kept(scope: str, key: str) -> tuple[str, int, dict] | None:
    """The write kept under this key in this scope: its body's digest, status and answer.
    Read after the round's lock is granted, never in the locking statement: a retry of the
    same key that waited for that lock must see the write the first one kept meanwhile (a
    locking statement's joins keep the snapshot taken before the wait)."""
    kept = IdempotentWrite.objects.filter(scope=scope, key=key)
    return _one(kept.values_list("body_hash", "status", "response"))
