"""The gaming day across the changes of clock (Europe/Paris, 06:00 to 06:00): 23 hours on the
last Sunday of March, 25 on the last Sunday of October, each hour of it counted once."""

import datetime as dt

from casino.clock import current_property
from tables.accounting.reports import Period, hourly, report
from tables.accounting.summary import hour_buckets, summarize_day
from tables.models import SettlementLine
from tests.tables.rounds.conftest import deal_to


def test_the_gaming_days_holding_the_night_of_the_change_have_23_and_25_hours(casino_property):
    prop = current_property()
    # The clocks change in the night of the last Sunday, before 06:00: inside the gaming
    # day that started on the Saturday.
    assert len(hour_buckets(prop, dt.date(2026, 3, 28))) == 23
    assert len(hour_buckets(prop, dt.date(2026, 3, 29))) == 24
    assert len(hour_buckets(prop, dt.date(2026, 10, 24))) == 25
    assert len(hour_buckets(prop, dt.date(2026, 10, 25))) == 24


# The rounds below are dealt in the coming year: the felt's dealer is assigned from now on.


def test_the_hour_the_clocks_repeat_is_two_hours_of_the_chart(felt, clock):
    # 02:30 summer time, then 02:40 winter time an hour and ten minutes later, on Sunday
    # 31 October 2027: both before 06:00, so in the gaming day of Saturday the 30th.
    clock.set(dt.datetime(2027, 10, 31, 2, 30), fold=0)
    deal_to(felt, "settled")
    clock.set(dt.datetime(2027, 10, 31, 2, 40), fold=1)
    deal_to(felt, "settled")
    prop = current_property()
    day = dt.date(2027, 10, 30)
    assert set(SettlementLine.objects.values_list("gaming_date", flat=True)) == {day}
    hours = hourly(prop, day)
    assert len(hours) == 25
    busy = [h for h in hours if h.rounds]
    assert [(h.hour, h.label, h.rounds) for h in busy] == [
        (20, "02:00 CEST", 1),
        (21, "02:00 CET", 1),
    ]
    assert report(Period.of("day", day)).total.rounds == 2


def test_a_rolled_up_dst_day_reports_what_its_lines_say(felt, clock):
    clock.set(dt.datetime(2027, 3, 28, 1, 59))  # the gaming day of the 27th, before the jump
    deal_to(felt, "settled")
    clock.set(dt.datetime(2027, 3, 28, 3, 1))  # two minutes later: the clocks jumped
    deal_to(felt, "settled")
    clock.set(dt.datetime(2027, 3, 28, 6, 0))  # the 28th starts
    deal_to(felt, "settled")
    live = report(Period.of("day", dt.date(2027, 3, 27)))
    summarize_day(dt.date(2027, 3, 27))
    rolled = report(Period.of("day", dt.date(2027, 3, 27)))
    assert live.total.rounds == rolled.total.rounds == 2
    assert live.total.computed_win == rolled.total.computed_win == -3_600
    assert rolled.summarized_days == 1
    assert report(Period.of("day", dt.date(2027, 3, 28))).total.rounds == 1
