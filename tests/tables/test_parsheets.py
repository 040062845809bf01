"""A rule set's par sheet: asked for by a manager (audited), computed once by a task, stored."""

from fractions import Fraction

import pytest

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
