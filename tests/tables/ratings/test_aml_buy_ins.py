"""The anti-money-laundering thresholds fed by the ratings' cash buy-ins: the pit's alert
when a player crosses one without identity on file, its acknowledgement only with a note,
and the compliance log per gaming day, on gaming days of 23 and 25 hours (the clocks change
in Paris on 28 March 2027 and 25 October 2026; the property's gaming day starts at 06:00)."""

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from casino.audit import seal_pending
from casino.errors import CasinoError
from casino.models import AuditEntry
from casino.roles import Role
from tables.pit.alerts import alert_acknowledge
from tables.pit.models import Alert
from tables.ratings.aml_log import aml_log
from tables.ratings.models import PlayerIdentity
from tests.factories import make_staff
from tests.tables.ratings.conftest import do, rate

PARIS = ZoneInfo("Europe/Paris")
SHORT_DAY = dt.date(2027, 3, 27)  # 06:00 CET to 06:00 CEST: 23 hours
LONG_DAY = dt.date(2026, 10, 24)  # 06:00 CEST to 06:00 CET: 25 hours


@pytest.fixture
def clock(monkeypatch):
    """Set the instant the services read."""

    def at(instant):
        monkeypatch.setattr(timezone, "now", lambda: instant)

    return at


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    return lambda: django_capture_on_commit_callbacks(execute=True)


def hours_into(prop, gaming_date, hours):
    return prop.gaming_day_start(gaming_date) + dt.timedelta(hours=hours)


def buy_ins(felt, supervisor, clock, committed, day, amounts_at, *, instrument="cash"):
    """Open a rating for Marie at the day's start, then buy in each (cents, hours into the
    day) through the service, the after-commit checks run."""
    prop = _prop()
    clock(hours_into(prop, day, 0.25))
    rating = rate(supervisor, felt.table, 1, card="400123")
    for cents, hours in amounts_at:
        clock(hours_into(prop, day, hours))
        with committed():
            do("buy_in", supervisor, rating, amount_cents=cents, instrument=instrument)
    return rating


def _prop():
    from casino.clock import current_property

    return current_property()


def test_the_days_are_23_and_25_hours_long(casino_property):
    for day, hours in ((SHORT_DAY, 23), (LONG_DAY, 25)):
        start, end = casino_property.gaming_day_bounds(day)
        assert end - start == dt.timedelta(hours=hours)


def test_on_a_23_hour_day_the_cash_after_its_end_is_the_next_days(
    felt, supervisor, marie, clock, committed, casino_property
):
    # 22.5 hours in: the same day; 23.5 hours in: already the next (a 24-hour day would
    # have put both on the first).
    buy_ins(felt, supervisor, clock, committed, SHORT_DAY, [(150_000, 1), (50_000, 22.5)])
    assert not Alert.objects.filter(kind=Alert.Kind.AML_IDENTITY).exists()  # 2 000.00: at it
    clock(hours_into(casino_property, SHORT_DAY, 23.5))
    rating = {"id": marie.ratings.get().pk}
    with committed():
        do("buy_in", supervisor, rating, amount_cents=1_000, instrument="cash")
    assert not Alert.objects.filter(kind=Alert.Kind.AML_IDENTITY).exists()
    (first,) = aml_log(casino_property, SHORT_DAY)
    (second,) = aml_log(casino_property, SHORT_DAY + dt.timedelta(days=1))
    assert first.day.cash_in_cents == 200_000 and first.day.crossed == ()
    assert second.day.cash_in_cents == 1_000
    # One cent more on the short day, still before its end: crossed, the pit is told.
    clock(hours_into(casino_property, SHORT_DAY, 22.9))
    with committed():
        do("buy_in", supervisor, rating, amount_cents=1, instrument="cash")
    alert = Alert.objects.get(kind=Alert.Kind.AML_IDENTITY)
    assert alert.key == f"aml_identity:{marie.pk}:{SHORT_DAY.isoformat()}"
    assert alert.params["amount_cents"] == 200_001 and alert.table_id == felt.table.pk


