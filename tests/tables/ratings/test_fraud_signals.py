"""The ratings' fraud signals (issue 28 item 7): each raised as a pit alert for surveillance
when its condition holds, and not when it does not; acknowledged with a note."""

import datetime as dt

import pytest
from django.utils import timezone
from django.utils.translation import override

from casino.audit import seal_pending
from casino.models import AuditEntry
from tables.errors import IllegalTransition, RoundRefused
from tables.pit import alerts
from tables.pit.models import Alert
from tables.ratings.corrections import rating_time_correct
from tables.ratings.models import BuyIn, Rating, RatingSignalSettings, RatingTimeCorrection
from tests.factories import make_staff
from tests.tables.ratings.conftest import do, key, rate
from tests.tables.rounds.conftest import deal_to

Kind = Alert.Kind


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """What runs after commit (the services' signals, hence the alerts) runs here."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


@pytest.fixture
def thresholds(casino_property):
    return RatingSignalSettings.objects.create(
        property=casino_property,
        ghost_rounds=2,
        repeat_count=3,
        repeat_days=7,
        chips_gap_cents=10_000,
    )


def _of(kind):
    return list(Alert.objects.filter(kind=kind))


# --- a ghost rating ------------------------------------------------------------------------


def test_a_rating_over_a_seat_that_placed_no_wager_for_n_rounds_is_a_ghost(
    felt, supervisor, marie, thresholds, committed
):
    body = rate(supervisor, felt.table, 5, card="400123")  # seats 1 and 2 play, 5 does not
    with committed():
        deal_to(felt, "settled")
    assert _of(Kind.GHOST_RATING) == []  # one round: not yet N
    with committed():
        deal_to(felt, "settled")
    (alert,) = _of(Kind.GHOST_RATING)
    assert alert.key == f"ghost_rating:{body['id']}" and alert.table_id == felt.table.pk
    assert alert.params["rounds"] == 2 and alert.params["seat"] == 5
    with override("fr"):
        shown = alerts.alert_json(alert)
    assert "Marie D." in shown["detail"] and "place 5" in shown["detail"]
    with committed():
        deal_to(felt, "settled")
    assert len(_of(Kind.GHOST_RATING)) == 1  # one alert per rating


def test_a_seat_that_wagers_is_no_ghost(felt, supervisor, marie, thresholds, committed):
    rate(supervisor, felt.table, 1, card="400123")
    for _ in range(3):
        with committed():
            deal_to(felt, "settled")
    assert _of(Kind.GHOST_RATING) == []


def test_a_paused_rating_is_no_ghost(felt, supervisor, marie, thresholds, committed):
    body = rate(supervisor, felt.table, 5, card="400123")
    do("pause", supervisor, body)
    for _ in range(3):
        with committed():
            deal_to(felt, "settled")
    assert _of(Kind.GHOST_RATING) == []
    do("resume", supervisor, body)  # rounds before the resume do not count
    with committed():
        deal_to(felt, "settled")
    assert _of(Kind.GHOST_RATING) == []


# --- ratings repeated by one supervisor for one player -------------------------------------


def test_k_ratings_of_one_player_by_one_supervisor_in_d_days_raise_an_alert(
    felt, supervisor, marie, thresholds, committed
):
    for seat in (3, 4):
        with committed():
            body = rate(supervisor, felt.table, seat, card="400123")
        do("close", supervisor, body)
    assert _of(Kind.REPEATED_RATINGS) == []  # two: below K
    with committed():
        rate(supervisor, felt.table, 5, card="400123")
    (alert,) = _of(Kind.REPEATED_RATINGS)
    assert alert.params["count"] == 3 and alert.params["alias"] == "Marie D."
    assert alert.key == f"repeated_ratings:{supervisor.pk}:{marie.pk}"


def test_ratings_by_different_supervisors_or_long_ago_raise_nothing(
    felt, supervisor, marie, thresholds, committed
):
    from casino.roles import Role

    other = make_staff(Role.SUPERVISOR, username="other_sup")
    old = rate(supervisor, felt.table, 3, card="400123")
    do("close", supervisor, old)
    Rating.objects.filter(pk=old["id"]).update(
        opened_at=timezone.now() - dt.timedelta(days=8)
    )  # outside the D days
    body = rate(supervisor, felt.table, 4, card="400123")
    do("close", supervisor, body)
    with committed():
        rate(other, felt.table, 5, card="400123")
    assert _of(Kind.REPEATED_RATINGS) == []


# --- time edited after the fact ------------------------------------------------------------


def test_correcting_a_rating_time_is_audited_and_raises_an_alert(
    felt, supervisor, marie, committed
):
    body = rate(supervisor, felt.table, 1, card="400123")
    earlier = timezone.now() - dt.timedelta(hours=1)
    with committed():
        answer = rating_time_correct(
            rating_id=body["id"],
            staff=supervisor,
            key=key(),
            opened_at=earlier.isoformat(),
            reason="opened late, the player sat down at 9",
        )
    assert answer.body["opened_at"].startswith(f"{earlier:%Y-%m-%d}")
    assert Rating.objects.get(pk=body["id"]).opened_at == earlier
    (correction,) = RatingTimeCorrection.objects.all()
    assert (correction.field, correction.after, correction.by) == ("opened_at", earlier, supervisor)
    seal_pending()
    entry = AuditEntry.objects.get(code="ratings.rating.time_corrected")
    assert entry.data["reason"] == "opened late, the player sat down at 9"
    (alert,) = _of(Kind.RATING_TIME_EDITED)
    assert alert.params["field"] == "opened_at"
    with override("fr"):
        assert "heure d’ouverture" in alerts.alert_json(alert)["detail"]
    acknowledged = alerts.alert_acknowledge(
        alert_id=alert.pk, staff=supervisor, note="seen on video, the player was there"
    )
    assert acknowledged.acknowledged


def test_no_correction_no_alert_and_the_refusals(felt, supervisor, marie, committed):
    body = rate(supervisor, felt.table, 1, card="400123")
    now = timezone.now()
    refusals = [
        ({"opened_at": now.isoformat(), "reason": ""}, RoundRefused, "reason_required"),
        ({"reason": "why"}, RoundRefused, "nothing_to_correct"),
        ({"closed_at": now.isoformat(), "reason": "why"}, IllegalTransition, "rating_open"),
        (
            {"opened_at": (now + dt.timedelta(hours=1)).isoformat(), "reason": "why"},
            RoundRefused,
            "time_in_future",
        ),
        ({"opened_at": "nine o'clock", "reason": "why"}, RoundRefused, "bad_time"),
    ]
    for fields, error, code in refusals:
        with committed(), pytest.raises(error) as refused:
            rating_time_correct(rating_id=body["id"], staff=supervisor, key=key(), **fields)
        assert refused.value.code == code
    closed = do("close", supervisor, body)
    with pytest.raises(RoundRefused) as refused:
        rating_time_correct(
            rating_id=body["id"],
            staff=supervisor,
            key=key(),
            closed_at=closed["opened_at"],
            reason="why",
        )
    assert refused.value.code == "close_before_open"
    assert _of(Kind.RATING_TIME_EDITED) == [] and not RatingTimeCorrection.objects.exists()


def test_a_dealer_cannot_correct_a_rating_time(felt, supervisor, dealer, marie):
    from tables.errors import RoleRequired

    body = rate(supervisor, felt.table, 1, card="400123")
    with pytest.raises(RoleRequired):
        rating_time_correct(
            rating_id=body["id"],
            staff=dealer,
            key=key(),
            opened_at=timezone.now().isoformat(),
            reason="why",
        )


# --- the chips-estimated result far from the measured one -----------------------------------


def test_a_walk_with_far_from_the_measured_result_raises_an_alert(
    felt, supervisor, marie, thresholds, committed
):
    body = rate(supervisor, felt.table, 1, card="400123")
    do("buy_in", supervisor, body, amount_cents=50_000, instrument=BuyIn.CASH)
    deal_to(felt, "settled")
    measured = do("pause", supervisor, body)["player_result_cents"]
    with committed():
        closed = do("close", supervisor, body, walk_with_cents=50_000 + measured + 10_000)
    assert closed["chips_estimated_result_cents"] == measured + 10_000
    (alert,) = _of(Kind.CHIPS_GAP)
    assert alert.params["gap_cents"] == 10_000 and alert.params["measured_cents"] == measured
    with override("en"):
        assert "a gap of" in alerts.alert_json(alert)["detail"]


def test_a_walk_with_near_the_measured_result_raises_nothing(
    felt, supervisor, marie, thresholds, committed
):
    body = rate(supervisor, felt.table, 1, card="400123")
    do("buy_in", supervisor, body, amount_cents=50_000, instrument=BuyIn.CHIPS)
    deal_to(felt, "settled")
    measured = do("pause", supervisor, body)["player_result_cents"]
    with committed():
        do("close", supervisor, body, walk_with_cents=50_000 + measured + 9_999)
    assert _of(Kind.CHIPS_GAP) == []


def test_a_close_without_walk_with_raises_nothing(felt, supervisor, marie, thresholds, committed):
    body = rate(supervisor, felt.table, 1, card="400123")
    do("buy_in", supervisor, body, amount_cents=500_000, instrument=BuyIn.CASH)
    with committed():
        do("close", supervisor, body)
    assert _of(Kind.CHIPS_GAP) == []
