"""Audit entries are sealed after their commit (casino.audit): the writer inserts an entry with
its own MAC (`entry_mac`) and no place in the chain; the sealer then gives it its position,
previous hash and hash, once. The PostgreSQL trigger lets through exactly that one update (an
unsealed row sealed, nothing else changed) and refuses every other update and every delete.

Existing entries are sealed already and stay as they are.
"""

from django.db import migrations, models


SEAL_ONCE_FUNCTION = """
CREATE OR REPLACE FUNCTION casino_audit_append_only() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'UPDATE'
       AND OLD.position IS NULL AND OLD.hash IS NULL
       AND NEW.position IS NOT NULL AND NEW.hash IS NOT NULL
       AND (NEW.id, NEW.created_at, NEW.actor_id, NEW.code, NEW.subject_type, NEW.subject_id,
            NEW.data, NEW.gaming_date, NEW.shift, NEW.key_id, NEW.entry_mac, NEW.record_digest)
           IS NOT DISTINCT FROM
           (OLD.id, OLD.created_at, OLD.actor_id, OLD.code, OLD.subject_type, OLD.subject_id,
            OLD.data, OLD.gaming_date, OLD.shift, OLD.key_id, OLD.entry_mac, OLD.record_digest)
    THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'the audit log is append-only: entries cannot be changed or deleted';
END;
$$ LANGUAGE plpgsql;
"""
NO_UPDATE_FUNCTION = """
CREATE OR REPLACE FUNCTION casino_audit_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'the audit log is append-only: entries cannot be changed or deleted';
END;
$$ LANGUAGE plpgsql;
"""


def _function(sql: str):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            # params=None: the function's % signs are PL/pgSQL's, not placeholders.
            schema_editor.execute(sql, params=None)

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("casino", "0010_shift_names_in_french_and_english"),
    ]

    operations = [
        migrations.AddField(
            model_name="auditentry",
            name="entry_mac",
            field=models.CharField(
                blank=True, db_default="", default="", max_length=64, verbose_name="entry MAC"
            ),
        ),
        migrations.AddField(
            model_name="auditentry",
            name="record_digest",
            field=models.CharField(
                blank=True, db_default="", default="", max_length=64, verbose_name="record digest"
            ),
        ),
        migrations.AlterField(
            model_name="auditentry",
            name="hash",
            field=models.CharField(
                blank=True, max_length=64, null=True, unique=True, verbose_name="hash"
            ),
        ),
        migrations.AlterField(
            model_name="auditentry",
            name="position",
            field=models.PositiveBigIntegerField(
                blank=True, null=True, unique=True, verbose_name="position"
            ),
        ),
        migrations.AlterField(
            model_name="auditentry",
            name="prev_hash",
            field=models.CharField(
                blank=True, default="", max_length=64, verbose_name="previous hash"
            ),
        ),
        # After the columns it names exist.
        migrations.RunPython(_function(SEAL_ONCE_FUNCTION), _function(NO_UPDATE_FUNCTION)),
    ]
