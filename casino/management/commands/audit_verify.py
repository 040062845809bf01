from django.core.management.base import BaseCommand
from django.db import connection
from django.utils.module_loading import autodiscover_modules

from casino.audit import CHAINS, find_break
from casino.checkpoints import checkpoint_path, checkpoints_read
from casino.models import AuditEntry


class Command(BaseCommand):
    help = (
        "Verify the audit log: every entry's MAC and link, no missing position, and agreement "
        "with the checkpoints kept outside the database (casino.checkpoints). Exit 0 when it "
        "holds, 1 naming the first break."
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
        count = AuditEntry.objects.count()
        checkpoints = checkpoints_read()[0]
        against = (
            f"; agrees with {len(checkpoints)} checkpoints (last: position "
            f"{max(c.position for c in checkpoints)}) in {checkpoint_path()}"
            if checkpoints
            else f"; no checkpoint yet in {checkpoint_path()}"
        )
        self.stdout.write(
            self.style.SUCCESS(f"Audit chain holds: {count} entries verified{against}.")
        )
        for name in CHAINS:
            self.stdout.write(self.style.SUCCESS(f"{name.capitalize()} verified: no break."))
