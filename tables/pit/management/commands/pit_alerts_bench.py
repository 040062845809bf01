import statistics
import time

from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from casino.clock import current_property
from tables.models import Round
from tables.pit import alerts
from tables.pit.models import AlertSettings


class _RollBack(Exception):
    pass


def _ms(samples: list[float]) -> str:
    p95 = statistics.quantiles(samples, n=20)[-1] if len(samples) > 1 else samples[0]
    return f"p50 {statistics.median(samples):.1f} ms, p95 {p95:.1f} ms"


class Command(BaseCommand):
    help = (
        "Time what the alerts cost on the floor's own data, inside one transaction rolled back "
        "at the end (nothing is kept, nothing is announced): the receivers' work after each "
        "settlement (no big win, then a big win on every seat), the pit's open-alert list, "
        "the periodic check. It holds the rows it locks while it runs: use a copy or the "
        "demo floor, not a live one."
    )

    def add_arguments(self, parser):
        parser.add_argument("--rounds", type=int, default=100, help="settled rounds to time")

    def handle(self, *args, rounds, **options):
        ids = list(
            Round.objects.filter(stage=Round.Stage.SETTLED)
            .order_by("-pk")
            .values_list("pk", flat=True)[:rounds]
        )
        if len(ids) < 2:
            raise CommandError("needs settled rounds: make demo-month, or play some first")
        prop = current_property()
        try:
            with transaction.atomic():
                self._bench(ids, prop)
                raise _RollBack
        except _RollBack:
            pass

    def _bench(self, ids, prop):
        AlertSettings.objects.update_or_create(property=prop, defaults={"big_win_cents": 10**15})
        quiet, raising = [], []
        for pk in ids:
            started = time.perf_counter()
            alerts.big_wins_raise(round_id=pk)
            quiet.append((time.perf_counter() - started) * 1000)
        AlertSettings.objects.filter(property=prop).update(big_win_cents=1)
        raised = 0
        for pk in ids:
            started = time.perf_counter()
            raised += len(alerts.big_wins_raise(round_id=pk))
            raising.append((time.perf_counter() - started) * 1000)
        self.stdout.write(
            f"after a settlement, no big win: {_ms(quiet)} over {len(ids)} rounds "
            "(target: a few ms; it runs in the dealer's request, after commit)"
        )
        self.stdout.write(
            f"after a settlement, big wins raised: {_ms(raising)} per round, {raised} alerts "
            "(target: well under the 1 s an alert has to reach the pit)"
        )
        listed = alerts.alerts_open()
        started = time.perf_counter()
        with CaptureQueriesContext(connection) as queries:
            alerts.alerts_json(alerts.alerts_open())
        self.stdout.write(
            f"the pit's open alerts ({len(listed)}) worded: "
            f"{(time.perf_counter() - started) * 1000:.1f} ms, {len(queries)} queries "
            "(target: a fixed number of queries)"
        )
        started = time.perf_counter()
        with CaptureQueriesContext(connection) as queries:
            alerts.alerts_check()
        self.stdout.write(
            f"periodic check: {(time.perf_counter() - started) * 1000:.1f} ms, "
            f"{len(queries)} queries (target: well under its 30 s period)"
        )
        self.stdout.write("rolled back: nothing kept, nothing announced")
