"""The progressive wager and Envy: tiers, the meter, seat order, shared top hands.

Progressive wager 100 cents; the default table pays RF 100%, SF 10% of the meter, quads 300:1,
full house 50:1, flush 40:1, straight 30:1, trips 9:1; default Envy RF 100,000, SF 10,000.
"""

import pytest

from .rounds import nets, only_seat, seat, settled


def by_seat(result):
    return {s["seat"]: s for s in result["seats"]}


# (category, flop, hole) of a 5-card progressive hand; turn and river are 3c 4c, the dealer
# holds 5d 6d (neither matters to the progressive).
PROGRESSIVE_HANDS = [
    # category, flop, hole, net on 100, meter after (meter 1,000,000, reset 500,000)
    ("royal_flush", "Qs Js Ts", "As Ks", 1000000, 500000),  # 100%: the meter, then reset
    ("straight_flush", "Qs Js Ts", "9s 8s", 100000, 900000),  # 10% of 1,000,000
    ("four_of_a_kind", "9d 9c 2s", "9s 9h", 30000, 1000000),  # 300:1 -> 100 x 300
    ("full_house", "Kd 7s 7c", "Kh Kc", 5000, 1000000),  # 50:1
    ("flush", "Ah 7h 2h", "Kh 9h", 4000, 1000000),  # 40:1
    ("straight", "Tc Jh Qs", "8c 9d", 3000, 1000000),  # 30:1
    ("three_of_a_kind", "7h Ks 2d", "7c 7d", 900, 1000000),  # 9:1
    ("two_pair", "Ks 9h 2d", "Kc 9d", -100, 1000000),  # not in the table: lost
    ("pair", "As 9h 2d", "Ac Qd", -100, 1000000),
    ("high_card", "Ks 9h 2d", "Ac Qd", -100, 1000000),
]


@pytest.mark.parametrize("category, flop, hole, net, meter_after", PROGRESSIVE_HANDS)
def test_the_progressive_pays_its_tier_on_hole_cards_and_flop(
    category, flop, hole, net, meter_after
):
    result = settled(
        f"{flop} 3c 4c", "5d 6d", seat(1, hole, progressive=100), meter=(1000000, 500000)
    )
    player = only_seat(result)
    assert player["bets"]["progressive"] == {"stake": 100, "net": net, "category": category}
    assert result["progressive"]["meter_before_cents"] == 1000000
    assert result["progressive"]["meter_after_cents"] == meter_after


def test_odds_tiers_are_paid_by_the_house_and_leave_the_meter_alone():
    result = settled("Ah 7h 2h 3c 4c", "5d 6d", seat(1, "Kh 9h", progressive=100), meter=(777, 500))
    assert nets(only_seat(result))["progressive"] == 4000
    assert result["progressive"] == {
        "meter_before_cents": 777,
        "meter_after_cents": 777,
        "hits": [],
    }


def test_the_progressive_ignores_the_turn_and_river():
    # As Ks + Qs Js 2h is ace high, although the river Ts makes a royal flush for Trips.
    player = only_seat(
        settled(
            "Qs Js 2h 3d Ts",
            "5c 5d",
            seat(1, "As Ks", trips=500, progressive=100),
            meter=(1000000, 500000),
        )
    )
    assert player["category"] == "royal_flush"
    assert nets(player)["trips"] == 25000  # 50:1 on 500
    assert player["bets"]["progressive"] == {"stake": 100, "net": -100, "category": "high_card"}


def test_a_folded_seat_still_collects_its_progressive():
    player = only_seat(
        settled(
            "Ah 7h 2h 3c 4c",
            "5d 6d",
            seat(1, "Kh 9h", play=None, progressive=100),
            meter=(1000, 500),
        )
    )
    assert player["outcome"] == "fold"
    assert nets(player)["progressive"] == 4000
    assert player["net"] == -1000 - 1000 + 4000


def test_percentage_tiers_are_paid_in_seat_order_each_from_the_meter_as_it_stands():
    # Flop 9h 8h 7h: seat 2 (Jh Th) and seat 5 (6h 5h) both hold a straight flush (10%).
    # Seat 2 first: 10% of 1,000,000 = 100,000 -> meter 900,000; seat 5: 10% of 900,000 =
    # 90,000 -> meter 810,000. Seat 5 is listed first: the input order does not matter.
    result = settled(
        "9h 8h 7h 2c 3d",
        "Kc Kd",
        seat(5, "6h 5h", progressive=100),
        seat(2, "Jh Th", progressive=100),
        meter=(1000000, 500000),
    )
    assert [s["seat"] for s in result["seats"]] == [2, 5]
    assert result["progressive"] == {
        "meter_before_cents": 1000000,
        "meter_after_cents": 810000,
        "hits": [
            {"seat": 2, "category": "straight_flush", "amount_cents": 100000},
            {"seat": 5, "category": "straight_flush", "amount_cents": 90000},
        ],
    }
    assert nets(by_seat(result)[2])["progressive"] == 100000
    assert nets(by_seat(result)[5])["progressive"] == 90000


