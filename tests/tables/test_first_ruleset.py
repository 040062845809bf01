"""A new table's first rule set is approved by a second manager (issue 23, 2): a table one
manager creates (table_create, the admin's add form) cannot open until then."""

import pytest
from django.test import Client
from django.urls import reverse

from casino.errors import TwoPeopleRequired
from casino.models import AuditEntry
from casino.permissions import sync_role_permissions
from tables import services
from tables.errors import ConfigurationRefused, IllegalTransition
from tables.models import RulesetDeployment, Table
from tables.pit import selectors

pytestmark = pytest.mark.django_db


def _create(manager, pit, ruleset, name="UTH 9"):
    return services.table_create(
        manager=manager,
        name=name,
        pit_id=pit.pk,
        min_bet_cents=1_000,
        max_bet_cents=20_000,
        ruleset_id=ruleset.pk,
    )


def _client(staff, language="en") -> Client:
    staff.language = language
    staff.save(update_fields=["language"])
    client = Client()
    client.force_login(staff)
    return client


def _state(table):
    table = Table.objects.get(pk=table.pk)
    return table.status, table.ruleset_approved, table.status_changed_at


def test_a_table_one_manager_creates_cannot_be_opened(manager, supervisor, pit, standard_rules):
    table = _create(manager, pit, standard_rules)
    asked = RulesetDeployment.objects.get(table=table)
    assert (asked.state, asked.previous_id, asked.ruleset_id) == (
        "requested",
        None,
        standard_rules.pk,
    )
    assert asked.requested_by == manager
    before, entries = _state(table), AuditEntry.objects.count()
    with pytest.raises(IllegalTransition) as refused:
        services.table_open(table_id=table.pk, supervisor=supervisor)
    assert refused.value.code == "ruleset_not_approved"
    assert "second directeur" in refused.value.message  # the property speaks French
    assert _state(table) == before and before[0] == Table.Status.CLOSED
    assert AuditEntry.objects.count() == entries


def test_a_second_managers_approval_lets_it_open(
    manager, other_manager, supervisor, pit, standard_rules
):
    table = _create(manager, pit, standard_rules)
    asked = RulesetDeployment.objects.get(table=table)
    services.ruleset_deployment_approve(deployment_id=asked.pk, manager=other_manager)
    asked.refresh_from_db()
    assert (asked.state, asked.decided_by) == ("approved", other_manager)
    assert Table.objects.get(pk=table.pk).ruleset_approved
    services.table_open(table_id=table.pk, supervisor=supervisor)
    assert Table.objects.get(pk=table.pk).status == Table.Status.OPEN
    approved = AuditEntry.objects.get(code="tables.ruleset.deployment_approved")
    assert (approved.actor, approved.data["asked_by"]) == (other_manager, manager.pk)


def test_the_same_manager_cannot_approve_his_own(manager, supervisor, pit, standard_rules):
    table = _create(manager, pit, standard_rules)
    asked = RulesetDeployment.objects.get(table=table)
    with pytest.raises(TwoPeopleRequired):
        services.ruleset_deployment_approve(deployment_id=asked.pk, manager=manager)
    asked.refresh_from_db()
    assert asked.state == "requested"
    assert not Table.objects.get(pk=table.pk).ruleset_approved
    with pytest.raises(IllegalTransition):
        services.table_open(table_id=table.pk, supervisor=supervisor)
    assert AuditEntry.objects.filter(code="casino.duties.refused", actor=manager).exists()


