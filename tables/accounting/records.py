"""Fills, credits and drops made tamper-evident with the audit chain: each entry about a slip
or a drop carries the digest of the record as it then stood (casino.audit_records.register_record), so
audit_verify names a total, a count, a state or a name changed since, a record deleted, or one
with no entry. See docs/architecture/audit-chain.md."""

from casino.audit_records import register_record
from tables.accounting.models import ChipSlip, Drop

SLIP_CODES = [
    f"accounting.{kind}.{what}"
    for kind in ChipSlip.Kind.values
    for what in ("requested", "approved", "voided")
]
DROP_CODES = [f"accounting.drop.{source}" for source in Drop.Source.values]

register_record(
    ChipSlip,
    fields=(
        "kind",
        "gaming_year",
        "number",
        "table_id",
        "counts",
        "total_cents",
        "gaming_date",
        "shift",
        "state",
        "requested_by_id",
        "requested_at",
        "approved_by_id",
        "approved_at",
        "voided_by_id",
        "voided_at",
        "void_reason",
    ),
    codes=SLIP_CODES,
    name="slip",
)
register_record(
    Drop,
    fields=(
        "table_id",
        "gaming_date",
        "shift",
        "cash_cents",
        "markers_cents",
        "source",
        "entered_by_id",
        "entered_at",
    ),
    codes=DROP_CODES,
    name="drop",
)
