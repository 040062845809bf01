import datetime as dt
import time

from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tables.pit import alerts


class Command(BaseCommand):
    help = (
        "Run the pit's periodic alert checks once (open tables idle too long, dealers past "
        "their rotation time), as the Celery beat does every 30 seconds."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--at",
            default="",
            help="check as of this instant (ISO 8601, e.g. 2026-12-01T14:30:00+01:00); "
            "default: now",
        )

    def handle(self, *args, at, **options):
        when = timezone.now()
        if at:
            try:
                when = dt.datetime.fromisoformat(at)
            except ValueError:
                raise CommandError(f"--at {at!r} is not an ISO 8601 instant") from None
            if timezone.is_naive(when):
                raise CommandError(f"--at {at!r} needs its UTC offset, e.g. +01:00")
        started = time.perf_counter()
        with CaptureQueriesContext(connection) as queries:
            found = alerts.alerts_check(at=when)
        elapsed_ms = (time.perf_counter() - started) * 1000
        new = [alert for alert in found if alert.is_new]
        for alert in new:
            self.stdout.write(f"raised #{alert.pk} {alert.kind} {alert.key}")
        self.stdout.write(f"{len(new)} alert(s) raised, {len(found) - len(new)} already raised")
        # The beat runs this every 30 s: it must stay far below that, whatever the floor.
        self.stdout.write(
            f"{elapsed_ms:.1f} ms, {len(queries)} queries (target: well under the 30 s period)"
        )
