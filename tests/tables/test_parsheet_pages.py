"""The par sheet in the back office: asked for from the rule set's page, its progress followed,
its figures shown and printed; a rule set without one says so plainly."""

import pytest
from django.core.management import call_command
from django.urls import reverse

from casino.models import AuditEntry
from casino.permissions import sync_role_permissions
from tables import services
from tables.models import BaseGameSheet
from tables.parsheet import Deck

SMALL = Deck(tuple(range(4, 13)), 2)


@pytest.fixture
def client(client):
    """Pages in English unless a test asks for French."""
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


@pytest.fixture
def admin_manager(manager, client):
    sync_role_permissions()
    manager.refresh_from_db()
    client.force_login(manager)
    return manager


@pytest.fixture
def queued(monkeypatch):
    from tables.tasks import compute_parsheet

    calls = []
    monkeypatch.setattr(compute_parsheet, "delay", lambda *args: calls.append(args))
    return calls


def _urls(ruleset):
    return {
        name: reverse(f"admin:tables_ruleset_{name}", args=[ruleset.pk])
        for name in ("change", "parsheet", "parsheet_status", "parsheet_print")
    }


def test_a_manager_asks_for_the_par_sheet_and_follows_its_progress(
    client, admin_manager, standard_rules, queued, django_capture_on_commit_callbacks
):
    urls = _urls(standard_rules)
    page = client.get(urls["change"]).content.decode()
    assert "Not computed yet" in page and "Compute the par sheet" in page
    assert client.get(urls["parsheet"]).status_code == 405  # asking changes something: POST
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(urls["parsheet"])
    assert response.status_code == 302
    sheet = BaseGameSheet.objects.get()
    assert queued == [(sheet.pk,)]
    assert AuditEntry.objects.filter(code="tables.parsheet.requested", actor=admin_manager)
    page = client.get(urls["change"]).content.decode()
    assert "<progress" in page and "Compute the par sheet" not in page
    BaseGameSheet.objects.filter(pk=sheet.pk).update(
        status=BaseGameSheet.Status.RUNNING, progress_permille=420
    )
    assert client.get(urls["parsheet_status"]).json() == {
        "status": "running",
        "status_label": "being computed",
        "progress": 42,
    }


def test_the_computed_sheet_is_shown_and_printed(client, admin_manager, standard_rules, queued):
    sheet = services.parsheet_request(ruleset_id=standard_rules.pk, manager=admin_manager)
    sheet = services.parsheet_compute(sheet_id=sheet.pk, deck=SMALL)
    urls = _urls(standard_rules)
    page = client.get(urls["change"]).content.decode()
    assert urls["parsheet_print"] in page
    assert "% of the Ante" in page
    printed = client.get(urls["parsheet_print"]).content.decode()
    assert sheet.house_edge in printed  # the exact fraction
    assert "Element of risk" in printed and "fold on the river" in printed
    assert printed.count('<td class="play-') == 169  # the 13 x 13 chart


def test_the_printed_sheet_reads_in_french_for_a_french_reader(
    client, admin_manager, standard_rules, queued
):
    call_command("compilemessages", verbosity=0)
    sheet = services.parsheet_request(ruleset_id=standard_rules.pk, manager=admin_manager)
    services.parsheet_compute(sheet_id=sheet.pk, deck=SMALL)
    url = _urls(standard_rules)["parsheet_print"]
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    # A column header with a "%": the template's message is "probability (%%)" in the catalogue.
    assert "probabilité (%)" in page and "probability" not in page


def test_a_rule_set_without_a_par_sheet_says_so_in_english_and_french(
    client, admin_manager, standard_rules
):
    call_command("compilemessages", verbosity=0)
    url = _urls(standard_rules)["parsheet_print"]
    assert "not computed yet" in client.get(url).content.decode()
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "pas encore calculée" in page


def test_only_those_who_may_change_rule_sets_ask_for_a_par_sheet(
    client, supervisor, standard_rules, queued
):
    sync_role_permissions()
    supervisor.refresh_from_db()
    client.force_login(supervisor)
    response = client.post(_urls(standard_rules)["parsheet"])
    assert response.status_code in (302, 403)
    assert not BaseGameSheet.objects.exists()
    assert queued == []
