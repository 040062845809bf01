"""What each decision played is worth: the expected value of every option at a decision point,
in Antes, with the dealer's cards unknown to the player, and the cost of the one chosen.

- Pre-flop, from the par sheet (`ParSheet.preflop`): the value of checking (then playing on
  optimally) and of each allowed multiple, per starting hand.
- River, on the spot: the seven cards known, the dealer's 990 possible holdings ranked by the
  rules engine (`river_values`).
- Flop, from the analysis's flop values per situation (`ParSheet.flop_values`: a Play 2x
  against checking on), when the sheet carries them (one fresh from `analyse` does).
`seat_decisions` lists a settled seat's decisions with their costs. `StoredValues` is what a
worker keeps of a stored sheet (its JSON and its flop values) to price rounds: the same
answers, the river by numpy on the deck's rank tables (`RiverRanks`, built once per process)
rather than the engine's evaluator 990 times.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import combinations

import numpy as np

from tables.rules.cards import DECK, RANKS, SUITS, Card, parse_cards
from tables.rules.evaluator import category_of, strength7
from tables.rules.paytables import CATEGORIES, Odds
from tables.rules.ruleset import AnteWhenNotQualified, RuleSet, parse_rules

from .deck import Deck
from .hands import Ranking
from .sheet import FlopValues, ParSheet, PreflopHand

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


def _local(deck: Deck, cards: Sequence[str | Card]) -> list[int]:
    return [
        deck.ranks.index(c.rank - 2) * deck.suits + SUITS.index(c.suit) for c in parse_cards(cards)
    ]


class RiverRanks:
    """`river_values` by numpy: every holding ranked on the board at once with the analysis's
    lookup tables, the dealer's holdings those not sharing a card with the player's."""

    def __init__(self, deck: Deck | None = None) -> None:
        self.deck = deck or Deck()
        self.ranking = Ranking.build(self.deck)

    def values(
        self, rules: RuleSet, hole: Sequence[str | Card], board: Sequence[str | Card]
    ) -> dict[str, Fraction]:
        deck = self.deck
        x, y = _local(deck, hole)
        ranked = self.ranking.rank(np.array([_local(deck, board)], dtype=np.int64))[0]
        mine = int(ranked[deck.holding_index[x, y]])
        used = deck.card_masks[x] | deck.card_masks[y]
        dealer = ranked[(ranked >= 0) & ((deck.holding_masks & used) == 0)]
        qualifies = dealer >= self.ranking.qualifying
        below, above = dealer < mine, dealer > mine
        win = int(below.sum())
        win_q = int((below & qualifies).sum())
        lose_q = int((above & qualifies).sum())
        lose_nq = int(above.sum()) - lose_q
        blind = rules.blind_paytable.get(CATEGORIES[int(self.ranking.categories[mine])])
        blind_win = Fraction(blind.n, blind.m) if isinstance(blind, Odds) else Fraction(0)
        strict = (
            rules.ante_when_dealer_not_qualified is AnteWhenNotQualified.PUSH_UNLESS_DEALER_WINS
        )
        total = win_q + win * (blind_win + 1) - 3 * lose_q - (3 if strict else 2) * lose_nq
        return {"1x": Fraction(total) / len(dealer), "fold": Fraction(-2)}


@dataclass(frozen=True)
class StoredValues:
    """A stored par sheet, as `seat_decisions` reads it: the rules, the pre-flop values (from
    the sheet's JSON) and the flop values (from their bytes)."""

    rules: RuleSet
    deck: Deck
    preflop: tuple[PreflopHand, ...]
    flop_values: FlopValues

    @classmethod
    def load(cls, sheet_json: dict, flop_bytes: bytes) -> StoredValues:
        deck_json = sheet_json["deck"]
        deck = Deck(tuple(RANKS.index(r) for r in deck_json["ranks"]), deck_json["suits"])
        preflop = tuple(
            PreflopHand(
                h["hand"],
                h["combos"],
                h["play"],
                Fraction(h["check"]["exact"]),
                {int(m): Fraction(v["exact"]) for m, v in h["bets"].items()},
            )
            for h in sheet_json["strategy"]["preflop"]
        )
        return cls(
            parse_rules(sheet_json["rules"]), deck, preflop, FlopValues.from_bytes(flop_bytes)
        )

    @property
    def river(self) -> RiverRanks:
        return river_ranks(self.deck)


@lru_cache(maxsize=4)
def river_ranks(deck: Deck) -> RiverRanks:
    """The deck's `RiverRanks`, built once per process (about a second for 52 cards)."""
    return RiverRanks(deck)


def cost(values: dict[str, Fraction], chosen: str) -> Fraction:
    """What the choice cost the player in expectation, per Ante: the best option's value less
    the chosen one's (0 for the best play)."""
    return max(values.values()) - values[chosen]


@dataclass(frozen=True)
class Decision:
    """One decision a seat made: the street, the option chosen, every option's value per Ante
    (None at the flop of a sheet loaded without its flop values) and what the choice cost
    against the best one."""

    street: str  # "preflop", "flop", "river"
    chosen: str  # "check", "4x", "2x", "1x", "fold"...
    values: dict[str, Fraction] | None
    cost: Fraction | None

    def cost_cents(self, ante_cents: int) -> Fraction | None:
        return None if self.cost is None else self.cost * ante_cents


River = Callable[[RuleSet, Sequence[str | Card], Sequence[str | Card]], dict[str, Fraction]]


def seat_decisions(
    sheet: ParSheet | StoredValues,
    hole: Sequence[str | Card],
    board: Sequence[str | Card],
    *,
    play_street: str | None,
    multiple: int = 0,
    river: River | None = None,
) -> list[Decision]:
    """Every decision of a seat in a settled round, in order: `play_street` is where it made
    its Play (`"preflop"`, `"flop"`, `"river"`; None: it folded), `multiple` the Play's;
    `river`: how the river's values are found (the engine's `river_values` by default)."""
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
    values = (river or river_values)(sheet.rules, hole, board)
    chosen = "1x" if play_street == "river" else "fold"
    decisions.append(Decision("river", chosen, values, cost(values, chosen)))
    return decisions


def round_decisions(
    sheet: ParSheet | StoredValues, settle_input: dict, *, river: River | None = None
) -> dict[int, list[Decision]]:
    """Every seat's decisions in a round, from its settlement input (`settle` JSON: the board,
    each seat's hole cards and its Play or fold)."""
    board = settle_input["board"]
    found = {}
    for seat in settle_input["seats"]:
        play = seat.get("play")
        found[int(seat["seat"])] = seat_decisions(
            sheet,
            seat["hole"],
            board,
            play_street=play["street"] if play else None,
            multiple=int(play["multiple"]) if play else 0,
            river=river,
        )
    return found


def _cents(value: Fraction, ante: int) -> int:
    return round(value * ante)


def _decision_json(d: Decision, ante: int) -> dict:
    assert d.values is not None
    values = d.values
    best = max(values, key=lambda k: values[k])
    return {
        "street": d.street,
        "chosen": d.chosen,
        "best": best,
        "chosen_cents": _cents(values[d.chosen], ante),
        "best_cents": _cents(values[best], ante),
        "cost_cents": _cents(d.cost or Fraction(0), ante),
    }


def round_costs(
    sheet: ParSheet | StoredValues, settle_input: dict, *, river: River | None = None
) -> dict[int, tuple[int, int, list[dict]]]:
    """{seat: (its Ante, the cost of its decisions, each decision)} in cents: per decision
    the option chosen and the best one with their expected values (`_decision_json`). The
    cost is the exact sum rounded once; `river`: on the sheet's deck by numpy by default."""
    if river is None:
        river = river_ranks(sheet.deck).values
    antes = {int(s["seat"]): int(s["ante"]) for s in settle_input["seats"]}
    found = {}
    for seat, decisions in round_decisions(sheet, settle_input, river=river).items():
        ante = antes[seat]
        total = sum((d.cost or Fraction(0) for d in decisions), Fraction(0))
        found[seat] = (ante, _cents(total, ante), [_decision_json(d, ante) for d in decisions])
    return found
