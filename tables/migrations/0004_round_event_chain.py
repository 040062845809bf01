"""Round events chained per round and keyed like the audit log (tables.models.rounds.seal):
each event carries the previous event's hash and an HMAC under AUDIT_HMAC_KEY, so an edited,
deleted or forged event shows in `manage.py audit_verify`.

Existing events are sealed here, round by round in number order, with the key in force when
the migration runs (the append-only trigger of 0002 is lifted for it and put back).
"""

from django.db import migrations, models

GENESIS = "0" * 64
ROW_TRIGGER = (
    "CREATE TRIGGER tables_roundevent_append_only BEFORE UPDATE OR DELETE ON tables_roundevent "
    "FOR EACH ROW EXECUTE FUNCTION tables_append_only();"
)
DROP_ROW_TRIGGER = "DROP TRIGGER IF EXISTS tables_roundevent_append_only ON tables_roundevent;"


def seal_existing(apps, schema_editor):
    from casino.audit_keys import current_key, current_key_id
    from tables.models.rounds import round_event_digest

    RoundEvent = apps.get_model("tables", "RoundEvent")
    events = list(RoundEvent.objects.order_by("round_id", "seq"))
    if not events:
        return
    postgresql = schema_editor.connection.vendor == "postgresql"
    if postgresql:
        schema_editor.execute(DROP_ROW_TRIGGER, params=None)
    key, key_id = current_key(), current_key_id()
    previous_round, previous = None, GENESIS
    for event in events:
        if event.round_id != previous_round:
            previous_round, previous = event.round_id, GENESIS
        event.prev_hash, event.key_id = previous, key_id
        event.hash = previous = round_event_digest(event, key)
        RoundEvent.objects.filter(pk=event.pk).update(
            prev_hash=event.prev_hash, key_id=event.key_id, hash=event.hash
        )
    if postgresql:
        schema_editor.execute(ROW_TRIGGER, params=None)


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0003_device_bindings"),
        ("casino", "0006_audit_hmac_and_no_truncate"),
    ]

    operations = [
        migrations.AddField(
            model_name="roundevent",
            name="hash",
            field=models.CharField(blank=True, default="", max_length=64, verbose_name="hash"),
        ),
        migrations.AddField(
            model_name="roundevent",
            name="key_id",
            field=models.CharField(blank=True, default="", max_length=32, verbose_name="key id"),
        ),
        migrations.AddField(
            model_name="roundevent",
            name="prev_hash",
            field=models.CharField(
                blank=True, default="", max_length=64, verbose_name="previous hash"
            ),
        ),
        migrations.RunPython(seal_existing, migrations.RunPython.noop),
    ]
