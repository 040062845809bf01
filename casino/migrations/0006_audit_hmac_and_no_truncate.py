"""The audit chain keyed by HMAC (casino.audit_keys), with each entry's id and key id in the
MAC; and TRUNCATE refused on every append-only table (PostgreSQL).

Existing entries: the chain is first verified with the old rule (SHA-256 by position); a
broken chain stops the migration. It is then resealed with the key in force at migration time,
in position order (the append-only trigger is lifted for the reseal and put back). Run
`manage.py audit_verify` and keep its output before migrating a database whose log matters.

TRUNCATE is a statement, not a row operation, so the row triggers of 0004 (and of the tables
and jackpot apps) never saw it. A statement trigger refuses it now, unless the session has set
`tapis.allow_truncate = on`: only the test database does (tests/conftest.py), for the test
runner's flush between tests. Setting it takes the same rights as disabling a trigger; the
checkpoints outside the database (casino.checkpoints) are what catch a truncation that
happened anyway.
"""

import hashlib
import json

from django.db import migrations, models

GENESIS = "0" * 64
APPEND_ONLY_TABLES = (
    "casino_auditentry",
    "tables_roundevent",
    "tables_settlementline",
    "tables_correction",
    "jackpot_meterentry",
    "jackpot_meterreading",
    "jackpot_pendingcontribution",  # accepted contributions: updated once posted, never removed
)
REFUSE_TRUNCATE = """
CREATE OR REPLACE FUNCTION tapis_refuse_truncate() RETURNS trigger AS $$
BEGIN
    IF current_setting('tapis.allow_truncate', true) = 'on' THEN
        RETURN NULL;
    END IF;
    RAISE EXCEPTION '% is append-only: TRUNCATE is refused', TG_TABLE_NAME;
END;
$$ LANGUAGE plpgsql;
"""
ROW_TRIGGER = (
    "CREATE TRIGGER casino_auditentry_append_only BEFORE UPDATE OR DELETE "
    "ON casino_auditentry FOR EACH ROW EXECUTE FUNCTION casino_audit_append_only();"
)
DROP_ROW_TRIGGER = "DROP TRIGGER IF EXISTS casino_auditentry_append_only ON casino_auditentry;"


def _old_digest(entry) -> str:
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


def reseal(apps, schema_editor):
    from casino.audit import _digest
    from casino.audit_keys import current_key, current_key_id

    AuditEntry = apps.get_model("casino", "AuditEntry")
    entries = list(AuditEntry.objects.order_by("position"))
    if not entries:
        return
    previous = GENESIS
    for entry in entries:
        if entry.prev_hash != previous or entry.hash != _old_digest(entry):
            raise RuntimeError(
                f"audit entry #{entry.pk} does not verify: the chain is broken, investigate "
                "before migrating (manage.py audit_verify)"
            )
        previous = entry.hash
    postgresql = schema_editor.connection.vendor == "postgresql"
    if postgresql:
        schema_editor.execute(DROP_ROW_TRIGGER, params=None)
    key, key_id = current_key(), current_key_id()
    previous = GENESIS
    for entry in entries:
        entry.key_id, entry.prev_hash = key_id, previous
        entry.hash = previous = _digest(entry, key)
        AuditEntry.objects.filter(pk=entry.pk).update(
            key_id=entry.key_id, prev_hash=entry.prev_hash, hash=entry.hash
        )
    if postgresql:
        schema_editor.execute(ROW_TRIGGER, params=None)


def refuse_truncate(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    # params=None: the % in the function is PL/pgSQL's, not a placeholder.
    schema_editor.execute(REFUSE_TRUNCATE, params=None)
    for table in APPEND_ONLY_TABLES:
        schema_editor.execute(
            f"CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table} "
            "FOR EACH STATEMENT EXECUTE FUNCTION tapis_refuse_truncate();",
            params=None,
        )


def allow_truncate(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for table in APPEND_ONLY_TABLES:
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_no_truncate ON {table};")
    schema_editor.execute("DROP FUNCTION IF EXISTS tapis_refuse_truncate();")


class Migration(migrations.Migration):
    dependencies = [
        ("casino", "0005_separation_of_duties"),
        ("tables", "0003_device_bindings"),
        ("jackpot", "0003_pending_contribution"),
    ]

    operations = [
        migrations.AddField(
            model_name="auditentry",
            name="key_id",
            field=models.CharField(blank=True, default="", max_length=32, verbose_name="key id"),
        ),
        migrations.RunPython(reseal, migrations.RunPython.noop),
        # PostgreSQL only (the triggers are PL/pgSQL), hence RunPython around the SQL.
        migrations.RunPython(refuse_truncate, allow_truncate, elidable=False),
    ]
