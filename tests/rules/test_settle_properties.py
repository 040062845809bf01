"""Properties that hold for every round: voids return everything, nets add up, and neither the
order seats are listed in nor the names of the suits change a result."""

import copy

from hypothesis import given, settings
from hypothesis import strategies as st

from tables.rules.cards import format_card
from tables.rules.settle import settle_json

PLAYS = [("preflop", 3), ("preflop", 4), ("flop", 2), ("river", 1), None]
PROGRESSIVE_TABLES = [
    None,  # the default: RF 100%, SF 10%, odds below
    # hands that happen often, so that shared 100% hits and lower tiers after them occur
    {"flush": "100%", "three_of_a_kind": "10%", "two_pair": "1:1", "pair": "1:2"},
    {"pair": "100%", "two_pair": "25%", "high_card": "1:10"},
]


@st.composite
def rounds(draw):
    deck = [format_card(c) for c in draw(st.permutations(range(52)))]
    numbers = draw(st.lists(st.integers(1, 7), min_size=1, max_size=7, unique=True))
    seats = []
    for i, number in enumerate(numbers):
        ante = draw(st.integers(1, 5000))
        play = draw(st.sampled_from(PLAYS))
        seat = {
            "seat": number,
            "ante": ante,
            "blind": ante,
            "trips": draw(st.integers(0, 3000)),
            "progressive": draw(st.sampled_from([0, 100])),
            "hole": deck[7 + 2 * i : 9 + 2 * i],
        }
        if play is None:
            seat["fold"] = True
        else:
            seat["play"] = {"street": play[0], "multiple": play[1]}
        seats.append(seat)
    rules = {
        "payout_unit_cents": draw(st.sampled_from([1, 5, 25])),
        "max_payout_cents": draw(st.sampled_from([None, 1000, 50000])),
        "trips_on_fold": draw(st.sampled_from(["stays", "lost"])),
        "envy": draw(
            st.sampled_from(
                [{"royal_flush": 100000, "straight_flush": 10000}, {"pair": 50, "two_pair": 200}]
            )
        ),
    }
    table = draw(st.sampled_from(PROGRESSIVE_TABLES))
    if table is not None:
        rules["progressive_paytable"] = table
    return {
        "rules": rules,
        "board": deck[:5],
        "dealer": deck[5:7],
        "progressive": {
            "meter_cents": draw(st.integers(0, 10**8)),
            "reset_cents": draw(st.integers(0, 10**6)),
        },
        "seats": seats,
    }


@settings(max_examples=200, deadline=None)
@given(rounds(), st.sampled_from(["preflop_card_exposed", "community_card_exposed"]))
def test_a_void_returns_every_stake_and_leaves_the_meter(round_, kind):
    round_["irregularities"] = [{"kind": kind}]
    result = settle_json(round_)
    assert result["void"] == {"reason": kind}
    for seat in result["seats"]:
        assert seat["net"] == 0
        assert all(bet["net"] == 0 for bet in seat["bets"].values())
    meter = round_["progressive"]["meter_cents"]
    assert result["progressive"] == {
        "meter_before_cents": meter,
        "meter_after_cents": meter,
        "hits": [],
    }


@settings(max_examples=300, deadline=None)
@given(rounds())
def test_a_seats_net_is_its_bets_nets_minus_what_the_cap_withheld(round_):
    result = settle_json(round_)
    cap = round_["rules"]["max_payout_cents"]
    for seat in result["seats"]:
        bets = seat["bets"]
        assert seat["net"] == sum(bet["net"] for bet in bets.values()) - seat["capped_cents"]
        capped_bets = ("ante", "blind", "play", "trips")
        winnings = sum(max(bets[name]["net"], 0) for name in capped_bets)
        assert seat["capped_cents"] == (max(winnings - cap, 0) if cap is not None else 0)
        unit = round_["rules"]["payout_unit_cents"]
        for name in capped_bets:
            net = bets[name]["net"]
            assert net <= 0 or net % unit == 0  # winnings rounded to the unit
            assert net >= -bets[name]["stake"]  # a bet loses at most its stake


@settings(max_examples=300, deadline=None)
@given(rounds())
def test_the_meter_moves_by_exactly_what_was_paid_and_reset(round_):
    result = settle_json(round_)
    progressive = result["progressive"]
    table = round_["rules"].get("progressive_paytable", {"royal_flush": "100%"})
    whole = {c for c, v in table.items() if v == "100%"}
    hits = progressive["hits"]
    before = progressive["meter_before_cents"]
    firsts = [i for i, hit in enumerate(hits) if hit["category"] in whole]
    if not firsts:
        assert progressive["meter_after_cents"] == before - sum(h["amount_cents"] for h in hits)
        return
    # the sharers split the meter as it stood when the first of them was paid
    pot = before - sum(h["amount_cents"] for h in hits[: firsts[0]])
    share = pot // len(firsts)
    assert all(hits[i]["amount_cents"] == share for i in firsts)
    later = sum(h["amount_cents"] for h in hits[firsts[0] :] if h["category"] not in whole)
    reset = round_["progressive"]["reset_cents"]
    assert progressive["meter_after_cents"] == reset + (pot - share * len(firsts)) - later


@settings(max_examples=200, deadline=None)
@given(rounds(), st.randoms(use_true_random=False))
def test_the_order_seats_are_listed_in_does_not_change_the_result(round_, random):
    shuffled = copy.deepcopy(round_)
    random.shuffle(shuffled["seats"])
    assert settle_json(shuffled) == settle_json(round_)


@settings(max_examples=200, deadline=None)
@given(rounds(), st.permutations("shdc"))
def test_renaming_the_suits_does_not_change_the_result(round_, suits):
    rename = dict(zip("shdc", suits, strict=True))

    def renamed(card):
        return card[0] + rename[card[1]]

    other = copy.deepcopy(round_)
    other["board"] = [renamed(c) for c in other["board"]]
    other["dealer"] = [renamed(c) for c in other["dealer"]]
    for seat in other["seats"]:
        seat["hole"] = [renamed(c) for c in seat["hole"]]

    expected = settle_json(round_)
    for place in [expected["dealer"], *expected["seats"]]:
        if place["best5"] is not None:
            place["best5"] = [renamed(c) for c in place["best5"]]
    assert settle_json(other) == expected