def test_a_percentage_is_rounded_down_to_the_cent():
    # 10% of 1,000,009 = 100,000.9 -> 100,000; meter 900,009.
    result = settled(
        "9h 8h 7h 2c 3d", "Kc Kd", seat(2, "Jh Th", progressive=100), meter=(1000009, 500000)
    )
    assert result["progressive"]["hits"][0]["amount_cents"] == 100000
    assert result["progressive"]["meter_after_cents"] == 900009


# A table where a flush takes the whole meter, so that several seats can hold a 100% hand
# on one flop (two royal flushes cannot share one flop), and three of a kind takes 10%.
SHARED = {"progressive_paytable": {"flush": "100%", "three_of_a_kind": "10%"}}
FLOP = "2h 5h 9h Kc 3d"  # flop 2h 5h 9h; Ah Kh, Qh Jh, Th 8h make flushes; 9c 9d three 9s


def test_several_100_percent_hands_share_the_meter_and_the_undivided_cents_stay_in_it():
    # 1,000,000 shared by three: 333,333 each, 1 cent undivided -> meter 500,000 + 1 = 500,001.
    result = settled(
        FLOP,
        "Qc Qd",
        seat(1, "Ah Kh", progressive=100),
        seat(3, "Qh Jh", progressive=100),
        seat(5, "Th 8h", progressive=100),
        rules=SHARED,
        meter=(1000000, 500000),
    )
    assert result["progressive"]["hits"] == [
        {"seat": 1, "category": "flush", "amount_cents": 333333},
        {"seat": 3, "category": "flush", "amount_cents": 333333},
        {"seat": 5, "category": "flush", "amount_cents": 333333},
    ]
    assert result["progressive"]["meter_after_cents"] == 500001


def test_a_10_percent_hand_after_the_100_percent_seats_is_paid_from_the_reset_meter():
    # Seats 1 and 3 share 1,000,001: 500,000 each, 1 undivided -> meter 200,000 + 1 = 200,001.
    # Seat 5's three 9s: 10% of 200,001 = 20,000.1 -> 20,000; meter 180,001.
    result = settled(
        FLOP,
        "Qc Qd",
        seat(1, "Ah Kh", progressive=100),
        seat(3, "Qh Jh", progressive=100),
        seat(5, "9c 9d", progressive=100),
        rules=SHARED,
        meter=(1000001, 200000),
    )
    assert [h["amount_cents"] for h in result["progressive"]["hits"]] == [500000, 500000, 20000]
    assert result["progressive"]["meter_after_cents"] == 180001


def test_a_10_percent_hand_between_two_sharing_seats_is_paid_from_the_reset_meter():
    # Seat 1 fixes the share when it is paid: 1,000,001 / 2 = 500,000 each, meter -> 200,001.
    # Seat 2 (three 9s): 10% of 200,001 = 20,000 -> 180,001. Seat 3 gets its 500,000 share.
    result = settled(
        FLOP,
        "Qc Qd",
        seat(1, "Ah Kh", progressive=100),
        seat(2, "9c 9d", progressive=100),
        seat(3, "Qh Jh", progressive=100),
        rules=SHARED,
        meter=(1000001, 200000),
    )
    assert result["progressive"]["hits"] == [
        {"seat": 1, "category": "flush", "amount_cents": 500000},
        {"seat": 2, "category": "three_of_a_kind", "amount_cents": 20000},
        {"seat": 3, "category": "flush", "amount_cents": 500000},
    ]
    assert result["progressive"]["meter_after_cents"] == 180001


def test_a_10_percent_hand_before_the_100_percent_seats_reduces_what_they_share():
    # Seat 1 (three 9s): 10% of 1,000,001 = 100,000 -> meter 900,001.
    # Seats 3 and 5 share 900,001: 450,000 each, 1 undivided -> meter 200,000 + 1 = 200,001.
    result = settled(
        FLOP,
        "Qc Qd",
        seat(1, "9c 9d", progressive=100),
        seat(3, "Qh Jh", progressive=100),
        seat(5, "Th 8h", progressive=100),
        rules=SHARED,
        meter=(1000001, 200000),
    )
    assert [h["amount_cents"] for h in result["progressive"]["hits"]] == [100000, 450000, 450000]
    assert result["progressive"]["meter_after_cents"] == 200001


def test_without_progressive_wagers_the_meter_is_optional():
    result = settled("As Kd 9h 7c 4s", "Qc Qd", seat(1, "2c 3h"))
    assert result["progressive"] == {
        "meter_before_cents": None,
        "meter_after_cents": None,
        "hits": [],
    }


def test_an_explicit_progressive_table_pays_odds_and_loses_what_it_does_not_list():
    rules = {"progressive_paytable": {"flush": "5:1"}}
    result = settled(
        "Ah 7h 2h 3c 4c",
        "5d 6d",
        seat(1, "Kh 9h", progressive=100),
        seat(2, "7c 7d", progressive=100),  # three 7s: not listed -> lost
        rules=rules,
        meter=(1000, 500),
    )
    assert nets(by_seat(result)[1])["progressive"] == 500
    assert nets(by_seat(result)[2])["progressive"] == -100


