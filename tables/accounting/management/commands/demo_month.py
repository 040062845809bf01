"""`manage.py demo_month`: a month (or, with --year, a year) of past play at the simulator's
tables, written fast through the engine (tables.accounting.seed), then rolled up. Players sit
at the seats for stretches of rounds, and the apps above (the ratings) hear of each day's
sittings: the demo's carded players are rated over the month, their figures measured from
these rounds' lines. --no-ratings plays the seats at random, with no round events, as before."""

import datetime as dt
import time

from django.core.management.base import BaseCommand, CommandError

from casino.clock import current_property
from casino.models import Staff
from tables.accounting.seed import seed_days
from tables.accounting.summary import summarize_closed_days
from tables.models import Round, Table
from tables.simulator import DEMO_MANAGER, DEMO_SUPERVISOR, SIM_DEALER, floor_prepare


class Command(BaseCommand):
    help = (
        "Fill the reports: past gaming days of play at tables SIM 1..N (created as "
        "simulate_floor does), each round settled by the engine, with each table-day's "
        "opener, fills, closer and drop. Needs the demo floor (manage.py load_demo)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--days", type=int, default=30, help="gaming days, ending yesterday")
        parser.add_argument("--tables", type=int, default=4)
        parser.add_argument("--rounds", type=int, default=60, help="rounds per table per day")
        parser.add_argument(
            "--year",
            action="store_true",
            help="the benchmark's year: 365 days, 10 tables, 83 rounds a day (302,950 rounds)",
        )
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument(
            "--no-ratings",
            action="store_true",
            help="no sittings and no ratings: seats wager at random (the benchmark's data alone)",
        )

    def handle(self, *args, **options):
        if options["year"]:
            options.update(days=365, tables=10, rounds=83)
        days, count, per_day = options["days"], options["tables"], options["rounds"]
        if min(days, count, per_day) < 1:
            raise CommandError("--days, --tables and --rounds are 1 or more")
        prop = current_property()
        if prop is None:
            raise CommandError("no property: run `manage.py load_demo` first")
        prepared = floor_prepare(count)
        tables = list(
            Table.objects.filter(pk__in=[p.table_id for p in prepared]).select_related(
                "bank", "ruleset", "ruleset__blind_paytable", "ruleset__trips_paytable"
            )
        )
        dealers = {
            p.table_id: Staff.objects.get(username=SIM_DEALER.format(p.index)) for p in prepared
        }
        last = prop.gaming_date() - dt.timedelta(days=1)
        first = last - dt.timedelta(days=days - 1)
        if Round.objects.filter(table__in=tables, gaming_date__range=(first, last)).exists():
            raise CommandError(
                f"these tables already have rounds between {first} and {last}: "
                "use another database, or fewer --days"
            )
        started = time.monotonic()

        def progress(day, written):
            if day.day == 1 or day == last:
                self.stdout.write(f"  {day}: {written.get('rounds', 0):,} rounds so far")

        written = seed_days(
            first=first,
            days=days,
            tables=tables,
            dealers=dealers,
            supervisor=Staff.objects.get(username=DEMO_SUPERVISOR),
            manager=Staff.objects.get(username=DEMO_MANAGER),
            rounds_per_day=per_day,
            seed=options["seed"],
            progress=progress,
            sittings=not options["no_ratings"],
        )
        rolled = summarize_closed_days(prop=prop)
        seconds = time.monotonic() - started
        self.stdout.write(
            self.style.SUCCESS(
                f"{written.get('rounds', 0):,} rounds ({written.get('voids', 0):,} void), "
                f"{written.get('lines', 0):,} settlement lines, {written.get('fills', 0):,} fills, "
                f"{written.get('walkaways', 0)} table-days with chips missing, at {count} tables "
                f"from {first} to {last}; {written.get('ratings', 0):,} ratings "
                f"({written.get('moves', 0)} moves, {written.get('pauses', 0)} pauses, "
                f"{written.get('buy_ins', 0)} buy-ins); {len(rolled)} days rolled up; "
                f"{seconds:.0f} s"
            )
        )
