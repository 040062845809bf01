"""Gaming date and shift stamps, Europe/Paris, day starting 06:00, shifts 06/14/22.

Expected values worked out by hand from the 2026 changes: spring forward on 29 March at
01:00 UTC (02:00 CET -> 03:00 CEST), fall back on 25 October at 01:00 UTC (03:00 CEST ->
02:00 CET).
"""

import datetime as dt

import pytest
from django.utils import timezone

from casino.audit import atomic_audit
from casino.clock import shift_at, stamp
from tests.factories import PropertyFactory

UTC = dt.UTC


def utc(*args) -> dt.datetime:
    return dt.datetime(*args, tzinfo=UTC)


@pytest.mark.parametrize(
    "at, gaming_date, shift",
    [
        # an ordinary summer night: midnight does not change the gaming date
        (utc(2026, 6, 15, 21, 59), dt.date(2026, 6, 15), "grave"),  # 23:59 CEST
        (utc(2026, 6, 15, 22, 0), dt.date(2026, 6, 15), "grave"),  # 00:00 CEST on the 16th
        (utc(2026, 6, 16, 3, 59), dt.date(2026, 6, 15), "grave"),  # 05:59 CEST
        (utc(2026, 6, 16, 4, 0), dt.date(2026, 6, 16), "day"),  # 06:00 CEST
        (utc(2026, 6, 16, 11, 59), dt.date(2026, 6, 16), "day"),  # 13:59
        (utc(2026, 6, 16, 12, 0), dt.date(2026, 6, 16), "swing"),  # 14:00
        (utc(2026, 6, 16, 20, 0), dt.date(2026, 6, 16), "grave"),  # 22:00
        # winter: the same wall-clock boundaries are an hour later in UTC
        (utc(2026, 1, 10, 4, 59), dt.date(2026, 1, 9), "grave"),  # 05:59 CET
        (utc(2026, 1, 10, 5, 0), dt.date(2026, 1, 10), "day"),  # 06:00 CET
        # spring forward, 29 March: 02:00-02:59 local never happens
        (utc(2026, 3, 29, 0, 59), dt.date(2026, 3, 28), "grave"),  # 01:59 CET
        (utc(2026, 3, 29, 1, 0), dt.date(2026, 3, 28), "grave"),  # 03:00 CEST, right after
        (utc(2026, 3, 29, 3, 59), dt.date(2026, 3, 28), "grave"),  # 05:59 CEST
        (utc(2026, 3, 29, 4, 0), dt.date(2026, 3, 29), "day"),  # 06:00 CEST
        (utc(2026, 3, 29, 12, 0), dt.date(2026, 3, 29), "swing"),  # 14:00 CEST
        # fall back, 25 October: 02:00-02:59 local happens twice
        (utc(2026, 10, 25, 0, 30), dt.date(2026, 10, 24), "grave"),  # 02:30 CEST (first)
        (utc(2026, 10, 25, 1, 30), dt.date(2026, 10, 24), "grave"),  # 02:30 CET (second)
        (utc(2026, 10, 25, 4, 59), dt.date(2026, 10, 24), "grave"),  # 05:59 CET
        (utc(2026, 10, 25, 5, 0), dt.date(2026, 10, 25), "day"),  # 06:00 CET
        (utc(2026, 10, 25, 12, 59), dt.date(2026, 10, 25), "day"),  # 13:59 CET
        (utc(2026, 10, 25, 13, 0), dt.date(2026, 10, 25), "swing"),  # 14:00 CET
    ],
)
def test_records_are_stamped_with_the_local_gaming_date_and_shift(db, at, gaming_date, shift):
    PropertyFactory()
    assert stamp(at) == (gaming_date, shift)


