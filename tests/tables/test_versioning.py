"""Rule sets and paytables are versions: a version a round used never changes again."""

import pytest

from casino.errors import TwoPeopleRequired
from casino.models import AuditEntry
from tables import services
from tables.errors import IllegalTransition, VersionLocked
from tables.models import Paytable, RuleSet, RulesetDeployment, Table
from tables.rules.ruleset import parse_rules


def _used_by_a_round(paytable):
    Paytable.objects.filter(pk=paytable.pk).update(used_at="2026-11-29T12:00:00Z")


def test_an_unused_rule_set_is_revised_in_place(manager, standard_rules):
    revised = services.ruleset_revise(
        ruleset_id=standard_rules.pk, manager=manager, preflop_multiples=[4]
    )
    assert revised.pk == standard_rules.pk
    assert revised.version == 1
    assert RuleSet.objects.get(pk=standard_rules.pk).preflop_multiples == [4]


def test_a_used_rule_set_is_never_changed_a_change_makes_version_two(manager, standard_rules):
    services.ruleset_mark_used(ruleset_id=standard_rules.pk)
    before = RuleSet.objects.get(pk=standard_rules.pk).engine_rules()

    v2 = services.ruleset_revise(
        ruleset_id=standard_rules.pk, manager=manager, payout_unit_cents=25
    )

    assert (v2.name, v2.version) == ("Standard 3x/4x", 2)
    assert v2.pk != standard_rules.pk
    assert v2.used_at is None
    assert v2.engine_rules()["payout_unit_cents"] == 25
    assert parse_rules(v2.engine_rules()).payout_unit_cents == 25
    v1 = RuleSet.objects.get(pk=standard_rules.pk)
    assert v1.engine_rules() == before
    assert v1.payout_unit_cents == 1
    assert v1.used_at is not None


def test_the_next_version_follows_the_highest_of_the_family(manager, standard_rules):
    services.ruleset_mark_used(ruleset_id=standard_rules.pk)
    v2 = services.ruleset_revise(ruleset_id=standard_rules.pk, manager=manager, payout_unit_cents=5)
    # Revising v1 again while v2 is still a draft makes v3, not a second v2.
    v3 = services.ruleset_revise(
        ruleset_id=standard_rules.pk, manager=manager, payout_unit_cents=10
    )
    assert (v2.version, v3.version) == (2, 3)
    assert list(
        RuleSet.objects.filter(name="Standard 3x/4x").values_list("version", flat=True)
    ) == [1, 2, 3]


def test_the_model_refuses_to_save_a_used_version(standard_rules):
    stale = RuleSet.objects.get(pk=standard_rules.pk)  # loaded before the first round
    services.ruleset_mark_used(ruleset_id=standard_rules.pk)
    stale.payout_unit_cents = 25
    with pytest.raises(VersionLocked):
        stale.save()
    assert RuleSet.objects.get(pk=standard_rules.pk).payout_unit_cents == 1


def test_the_model_refuses_to_delete_a_used_version(trips_c):
    fresh = Paytable.objects.get(pk=trips_c.pk)
    _used_by_a_round(trips_c)
    with pytest.raises(VersionLocked):
        fresh.delete()
    assert Paytable.objects.filter(pk=trips_c.pk).exists()


def test_marking_a_rule_set_used_freezes_its_paytables(standard_rules, blind_a, trips_c):
    services.ruleset_mark_used(ruleset_id=standard_rules.pk)
    assert Paytable.objects.get(pk=blind_a.pk).is_used
    assert Paytable.objects.get(pk=trips_c.pk).is_used


def test_marking_used_twice_keeps_the_first_use_and_audits_once(standard_rules):
    first = services.ruleset_mark_used(ruleset_id=standard_rules.pk).used_at
    again = services.ruleset_mark_used(ruleset_id=standard_rules.pk).used_at
    assert again == first
    assert AuditEntry.objects.filter(code="tables.ruleset.used").count() == 1


def test_a_used_paytable_change_makes_the_next_version(manager, trips_c):
    _used_by_a_round(trips_c)
    v2 = services.paytable_revise(paytable_id=trips_c.pk, manager=manager, preset="A")
    assert (v2.name, v2.version, v2.kind, v2.preset) == ("Trips C", 2, "trips", "A")
    assert v2.lines["full_house"] == "9:1"  # Trips A pays 9:1 on a full house
    v1 = Paytable.objects.get(pk=trips_c.pk)
    assert (v1.preset, v1.lines["full_house"]) == ("C", "8:1")


