"""A rule set's par sheet: asked for by a manager (audited), computed once by a task, stored."""

import datetime as dt
from fractions import Fraction

import pytest
from django.utils import timezone
from kombu.exceptions import OperationalError

from casino.errors import RoleRequired
from casino.models import AuditEntry
from tables import services
from tables.models import BaseGameSheet, BaseGameValues, Paytable
from tables.parsheet import Deck, analyse, base_game_key
from tables.rules import parse_rules

from .factories import make_paytable, make_ruleset

SMALL = Deck((4, 5, 6, 7, 8, 9, 10, 11, 12), 2)  # the tests' deck: a second, not minutes


@pytest.fixture
def queued(monkeypatch):
    """The task handed to Celery, recorded instead of run (the real one takes minutes)."""
    from tables.tasks import compute_parsheet

    calls = []
    monkeypatch.setattr(compute_parsheet, "delay", lambda *args: calls.append(args))
    return calls


@pytest.mark.parametrize("who", ["dealer", "supervisor", "auditor"])
def test_only_a_manager_asks_for_a_par_sheet(request, who, standard_rules, queued):
    with pytest.raises(RoleRequired):
        services.parsheet_request(
            ruleset_id=standard_rules.pk, manager=request.getfixturevalue(who)
        )
    assert not BaseGameSheet.objects.exists()
    assert queued == []


