"""The admin and the services refuse what the rules engine refuses, with its message."""

import json

import pytest
from django.contrib.admin.sites import AdminSite
from django.test import RequestFactory

from casino.models import AuditEntry
from tables import services
from tables.admin import PaytableAdmin, RuleSetAdmin, TableAdmin
from tables.engine_text import engine_message
from tables.errors import ConfigurationRefused, IllegalTransition
from tables.models import Paytable, RuleSet, Table
from tables.rules.errors import InputError
from tables.rules.ruleset import parse_rules


def _admin_form(admin_class, model, manager, data, instance=None):
    request = RequestFactory().post("/")
    request.user = manager
    model_admin = admin_class(model, AdminSite())
    form_class = model_admin.get_form(request, instance, change=instance is not None)
    return form_class(data=data, instance=instance)


def _ruleset_data(blind, trips, **overrides):
    data = {
        "name": "Maison",
        "preflop_multiples": "[3, 4]",
        "blind_paytable": blind.pk,
        "trips_paytable": trips.pk,
        "trips_on_fold": "stays",
        "ante_when_dealer_not_qualified": "push",
        "envy_min_wager_cents": 0,
        "progressive_wager_cents": 100,
        "payout_unit_cents": 1,
        "max_payout_cents": "",
    }
    data.update(overrides)
    return data


def test_the_admin_accepts_a_rule_set_the_engine_accepts(manager, blind_a, trips_c):
    form = _admin_form(RuleSetAdmin, RuleSet, manager, _ruleset_data(blind_a, trips_c))
    assert form.is_valid(), form.errors


def _engine_message(rules: dict, *, under: str | None = None) -> str:
    """What the engine says of `rules`, in the active language (the tests speak French), as
    shown on the field that stands for the path `under`."""
    with pytest.raises(InputError) as refused:
        parse_rules(rules)
    return engine_message(refused.value, under=under)


@pytest.mark.parametrize(
    "field, typed, value",
    [
        ("payout_unit_cents", "0", 0),
        ("progressive_wager_cents", "0", 0),
        ("max_payout_cents", "0", 0),
        # A negative amount ("-1") is refused by the amount field itself, before the engine
        # (tests/tables/test_admin_backoffice.py).
        ("preflop_multiples", "3", 3),
        ("preflop_multiples", "[4, 4]", [4, 4]),
        ("preflop_multiples", "[0]", [0]),
    ],
)
def test_the_admin_shows_the_engines_refusal_on_the_field(
    manager, blind_a, trips_c, field, typed, value
):
    form = _admin_form(
        RuleSetAdmin, RuleSet, manager, _ruleset_data(blind_a, trips_c, **{field: typed})
    )
    assert not form.is_valid()
    (shown,) = form.errors[field]
    # On its field, the engine's sentence needs no name of the field, and never the raw path.
    assert shown == _engine_message({field: value}, under=f"rules.{field}")
    assert "rules." not in shown


@pytest.mark.parametrize(
    "change",
    [{"payout_unit_cents": 0}, {"preflop_multiples": [2, 2]}, {"max_payout_cents": -5}],
)
def test_the_service_refuses_what_the_engine_refuses(manager, standard_rules, change):
    with pytest.raises(ConfigurationRefused) as refused:
        services.ruleset_revise(ruleset_id=standard_rules.pk, manager=manager, **change)
    ((key, _value),) = change.items()
    assert _engine_message(change, under=f"rules.{key}") in refused.value.message
    assert list(refused.value.errors) == list(change)
    assert RuleSet.objects.get(pk=standard_rules.pk).engine_rules()["payout_unit_cents"] == 1
    assert not AuditEntry.objects.filter(code="tables.ruleset.revised").exists()


@pytest.mark.parametrize(
    "kind, lines, where",
    [
        ("trips", {"flush": "3-2"}, "rules.trips_paytable.flush"),
        ("trips", {"royal_flush": "100%"}, "rules.trips_paytable.royal_flush"),
        ("trips", {"full_boat": "8:1"}, "rules.trips_paytable"),
        ("blind", {"flush": "3:0"}, "rules.blind_paytable.flush"),
        ("envy", {"royal_flush": "1000"}, "rules.envy.royal_flush"),
        ("progressive", {"royal_flush": "120%"}, "rules.progressive_paytable.royal_flush"),
    ],
)
def test_an_explicit_paytable_the_engine_refuses_is_refused_by_admin_and_service(
    manager, kind, lines, where
):
    key = Paytable.RULE_KEY[kind]
    with pytest.raises(InputError) as refused:
        parse_rules({key: lines})
    assert refused.value.path.startswith(where)
    # On the paytable's lines, the engine's sentence names the line in words, not its path.
    engine_says = engine_message(refused.value, under=f"rules.{key}")
    assert "rules." not in engine_says
    form = _admin_form(
        PaytableAdmin,
        Paytable,
        manager,
        {"name": "Maison", "kind": kind, "preset": "", "lines": json.dumps(lines)},
    )
    assert not form.is_valid()
    (shown,) = form.errors["lines"]
    assert engine_says in shown

    with pytest.raises(ConfigurationRefused) as refused:
        services.paytable_create(manager=manager, kind=kind, name="Maison", lines=lines)
    assert engine_says in refused.value.message
    assert not Paytable.objects.filter(name="Maison").exists()


