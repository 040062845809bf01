"""The audit log: append-only, each entry chained to the previous one by SHA-256.

`audit()` is called inside the service's transaction, so an entry exists exactly when the
change it records was committed. `verify_chain()` recomputes every hash and names the first
entry that does not match.
"""

import hashlib
import json
import uuid

from django.db import connection, transaction
from django.utils import timezone

from casino.clock import stamp
from casino.models import AuditEntry

GENESIS = "0" * 64
# Any constant works; it only has to be the same for every writer of the chain.
_ADVISORY_LOCK_KEY = 0x7A9151


def _digest(entry: AuditEntry) -> str:
    body = {
        "id": entry.pk,
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


def audit(*, actor, code: str, subject=None, data: dict | None = None) -> AuditEntry:
    """Append one entry. Must run inside the transaction of the change it records."""
    if not connection.in_atomic_block:
        raise RuntimeError("audit() must be called inside transaction.atomic()")
    if connection.vendor == "postgresql":
        # Serialises writers of the chain; released at commit.
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [_ADVISORY_LOCK_KEY])
    last = AuditEntry.objects.order_by("-pk").only("hash").first()
    now = timezone.now()
    gaming_date, shift = stamp(now)
    subject_type, subject_id = _subject_ref(subject)
    entry = AuditEntry.objects.create(
        created_at=now,
        actor=actor if getattr(actor, "pk", None) else None,
        code=code,
        subject_type=subject_type,
        subject_id=subject_id,
        data=json.loads(json.dumps(data or {}, default=str)),
        gaming_date=gaming_date,
        shift=shift,
        prev_hash=last.hash if last else GENESIS,
        # A unique placeholder: the digest needs the id the database is about to assign.
        hash=f"pending-{uuid.uuid4().hex}",
    )
    entry.hash = _digest(entry)
    AuditEntry.objects.filter(pk=entry.pk).update(_hash_write=True, hash=entry.hash)
    return entry


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
    previous_id = 0
    for entry in AuditEntry.objects.order_by("pk").iterator(chunk_size=2000):
        if entry.prev_hash != previous:
            # Ids may have gaps without tampering (a rolled-back insert burns a sequence value);
            # a gap only matters with a broken link, and then it is the likely cause.
            if entry.pk > previous_id + 1:
                reason = (
                    f"entries #{previous_id + 1} to #{entry.pk - 1} are missing "
                    "(deleted): its previous-hash no longer matches the entry before it"
                )
            else:
                reason = "its previous-hash does not match the hash of the entry before it"
            return ChainBreak(entry, entry.pk, entry.code, reason)
        if entry.hash != _digest(entry):
            return ChainBreak(
                entry, entry.pk, entry.code, "its content no longer matches its hash (edited)"
            )
        previous, previous_id = entry.hash, entry.pk
    return None


def verify_chain() -> AuditEntry | None:
    """Return the first entry whose hash or link is wrong, or None when the chain holds."""
    broken = find_break()
    return broken.entry if broken else None


def atomic_audit(**kwargs) -> AuditEntry:
    """For a privileged action that changes nothing else (an unlock, a token issued...)."""
    with transaction.atomic():
        return audit(**kwargs)