def test_a_rejected_first_rule_set_keeps_the_table_closed_until_asked_again_and_approved(
    manager, other_manager, supervisor, pit, standard_rules
):
    table = _create(manager, pit, standard_rules)
    first = RulesetDeployment.objects.get(table=table)
    services.ruleset_deployment_reject(deployment_id=first.pk, manager=other_manager)
    with pytest.raises(IllegalTransition):
        services.table_open(table_id=table.pk, supervisor=supervisor)
    # the pit offers the version it has again, and asking for it is a first rule set again
    assert standard_rules in selectors.ruleset_versions(Table.objects.get(pk=table.pk))
    again = services.ruleset_deployment_request(
        table_id=table.pk, ruleset_id=standard_rules.pk, manager=manager, reason="again"
    )
    assert again.previous_id is None
    with pytest.raises(ConfigurationRefused) as pending:
        services.ruleset_deployment_request(
            table_id=table.pk, ruleset_id=standard_rules.pk, manager=manager
        )
    assert pending.value.code == "deployment_pending"
    services.ruleset_deployment_approve(deployment_id=again.pk, manager=other_manager)
    services.table_open(table_id=table.pk, supervisor=supervisor)
    assert Table.objects.get(pk=table.pk).is_open


def test_the_console_floor_opens_without_a_second_manager(manager, supervisor, pit, standard_rules):
    table = services.table_create_as_approved(
        manager=manager,
        name="UTH 9",
        pit_id=pit.pk,
        min_bet_cents=1_000,
        max_bet_cents=20_000,
        ruleset_id=standard_rules.pk,
    )
    assert not RulesetDeployment.objects.filter(table=table).exists()
    services.table_open(table_id=table.pk, supervisor=supervisor)
    assert Table.objects.get(pk=table.pk).is_open


def test_the_pit_refuses_to_open_it_in_words_and_shows_what_waits(
    manager, other_manager, supervisor, pit, standard_rules
):
    table = _create(manager, pit, standard_rules)
    asked = RulesetDeployment.objects.get(table=table)
    before = _state(table)
    answer = _client(supervisor, "fr").post(
        f"/pit/tables/{table.pk}/open/", {"confirm": "yes"}, follow=True
    )
    assert "approbation d’un second directeur" in answer.content.decode()
    assert _state(table) == before
    page = _client(supervisor).get(f"/pit/tables/{table.pk}/").content.decode()
    assert "data-ruleset-awaits-approval" in page
    assert "Its first rule set waits for a second manager" in page
    floor = _client(other_manager).get("/pit/").content.decode()
    assert f'data-kind="ruleset" data-id="{asked.pk}"' in floor
    assert "First rule set of the new table UTH 9 to approve" in floor
    # the second manager approves it in the pit's queue, and the pit opens it
    _client(other_manager).post(f"/pit/deployments/{asked.pk}/", {"decision": "approve"})
    page = _client(supervisor).get(f"/pit/tables/{table.pk}/").content.decode()
    assert "data-ruleset-awaits-approval" not in page
    _client(supervisor).post(f"/pit/tables/{table.pk}/open/", {"confirm": "yes"})
    assert Table.objects.get(pk=table.pk).is_open


def test_a_table_added_in_the_admin_waits_for_a_second_manager_too(
    client, manager, other_manager, supervisor, pit, standard_rules
):
    sync_role_permissions()  # the test database's post_migrate ran before our admin loaded
    manager.refresh_from_db()
    client.force_login(manager)
    response = client.post(
        reverse("admin:tables_table_add"),
        {
            "name": "UTH 9",
            "pit": pit.pk,
            "seats": "7",
            "min_bet_cents": "10,00",
            "max_bet_cents": "200,00",
            "bank": "",
            "ruleset": standard_rules.pk,
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    table = Table.objects.get(name="UTH 9")
    assert not table.ruleset_approved
    asked = RulesetDeployment.objects.get(table=table)
    assert (asked.state, asked.previous_id, asked.requested_by) == ("requested", None, manager)
    with pytest.raises(IllegalTransition):
        services.table_open(table_id=table.pk, supervisor=supervisor)
    with pytest.raises(TwoPeopleRequired):
        services.ruleset_deployment_approve(deployment_id=asked.pk, manager=manager)
    services.ruleset_deployment_approve(deployment_id=asked.pk, manager=other_manager)
    services.table_open(table_id=table.pk, supervisor=supervisor)
    assert Table.objects.get(pk=table.pk).is_open