def test_an_explicit_paytable_the_engine_accepts_is_kept_as_given(manager):
    table = services.paytable_create(
        manager=manager,
        kind="progressive",
        name="Progressif maison",
        lines={"royal_flush": "100%", "straight_flush": "10%", "flush": "40:1"},
    )
    assert table.engine_value() == {"royal_flush": "100%", "straight_flush": "10%", "flush": "40:1"}


def test_a_preset_takes_the_engines_lines(manager):
    blind_b = services.paytable_create(manager=manager, kind="blind", name="Blind B", preset="B")
    assert blind_b.engine_value() == "B"
    assert "straight" not in blind_b.lines  # Blind B pushes a straight
    assert blind_b.lines["flush"] == "3:2"


@pytest.mark.parametrize("kind, preset", [("trips", "E"), ("blind", "C"), ("envy", "A")])
def test_an_unknown_preset_is_refused(manager, kind, preset):
    with pytest.raises(ConfigurationRefused) as refused:
        services.paytable_create(manager=manager, kind=kind, name="X", preset=preset)
    assert "preset" in refused.value.errors


def test_a_trips_table_cannot_stand_as_the_blind_table(manager, trips_c):
    with pytest.raises(ConfigurationRefused) as refused:
        services.ruleset_create(
            manager=manager,
            name="Mixed",
            blind_paytable_id=trips_c.pk,
            trips_paytable_id=trips_c.pk,
        )
    assert "blind_paytable" in refused.value.errors


def test_a_family_name_is_not_reused_for_a_new_family(manager, standard_rules, blind_a, trips_c):
    form = _admin_form(
        RuleSetAdmin, RuleSet, manager, _ruleset_data(blind_a, trips_c, name="Standard 3x/4x")
    )
    assert not form.is_valid()
    assert "name" in form.errors


# Table limits and seats -------------------------------------------------------------------


def _table_data(pit, ruleset, **overrides):
    data = {
        "name": "UTH 9",
        "pit": pit.pk,
        "seats": 7,
        "min_bet_cents": 1_000,
        "max_bet_cents": 20_000,
        "bank": "",
        "ruleset": ruleset.pk,
    }
    data.update(overrides)
    return data


@pytest.mark.parametrize(
    "overrides, field",
    [
        ({"seats": 0}, "seats"),
        ({"seats": 8}, "seats"),
        ({"min_bet_cents": 0}, "min_bet_cents"),
        ({"min_bet_cents": -500}, "min_bet_cents"),
        ({"min_bet_cents": 2_000, "max_bet_cents": 1_999}, "max_bet_cents"),
    ],
)
def test_seats_and_limits_out_of_bounds_are_refused(manager, pit, standard_rules, overrides, field):
    form = _admin_form(TableAdmin, Table, manager, _table_data(pit, standard_rules, **overrides))
    assert not form.is_valid()
    assert field in form.errors

    kwargs = {
        "seats": overrides.get("seats", 7),
        "min_bet_cents": overrides.get("min_bet_cents", 1_000),
        "max_bet_cents": overrides.get("max_bet_cents", 20_000),
    }
    with pytest.raises(ConfigurationRefused) as refused:
        services.table_create(
            manager=manager, name="UTH 9", pit_id=pit.pk, ruleset_id=standard_rules.pk, **kwargs
        )
    assert field in refused.value.errors
    assert not Table.objects.filter(name="UTH 9").exists()


def test_a_table_with_seven_seats_and_max_equal_to_min_is_accepted(manager, pit, standard_rules):
    table = services.table_create(
        manager=manager,
        name="UTH 9",
        pit_id=pit.pk,
        seats=7,
        min_bet_cents=5_000,
        max_bet_cents=5_000,
        ruleset_id=standard_rules.pk,
    )
    assert (table.seats, table.min_bet_cents, table.max_bet_cents) == (7, 5_000, 5_000)
    assert table.status == Table.Status.CLOSED


