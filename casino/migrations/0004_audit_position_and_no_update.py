"""Audit entries get a contiguous `position` (1, 2, 3...), and the digest covers it instead of
the database id: audit() then inserts each entry once, with its final hash, and the
PostgreSQL trigger refuses every UPDATE and DELETE (0003 let audit() fill in the hash).

Existing entries: the chain is first verified with the old rule (id in the digest); a broken
chain stops the migration. It is then resealed with the new rule, in id order. The reseal
rewrites every hash, so run `manage.py audit_verify` and keep its output before migrating
a database whose log matters (at the time of writing there was no production data).
"""

import hashlib
import json

from django.db import migrations, models

GENESIS = "0" * 64


def _digest(entry, key: str, value) -> str:
    body = {
        key: value,
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


OLD_FUNCTION = """
CREATE OR REPLACE FUNCTION casino_audit_append_only() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'UPDATE'
       AND OLD.hash LIKE 'pending-%'
       AND NEW.hash NOT LIKE 'pending-%'
       AND (NEW.id, NEW.created_at, NEW.actor_id, NEW.code, NEW.subject_type, NEW.subject_id,
            NEW.data, NEW.gaming_date, NEW.shift, NEW.prev_hash)
           IS NOT DISTINCT FROM
           (OLD.id, OLD.created_at, OLD.actor_id, OLD.code, OLD.subject_type, OLD.subject_id,
            OLD.data, OLD.gaming_date, OLD.shift, OLD.prev_hash)
    THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'the audit log is append-only: entries cannot be changed or deleted';
END;
$$ LANGUAGE plpgsql;
"""
NEW_FUNCTION = """
CREATE OR REPLACE FUNCTION casino_audit_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'the audit log is append-only: entries cannot be changed or deleted';
END;
$$ LANGUAGE plpgsql;
"""
TRIGGER = (
    "CREATE TRIGGER casino_auditentry_append_only BEFORE UPDATE OR DELETE "
    "ON casino_auditentry FOR EACH ROW EXECUTE FUNCTION casino_audit_append_only();"
)
DROP_TRIGGER = "DROP TRIGGER IF EXISTS casino_auditentry_append_only ON casino_auditentry;"


def _trigger(function: str | None):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        schema_editor.execute(DROP_TRIGGER, params=None)
        if function is not None:
            # params=None: the SQL may hold literal % signs that are not placeholders.
            schema_editor.execute(function, params=None)
            schema_editor.execute(TRIGGER, params=None)

    return run


def reseal(apps, schema_editor):
    AuditEntry = apps.get_model("casino", "AuditEntry")
    entries = list(AuditEntry.objects.order_by("pk"))
    previous = GENESIS
    for entry in entries:
        if entry.prev_hash != previous or entry.hash != _digest(entry, "id", entry.pk):
            raise RuntimeError(
                f"audit entry #{entry.pk} does not verify: the chain is broken, investigate "
                "before migrating (manage.py audit_verify)"
            )
        previous = entry.hash
    previous = GENESIS
    for position, entry in enumerate(entries, start=1):
        entry.position, entry.prev_hash = position, previous
        entry.hash = previous = _digest(entry, "position", position)
        AuditEntry.objects.filter(pk=entry.pk).update(
            position=entry.position, prev_hash=entry.prev_hash, hash=entry.hash
        )


class Migration(migrations.Migration):
    dependencies = [("casino", "0003_audit_append_only_in_postgresql")]

    operations = [
        # The old trigger would refuse the reseal; put back on the way down.
        migrations.RunPython(_trigger(None), _trigger(OLD_FUNCTION)),
        migrations.AddField(
            model_name="auditentry",
            name="position",
            field=models.PositiveBigIntegerField(null=True, verbose_name="position"),
        ),
        migrations.RunPython(reseal, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="auditentry",
            name="position",
            field=models.PositiveBigIntegerField(unique=True, verbose_name="position"),
        ),
        migrations.RunPython(_trigger(NEW_FUNCTION), _trigger(None)),
    ]