def test_a_stamp_reads_the_property_and_its_shifts_in_one_query(db, django_assert_num_queries):
    prop = PropertyFactory()
    with django_assert_num_queries(1):
        assert stamp(utc(2026, 6, 16, 12, 0)) == (dt.date(2026, 6, 16), "swing")
    prop.shifts.all().delete()  # a property without shifts stamps the gaming date alone
    assert stamp(utc(2026, 6, 16, 12, 0)) == (dt.date(2026, 6, 16), "")


def test_no_property_no_stamp(db):
    assert stamp(utc(2026, 6, 16, 12, 0)) == (None, "")


def test_the_gaming_day_before_spring_forward_lasts_23_hours(casino_property):
    start, end = casino_property.gaming_day_bounds(dt.date(2026, 3, 28))
    assert start == utc(2026, 3, 28, 5, 0)  # 06:00 CET
    assert end == utc(2026, 3, 29, 4, 0)  # 06:00 CEST
    assert end - start == dt.timedelta(hours=23)


def test_the_gaming_day_before_fall_back_lasts_25_hours(casino_property):
    start, end = casino_property.gaming_day_bounds(dt.date(2026, 10, 24))
    assert start == utc(2026, 10, 24, 4, 0)  # 06:00 CEST
    assert end == utc(2026, 10, 25, 5, 0)  # 06:00 CET
    assert end - start == dt.timedelta(hours=25)


def test_a_day_starting_in_the_hour_that_does_not_exist_starts_at_the_jump(db):
    prop = PropertyFactory(gaming_day_start_hour=2)
    # 02:00 local never happens on 29 March; the first instant at or after it is 03:00 CEST.
    assert prop.gaming_day_start(dt.date(2026, 3, 29)) == utc(2026, 3, 29, 1, 0)
    assert prop.gaming_date(utc(2026, 3, 29, 0, 59, 59)) == dt.date(2026, 3, 28)


def test_a_day_starting_in_the_hour_that_happens_twice_starts_the_first_time(db):
    prop = PropertyFactory(gaming_day_start_hour=2)
    assert prop.gaming_day_start(dt.date(2026, 10, 25)) == utc(2026, 10, 25, 0, 0)  # 02:00 CEST
    # the repeated 02:00-02:59 (CET) stays in the same gaming day
    assert prop.gaming_date(utc(2026, 10, 25, 1, 30)) == dt.date(2026, 10, 25)
    assert prop.gaming_day_start(dt.date(2026, 10, 26)) == utc(2026, 10, 26, 1, 0)  # 02:00 CET


def test_every_instant_of_a_dst_day_belongs_to_exactly_one_gaming_day(casino_property):
    # Walk both change weekends minute by minute: the date moves forward once per day, at
    # the bounds, and never goes back.
    for first in (dt.date(2026, 3, 27), dt.date(2026, 10, 23)):
        at = casino_property.gaming_day_start(first)
        end = casino_property.gaming_day_start(first + dt.timedelta(days=3))
        seen = []
        while at < end:
            date = casino_property.gaming_date(at)
            if not seen or seen[-1] != date:
                seen.append(date)
                assert casino_property.gaming_day_start(date) == at
            at += dt.timedelta(minutes=1)
        assert seen == [first + dt.timedelta(days=n) for n in range(3)]


def test_a_shift_that_starts_before_midnight_runs_past_it(casino_property):
    assert shift_at(casino_property, utc(2026, 1, 10, 22, 59)) == "grave"  # 23:59 CET
    assert shift_at(casino_property, utc(2026, 1, 10, 23, 0)) == "grave"  # 00:00 CET


def test_an_audit_entry_is_stamped_by_the_server_at_commit(casino_property, monkeypatch):
    monkeypatch.setattr(timezone, "now", lambda: utc(2026, 10, 25, 1, 30))
    entry = atomic_audit(actor=None, code="test.stamp", data={})
    assert (entry.gaming_date, entry.shift) == (dt.date(2026, 10, 24), "grave")


def test_without_a_property_records_are_not_stamped(db):
    assert stamp(utc(2026, 6, 16, 4, 0)) == (None, "")
