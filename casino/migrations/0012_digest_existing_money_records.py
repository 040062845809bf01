"""The money records written before records were digested (rounds with their lines,
corrections and queued reversals, progressive hits, slips, drops) each get one audit entry,
`casino.record.digested`, carrying the digest of the record as it stands: from then on
audit_verify names any change to it. Nothing existing is changed; the new entries are sealed
at once.

It runs the live code (casino.audit_records.digest_unrecorded, and each app's registered fields):
the digest is that code's, so it cannot be taken from the historical models. Each record's
fields are named in its registration and loaded alone (`only`), so a column added by a later
migration is never read here.
"""

from django.db import migrations


def digest_existing(apps, schema_editor):
    from casino.audit_records import digest_unrecorded

    digest_unrecorded()


class Migration(migrations.Migration):
    dependencies = [
        ("casino", "0011_audit_sealed_after_commit"),
        ("tables", "0009_first_ruleset_approval"),
        ("jackpot", "0008_meter_adjustment_requests"),
        ("accounting", "0003_linesummary_rivals_and_stake_squares"),
    ]

    operations = [migrations.RunPython(digest_existing, migrations.RunPython.noop)]
