"""Paytables as data: the presets line by line, and what an explicit table may hold."""

import pytest

from tables.rules.errors import InputError
from tables.rules.paytables import (
    BLIND_PRESETS,
    DEFAULT_ENVY,
    DEFAULT_PROGRESSIVE,
    TRIPS_PRESETS,
    Cents,
    Odds,
    Percent,
    TableKind,
    parse_paytable,
)


def as_text(table):
    return table.to_json()


def test_blind_a_is_the_standard_table():
    assert as_text(BLIND_PRESETS["A"]) == {
        "straight": "1:1",
        "flush": "3:2",
        "full_house": "3:1",
        "four_of_a_kind": "10:1",
        "straight_flush": "50:1",
        "royal_flush": "500:1",
    }


def test_blind_b_pushes_a_straight():
    assert "straight" not in BLIND_PRESETS["B"]
    assert as_text(BLIND_PRESETS["B"]) == {
        k: v for k, v in as_text(BLIND_PRESETS["A"]).items() if k != "straight"
    }


@pytest.mark.parametrize(
    "name, pays",
    [
        # RF, SF, quads, full house, flush, straight, trips (each N:1)
        ("A", (50, 40, 30, 9, 7, 4, 3)),
        ("B", (50, 40, 30, 8, 6, 5, 3)),
        ("C", (50, 40, 30, 8, 7, 4, 3)),
        ("D", (50, 40, 20, 7, 6, 5, 3)),
    ],
)
def test_trips_presets_are_the_four_pennsylvania_tables(name, pays):
    order = (
        "royal_flush",
        "straight_flush",
        "four_of_a_kind",
        "full_house",
        "flush",
        "straight",
        "three_of_a_kind",
    )
    table = TRIPS_PRESETS[name]
    assert [table.get(c) for c in order] == [Odds(n, 1) for n in pays]
    assert table.get("two_pair") is None


def test_the_default_progressive_and_envy_tables_are_the_specs():
    assert as_text(DEFAULT_PROGRESSIVE) == {
        "royal_flush": "100%",
        "straight_flush": "10%",
        "four_of_a_kind": "300:1",
        "full_house": "50:1",
        "flush": "40:1",
        "straight": "30:1",
        "three_of_a_kind": "9:1",
    }
    assert as_text(DEFAULT_ENVY) == {"royal_flush": 100000, "straight_flush": 10000}


def test_odds_pay_n_for_m_rounded_down_to_the_cent():
    assert Odds(3, 2).winnings(2475) == 3712  # 3,712.5
    assert Odds(500, 1).winnings(1000) == 500000


def test_a_percentage_is_kept_in_ppm_and_taken_rounded_down():
    table = parse_paytable(TableKind.PROGRESSIVE, {"flush": "12.5%", "royal_flush": "100%"}, "p")
    assert table.get("flush") == Percent(125000)
    assert Percent(125000).of(1001) == 125  # 125.125
    assert table.get("royal_flush") == Percent(1_000_000)
    assert as_text(table) == {"flush": "12.5%", "royal_flush": "100%"}


def test_envy_values_are_cents():
    assert parse_paytable(TableKind.ENVY, {"flush": 0}, "e").get("flush") == Cents(0)


@pytest.mark.parametrize(
    "kind, table, message",
    [
        (TableKind.TRIPS, {"flush": "7x1"}, 'rules.t.flush: "7x1" is not odds N:M'),
        (TableKind.TRIPS, {"flush": "3:0"}, 'rules.t.flush: "3:0" is not odds N:M'),
        (TableKind.TRIPS, {"flush": "x:2"}, 'rules.t.flush: "x:2" is not odds N:M'),
        (TableKind.TRIPS, {"flush": "-3:1"}, 'rules.t.flush: "-3:1" is negative'),
        (TableKind.BLIND, {"flush": 3}, "rules.t.flush: 3 is not odds N:M"),
        (TableKind.BLIND, {"flush": "10%"}, 'rules.t.flush: "10%" is a percentage of the meter'),
        (TableKind.ENVY, {"flush": "10%"}, 'rules.t.flush: "10%" is not an amount'),
        (TableKind.ENVY, {"flush": "1:1"}, 'rules.t.flush: "1:1" is not an amount'),
        (TableKind.ENVY, {"flush": -5}, "rules.t.flush: -5 is negative"),
        (TableKind.ENVY, {"flush": True}, "rules.t.flush: true is not an amount"),
        (TableKind.PROGRESSIVE, {"flush": "150%"}, 'rules.t.flush: "150%" is outside 0% to 100%'),
        (TableKind.PROGRESSIVE, {"flush": "0%"}, 'rules.t.flush: "0%" is outside 0% to 100%'),
        (TableKind.PROGRESSIVE, {"flush": 1000}, "rules.t.flush: 1000 is not odds N:M or a"),
        (TableKind.TRIPS, {"flushes": "1:1"}, "rules.t.flushes: not a hand category"),
        (TableKind.TRIPS, ["flush"], 'rules.t: ["flush"] is not a paytable'),
    ],
)
def test_an_explicit_table_is_checked_line_by_line(kind, table, message):
    with pytest.raises(InputError) as refused:
        parse_paytable(kind, table, "rules.t")
    assert refused.value.code == "bad_paytable"
    assert refused.value.message.startswith(message), refused.value.message


def test_lines_come_out_in_category_order_whatever_the_input_order():
    table = parse_paytable(TableKind.TRIPS, {"royal_flush": "50:1", "straight": "4:1"}, "t")
    assert table.categories() == ("straight", "royal_flush")
    assert table == parse_paytable(TableKind.TRIPS, {"straight": "4:1", "royal_flush": "50:1"}, "t")
