"""France: identity is recorded for winnings above the threshold per séance (the gaming day),
as for chip exchanges. A rated player's winnings are measured from the lines of the rounds
their ratings count; a round that takes them over the threshold without identity on file
raises the pit's alert, and the compliance log of the gaming day shows them. On gaming days of
23 and 25 hours (Paris, 27 March and 30 October 2027, the day starting at 06:00: days after
the dealer's assignment, which starts now)."""

import datetime as dt

import pytest
from django.test import Client
from django.utils import timezone, translation

from casino.roles import Role
from tables.pit.alerts import alert_json
from tables.pit.models import Alert
from tables.ratings.aml_log import aml_log
from tables.ratings.compliance import settings_for
from tables.ratings.models import PlayerIdentity
from tables.ratings.selectors import rating_detail
from tests.factories import make_staff
from tests.tables.ratings.conftest import do, rate

SHORT_DAY = dt.date(2027, 3, 27)  # 23 hours
LONG_DAY = dt.date(2027, 10, 30)  # 25 hours
# Quad aces, bet 4x: Ante 1:1, Blind 10:1, Play 1:1 on a 10.00 Ante: the seat wins 150.00.
WIN_CENTS = 15_000
THRESHOLD_CENTS = 20_000  # the test property's threshold: two such rounds cross it


@pytest.fixture
def clock(monkeypatch):
    def at(instant):
        monkeypatch.setattr(timezone, "now", lambda: instant)

    return at


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    return lambda: django_capture_on_commit_callbacks(execute=True)


@pytest.fixture
def threshold(casino_property):
    found = settings_for(casino_property)
    assert found.country == "FR" and found.identity_threshold_cents == 200_000  # the default
    found.identity_threshold_cents = THRESHOLD_CENTS
    found.save()
    return found


def hours_into(prop, day, hours):
    return prop.gaming_day_start(day) + dt.timedelta(hours=hours)


def win_a_round(felt, clock, at, committed, *, seat=1):
    clock(at)
    felt.open()
    felt.wagers(seat, ante=1_000)
    felt.play_to_showdown(
        {seat: ["Ah", "Ad"]}, board=["As", "Ac", "Kd", "7h", "2c"], dealer_cards=["9s", "8d"]
    )
    with committed():
        felt.step("settlement_confirmed")


def test_winnings_over_a_23_hour_gaming_day_raise_the_alert_and_fill_the_log(
    felt, supervisor, marie, clock, committed, casino_property, threshold
):
    prop = casino_property
    start, end = prop.gaming_day_bounds(SHORT_DAY)
    assert end - start == dt.timedelta(hours=23)
    clock(hours_into(prop, SHORT_DAY, 0.5))
    rating = rate(supervisor, felt.table, 1, card="400123")
    win_a_round(felt, clock, hours_into(prop, SHORT_DAY, 1), committed)
    assert rating_detail(rating["id"])["player_result_cents"] == WIN_CENTS
    assert not Alert.objects.filter(kind=Alert.Kind.AML_IDENTITY).exists()  # 150.00: below
    # 23.5 hours in is already the next gaming day: its win does not add to this one.
    win_a_round(felt, clock, hours_into(prop, SHORT_DAY, 23.5), committed)
    assert not Alert.objects.filter(kind=Alert.Kind.AML_IDENTITY).exists()
    (first,) = aml_log(prop, SHORT_DAY)
    assert first.day.winnings_cents == WIN_CENTS and first.day.crossed == ()
    # 22.5 hours in, still the short day: 300.00 won on it, above the threshold.
    win_a_round(felt, clock, hours_into(prop, SHORT_DAY, 22.5), committed)
    alert = Alert.objects.get(kind=Alert.Kind.AML_IDENTITY)
    assert alert.key == f"aml_identity:{marie.pk}:{SHORT_DAY.isoformat()}"
    assert alert.params["winnings_cents"] == 2 * WIN_CENTS
    assert alert.params["by"] == "winnings" and alert.params["amount_cents"] == 0
    assert alert.table_id == felt.table.pk
    with translation.override("fr"):
        assert "a gagné 300,00\u00a0€" in alert_json(alert)["detail"]
    (row,) = aml_log(prop, SHORT_DAY)
    assert row.player == marie and row.day.cash_in_cents == 0
    assert row.day.winnings_cents == 2 * WIN_CENTS
    assert row.day.crossed == ("identity",) and row.day.identity_missing
    (next_day,) = aml_log(prop, SHORT_DAY + dt.timedelta(days=1))
    assert next_day.day.winnings_cents == WIN_CENTS and next_day.day.crossed == ()
    # The compliance page lists it for the gaming day.
    client = Client()
    client.force_login(make_staff(Role.COMPLIANCE))
    page = client.get("/compliance/aml/", {"date": SHORT_DAY.isoformat()}, HTTP_HOST="127.0.0.1")
    assert page.status_code == 200
    text = page.content.decode()
    assert f'data-winnings="{2 * WIN_CENTS}"' in text and 'data-hours="23"' in text
    assert 'class="identity-missing"' in text


