"""`manage.py audit_verify`. Its one SQL statement reads PostgreSQL's `tapis.allow_truncate`
flag (which the append-only triggers obey, migration 0006), to warn when this database lets
the append-only tables be emptied: the ORM has no way to read such a setting."""

from django.core.management.base import BaseCommand
from django.db import connection
from django.utils.module_loading import autodiscover_modules

from casino.audit import CHAINS, find_break
from casino.audit_records import RECORDS, find_record_breaks
from casino.checkpoints import HEADS, checkpoint_path, checkpoints_read, heads_find_breaks
from casino.models import AuditEntry


class Command(BaseCommand):
    help = (
        "Verify the audit log: every entry's MAC and link, no missing position, and agreement "
        "with the checkpoints kept outside the database (casino.checkpoints); then the other "
        "chains (meter ledger, round events), the money records against the digests their "
        "entries carry (rounds' settlements and lines, corrections, queued reversals, hits, "
        "slips, drops), and the heads the checkpoints recorded of the chains (each bank's last "
        "ledger line, each recent round's last event). Exit 0 when it holds, 1 naming the "
        "first break."
    )

    def handle(self, *args, **options):
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT current_setting('tapis.allow_truncate', true)")
                if cursor.fetchone()[0] == "on":
                    self.stderr.write(
                        "WARNING: tapis.allow_truncate is on for this database: TRUNCATE of the "
                        "append-only tables is not refused (only a test database may have it)."
                    )
        autodiscover_modules("chains")  # each app's own chains register themselves there
        broken = find_break()
        if broken is not None:
            where = f"entry #{broken.id} ({broken.code})" if broken.entry else broken.code
            self.stderr.write(f"Audit chain BROKEN at {where}: {broken.reason}")
            raise SystemExit(1)
        for name, find in CHAINS.items():
            broken = find()
            if broken is not None:
                where = f"#{broken.id} ({broken.code})" if broken.entry else broken.code
                self.stderr.write(f"{name.capitalize()} BROKEN at {where}: {broken.reason}")
                raise SystemExit(1)
        # The money records: each must match the digest its latest entry carries.
        for name, broken in find_record_breaks():
            where = (
                f"entry #{broken.id} ({broken.code})" if broken.entry else f"{name} #{broken.id}"
            )
            self.stderr.write(f"{name.capitalize()} records BROKEN at {where}: {broken.reason}")
            raise SystemExit(1)
        checkpoints = checkpoints_read()[0]
        # What the chains cannot show themselves: their end cut off, with the row that counts
        # their lines rewritten to match. Only a checkpoint outside the database still knows.
        for name, broken in heads_find_breaks(checkpoints):
            where = f"#{broken.id} ({broken.code})" if broken.entry else broken.code
            self.stderr.write(f"{name.capitalize()} BROKEN at {where}: {broken.reason}")
            raise SystemExit(1)
        count = AuditEntry.objects.filter(position__isnull=False).count()
        waiting = AuditEntry.objects.filter(position__isnull=True).count()
        against = (
            f"; agrees with {len(checkpoints)} checkpoints (last: position "
            f"{max(c.position for c in checkpoints)}) in {checkpoint_path()}"
            if checkpoints
            else f"; no checkpoint yet in {checkpoint_path()}"
        )
        self.stdout.write(
            self.style.SUCCESS(f"Audit chain holds: {count} entries verified{against}.")
        )
        if waiting:  # each younger than AUDIT_SEAL_MAX_LAG_SECONDS, its own MAC checked
            self.stdout.write(f"{waiting} entries written lately wait for the sealer.")
        for name in CHAINS:
            self.stdout.write(self.style.SUCCESS(f"{name.capitalize()} verified: no break."))
        for record in RECORDS.values():
            self.stdout.write(
                self.style.SUCCESS(
                    f"{record.name.capitalize()} records: each matches its latest audit entry."
                )
            )
        for name in HEADS:
            recording = [c for c in checkpoints if name in c.heads]
            heads = sum(len(c.heads[name]) for c in recording)
            self.stdout.write(
                self.style.SUCCESS(
                    f"{name.capitalize()} heads: all {heads} recorded by {len(recording)} "
                    "checkpoints are still in place."
                    if recording
                    else f"{name.capitalize()} heads: no checkpoint records them yet."
                )
            )