def test_the_progressive_odds_tiers_round_to_the_payout_unit():
    # 9:1 on a 105-cent wager = 945 -> 925 on a 25-cent table.
    rules = {"progressive_wager_cents": 105, "payout_unit_cents": 25}
    player = only_seat(
        settled(
            "7h Ks 2d 3c 4c", "5d 6d", seat(1, "7c 7d", progressive=105), rules=rules, meter=(0, 0)
        )
    )
    assert nets(player)["progressive"] == 925


# --- Envy --------------------------------------------------------------------------------

ENVY_BOARD = "9h 8h 7h 2c 3d"  # Jh Th and 6h 5h make straight flushes on this flop


def test_envy_is_paid_once_per_other_qualifying_seat_even_folded_and_never_for_ones_own_hand():
    # Seat 1 (Jh Th) and seat 4 (6h 5h, folded) hold straight flushes; seat 2 has ace high;
    # seat 3 made no progressive wager. Envy SF = 10,000:
    # seat 1 <- seat 4: 10,000; seat 2 <- seats 1 and 4: 20,000; seat 3: none; seat 4 <- seat 1.
    # Meter: seat 1 10% of 1,000,000 = 100,000 -> 900,000; seat 4 10% = 90,000 -> 810,000.
    result = settled(
        ENVY_BOARD,
        "Kc Kd",
        seat(1, "Jh Th", progressive=100),
        seat(2, "Ac Qd", progressive=100),
        seat(3, "4s 4d"),
        seat(4, "6h 5h", play=None, progressive=100),
        meter=(1000000, 500000),
    )
    seats = by_seat(result)
    assert {n: nets(s)["envy"] for n, s in seats.items()} == {1: 10000, 2: 20000, 3: 0, 4: 10000}
    # seat 2: Ante -1,000 Blind -1,000 Play -4,000 (kings beat ace high), progressive -100,
    # Envy +20,000 -> 13,900.
    assert seats[2]["net"] == -1000 - 1000 - 4000 - 100 + 20000
    assert result["progressive"]["meter_after_cents"] == 810000


def test_a_qualifying_hand_without_a_progressive_wager_pays_no_envy():
    result = settled(
        ENVY_BOARD,
        "Kc Kd",
        seat(1, "Ac Qd", progressive=100),
        seat(3, "Jh Th"),  # a straight flush, but no progressive wager
        meter=(1000000, 500000),
    )
    assert nets(by_seat(result)[1])["envy"] == 0
    assert by_seat(result)[3]["bets"]["progressive"]["category"] is None


def test_a_lone_straight_flush_collects_no_envy_from_itself():
    player = only_seat(
        settled(ENVY_BOARD, "Kc Kd", seat(1, "Jh Th", progressive=100), meter=(0, 0))
    )
    assert nets(player)["envy"] == 0


def test_envy_for_a_royal_flush_is_its_own_amount():
    # seat 1 holds As Ks on a flop of Qs Js Ts: Envy RF = 100,000 to seat 2.
    result = settled(
        "Qs Js Ts 3h 4d",
        "2c 2d",
        seat(1, "As Ks", progressive=100),
        seat(2, "7c 8d", progressive=100),
        meter=(1000000, 500000),
    )
    assert nets(by_seat(result)[2])["envy"] == 100000
    assert nets(by_seat(result)[1])["envy"] == 0


def test_a_wager_below_the_envy_minimum_collects_no_envy():
    rules = {"envy_min_wager_cents": 500}  # the wager is 100
    result = settled(
        ENVY_BOARD,
        "Kc Kd",
        seat(1, "Jh Th", progressive=100),
        seat(2, "Ac Qd", progressive=100),
        rules=rules,
        meter=(1000000, 500000),
    )
    assert [nets(s)["envy"] for s in result["seats"]] == [0, 0]


def test_a_wager_at_the_envy_minimum_collects_envy():
    rules = {"envy_min_wager_cents": 500, "progressive_wager_cents": 500}
    result = settled(
        ENVY_BOARD,
        "Kc Kd",
        seat(1, "Jh Th", progressive=500),
        seat(2, "Ac Qd", progressive=500),
        rules=rules,
        meter=(1000000, 500000),
    )
    assert nets(by_seat(result)[2])["envy"] == 10000


def test_an_explicit_envy_table_pays_its_amounts():
    rules = {"envy": {"flush": 2500}}
    result = settled(
        "Ah 7h 2h 3c 4c",
        "5d 6d",
        seat(1, "Kh 9h", progressive=100),
        seat(2, "Jh Th", progressive=100),
        seat(3, "7c 7d", progressive=100),
        rules=rules,
        meter=(1000, 500),
    )
    # seats 1 and 2 hold flushes: seat 1 <- seat 2, seat 2 <- seat 1, seat 3 <- both.
    assert [nets(s)["envy"] for s in result["seats"]] == [2500, 2500, 5000]
