"""The anti-money-laundering thresholds as a pure function of plain values: cash in and
winnings per gaming day, on days of 24, 23 and 25 hours (the clocks change)."""

import datetime as dt
from zoneinfo import ZoneInfo

from casino.models import Property
from tables.ratings.aml import (
    IDENTITY,
    TRANSACTION_LOG,
    TRANSACTION_REPORT,
    Thresholds,
    thresholds_crossed,
)
from tables.ratings.compliance import COUNTRY_DEFAULTS, country_of

PARIS = Property(name="Paris", time_zone="Europe/Paris", gaming_day_start_hour=6, currency="EUR")
VEGAS = Property(
    name="Vegas", time_zone="America/New_York", gaming_day_start_hour=6, currency="USD"
)
FRANCE = Thresholds(identity_cents=200_000)
US = Thresholds(transaction_log_cents=300_000, transaction_report_cents=1_000_000)


def local(prop, *args, fold=0) -> dt.datetime:
    return dt.datetime(*args, tzinfo=ZoneInfo(prop.time_zone), fold=fold)


def test_the_countries_defaults_are_the_laws_figures():
    assert country_of(PARIS) == "FR" and country_of(VEGAS) == "US"
    assert COUNTRY_DEFAULTS["FR"]["identity_threshold_cents"] == 200_000
    assert COUNTRY_DEFAULTS["US"]["transaction_log_threshold_cents"] == 300_000
    assert COUNTRY_DEFAULTS["US"]["transaction_report_threshold_cents"] == 1_000_000


def test_at_the_threshold_nothing_is_crossed_one_cent_above_it_is():
    at = local(PARIS, 2026, 12, 1, 22)
    (at_it,) = thresholds_crossed(
        [(200_000, at)], prop=PARIS, thresholds=FRANCE, identity_on_file=False
    )
    assert at_it.crossed == () and not at_it.identity_missing
    (above,) = thresholds_crossed(
        [(150_000, at), (50_001, at + dt.timedelta(hours=1))],
        prop=PARIS,
        thresholds=FRANCE,
        identity_on_file=False,
    )
    assert above.cash_in_cents == 200_001
    assert above.crossed == (IDENTITY,) and above.identity_required and above.identity_missing


def test_identity_on_file_satisfies_the_requirement():
    (day,) = thresholds_crossed(
        [(500_000, local(PARIS, 2026, 12, 1, 22))],
        prop=PARIS,
        thresholds=FRANCE,
        identity_on_file=True,
    )
    assert day.identity_required and not day.identity_missing


def test_french_winnings_above_the_threshold_need_identity_apart_from_the_cash_in():
    (day,) = thresholds_crossed(
        [(10_000, local(PARIS, 2026, 12, 1, 22))],
        winnings=[(250_000, local(PARIS, 2026, 12, 2, 1))],
        prop=PARIS,
        thresholds=FRANCE,
        identity_on_file=False,
    )
    assert day.gaming_date == dt.date(2026, 12, 1)
    assert day.crossed == (IDENTITY,) and day.identity_missing


def test_the_gaming_day_boundary_splits_the_cash_in():
    before = local(PARIS, 2026, 12, 2, 5, 59)
    after = local(PARIS, 2026, 12, 2, 6, 0)
    checks = thresholds_crossed(
        [(150_000, before), (150_000, after)], prop=PARIS, thresholds=FRANCE, identity_on_file=False
    )
    assert [(c.gaming_date, c.crossed) for c in checks] == [
        (dt.date(2026, 12, 1), ()),
        (dt.date(2026, 12, 2), ()),
    ]


def test_a_23_hour_gaming_day_in_paris_aggregates_all_of_its_hours():
    # The clocks go forward on 28 March 2027 at 02:00: that gaming day (27 March 06:00 to
    # 28 March 06:00) is 23 hours long.
    start = PARIS.gaming_day_start(dt.date(2027, 3, 27))
    end = PARIS.gaming_day_start(dt.date(2027, 3, 28))
    assert end - start == dt.timedelta(hours=23)
    last_second = end - dt.timedelta(seconds=1)
    cash_ins = [(100_000, start), (100_001, last_second), (300_000, end)]
    checks = thresholds_crossed(cash_ins, prop=PARIS, thresholds=FRANCE, identity_on_file=False)
    assert [(c.gaming_date, c.cash_in_cents, c.crossed) for c in checks] == [
        (dt.date(2027, 3, 27), 200_001, (IDENTITY,)),
        (dt.date(2027, 3, 28), 300_000, (IDENTITY,)),
    ]
    # Counted with a fixed 24 hours, the next day's first cash-in would have joined this one.
    assert start + dt.timedelta(hours=24) > end


