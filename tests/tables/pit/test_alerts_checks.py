"""The periodic checks, on a given clock: an open table idle too long, a dealer past their
rotation time; the Celery task, its beat entry and the management command that run them."""

import datetime as dt
import io

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.utils import timezone

from casino.roles import Role
from tables import services
from tables.models import DealerAssignment, Table
from tables.pit import alerts, tasks
from tables.pit.alerts import alert_acknowledge, alerts_check
from tables.pit.models import Alert, AlertSettings
from tests.factories import make_staff
from tests.tables.rounds.conftest import deal_to

Kind = Alert.Kind
MINUTE = dt.timedelta(minutes=1)


def idle_alerts():
    return list(Alert.objects.filter(kind=Kind.TABLE_IDLE).order_by("pk"))


def overdue_alerts():
    return list(Alert.objects.filter(kind=Kind.DEALER_OVERDUE).order_by("pk"))


def last_activity(table) -> dt.datetime:
    table.refresh_from_db()
    moments = [table.status_changed_at]
    for round_ in table.rounds.all():
        moments += [round_.opened_at, *round_.events.values_list("at", flat=True)]
    return max(moments)


# --- an open table idle --------------------------------------------------------------------


def test_an_open_table_with_no_round_for_more_than_the_idle_minutes_raises_an_alert(felt, table):
    deal_to(felt, "settled")
    since = last_activity(table)
    assert alerts.tables_idle_check(at=since + 14 * MINUTE) == []  # default: 15 minutes
    (alert,) = alerts.tables_idle_check(at=since + 16 * MINUTE)
    assert (alert.table, alert.is_new, alert.severity) == (table, True, "info")
    assert alert.params == {"table": table.name, "since": since.isoformat(), "minutes": 15}


def test_the_idle_check_raises_one_alert_however_often_it_runs(felt, table):
    since = last_activity(table)
    for minutes in (16, 17, 30, 90):
        alerts_check(at=since + minutes * MINUTE)
    assert len(idle_alerts()) == 1


def test_an_acknowledged_idle_table_stays_quiet_until_it_plays_and_idles_again(
    felt, table, supervisor
):
    since = last_activity(table)
    (first,) = alerts.tables_idle_check(at=since + 20 * MINUTE)
    alert_acknowledge(alert_id=first.pk, staff=supervisor, note="No players: closing soon")
    assert not any(a.is_new for a in alerts.tables_idle_check(at=since + 40 * MINUTE))
    assert len(idle_alerts()) == 1
    deal_to(felt, "settled")  # it plays again...
    again = last_activity(table)
    (second,) = alerts.tables_idle_check(at=again + 20 * MINUTE)  # ...and idles again
    assert second.is_new and second.pk != first.pk
    assert len(idle_alerts()) == 2


def test_a_round_in_progress_is_activity_as_it_moves(felt, table):
    deal_to(felt, "flop")
    since = last_activity(table)
    assert alerts.tables_idle_check(at=since + 10 * MINUTE) == []
    assert len(alerts.tables_idle_check(at=since + 16 * MINUTE)) == 1


def test_the_idle_minutes_are_the_propertys_setting(felt, table, casino_property):
    AlertSettings.objects.create(property=casino_property, idle_minutes=5)
    since = last_activity(table)
    assert alerts.tables_idle_check(at=since + 4 * MINUTE) == []
    (alert,) = alerts.tables_idle_check(at=since + 6 * MINUTE)
    assert alert.params["minutes"] == 5


def test_a_closed_table_is_never_idle(closed_table):
    assert closed_table.status == Table.Status.CLOSED
    assert alerts.tables_idle_check(at=timezone.now() + 24 * 60 * MINUTE) == []


# --- a dealer past their rotation time -----------------------------------------------------


def assignment_of(table) -> DealerAssignment:
    return DealerAssignment.objects.filter(table=table).order_by("-starts_at").first()


def test_a_dealer_with_no_planned_end_is_overdue_after_rotation_and_grace_minutes(
    felt, table, dealer
):
    start = assignment_of(table).starts_at  # defaults: rotation 60 min, grace 10 min
    assert alerts.dealers_overdue_check(at=start + 69 * MINUTE) == []
    (alert,) = alerts.dealers_overdue_check(at=start + 71 * MINUTE)
    assert (alert.table, alert.params["dealer"]) == (table, str(dealer))
    assert alert.params["due"] == (start + 60 * MINUTE).isoformat()
    alerts.dealers_overdue_check(at=start + 90 * MINUTE)
    assert len(overdue_alerts()) == 1


def test_a_planned_end_with_no_relief_makes_the_dealer_overdue(
    manager, supervisor, pit, standard_rules, dealer, casino_property
):
    AlertSettings.objects.create(property=casino_property, minutes_past_rotation=5)
    table = services.table_create_as_approved(
        manager=manager,
        name="UTH 9",
        pit_id=pit.pk,
        min_bet_cents=1_000,
        max_bet_cents=20_000,
        ruleset_id=standard_rules.pk,
    )
    services.table_open(table_id=table.pk, supervisor=supervisor)
    start = timezone.now()
    services.assignment_create(
        table_id=table.pk,
        dealer_id=dealer.pk,
        supervisor=supervisor,
        starts_at=start,
        ends_at=start + 40 * MINUTE,
    )
    assert alerts.dealers_overdue_check(at=start + 44 * MINUTE) == []
    (alert,) = alerts.dealers_overdue_check(at=start + 46 * MINUTE)
    assert alert.params["due"] == (start + 40 * MINUTE).isoformat()


