"""The audit log: append-only, each entry chained to the previous one by SHA-256.

`audit()` is called inside the service's transaction, so an entry exists exactly when the
change it records was committed. `verify_chain()` recomputes every hash and names the first
entry that does not match.
"""

import hashlib
import json

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
        hash=f"pending-{now.timestamp()}-{id(object())}",
    )
    entry.hash = _digest(entry)
    AuditEntry.objects.filter(pk=entry.pk).update(hash=entry.hash)
    return entry


def verify_chain() -> AuditEntry | None:
    """Return the first entry whose hash or link is wrong, or None when the chain holds."""
    previous = GENESIS
    for entry in AuditEntry.objects.order_by("pk").iterator(chunk_size=2000):
        if entry.prev_hash != previous or entry.hash != _digest(entry):
            return entry
        previous = entry.hash
    return None


def atomic_audit(**kwargs) -> AuditEntry:
    """For a privileged action that changes nothing else (an unlock, a token issued...)."""
    with transaction.atomic():
        return audit(**kwargs)
