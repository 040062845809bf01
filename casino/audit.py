"""The audit log: append-only, each entry chained to the previous one by an HMAC.

`audit()` is called inside the service's transaction, so an entry exists exactly when the
change it records was committed. `audit_many()` appends several at once (one lock, one read,
one INSERT). `find_break()` recomputes every entry's MAC and link and compares the chain with
the checkpoints kept outside the database (casino.checkpoints); it names the first entry that
does not hold, a missing position (a deleted entry), or a cut-off end.

Each entry has a `position` (1, 2, 3... with no gap) and its id, both assigned under the
chain's lock before the INSERT, so the MAC covers them and the entry is inserted once, with its
final hash: no row of the log is ever updated (PostgreSQL refuses it, migration 0004, and
TRUNCATE too, migration 0006). The MAC is keyed by AUDIT_HMAC_KEY (casino.audit_keys), which
the database never sees: without it nobody can write an entry that verifies.
"""

import json

from django.db import connection, transaction
from django.utils import timezone

from casino.audit_keys import current_key_id, known_keys, mac
from casino.bulk import insert_many
from casino.checkpoints import checkpoint_write, checkpoint_write_safely, checkpoints_read
from casino.clock import stamp
from casino.models import AuditEntry

GENESIS = "0" * 64
# Any constant works; it only has to be the same for every writer of the chain.
CHAIN_LOCK_KEY = 0x7A9151
# "This transaction holds the chain's lock", for a SELECT list (PostgreSQL): a one-bigint
# advisory key shows in pg_locks as classid (high half) and objid (low half).
CHAIN_LOCK_HELD_SQL = (
    "EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()"
    " AND granted AND classid = %s AND objid = %s AND objsubid = 1)"
)
CHAIN_LOCK_HELD_PARAMS = [CHAIN_LOCK_KEY >> 32, CHAIN_LOCK_KEY & 0xFFFFFFFF]


class UnknownKey(Exception):
    pass


def _digest(entry: AuditEntry, key: str | None = None) -> str:
    """The entry's MAC under its key (entry.key_id; `key` overrides it)."""
    if key is None:
        key = known_keys().get(entry.key_id)
        if key is None:
            raise UnknownKey(entry.key_id)
    body = {
        "id": entry.pk,
        "position": entry.position,
        "key_id": entry.key_id,
        "created_at": entry.created_at.isoformat(),
        "actor": entry.actor_id,
        "code": entry.code,
        "subject_type": entry.subject_type,
        "subject_id": entry.subject_id,
        "data": entry.data,
        "gaming_date": entry.gaming_date.isoformat() if entry.gaming_date else None,
        "shift": entry.shift,
        "prev_hash": entry.prev_hash,
    }
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), default=str)
    return mac(key, canonical.encode())


# The chain's head and the new entries' ids in one statement, after the chain's lock is
# granted (in the same statement as the lock, the head would be read from the snapshot taken
# before the wait, and could be stale).
_HEAD_AND_IDS = (
    "SELECT h.position, h.hash, h.id, h.gaming_date, h.shift, n.ids FROM"
    " (SELECT array_agg(nextval(pg_get_serial_sequence('{table}', 'id'))) AS ids"
    "  FROM generate_series(1, %s)) n"
    " LEFT JOIN LATERAL (SELECT position, hash, id, gaming_date, shift FROM {table}"
    "  ORDER BY position DESC LIMIT 1) h ON true"
)


