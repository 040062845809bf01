"""Whatever is played, a report adds up to its settlement lines, bet by bet: random days of
play (seeded through the engine), read from the lines and again from the roll-up."""

import datetime as dt
from collections import defaultdict

from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tables.accounting.reports import BETS, Period, report
from tables.accounting.seed import seed_days
from tables.accounting.summary import summarize_day
from tables.models import Round, SettlementLine

FIRST = dt.date(2026, 10, 20)


def _by_bet_from_lines(first, last):
    """Handle (original stakes) and house win per bet, summed in Python from every line."""
    sums = defaultdict(lambda: [0, 0])
    for line in SettlementLine.objects.filter(gaming_date__range=(first, last)):
        if line.correction_id is None:
            sums[line.bet][0] += line.stake_cents
        if line.paid_from == "house":
            sums[line.bet][1] -= line.net_cents
    return {bet: tuple(v) for bet, v in sums.items()}


def _by_bet_from_report(data):
    return {bet: (f.handle, f.win) for bet, f in data.total.bets.items() if f.lines or f.handle}


@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(seed=st.integers(0, 10_000), days=st.integers(1, 3), rounds=st.integers(1, 25))
def test_report_totals_are_the_sum_of_the_lines_for_every_bet(
    table, dealer, supervisor, manager, seed, days, rounds
):
    with transaction.atomic():
        seed_days(
            first=FIRST,
            days=days,
            tables=[table],
            dealers={table.pk: dealer},
            supervisor=supervisor,
            manager=manager,
            rounds_per_day=rounds,
            seed=seed,
        )
        last = FIRST + dt.timedelta(days=days - 1)
        expected = _by_bet_from_lines(FIRST, last)
        period = Period("month", FIRST, last)
        live = report(period)
        assert _by_bet_from_report(live) == expected
        settled = Round.objects.filter(stage="settled", gaming_date__range=(FIRST, last))
        assert live.total.rounds == settled.count()
        assert live.total.computed_win == sum(win for _h, win in expected.values())
        for offset in range(days):
            summarize_day(FIRST + dt.timedelta(days=offset))
        rolled = report(period)
        assert rolled.summarized_days == days
        assert _by_bet_from_report(rolled) == expected
        assert (rolled.total.rounds, rolled.total.seats) == (live.total.rounds, live.total.seats)
        voids = Round.objects.filter(stage="void", gaming_date__range=(FIRST, last)).count()
        assert rolled.total.voids == live.total.voids == voids
        # the seed's chips agree with its lines, but for the chips that walked away
        assert set(BETS) >= set(expected)
        transaction.set_rollback(True)
