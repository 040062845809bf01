"""The audit log: append-only, each entry sealed into one chain by an HMAC after it commits.

A service writes its entries with `audit()` / `audit_many()` inside its own transaction: one
INSERT, no lock, so an entry exists exactly when the change it records commits. Each entry
carries its own MAC (`entry_mac`: its id and content under AUDIT_HMAC_KEY, casino.audit_keys,
which the database never sees). After the commit the sealer (`seal_pending`, the Celery task
casino.tasks.audit_seal, and beat's sweep every few seconds) takes the chain's lock, the only
one, and gives each committed entry whose own MAC holds its `position` (1, 2, 3... with no
gap), the previous entry's hash and its chain MAC (`hash`), in id order. That one UPDATE per
entry is the only change a row ever sees: PostgreSQL refuses every other (migration 0007) and
TRUNCATE (0006).

`find_break()` recomputes every sealed entry's MAC and link, compares the chain with the
checkpoints kept outside the database (casino.checkpoints), names an unsealed entry whose own
MAC does not hold (inserted without the key) or that is older than AUDIT_SEAL_MAX_LAG_SECONDS,
and names an entry whose own MAC does not hold. The money records each entry may carry a
digest of are in casino.audit_records.

Hand-written SQL here: only the chain's lock (`pg_advisory_xact_lock`, PostgreSQL's; SQLite
serialises writers by itself), which keeps positions contiguous when two sealers run at once.
See docs/architecture/audit-chain.md.
"""

import json
import logging
from datetime import timedelta

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from casino.audit_keys import current_key_id, known_keys, mac
from casino.audit_records import record_digest
from casino.chains import (
    EDITED,
    GENESIS,
    MISSING,
    REFUSED,
    RELINKED,
    UNKNOWN_KEY,
    canonical,
    link_digest,
    walk,
)
from casino.checkpoints import (
    checkpoint_write,
    checkpoint_write_safely,
    checkpoints_read,
    last_checkpoint_position,
)
from casino.clock import stamp
from casino.ids import draw_ids
from casino.models import AuditEntry

log = logging.getLogger("casino.audit")

# Any constant works; it only has to be the same for every holder. Only the sealer (and
# audit_checkpoint) takes it now: no request waits for it.
CHAIN_LOCK_KEY = 0x7A9151
# Entries sealed per transaction of the sealer (it loops until none is left).
SEAL_BATCH = 500


class UnknownKey(Exception):
    pass


def _content(entry: AuditEntry) -> dict:
    """What an entry says, without its place in the chain."""
    body = {
        "id": entry.pk,
        "key_id": entry.key_id,
        "created_at": entry.created_at.isoformat(),
        "actor": entry.actor_id,
        "code": entry.code,
        "subject_type": entry.subject_type,
        "subject_id": entry.subject_id,
        "data": entry.data,
        "gaming_date": entry.gaming_date.isoformat() if entry.gaming_date else None,
        "shift": entry.shift,
    }
    # Absent from entries written before records were digested (and from migration 0006's
    # model of an entry, which reseals with this digest).
    if getattr(entry, "record_digest", ""):
        body["record_digest"] = entry.record_digest
    return body


def _digest(entry: AuditEntry, key: str | None = None) -> str:
    """The entry's chain MAC under its key (entry.key_id; `key` overrides it): its content,
    position and the previous entry's hash."""
    if key is None:
        key = known_keys().get(entry.key_id)
        if key is None:
            raise UnknownKey(entry.key_id)
    return link_digest({**_content(entry), "position": entry.position}, entry.prev_hash, key)


def _entry_mac(entry: AuditEntry, key: str) -> str:
    """The entry's own MAC, made by its writer: what the sealer checks before sealing it."""
    return mac(key, canonical({**_content(entry), "entry": True}))


def _entry_mac_holds(entry: AuditEntry, keys: dict) -> bool:
    key = keys.get(entry.key_id)
    return key is not None and bool(entry.entry_mac) and entry.entry_mac == _entry_mac(entry, key)


