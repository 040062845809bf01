"""What each decision played is worth: the expected value of every option at a decision point,
in Antes, with the dealer's cards unknown to the player, and the cost of the one chosen.

- Pre-flop, from the par sheet (`ParSheet.preflop`): the value of checking (then playing on
  optimally) and of each allowed multiple, per starting hand.
- River, on the spot: the seven cards known, the dealer's 990 possible holdings ranked by the
  rules engine (`river_values`).
- Flop, from the analysis's flop values per situation (`ParSheet.flop_values`: a Play 2x
  against checking on), when the sheet carries them (one fresh from `analyse` does).
`seat_decisions` lists a settled seat's decisions with their costs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

from tables.rules.cards import DECK, SUITS, Card, parse_cards
from tables.rules.evaluator import category_of, strength7
from tables.rules.paytables import Odds
from tables.rules.ruleset import AnteWhenNotQualified, RuleSet

from .sheet import ParSheet

#: The qualifying category (a pair) in the engine's category order.
_PAIR = 1


def starting_hand(hole: Sequence[str | Card]) -> str:
    """`AKs`, `T9o`, `77`: the par sheet's name of two hole cards."""
    a, b = parse_cards(hole)
    high, low = (a, b) if a.rank >= b.rank else (b, a)
    if high.rank == low.rank:
        return high.rank_char * 2
    return high.rank_char + low.rank_char + ("s" if high.suit == low.suit else "o")


def preflop_values(sheet: ParSheet, hole: Sequence[str | Card]) -> dict[str, Fraction]:
    """The value, per Ante, of checking (`"check"`) and of each pre-flop Play (`"4x"`...)."""
    name = starting_hand(hole)
    hand = next(h for h in sheet.preflop if h.name == name)
    return {"check": hand.check, **{f"{m}x": v for m, v in hand.bets.items()}}


def flop_values(
    sheet: ParSheet, hole: Sequence[str | Card], flop: Sequence[str | Card]
) -> dict[str, Fraction] | None:
    """The value, per Ante, of a Play 2x (`"2x"`) and of checking on (`"check"`, then the
    river's best) at the flop; None when the sheet was loaded without its flop values."""
    if sheet.flop_values is None:
        return None
    deck = sheet.deck
    local = [
        deck.ranks.index(c.rank - 2) * deck.suits + SUITS.index(c.suit)
        for c in parse_cards([*hole, *flop])
    ]
    bet, check = sheet.flop_values.of(deck, (local[0], local[1]), (local[2], local[3], local[4]))
    return {"2x": bet, "check": check}


def river_values(
    rules: RuleSet, hole: Sequence[str | Card], board: Sequence[str | Card]
) -> dict[str, Fraction]:
    """The value, per Ante, of a Play 1x (`"1x"`) and of folding (`"fold"`) on the river,
    averaged over the dealer's possible holdings."""
    known = parse_cards([*hole, *board])
    player = strength7(known)
    blind = rules.blind_paytable.get(category_of(player).value)
    blind_win = Fraction(blind.n, blind.m) if isinstance(blind, Odds) else Fraction(0)
    strict = rules.ante_when_dealer_not_qualified is AnteWhenNotQualified.PUSH_UNLESS_DEALER_WINS
    rest = [c for c in DECK if c not in known]
    board_cards = list(known[2:])
    total = Fraction(0)
    count = 0
    for dealer_cards in combinations(rest, 2):
        dealer = strength7([*dealer_cards, *board_cards])
        qualifies = category_of(dealer).order >= _PAIR
        count += 1
        if player > dealer:
            total += (1 if qualifies else 0) + blind_win + 1
        elif player < dealer:
            total += -3 if qualifies or strict else -2
    return {"1x": total / count, "fold": Fraction(-2)}


def cost(values: dict[str, Fraction], chosen: str) -> Fraction:
    """What the choice cost the player in expectation, per Ante: the best option's value less
    the chosen one's (0 for the best play)."""
    return max(values.values()) - values[chosen]


@dataclass(frozen=True)
class Decision:
    """One decision a seat made: the street, the option chosen, every option's value per Ante
    (None where the par sheet does not keep them: the flop, for now) and what the choice
    cost against the best one."""

    street: str  # "preflop", "flop", "river"
    chosen: str  # "check", "4x", "2x", "1x", "fold"...
    values: dict[str, Fraction] | None
    cost: Fraction | None

    def cost_cents(self, ante_cents: int) -> Fraction | None:
        return None if self.cost is None else self.cost * ante_cents


def seat_decisions(
    sheet: ParSheet,
    hole: Sequence[str | Card],
    board: Sequence[str | Card],
    *,
    play_street: str | None,
    multiple: int = 0,
) -> list[Decision]:
    """Every decision of a seat in a settled round, in order: `play_street` is where it made
    its Play (`"preflop"`, `"flop"`, `"river"`; None: it folded), `multiple` the Play's."""
    decisions = []
    values = preflop_values(sheet, hole)
    chosen = f"{multiple}x" if play_street == "preflop" else "check"
    decisions.append(Decision("preflop", chosen, values, cost(values, chosen)))
    if play_street == "preflop":
        return decisions
    values = flop_values(sheet, hole, board[:3])
    chosen = "2x" if play_street == "flop" else "check"
    decisions.append(
        Decision("flop", chosen, values, None if values is None else cost(values, chosen))
    )
    if play_street == "flop":
        return decisions
    values = river_values(sheet.rules, hole, board)
    chosen = "1x" if play_street == "river" else "fold"
    decisions.append(Decision("river", chosen, values, cost(values, chosen)))
    return decisions
