"""Rule sets: defaults, every option, canonical JSON that parses back, clear refusals."""

import pytest

from tables.rules.errors import InputError
from tables.rules.paytables import BLIND_PRESETS, TRIPS_PRESETS
from tables.rules.ruleset import (
    DEFAULT_RULES,
    AnteWhenNotQualified,
    RuleSet,
    TripsOnFold,
    parse_rules,
)

DEFAULT_JSON = {
    "preflop_multiples": [3, 4],
    "blind_paytable": "A",
    "trips_paytable": "C",
    "trips_on_fold": "stays",
    "ante_when_dealer_not_qualified": "push",
    "progressive_paytable": {
        "three_of_a_kind": "9:1",
        "straight": "30:1",
        "flush": "40:1",
        "full_house": "50:1",
        "four_of_a_kind": "300:1",
        "straight_flush": "10%",
        "royal_flush": "100%",
    },
    "envy": {"straight_flush": 10000, "royal_flush": 100000},
    "envy_min_wager_cents": 0,
    "progressive_wager_cents": 100,
    "payout_unit_cents": 1,
    "max_payout_cents": None,
}


def test_no_rules_and_empty_rules_are_the_spec_defaults():
    assert parse_rules(None) == parse_rules({}) == RuleSet() == DEFAULT_RULES
    assert DEFAULT_RULES.to_json() == DEFAULT_JSON


@pytest.mark.parametrize(
    "key, value, attribute, expected",
    [
        ("preflop_multiples", [4], "preflop_multiples", (4,)),
        ("preflop_multiples", [4, 2], "preflop_multiples", (2, 4)),  # kept sorted
        ("blind_paytable", "B", "blind_paytable", BLIND_PRESETS["B"]),
        ("trips_paytable", "A", "trips_paytable", TRIPS_PRESETS["A"]),
        ("trips_paytable", "B", "trips_paytable", TRIPS_PRESETS["B"]),
        ("trips_paytable", "D", "trips_paytable", TRIPS_PRESETS["D"]),
        ("trips_on_fold", "lost", "trips_on_fold", TripsOnFold.LOST),
        (
            "ante_when_dealer_not_qualified",
            "push_unless_dealer_wins",
            "ante_when_dealer_not_qualified",
            AnteWhenNotQualified.PUSH_UNLESS_DEALER_WINS,
        ),
        ("envy_min_wager_cents", 500, "envy_min_wager_cents", 500),
        ("progressive_wager_cents", 500, "progressive_wager_cents", 500),
        ("payout_unit_cents", 25, "payout_unit_cents", 25),
        ("max_payout_cents", 2000000, "max_payout_cents", 2000000),
    ],
)
def test_each_option_takes_its_value(key, value, attribute, expected):
    rules = parse_rules({key: value})
    assert getattr(rules, attribute) == expected
    assert rules != DEFAULT_RULES


@pytest.mark.parametrize(
    "obj",
    [
        {"preflop_multiples": [4], "blind_paytable": "B", "trips_paytable": "D"},
        {"trips_paytable": {"flush": "6:1", "straight": "5:1"}, "trips_on_fold": "lost"},
        {"progressive_paytable": {"royal_flush": "100%", "straight_flush": "7.5%"}},
        {"envy": {}, "max_payout_cents": 2000000, "payout_unit_cents": 25},
        {
            "blind_paytable": {
                "flush": "3:2",
                "straight": "1:1",
                "royal_flush": "500:1",
                "straight_flush": "50:1",
                "four_of_a_kind": "10:1",
                "full_house": "3:1",
            }
        },
    ],
)
def test_to_json_parses_back_to_the_same_rule_set(obj):
    rules = parse_rules(obj)
    assert parse_rules(rules.to_json()) == rules
    assert rules.to_json() == parse_rules(rules.to_json()).to_json()


def test_an_explicit_table_equal_to_a_preset_is_written_as_the_preset_name():
    rules = parse_rules({"blind_paytable": BLIND_PRESETS["A"].to_json()})
    assert rules.to_json()["blind_paytable"] == "A"
    assert rules == DEFAULT_RULES


def test_the_rule_set_is_immutable():
    with pytest.raises(AttributeError):
        DEFAULT_RULES.payout_unit_cents = 5  # type: ignore[misc]


@pytest.mark.parametrize(
    "obj, code, message",
    [
        ({"preflop_multiple": [4]}, "unknown_rule", "rules.preflop_multiple: unknown rule"),
        ({"preflop_multiples": []}, "bad_rule", "rules.preflop_multiples: [] is not a list"),
        ({"preflop_multiples": [0]}, "bad_rule", "rules.preflop_multiples[0]: 0 is not a Play"),
        ({"preflop_multiples": [4, 4]}, "bad_rule", "rules.preflop_multiples: [4, 4] lists"),
        ({"preflop_multiples": "4"}, "bad_rule", 'rules.preflop_multiples: "4" is not a list'),
        ({"blind_paytable": "C"}, "bad_paytable", 'rules.blind_paytable: "C" is not a known blind'),
        ({"trips_paytable": "E"}, "bad_paytable", 'rules.trips_paytable: "E" is not a known trips'),
        ({"progressive_paytable": "A"}, "bad_paytable", 'rules.progressive_paytable: "A" is not'),
        ({"trips_on_fold": "kept"}, "bad_rule", 'rules.trips_on_fold: "kept" is not "stays" or'),
        (
            {"ante_when_dealer_not_qualified": "lose"},
            "bad_rule",
            'rules.ante_when_dealer_not_qualified: "lose" is not "push" or',
        ),
        ({"envy_min_wager_cents": -1}, "bad_rule", "rules.envy_min_wager_cents: -1 is too small"),
        ({"progressive_wager_cents": 0}, "bad_rule", "rules.progressive_wager_cents: 0 is too"),
        ({"payout_unit_cents": 2.5}, "bad_rule", "rules.payout_unit_cents: 2.5 is not an integer"),
        ({"max_payout_cents": -100}, "bad_rule", "rules.max_payout_cents: -100 is too small"),
        ({"max_payout_cents": "20000"}, "bad_rule", 'rules.max_payout_cents: "20000" is not'),
        (
            {"trips_paytable": {"flush": "7x1"}},
            "bad_paytable",
            'rules.trips_paytable.flush: "7x1" is not odds N:M',
        ),
        (
            {"envy": {"royal_flush": "100%"}},
            "bad_paytable",
            'rules.envy.royal_flush: "100%" is not an amount',
        ),
        ("A", "bad_rule", 'rules: "A" is not an object of rules'),
    ],
)
def test_a_wrong_rule_is_refused_naming_the_key(obj, code, message):
    with pytest.raises(InputError) as refused:
        parse_rules(obj)
    assert refused.value.code == code
    assert refused.value.message.startswith(message), refused.value.message


def test_payout_rounding_is_down_to_the_unit():
    assert parse_rules({"payout_unit_cents": 25}).round_down(3712) == 3700
    assert DEFAULT_RULES.round_down(3712) == 3712
