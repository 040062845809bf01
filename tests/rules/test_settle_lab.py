"""An independent test lab's reading of `spec/settle.md`.

Every expected figure below was worked out by hand from the public contract only (the arithmetic
is in the comment above each case), never by running the engine. Each case is a complete round
fed to `settle_json` (two go through `python -m tables.rules settle` as a subprocess), and only
the contract keys of the spec's Output section are checked.
"""

import json
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tables.rules.settle import settle_json

REPO = Path(__file__).resolve().parent.parent.parent
BETS = ("ante", "blind", "play", "trips", "progressive", "envy")


def seat(number, ante, hole, *, play=None, fold=False, trips=0, progressive=0):
    """A seat of the input; `play` is `(street, multiple)`."""
    out = {"seat": number, "ante": ante, "blind": ante, "hole": list(hole)}
    if trips:
        out["trips"] = trips
    if progressive:
        out["progressive"] = progressive
    if fold:
        out["fold"] = True
    else:
        street, multiple = play
        out["play"] = {"street": street, "multiple": multiple}
    return out


def round_(board, dealer, seats, *, rules=None, meter=None, irregularities=()):
    out = {
        "version": 1,
        "rules": dict(rules or {}),
        "board": list(board),
        "dealer": list(dealer),
        "irregularities": [{"kind": kind} for kind in irregularities],
        "seats": seats,
    }
    if meter is not None:
        out["progressive"] = {"meter_cents": meter[0], "reset_cents": meter[1]}
    return out


@dataclass
class Seat:
    """What the lab expects for one seat: nets in BETS order, then the seat's own net."""

    outcome: str | None
    category: str | None
    nets: tuple[int, int, int, int, int, int]
    net: int
    capped: int = 0
    progressive_category: str | None = None
    best5: tuple[str, ...] | None = None


@dataclass
class Case:
    round: dict
    seats: dict[int, Seat]
    dealer_category: str | None = None
    dealer_qualifies: bool | None = None
    meter_after: int | None = None
    hits: list[tuple[int, str, int]] = field(default_factory=list)
    void: str | None = None
    dealer_best5: tuple[str, ...] | None = None


# --- The rounds --------------------------------------------------------------------------------

# Board Kd 9s 6c 4h 2d. Dealer Ac Jh: A-K-J-9-6, no pair, so it does not qualify.
# Seat 1 Qh 8c: K-Q-9-8-6, loses to the dealer's ace. Seat 2 As Qs: A-K-Q-9-6 beats A-K-J-9-6.
NOT_QUALIFIED_BOARD = ["Kd", "9s", "6c", "4h", "2d"]
NOT_QUALIFIED_DEALER = ["Ac", "Jh"]


def not_qualified_seats():
    return [
        seat(1, 1000, ["Qh", "8c"], play=("flop", 2)),
        seat(2, 300, ["As", "Qs"], play=("river", 1)),
    ]


# Board 9h 8d 5c 2s Kh, player 7s 6h makes 9-8-7-6-5; dealer Kc 3d has a pair of kings.
STRAIGHT_BOARD = ["9h", "8d", "5c", "2s", "Kh"]
STRAIGHT_DEALER = ["Kc", "3d"]


def straight_seat():
    return [seat(1, 500, ["7s", "6h"], play=("preflop", 3), trips=100)]


# Board Qh Jh Th 3c 2s (flop Qh Jh Th). Dealer 4d 4s: pair of fours, qualifies.
# Seat 1 9h 8h: straight flush 8-Q on the flop (10%); seat 2 Ah Kh: royal on the flop (100%).
TEN_THEN_HUNDRED = dict(
    board=["Qh", "Jh", "Th", "3c", "2s"],
    dealer=["4d", "4s"],
    meter=(2_345_678, 1_000_000),
)


def ten_then_hundred_seats():
    return [
        seat(1, 100, ["9h", "8h"], fold=True, progressive=100),
        seat(2, 100, ["Ah", "Kh"], play=("preflop", 4), progressive=100),
        seat(3, 100, ["5c", "7d"], fold=True, progressive=100),
        seat(4, 100, ["6s", "9c"], play=("river", 1)),
    ]


def spec_example(seat2_hole):
    return round_(
        ["Qs", "Js", "Ts", "3h", "4h"],
        ["2c", "2d"],
        [
            seat(1, 1000, ["As", "Ks"], play=("preflop", 4), trips=500, progressive=100),
            seat(2, 500, seat2_hole, fold=True),
        ],
        meter=(2_500_000, 1_000_000),
    )


