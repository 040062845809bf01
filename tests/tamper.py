"""What the tamper tests share: writing the database as someone with direct access would
(the table owner first switches off its append-only row trigger, on PostgreSQL), and
`manage.py audit_verify`'s exit code and words."""

from io import StringIO

from django.core.management import call_command
from django.db import connection


def write_unguarded(table: str, statement: str, params: list | None = None) -> None:
    """Run `statement` with `table`'s row triggers off (PostgreSQL; SQLite has none)."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # Deferred foreign-key checks of the test's own inserts must run before ALTER TABLE.
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            cursor.execute(f"ALTER TABLE {table} DISABLE TRIGGER USER")
        cursor.execute(statement, params or [])
        if connection.vendor == "postgresql":
            cursor.execute(f"ALTER TABLE {table} ENABLE TRIGGER USER")


def detach_adjustment_requests(where: str, params: list) -> None:
    """Unlink the meter adjustment requests from the ledger lines `where` picks (SQL on
    jackpot_meterentry), as someone deleting or renumbering those lines would have to."""
    write_unguarded(
        "jackpot_adjustmentrequest",
        "UPDATE jackpot_adjustmentrequest SET entry_id = NULL"
        f" WHERE entry_id IN (SELECT id FROM jackpot_meterentry WHERE {where})",
        params,
    )


def audit_verify() -> tuple[int, str]:
    """(exit code, what it said): 0 and its report, or 1 and the break it names."""
    out, err = StringIO(), StringIO()
    try:
        call_command("audit_verify", stdout=out, stderr=err)
    except SystemExit as exc:
        return exc.code, err.getvalue()
    return 0, out.getvalue()


def sealed(entries: list) -> list:
    """`entries` as the sealer leaves them. A test's transaction never commits, so the sealer
    that runs after each commit (audit_seal.delay_on_commit) is called here instead."""
    from casino.audit import seal_pending
    from casino.models import AuditEntry

    seal_pending()
    by_id = AuditEntry.objects.in_bulk([e.pk for e in entries])
    return [by_id[e.pk] for e in entries]
