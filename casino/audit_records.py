"""Money records made tamper-evident with the audit chain (issue 23, item 6).

An app registers a kind of record (`register_record`): each audit entry about such a record
(its subject) whose code is one of the kind's codes carries `record_digest`, the SHA-256 of the
record's content as it stood when the entry was written, which the entry's MACs cover.
`find_record_breaks` (audit_verify) recomputes each record's digest and names a record edited
since its latest entry, a record deleted, and a record no entry speaks of (forged). See
docs/architecture/audit-chain.md.
"""

import hashlib
import json
from dataclasses import dataclass

from django.db import transaction

from casino.ids import db_id
from casino.models import AuditEntry

RECORD_DIGESTED = "casino.record.digested"


@dataclass(frozen=True)
class SealedRecord:
    """A kind of money record whose content each of its audit entries fixes (a digest).

    fields: the record's columns that must not change without a new entry (named, not "all
    of them": a column added later must not change the digest of every older record).
    content(record, code=None): what is digested, by default those fields; it may add
    related rows. `code` is the entry being written (None when audit_verify recomputes): it
    lets the writer skip reading what it knows to be empty; the result must not differ.
    codes: the entry codes that carry the digest (the entry's subject is the record).
    present(): the records that must have such an entry (a queryset), for audit_verify."""

    model: type
    fields: tuple
    content: object
    codes: frozenset
    present: object
    name: str

    def rows(self):
        return self.present().only(*self.fields).order_by("pk")


RECORDS: dict[str, SealedRecord] = {}


def register_record(model, *, fields, codes, content=None, present=None, name: str = "") -> None:
    """Make `model`'s records tamper-evident: each entry whose code is in `codes` and whose
    subject is a record carries the digest of `content(record)` as it stands then, and
    audit_verify names a record that no longer matches its latest entry, one deleted, or
    one in `present()` with no entry (forged)."""
    fields = tuple(fields)
    RECORDS[model._meta.label_lower] = SealedRecord(
        model=model,
        fields=fields,
        content=content or (lambda record, code=None: {f: getattr(record, f) for f in fields}),
        codes=frozenset(codes) | {RECORD_DIGESTED},
        present=present or (lambda: model._default_manager.all()),
        name=name or str(model._meta.verbose_name),
    )


def digest_unrecorded() -> int:
    """An entry carrying the digest of each registered record that has none, as it stands now:
    for the records written before records were digested (migration 0008). Returns how many."""
    from casino.audit import audit_many, seal_pending

    written = 0
    with transaction.atomic():
        for label, record in RECORDS.items():
            recorded = set(
                AuditEntry.objects.filter(subject_type=label)
                .exclude(record_digest="")
                .values_list("subject_id", flat=True)
            )
            batch = []
            for row in record.rows().iterator(chunk_size=2000):
                if str(row.pk) in recorded:
                    continue
                batch.append({"actor": None, "code": RECORD_DIGESTED, "subject": row, "data": {}})
                if len(batch) == 1000:
                    written += len(audit_many(batch))
                    batch = []
            written += len(audit_many(batch))
    seal_pending()
    return written


def content_digest(content) -> str:
    canonical = json.dumps(content, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


def record_digest(subject, code: str) -> str:
    """The digest an entry about `subject` carries: "" unless `subject` is a registered
    record and `code` one of its codes."""
    meta = getattr(subject, "_meta", None)
    record = RECORDS.get(meta.label_lower) if meta else None
    if record is None or code not in record.codes:
        return ""
    return content_digest(record.content(subject, code))


def find_record_breaks() -> list[tuple[str, object]]:
    """(record kind, its first break) for each registered kind of money record whose records
    do not all match the digest carried by their latest entry: an edited record, a record
    deleted (its entries remain), a record with no entry (forged, or its entries deleted)."""
    found = []
    for label, record in RECORDS.items():
        broken = _record_break(label, record)
        if broken is not None:
            found.append((record.name, broken))
    return found


def _record_break(label: str, record: SealedRecord):
    entries = list(AuditEntry.objects.filter(subject_type=label).exclude(record_digest=""))
    # In chain order, the entries not sealed yet after the sealed ones (their place is still
    # to come, in id order): each record's latest entry is the last one here.
    entries.sort(key=lambda e: (e.position is None, e.position or 0, e.pk))
    latest = {entry.subject_id: entry for entry in entries}
    seen = set()
    for row in record.rows().iterator(chunk_size=2000):
        seen.add(str(row.pk))
        broken = _record_differs(record, row, latest.get(str(row.pk)))
        if broken is not None:
            return broken
    # Recorded records that no longer look like records with money (a round's stage
    # rewritten), or are gone.
    left = {subject_id: entry for subject_id, entry in latest.items() if subject_id not in seen}
    ids = [key for i in left if (key := db_id(i)) is not None]
    rows = record.model._default_manager.only(*record.fields).in_bulk(ids)
    for subject_id, entry in left.items():
        row = rows.get(db_id(subject_id))
        if row is None:
            reason = f"{record.name} #{subject_id}, recorded by this entry, is missing: deleted"
            return _break(entry, entry.pk, entry.code, reason)
        broken = _record_differs(record, row, entry)
        if broken is not None:
            return broken
    return None


def _record_differs(record: SealedRecord, row, entry: AuditEntry | None):
    if entry is None:
        reason = (
            f"{record.name} #{row.pk} has no audit entry that records it: forged, or its "
            "entries deleted"
        )
        return _break(None, row.pk, record.name, reason)
    if content_digest(record.content(row)) != entry.record_digest:
        reason = (
            f"{record.name} #{row.pk} no longer matches what its audit entry "
            f"#{entry.pk} ({entry.code}) recorded of it: edited since"
        )
        return _break(entry, entry.pk, entry.code, reason)
    return None


def _break(*args):
    """A casino.audit.ChainBreak (imported here: casino.audit imports this module)."""
    from casino.audit import ChainBreak

    return ChainBreak(*args)