CASES = {
    # Default rule: a dealer without a pair returns the Ante even when the dealer's hand is higher.
    # Seat 1 (ante 1000, flop 2x = 2000): Ante push 0, Blind -1000, Play -2000 -> -3000.
    # Seat 2 (ante 300, river 300) beats the dealer: Ante push 0 (dealer not qualified), Blind
    # push 0 (high card), Play +300 -> +300.
    "dealer_not_qualified_beats_player_ante_returned": Case(
        round_(NOT_QUALIFIED_BOARD, NOT_QUALIFIED_DEALER, not_qualified_seats()),
        {
            1: Seat("lose", "high_card", (0, -1000, -2000, 0, 0, 0), -3000),
            2: Seat("win", "high_card", (0, 0, 300, 0, 0, 0), 300),
        },
        dealer_category="high_card",
        dealer_qualifies=False,
    ),
    # "push_unless_dealer_wins": same round, the Ante is now lost when the dealer wins.
    # Seat 1: Ante -1000, Blind -1000, Play -2000 -> -4000. Seat 2 wins: Ante still pushes -> +300.
    "dealer_not_qualified_beats_player_ante_lost_under_push_unless_dealer_wins": Case(
        round_(
            NOT_QUALIFIED_BOARD,
            NOT_QUALIFIED_DEALER,
            not_qualified_seats(),
            rules={"ante_when_dealer_not_qualified": "push_unless_dealer_wins"},
        ),
        {
            1: Seat("lose", "high_card", (-1000, -1000, -2000, 0, 0, 0), -4000),
            2: Seat("win", "high_card", (0, 0, 300, 0, 0, 0), 300),
        },
        dealer_qualifies=False,
    ),
    # Blind table A: a straight pays 1:1. Ante 500 +500, Blind +500, Play 3x = 1500 +1500,
    # Trips 100 on a straight, table C 4:1 = +400 -> 2900.
    "straight_wins_blind_one_to_one_on_table_a": Case(
        round_(STRAIGHT_BOARD, STRAIGHT_DEALER, straight_seat()),
        {1: Seat("win", "straight", (500, 500, 1500, 400, 0, 0), 2900)},
        dealer_category="pair",
        dealer_qualifies=True,
    ),
    # Blind table B: a straight pushes. Ante +500, Blind 0, Play +1500, Trips table B pays a
    # straight 5:1 = +500 -> 2500.
    "straight_pushes_blind_on_table_b": Case(
        round_(
            STRAIGHT_BOARD,
            STRAIGHT_DEALER,
            straight_seat(),
            rules={"blind_paytable": "B", "trips_paytable": "B"},
        ),
        {1: Seat("win", "straight", (500, 0, 1500, 500, 0, 0), 2500)},
    ),
    # Board Ks Qd 7h 4c 2s, dealer 3h 3d (pair of threes, qualifies). Each seat wins with a pair,
    # so Blind pushes; Ante 1:1, Play 1:1 on multiple x ante. A card drawn in error and not
    # exposed changes nothing.
    # Seat 1 Kh 9c, ante 1000, preflop 3x = 3000: +1000 +0 +3000 = 4000.
    # Seat 2 Qs 8d, ante 500, preflop 4x = 2000: +500 +0 +2000 = 2500.
    # Seat 3 7d 5c, ante 200, flop 2x = 400: +200 +0 +400 = 600.
    # Seat 4 4d 6s, ante 100, river 1x = 100: 4-4-K-Q-7 beats 3-3-K-Q-7: +100 +0 +100 = 200.
    "play_is_3x_or_4x_preflop_2x_flop_1x_river": Case(
        round_(
            ["Ks", "Qd", "7h", "4c", "2s"],
            ["3h", "3d"],
            [
                seat(1, 1000, ["Kh", "9c"], play=("preflop", 3)),
                seat(2, 500, ["Qs", "8d"], play=("preflop", 4)),
                seat(3, 200, ["7d", "5c"], play=("flop", 2)),
                seat(4, 100, ["4d", "6s"], play=("river", 1)),
            ],
            irregularities=["card_drawn_in_error_unexposed"],
        ),
        {
            1: Seat("win", "pair", (1000, 0, 3000, 0, 0, 0), 4000),
            2: Seat("win", "pair", (500, 0, 2000, 0, 0, 0), 2500),
            3: Seat("win", "pair", (200, 0, 400, 0, 0, 0), 600),
            4: Seat("win", "pair", (100, 0, 100, 0, 0, 0), 200),
        },
        dealer_category="pair",
        dealer_qualifies=True,
    ),
    # Board 8s 8h 3c Jd 2h, seat 8d Kc folds holding three eights; dealer Ah 4s.
    # "stays": Ante -500, Blind -500, Trips 200 x 3:1 = +600 -> -400.
    "fold_keeps_trips_in_action_when_it_stays": Case(
        round_(
            ["8s", "8h", "3c", "Jd", "2h"],
            ["Ah", "4s"],
            [seat(1, 500, ["8d", "Kc"], fold=True, trips=200)],
        ),
        {1: Seat("fold", "three_of_a_kind", (-500, -500, 0, 600, 0, 0), -400)},
    ),
    # Same round, "lost": Ante -500, Blind -500, Trips -200 -> -1200.
    "fold_loses_trips_when_the_table_says_lost": Case(
        round_(
            ["8s", "8h", "3c", "Jd", "2h"],
            ["Ah", "4s"],
            [seat(1, 500, ["8d", "Kc"], fold=True, trips=200)],
            rules={"trips_on_fold": "lost"},
        ),
        {1: Seat("fold", "three_of_a_kind", (-500, -500, 0, -200, 0, 0), -1200)},
    ),
    # Board 9c 9d 9h 5s 2c: the board alone is three nines. Player Kd Qh (9-9-9-K-Q) loses to
    # the dealer's As 7d (9-9-9-A-7), who qualifies. Ante -1000, Blind -1000, Play river -1000,
    # Trips 500 x 3:1 = +1500 -> -1500.
    "trips_pays_on_three_of_a_kind_made_by_the_board_alone": Case(
        round_(
            ["9c", "9d", "9h", "5s", "2c"],
            ["As", "7d"],
            [seat(1, 1000, ["Kd", "Qh"], play=("river", 1), trips=500)],
        ),
        {1: Seat("lose", "three_of_a_kind", (-1000, -1000, -1000, 1500, 0, 0), -1500)},
        dealer_category="three_of_a_kind",
        dealer_qualifies=True,
    ),
    # Board As Ks Qd Jc Th is a broadway straight; both play the board. Tie: Ante, Blind (even
    # with a straight) and Play 4x all push; Trips 500 on a straight, table C 4:1 = +2000 -> 2000.
    "tie_on_the_board_pushes_everything_but_trips_pays": Case(
        round_(
            ["As", "Ks", "Qd", "Jc", "Th"],
            ["4h", "5s"],
            [seat(1, 1000, ["2c", "3d"], play=("preflop", 4), trips=500)],
        ),
        {1: Seat("tie", "straight", (0, 0, 0, 2000, 0, 0), 2000)},
        dealer_category="straight",
        dealer_qualifies=True,
    ),
    # Board Qh 5c 2d | Jh Th, dealer 5s 5d (three fives), meter 2,000,000.
    # Seat 1 Ah Kh rivers a royal, but hole + flop (Ah Kh Qh 5c 2d) is only ace-high, so the
    # progressive loses -100 and the seat's royal gives no Envy to seat 2.
    #   Ante +1000, Blind 1000 x 500 = +500,000, Play 4x +4000, Trips 500 x 50 = +25,000,
    #   progressive -100 -> 529,900.
    # Seat 2 2h 2c: hole + flop 2h 2c Qh 5c 2d is three deuces, an odds tier 9:1 = +900 paid by
    # the house (meter unchanged). Final 2-2-2-Q-J loses to 5-5-5: Ante -100, Blind -100,
    # Play -100, +900 -> +600.
    "progressive_is_judged_on_hole_and_flop_not_the_final_hand": Case(
        round_(
            ["Qh", "5c", "2d", "Jh", "Th"],
            ["5s", "5d"],
            [
                seat(1, 1000, ["Ah", "Kh"], play=("preflop", 4), trips=500, progressive=100),
                seat(2, 100, ["2h", "2c"], play=("river", 1), progressive=100),
            ],
            meter=(2_000_000, 1_000_000),
        ),
        {
            1: Seat("win", "royal_flush", (1000, 500_000, 4000, 25_000, -100, 0), 529_900),
            2: Seat(
                "lose",
                "three_of_a_kind",
                (-100, -100, -100, 0, 900, 0),
                600,
                progressive_category="three_of_a_kind",
            ),
        },
        meter_after=2_000_000,
        hits=[],
    ),
    # Meter 2,345,678. Seat 1 (folded) SF 10%: floor(234,567.8) = 234,567; meter -> 2,111,111.
    # Seat 2 royal 100% of the meter as it then stands: 2,111,111; meter resets to 1,000,000.
    # Envy (default RF 100,000, SF 10,000), for each OTHER seat's progressive hand, folded or not:
    #   seat 1 gets 100,000 (seat 2's royal); seat 2 gets 10,000 (seat 1's SF);
    #   seat 3 (folded, progressive lost) gets 110,000; seat 4 has no progressive, so no Envy.
    # Seat 1: -100 -100 +234,567 +100,000 = 334,367.
    # Seat 2: Ante +100, Blind 100 x 500 = +50,000, Play 4x +400, +2,111,111, +10,000 = 2,171,611.
    # Seat 3: -100 -100 -100 +110,000 = 109,700.
    # Seat 4 (Q-J-T-9-6 vs the dealer's pair of fours): -100 -100 -100 = -300.
    "ten_percent_hit_is_paid_before_the_royal_and_envy_reaches_folded_seats": Case(
        round_(**TEN_THEN_HUNDRED, seats=ten_then_hundred_seats()),
        {
            1: Seat(
                "fold",
                "straight_flush",
                (-100, -100, 0, 0, 234_567, 100_000),
                334_367,
                progressive_category="straight_flush",
            ),
            2: Seat(
                "win",
                "royal_flush",
                (100, 50_000, 400, 0, 2_111_111, 10_000),
                2_171_611,
                progressive_category="royal_flush",
            ),
            3: Seat("fold", "high_card", (-100, -100, 0, 0, -100, 110_000), 109_700),
            4: Seat("lose", "high_card", (-100, -100, -100, 0, 0, 0), -300),
        },
        dealer_category="pair",
        dealer_qualifies=True,
        meter_after=1_000_000,
        hits=[(1, "straight_flush", 234_567), (2, "royal_flush", 2_111_111)],
    ),
    # Operator table where a straight flush is 100%: flop 7h 8h 9h, seat 1 5h 6h (5-9 SF) and
    # seat 2 Th Jh (7-J SF) share the meter 2,500,001: floor(2,500,001 / 2) = 1,250,000 each, one
    # cent left undivided, so the meter goes to 1,000,000 + 1 = 1,000,001.
    # Seat 3 Ah 3h: flush on hole + flop, 50:1 = +5,000 from the house.
    # Envy (SF 10,000; minimum 100 = the wager, "at least" so it collects):
    #   seat 1 +10,000 (seat 2), seat 2 +10,000 (seat 1), seat 3 +20,000 (seats 1 and 2).
    # Dealer Kd Ks + Kc: three kings, qualifies, loses to all three.
    # Seat 1: Ante +1000, Blind SF 50:1 +50,000, Play 3x +3000, +1,250,000, +10,000 = 1,314,000.
    # Seat 2: Ante +200, Blind +10,000, Play 4x +800, Trips 100 SF 40:1 +4000, +1,250,000,
    #   +10,000 = 1,275,000.
    # Seat 3: Ante +1000, Blind flush 3:2 +1500, Play 2x +2000, +5000, +20,000 = 29,500.
    "two_seats_share_a_hundred_percent_meter_and_the_odd_cent_stays_on_it": Case(
        round_(
            ["7h", "8h", "9h", "Kc", "2d"],
            ["Kd", "Ks"],
            [
                seat(1, 1000, ["5h", "6h"], play=("preflop", 3), progressive=100),
                seat(2, 200, ["Th", "Jh"], play=("preflop", 4), trips=100, progressive=100),
                seat(3, 1000, ["Ah", "3h"], play=("flop", 2), progressive=100),
            ],
            rules={
                "progressive_paytable": {
                    "royal_flush": "100%",
                    "straight_flush": "100%",
                    "flush": "50:1",
                },
                "envy_min_wager_cents": 100,
            },
            meter=(2_500_001, 1_000_000),
        ),
        {
            1: Seat(
                "win",
                "straight_flush",
                (1000, 50_000, 3000, 0, 1_250_000, 10_000),
                1_314_000,
                progressive_category="straight_flush",
            ),
            2: Seat(
                "win",
                "straight_flush",
                (200, 10_000, 800, 4000, 1_250_000, 10_000),
                1_275_000,
                progressive_category="straight_flush",
            ),
            3: Seat(
                "win",
                "flush",
                (1000, 1500, 2000, 0, 5000, 20_000),
                29_500,
                progressive_category="flush",
            ),
        },
        dealer_category="three_of_a_kind",
        dealer_qualifies=True,
        meter_after=1_000_001,
        hits=[(1, "straight_flush", 1_250_000), (2, "straight_flush", 1_250_000)],
    ),
    # Envy minimum 200 above the (only) 100 wager: nobody collects Envy, the jackpot still pays.
    # Board Ts Js Qs 4d 7c, dealer 4h 4c (three fours). Meter 1,500,000.
    # Seat 1 As Ks royal: Ante +500, Blind +250,000, Play flop 2x +1000, 100% = +1,500,000,
    #   Envy 0 -> 1,751,500; meter resets to 1,000,000.
    # Seat 2 Td Tc: three tens on hole + flop, odds 9:1 = +900, not a meter hit; beats 4-4-4:
    #   Ante +500, Blind push (not a straight), Play river +500, +900; Envy 0 despite seat 1's
    #   royal -> 1,900.
    "envy_is_not_paid_below_the_minimum_wager": Case(
        round_(
            ["Ts", "Js", "Qs", "4d", "7c"],
            ["4h", "4c"],
            [
                seat(1, 500, ["As", "Ks"], play=("flop", 2), progressive=100),
                seat(2, 500, ["Td", "Tc"], play=("river", 1), progressive=100),
            ],
            rules={"envy_min_wager_cents": 200},
            meter=(1_500_000, 1_000_000),
        ),
        {
            1: Seat("win", "royal_flush", (500, 250_000, 1000, 0, 1_500_000, 0), 1_751_500),
            2: Seat("win", "three_of_a_kind", (500, 0, 500, 0, 900, 0), 1900),
        },
        meter_after=1_000_000,
        hits=[(1, "royal_flush", 1_500_000)],
    ),
    # 25-cent table. Board 2c 7c Jc 5d 9s, dealer Jd 9h (jacks and nines, qualifies).
    # Seat 1 Ac 4c flush: Ante 2475 +2475 (99 units), Blind 3:2 = 3712.5 -> 3700, Play 3x 7425
    #   +7425, Trips 130 x 7:1 = 910 -> 900: 2475 + 3700 + 7425 + 900 = 14,500.
    # Seat 2 Kh 3s, king high, loses everything; losses are never rounded:
    #   -1010 -1010 -1010 -130 = -3160.
    "winnings_are_rounded_down_to_the_payout_unit_losses_are_not": Case(
        round_(
            ["2c", "7c", "Jc", "5d", "9s"],
            ["Jd", "9h"],
            [
                seat(1, 2475, ["Ac", "4c"], play=("preflop", 3), trips=130),
                seat(2, 1010, ["Kh", "3s"], play=("river", 1), trips=130),
            ],
            rules={"payout_unit_cents": 25},
        ),
        {
            1: Seat("win", "flush", (2475, 3700, 7425, 900, 0, 0), 14_500),
            2: Seat("lose", "high_card", (-1010, -1010, -1010, -130, 0, 0), -3160),
        },
        dealer_category="two_pair",
        dealer_qualifies=True,
    ),
    # Cap 10,000 on the positive nets of Ante, Blind, Play and Trips; progressive is outside.
    # Board 6d 6s Kh 2c 9d, dealer Qs Qc (queens and sixes), meter 1,000,000.
    # Seat 1 6c Kd, sixes full of kings (also on hole + flop): Ante +1000, Blind 3:1 +3000,
    #   Play 4x +4000, Trips 500 x 8:1 +4000 = 12,000 -> capped 2,000; progressive full house
    #   50:1 = +5000 outside the cap. Net 12,000 + 5000 - 2000 = 15,000.
    # Seat 2 Ah Ac, aces and sixes beat queens and sixes: Ante +5000, Blind push, Play 4x
    #   +20,000, Trips -1000 (two pair). Positive nets 25,000 -> capped 15,000.
    #   Net 5000 + 20,000 - 1000 - 15,000 = 9,000.
    "max_payout_withholds_the_excess_of_the_positive_base_and_trips_nets": Case(
        round_(
            ["6d", "6s", "Kh", "2c", "9d"],
            ["Qs", "Qc"],
            [
                seat(1, 1000, ["6c", "Kd"], play=("preflop", 4), trips=500, progressive=100),
                seat(2, 5000, ["Ah", "Ac"], play=("preflop", 4), trips=1000),
            ],
            rules={"max_payout_cents": 10_000},
            meter=(1_000_000, 500_000),
        ),
        {
            1: Seat(
                "win",
                "full_house",
                (1000, 3000, 4000, 4000, 5000, 0),
                15_000,
                capped=2000,
                progressive_category="full_house",
            ),
            2: Seat("win", "two_pair", (5000, 0, 20_000, -1000, 0, 0), 9000, capped=15_000),
        },
        dealer_category="two_pair",
        dealer_qualifies=True,
        meter_after=1_000_000,
        hits=[],
    ),
    # The 10%-then-100% round again, but the dealer declared an exposed community card:
    # the round is void, every net is 0 and the meter stays at 2,345,678.
    "community_card_exposed_voids_the_round_and_the_meter_does_not_move": Case(
        round_(
            **TEN_THEN_HUNDRED,
            seats=ten_then_hundred_seats(),
            irregularities=["community_card_exposed"],
        ),
        {n: Seat(None, None, (0,) * 6, 0) for n in (1, 2, 3, 4)},
        meter_after=2_345_678,
        hits=[],
        void="community_card_exposed",
    ),
    # The spec's own example literally deals 2d to the dealer and to seat 2: a card appears
    # twice, so by the spec's Void rule the round is void (duplicate_card), all nets 0, meter kept.
    "spec_example_as_printed_has_2d_twice_and_is_void": Case(
        spec_example(["7c", "2d"]),
        {1: Seat(None, None, (0,) * 6, 0), 2: Seat(None, None, (0,) * 6, 0)},
        meter_after=2_500_000,
        hits=[],
        void="duplicate_card",
    ),
    # Board 3c 4d 5h Ks 9c, dealer 6c 2h: 2-3-4-5-6, a 6-high straight.
    # Seat 1 As 2d: A-2-3-4-5, the ace plays low, so it is a 5-high straight and loses.
    #   Ante -1000, Blind -1000, Play flop 2x -2000, Trips 200 x 4:1 +800 -> -3200.
    # Seat 2 2s 6d: the same 6-high straight, a tie: Ante/Blind/Play push, Trips 100 x 4 = +400.
    "wheel_loses_to_a_six_high_straight": Case(
        round_(
            ["3c", "4d", "5h", "Ks", "9c"],
            ["6c", "2h"],
            [
                seat(1, 1000, ["As", "2d"], play=("flop", 2), trips=200),
                seat(2, 500, ["2s", "6d"], play=("preflop", 3), trips=100),
            ],
        ),
        {
            1: Seat(
                "lose",
                "straight",
                (-1000, -1000, -2000, 800, 0, 0),
                -3200,
                best5=("As", "2d", "3c", "4d", "5h"),
            ),
            2: Seat("tie", "straight", (0, 0, 0, 400, 0, 0), 400),
        },
        dealer_category="straight",
        dealer_qualifies=True,
        dealer_best5=("2h", "3c", "4d", "5h", "6c"),
    ),
}

