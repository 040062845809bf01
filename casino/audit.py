"""The audit log: append-only, each entry chained to the previous one by SHA-256.

`audit()` is called inside the service's transaction, so an entry exists exactly when the
change it records was committed. `audit_many()` appends several at once (one lock, one read,
one INSERT). `verify_chain()` recomputes every hash and names the first entry that does not
match; a missing position is a deleted entry.

Each entry has a `position` (1, 2, 3... with no gap), assigned under the chain's lock. The
digest covers the position, not the database id, so an entry is inserted once, with its
final hash: no row of the log is ever updated (PostgreSQL refuses it, migration 0004).
"""

import hashlib
import json

from django.db import connection, transaction
from django.utils import timezone

from casino.bulk import insert_many
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


def _digest(entry: AuditEntry) -> str:
    body = {
        "position": entry.position,
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
    return hashlib.sha256(canonical.encode()).hexdigest()


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
    last = AuditEntry.objects.order_by("-position").values_list("position", "hash").first()
    position, previous = last if last else (0, GENESIS)
    now = timezone.now()
    gaming_date, shift = stamp(now)
    rows = []
    for item in entries:
        subject_type, subject_id = _subject_ref(item.get("subject"))
        position += 1
        entry = AuditEntry(
            created_at=now,
            actor_id=_actor_id(item),
            code=item["code"],
            subject_type=subject_type,
            subject_id=subject_id,
            data=json.loads(json.dumps(item.get("data") or {}, default=str)),
            gaming_date=gaming_date,
            shift=shift,
            position=position,
            prev_hash=previous,
        )
        entry.hash = previous = _digest(entry)
        rows.append(entry)
    if connection.vendor == "postgresql":
        return insert_many(rows, key="position")
    return AuditEntry.objects.bulk_create(rows, _chained=True)


def audit(*, actor, code: str, subject=None, data: dict | None = None) -> AuditEntry:
    """Append one entry. Must run inside the transaction of the change it records."""
    return audit_many([{"actor": actor, "code": code, "subject": subject, "data": data}])[0]


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
    """Walk the chain; name the first entry whose hash or link is wrong, or a missing entry."""
    previous = GENESIS
    previous_id = previous_position = 0
    for entry in AuditEntry.objects.order_by("position").iterator(chunk_size=2000):
        if entry.position != previous_position + 1:
            # Ids may have gaps without tampering (a rolled-back insert burns a sequence
            # value); positions may not: they are assigned under the chain's lock.
            reason = (
                f"entries #{previous_id + 1} to #{entry.pk - 1} are missing (deleted): "
                f"positions {previous_position + 1} to {entry.position - 1} are gone"
            )
            return ChainBreak(entry, entry.pk, entry.code, reason)
        if entry.prev_hash != previous:
            reason = "its previous-hash does not match the hash of the entry before it"
            return ChainBreak(entry, entry.pk, entry.code, reason)
        if entry.hash != _digest(entry):
            return ChainBreak(
                entry, entry.pk, entry.code, "its content no longer matches its hash (edited)"
            )
        previous, previous_id, previous_position = entry.hash, entry.pk, entry.position
    return None


def verify_chain() -> AuditEntry | None:
    """Return the first entry whose hash or link is wrong, or None when the chain holds."""
    broken = find_break()
    return broken.entry if broken else None


def atomic_audit(**kwargs) -> AuditEntry:
    """For a privileged action that changes nothing else (an unlock, a token issued...)."""
    with transaction.atomic():
        return audit(**kwargs)
