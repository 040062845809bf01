"""Settlement, row by row as the rule book puts it. Every expected figure is worked out by hand
in the comments (Ante = Blind = 1,000 cents unless a test says otherwise)."""

import pytest

from tables.rules.errors import InputError
from tables.rules.settle import settle_json

from .rounds import (
    SPEC_OUTPUT,
    nets,
    only_seat,
    seat,
    settled,
    spec_input,
)

# A player's hand of each category that beats a dealer who holds `dealer`:
# (category, board, player's hole, dealer's hole, does the dealer qualify).
WINNING_HANDS = [
    ("royal_flush", "Qs Js Ts 3h 4d", "As Ks", "2c 2d", True),  # A-K-Q-J-T of spades
    ("straight_flush", "Qs Js Ts 3h 4d", "9s 8s", "2c 2d", True),  # Q-J-T-9-8 of spades
    ("four_of_a_kind", "9d 9c 2s 5h Kd", "9s 9h", "3c 3d", True),  # dealer: 9s and 3s
    ("full_house", "Kd 7s 7c 2h 4d", "Kh Kc", "3c 3d", True),  # K-K-K-7-7; dealer 7s and 3s
    ("flush", "Kh 7h 2h 4d Js", "Ah 9h", "3c 3d", True),  # A-K-9-7-2 of hearts; dealer 3s
    ("straight", "Tc Jh Qs 2d 3h", "8c 9d", "4c 4s", True),  # 8 to Q; dealer a pair of 4s
    ("three_of_a_kind", "7h Ks 2d 9c 4h", "7c 7d", "3c 3s", True),  # three 7s; dealer 3s
    ("two_pair", "Ks 9h 2d 5c 7h", "Kc 9d", "3c 3s", True),  # kings and nines; dealer 3s
    ("pair", "As 9h 2d 5c 7h", "Ac Qd", "3c 3s", True),  # aces; dealer 3s
    ("high_card", "Ks 9h 2d 5c 7h", "Ac Qd", "3c 4s", False),  # A-K-Q-9-7 over K-9-7-5-4
]
HAND = {row[0]: row[1:] for row in WINNING_HANDS}


def win_with(category, *, rules=None, trips=0, play=("preflop", 4), ante=1000):
    board, hole, dealer, _ = HAND[category]
    result = settled(board, dealer, seat(1, hole, ante=ante, trips=trips, play=play), rules=rules)
    return only_seat(result)


def test_the_spec_example_round_settles_exactly_as_the_spec_shows():
    assert settle_json(spec_input()) == SPEC_OUTPUT


def test_the_spec_example_taken_literally_is_void_because_2d_is_dealt_twice():
    literal = spec_input()
    literal["seats"][1]["hole"] = ["7c", "2d"]  # the dealer holds 2d too
    result = settle_json(literal)
    assert result["void"] == {"reason": "duplicate_card"}
    assert [s["net"] for s in result["seats"]] == [0, 0]


@pytest.mark.parametrize("category, board, hole, dealer, qualifies", WINNING_HANDS)
def test_each_winning_hand_is_judged_as_its_category(category, board, hole, dealer, qualifies):
    result = settled(board, dealer, seat(1, hole))
    assert result["dealer"]["qualifies"] is qualifies
    assert only_seat(result)["category"] == category
    assert only_seat(result)["outcome"] == "win"


# --- the Ante / Blind / Play matrix --------------------------------------------------------


def test_player_wins_and_dealer_qualifies_ante_and_play_pay_even_money_blind_pushes_below_a_straight():
    # pair of aces over a pair of 3s: Ante +1,000, Blind 0 (a pair is below a straight),
    # Play 4 x 1,000 = 4,000 at 1:1 -> +4,000; net 5,000.
    result = win_with("pair")
    assert result["outcome"] == "win"
    assert nets(result) == {
        "ante": 1000,
        "blind": 0,
        "play": 4000,
        "trips": 0,
        "progressive": 0,
        "envy": 0,
    }
    assert result["net"] == 5000


def test_player_wins_and_dealer_does_not_qualify_ante_pushes_play_pays():
    # A-K-Q high against K-9-7 high: Ante 0 (dealer lacks a pair), Blind 0, Play +4,000.
    result = win_with("high_card")
    assert (result["bets"]["ante"], result["bets"]["blind"], result["bets"]["play"]) == (
        {"stake": 1000, "net": 0},
        {"stake": 1000, "net": 0},
        {"stake": 4000, "net": 4000},
    )
    assert result["net"] == 4000


