"""The cost of the decisions of hand-made rounds, checked by hand: on a 16-card deck (2, 7,
9 to ace in spades and hearts), the expected figures come from the independent brute force
(pre-flop and flop values) and from the engine's settlement over every dealer holding the
deck leaves (the river), never from the analysis that prices the rounds."""

from fractions import Fraction
from functools import cache
from itertools import combinations

import pytest

from tables.parsheet import Deck, analyse
from tables.parsheet.decisions import (
    RiverRanks,
    StoredValues,
    river_values,
    round_costs,
)
from tables.rules import format_card, parse_cards, parse_rules, settle_json
from tables.rules.cards import DECK

from .brute import brute_force

RANKS, SUITS = (0, 5, 7, 8, 9, 10, 11, 12), 2
SMALL = Deck(RANKS, SUITS)
CARDS = [f"{'23456789TJQKA'[r]}{s}" for r in RANKS for s in "sh"]
ANTE = 1_000


@cache
def sheet():
    return analyse(parse_rules({}), SMALL)


@cache
def brute():
    return brute_force(parse_rules({}), RANKS, SUITS)


def local(card: str) -> int:
    return CARDS.index(format_card(parse_cards([card])[0]))


def by_hand_preflop(hole):
    """(check, {multiple: value}) per Ante, from the brute force."""
    name = {("As", "Ah"): "AA", ("7s", "2h"): "72o", ("As", "2s"): "A2s"}[tuple(hole)]
    _play, check, bets = brute().preflop[name]
    return check, bets


def by_hand_flop(hole, flop):
    x, y = sorted(local(c) for c in hole)
    return brute().flop_values[(x, y, tuple(sorted(local(c) for c in flop)))]  # (2x, check)


def by_hand_river(hole, board):
    """A Play 1x's mean net per Ante over the deck's dealer holdings, by the engine."""
    rest = [c for c in CARDS if c not in (*hole, *board)]
    nets = [
        settle_json(
            {
                "board": board,
                "dealer": list(dealer),
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
        )["seats"][0]["net"]
        for dealer in combinations(rest, 2)
    ]
    return Fraction(sum(nets), 200 * len(nets))


def one_seat(hole, board, play):
    seat = {"seat": 3, "ante": ANTE, "blind": ANTE, "hole": hole}
    seat.update({"play": play} if play else {"fold": True})
    return {"board": board, "seats": [seat]}


def test_a_pair_of_aces_checked_before_the_flop():
    hole, board = ["As", "Ah"], ["Ks", "9h", "7s", "2h", "Jh"]
    ante, cost, decisions = round_costs(
        sheet(), one_seat(hole, board, {"street": "river", "multiple": 1})
    )[3]
    check, bets = by_hand_preflop(hole)
    bet2, check_flop = by_hand_flop(hole, board[:3])
    river = by_hand_river(hole, board)
    preflop_cost = max(bets.values()) - check
    flop_cost = max(bet2, check_flop) - check_flop
    river_cost = max(river, Fraction(-2)) - river
    assert preflop_cost > 0  # aces make the 4x
    assert [d["street"] for d in decisions] == ["preflop", "flop", "river"]
    assert decisions[0] == {
        "street": "preflop",
        "chosen": "check",
        "best": "4x",
        "chosen_cents": round(check * ANTE),
        "best_cents": round(bets[4] * ANTE),
        "cost_cents": round(preflop_cost * ANTE),
    }
    assert decisions[1]["chosen_cents"] == round(check_flop * ANTE)
    assert decisions[2]["chosen_cents"] == round(river * ANTE)
    assert cost == round((preflop_cost + flop_cost + river_cost) * ANTE)


def test_a_4x_on_seven_deuce_offsuit():
    hole, board = ["7s", "2h"], ["Ks", "9h", "7h", "2s", "Jh"]
    _ante, cost, decisions = round_costs(
        sheet(), one_seat(hole, board, {"street": "preflop", "multiple": 4})
    )[3]
    check, bets = by_hand_preflop(hole)
    assert check > bets[4]  # 7-2 offsuit checks
    assert len(decisions) == 1 and decisions[0]["best"] == "check"
    assert cost == round((max(check, *bets.values()) - bets[4]) * ANTE) > 0
    # What happened after (a two pair on this board) does not enter: the decision is priced
    # with the cards the player saw.
    assert decisions[0]["chosen_cents"] == round(bets[4] * ANTE)


def test_a_made_flush_folded_on_the_river():
    hole, board = ["As", "2s"], ["Ks", "Qs", "7s", "9h", "Th"]
    _ante, cost, decisions = round_costs(sheet(), one_seat(hole, board, None))[3]
    check, bets = by_hand_preflop(hole)
    bet2, check_flop = by_hand_flop(hole, board[:3])
    river = by_hand_river(hole, board)
    # The nut flush never loses: the Blind's 3:2 and the Play always, the Ante when the
    # dealer qualifies.
    assert Fraction(5, 2) < river < Fraction(7, 2)
    expected = max(check, *bets.values()) - check + max(bet2, check_flop) - check_flop + river + 2
    assert [d["chosen"] for d in decisions] == ["check", "check", "fold"]
    assert decisions[2]["best"] == "1x" and decisions[2]["cost_cents"] == round((river + 2) * ANTE)
    assert cost == round(expected * ANTE)


def test_stored_values_price_as_the_sheet_does():
    """What a worker loads (the sheet's JSON and its flop values' bytes) prices a round as the
    fresh analysis does."""
    fresh = sheet()
    stored = StoredValues.load(fresh.to_json(), fresh.flop_values.to_bytes())
    round_input = {
        "board": ["Ks", "9h", "7s", "2h", "Jh"],
        "seats": [
            {
                "seat": 1,
                "ante": 500,
                "hole": ["As", "Ah"],
                "play": {"street": "flop", "multiple": 2},
            },
            {"seat": 2, "ante": 2500, "hole": ["Qs", "Th"], "fold": True},
            {
                "seat": 5,
                "ante": 1000,
                "hole": ["7h", "2s"],
                "play": {"street": "preflop", "multiple": 3},
            },
        ],
    }
    assert round_costs(stored, round_input) == round_costs(fresh, round_input)
    assert (stored.flop_values.sums == fresh.flop_values.sums).all()


@pytest.mark.parametrize(
    "rules",
    [{}, {"blind_paytable": "B", "ante_when_dealer_not_qualified": "push_unless_dealer_wins"}],
)
def test_the_river_by_numpy_is_the_engine_s(rules):
    import random

    rng = random.Random(27)
    numpy_river = RiverRanks()
    for _ in range(25):
        cards = [format_card(c) for c in rng.sample(DECK, 7)]
        engine = river_values(parse_rules(rules), cards[:2], cards[2:])
        assert numpy_river.values(parse_rules(rules), cards[:2], cards[2:]) == engine
