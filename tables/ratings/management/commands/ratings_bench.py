"""`manage.py ratings_bench`: the time to read a rating (its figures computed from the lines
of the rounds it counts), beside the 20 ms target.

On the demo floor (`load_demo`), it seeds --days gaming days of --rounds rounds a day at one
table (the accounting's seeder, with each round's `bets_locked` event), opens a rating over
them all at seat 1, then reads it --runs times through the selector and through the API as a
supervisor would; the median and the slowest are printed. Everything it wrote is rolled back.
"""

import datetime as dt
import statistics
import time

from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext

from casino.clock import current_property
from casino.models import Staff
from casino.roles import Role
from tables.accounting.seed import seed_days
from tables.models import Round, RoundEvent, SettlementLine, Table
from tables.ratings.models import Player, Rating
from tables.ratings.selectors import rating_detail

TARGET_MS = 20


class _RolledBack(Exception):
    pass


class Command(BaseCommand):
    help = "Time a rating's read (figures from the lines) against the 20 ms target."

    def add_arguments(self, parser):
        parser.add_argument("--days", type=int, default=1)
        parser.add_argument("--rounds", type=int, default=200, help="rounds a day")
        parser.add_argument("--runs", type=int, default=15)

    def handle(self, *args, **options):
        prop = current_property()
        table = Table.objects.order_by("name").first()
        role = {r: Staff.objects.filter(groups__name=r, is_active=True).first() for r in Role}
        if (
            prop is None
            or table is None
            or not all(role[r] for r in (Role.DEALER, Role.SUPERVISOR, Role.MANAGER))
        ):
            raise CommandError("no demo floor: run load_demo first")
        try:
            with transaction.atomic():
                self._bench(prop, table, role, options)
                raise _RolledBack
        except _RolledBack:
            pass

    def _bench(self, prop, table, role, options):
        first = prop.gaming_date() - dt.timedelta(days=options["days"] + 1)
        seed_days(
            first=first,
            days=options["days"],
            tables=[table],
            dealers={table.pk: role[Role.DEALER]},
            supervisor=role[Role.SUPERVISOR],
            manager=role[Role.MANAGER],
            rounds_per_day=options["rounds"],
        )
        seeded = Round.objects.filter(table=table, gaming_date__gte=first).order_by("opened_at")
        taken = set(RoundEvent.objects.filter(round__in=seeded).values_list("round_id", "seq"))
        RoundEvent.objects.bulk_create(
            [
                RoundEvent(
                    round=r,
                    seq=1 + max((s for rid, s in taken if rid == r.pk), default=0),
                    kind="bets_locked",
                    data={"kind": "bets_locked"},
                    key=f"bench-{r.pk}",
                    actor=role[Role.DEALER],
                    at=r.opened_at + dt.timedelta(seconds=20),
                )
                for r in seeded
            ],
            batch_size=1000,
        )
        start, end = seeded.first().opened_at, seeded.last().settled_at
        player = Player.objects.create(property=prop, card=None, alias="bench")
        rating = Rating.objects.create(
            player=player,
            table=table,
            seat=1,
            opened_at=start - dt.timedelta(minutes=1),
            opened_by=role[Role.SUPERVISOR],
            closed_at=end + dt.timedelta(minutes=1),
            closed_by=role[Role.SUPERVISOR],
            closed_reason=Rating.CLOSED,
        )
        lines = SettlementLine.objects.filter(round__in=seeded, seat=1).count()
        client = Client()
        client.force_login(role[Role.SUPERVISOR])
        url = f"/api/ratings/{rating.pk}"
        body = client.get(url, HTTP_HOST="127.0.0.1").json()
        self.stdout.write(
            f"{connection.vendor}: a rating over {seeded.count():,} rounds at {table}, "
            f"{body['hands']} hands counted, {lines:,} lines of seat 1"
        )
        self.stdout.write(f"{'read':<28}{'median ms':>10}{'max ms':>9}{'queries':>9}  target")
        for label, read in (
            ("selector (rating_detail)", lambda: rating_detail(rating.pk)),
            ("GET /api/ratings/<id>", lambda: client.get(url, HTTP_HOST="127.0.0.1")),
        ):
            read()  # warm
            times = []
            for _run in range(options["runs"]):
                with CaptureQueriesContext(connection) as queries:
                    t0 = time.perf_counter()
                    read()
                    times.append((time.perf_counter() - t0) * 1000)
            self.stdout.write(
                f"{label:<28}{statistics.median(times):>10.1f}{max(times):>9.1f}"
                f"{len(queries):>9}  < {TARGET_MS} ms"
            )
