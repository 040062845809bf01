"""The analysis equals an independent brute force, figure by figure, on small decks.

Each deck is small enough for `brute.py` to enumerate every deal in a few seconds, and chosen
so that between them every kind of hand occurs: four suits (quads, full houses, every suit
symmetry), three suits of T-A (flushes, straights, straight and royal flushes), three
suits of A-2-3-4-5 (the wheel, the ace playing low) and two suits of seven or eight ranks
(a dealer without a pair, who does not qualify).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from tables.parsheet import Deck, analyse
from tables.rules import parse_rules

from .brute import brute_force

JQKA_4 = ((9, 10, 11, 12), 4)
TJQKA_3 = ((8, 9, 10, 11, 12), 3)
WHEEL_3 = ((0, 1, 2, 3, 12), 3)
# Two suits of seven ranks or more: the only small decks where the dealer can fail to qualify
# (seven cards of five ranks always pair).
LOW_2 = ((0, 1, 2, 3, 4, 5, 12), 2)
HIGH_2 = ((5, 6, 7, 8, 9, 10, 11, 12), 2)

CASES = [
    (JQKA_4, {}),
    (
        JQKA_4,
        {"ante_when_dealer_not_qualified": "push_unless_dealer_wins", "preflop_multiples": [3]},
    ),
    (TJQKA_3, {}),
    (TJQKA_3, {"blind_paytable": "B"}),
    (TJQKA_3, {"preflop_multiples": [4]}),
    (TJQKA_3, {"ante_when_dealer_not_qualified": "push_unless_dealer_wins"}),
    # Odd multiples (a pre-flop 2x and 1x beside the flop's and river's) and an explicit Blind
    # table that pays a pair and odd odds (a common denominator of 15).
    (
        TJQKA_3,
        {
            "preflop_multiples": [1, 2, 5],
            "blind_paytable": {"pair": "1:3", "flush": "7:5", "royal_flush": "1000:1"},
        },
    ),
    (WHEEL_3, {}),
    (LOW_2, {}),
    (LOW_2, {"ante_when_dealer_not_qualified": "push_unless_dealer_wins"}),
    (HIGH_2, {}),
    (HIGH_2, {"ante_when_dealer_not_qualified": "push_unless_dealer_wins", "blind_paytable": "B"}),
]


def _key(o):
    return (o.street, o.multiple, o.result, o.dealer, o.category)


@pytest.mark.parametrize(("deck", "rules"), CASES, ids=lambda x: str(x))
def test_the_analysis_equals_the_brute_force(deck, rules):
    ranks, suits = deck
    rule_set = parse_rules(rules)
    sheet = analyse(rule_set, Deck(ranks, suits))
    brute = brute_force(rule_set, ranks, suits)

    assert sheet.house_edge == brute.house_edge
    assert {_key(o): o.count for o in sheet.outcomes} == dict(brute.outcomes)
    assert {h.name: (h.play, h.check, h.bets) for h in sheet.preflop} == brute.preflop
    assert (sheet.deals, sheet.ties) == (brute.deals, brute.ties)
    assert sheet.folds_by_category == brute.folds_by_category
    assert (sheet.flop_situations, sheet.flop_bets) == (brute.flop_situations, brute.flop_bets)
    assert (sheet.river_situations, sheet.river_bets) == (brute.river_situations, brute.river_bets)
    # The flop's two options in every situation, kept for the cost of a flop decision.
    d = Deck(ranks, suits)
    for (x, y, flop), values in brute.flop_values.items():
        assert sheet.flop_values.of(d, (x, y), flop) == values, (x, y, flop)


def test_the_figures_follow_from_the_outcomes():
    """Edge, stake, element of risk and variance, recomputed by hand from the outcomes."""
    ranks, suits = TJQKA_3
    sheet = analyse(parse_rules({}), Deck(ranks, suits))
    total = sum(o.count for o in sheet.outcomes)
    assert total == sheet.ordered_deals == 10 * sheet.deals
    mean = sum(o.count * o.net for o in sheet.outcomes) / total
    stake = 2 + Fraction(sum(o.count * o.multiple for o in sheet.outcomes), total)
    assert sheet.house_edge == -mean
    assert sheet.average_stake == stake
    assert sheet.element_of_risk == -mean / stake
    assert sheet.variance == sum(o.count * (o.net - mean) ** 2 for o in sheet.outcomes) / total
    # A fold loses Ante and Blind; a pre-flop 4x win with a royal flush pays 1 + 500 + 4.
    assert {o.net for o in sheet.outcomes if o.result == "fold"} == {-2}
    royal = [o for o in sheet.outcomes if o.category == "royal_flush" and o.street == "preflop_4x"]
    assert {o.net for o in royal} == {505}  # five ranks: seven cards always pair, so qualify


def test_the_rules_change_the_figures():
    """Each rule the base game knows moves the edge the way it should (the brute force says
    the figures are right; this says the rules reach the analysis)."""
    deck = Deck(*HIGH_2)
    edge = {
        name: analyse(parse_rules(rules), deck).house_edge
        for name, rules in {
            "standard": {},
            "blind_b": {"blind_paytable": "B"},
            "strict_ante": {"ante_when_dealer_not_qualified": "push_unless_dealer_wins"},
            "three_only": {"preflop_multiples": [3]},
        }.items()
    }
    assert edge["blind_b"] > edge["standard"]
    assert edge["strict_ante"] > edge["standard"]
    assert edge["three_only"] > edge["standard"]
