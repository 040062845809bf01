"""`manage.py accounting_price_decisions`: price the decisions of the settled rounds that have
none yet (settled before their par sheet was computed, or before decision costs existed);
--since limits it to gaming dates from then on. Rounds whose par sheet is still not computed
are left, and counted."""

import datetime as dt
import time

from django.core.management.base import BaseCommand

from tables.accounting.decisions import decisions_price
from tables.accounting.models import SeatDecisionCost
from tables.models import Round


class Command(BaseCommand):
    help = "Price the decisions of settled rounds that have no decision cost yet."

    def add_arguments(self, parser):
        parser.add_argument("--since", type=dt.date.fromisoformat, help="first gaming date")

    def handle(self, *args, **options):
        rounds = Round.objects.filter(stage=Round.Stage.SETTLED).exclude(
            pk__in=SeatDecisionCost.objects.values("round_id")
        )
        if options["since"]:
            rounds = rounds.filter(gaming_date__gte=options["since"])
        priced = left = 0
        started = time.perf_counter()
        for round_id in rounds.order_by("pk").values_list("pk", flat=True).iterator():
            if decisions_price(round_id) is None:
                left += 1
            else:
                priced += 1
        self.stdout.write(
            f"{priced:,} rounds priced, {left:,} left (no par sheet computed)"
            f" in {time.perf_counter() - started:.1f} s"
        )
