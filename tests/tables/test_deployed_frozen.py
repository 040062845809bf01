"""A rule set or paytable that tables play is frozen like a used one: a change makes the next
version, which reaches the tables only when they are moved to it."""

import json

import pytest
from django.urls import reverse

from casino.permissions import sync_role_permissions
from tables import services
from tables.errors import VersionLocked
from tables.models import Paytable, RuleSet, Table

ROYAL_1000 = {
    "royal_flush": "1000:1",
    "straight_flush": "40:1",
    "four_of_a_kind": "30:1",
    "full_house": "8:1",
    "flush": "7:1",
    "straight": "4:1",
    "three_of_a_kind": "3:1",
}


@pytest.fixture
def admin_manager(manager, client):
    sync_role_permissions()
    manager.refresh_from_db()
    client.force_login(manager)
    return manager


def _trips(table: Table) -> str | dict:
    return Table.objects.get(pk=table.pk).ruleset.engine_rules()["trips_paytable"]


def test_the_trips_table_of_an_open_table_saved_in_the_admin_becomes_version_2(
    client, admin_manager, open_table, trips_c
):
    url = reverse("admin:tables_paytable_change", args=[trips_c.pk])
    data = {"preset": "", "lines": json.dumps(ROYAL_1000), "confirm": "on"}  # far from presets
    response = client.post(url, data, follow=True)
    assert response.status_code == 200
    assert "est en place sur des tables et ne change pas sous elles" in response.content.decode()
    v1 = Paytable.objects.get(pk=trips_c.pk)
    v2 = Paytable.objects.get(name="Trips C", version=2)
    assert (v1.preset, v2.preset, v2.lines["royal_flush"]) == ("C", "", "1000:1")
    assert _trips(open_table) == "C"  # the open table still plays version 1


def test_a_deployed_version_is_never_saved_in_place(open_table, standard_rules, trips_c):
    trips_c.lines = ROYAL_1000
    with pytest.raises(VersionLocked, match="en place sur des tables"):
        trips_c.save()
    standard_rules.payout_unit_cents = 25
    with pytest.raises(VersionLocked):
        standard_rules.save()
    assert RuleSet.objects.get(pk=standard_rules.pk).payout_unit_cents == 1


def test_revising_a_deployed_rule_set_makes_the_next_version(manager, closed_table, standard_rules):
    v2 = services.ruleset_revise(
        ruleset_id=standard_rules.pk, manager=manager, payout_unit_cents=25
    )
    assert (v2.name, v2.version, v2.payout_unit_cents) == (standard_rules.name, 2, 25)
    assert RuleSet.objects.get(pk=standard_rules.pk).payout_unit_cents == 1
    assert Table.objects.get(pk=closed_table.pk).ruleset_id == standard_rules.pk


def test_a_new_paytable_version_reaches_the_closed_tables_through_a_new_rule_set(
    manager, other_manager, open_table, other_table, standard_rules, trips_c
):
    trips_v2 = services.paytable_revise(
        paytable_id=trips_c.pk, manager=manager, preset="", lines=ROYAL_1000
    )
    assert trips_v2.version == 2
    assert _trips(other_table) == "C"

    (rules_v2,) = services.ruleset_follow_paytable(paytable_id=trips_v2.pk, manager=manager)
    assert (rules_v2.name, rules_v2.version) == (standard_rules.name, 2)
    assert rules_v2.trips_paytable_id == trips_v2.pk
    assert rules_v2.blind_paytable_id == standard_rules.blind_paytable_id

    asked, still_open = services.ruleset_deploy(ruleset_id=rules_v2.pk, manager=manager)
    assert ([d.table for d in asked], still_open) == ([other_table], [open_table])
    services.ruleset_deployment_approve(deployment_id=asked[0].pk, manager=other_manager)
    assert _trips(other_table)["royal_flush"] == "1000:1"
    assert _trips(open_table) == "C"
    assert services.ruleset_follow_paytable(paytable_id=trips_v2.pk, manager=manager) == [
        RuleSet.objects.get(name=standard_rules.name, version=3)
    ]  # the open table still plays v1, which uses Trips C v1


def test_a_version_no_table_plays_and_no_round_used_still_changes_in_place(
    manager, standard_rules, trips_c
):
    same = services.paytable_revise(paytable_id=trips_c.pk, manager=manager, preset="A")
    assert (same.pk, same.version) == (trips_c.pk, 1)


def test_the_admin_shows_a_deployed_rule_set_read_only_and_says_why(
    client, admin_manager, open_table, other_table, standard_rules
):
    url = reverse("admin:tables_ruleset_change", args=[standard_rules.pk])
    html = client.get(url).content.decode()
    assert 'name="payout_unit_cents"' not in html
    assert "Des tables jouent cette version (UTH 1, UTH 2)" in html
    assert reverse("admin:tables_ruleset_new_version", args=[standard_rules.pk]) in html


def test_the_admin_offers_a_new_paytable_version_to_the_rule_sets(
    client, admin_manager, closed_table, standard_rules, trips_c
):
    html = client.get(reverse("admin:tables_paytable_change", args=[trips_c.pk])).content.decode()
    assert "par leurs règles du jeu (UTH 1)" in html
    trips_v2 = services.paytable_revise(
        paytable_id=trips_c.pk, manager=admin_manager, preset="", lines=ROYAL_1000
    )
    response = client.post(reverse("admin:tables_paytable_follow", args=[trips_v2.pk]))
    rules_v2 = RuleSet.objects.get(name=standard_rules.name, version=2)
    assert response["Location"] == reverse("admin:tables_ruleset_change", args=[rules_v2.pk])
    assert rules_v2.trips_paytable_id == trips_v2.pk
