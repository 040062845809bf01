"""The value of each option at a decision point, checked against the rules engine's own
settlement (river) and the par sheet (pre-flop), on hands made by hand."""

from fractions import Fraction
from itertools import combinations

import pytest

from tables.parsheet import Deck, analyse
from tables.parsheet.decisions import (
    cost,
    flop_values,
    preflop_values,
    river_values,
    seat_decisions,
    starting_hand,
)
from tables.rules import DECK, format_card, parse_cards, parse_rules, settle_json


def settled_mean(rules_json, hole, board):
    """The mean net of a river Play 1x over every dealer holding, by the engine's settle."""
    known = set(parse_cards([*hole, *board]))
    nets = []
    for dealer in combinations([c for c in DECK if c not in known], 2):
        out = settle_json(
            {
                "rules": rules_json,
                "board": board,
                "dealer": [format_card(c) for c in dealer],
                "seats": [
                    {
                        "seat": 1,
                        "ante": 200,
                        "blind": 200,
                        "hole": hole,
                        "play": {"street": "river", "multiple": 1},
                    }
                ],
            }
        )
        nets.append(out["seats"][0]["net"])
    return Fraction(sum(nets), 200 * len(nets))


@pytest.mark.parametrize(
    "rules",
    [{}, {"blind_paytable": "B", "ante_when_dealer_not_qualified": "push_unless_dealer_wins"}],
)
def test_a_made_flush_folded_on_the_river_costs_what_the_engine_says_it_would_win(rules):
    hole, board = ["As", "2s"], ["Ks", "9s", "5s", "3d", "8c"]
    values = river_values(parse_rules(rules), hole, board)
    assert values["1x"] == settled_mean(rules, hole, board)
    assert values["fold"] == -2
    assert cost(values, "fold") == values["1x"] + 2 > 2  # the nut flush: it never loses
    assert cost(values, "1x") == 0


def test_a_hopeless_river_call_costs_against_a_fold():
    hole, board = ["7c", "2d"], ["As", "Kh", "Qd", "Jc", "9s"]  # playing the board, nothing
    values = river_values(parse_rules({}), hole, board)
    assert values["1x"] == settled_mean({}, hole, board)
    assert cost(values, "1x") == -2 - values["1x"] > 0


def test_starting_hand_names():
    assert starting_hand(["Ah", "As"]) == "AA"
    assert starting_hand(["2c", "7d"]) == "72o"
    assert starting_hand(["Ks", "Qs"]) == "KQs"


def test_preflop_values_and_costs_come_from_the_par_sheet():
    sheet = analyse(parse_rules({}), Deck(tuple(range(4, 13)), 2))
    values = preflop_values(sheet, ["Ah", "As"])
    aces = next(h for h in sheet.preflop if h.name == "AA")
    assert values == {"check": aces.check, "3x": aces.bets[3], "4x": aces.bets[4]}
    assert aces.play == 4
    assert cost(values, "check") == aces.bets[4] - aces.check > 0


def test_a_seats_decisions_in_a_round():
    sheet = analyse(parse_rules({}), Deck(tuple(range(4, 13)), 2))
    hole, board = ["Ah", "As"], ["Ks", "9s", "6s", "Jh", "8c"]
    # Aces checked twice, then a river Play: the pre-flop check is the only mistake.
    found = seat_decisions(sheet, hole, board, play_street="river", multiple=1)
    assert [(d.street, d.chosen) for d in found] == [
        ("preflop", "check"),
        ("flop", "check"),
        ("river", "1x"),
    ]
    aces = next(h for h in sheet.preflop if h.name == "AA")
    assert found[0].cost == aces.bets[4] - aces.check > 0
    assert found[0].cost_cents(1_000) == found[0].cost * 1_000
    flop = flop_values(sheet, hole, board[:3])
    assert found[1].values == flop and found[1].cost == max(flop.values()) - flop["check"]
    assert found[2].values == river_values(sheet.rules, hole, board)
    # A pre-flop 4x ends the decisions there.
    assert [
        d.street for d in seat_decisions(sheet, hole, board, play_street="preflop", multiple=4)
    ] == ["preflop"]
    # A fold is the river's decision.
    assert seat_decisions(sheet, hole, board, play_street=None)[-1].chosen == "fold"