# The spec's example with seat 2 holding 2h instead of a second 2d: the spec's printed output.
# Seat 1: Ante +1000, Blind 1000 x 500 = 500,000, Play 4x +4000, Trips 500 x 50 = 25,000,
# progressive royal 100% of 2,500,000 -> 3,030,000; meter resets to 1,000,000.
# Seat 2 folds 7c 2h: Ante -500, Blind -500 -> -1000; no progressive wager, so no Envy.
SPEC_EXAMPLE_FIXED = Case(
    spec_example(["7c", "2h"]),
    {
        1: Seat(
            "win",
            "royal_flush",
            (1000, 500_000, 4000, 25_000, 2_500_000, 0),
            3_030_000,
            progressive_category="royal_flush",
            best5=("As", "Ks", "Qs", "Js", "Ts"),
        ),
        2: Seat(
            "fold",
            "high_card",
            (-500, -500, 0, 0, 0, 0),
            -1000,
            best5=("Qs", "Js", "Ts", "7c", "4h"),
        ),
    },
    dealer_category="pair",
    dealer_qualifies=True,
    dealer_best5=("2c", "2d", "Qs", "Js", "Ts"),
    meter_after=1_000_000,
    hits=[(1, "royal_flush", 2_500_000)],
)


# --- Checking ----------------------------------------------------------------------------------


