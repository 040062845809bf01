"""The admin, as a manager uses it: validation by the engine, used versions read-only."""

import json

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse

from casino.models import AuditEntry
from casino.permissions import sync_role_permissions
from tables import services
from tables.models import RuleSet, RulesetDeployment, Table


@pytest.fixture
def admin_manager(manager, client):
    sync_role_permissions()  # the test database's post_migrate ran before our admin loaded
    manager.refresh_from_db()
    client.force_login(manager)
    return manager


def _form_data(ruleset, **overrides):
    data = {
        "preflop_multiples": "[3, 4]",
        # The browser posts it back: a field whose default is callable has a hidden initial.
        "initial-preflop_multiples": "[3, 4]",
        "blind_paytable": ruleset.blind_paytable_id,
        "trips_paytable": ruleset.trips_paytable_id,
        "progressive_paytable": "",
        "envy_paytable": "",
        "trips_on_fold": "stays",
        "ante_when_dealer_not_qualified": "push",
        "envy_min_wager_cents": "0",
        "progressive_wager_cents": "1,00",
        "payout_unit_cents": "0,01",
        "max_payout_cents": "",
    }
    data.update(overrides)
    return data


def test_a_manager_changes_an_unused_rule_set_in_place(client, admin_manager, standard_rules):
    url = reverse("admin:tables_ruleset_change", args=[standard_rules.pk])
    response = client.post(url, _form_data(standard_rules, payout_unit_cents="0,25"))
    assert response.status_code == 302, response.content.decode()[:2000]
    assert RuleSet.objects.get(pk=standard_rules.pk).payout_unit_cents == 25
    entry = AuditEntry.objects.filter(code="admin.tables.ruleset.change").get()
    assert entry.actor == admin_manager
    assert entry.data["after"] == {"payout_unit_cents": 25}


def test_the_admin_shows_the_engines_message_and_saves_nothing(
    client, admin_manager, standard_rules
):
    url = reverse("admin:tables_ruleset_change", args=[standard_rules.pk])
    response = client.post(url, _form_data(standard_rules, payout_unit_cents="0"))
    assert response.status_code == 200
    html = response.content.decode()
    # the manager reads French, the amount in the currency, on the field: no raw path
    assert "0,00\u00a0€ est trop petit\u00a0: l’unité de paiement" in html
    assert "rules.payout_unit_cents" not in html
    assert "too small" not in html  # no English inside the French sentence
    assert RuleSet.objects.get(pk=standard_rules.pk).payout_unit_cents == 1


def test_a_used_rule_set_is_read_only_and_offers_a_new_version(
    client, admin_manager, standard_rules
):
    services.ruleset_mark_used(ruleset_id=standard_rules.pk)
    url = reverse("admin:tables_ruleset_change", args=[standard_rules.pk])
    html = client.get(url).content.decode()
    assert 'name="payout_unit_cents"' not in html  # shown, not editable
    new_version_url = reverse("admin:tables_ruleset_new_version", args=[standard_rules.pk])
    assert new_version_url in html

    response = client.post(new_version_url)
    v2 = RuleSet.objects.get(name=standard_rules.name, version=2)
    assert response["Location"] == reverse("admin:tables_ruleset_change", args=[v2.pk])
    assert client.get(response["Location"]).content.decode().count('name="payout_unit_cents"') == 1


def test_a_change_posted_to_a_used_version_lands_on_a_new_version(
    client, admin_manager, standard_rules
):
    url = reverse("admin:tables_ruleset_change", args=[standard_rules.pk])
    client.get(url)  # the form opens while the version is unused...
    services.ruleset_mark_used(ruleset_id=standard_rules.pk)  # ...then a round deals under it
    response = client.post(url, _form_data(standard_rules, payout_unit_cents="0,25"))
    assert response.status_code == 302
    v1 = RuleSet.objects.get(pk=standard_rules.pk)
    v2 = RuleSet.objects.get(name=standard_rules.name, version=2)
    assert (v1.payout_unit_cents, v2.payout_unit_cents) == (1, 25)