def test_on_a_25_hour_day_cash_in_its_25th_hour_adds_to_the_same_day(
    felt, supervisor, marie, clock, committed, casino_property
):
    buy_ins(felt, supervisor, clock, committed, LONG_DAY, [(150_000, 1)])
    assert not Alert.objects.exists()
    buy_ins_at = hours_into(casino_property, LONG_DAY, 24.5)
    assert casino_property.gaming_date(buy_ins_at) == LONG_DAY
    clock(buy_ins_at)
    with committed():
        do("buy_in", supervisor, {"id": marie.ratings.get().pk}, amount_cents=60_000,
           instrument="cash")  # fmt: skip
    alert = Alert.objects.get(kind=Alert.Kind.AML_IDENTITY)
    assert alert.params["gaming_date"] == LONG_DAY.isoformat()
    assert alert.params["amount_cents"] == 210_000
    assert alert.params["threshold_cents"] == 200_000
    (row,) = aml_log(casino_property, LONG_DAY)
    assert row.day.crossed == ("identity",) and not row.identity_on_file
    assert row.day.identity_missing


def test_chips_and_markers_are_not_cash(felt, supervisor, marie, clock, committed):
    buy_ins(felt, supervisor, clock, committed, LONG_DAY, [(500_000, 1)], instrument="chips")
    assert not Alert.objects.exists()
    assert aml_log(_prop(), LONG_DAY) == []


def test_with_identity_on_file_the_pit_is_not_alerted_but_the_log_shows_the_crossing(
    felt, supervisor, marie, clock, committed, casino_property
):
    officer = make_staff(Role.COMPLIANCE)
    PlayerIdentity.objects.create(
        player=marie, family_name="D.", checked_by=officer, checked_at=timezone.now()
    )
    buy_ins(felt, supervisor, clock, committed, LONG_DAY, [(300_000, 1)])
    assert not Alert.objects.exists()
    (row,) = aml_log(casino_property, LONG_DAY)
    assert row.day.crossed == ("identity",) and row.identity_on_file
    assert not row.day.identity_missing


def test_one_alert_per_player_and_gaming_day(felt, supervisor, marie, clock, committed):
    buy_ins(felt, supervisor, clock, committed, LONG_DAY, [(250_000, 1), (10_000, 2)])
    assert Alert.objects.filter(kind=Alert.Kind.AML_IDENTITY).count() == 1


def test_nobody_silences_the_alert_without_a_recorded_reason(
    felt, supervisor, marie, clock, committed
):
    buy_ins(felt, supervisor, clock, committed, LONG_DAY, [(250_000, 1)])
    alert = Alert.objects.get(kind=Alert.Kind.AML_IDENTITY)
    with pytest.raises(CasinoError) as refused:
        alert_acknowledge(alert_id=alert.pk, staff=supervisor, note="   ")
    assert refused.value.code == "note_required"
    alert.refresh_from_db()
    assert alert.acknowledged_at is None
    alert_acknowledge(alert_id=alert.pk, staff=supervisor, note="ID seen: passport, by Léa")
    seal_pending()
    entry = AuditEntry.objects.get(code="pit.alert.acknowledged")
    assert entry.actor_id == supervisor.pk
    assert entry.data["kind"] == "aml_identity"
    alert.refresh_from_db()
    assert alert.note == "ID seen: passport, by Léa"


def test_the_log_aggregates_across_ratings_and_tables(
    felt, uth9, supervisor, marie, paul, clock, committed, casino_property
):
    rating = buy_ins(felt, supervisor, clock, committed, LONG_DAY, [(120_000, 1)])
    clock(hours_into(casino_property, LONG_DAY, 3))
    do("move", supervisor, rating, table=uth9.pk, seat=2)
    moved = {"id": marie.ratings.get(closed_at__isnull=True).pk}
    clock(hours_into(casino_property, LONG_DAY, 4))
    with committed():
        do("buy_in", supervisor, moved, amount_cents=90_000, instrument="cash")
    clock(hours_into(casino_property, LONG_DAY, 5))
    paul_rating = rate(supervisor, felt.table, 3, card="400124")
    with committed():
        do("buy_in", supervisor, paul_rating, amount_cents=5_000, instrument="cash")
    rows = aml_log(casino_property, LONG_DAY)
    assert [(r.player.pk, r.day.cash_in_cents) for r in rows] == [
        (marie.pk, 210_000),
        (paul.pk, 5_000),
    ]
    alert = Alert.objects.get(kind=Alert.Kind.AML_IDENTITY)
    assert alert.table_id == uth9.pk