def stakes_of(seat_in):
    """The stake of each bet, from the input alone (the Play bet is multiple x ante)."""
    play = seat_in.get("play")
    return {
        "ante": seat_in["ante"],
        "blind": seat_in["blind"],
        "play": play["multiple"] * seat_in["ante"] if play else 0,
        "trips": seat_in.get("trips", 0),
        "progressive": seat_in.get("progressive", 0),
    }


def check(case, out):
    assert out["version"] == 1
    if case.void is None:
        assert out["void"] is None
    else:
        assert out["void"] == {"reason": case.void}
    if case.dealer_category is not None:
        assert out["dealer"]["category"] == case.dealer_category
    if case.dealer_qualifies is not None:
        assert out["dealer"]["qualifies"] is case.dealer_qualifies
    if case.dealer_best5 is not None:
        assert sorted(out["dealer"]["best5"]) == sorted(case.dealer_best5)

    by_seat = {s["seat"]: s for s in out["seats"]}
    assert sorted(by_seat) == sorted(s["seat"] for s in case.round["seats"])
    inputs = {s["seat"]: s for s in case.round["seats"]}
    for number, want in case.seats.items():
        got = by_seat[number]
        nets = tuple(got["bets"][bet]["net"] for bet in BETS)
        assert (number, nets) == (number, want.nets)
        assert (number, got["capped_cents"]) == (number, want.capped)
        assert (number, got["net"]) == (number, want.net)
        # The contract: a seat's net is the sum of its bets' nets minus capped_cents.
        assert got["net"] == sum(nets) - got["capped_cents"]
        if case.void is None:
            assert (number, got["outcome"]) == (number, want.outcome)
            assert (number, got["category"]) == (number, want.category)
            for bet, stake in stakes_of(inputs[number]).items():
                assert (number, bet, got["bets"][bet]["stake"]) == (number, bet, stake)
        if want.progressive_category is not None:
            assert got["bets"]["progressive"]["category"] == want.progressive_category
        if "progressive" not in inputs[number]:
            assert got["bets"]["progressive"]["category"] is None
        if want.best5 is not None:
            assert sorted(got["best5"]) == sorted(want.best5)

    if case.meter_after is not None:
        meter = case.round["progressive"]["meter_cents"]
        assert out["progressive"]["meter_before_cents"] == meter
        assert out["progressive"]["meter_after_cents"] == case.meter_after
        hits = [(h["seat"], h["category"], h["amount_cents"]) for h in out["progressive"]["hits"]]
        assert hits == case.hits