def _head() -> tuple | None:
    return (
        AuditEntry.objects.filter(position__isnull=False)
        .order_by("-position")
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
    transaction of the changes they record. The entries come back unsealed (no position nor
    hash yet): the sealer seals them after the commit."""
    if not connection.in_atomic_block:
        raise RuntimeError("audit() must be called inside transaction.atomic()")
    if not entries:
        return []
    ids = draw_ids(AuditEntry, len(entries))
    now = timezone.now()
    gaming_date, shift = stamp(now)
    key_id = current_key_id()
    key = known_keys()[key_id]
    rows = []
    for pk, item in zip(ids, entries, strict=True):
        subject = item.get("subject")
        subject_type, subject_id = _subject_ref(subject)
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
            key_id=key_id,
            record_digest=record_digest(subject, item["code"]),
        )
        entry.entry_mac = _entry_mac(entry, key)
        rows.append(entry)
    AuditEntry.objects.bulk_create(rows, _chained=True)
    from casino.tasks import audit_seal  # casino.tasks imports this module

    # Beat's sweep seals what a lost task left.
    audit_seal.delay_on_commit()
    return rows


def _chain_lock() -> None:
    """Serialise the sealers (released at commit): positions are read and given under it."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [CHAIN_LOCK_KEY])


def seal_pending() -> int:
    """Seal every committed entry not sealed yet, in id order; returns how many. The only
    writer of positions and hashes, under the chain's lock. An entry whose own MAC does not
    hold (inserted without the key) is left unsealed and logged: audit_verify names it."""
    sealed = after = 0
    while True:
        count, after = _seal_batch(after)
        sealed += count
        if after is None:
            return sealed


def _seal_batch(after: int) -> tuple[int, int | None]:
    """Seal up to SEAL_BATCH entries of id above `after`: (how many, the last id looked at,
    or None when none is left). Ids only grow from batch to batch, so entries left unsealed
    (forged) never hold up the ones after them."""
    with transaction.atomic():
        _chain_lock()
        waiting = list(
            AuditEntry.objects.filter(position__isnull=True, pk__gt=after).order_by("pk")[
                :SEAL_BATCH
            ]
        )
        if not waiting:
            return 0, None
        keys = known_keys()
        last = _head()
        position, previous = (last[0], last[1]) if last else (0, GENESIS)
        sealed = []
        for entry in waiting:
            if not _entry_mac_holds(entry, keys):
                log.error(
                    "audit entry #%s (%s) not sealed: its MAC does not hold", entry.pk, entry.code
                )
                continue
            if last is not None and (last[3], last[4]) != (entry.gaming_date, entry.shift):
                # The first entry of a new shift: the chain's head at the end of the last one
                # goes outside the database, once this seal is committed.
                closed = {
                    "position": last[0],
                    "hash": last[1],
                    "entry_id": last[2],
                    "gaming_date": last[3],
                    "shift": last[4],
                    "reason": "shift_change",
                }
                transaction.on_commit(lambda closed=closed: checkpoint_write_safely(**closed))
            position += 1
            entry.position, entry.prev_hash = position, previous
            entry.hash = previous = _digest(entry, keys[entry.key_id])
            last = (position, entry.hash, entry.pk, entry.gaming_date, entry.shift)
            sealed.append(entry)
        if sealed:
            AuditEntry.objects._seal(sealed)
        return len(sealed), waiting[-1].pk if len(waiting) == SEAL_BATCH else None


def seal_sweep() -> int:
    """Beat's sweep: seal what no hand-off sealed, then checkpoint the chain's head if it
    moved since the last checkpoint, so that entries cut off its end show within a sweep."""
    sealed = seal_pending()
    head = _head()
    if head is not None and head[0] > last_checkpoint_position():
        audit_checkpoint(reason="sweep")
    return sealed


def audit_checkpoint(reason: str = "requested") -> dict | None:
    """Write a checkpoint of the chain's head now (None when the log is empty), with the heads
    of the chains registered in casino.checkpoints (each bank's last ledger line...). What
    is committed and not sealed yet is sealed first: the checkpoint covers it."""
    seal_pending()
    with transaction.atomic():
        _chain_lock()
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


# --- verification --------------------------------------------------------------------------


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


def seal_max_lag() -> timedelta:
    return timedelta(seconds=settings.AUDIT_SEAL_MAX_LAG_SECONDS)


def find_break() -> ChainBreak | None:
    """Walk the chain; name the first entry whose MAC, link or position is wrong, a missing
    entry, an entry that differs from a checkpoint, or an end cut off before the last
    checkpoint; then an unsealed entry that is forged or waited too long for its seal. A
    checkpoint file line that is not genuine is a break too."""
    checkpoints, forged_lines = checkpoints_read()
    if forged_lines:
        return ChainBreak(None, 0, "checkpoint", forged_lines[0])
    expected: dict[int, object] = {}
    for checkpoint in checkpoints:
        expected.setdefault(checkpoint.position, checkpoint)
    keys = known_keys()

    def as_checkpointed(entry: AuditEntry) -> str | None:
        checkpoint = expected.get(entry.position)
        if checkpoint is not None and checkpoint.hash != entry.hash:
            return (
                f"it differs from the checkpoint written at {checkpoint.written_at} for position "
                f"{entry.position}: the log was rewritten at or before this entry"
            )
        return None

    sealed = AuditEntry.objects.filter(position__isnull=False).order_by("position")
    walked = walk(
        sealed.iterator(chunk_size=2000),
        keys=keys,
        digest=_digest,
        number="position",
        then=as_checkpointed,
    )
    if walked.broken is not None:
        entry = walked.broken.row
        return ChainBreak(entry, entry.pk, entry.code, _break_reason(walked.broken))
    previous_position = walked.heads.get(None, (0,))[0]
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
    return _unsealed_break(keys)


def _break_reason(broken) -> str:
    entry, (previous_position, _hash, previous_id) = broken.row, broken.previous
    if broken.kind == MISSING:
        # Ids may have gaps without tampering (a rolled-back insert burns a sequence value);
        # positions may not: they are given under the chain's lock.
        first, last = broken.missing
        gone = f"position {first} is" if first == last else f"positions {first} to {last} are"
        return f"{gone} missing (deleted) between entry #{previous_id} and this one"
    if broken.kind == UNKNOWN_KEY:
        return (
            f"its key id {entry.key_id!r} is not a known key (forged, or the key is "
            "missing from AUDIT_HMAC_PREVIOUS_KEYS)"
        )
    if broken.kind == EDITED:
        return "its content no longer matches its MAC (edited, renumbered or forged)"
    if broken.kind == RELINKED:
        return "its previous-hash does not match the hash of the entry before it"
    if broken.kind == REFUSED:  # differs from a checkpoint
        return broken.reason
    return (  # RENUMBERED
        f"its position {entry.position} is not after the previous entry's "
        f"({previous_position}): inserted or renumbered"
    )


def _unsealed_break(keys: dict) -> ChainBreak | None:
    """An entry not sealed yet is fine while the sealer is due; one whose own MAC does not
    hold was inserted without the key, and one older than the allowed lag was held back (or
    the sealer is down): both are breaks."""
    overdue = timezone.now() - seal_max_lag()
    for entry in AuditEntry.objects.filter(position__isnull=True).order_by("pk").iterator():
        if entry.key_id not in keys:
            reason = (
                f"it is not sealed and its key id {entry.key_id!r} is not a known key (forged, "
                "or the key is missing from AUDIT_HMAC_PREVIOUS_KEYS)"
            )
            return ChainBreak(entry, entry.pk, entry.code, reason)
        if not _entry_mac_holds(entry, keys):
            reason = "it is not sealed and its content does not match its MAC (forged or edited)"
            return ChainBreak(entry, entry.pk, entry.code, reason)
        if entry.created_at < overdue:
            waited = int((timezone.now() - entry.created_at).total_seconds())
            reason = (
                f"it is still not sealed {waited} s after it was written (more than "
                f"AUDIT_SEAL_MAX_LAG_SECONDS = {settings.AUDIT_SEAL_MAX_LAG_SECONDS}): the "
                "sealer is not running, or the entry was held back"
            )
            return ChainBreak(entry, entry.pk, entry.code, reason)
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
