"""Hand evaluation: the best five of 5, 6 or 7 cards.

`evaluate(cards)` checks its input and returns a `HandValue` (category, the five cards that make
the hand, a total order). The fast core, `strength(cards)` and `strength7(cards)`, takes
distinct cards as ints (a `Card` is one) and returns an int: higher wins, equal ties. It does no
checking, for loops that evaluate millions of hands (tests, analysis, the benchmark).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from . import _tables as t
from .cards import Card, parse_cards
from .errors import InputError


class Category(StrEnum):
    """The hand categories of the spec, weakest first; they compare in that order."""

    HIGH_CARD = "high_card"
    PAIR = "pair"
    TWO_PAIR = "two_pair"
    THREE_OF_A_KIND = "three_of_a_kind"
    STRAIGHT = "straight"
    FLUSH = "flush"
    FULL_HOUSE = "full_house"
    FOUR_OF_A_KIND = "four_of_a_kind"
    STRAIGHT_FLUSH = "straight_flush"
    ROYAL_FLUSH = "royal_flush"

    @property
    def order(self) -> int:
        """0 for high card up to 9 for a royal flush."""
        return _ORDER[self]

    def __lt__(self, other: object) -> bool:
        if isinstance(other, Category):
            return _ORDER[self] < _ORDER[other]
        return NotImplemented

    def __le__(self, other: object) -> bool:
        if isinstance(other, Category):
            return _ORDER[self] <= _ORDER[other]
        return NotImplemented

    def __gt__(self, other: object) -> bool:
        if isinstance(other, Category):
            return _ORDER[self] > _ORDER[other]
        return NotImplemented

    def __ge__(self, other: object) -> bool:
        if isinstance(other, Category):
            return _ORDER[self] >= _ORDER[other]
        return NotImplemented


_BY_ORDER: tuple[Category, ...] = tuple(Category)
_ORDER: dict[Category, int] = {c: i for i, c in enumerate(_BY_ORDER)}

# Per card: 5 ** rank (the rank key) plus a 3-bit counter for its suit above it.
_VALUE: tuple[int, ...] = tuple(
    5 ** (c >> 2) + (1 << (t.RANK_KEY_BITS + 3 * (c & 3))) for c in range(52)
)
_BIT: tuple[int, ...] = tuple(1 << (c >> 2) for c in range(52))
_FLUSH_SUIT: list[int] = t.build_flush_suit()
_SHIFT = t.RANK_KEY_BITS
_MASK = t.RANK_KEY_MASK
# Filled on first use (see _tables); the flush table first, so that a filled rank table means
# both are complete even when two threads race to fill them.
_RANKED: dict[int, int] = {}
_FLUSHED: dict[int, int] = {}


def warm_up() -> None:
    """Build the lookup tables now rather than on the first evaluation."""
    if not _RANKED:
        _FLUSHED.update(t.build_flush_table())
        _RANKED.update(t.build_rank_table())


def _flush(cards: Iterable[int], suit: int) -> int:
    mask = 0
    for c in cards:
        if c & 3 == suit:
            mask |= _BIT[c]
    try:
        return _FLUSHED[mask]
    except KeyError:
        warm_up()
        return _FLUSHED[mask]


def strength(cards: Sequence[int]) -> int:
    """The strength of 5, 6 or 7 distinct cards: higher wins, equal ties. Unchecked: other
    input gives a meaningless value or a KeyError; `evaluate` checks."""
    total = 0
    for c in cards:
        total += _VALUE[c]
    suit = _FLUSH_SUIT[total >> _SHIFT]
    if suit >= 0:
        return _flush(cards, suit)
    try:
        return _RANKED[total & _MASK]
    except KeyError:
        warm_up()
        return _RANKED[total & _MASK]


def strength7(cards: Sequence[int]) -> int:
    """`strength` unrolled for exactly seven distinct cards (unchecked)."""
    a, b, c, d, e, f, g = cards
    v = _VALUE
    total = v[a] + v[b] + v[c] + v[d] + v[e] + v[f] + v[g]
    suit = _FLUSH_SUIT[total >> _SHIFT]
    if suit >= 0:
        return _flush(cards, suit)
    try:
        return _RANKED[total & _MASK]
    except KeyError:
        warm_up()
        return _RANKED[total & _MASK]


def category_of(value: int) -> Category:
    """The category of a strength."""
    return _BY_ORDER[value >> 20]


def _significant_ranks(value: int) -> list[int]:
    return [(value >> shift) & 0xF for shift in (16, 12, 8, 4, 0)]


# How many cards each significant rank contributes, for the categories made of rank groups.
_GROUPS: dict[int, tuple[int, ...]] = {
    t.HIGH_CARD: (1, 1, 1, 1, 1),
    t.PAIR: (2, 1, 1, 1),
    t.TWO_PAIR: (2, 2, 1),
    t.THREE_OF_A_KIND: (3, 1, 1),
    t.FULL_HOUSE: (3, 2),
    t.FOUR_OF_A_KIND: (4, 1),
}


def _straight_ranks(top: int) -> list[int]:
    if top == 3:
        return [3, 2, 1, 0, t.ACE]  # 5-4-3-2-A: the ace plays low
    return list(range(top, top - 5, -1))


def _best_five(cards: tuple[Card, ...], value: int) -> tuple[Card, ...]:
    """The five cards making the hand, most significant first; among cards of one rank,
    the first given."""
    category = value >> 20
    ranks = _significant_ranks(value)
    if category in (t.FLUSH, t.STRAIGHT_FLUSH, t.ROYAL_FLUSH):
        suits = [c & 3 for c in cards]
        suit = max(range(4), key=suits.count)
        cards = tuple(c for c in cards if c & 3 == suit)
    by_rank: dict[int, list[Card]] = {}
    for c in cards:
        by_rank.setdefault(c >> 2, []).append(c)
    if category in (t.STRAIGHT, t.STRAIGHT_FLUSH, t.ROYAL_FLUSH):
        return tuple(by_rank[rank][0] for rank in _straight_ranks(ranks[0]))
    if category == t.FLUSH:
        return tuple(by_rank[rank][0] for rank in ranks)
    # The ranks of a group hand (quads and kicker, two pairs and kicker...) are all distinct.
    best: list[Card] = []
    for rank, n in zip(ranks, _GROUPS[category], strict=False):
        best.extend(by_rank[rank][:n])
    return tuple(best)


@dataclass(frozen=True, eq=False, slots=True)
class HandValue:
    """A hand's value. Two values are equal exactly when the hands tie at the table."""

    strength: int
    category: Category
    best5: tuple[Card, ...]

    @property
    def best5_text(self) -> list[str]:
        return [str(c) for c in self.best5]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, HandValue):
            return self.strength == other.strength
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.strength)

    def __lt__(self, other: object) -> bool:
        if isinstance(other, HandValue):
            return self.strength < other.strength
        return NotImplemented

    def __le__(self, other: object) -> bool:
        if isinstance(other, HandValue):
            return self.strength <= other.strength
        return NotImplemented

    def __gt__(self, other: object) -> bool:
        if isinstance(other, HandValue):
            return self.strength > other.strength
        return NotImplemented

    def __ge__(self, other: object) -> bool:
        if isinstance(other, HandValue):
            return self.strength >= other.strength
        return NotImplemented

    def __str__(self) -> str:
        return f"{self.category.value} {' '.join(self.best5_text)}"


def evaluate(cards: Iterable[str | Card]) -> HandValue:
    """The best five-card hand from 5, 6 or 7 distinct cards (text like "As" or parsed)."""
    parsed = parse_cards(cards)
    if not 5 <= len(parsed) <= 7:
        raise InputError("hand.card_count", code="wrong_card_count", count=len(parsed))
    value = strength(parsed)
    return HandValue(value, _BY_ORDER[value >> 20], _best_five(parsed, value))