def test_winnings_in_the_25th_hour_add_to_the_same_gaming_day(
    felt, supervisor, marie, clock, committed, casino_property, threshold
):
    prop = casino_property
    start, end = prop.gaming_day_bounds(LONG_DAY)
    assert end - start == dt.timedelta(hours=25)
    clock(hours_into(prop, LONG_DAY, 0.5))
    rate(supervisor, felt.table, 1, card="400123")
    win_a_round(felt, clock, hours_into(prop, LONG_DAY, 1), committed)
    assert not Alert.objects.exists()
    late = hours_into(prop, LONG_DAY, 24.5)
    assert prop.gaming_date(late) == LONG_DAY
    win_a_round(felt, clock, late, committed)
    alert = Alert.objects.get(kind=Alert.Kind.AML_IDENTITY)
    assert alert.params["gaming_date"] == LONG_DAY.isoformat()
    assert alert.params["winnings_cents"] == 2 * WIN_CENTS
    assert alert.params["threshold_cents"] == THRESHOLD_CENTS
    (row,) = aml_log(prop, LONG_DAY)
    assert row.day.winnings_cents == 2 * WIN_CENTS and row.day.identity_missing


def test_a_move_does_not_split_the_days_winnings_and_a_pause_is_not_counted(
    felt, uth9, supervisor, marie, clock, committed, casino_property, threshold
):
    prop = casino_property
    clock(hours_into(prop, LONG_DAY, 0.5))
    rating = rate(supervisor, felt.table, 1, card="400123")
    win_a_round(felt, clock, hours_into(prop, LONG_DAY, 1), committed)
    clock(hours_into(prop, LONG_DAY, 2))
    do("pause", supervisor, rating)
    win_a_round(felt, clock, hours_into(prop, LONG_DAY, 3), committed)  # sat out: not hers
    clock(hours_into(prop, LONG_DAY, 4))
    do("resume", supervisor, rating)
    assert not Alert.objects.exists()
    clock(hours_into(prop, LONG_DAY, 5))
    do("move", supervisor, rating, table=uth9.pk, seat=1)
    clock(hours_into(prop, LONG_DAY, 6))
    do("move", supervisor, {"id": marie.ratings.get(closed_at__isnull=True).pk},
       table=felt.table.pk, seat=1)  # fmt: skip
    win_a_round(felt, clock, hours_into(prop, LONG_DAY, 7), committed)
    alert = Alert.objects.get(kind=Alert.Kind.AML_IDENTITY)
    assert alert.params["winnings_cents"] == 2 * WIN_CENTS


def test_with_identity_on_file_no_alert_but_the_log_shows_the_winnings(
    felt, supervisor, marie, clock, committed, casino_property, threshold
):
    officer = make_staff(Role.COMPLIANCE)
    PlayerIdentity.objects.create(
        player=marie, family_name="D.", checked_by=officer, checked_at=timezone.now()
    )
    prop = casino_property
    clock(hours_into(prop, LONG_DAY, 0.5))
    rate(supervisor, felt.table, 1, card="400123")
    for hours in (1, 2):
        win_a_round(felt, clock, hours_into(prop, LONG_DAY, hours), committed)
    assert not Alert.objects.exists()
    (row,) = aml_log(prop, LONG_DAY)
    assert row.identity_on_file and row.day.crossed == ("identity",)
    assert not row.day.identity_missing


def test_an_unrated_seats_winnings_and_a_us_property_raise_nothing(
    felt, supervisor, marie, clock, committed, casino_property, threshold
):
    prop = casino_property
    clock(hours_into(prop, LONG_DAY, 0.5))
    rate(supervisor, felt.table, 2, card="400123")  # rated at seat 2; seat 1 wins
    for hours in (1, 2):
        win_a_round(felt, clock, hours_into(prop, LONG_DAY, hours), committed)
    assert not Alert.objects.exists()
    assert aml_log(prop, LONG_DAY) == []
    # The US thresholds count cash only: winnings are not measured there.
    threshold.country, threshold.identity_threshold_cents = "US", None
    threshold.transaction_report_threshold_cents = 1_000
    threshold.save()
    win_a_round(felt, clock, hours_into(prop, LONG_DAY, 3), committed, seat=2)
    assert not Alert.objects.exists()
    assert aml_log(prop, LONG_DAY) == []
