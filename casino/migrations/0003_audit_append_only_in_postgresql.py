"""The audit log is append-only in the database too (PostgreSQL): an UPDATE or DELETE that
bypasses the ORM is refused. The one UPDATE allowed is audit()'s own: filling in the hash of
a row just inserted with a `pending-` placeholder, nothing else changed. TRUNCATE is not a
row operation (test teardown uses it). A database owner can still disable the trigger;
`manage.py audit_verify` is what proves the chain."""

from django.db import migrations

FUNCTION = """
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
TRIGGER = (
    "CREATE TRIGGER casino_auditentry_append_only BEFORE UPDATE OR DELETE "
    "ON casino_auditentry FOR EACH ROW EXECUTE FUNCTION casino_audit_append_only();"
)


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    # params=None: the SQL holds literal % signs that must not be taken as placeholders.
    schema_editor.execute(FUNCTION, params=None)
    schema_editor.execute(TRIGGER, params=None)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(
        "DROP TRIGGER IF EXISTS casino_auditentry_append_only ON casino_auditentry;", params=None
    )
    schema_editor.execute("DROP FUNCTION IF EXISTS casino_audit_append_only();", params=None)


class Migration(migrations.Migration):
    dependencies = [("casino", "0002_verbose_names_and_validators")]

    operations = [migrations.RunPython(forwards, backwards)]