def test_player_wins_with_a_flush_and_dealer_does_not_qualify_blind_still_pays():
    # flush A-K-9-7-2 of hearts against a dealer with 3c 5d (K-J-7-5-4: no pair).
    # Ante 0, Blind 3:2 on 1,000 = 1,500, Play 2x on the flop = 2,000 -> net 3,500.
    result = only_seat(settled("Kh 7h 2h 4d Js", "3c 5d", seat(1, "Ah 9h", play=("flop", 2))))
    assert nets(result)["ante"] == 0
    assert nets(result)["blind"] == 1500
    assert result["bets"]["play"] == {"stake": 2000, "net": 2000}
    assert result["net"] == 3500


def test_a_tie_pushes_ante_blind_and_play():
    # both play A-A-K-Q-9 from the board: every bet pushes.
    result = settled("As Ad Kh Qc 9d", "4c 5h", seat(1, "2c 3h", play=("river", 1)))
    assert result["dealer"]["qualifies"] is True
    player = only_seat(result)
    assert player["outcome"] == "tie"
    assert (nets(player)["ante"], nets(player)["blind"], nets(player)["play"]) == (0, 0, 0)
    assert player["net"] == 0


def test_dealer_wins_and_qualifies_ante_blind_and_play_lose():
    # A-K-9-7-4 high against a pair of queens; river Play 1 x 1,000.
    # -1,000 - 1,000 - 1,000 = -3,000.
    result = only_seat(settled("As Kd 9h 7c 4s", "Qc Qd", seat(1, "2c 3h", play=("river", 1))))
    assert result["outcome"] == "lose"
    assert (nets(result)["ante"], nets(result)["blind"], nets(result)["play"]) == (
        -1000,
        -1000,
        -1000,
    )
    assert result["net"] == -3000


def test_dealer_wins_without_a_pair_the_ante_is_returned_by_default():
    # dealer A-K-Q-J-9 beats A-K-9-7-4 but has no pair: Ante 0, Blind -1,000, Play -1,000.
    result = only_seat(settled("As Kd 9h 7c 4s", "Qc Jd", seat(1, "2c 3h", play=("river", 1))))
    assert result["outcome"] == "lose"
    assert (nets(result)["ante"], nets(result)["blind"], nets(result)["play"]) == (
        0,
        -1000,
        -1000,
    )
    assert result["net"] == -2000


def test_push_unless_dealer_wins_loses_the_ante_when_a_non_qualifying_dealer_wins():
    # same hands as above, but the Ante only comes back when the player wins or ties:
    # -1,000 - 1,000 - 1,000 = -3,000.
    rules = {"ante_when_dealer_not_qualified": "push_unless_dealer_wins"}
    result = only_seat(
        settled("As Kd 9h 7c 4s", "Qc Jd", seat(1, "2c 3h", play=("river", 1)), rules=rules)
    )
    assert nets(result)["ante"] == -1000
    assert result["net"] == -3000


def test_push_unless_dealer_wins_still_returns_the_ante_when_the_player_wins():
    rules = {"ante_when_dealer_not_qualified": "push_unless_dealer_wins"}
    result = win_with("high_card", rules=rules)  # dealer K-9-7-5-4, no pair
    assert nets(result)["ante"] == 0
    assert nets(result)["play"] == 4000


def test_fold_loses_ante_and_blind_and_has_no_play():
    # a fold with A-A: Ante -1,000, Blind -1,000, Play stake 0; net -2,000.
    board, hole, dealer, _ = HAND["pair"]
    result = only_seat(settled(board, dealer, seat(1, hole, play=None)))
    assert result["outcome"] == "fold"
    assert result["bets"]["play"] == {"stake": 0, "net": 0}
    assert result["net"] == -2000


def test_fold_loses_ante_and_blind_but_trips_stays_in_action():
    # three 7s, Trips 500 on table C pays 3:1 = 1,500: -1,000 - 1,000 + 1,500 = -500.
    board, hole, dealer, _ = HAND["three_of_a_kind"]
    result = only_seat(settled(board, dealer, seat(1, hole, play=None, trips=500)))
    assert nets(result)["trips"] == 1500
    assert result["net"] == -500


def test_trips_on_fold_lost_makes_a_fold_lose_trips_too():
    board, hole, dealer, _ = HAND["three_of_a_kind"]
    result = only_seat(
        settled(board, dealer, seat(1, hole, play=None, trips=500), rules={"trips_on_fold": "lost"})
    )
    assert nets(result)["trips"] == -500
    assert result["net"] == -2500  # -1,000 - 1,000 - 500


def test_trips_pays_when_the_dealer_beats_the_player():
    # board 7h 8s 9d Kc 2h: the player's 7c 7d make three 7s, the dealer's Tc Jd a straight
    # 7 to J. The main bets lose (Play 4,000) but Trips 500 pays 3:1 = 1,500:
    # -1,000 - 1,000 - 4,000 + 1,500 = -4,500.
    result = only_seat(settled("7h 8s 9d Kc 2h", "Tc Jd", seat(1, "7c 7d", trips=500)))
    assert result["outcome"] == "lose"
    assert nets(result)["trips"] == 1500
    assert result["net"] == -4500