@pytest.mark.parametrize(
    "low, high, accepted",
    [
        (1_000, 10_000, True),
        (1_000, 20_000, True),
        (500, 15_000, True),
        (1_000, 15_000, False),
        (1_000, 1_000, False),
        (1_000, 40_000, False),
        (300, 7_000, False),
    ],
)
def test_the_french_decree_ratios_are_an_option(
    settings, manager, pit, standard_rules, low, high, accepted
):
    settings.TABLES_MAX_TO_MIN_RATIOS = (10, 20, 30)
    form = _admin_form(
        TableAdmin,
        Table,
        manager,
        _table_data(pit, standard_rules, min_bet_cents=low, max_bet_cents=high),
    )
    assert form.is_valid() is accepted
    if not accepted:
        assert "10, 20, 30" in " ".join(form.errors["max_bet_cents"])


def test_a_bank_with_another_progressive_wager_is_refused(manager, pit, standard_rules):
    from tests.tables.factories import make_bank

    five_euro_bank = make_bank(slug="gros-lot", wager_cents=500)
    form = _admin_form(
        TableAdmin, Table, manager, _table_data(pit, standard_rules, bank=five_euro_bank.pk)
    )
    assert not form.is_valid()
    assert "500" in " ".join(form.errors["bank"])
    with pytest.raises(ConfigurationRefused):
        services.table_create(
            manager=manager,
            name="UTH 9",
            pit_id=pit.pk,
            min_bet_cents=1_000,
            max_bet_cents=20_000,
            ruleset_id=standard_rules.pk,
            bank_id=five_euro_bank.pk,
        )


def test_a_table_belongs_to_at_most_one_bank_and_can_leave_it(manager, closed_table, bank):
    table = services.table_configure(table_id=closed_table.pk, manager=manager, bank_id=bank.pk)
    assert table.bank == bank
    assert list(bank.tables.all()) == [table]
    table = services.table_configure(table_id=closed_table.pk, manager=manager, bank_id=None)
    assert table.bank is None


def test_the_admin_never_changes_a_tables_rule_set(manager, pit, open_table, standard_rules):
    """Issue 23, 2: another version is deployed with a second manager's approval, never in
    the table's form (open or closed), which shows the rule set read-only."""
    v2 = services.ruleset_revise(ruleset_id=standard_rules.pk, manager=manager, new_version=True)
    form = _admin_form(
        TableAdmin,
        Table,
        manager,
        _table_data(pit, v2, name=open_table.name),
        instance=open_table,
    )
    assert "ruleset" not in form.fields
    assert form.is_valid(), form.errors
    form.save()
    assert Table.objects.get(pk=open_table.pk).ruleset_id == standard_rules.pk


def test_a_missing_paytable_or_rule_set_is_a_field_error(manager, pit, blind_a):
    with pytest.raises(ConfigurationRefused) as refused:
        services.ruleset_create(
            manager=manager, name="Ghost", blind_paytable_id=blind_a.pk, trips_paytable_id=999_999
        )
    assert list(refused.value.errors) == ["trips_paytable"]
    with pytest.raises(ConfigurationRefused) as refused:
        services.table_create(
            manager=manager,
            name="UTH 9",
            pit_id=pit.pk,
            min_bet_cents=1_000,
            max_bet_cents=10_000,
            ruleset_id=999_999,
        )
    assert list(refused.value.errors) == ["ruleset"]


def test_an_open_table_keeps_its_bank_until_it_closes(manager, supervisor, pit, open_table, bank):
    with pytest.raises(IllegalTransition) as refused:
        services.table_configure(table_id=open_table.pk, manager=manager, bank_id=bank.pk)
    assert refused.value.message == (
        "UTH 1 est ouverte\u00a0: fermez-la d’abord pour changer ceci\u00a0: jackpot progressif."
    )
    form = _admin_form(
        TableAdmin,
        Table,
        manager,
        _table_data(pit, open_table.ruleset, name=open_table.name, bank=bank.pk),
        instance=open_table,
    )
    assert not form.is_valid()
    assert "bank" in form.errors
    services.table_close(table_id=open_table.pk, supervisor=supervisor)
    table = services.table_configure(table_id=open_table.pk, manager=manager, bank_id=bank.pk)
    assert table.bank == bank


def test_limits_and_seats_may_change_on_an_open_table(manager, open_table):
    table = services.table_configure(
        table_id=open_table.pk, manager=manager, seats=6, min_bet_cents=2_500, max_bet_cents=50_000
    )
    assert (table.seats, table.min_bet_cents, table.max_bet_cents, table.is_open) == (
        6,
        2_500,
        50_000,
        True,
    )


def test_a_preset_with_other_lines_is_refused(manager):
    with pytest.raises(ConfigurationRefused) as refused:
        services.paytable_create(
            manager=manager, kind="trips", name="Trips C", preset="C", lines={"flush": "9:1"}
        )
    assert list(refused.value.errors) == ["lines"]
