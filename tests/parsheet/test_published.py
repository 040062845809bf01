"""The full 52-card analysis against the figures others published (slow: minutes, CI runs it).

Wizard of Odds: 2.185 % per Ante, element of risk 0.526 %, standard deviation 4.94 for the
standard game, the same for 4x only (no hand prefers 3x), and the pre-flop strategy (raise 4x
with any ace, K2s+, K5o+, Q6s+, Q8o+, J8s+, JTo+, 33+); Stephen How: 2,781,381,002,400 deals
of which 113,130,263,816 tie, whatever the strategy.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from tables.parsheet import analyse
from tables.rules import parse_rules

pytestmark = pytest.mark.slow

RANKS = "23456789TJQKA"


@pytest.fixture(scope="module")
def standard():
    return analyse(parse_rules({}))


def _published_raises() -> set[str]:
    """WoO's pre-flop 4x hands, spelt out."""
    hands = {r + r for r in RANKS[1:]}  # 33 and up
    hands |= {"A" + r + s for r in RANKS[:-1] for s in "so"}  # any ace
    for high, suited, offsuit in (("K", "2", "5"), ("Q", "6", "8"), ("J", "8", "T")):
        below = RANKS[: RANKS.index(high)]
        hands |= {high + r + "s" for r in below[below.index(suited) :]}
        hands |= {high + r + "o" for r in below[below.index(offsuit) :]}
    return hands


def test_the_standard_game_matches_the_published_figures(standard):
    assert round(float(standard.house_edge) * 100, 3) == 2.185
    assert round(float(standard.element_of_risk) * 100, 3) == 0.526
    assert round(standard.standard_deviation, 2) == 4.94
    assert standard.deals == 2_781_381_002_400
    assert standard.ties == 113_130_263_816
    assert standard.house_edge == Fraction(50643648973, 2317817502000)


def test_the_standard_strategy_is_the_published_one(standard):
    bets = standard.preflop_bets()
    assert bets[3] == []
    assert set(bets[4]) == _published_raises()
    assert len(standard.preflop) == 169
    assert sum(h.combos for h in standard.preflop) == 1326


def test_four_times_only_is_the_same_game(standard):
    four = analyse(parse_rules({"preflop_multiples": [4]}))
    assert four.house_edge == standard.house_edge
    assert four.element_of_risk == standard.element_of_risk
    assert [o.count for o in four.outcomes] == [o.count for o in standard.outcomes]


def test_the_cost_of_pre_flop_mistakes(standard):
    """A pair of aces checked, a 4x on 7-2 offsuit: what each gives up, per Ante."""
    from tables.parsheet.decisions import cost, preflop_values

    aces = preflop_values(standard, ["As", "Ah"])
    assert max(aces, key=aces.get) == "4x"
    assert cost(aces, "check") == aces["4x"] - aces["check"] > 0
    seven_deuce = preflop_values(standard, ["7c", "2d"])
    assert max(seven_deuce, key=seven_deuce.get) == "check"
    assert cost(seven_deuce, "4x") == seven_deuce["check"] - seven_deuce["4x"] > 0
    assert cost(seven_deuce, "4x") > cost(seven_deuce, "3x") > 0


def test_the_exact_charge_on_the_full_deck_is_the_edges_without_unit_or_cap(standard):
    """The accounting's per-wager pricing (tables.accounting.theoretical.SeatPricing) from the
    standard sheet: the 7-card hands not won are the 52-card counts less the wins, so without
    a unit or a cap a wager is charged exactly Ante x the sheet's edge + Trips x the engine's
    Trips edge; with the demo's unit and cap (25 cents, 20,000 €) the charge only grows."""
    from tables.accounting.theoretical import seat_pricing
    from tables.rules import paymath

    sheet = standard.to_json()
    trips = paymath.trips_math(parse_rules({}).trips_paytable).house_edge
    plain = seat_pricing({}, sheet)
    capped = seat_pricing({"payout_unit_cents": 25, "max_payout_cents": 2_000_000}, sheet)
    for ante, stake in ((1_000, 0), (2_500, 1_000), (500_000, 100_000)):
        assert plain.uncapped(ante, stake) == ante * standard.house_edge + stake * trips
        assert plain.withheld(ante, stake) == 0
        assert capped.uncapped(ante, stake) == plain.uncapped(ante, stake)
    assert capped.withheld(1_000, 0) == 0  # every payout a multiple of 25 cents, far below 20,000 €
    assert capped.withheld(1_010, 0) > 0  # a 3:2 on 10.10 € is 15.15 €, paid 15.00 €
    assert capped.withheld(500_000, 100_000) > 0  # a royal flush's 2,500,000 € capped