def _head_and_ids(count: int) -> tuple[tuple | None, list[int]]:
    """The chain's last entry (position, hash, id, gaming date, shift), None when empty, and
    ids for `count` new entries, taken under the chain's lock so that the MAC can cover them
    (a renumbered entry then shows) and they grow with the position."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(_HEAD_AND_IDS.format(table=AuditEntry._meta.db_table), [count])
            *last, ids = cursor.fetchone()
        return (tuple(last) if last[0] is not None else None), sorted(ids)
    # SQLite: writers are serialised by the database itself (IMMEDIATE transactions).
    last = _head()
    top = AuditEntry.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    start = max(top, last[2] if last else 0) + 1
    return last, list(range(start, start + count))


def _head() -> tuple | None:
    return (
        AuditEntry.objects.order_by("-position")
        .values_list("position", "hash", "pk", "gaming_date", "shift")
        .first()
    )


def _subject_ref(subject) -> tuple[str, str]:
    if subject is None:
        return "", ""
    meta = getattr(subject, "_meta", None)
    kind = meta.label_lower if meta else type(subject).__name__
    return kind, str(getattr(subject, "pk", subject))


def _actor_id(item: dict):
    if "actor_id" in item:
        return item["actor_id"]
    return getattr(item.get("actor"), "pk", None)


def audit_many(entries: list[dict]) -> list[AuditEntry]:
    """Append several entries, in order, in one INSERT. Each item takes the keywords of
    `audit()` (`actor` or `actor_id`, `code`, `subject`, `data`). Must run inside the
    transaction of the changes they record."""
    if not connection.in_atomic_block:
        raise RuntimeError("audit() must be called inside transaction.atomic()")
    if not entries:
        return []
    if connection.vendor == "postgresql":
        # Serialises writers of the chain; released at commit. Positions are read and
        # assigned under it, so they stay contiguous.
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [CHAIN_LOCK_KEY])
    last, ids = _head_and_ids(len(entries))
    position, previous = (last[0], last[1]) if last else (0, GENESIS)
    now = timezone.now()
    gaming_date, shift = stamp(now)
    if last is not None and (last[3], last[4]) != (gaming_date, shift):
        # The first entry of a new shift: the chain's head at the end of the last one goes
        # outside the database.
        # After commit: then that entry is surely committed, even if this very transaction
        # wrote it; a rollback writes nothing, and the next writer sees the change again.
        closed = {
            "position": last[0],
            "hash": last[1],
            "entry_id": last[2],
            "gaming_date": last[3],
            "shift": last[4],
            "reason": "shift_change",
        }
        transaction.on_commit(lambda: checkpoint_write_safely(**closed))
    key_id = current_key_id()
    key = known_keys()[key_id]
    rows = []
    for pk, item in zip(ids, entries, strict=True):
        subject_type, subject_id = _subject_ref(item.get("subject"))
        position += 1
        entry = AuditEntry(
            id=pk,
            created_at=now,
            actor_id=_actor_id(item),
            code=item["code"],
            subject_type=subject_type,
            subject_id=subject_id,
            data=json.loads(json.dumps(item.get("data") or {}, default=str)),
            gaming_date=gaming_date,
            shift=shift,
            position=position,
            key_id=key_id,
            prev_hash=previous,
        )
        entry.hash = previous = _digest(entry, key)
        rows.append(entry)
    if connection.vendor == "postgresql":
        return insert_many(rows, key="position", include_pk=True)
    return AuditEntry.objects.bulk_create(rows, _chained=True)


def audit_checkpoint(reason: str = "requested") -> dict | None:
    """Write a checkpoint of the chain's head now (None when the log is empty), with the heads
    of the chains registered in casino.checkpoints (each bank's last ledger line)."""
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(%s)", [CHAIN_LOCK_KEY])
        last = _head()
        if last is None:
            return None
        return checkpoint_write(
            position=last[0],
            hash=last[1],
            entry_id=last[2],
            gaming_date=last[3],
            shift=last[4],
            reason=reason,
        )


def audit(*, actor, code: str, subject=None, data: dict | None = None) -> AuditEntry:
    """Append one entry. Must run inside the transaction of the change it records."""
    return audit_many([{"actor": actor, "code": code, "subject": subject, "data": data}])[0]


def audit_or_batch(batch: list | None, **entry) -> None:
    """`audit(**entry)` now, or, given `batch` (a list), add the entry to it for the caller to
    write with its own entries (audit_many) in the same transaction: one lock of the chain and
    one read of its head for them all."""
    if batch is None:
        audit(**entry)
    else:
        batch.append(entry)


class ChainBreak:
    """The first entry of the chain that does not hold, and why."""

    def __init__(self, entry: AuditEntry | None, entry_id: int, code: str, reason: str):
        self.entry = entry
        self.id = entry_id
        self.pk = entry_id
        self.code = code
        self.reason = reason

    def __str__(self) -> str:
        return f"entry #{self.id} ({self.code}): {self.reason}"


def find_break() -> ChainBreak | None:
    """Walk the chain; name the first entry whose MAC, link or position is wrong, a missing
    entry, an entry that differs from a checkpoint, or an end cut off before the last
    checkpoint. A checkpoint file line that is not genuine is a break too."""
    checkpoints, forged_lines = checkpoints_read()
    if forged_lines:
        return ChainBreak(None, 0, "checkpoint", forged_lines[0])
    expected: dict[int, object] = {}
    for checkpoint in checkpoints:
        expected.setdefault(checkpoint.position, checkpoint)
    keys = known_keys()
    previous = GENESIS
    previous_id = previous_position = 0
    for entry in AuditEntry.objects.order_by("position").iterator(chunk_size=2000):
        if entry.position <= previous_position:
            reason = (
                f"its position {entry.position} is not after the previous entry's "
                f"({previous_position}): inserted or renumbered"
            )
            return ChainBreak(entry, entry.pk, entry.code, reason)
        if entry.position != previous_position + 1:
            # Ids may have gaps without tampering (a rolled-back insert burns a sequence
            # value); positions may not: they are assigned under the chain's lock.
            first, last = previous_position + 1, entry.position - 1
            gone = f"position {first} is" if first == last else f"positions {first} to {last} are"
            reason = f"{gone} missing (deleted) between entry #{previous_id} and this one"
            return ChainBreak(entry, entry.pk, entry.code, reason)
        if entry.key_id not in keys:
            reason = (
                f"its key id {entry.key_id!r} is not a known key (forged, or the key is "
                "missing from AUDIT_HMAC_PREVIOUS_KEYS)"
            )
            return ChainBreak(entry, entry.pk, entry.code, reason)
        if entry.hash != _digest(entry, keys[entry.key_id]):
            reason = "its content no longer matches its MAC (edited, renumbered or forged)"
            return ChainBreak(entry, entry.pk, entry.code, reason)
        if entry.prev_hash != previous:
            reason = "its previous-hash does not match the hash of the entry before it"
            return ChainBreak(entry, entry.pk, entry.code, reason)
        checkpoint = expected.get(entry.position)
        if checkpoint is not None and checkpoint.hash != entry.hash:
            reason = (
                f"it differs from the checkpoint written at {checkpoint.written_at} for position "
                f"{entry.position}: the log was rewritten at or before this entry"
            )
            return ChainBreak(entry, entry.pk, entry.code, reason)
        previous, previous_id, previous_position = entry.hash, entry.pk, entry.position
    if checkpoints:
        furthest = max(checkpoints, key=lambda c: c.position)
        if furthest.position > previous_position:
            first = previous_position + 1
            reason = (
                f"the chain ends at position {previous_position}, but the checkpoint written at "
                f"{furthest.written_at} recorded position {furthest.position} (entry "
                f"#{furthest.entry_id}): positions {first} to {furthest.position} were cut off "
                "(truncated, or the last entries deleted)"
            )
            return ChainBreak(None, furthest.entry_id or 0, "end of chain", reason)
    return None


# Other chains kept the same way (the round events...), verified by audit_verify after the
# audit log: name -> a function returning the first ChainBreak or None. Registered by the app
# that owns the chain (casino sits below them and never imports them).
CHAINS: dict = {}


def register_chain(name: str, find: object) -> None:
    CHAINS[name] = find


def verify_chain() -> AuditEntry | None:
    """Return the first entry whose hash or link is wrong, or None when the chain holds."""
    broken = find_break()
    return broken.entry if broken else None


def atomic_audit(**kwargs) -> AuditEntry:
    """For a privileged action that changes nothing else (an unlock, a token issued...)."""
    with transaction.atomic():
        return audit(**kwargs)
