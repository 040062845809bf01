"""`manage.py accounting_summarize`: roll up the settlement lines of every closed gaming day
not rolled up yet (the reports read them from there); --day rebuilds one, --rebuild all."""

import datetime as dt

from django.core.management.base import BaseCommand

from tables.accounting.models import SummarizedDay
from tables.accounting.summary import summarize_closed_days, summarize_day


class Command(BaseCommand):
    help = "Roll up the settlement lines of closed gaming days for the reports."

    def add_arguments(self, parser):
        parser.add_argument("--day", type=dt.date.fromisoformat, help="rebuild this gaming day")
        parser.add_argument(
            "--rebuild",
            action="store_true",
            help="rebuild every closed gaming day already rolled up",
        )

    def handle(self, *args, **options):
        if options["day"]:
            lines = summarize_day(options["day"])
            self.stdout.write(f"{options['day']}: {lines:,} lines rolled up")
            return
        if options["rebuild"]:
            for day in SummarizedDay.objects.order_by("gaming_date").values_list(
                "gaming_date", flat=True
            ):
                summarize_day(day)
        days = summarize_closed_days()
        self.stdout.write(f"{len(days)} gaming days rolled up")
