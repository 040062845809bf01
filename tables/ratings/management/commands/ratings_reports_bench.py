"""`manage.py ratings_reports_bench`: a player's page over a year of ratings and the top
players for a year, each beside its 300 ms target (issue 28, "Performance").

On the demo floor (`load_demo`), it seeds --days gaming days of --rounds rounds a day at one
table (the accounting's seeder, each round given its `bets_locked` event), rates each seat
every day as a visit of two ratings linked by `previous` (seat N: player N), keeps every
closed rating's summary as the after-commit receivers would (timed), then requests each page
--runs times as a manager. Everything it wrote is rolled back.
"""

import datetime as dt
import statistics
import time

from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction
from django.db.models import Max, Min
from django.test import Client
from django.test.utils import CaptureQueriesContext

from casino.clock import current_property
from casino.models import Staff
from casino.roles import Role
from tables.accounting.seed import seed_days
from tables.models import Round, RoundEvent, Table
from tables.ratings import summaries
from tables.ratings.models import Player, Rating

TARGET_MS = 300


class _RolledBack(Exception):
    pass


class Command(BaseCommand):
    help = "Time a player's page over a year of ratings and the top players for a year."

    def add_arguments(self, parser):
        parser.add_argument("--days", type=int, default=365)
        parser.add_argument("--rounds", type=int, default=20, help="rounds a day")
        parser.add_argument("--runs", type=int, default=10)

    def handle(self, *args, **options):
        prop = current_property()
        table = Table.objects.order_by("name").first()
        role = {r: Staff.objects.filter(groups__name=r, is_active=True).first() for r in Role}
        needed = (Role.DEALER, Role.SUPERVISOR, Role.MANAGER)
        if prop is None or table is None or not all(role[r] for r in needed):
            raise CommandError("no demo floor: run load_demo first")
        try:
            with transaction.atomic():
                self._bench(prop, table, role, options)
                raise _RolledBack
        except _RolledBack:
            pass

    def _seed(self, prop, table, role, options):
        first = prop.gaming_date() - dt.timedelta(days=options["days"] + 1)
        t0 = time.perf_counter()
        seed_days(
            first=first,
            days=options["days"],
            tables=[table],
            dealers={table.pk: role[Role.DEALER]},
            supervisor=role[Role.SUPERVISOR],
            manager=role[Role.MANAGER],
            rounds_per_day=options["rounds"],
        )
        seeded = Round.objects.filter(table=table, gaming_date__gte=first)
        taken = dict(
            RoundEvent.objects.filter(round__in=seeded)
            .values("round_id")
            .annotate(seq=Max("seq"))
            .values_list("round_id", "seq")
        )
        RoundEvent.objects.bulk_create(
            [
                RoundEvent(
                    round=r,
                    seq=taken.get(r.pk, 0) + 1,
                    kind="bets_locked",
                    data={"kind": "bets_locked"},
                    key=f"bench-{r.pk}",
                    actor=role[Role.DEALER],
                    at=r.opened_at + dt.timedelta(seconds=20),
                )
                for r in seeded.only("pk", "opened_at")
            ],
            batch_size=2000,
        )
        self.stdout.write(
            f"seeded {seeded.count():,} rounds over {options['days']} days "
            f"in {time.perf_counter() - t0:.0f} s"
        )
        return first, seeded

    def _rate(self, prop, table, role, seeded):
        """Each seat, each day: a visit of two ratings, the second `previous` to the first."""
        days = seeded.values("gaming_date").annotate(start=Min("opened_at"), end=Max("settled_at"))
        players = [
            Player.objects.create(property=prop, card=f"bench-{seat}", alias=f"bench {seat}")
            for seat in range(1, table.seats + 1)
        ]
        sup = role[Role.SUPERVISOR]
        halves = []
        for d in days.order_by("gaming_date"):
            start, end = d["start"] - dt.timedelta(minutes=1), d["end"] + dt.timedelta(minutes=1)
            middle = start + (end - start) / 2
            halves.append((start, middle, end))
        firsts = Rating.objects.bulk_create(
            [
                Rating(
                    player=p,
                    table=table,
                    seat=seat,
                    opened_at=start,
                    opened_by=sup,
                    closed_at=middle,
                    closed_by=sup,
                    closed_reason=Rating.MOVED,
                )
                for start, middle, _end in halves
                for seat, p in enumerate(players, start=1)
            ],
            batch_size=2000,
        )
        Rating.objects.bulk_create(
            [
                Rating(
                    player=r.player,
                    table=table,
                    seat=r.seat,
                    opened_at=r.closed_at,
                    opened_by=sup,
                    closed_at=end,
                    closed_by=sup,
                    closed_reason=Rating.CLOSED,
                    previous=r,
                )
                for r, end in zip(firsts, [h[2] for h in halves for _p in players], strict=True)
            ],
            batch_size=2000,
        )
        return players

    def _bench(self, prop, table, role, options):
        first, seeded = self._seed(prop, table, role, options)
        players = self._rate(prop, table, role, seeded)
        ratings = Rating.objects.filter(player__in=players)
        count = ratings.count()
        t0 = time.perf_counter()
        for start in range(0, count, 500):
            summaries.refresh(ratings.select_related("table").order_by("pk")[start : start + 500])
        kept = time.perf_counter() - t0
        self.stdout.write(
            f"{connection.vendor}: {count:,} ratings of {len(players)} players at {table}; "
            f"summaries kept in {kept:.1f} s ({kept / count * 1000:.1f} ms a rating, after commit)"
        )
        client = Client()
        client.force_login(role[Role.MANAGER])  # a theo reader, as a host is
        last = prop.gaming_date()
        pages = (
            (
                f"player's page ({ratings.filter(player=players[0]).count()} ratings)",
                f"/players/{players[0].pk}/ratings/",
                {},
            ),
            (
                f"top players ({options['days']} days)",
                "/players/top/",
                {"from": first.isoformat(), "to": last.isoformat()},
            ),
        )
        self.stdout.write(f"{'page':<34}{'median ms':>10}{'max ms':>9}{'queries':>9}  target")
        for label, url, query in pages:
            answer = client.get(url, query, HTTP_HOST="127.0.0.1")  # warm
            if answer.status_code != 200:
                raise CommandError(f"{url} answered {answer.status_code}")
            times = []
            for _run in range(options["runs"]):
                with CaptureQueriesContext(connection) as queries:
                    t0 = time.perf_counter()
                    client.get(url, query, HTTP_HOST="127.0.0.1")
                    times.append((time.perf_counter() - t0) * 1000)
            self.stdout.write(
                f"{label:<34}{statistics.median(times):>10.1f}{max(times):>9.1f}"
                f"{len(queries):>9}  < {TARGET_MS} ms"
            )