@pytest.mark.parametrize("name", list(CASES))
def test_lab_round_settles_as_the_spec_says(name):
    case = CASES[name]
    check(case, settle_json(json.loads(json.dumps(case.round))))


def run_cli(*args, stdin=None):
    done = subprocess.run(
        [sys.executable, "-m", "tables.rules", "settle", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
    )
    return done.returncode, done.stdout


def test_cli_on_standard_input_prints_the_spec_example_once_its_duplicate_card_is_fixed():
    code, out = run_cli("-", stdin=json.dumps(SPEC_EXAMPLE_FIXED.round))
    assert code == 0
    check(SPEC_EXAMPLE_FIXED, json.loads(out))


def test_cli_rejects_a_3x_play_on_a_4x_only_table_with_exit_2(tmp_path):
    # Same seat as the 3x case above, on a table whose only pre-flop multiple is 4.
    bad = round_(
        ["Ks", "Qd", "7h", "4c", "2s"],
        ["3h", "3d"],
        [seat(1, 1000, ["Kh", "9c"], play=("preflop", 3))],
        rules={"preflop_multiples": [4]},
    )
    path = tmp_path / "round.json"
    path.write_text(json.dumps(bad))
    code, out = run_cli(str(path))
    assert code == 2
    error = json.loads(out)["error"]
    assert isinstance(error["code"], str) and error["code"]
    assert "seats[" in error["message"]
