"""A par sheet: the exact figures of the base game under optimal strategy, and their texts."""

from __future__ import annotations

import json
import math
import struct
import zlib
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from tables.rules.cards import RANKS
from tables.rules.ruleset import RuleSet

from .deck import Deck

#: The rules that change the base game; the others (Trips, progressive, Envy, the payout unit
#: and cap: see docs/reference/parsheet.md) leave its par sheet as it is.
BASE_GAME_RULES = ("preflop_multiples", "blind_paytable", "ante_when_dealer_not_qualified")


def base_game_rules(rules: RuleSet) -> dict[str, Any]:
    """The base-game rules of a rule set, in the engine's canonical JSON form."""
    canonical = rules.to_json()
    return {key: canonical[key] for key in BASE_GAME_RULES}


def base_game_key(rules: RuleSet) -> str:
    """One text per base game: rule sets with the same key have the same par sheet."""
    return json.dumps(base_game_rules(rules), sort_keys=True, separators=(",", ":"))


@dataclass(frozen=True)
class Outcome:
    """One final outcome: how many deals end so (deals told apart by flop and turn-river, see
    `ParSheet.ordered_deals`) and what it pays, in Antes, Ante, Blind and Play together."""

    street: str  # "preflop_4x", "preflop_3x", "flop", "river" (the fold is on the river)
    multiple: int  # the Play, in Antes (0 for a fold)
    result: str  # "win", "tie", "loss", "fold"
    dealer: str | None  # "qualifies", "not_qualified" (None for a tie or a fold)
    category: str | None  # the player's hand, for a win (what the Blind pays on)
    count: int
    net: Fraction

    def to_json(self, total: int) -> dict[str, Any]:
        p = Fraction(self.count, total)
        return {
            "street": self.street,
            "multiple": self.multiple,
            "result": self.result,
            "dealer": self.dealer,
            "category": self.category,
            "count": self.count,
            "net": _exact(self.net),
            "probability": _exact(p),
            "return": _exact(p * self.net),
        }


@dataclass
class PreflopHand:
    """One starting hand (`AKs`, `T9o`, `77`): how many holdings it covers, its best pre-flop
    Play (0: check) and the expected value of each option, per Ante."""

    name: str
    combos: int
    play: int
    check: Fraction
    bets: dict[int, Fraction] = field(default_factory=dict)

    def sort_key(self, deck: Deck) -> tuple[int, int, int]:
        hi, lo = RANKS.index(self.name[0]), RANKS.index(self.name[1])
        kind = 0 if hi == lo else (1 if self.name.endswith("s") else 2)
        return (-hi, kind, -lo)

    def to_json(self) -> dict[str, Any]:
        return {
            "hand": self.name,
            "combos": self.combos,
            "play": self.play,
            "check": _exact(self.check),
            "bets": {str(m): _exact(v) for m, v in self.bets.items()},
        }


@dataclass(frozen=True)
class FlopValues:
    """The flop's two options per (canonical flop, holding): `sums[f, h]` = (Play 2x, check
    then the river's best), summed over the turns, rivers and dealer holdings, times
    `scale`/(those deals) (see `analysis`): a value per Ante is `sums / scale`."""

    sums: np.ndarray  # (canonical flops, holdings, 2) int64
    scale: int

    def of(
        self, deck: Deck, hole: tuple[int, int], flop: tuple[int, int, int]
    ) -> tuple[Fraction, Fraction]:
        """(Play 2x, check) per Ante for deck-local cards."""
        _canon, _sizes, classes, perms = deck.flop_classes
        f = int(deck.flop_index[flop])
        h = int(deck.holding_index[hole])
        moved = int(deck.holding_perms[perms[f], h])
        bet, check = self.sums[classes[f], moved]
        return Fraction(int(bet), self.scale), Fraction(int(check), self.scale)

    def to_bytes(self) -> bytes:
        """The exact sums, compressed (about 10 MB for the 52 cards: 37 MB of int64)."""
        flops, holdings, _two = self.sums.shape
        head = struct.pack("<4sQQQ", b"FV01", self.scale, flops, holdings)
        raw = np.ascontiguousarray(self.sums, dtype="<i8").tobytes()
        return head + zlib.compress(raw, 6)

    @classmethod
    def from_bytes(cls, data: bytes) -> FlopValues:
        tag, scale, flops, holdings = struct.unpack_from("<4sQQQ", data)
        if tag != b"FV01":
            raise ValueError("not the par sheet's flop values")
        raw = zlib.decompress(data[struct.calcsize("<4sQQQ") :])
        sums = np.frombuffer(raw, dtype="<i8").reshape(flops, holdings, 2)
        return cls(sums.astype(np.int64, copy=False), scale)