def test_a_rotation_in_time_raises_nothing_and_the_new_dealers_clock_starts(
    felt, table, supervisor
):
    start = assignment_of(table).starts_at
    relief = make_staff(Role.DEALER, username="relief")
    services.dealer_rotate(
        table_id=table.pk, dealer_id=relief.pk, supervisor=supervisor, at=start + 55 * MINUTE
    )
    assert alerts.dealers_overdue_check(at=start + 80 * MINUTE) == []
    (alert,) = alerts.dealers_overdue_check(at=start + 126 * MINUTE)
    assert alert.params["dealer"] == str(relief)


def test_the_rotation_minutes_are_the_propertys_setting(felt, table, casino_property):
    AlertSettings.objects.create(
        property=casino_property, rotation_minutes=20, minutes_past_rotation=0
    )
    start = assignment_of(table).starts_at
    assert alerts.dealers_overdue_check(at=start + 19 * MINUTE) == []
    assert len(alerts.dealers_overdue_check(at=start + 20 * MINUTE)) == 1


def test_an_acknowledged_overdue_dealer_is_not_raised_again(felt, table, supervisor):
    start = assignment_of(table).starts_at
    (alert,) = alerts.dealers_overdue_check(at=start + 75 * MINUTE)
    alert_acknowledge(alert_id=alert.pk, staff=supervisor, note="Relief on the way")
    alerts.dealers_overdue_check(at=start + 120 * MINUTE)
    assert overdue_alerts() == [alert]


def test_a_closed_tables_dealer_is_never_overdue(felt, table, supervisor):
    start = assignment_of(table).starts_at
    services.table_close(table_id=table.pk, supervisor=supervisor)
    assert alerts.dealers_overdue_check(at=start + 600 * MINUTE) == []


# --- how they run --------------------------------------------------------------------------


def test_the_beat_runs_the_checks_every_30_seconds():
    entry = settings.CELERY_BEAT_SCHEDULE["pit-alerts-check"]
    assert entry == {"task": "tables.pit.tasks.alerts_check", "schedule": 30.0}


def test_the_task_raises_and_counts_only_new_alerts(felt, table, monkeypatch):
    later = assignment_of(table).starts_at + 120 * MINUTE
    monkeypatch.setattr(timezone, "now", lambda: later)
    assert tasks.alerts_check.delay().get() == 2  # the table is idle and its dealer overdue
    assert tasks.alerts_check.delay().get() == 0
    assert {a.kind for a in Alert.objects.all()} == {Kind.TABLE_IDLE, Kind.DEALER_OVERDUE}


def test_the_command_runs_the_checks_once_at_a_given_instant(felt, table):
    at = (assignment_of(table).starts_at + 120 * MINUTE).isoformat()
    out = io.StringIO()
    call_command("pit_alerts_check", "--at", at, stdout=out)
    assert "2 alert(s) raised, 0 already raised" in out.getvalue()
    out = io.StringIO()
    call_command("pit_alerts_check", "--at", at, stdout=out)
    assert "0 alert(s) raised, 2 already raised" in out.getvalue()


@pytest.mark.parametrize("at", ["yesterday", "2026-12-01T10:00:00"])
def test_the_command_refuses_an_instant_it_cannot_place(db, at):
    with pytest.raises(CommandError):
        call_command("pit_alerts_check", "--at", at)


# --- budgets -------------------------------------------------------------------------------


def _more_open_tables(count, *, manager, supervisor, pit, ruleset):
    for n in range(count):
        table = services.table_create_as_approved(
            manager=manager,
            name=f"UTH B{n}",
            pit_id=pit.pk,
            min_bet_cents=1_000,
            max_bet_cents=20_000,
            ruleset_id=ruleset.pk,
        )
        services.table_open(table_id=table.pk, supervisor=supervisor)
        dealer = make_staff(Role.DEALER, username=f"budget_dealer_{n}")
        services.assignment_create(table_id=table.pk, dealer_id=dealer.pk, supervisor=supervisor)


def test_the_checks_queries_do_not_grow_with_the_open_tables(
    felt, table, manager, supervisor, pit, standard_rules, django_assert_num_queries
):
    deal_to(felt, "settled")
    soon = timezone.now() + MINUTE  # nothing to raise: the budget of a quiet floor
    with django_assert_num_queries(3) as one_table:  # thresholds, open tables, assignments
        alerts_check(at=soon)
    _more_open_tables(5, manager=manager, supervisor=supervisor, pit=pit, ruleset=standard_rules)
    with django_assert_num_queries(len(one_table.captured_queries)):
        alerts_check(at=soon)


def test_a_settled_round_without_a_big_win_costs_the_receivers_five_queries(
    felt, table, django_assert_num_queries, django_capture_on_commit_callbacks
):
    """They run on a worker after the settlement's commit, where its news is told (in the
    dealer's request when no broker takes it): kept small."""
    from tables.pit import receivers

    round_id = deal_to(felt, "settled")["id"]
    # The round with its table's own threshold, the property's thresholds, the seats' nets;
    # the table's open ratings (a ghost rating: tables.ratings.signals); the ratings open over
    # the round (a rated player's winnings: tables.ratings.aml_log.rated_in_round).
    checks = (receivers.check_big_wins, receivers.check_ghost_ratings, receivers.check_aml_winnings)
    with django_assert_num_queries(5), django_capture_on_commit_callbacks(execute=True):
        for check in checks:  # as tables.tasks.tell sends the news
            check(sender=None, round_id=round_id)
    assert not Alert.objects.exists()