def test_trips_loses_below_three_of_a_kind():
    result = win_with("two_pair", trips=500)
    assert nets(result)["trips"] == -500


# --- Blind and Trips paytables, line by line ------------------------------------------------


@pytest.mark.parametrize(
    "table, category, blind_net",
    [
        ("A", "royal_flush", 500000),  # 500:1 on 1,000
        ("A", "straight_flush", 50000),  # 50:1
        ("A", "four_of_a_kind", 10000),  # 10:1
        ("A", "full_house", 3000),  # 3:1
        ("A", "flush", 1500),  # 3:2 -> 1,000 x 3 / 2
        ("A", "straight", 1000),  # 1:1
        ("A", "three_of_a_kind", 0),  # below a straight: push
        ("A", "two_pair", 0),
        ("A", "pair", 0),
        ("A", "high_card", 0),
        ("B", "royal_flush", 500000),
        ("B", "straight_flush", 50000),
        ("B", "four_of_a_kind", 10000),
        ("B", "full_house", 3000),
        ("B", "flush", 1500),
        ("B", "straight", 0),  # table B pushes a straight
        ("B", "three_of_a_kind", 0),
    ],
)
def test_blind_pays_by_paytable_when_the_player_wins(table, category, blind_net):
    result = win_with(category, rules={"blind_paytable": table})
    assert result["bets"]["blind"] == {"stake": 1000, "net": blind_net}


def test_the_default_blind_paytable_is_a():
    assert nets(win_with("straight"))["blind"] == 1000
    assert nets(win_with("flush"))["blind"] == 1500


@pytest.mark.parametrize(
    "table, category, trips_net",
    [
        # Trips 500 cents; each line N:1 pays 500 x N.
        ("A", "royal_flush", 25000),  # 50
        ("A", "straight_flush", 20000),  # 40
        ("A", "four_of_a_kind", 15000),  # 30
        ("A", "full_house", 4500),  # 9
        ("A", "flush", 3500),  # 7
        ("A", "straight", 2000),  # 4
        ("A", "three_of_a_kind", 1500),  # 3
        ("A", "two_pair", -500),
        ("B", "royal_flush", 25000),  # 50
        ("B", "straight_flush", 20000),  # 40
        ("B", "four_of_a_kind", 15000),  # 30
        ("B", "full_house", 4000),  # 8
        ("B", "flush", 3000),  # 6
        ("B", "straight", 2500),  # 5
        ("B", "three_of_a_kind", 1500),  # 3
        ("B", "pair", -500),
        ("C", "royal_flush", 25000),  # 50
        ("C", "straight_flush", 20000),  # 40
        ("C", "four_of_a_kind", 15000),  # 30
        ("C", "full_house", 4000),  # 8
        ("C", "flush", 3500),  # 7
        ("C", "straight", 2000),  # 4
        ("C", "three_of_a_kind", 1500),  # 3
        ("C", "high_card", -500),
        ("D", "royal_flush", 25000),  # 50
        ("D", "straight_flush", 20000),  # 40
        ("D", "four_of_a_kind", 10000),  # 20
        ("D", "full_house", 3500),  # 7
        ("D", "flush", 3000),  # 6
        ("D", "straight", 2500),  # 5
        ("D", "three_of_a_kind", 1500),  # 3
        ("D", "two_pair", -500),
    ],
)
def test_trips_pays_by_paytable(table, category, trips_net):
    result = win_with(category, trips=500, rules={"trips_paytable": table})
    assert result["bets"]["trips"] == {"stake": 500, "net": trips_net}


def test_the_default_trips_paytable_is_c():
    assert nets(win_with("full_house", trips=500))["trips"] == 4000  # 8:1
    assert nets(win_with("flush", trips=500))["trips"] == 3500  # 7:1


def test_an_explicit_blind_table_pays_its_lines_and_pushes_the_rest():
    rules = {"blind_paytable": {"flush": "2:1", "pair": "1:2"}}
    assert nets(win_with("flush", rules=rules))["blind"] == 2000  # 2:1 on 1,000
    assert nets(win_with("pair", rules=rules))["blind"] == 500  # 1:2 on 1,000
    assert nets(win_with("straight", rules=rules))["blind"] == 0  # not listed: push


def test_an_explicit_trips_table_loses_what_it_does_not_list():
    rules = {"trips_paytable": {"three_of_a_kind": "5:1"}}
    assert nets(win_with("three_of_a_kind", trips=500, rules=rules))["trips"] == 2500
    assert nets(win_with("royal_flush", trips=500, rules=rules))["trips"] == -500


