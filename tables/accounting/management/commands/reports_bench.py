"""`manage.py reports_bench`: the server time and query count of the gaming-day, month and year
reports (the page, HTML and CSV, as a manager requests it), beside the 300 ms target.

Run it on the benchmark's year (`manage.py demo_month --year`) on PostgreSQL. Each report is
requested once to warm up, then --runs times; the median and the slowest are printed.
"""

import datetime as dt
import statistics
import time

from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from casino.clock import current_property
from casino.models import Staff
from casino.roles import Role
from tables.accounting.models import LineSummary, SummarizedDay
from tables.models import Round, SettlementLine

TARGET_MS = 300


class Command(BaseCommand):
    help = "Time the gaming-day, month and year reports against the 300 ms target."

    def add_arguments(self, parser):
        parser.add_argument("--runs", type=int, default=5)
        parser.add_argument("--date", type=dt.date.fromisoformat, help="default: yesterday")

    def handle(self, *args, **options):
        prop = current_property()
        manager = Staff.objects.filter(groups__name=Role.MANAGER, is_active=True).first()
        if prop is None or manager is None:
            raise CommandError("no property or no manager: run load_demo and demo_month first")
        day = options["date"] or prop.gaming_date() - dt.timedelta(days=1)
        client = Client()
        client.force_login(manager)
        self.stdout.write(
            f"{connection.vendor}: {Round.objects.count():,} rounds, "
            f"{SettlementLine.objects.count():,} settlement lines, "
            f"{SummarizedDay.objects.count()} gaming days rolled up; report day {day}"
        )
        cases = [
            ("gaming day", f"period=day&date={day}"),
            ("gaming day, CSV", f"period=day&date={day}&format=csv"),
            ("gaming day by dealer", f"period=day&date={day}&by=dealer"),
            ("month to date", f"period=month&date={day}"),
            ("month to date by dealer", f"period=month&date={day}&by=dealer"),
            ("year to date", f"period=year&date={day}"),
            ("year to date, CSV", f"period=year&date={day}&format=csv"),
            ("year to date by game", f"period=year&date={day}&by=game"),
        ]
        self.stdout.write(f"{'report':<26}{'median ms':>10}{'max ms':>9}{'queries':>9}  target")
        for label, query in cases:
            url = f"/reports/?{query}"
            client.get(url, HTTP_HOST="127.0.0.1")
            times, queries = [], 0
            for _run in range(options["runs"]):
                with CaptureQueriesContext(connection) as captured:
                    started = time.perf_counter()
                    response = client.get(url, HTTP_HOST="127.0.0.1")
                    times.append((time.perf_counter() - started) * 1000)
                if response.status_code != 200:
                    raise CommandError(f"{url}: HTTP {response.status_code}")
                queries = len(captured.captured_queries)
            median, worst = statistics.median(times), max(times)
            verdict = "ok" if worst < TARGET_MS else "OVER"
            self.stdout.write(
                f"{label:<26}{median:>10.1f}{worst:>9.1f}{queries:>9}  < {TARGET_MS} ms {verdict}"
            )
        ytd = SettlementLine.objects.filter(gaming_date__range=(day.replace(month=1, day=1), day))
        self.stdout.write(
            f"(year to date: {day.replace(month=1, day=1)} to {day}, {ytd.count():,} lines, read "
            f"from {LineSummary.objects.filter(gaming_date__lte=day).count():,} roll-up rows)"
        )