def test_a_25_hour_gaming_day_in_paris_keeps_its_extra_hour():
    # The clocks go back on 31 October 2027 at 03:00: that gaming day (30 October 06:00 to
    # 31 October 06:00) is 25 hours long; 05:30 on the 31st is its 24th hour and a half.
    start = PARIS.gaming_day_start(dt.date(2027, 10, 30))
    end = PARIS.gaming_day_start(dt.date(2027, 10, 31))
    assert end - start == dt.timedelta(hours=25)
    late = local(PARIS, 2027, 10, 31, 5, 30)
    assert late - start > dt.timedelta(hours=24)
    # Both 02:30s (before and after the change) belong to the same day.
    twice = [local(PARIS, 2027, 10, 31, 2, 30, fold=0), local(PARIS, 2027, 10, 31, 2, 30, fold=1)]
    cash_ins = [(50_000, start), (50_000, twice[0]), (50_000, twice[1]), (50_001, late)]
    (day,) = thresholds_crossed(cash_ins, prop=PARIS, thresholds=FRANCE, identity_on_file=False)
    assert (day.gaming_date, day.cash_in_cents, day.crossed) == (
        dt.date(2027, 10, 30),
        200_001,
        (IDENTITY,),
    )
    assert day.identity_missing


def test_a_23_hour_gaming_day_in_the_us_reaches_the_transaction_report():
    # New York springs forward on 14 March 2027 at 02:00.
    start = VEGAS.gaming_day_start(dt.date(2027, 3, 13))
    end = VEGAS.gaming_day_start(dt.date(2027, 3, 14))
    assert end - start == dt.timedelta(hours=23)
    cash_ins = [
        (400_000, start),
        (400_000, start + dt.timedelta(hours=12)),
        (200_001, end - dt.timedelta(minutes=1)),
    ]
    (day,) = thresholds_crossed(cash_ins, prop=VEGAS, thresholds=US, identity_on_file=False)
    assert day.cash_in_cents == 1_000_001
    assert day.crossed == (TRANSACTION_LOG, TRANSACTION_REPORT)
    assert day.identity_required and day.identity_missing


def test_a_25_hour_gaming_day_in_the_us_logs_without_needing_identity():
    # New York falls back on 7 November 2027 at 02:00.
    start = VEGAS.gaming_day_start(dt.date(2027, 11, 6))
    end = VEGAS.gaming_day_start(dt.date(2027, 11, 7))
    assert end - start == dt.timedelta(hours=25)
    cash_ins = [(200_000, start), (100_001, end - dt.timedelta(minutes=30))]
    (day,) = thresholds_crossed(cash_ins, prop=VEGAS, thresholds=US, identity_on_file=False)
    assert day.gaming_date == dt.date(2027, 11, 6)
    assert day.crossed == (TRANSACTION_LOG,)
    assert not day.identity_required and not day.identity_missing


def test_us_thresholds_ignore_winnings_and_days_come_oldest_first():
    checks = thresholds_crossed(
        [(10_000, local(VEGAS, 2027, 1, 3, 12)), (10_000, local(VEGAS, 2027, 1, 2, 12))],
        winnings=[(5_000_000, local(VEGAS, 2027, 1, 2, 13))],
        prop=VEGAS,
        thresholds=US,
        identity_on_file=False,
    )
    assert [c.gaming_date for c in checks] == [dt.date(2027, 1, 2), dt.date(2027, 1, 3)]
    assert all(c.crossed == () for c in checks)


def test_thresholds_read_from_the_settings():
    class Settings:
        identity_threshold_cents = 1
        transaction_log_threshold_cents = None
        transaction_report_threshold_cents = 7

    assert Thresholds.of(Settings()) == Thresholds(identity_cents=1, transaction_report_cents=7)