def test_a_manager_alone_cannot_move_a_table_to_another_version_in_the_admin(
    client, admin_manager, closed_table, standard_rules
):
    """Issue 23, 2: the table's form shows its rule set read-only; a deployment is asked for
    and a second manager approves it (tests/tables/test_versioning.py)."""
    v2 = services.ruleset_revise(
        ruleset_id=standard_rules.pk, manager=admin_manager, new_version=True
    )
    url = reverse("admin:tables_table_change", args=[closed_table.pk])
    response = client.post(
        url,
        {
            "name": "UTH 1",
            "pit": closed_table.pit_id,
            "seats": "7",
            "min_bet_cents": "10,00",
            "max_bet_cents": "200,00",
            "bank": "",
            "ruleset": v2.pk,
        },
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    assert Table.objects.get(pk=closed_table.pk).ruleset == standard_rules


def test_an_auditor_may_look_but_not_change(client, auditor, standard_rules):
    sync_role_permissions()
    auditor.refresh_from_db()
    client.force_login(auditor)
    url = reverse("admin:tables_ruleset_change", args=[standard_rules.pk])
    assert client.get(url).status_code == 200
    client.post(url, _form_data(standard_rules, payout_unit_cents="0,25"))
    assert RuleSet.objects.get(pk=standard_rules.pk).payout_unit_cents == 1
    response = client.post(reverse("admin:tables_ruleset_new_version", args=[standard_rules.pk]))
    assert response.status_code == 403
    assert not RuleSet.objects.filter(version=2).exists()


def test_a_dealer_never_reaches_the_admin(client, dealer, standard_rules):
    sync_role_permissions()
    assert not Group.objects.get(name="dealer").permissions.exists()
    client.force_login(dealer)
    response = client.get(reverse("admin:tables_ruleset_change", args=[standard_rules.pk]))
    assert response.status_code == 302  # to the admin's login


@pytest.mark.parametrize("model", ["table", "ruleset", "paytable", "dealerassignment"])
def test_every_tables_admin_page_opens_for_a_manager(
    client, admin_manager, open_table, dealer, supervisor, model
):
    services.dealer_rotate(table_id=open_table.pk, dealer_id=dealer.pk, supervisor=supervisor)
    assert client.get(reverse(f"admin:tables_{model}_changelist")).status_code == 200
    assert client.get(reverse(f"admin:tables_{model}_add")).status_code == 200


def test_the_admin_asks_for_the_familys_closed_tables_to_move_to_a_version(
    client, admin_manager, other_manager, closed_table, standard_rules
):
    services.ruleset_mark_used(ruleset_id=standard_rules.pk)
    v2 = services.ruleset_revise(
        ruleset_id=standard_rules.pk, manager=admin_manager, payout_unit_cents=25
    )
    change_url = reverse("admin:tables_ruleset_change", args=[v2.pk])
    deploy_url = reverse("admin:tables_ruleset_deploy", args=[v2.pk])
    assert deploy_url in client.get(change_url).content.decode()
    response = client.post(deploy_url)
    assert response["Location"] == change_url
    closed_table.refresh_from_db()
    assert closed_table.ruleset == standard_rules  # asked for: a second manager approves it
    asked = RulesetDeployment.objects.get(table=closed_table, ruleset=v2, state="requested")
    services.ruleset_deployment_approve(deployment_id=asked.pk, manager=other_manager)
    closed_table.refresh_from_db()
    assert closed_table.ruleset == v2
    assert AuditEntry.objects.filter(code="tables.table.configured", actor=other_manager).exists()


def test_the_new_version_button_works_for_paytables(client, admin_manager, trips_c):
    from tables.models import Paytable

    response = client.post(reverse("admin:tables_paytable_new_version", args=[trips_c.pk]))
    v2 = Paytable.objects.get(name="Trips C", version=2)
    assert response["Location"] == reverse("admin:tables_paytable_change", args=[v2.pk])
    assert (v2.kind, v2.preset) == ("trips", "C")


def test_switching_a_paytable_to_another_preset_takes_its_lines(client, admin_manager, trips_c):
    url = reverse("admin:tables_paytable_change", args=[trips_c.pk])
    lines = json.dumps(trips_c.lines)
    response = client.post(url, {"preset": "D", "lines": lines, "initial-lines": lines})
    assert response.status_code == 302, response.content.decode()[:3000]
    trips_c.refresh_from_db()
    assert (trips_c.preset, trips_c.lines["four_of_a_kind"]) == ("D", "20:1")