def test_the_table_moves_to_the_new_version_while_closed_once_a_second_manager_approves(
    manager, other_manager, supervisor, closed_table, standard_rules
):
    services.ruleset_mark_used(ruleset_id=standard_rules.pk)
    v2 = services.ruleset_revise(
        ruleset_id=standard_rules.pk, manager=manager, preflop_multiples=[4]
    )
    # One manager alone no longer deploys (issue 23, 2): he asks, a second one approves.
    with pytest.raises(IllegalTransition) as refused:
        services.table_configure(table_id=closed_table.pk, manager=manager, ruleset_id=v2.pk)
    assert refused.value.code == "second_manager_required"
    asked = services.ruleset_deployment_request(
        table_id=closed_table.pk, ruleset_id=v2.pk, manager=manager
    )
    closed_table.refresh_from_db()
    assert closed_table.ruleset_id == standard_rules.pk
    with pytest.raises(TwoPeopleRequired):
        services.ruleset_deployment_approve(deployment_id=asked.pk, manager=manager)
    closed_table.refresh_from_db()
    assert closed_table.ruleset_id == standard_rules.pk
    services.ruleset_deployment_approve(deployment_id=asked.pk, manager=other_manager)
    table = Table.objects.get(pk=closed_table.pk)
    assert table.ruleset.version == 2
    assert table.ruleset.engine_rules()["preflop_multiples"] == [4]
    codes = list(
        AuditEntry.objects.filter(code__startswith="tables.ruleset.deployment").values_list(
            "code", "actor_id"
        )
    )
    assert codes == [
        ("tables.ruleset.deployment_requested", manager.pk),
        ("tables.ruleset.deployment_approved", other_manager.pk),
    ]


def test_an_open_table_keeps_its_rules_until_it_closes(
    manager, other_manager, open_table, standard_rules
):
    v2 = services.ruleset_revise(
        ruleset_id=standard_rules.pk, manager=manager, new_version=True, preflop_multiples=[4]
    )
    asked = services.ruleset_deployment_request(
        table_id=open_table.pk, ruleset_id=v2.pk, manager=manager
    )
    with pytest.raises(IllegalTransition):
        services.ruleset_deployment_approve(deployment_id=asked.pk, manager=other_manager)
    open_table.refresh_from_db()
    assert open_table.ruleset_id == standard_rules.pk
    assert RulesetDeployment.objects.get(pk=asked.pk).state == "requested"  # it waits


def test_a_new_version_is_audited_with_before_and_after(manager, standard_rules):
    services.ruleset_mark_used(ruleset_id=standard_rules.pk)
    v2 = services.ruleset_revise(
        ruleset_id=standard_rules.pk, manager=manager, trips_on_fold="lost"
    )
    entry = AuditEntry.objects.get(code="tables.ruleset.versioned")
    assert entry.actor == manager
    assert entry.subject_id == str(v2.pk)
    assert entry.data["from_version"] == 1 and entry.data["version"] == 2
    assert entry.data["before"]["trips_on_fold"] == "stays"
    assert entry.data["after"]["trips_on_fold"] == "lost"


def test_engine_rules_are_what_the_engine_parses(manager, standard_rules):
    rules = parse_rules(standard_rules.engine_rules())
    assert rules.preflop_multiples == (3, 4)
    assert rules.blind_paytable.to_json()["flush"] == "3:2"
    assert rules.trips_paytable.to_json()["full_house"] == "8:1"


def test_deploying_a_version_moves_the_closed_tables_and_leaves_the_open_ones(
    manager, other_manager, supervisor, pit, standard_rules
):
    from tests.tables.factories import make_table

    closed = make_table(manager, pit=pit, ruleset=standard_rules, name="UTH 1")
    playing = make_table(manager, pit=pit, ruleset=standard_rules, name="UTH 2")
    services.table_open(table_id=playing.pk, supervisor=supervisor)
    services.ruleset_mark_used(ruleset_id=standard_rules.pk)
    v2 = services.ruleset_revise(
        ruleset_id=standard_rules.pk, manager=manager, trips_on_fold="lost"
    )

    asked, still_open = services.ruleset_deploy(ruleset_id=v2.pk, manager=manager)

    assert [d.table.name for d in asked] == ["UTH 1"]
    assert [t.name for t in still_open] == ["UTH 2"]
    closed.refresh_from_db()
    assert closed.ruleset_id == standard_rules.pk  # asked for, not deployed yet
    services.ruleset_deployment_approve(deployment_id=asked[0].pk, manager=other_manager)
    closed.refresh_from_db()
    playing.refresh_from_db()
    assert (closed.ruleset_id, playing.ruleset_id) == (v2.pk, standard_rules.pk)
