from django.core.management.base import BaseCommand

from casino.audit import find_break
from casino.models import AuditEntry


class Command(BaseCommand):
    help = "Recompute the audit log's hash chain: exit 0 when it holds, 1 naming the first break."

    def handle(self, *args, **options):
        broken = find_break()
        if broken is not None:
            self.stderr.write(
                f"Audit chain BROKEN at entry #{broken.id} ({broken.code}): {broken.reason}"
            )
            raise SystemExit(1)
        count = AuditEntry.objects.count()
        self.stdout.write(self.style.SUCCESS(f"Audit chain holds: {count} entries verified."))
