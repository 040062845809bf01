"""Voids: the causes, what a void returns, and which reason is reported."""

import pytest

from tables.rules.settle import settle_json

from .rounds import round_input, seat, settled, spec_input

VOID_NOTHING_MOVES = {"meter_before_cents": 2500000, "meter_after_cents": 2500000, "hits": []}


def assert_everything_returned(result):
    for s in result["seats"]:
        assert s["net"] == 0
        assert s["capped_cents"] == 0
        assert all(bet["net"] == 0 for bet in s["bets"].values())
        assert s["outcome"] is None
        assert s["category"] is None


@pytest.mark.parametrize(
    "place, cards, reason",
    [
        ("board", ["Qs", "Js", "Ts", "3h"], "wrong_card_count"),  # 4 board cards
        ("board", ["Qs", "Js", "Ts", "3h", "4h", "5h"], "wrong_card_count"),  # 6
        ("dealer", ["2c", "2d", "5c"], "wrong_card_count"),  # the dealer got 3
        ("dealer", ["2c"], "wrong_card_count"),
        ("board", ["Qs", "Js", "Ts", "3h", "As"], "duplicate_card"),  # As is seat 1's
        ("dealer", ["2c", "Qs"], "duplicate_card"),  # Qs is on the board
    ],
)
def test_wrong_counts_and_duplicates_void_the_round(place, cards, reason):
    data = spec_input()
    data[place] = cards
    result = settle_json(data)
    assert result["void"] == {"reason": reason}
    assert_everything_returned(result)
    assert result["progressive"] == VOID_NOTHING_MOVES
    assert result["dealer"] == {"category": None, "best5": None, "qualifies": None}


def test_a_seat_with_the_wrong_number_of_hole_cards_voids_the_round():
    data = spec_input()
    data["seats"][1]["hole"] = ["7c"]
    assert settle_json(data)["void"] == {"reason": "wrong_card_count"}


def test_a_duplicate_between_two_seats_voids_the_round():
    data = spec_input()
    data["seats"][1]["hole"] = ["7c", "Ks"]  # seat 1 holds Ks
    assert settle_json(data)["void"] == {"reason": "duplicate_card"}


@pytest.mark.parametrize("kind", ["preflop_card_exposed", "community_card_exposed"])
def test_a_declared_exposed_card_voids_the_round_and_returns_every_stake(kind):
    data = spec_input()
    data["irregularities"] = [{"kind": kind}]
    result = settle_json(data)
    assert result["void"] == {"reason": kind}
    assert_everything_returned(result)
    # the stakes are reported as they were placed, the progressive included
    first = result["seats"][0]["bets"]
    assert (first["ante"]["stake"], first["play"]["stake"], first["trips"]["stake"]) == (
        1000,
        4000,
        500,
    )
    assert first["progressive"] == {"stake": 100, "net": 0, "category": None}
    assert result["progressive"] == VOID_NOTHING_MOVES


def test_a_card_drawn_in_error_unexposed_changes_nothing():
    data = spec_input()
    data["irregularities"] = [{"kind": "card_drawn_in_error_unexposed"}]
    plain = settle_json(spec_input())
    assert settle_json(data) == plain


@pytest.mark.parametrize("kind", ["wrong_card_count", "duplicate_card"])
def test_a_dealer_may_declare_a_wrong_count_or_a_duplicate_seen_on_the_felt(kind):
    data = spec_input()
    data["irregularities"] = [{"kind": kind}]
    assert settle_json(data)["void"] == {"reason": kind}


def test_the_first_declared_irregularity_is_the_reason_even_when_cards_are_missing():
    # a round voided before the flop has no board; the declaration says why.
    data = spec_input()
    data["board"] = []
    data["irregularities"] = [
        {"kind": "card_drawn_in_error_unexposed"},
        {"kind": "community_card_exposed"},
        {"kind": "preflop_card_exposed"},
    ]
    assert settle_json(data)["void"] == {"reason": "community_card_exposed"}


def test_a_wrong_count_is_reported_before_a_duplicate():
    data = spec_input()
    data["dealer"] = ["2c", "2c", "5d"]
    assert settle_json(data)["void"] == {"reason": "wrong_card_count"}


def test_a_void_without_progressive_keeps_the_meter_null():
    result = settled("As Kd 9h 7c", "Qc Qd", seat(1, "2c 3h", play=("river", 1), trips=500))
    assert result["void"] == {"reason": "wrong_card_count"}
    assert result["progressive"] == {
        "meter_before_cents": None,
        "meter_after_cents": None,
        "hits": [],
    }
    assert result["seats"][0]["bets"]["trips"] == {"stake": 500, "net": 0}


def test_a_void_still_checks_the_wagers():
    # a void returns the stakes, so they must be valid stakes.
    data = round_input("As Kd 9h 7c", "Qc Qd", seat(1, "2c 3h"))
    data["seats"][0]["blind"] = 900
    with pytest.raises(Exception) as refused:
        settle_json(data)
    assert getattr(refused.value, "code", None) == "ante_blind_mismatch"
