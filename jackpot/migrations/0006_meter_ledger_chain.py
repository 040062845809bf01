"""The meter ledger chained per bank and keyed like the audit log (jackpot.models.MeterEntry):
each line carries the previous line's hash and an HMAC of its content under AUDIT_HMAC_KEY,
so an edited, renumbered, re-chained, deleted or forged line shows in `manage.py audit_verify`.
The bank row keeps its last line's hash, so posting chains a line without reading the ledger.

Existing lines are sealed here, bank by bank in line order, with the key in force when the
migration runs (the append-only trigger of 0002 is lifted for it and put back). Run it with
the production AUDIT_HMAC_KEY in the environment, as for casino 0006.
"""

from django.db import migrations, models

GENESIS = "0" * 64
ROW_TRIGGER = (
    "CREATE TRIGGER jackpot_meterentry_append_only BEFORE UPDATE OR DELETE ON jackpot_meterentry "
    "FOR EACH ROW EXECUTE FUNCTION jackpot_refuse_change();"
)
DROP_ROW_TRIGGER = "DROP TRIGGER IF EXISTS jackpot_meterentry_append_only ON jackpot_meterentry;"
BATCH = 1000


def seal_existing(apps, schema_editor):
    from casino.audit_keys import current_key, current_key_id
    from jackpot.models import meter_entry_digest

    Bank = apps.get_model("jackpot", "Bank")
    MeterEntry = apps.get_model("jackpot", "MeterEntry")
    if not MeterEntry.objects.exists():
        return
    postgresql = schema_editor.connection.vendor == "postgresql"
    if postgresql:
        schema_editor.execute(DROP_ROW_TRIGGER, params=None)
    key, key_id = current_key(), current_key_id()
    for bank in Bank.objects.order_by("pk"):
        previous, sealed = GENESIS, []
        for line in MeterEntry.objects.filter(bank=bank).order_by("seq").iterator(BATCH):
            line.prev_hash, line.key_id = previous, key_id
            line.hash = previous = meter_entry_digest(line, key)
            sealed.append(line)
            if len(sealed) == BATCH:
                MeterEntry.objects.bulk_update(sealed, ["prev_hash", "key_id", "hash"])
                sealed = []
        MeterEntry.objects.bulk_update(sealed, ["prev_hash", "key_id", "hash"])
        if previous != GENESIS:
            Bank.objects.filter(pk=bank.pk).update(ledger_hash=previous)
    if postgresql:
        schema_editor.execute(ROW_TRIGGER, params=None)


class Migration(migrations.Migration):
    dependencies = [
        ("jackpot", "0005_bank_english_name_and_labels"),
        ("casino", "0006_audit_hmac_and_no_truncate"),
    ]

    operations = [
        migrations.AddField(
            model_name="bank",
            name="ledger_hash",
            field=models.CharField(
                blank=True, default="", max_length=64, verbose_name="ledger's last hash"
            ),
        ),
        migrations.AddField(
            model_name="meterentry",
            name="hash",
            field=models.CharField(blank=True, default="", max_length=64, verbose_name="hash"),
        ),
        migrations.AddField(
            model_name="meterentry",
            name="key_id",
            field=models.CharField(blank=True, default="", max_length=32, verbose_name="key id"),
        ),
        migrations.AddField(
            model_name="meterentry",
            name="prev_hash",
            field=models.CharField(
                blank=True, default="", max_length=64, verbose_name="previous hash"
            ),
        ),
        migrations.RunPython(seal_existing, migrations.RunPython.noop),
    ]