def test_a_request_queues_the_computation_after_commit_and_is_audited(
    manager, standard_rules, queued, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        sheet = services.parsheet_request(ruleset_id=standard_rules.pk, manager=manager)
    assert sheet.status == BaseGameSheet.Status.QUEUED
    assert sheet.rules_key == base_game_key(parse_rules(standard_rules.engine_rules()))
    assert queued == [(sheet.pk,)]
    entry = AuditEntry.objects.get(code="tables.parsheet.requested")
    assert entry.actor == manager and entry.data["sheet"] == sheet.pk


def test_rule_sets_with_one_base_game_share_one_sheet(
    manager, standard_rules, blind_a, queued, django_capture_on_commit_callbacks
):
    trips_a = make_paytable(manager, kind=Paytable.Kind.TRIPS, name="Trips A", preset="A")
    other_trips = make_ruleset(manager, name="Trips A house", blind=blind_a, trips=trips_a)
    blind_b = make_paytable(manager, kind=Paytable.Kind.BLIND, name="Blind B", preset="B")
    other_blind = make_ruleset(manager, name="Blind B house", blind=blind_b, trips=trips_a)
    with django_capture_on_commit_callbacks(execute=True):
        first = services.parsheet_request(ruleset_id=standard_rules.pk, manager=manager)
        same = services.parsheet_request(ruleset_id=other_trips.pk, manager=manager)
        other = services.parsheet_request(ruleset_id=other_blind.pk, manager=manager)
    assert same.pk == first.pk
    assert other.pk != first.pk
    assert queued == [(first.pk,), (other.pk,)]
    assert AuditEntry.objects.filter(code="tables.parsheet.requested").count() == 2


def test_the_computation_stores_the_exact_sheet(manager, standard_rules, queued):
    sheet = services.parsheet_request(ruleset_id=standard_rules.pk, manager=manager)
    done = services.parsheet_compute(sheet_id=sheet.pk, deck=SMALL)
    expected = analyse(parse_rules({}), SMALL)
    assert done.status == BaseGameSheet.Status.DONE
    assert done.progress_permille == 1000
    assert done.edge == expected.house_edge
    assert Fraction(done.element_of_risk) == expected.element_of_risk
    assert done.sheet["deals"] == expected.deals
    assert len(done.sheet["outcomes"]) == len(expected.outcomes)
    assert AuditEntry.objects.filter(code="tables.parsheet.computed").exists()
    # Computed once: a second run (a task delivered twice) and a new request change nothing.
    again = services.parsheet_compute(sheet_id=sheet.pk, deck=SMALL)
    assert again.finished_at == done.finished_at
    assert services.parsheet_request(ruleset_id=standard_rules.pk, manager=manager).pk == sheet.pk
    assert len(queued) == 0  # the on-commit hooks of a test transaction never ran


def test_a_failed_computation_says_so_and_can_be_asked_again(
    manager, standard_rules, queued, monkeypatch, django_capture_on_commit_callbacks
):
    sheet = services.parsheet_request(ruleset_id=standard_rules.pk, manager=manager)

    def broken(*args, **kwargs):
        raise MemoryError("no room")

    monkeypatch.setattr("tables.services.parsheets.analyse", broken)
    with pytest.raises(MemoryError):
        services.parsheet_compute(sheet_id=sheet.pk, deck=SMALL)
    sheet.refresh_from_db()
    assert sheet.status == BaseGameSheet.Status.FAILED
    assert "no room" in sheet.error
    assert sheet.edge is None
    with django_capture_on_commit_callbacks(execute=True):
        again = services.parsheet_request(ruleset_id=standard_rules.pk, manager=manager)
    assert again.pk == sheet.pk and again.status == BaseGameSheet.Status.QUEUED
    assert queued == [(sheet.pk,)]


def _left(sheet, status, minutes):
    """As a lost task or worker leaves it: `status` for `minutes` (the test's own write)."""
    since = timezone.now() - dt.timedelta(minutes=minutes)
    BaseGameSheet.objects.filter(pk=sheet.pk).update(status=status, status_since=since)


@pytest.mark.parametrize("status", [BaseGameSheet.Status.QUEUED, BaseGameSheet.Status.RUNNING])
def test_a_sheet_whose_task_or_worker_was_lost_is_queued_again_when_asked(
    manager, standard_rules, queued, status, django_capture_on_commit_callbacks
):
    sheet = services.parsheet_request(ruleset_id=standard_rules.pk, manager=manager)
    _left(sheet, status, minutes=50)  # under way: left alone
    with django_capture_on_commit_callbacks(execute=True):
        same = services.parsheet_request(ruleset_id=standard_rules.pk, manager=manager)
    assert (same.status, queued) == (status, [])
    _left(sheet, status, minutes=61)  # past parsheets.STALE: its task or worker was lost
    with django_capture_on_commit_callbacks(execute=True):
        again = services.parsheet_request(ruleset_id=standard_rules.pk, manager=manager)
    assert (again.pk, again.status, queued) == (
        sheet.pk,
        BaseGameSheet.Status.QUEUED,
        [(sheet.pk,)],
    )
    assert AuditEntry.objects.filter(code="tables.parsheet.requested").count() == 2
    assert services.parsheet_compute(sheet_id=sheet.pk, deck=SMALL).status == "done"


def test_the_periodic_task_takes_again_a_sheet_left_running_by_a_lost_worker(
    manager, standard_rules, blind_a
):
    blind_b = make_paytable(manager, kind=Paytable.Kind.BLIND, name="Blind B", preset="B")
    make_ruleset(manager, name="Blind B house", blind=blind_b)
    lost, running = services.parsheet_queue_missing()
    _left(lost, BaseGameSheet.Status.RUNNING, minutes=90)
    _left(running, BaseGameSheet.Status.RUNNING, minutes=5)
    assert [s.pk for s in services.parsheet_queue_missing()] == [lost.pk]
    lost.refresh_from_db()
    assert (lost.status, lost.progress_permille) == (BaseGameSheet.Status.QUEUED, 0)
    entry = AuditEntry.objects.filter(code="tables.parsheet.requested").latest("pk")
    assert (entry.actor, entry.data["sheet"], entry.data["again"]) == (None, lost.pk, True)


def test_a_run_that_ends_after_its_sheet_was_taken_again_writes_nothing(
    manager, standard_rules, queued, monkeypatch
):
    sheet = services.parsheet_request(ruleset_id=standard_rules.pk, manager=manager)
    real = analyse

    def slow(rules, deck, progress):  # an hour on: the sheet is queued again meanwhile
        _left(sheet, BaseGameSheet.Status.RUNNING, minutes=61)
        services.parsheet_queue_missing()
        return real(rules, deck, progress=progress)

    monkeypatch.setattr("tables.services.parsheets.analyse", slow)
    services.parsheet_compute(sheet_id=sheet.pk, deck=SMALL)
    sheet.refresh_from_db()
    assert (sheet.status, sheet.sheet) == (BaseGameSheet.Status.QUEUED, None)
    assert not AuditEntry.objects.filter(code="tables.parsheet.computed").exists()


def test_a_broker_down_leaves_the_sheet_queued_and_the_request_answered(
    manager, standard_rules, monkeypatch, django_capture_on_commit_callbacks
):
    from tables.tasks import compute_parsheet

    def down(*args):
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(compute_parsheet, "delay", down)
    with django_capture_on_commit_callbacks(execute=True):
        sheet = services.parsheet_request(ruleset_id=standard_rules.pk, manager=manager)
    assert BaseGameSheet.objects.get(pk=sheet.pk).status == BaseGameSheet.Status.QUEUED


def test_every_version_without_a_sheet_gets_one_queued_once(manager, standard_rules, blind_a):
    """The periodic task's first step: each base game that has no sheet, once (audited)."""
    blind_b = make_paytable(manager, kind=Paytable.Kind.BLIND, name="Blind B", preset="B")
    make_ruleset(manager, name="Blind B house", blind=blind_b)
    trips_a = make_paytable(manager, kind=Paytable.Kind.TRIPS, name="Trips A", preset="A")
    make_ruleset(manager, name="Same base game", blind=blind_a, trips=trips_a)
    queued = services.parsheet_queue_missing()
    assert len(queued) == 2  # standard and Blind B: "Same base game" shares the standard's
    assert {s.status for s in queued} == {BaseGameSheet.Status.QUEUED}
    assert services.parsheet_queue_missing() == []
    assert AuditEntry.objects.filter(code="tables.parsheet.requested", actor=None).count() == 2


def test_a_sheet_computed_without_the_flop_values_is_queued_again(manager, standard_rules):
    """A sheet from before the flop's values were kept prices no decision: the periodic task
    computes it again, once, and a sheet with its values is left alone."""
    services.parsheet_compute(sheet_id=services.parsheet_queue_missing()[0].pk, deck=SMALL)
    sheet = BaseGameSheet.objects.get()
    assert sheet.status == BaseGameSheet.Status.DONE
    assert services.parsheet_queue_missing() == []
    BaseGameValues.objects.filter(sheet=sheet).delete()
    assert [s.pk for s in services.parsheet_queue_missing()] == [sheet.pk]
    sheet.refresh_from_db()
    assert sheet.status == BaseGameSheet.Status.QUEUED
    services.parsheet_compute(sheet_id=sheet.pk, deck=SMALL)
    assert BaseGameValues.objects.filter(sheet=sheet).exists()
    assert services.parsheet_queue_missing() == []


def test_the_periodic_task_computes_what_is_missing(manager, standard_rules, monkeypatch):
    from tables.services import parsheets
    from tables.tasks import compute_missing_parsheets

    real = parsheets.parsheet_compute
    monkeypatch.setattr(
        parsheets, "parsheet_compute", lambda *, sheet_id: real(sheet_id=sheet_id, deck=SMALL)
    )
    compute_missing_parsheets()
    sheet = BaseGameSheet.objects.get()
    assert sheet.status == BaseGameSheet.Status.DONE
    assert sheet.edge == analyse(parse_rules({}), SMALL).house_edge


def test_the_missing_sheets_are_computed_daily_by_beat(settings):
    from casino.celery import app

    tasks = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert "tables.tasks.compute_missing_parsheets" in tasks
    app.loader.import_default_modules()
    assert "tables.tasks.compute_missing_parsheets" in app.tasks
