"""Every fault of a rule set at once (`rules_errors`, `paytable_errors`), for a manager's form;
`parse_rules` still raises the first of them, so the settle CLI says what it always said."""

import json

import pytest

from tables.rules.cli import main
from tables.rules.errors import InputError
from tables.rules.paytables import TableKind, parse_paytable, paytable_errors
from tables.rules.ruleset import parse_rules, rules_errors

THREE_FAULTS = {
    "preflop_multiples": [4, 4],
    "payout_unit_cents": 0,
    "progressive_wager_cents": 0,
}


def _said(errors):
    return [(e.code, e.path, e.message) for e in errors]


def test_three_faults_of_a_rule_set_are_all_named_in_the_order_given():
    errors = rules_errors(THREE_FAULTS)
    assert [e.path for e in errors] == [
        "rules.preflop_multiples",
        "rules.payout_unit_cents",
        "rules.progressive_wager_cents",
    ]
    assert [e.key for e in errors] == [
        "rules.multiple_twice",
        "rules.unit_too_small",
        "rules.wager_too_small",
    ]
    assert all(isinstance(e, InputError) for e in errors)


def test_every_faulty_line_of_an_explicit_paytable_is_named():
    rules = {
        "trips_paytable": {"flush": "7x1", "straight": "4:1", "full_boat": "8:1", "pair": "-1:1"},
        "trips_on_fold": "sometimes",
    }
    assert [(e.path, e.key) for e in rules_errors(rules)] == [
        ("rules.trips_paytable.flush", "paytable.not_odds"),
        ("rules.trips_paytable.full_boat", "paytable.not_category"),
        ("rules.trips_paytable.pair", "paytable.negative_odds"),
        ("rules.trips_on_fold", "rules.not_choice"),
    ]


@pytest.mark.parametrize(
    "rules",
    [
        THREE_FAULTS,
        {"trips_paytable": {"flush": "7x1", "straight": "x"}, "payout_unit_cents": 0},
        {"blind_paytable": "Z", "envy": {"royal_flush": "1000"}, "typo": 1},
        {"envy": [1, 2], "max_payout_cents": 0},
        {"progressive_paytable": {"royal_flush": "120%", "flush": "40:0"}},
        {"preflop_multiples": [0, "3"], "envy_min_wager_cents": -1},
        ["not", "an", "object"],
    ],
)
def test_parse_rules_raises_the_first_of_every_fault(rules):
    errors = rules_errors(rules)
    assert errors
    with pytest.raises(InputError) as refused:
        parse_rules(rules)
    assert _said([refused.value]) == _said(errors[:1])


@pytest.mark.parametrize("rules", [None, {}, {"trips_paytable": "A", "payout_unit_cents": 25}])
def test_rules_the_engine_accepts_have_no_fault(rules):
    assert rules_errors(rules) == ()
    assert parse_rules(rules) is not None


def test_paytable_errors_names_each_line_and_parse_paytable_raises_the_first():
    table = {"flush": "3:0", "straight": "1:1", "royal_flush": "5%"}
    errors = paytable_errors(TableKind.BLIND, table, "blind")
    assert [(e.path, e.key) for e in errors] == [
        ("blind.flush", "paytable.zero_stake"),
        ("blind.royal_flush", "paytable.percent_not_progressive"),
    ]
    with pytest.raises(InputError) as refused:
        parse_paytable(TableKind.BLIND, table, "blind")
    assert _said([refused.value]) == _said(errors[:1])
    assert paytable_errors(TableKind.BLIND, {"flush": "3:2"}, "blind") == ()
    assert [e.key for e in paytable_errors(TableKind.ENVY, "x", "envy")] == ["paytable.not_object"]


def test_the_settle_cli_still_reports_only_the_first_fault(tmp_path, capsys):
    document = {
        "version": 1,
        "rules": {"payout_unit_cents": 0, "trips_paytable": {"flush": "7x1"}},
        "board": ["Ah", "Kh", "Qh", "2c", "3d"],
        "dealer": ["4s", "5s"],
        "seats": [
            {"seat": 1, "ante": 100, "blind": 100, "hole": ["9c", "9d"], "preflop": 4},
        ],
    }
    path = tmp_path / "round.json"
    path.write_text(json.dumps(document))
    assert main(["settle", str(path)]) == 2
    out = json.loads(capsys.readouterr().out)
    assert out == {
        "error": {
            "code": "bad_rule",
            "message": "rules.payout_unit_cents: 0 is too small: the payout unit is 1 cent or more",
        }
    }