# --- Play multiples ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "street, multiple, play_net",
    [("preflop", 3, 3000), ("preflop", 4, 4000), ("flop", 2, 2000), ("river", 1, 1000)],
)
def test_the_play_bet_is_its_multiple_of_the_ante(street, multiple, play_net):
    result = win_with("pair", play=(street, multiple))
    assert result["bets"]["play"] == {"stake": play_net, "net": play_net}


def test_a_4x_only_table_refuses_a_3x_preflop_play():
    with pytest.raises(InputError) as refused:
        win_with("pair", rules={"preflop_multiples": [4]}, play=("preflop", 3))
    assert refused.value.code == "illegal_play"
    assert refused.value.message.startswith("seats[0].play.multiple: 3x is not a legal preflop")
    assert nets(win_with("pair", rules={"preflop_multiples": [4]}))["play"] == 4000


# --- payout unit and cap --------------------------------------------------------------------


def test_winnings_round_down_to_the_payout_unit_as_in_the_spec():
    # Blind 2,475 on a flush pays 3:2 = 3,712.5 -> 3,700 on a 25-cent table.
    # Ante 2,475 = 99 x 25 pays 2,475; Play 4 x 2,475 = 9,900 = 396 x 25 pays 9,900.
    result = win_with("flush", ante=2475, rules={"payout_unit_cents": 25})
    assert nets(result)["blind"] == 3700
    assert nets(result)["ante"] == 2475
    assert nets(result)["play"] == 9900
    assert result["net"] == 2475 + 3700 + 9900


def test_each_bet_is_rounded_on_its_own():
    # Ante 1,010 on a 25-cent table: Ante 1:1 = 1,010 -> 1,000; Play 4 x 1,010 = 4,040 -> 4,025;
    # Trips 510 at 3:1 (table C, three 7s) = 1,530 -> 1,525; Blind pushes.
    result = win_with("three_of_a_kind", ante=1010, trips=510, rules={"payout_unit_cents": 25})
    assert nets(result) == {
        "ante": 1000,
        "blind": 0,
        "play": 4025,
        "trips": 1525,
        "progressive": 0,
        "envy": 0,
    }


def test_losses_are_never_rounded():
    # Ante 1,010 on a 25-cent table, dealer's queens beat ace high: -1,010 three times.
    result = only_seat(
        settled(
            "As Kd 9h 7c 4s",
            "Qc Qd",
            seat(1, "2c 3h", ante=1010, play=("river", 1)),
            rules={"payout_unit_cents": 25},
        )
    )
    assert (nets(result)["ante"], nets(result)["blind"], nets(result)["play"]) == (
        -1010,
        -1010,
        -1010,
    )


def test_the_cap_withholds_the_excess_of_the_main_bets_and_trips():
    # Royal flush: Ante 1,000 + Blind 500,000 + Play 4,000 + Trips 25,000 = 530,000 of winnings.
    # Cap 100,000 -> 430,000 withheld; each bet's net is reported before the cap.
    result = win_with("royal_flush", trips=500, rules={"max_payout_cents": 100000})
    assert nets(result)["blind"] == 500000
    assert result["capped_cents"] == 430000
    assert result["net"] == 100000


def test_the_cap_counts_only_winning_bets():
    # Fold with three 7s: Ante -1,000, Blind -1,000, Trips 500 x 3 = +1,500. Cap 1,000:
    # winnings 1,500 > 1,000 -> 500 withheld; net -1,000 - 1,000 + 1,500 - 500 = -1,000.
    board, hole, dealer, _ = HAND["three_of_a_kind"]
    result = only_seat(
        settled(
            board, dealer, seat(1, hole, play=None, trips=500), rules={"max_payout_cents": 1000}
        )
    )
    assert result["capped_cents"] == 500
    assert result["net"] == -1000


def test_under_the_cap_nothing_is_withheld():
    result = win_with("pair", rules={"max_payout_cents": 5000})  # 1,000 + 4,000 = 5,000
    assert result["capped_cents"] == 0
    assert result["net"] == 5000


def test_the_progressive_is_outside_the_cap():
    # Ante 1,000 + Blind 500,000 + Play 4,000 = 505,000 winnings, cap 10,000 -> 495,000 withheld;
    # the progressive's 2,500,000 (100% of the meter) is paid in full:
    # net = 505,000 + 2,500,000 - 495,000 = 2,510,000.
    result = settled(
        "Qs Js Ts 3h 4d",
        "2c 2d",
        seat(1, "As Ks", progressive=100),
        rules={"max_payout_cents": 10000},
        meter=(2500000, 1000000),
    )
    player = only_seat(result)
    assert player["capped_cents"] == 495000
    assert nets(player)["progressive"] == 2500000
    assert player["net"] == 2510000