@dataclass(frozen=True)
class ParSheet:
    rules: RuleSet
    deck: Deck
    outcomes: tuple[Outcome, ...]
    ordered_deals: int
    deals: int  # the player's and the dealer's holdings and the board (How's count)
    ties: int  # of those, the deals where the two hands tie (strategy-free)
    preflop: tuple[PreflopHand, ...]
    flop_situations: int  # (holding, flop) pairs reached after a pre-flop check
    flop_bets: int  # of those, where the Play 2x is best
    river_situations: int  # (holding, flop, turn-river) reached after two checks
    river_bets: int  # of those, where the Play 1x is best (the others fold)
    seconds: float
    flop_values: FlopValues | None = field(default=None, repr=False, compare=False)
    # The folds (deals, as `count`) by the player's final 7-card category.
    folds_by_category: dict[str, int] = field(default_factory=dict)

    @property
    def expected_return(self) -> Fraction:
        """The player's expected net per hand, in Antes."""
        return sum((o.count * o.net for o in self.outcomes), Fraction(0)) / self.ordered_deals

    @property
    def house_edge(self) -> Fraction:
        """Per Ante."""
        return -self.expected_return

    @property
    def average_stake(self) -> Fraction:
        """Ante, Blind and Play wagered per hand, in Antes."""
        play = sum((o.count * o.multiple for o in self.outcomes), 0)
        return 2 + Fraction(play, self.ordered_deals)

    @property
    def element_of_risk(self) -> Fraction:
        """The house edge per total amount wagered."""
        return self.house_edge / self.average_stake

    @property
    def variance(self) -> Fraction:
        second = sum((o.count * o.net * o.net for o in self.outcomes), Fraction(0))
        return second / self.ordered_deals - self.expected_return**2

    @property
    def standard_deviation(self) -> float:
        """Of one hand's net, in Antes."""
        return math.sqrt(self.variance)

    def probability(self, **match: object) -> Fraction:
        """The probability of the outcomes matching every given field (`result="fold"`...)."""
        count = sum(
            o.count for o in self.outcomes if all(getattr(o, k) == v for k, v in match.items())
        )
        return Fraction(count, self.ordered_deals)

    def preflop_bets(self) -> dict[int, list[str]]:
        """The starting hands that make each pre-flop Play."""
        found: dict[int, list[str]] = {m: [] for m in self.rules.preflop_multiples}
        for hand in self.preflop:
            if hand.play:
                found[hand.play].append(hand.name)
        return found

    def to_json(self) -> dict[str, Any]:
        return {
            "version": 1,
            "rules": self.rules.to_json(),
            "deck": {"ranks": "".join(RANKS[r] for r in self.deck.ranks), "suits": self.deck.suits},
            "house_edge": _exact(self.house_edge),
            "element_of_risk": _exact(self.element_of_risk),
            "average_stake": _exact(self.average_stake),
            "variance": _exact(self.variance),
            "standard_deviation": self.standard_deviation,
            "deals": self.deals,
            "ties": self.ties,
            "ordered_deals": self.ordered_deals,
            "outcomes": [o.to_json(self.ordered_deals) for o in self.outcomes],
            "strategy": {
                "preflop": [h.to_json() for h in self.preflop],
                "flop": {"situations": self.flop_situations, "bets": self.flop_bets},
                "river": {"situations": self.river_situations, "bets": self.river_bets},
            },
            "folds_by_category": dict(self.folds_by_category),
            "seconds": round(self.seconds, 1),
        }


def _exact(value: Fraction) -> dict[str, Any]:
    return {"exact": f"{value.numerator}/{value.denominator}", "decimal": float(value)}
