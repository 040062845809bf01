"""The exact math of a paytable: hand counts, Trips house edge, progressive return, Envy cost.

Every figure is an exact `Fraction` built from the number of hands in each category:

- `seven_card_counts()`: the 133,784,560 seven-card hands by their best five (Trips, which is
  decided on the player's final 7-card hand);
- `five_card_counts()`: the 2,598,960 five-card hands (the progressive hand: the 2 hole cards
  plus the 3 flop cards, and so the Envy hand too).

The counts are combinatorial, not a brute force: a hand with five or more cards of one suit
is a flush whose kind depends only on the ranks of that suit (with at most seven cards no full
house or four of a kind can sit beside it), and every other hand's category depends only on
its multiset of ranks, each weighted by the suitings of it that hold no flush. The same code
counts a reduced deck (fewer ranks or suits), which the tests brute-force through the evaluator.

The bet math follows the settlement exactly (spec/settle.md): a winning line returns the stake
and pays its odds, a category the table does not list loses the stake, `0:M` pays nothing and
returns the stake (a push). Rounding winnings down to the cent or the payout unit is left out
of the per-unit figures (it only ever favours the house, by less than a unit per win); the
progressive figures, at a given wager and meter, use the engine's own rounding to the cent.

`check_paytable` gives the findings a manager must see before a table is approved: what is
refused outright (`REFUSE`) and what needs a confirmation (`WARN`), with message keys of
`messages` so the Django layer says them in the reader's language.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from functools import cache
from itertools import combinations
from math import comb, factorial, floor, prod
from types import MappingProxyType

from .messages import Param, Translate, render
from .paytables import (
    BLIND_PRESETS,
    CATEGORIES,
    DEFAULT_ENVY,
    DEFAULT_PROGRESSIVE,
    PPM,
    TRIPS_PRESETS,
    Cents,
    Odds,
    Paytable,
    PayValue,
    Percent,
    TableKind,
)
from .ruleset import AnteWhenNotQualified, RuleSet

#: The full deck's ranks (the ace is 14; it also plays low in A-2-3-4-5).
RANKS: tuple[int, ...] = tuple(range(2, 15))
_ROYAL = frozenset(range(10, 15))
_STRAIGHTS: tuple[frozenset[int], ...] = tuple(
    frozenset(range(top - 4, top + 1)) for top in range(6, 15)
) + (frozenset({14, 2, 3, 4, 5}),)


# --- counting hands ---------------------------------------------------------------------------


def _has_straight(ranks: frozenset[int]) -> bool:
    return any(run <= ranks for run in _STRAIGHTS)


def _flush_kind(suited: frozenset[int]) -> str:
    """The category of a hand holding five or more cards of one suit, by that suit's ranks."""
    if _ROYAL <= suited:
        return "royal_flush"
    return "straight_flush" if _has_straight(suited) else "flush"


def _shape_kind(shape: tuple[int, ...]) -> str:
    """The category of a hand without a flush or a straight, by its cards per rank (most
    first): a full house or four of a kind beats any straight, the rest yield to one."""
    if shape[0] >= 4:
        return "four_of_a_kind"
    if shape[0] == 3 and len(shape) > 1 and shape[1] >= 2:
        return "full_house"
    if shape[0] == 3:
        return "three_of_a_kind"
    pairs = shape.count(2)
    if pairs >= 2:
        return "two_pair"
    return "pair" if pairs == 1 else "high_card"


def _shapes(size: int, most: int, least: int = 1) -> Iterator[tuple[int, ...]]:
    """Every way to split `size` cards into ranks holding at most `most` each, most first."""
    if size == 0:
        yield ()
        return
    for first in range(min(most, size), least - 1, -1):
        for rest in _shapes(size - first, first):
            yield (first, *rest)


def _arrangements(shape: tuple[int, ...]) -> int:
    """In how many orders the distinct ranks of a hand can take these counts."""
    return factorial(len(shape)) // prod(factorial(shape.count(n)) for n in set(shape))


def _suitings_without_flush(shape: tuple[int, ...], suits: int) -> int:
    """How many ways to give suits to cards of these counts per rank put fewer than five in
    every suit. The suitings with a flush are counted suit by suit (at most one suit can hold
    five of seven cards): the flush suit takes one card of some ranks (a term x per card), the
    other suits share the rest without repeating a suit within a rank."""
    by_suited = [1]
    for n in shape:
        outside, inside = comb(suits - 1, n), comb(suits - 1, n - 1)
        by_suited = [
            (by_suited[i] if i < len(by_suited) else 0) * outside
            + (by_suited[i - 1] * inside if i > 0 else 0)
            for i in range(len(by_suited) + 1)
        ]
    return prod(comb(suits, n) for n in shape) - suits * sum(by_suited[5:])


@cache
def _straight_supports(ranks: tuple[int, ...], distinct: int) -> int:
    """How many sets of `distinct` ranks hold a straight."""
    return sum(1 for held in combinations(ranks, distinct) if _has_straight(frozenset(held)))


@cache
def category_counts(size: int, ranks: tuple[int, ...] = RANKS, suits: int = 4) -> Mapping[str, int]:
    """How many `size`-card hands (5 to 7) of a deck with these ranks and `suits` suits (1 to 4)
    fall in each category of `CATEGORIES` by their best five; cached."""
    if not 5 <= size <= 7 or not 1 <= suits <= 4:
        # Beyond seven cards two suits could both hold five, or a flush sit beside a full house.
        raise ValueError("hands of 5 to 7 cards from 1 to 4 suits only")
    counts = dict.fromkeys(CATEGORIES, 0)
    others = (suits - 1) * len(ranks)
    # Five or more cards of one suit: only one suit can, and the hand is a flush of some kind
    # (with seven cards at most, no full house or four of a kind fits beside five suited).
    for suited_size in range(5, size + 1):
        for suited in combinations(ranks, suited_size):
            counts[_flush_kind(frozenset(suited))] += suits * comb(others, size - suited_size)
    # Fewer than five of any suit: the counts per rank decide, and which ranks they fall on
    # matters only for a straight.
    for shape in _shapes(size, suits):
        distinct = len(shape)
        if distinct > len(ranks):
            continue
        hands = _arrangements(shape) * _suitings_without_flush(shape, suits)
        kind = _shape_kind(shape)
        supports = comb(len(ranks), distinct)
        if kind in ("four_of_a_kind", "full_house") or distinct < 5:
            counts[kind] += supports * hands
            continue
        straights = _straight_supports(ranks, distinct)
        counts["straight"] += straights * hands
        counts[kind] += (supports - straights) * hands
    return MappingProxyType(counts)


def seven_card_counts() -> Mapping[str, int]:
    """The 133,784,560 seven-card hands by category (best five of seven)."""
    return category_counts(7)


def five_card_counts() -> Mapping[str, int]:
    """The 2,598,960 five-card hands by category."""
    return category_counts(5)


def _probabilities(counts: Mapping[str, int]) -> dict[str, Fraction]:
    total = sum(counts.values())
    return {category: Fraction(n, total) for category, n in counts.items()}


# --- Trips --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Line:
    """One hand category of a bet: what it pays, how often it comes, what it adds to the return.

    `net` is what the bet wins per unit staked when the hand is this category (its odds, 0 for
    a push, -1 when the table does not list it); `contribution` is `probability * net`."""

    category: str
    pays: PayValue | None
    hands: int
    probability: Fraction
    net: Fraction
    contribution: Fraction

    @property
    def wins(self) -> bool:
        return self.net > 0


@dataclass(frozen=True, slots=True)
class TripsMath:
    """A Trips table over the exact 7-card counts. `lines` is every category, best first."""

    lines: tuple[Line, ...]
    house_edge: Fraction
    hit_frequency: Fraction

    @property
    def expected_return(self) -> Fraction:
        """What comes back per unit staked, stake included (1 - the house edge)."""
        return 1 - self.house_edge

    @property
    def variance(self) -> Fraction:
        """The variance of one bet's net result, per unit staked squared."""
        mean = -self.house_edge
        return sum((line.probability * line.net**2 for line in self.lines), Fraction(0)) - mean**2


def _odds_net(pays: PayValue | None) -> Fraction:
    if isinstance(pays, Odds):
        return Fraction(pays.n, pays.m)
    return Fraction(-1)


def odds_math(paytable: Paytable, counts: Mapping[str, int]) -> TripsMath:
    """The math of an odds table (a stake-back-and-odds bet that loses unlisted hands)."""
    probability = _probabilities(counts)
    lines = tuple(
        Line(
            category=c,
            pays=paytable.get(c),
            hands=counts[c],
            probability=probability[c],
            net=_odds_net(paytable.get(c)),
            contribution=probability[c] * _odds_net(paytable.get(c)),
        )
        for c in reversed(CATEGORIES)
    )
    return TripsMath(
        lines=lines,
        house_edge=-sum((line.contribution for line in lines), Fraction(0)),
        hit_frequency=sum((line.probability for line in lines if line.wins), Fraction(0)),
    )


def trips_math(paytable: Paytable) -> TripsMath:
    """The exact house edge of a Trips table, per unit staked, on the player's best 5 of 7
    (the standard rule: Trips stays in action after a fold)."""
    return odds_math(paytable, seven_card_counts())


# --- the progressive ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ProgressiveLine:
    """A progressive tier at one meter: `amount_cents` is what a hit wins (the stake comes back
    besides), `-wager` for a hand the table does not list; `contribution` is per unit wagered."""

    category: str
    pays: PayValue | None
    hands: int
    probability: Fraction
    amount_cents: int
    contribution: Fraction

    @property
    def wins(self) -> bool:
        return self.amount_cents > 0


@dataclass(frozen=True, slots=True)
class ProgressiveMath:
    """A progressive table at a meter, for one wager, over the exact 5-card counts.

    `expected_return` is what comes back per unit wagered (1 = 100 %) at `meter_cents`, as one
    seat's hit is paid (the meter as it stands); `expected_return_at_reset` the same at the
    bank's reset amount; `break_even_meter_cents` the smallest meter at which the return is at
    least 100 % (None when no tier is a share of the meter: the return then never moves)."""

    meter_cents: int
    reset_cents: int | None
    wager_cents: int
    lines: tuple[ProgressiveLine, ...]
    expected_return: Fraction
    expected_return_at_reset: Fraction | None
    break_even_meter_cents: int | None
    hit_frequency: Fraction

    @property
    def house_edge(self) -> Fraction:
        return 1 - self.expected_return


def _tier_amount(pays: PayValue | None, meter_cents: int, wager_cents: int) -> int:
    if isinstance(pays, Odds):
        return pays.winnings(wager_cents)
    if isinstance(pays, Percent):
        return pays.of(meter_cents)
    return -wager_cents


def _progressive_lines(
    paytable: Paytable, meter_cents: int, wager_cents: int
) -> tuple[ProgressiveLine, ...]:
    counts = five_card_counts()
    probability = _probabilities(counts)
    lines = []
    for c in reversed(CATEGORIES):
        amount = _tier_amount(paytable.get(c), meter_cents, wager_cents)
        lines.append(
            ProgressiveLine(
                category=c,
                pays=paytable.get(c),
                hands=counts[c],
                probability=probability[c],
                amount_cents=amount,
                contribution=probability[c] * Fraction(amount, wager_cents),
            )
        )
    return tuple(lines)


def _return(lines: tuple[ProgressiveLine, ...]) -> Fraction:
    return 1 + sum((line.contribution for line in lines), Fraction(0))


def _break_even(paytable: Paytable, wager_cents: int) -> int | None:
    percents = [v.ppm for _, v in paytable.lines if isinstance(v, Percent)]
    if not percents:
        return None
    # Without rounding, the expected net is linear in the meter: solve it for zero. Rounding
    # each share down to the cent only lowers the return, so the answer lies a little above,
    # within PPM / (smallest share) cents; find the first meter there that breaks even.
    at_zero = _return(_progressive_lines(paytable, 0, wager_cents)) - 1
    probability = _probabilities(five_card_counts())
    slope = (
        sum(
            (
                probability[c] * Fraction(v.ppm, PPM)
                for c, v in paytable.lines
                if isinstance(v, Percent)
            ),
            Fraction(0),
        )
        / wager_cents
    )
    low = max(0, -floor(at_zero / slope))
    high = low + PPM // min(percents) + 2
    while low < high:
        middle = (low + high) // 2
        if _return(_progressive_lines(paytable, middle, wager_cents)) >= 1:
            high = middle
        else:
            low = middle + 1
    return low


def progressive_math(
    paytable: Paytable,
    *,
    meter_cents: int,
    reset_cents: int | None = None,
    wager_cents: int,
) -> ProgressiveMath:
    """The return of the progressive wager (judged on the 2 hole cards plus the flop) at a
    meter, at the bank's reset, and the break-even meter."""
    if wager_cents < 1:
        raise ValueError("the progressive wager is 1 cent or more")
    if meter_cents < 0 or (reset_cents is not None and reset_cents < 0):
        raise ValueError("a meter is 0 cents or more")
    lines = _progressive_lines(paytable, meter_cents, wager_cents)
    at_reset = (
        None
        if reset_cents is None
        else _return(_progressive_lines(paytable, reset_cents, wager_cents))
    )
    return ProgressiveMath(
        meter_cents=meter_cents,
        reset_cents=reset_cents,
        wager_cents=wager_cents,
        lines=lines,
        expected_return=_return(lines),
        expected_return_at_reset=at_reset,
        break_even_meter_cents=_break_even(paytable, wager_cents),
        hit_frequency=sum((line.probability for line in lines if line.wins), Fraction(0)),
    )


@dataclass(frozen=True, slots=True)
class ProgressiveBook:
    """The progressive wager as the house's own book sees it: a losing wager is kept whole, a
    fixed (odds) tier is paid from the tray, a share-of-the-meter tier is paid by the meter
    and so is neither won nor lost by the house (its wager and payout stay off the book; the
    contributions to the meter are not taken off either: the meter is a liability reported
    apart). `house_edge`: the house's expected book win per unit wagered; `variance_cents`:
    of one wager's book result, in cents squared. The meter does not enter it."""

    wager_cents: int
    house_edge: Fraction
    variance_cents: Fraction


def progressive_book(
    paytable: Paytable, *, wager_cents: int, rules: RuleSet | None = None
) -> ProgressiveBook:
    """The house's book on one progressive wager (see ProgressiveBook); with `rules`, a fixed
    tier is paid as `settle` pays it, rounded down to the rule set's payout unit."""
    lines = _progressive_lines(paytable, 0, wager_cents)
    paid = (lambda cents: cents) if rules is None else rules.round_down
    book = [
        (
            line.probability,
            0
            if isinstance(line.pays, Percent)
            else (-paid(line.amount_cents) if line.wins else wager_cents),
        )
        for line in lines
    ]
    mean = sum((p * won for p, won in book), Fraction(0))
    return ProgressiveBook(
        wager_cents=wager_cents,
        house_edge=mean / wager_cents,
        variance_cents=sum((p * won**2 for p, won in book), Fraction(0)) - mean**2,
    )


# --- Envy ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EnvyLine:
    category: str
    amount_cents: int
    hands: int
    probability: Fraction
    cost_cents: Fraction


@dataclass(frozen=True, slots=True)
class EnvyMath:
    """What Envy costs the house, for one seat's progressive wager, per *other* seat at the
    table with a progressive hand: each such seat's 5-card hand is any of the 2,598,960 with
    equal chance (whatever this seat holds, on average), so the cost adds up seat by seat."""

    wager_cents: int
    lines: tuple[EnvyLine, ...]
    cost_per_other_seat_cents: Fraction

    @property
    def cost_per_wager(self) -> Fraction:
        """The cost per other seat as a share of the progressive wager."""
        return self.cost_per_other_seat_cents / self.wager_cents

    def cost_cents(self, other_seats: int) -> Fraction:
        return self.cost_per_other_seat_cents * other_seats


def envy_cost(paytable: Paytable, *, wager_cents: int, min_wager_cents: int = 0) -> EnvyMath:
    """The expected Envy paid to one progressive wager per other seat (0 when the wager is
    below the table's Envy minimum: it collects nothing)."""
    if wager_cents < 1:
        raise ValueError("the progressive wager is 1 cent or more")
    counts = five_card_counts()
    probability = _probabilities(counts)
    eligible = wager_cents >= max(min_wager_cents, 1)
    lines = tuple(
        EnvyLine(
            category=c,
            amount_cents=v.amount,
            hands=counts[c],
            probability=probability[c],
            cost_cents=probability[c] * v.amount if eligible else Fraction(0),
        )
        for c, v in reversed(paytable.lines)
        if isinstance(v, Cents)
    )
    return EnvyMath(
        wager_cents=wager_cents,
        lines=lines,
        cost_per_other_seat_cents=sum((line.cost_cents for line in lines), Fraction(0)),
    )


# --- the base game: published figures --------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PublishedEdge:
    """A base-game house edge as *published* (not computed here), with its sources."""

    variant: str
    description: str
    house_edge: Fraction  # per Ante, optimal strategy
    element_of_risk: Fraction | None  # per total amount wagered
    sources: tuple[str, ...]
    note: str = ""
    published: bool = field(default=True, init=False)


#: Base-game (Ante + Blind + Play) house edges per rule variant, from the project's reference
#: notes (shared/reference/uth-rules-and-math.md §3.1). Only variants with a sourced figure.
BASE_GAME_EDGES: Mapping[str, PublishedEdge] = MappingProxyType(
    {
        "standard": PublishedEdge(
            variant="standard",
            description=(
                "pre-flop Play 3x or 4x, Blind paytable A, the Ante pushes when the dealer"
                " does not qualify; optimal strategy"
            ),
            house_edge=Fraction(2185, 100_000),
            element_of_risk=Fraction(526, 100_000),
            sources=(
                "golden-nugget-casino-tukwila.com (UTH Progressive page)",
                "edgevegas.com, quoting wizardofodds.com",
            ),
        ),
        "4x_only": PublishedEdge(
            variant="4x_only",
            description="pre-flop Play 4x only (the original and UK rules); otherwise standard",
            house_edge=Fraction(2185, 100_000),
            element_of_risk=None,
            sources=("gambatria.com (2015): no hand prefers a 3x Play to 4x",),
            note=(
                "the standard game's figure: since no hand prefers 3x, removing the 3x option"
                " leaves the optimal-play edge unchanged"
            ),
        ),
    }
)


def base_game_edge(rules: RuleSet) -> PublishedEdge | None:
    """The published base-game edge of a rule set's variant, or None when none is published
    (3x only, Blind paytable B, the Ante lost to a winning non-qualifying dealer...)."""
    if rules.blind_paytable != BLIND_PRESETS["A"]:
        return None
    if rules.ante_when_dealer_not_qualified is not AnteWhenNotQualified.PUSH:
        return None
    if rules.preflop_multiples == (3, 4):
        return BASE_GAME_EDGES["standard"]
    if rules.preflop_multiples == (4,):
        return BASE_GAME_EDGES["4x_only"]
    return None


# --- findings: what is refused, what needs a confirmation -------------------------------------


class Severity(StrEnum):
    REFUSE = "refuse"  # the table cannot be saved
    WARN = "warn"  # the table can be saved once a manager confirms it (audited)


@dataclass(frozen=True, slots=True)
class Finding:
    """One thing wrong or unusual about a paytable: a stable `code`, the message `key` (see
    `messages`), the `path` of the line at fault (a category) or None for the whole table, the
    sentence's `params`, and `figures` and `amounts`: the exact numbers behind the params that
    are decimals (a percentage) or money (cents), so that a page can write them in the
    reader's locale and currency."""

    severity: Severity
    code: str
    key: str
    path: str | None
    params: Mapping[str, Param] = field(default_factory=dict)
    figures: Mapping[str, Fraction] = field(default_factory=dict)
    amounts: Mapping[str, int] = field(default_factory=dict)  # cents, for the currency

    def render(self, translate: Translate | None = None) -> str:
        return render(self.key, self.params, translate=translate)


#: Odds below this pay too little to be a winning line anyone meant (`3 of a kind 1:1000`).
MIN_ODDS = Fraction(1, 10)
#: A line whose odds differ from every preset's by more than this factor departs from them.
FAR_FACTOR = 2
#: The percentages in findings are written with this many decimals.
PERCENT_DECIMALS = 4


def percent_text(value: Fraction, decimals: int = PERCENT_DECIMALS) -> str:
    """A fraction as a percentage, rounded half away from zero: `Fraction(1, 3)` -> `33.3333`."""
    scaled = abs(value) * 100 * 10**decimals
    whole = floor(scaled + Fraction(1, 2))
    sign = "-" if value < 0 and whole else ""
    units, rest = divmod(whole, 10**decimals)
    return f"{sign}{units}.{rest:0{decimals}d}" if decimals else f"{sign}{units}"


def _odds_text(odds: Fraction) -> str:
    return f"{odds.numerator}:{odds.denominator}"


def max_odds(kind: TableKind, category: str) -> Fraction:
    """The most an odds line may pay: the odds at which that line alone would give back every
    unit staked on the bet (`1 / P(category)`, whole to 1), on the bet's own hand."""
    counts = five_card_counts() if kind is TableKind.PROGRESSIVE else seven_card_counts()
    total = sum(counts.values())
    return Fraction(total // counts[category]) if counts[category] else Fraction(0)


def max_envy_cents(category: str, wager_cents: int) -> int:
    """The most an Envy line may pay: the amount at which that line alone would cost, per
    other seat, the whole progressive wager (`wager / P(category)` on the 5-card hand)."""
    counts = five_card_counts()
    return wager_cents * sum(counts.values()) // counts[category] if counts[category] else 0


def _references(kind: TableKind) -> tuple[Paytable, ...]:
    if kind is TableKind.TRIPS:
        return tuple(TRIPS_PRESETS.values())
    if kind is TableKind.BLIND:
        return tuple(BLIND_PRESETS.values())
    if kind is TableKind.PROGRESSIVE:
        return (DEFAULT_PROGRESSIVE,)
    return (DEFAULT_ENVY,)


def _ratio(value: PayValue, wager_cents: int | None) -> Fraction:
    """A value on one scale with the references': odds, a share, or Envy per 1 € of wager."""
    if isinstance(value, Odds):
        return Fraction(value.n, value.m)
    if isinstance(value, Percent):
        return Fraction(value.ppm, PPM)
    return Fraction(value.amount, wager_cents or 100)


def _far_findings(paytable: Paytable, wager_cents: int | None) -> list[Finding]:
    references = _references(paytable.kind)
    findings = []
    for category, value in paytable.lines:
        alike = [
            ref_value
            for ref in references
            if (ref_value := ref.get(category)) is not None and type(ref_value) is type(value)
        ]
        # The references' Envy amounts are for the spec's 1 € wager: compare per euro.
        scale = 100 if paytable.kind is TableKind.ENVY else None
        ratios = [_ratio(v, scale) for v in alike]
        mine = _ratio(value, wager_cents)
        if ratios and min(ratios) / FAR_FACTOR <= mine <= max(ratios) * FAR_FACTOR:
            continue
        findings.append(
            Finding(
                Severity.WARN,
                "far_from_presets",
                "paytable.far_from_presets" if ratios else "paytable.not_in_presets",
                category,
                {"category": category, "value": str(value.to_json())},
            )
        )
    return findings


def _order_findings(paytable: Paytable) -> list[Finding]:
    findings = []
    lines = [(c, v) for c, v in paytable.lines if isinstance(v, Odds | Percent | Cents)]
    for (low, low_value), (high, high_value) in combinations(lines, 2):
        # lines are in category order, so `high` is the better hand
        if type(low_value) is not type(high_value):
            continue
        if _ratio(low_value, 1) > _ratio(high_value, 1):
            findings.append(
                Finding(
                    Severity.WARN,
                    "out_of_order",
                    "paytable.out_of_order",
                    low,
                    {"category": low, "better": high},
                )
            )
    return findings


def check_paytable(
    paytable: Paytable,
    *,
    wager_cents: int | None = None,
    reset_cents: int | None = None,
) -> tuple[Finding, ...]:
    """Everything a manager must know about a paytable before it is approved, refusals first.

    Refused: a line that pays nothing (`flush 0:1`: leave it out), odds below `MIN_ODDS`, odds
    above `max_odds` for the category, an Envy amount above `max_envy_cents` (needs
    `wager_cents`), a Blind, Trips or progressive table with no winning line.
    Warned: a Trips table the player has the edge on, a progressive table that returns 100 % or
    more at its reset (needs `wager_cents` and `reset_cents`), lines far from the presets, a
    hand paying more than a better one."""
    refusals: list[Finding] = []
    for category, value in paytable.lines:
        shown = str(value.to_json())
        if (
            isinstance(value, Odds)
            and value.n == 0
            or isinstance(value, Cents)
            and value.amount == 0
        ):
            refusals.append(
                Finding(
                    Severity.REFUSE,
                    "pays_nothing",
                    "paytable.pays_nothing",
                    category,
                    {"category": category, "value": shown},
                )
            )
        elif isinstance(value, Cents) and wager_cents:
            bound_cents = max_envy_cents(category, wager_cents)
            if value.amount > bound_cents:
                refusals.append(
                    Finding(
                        Severity.REFUSE,
                        "amount_too_high",
                        "paytable.envy_too_high",
                        category,
                        {
                            "category": category,
                            "value": f"{value.amount} cents",
                            "bound": f"{bound_cents} cents",
                        },
                        amounts={"value": value.amount, "bound": bound_cents},
                    )
                )
        elif isinstance(value, Odds):
            odds = Fraction(value.n, value.m)
            bound = max_odds(paytable.kind, category)
            if odds < MIN_ODDS:
                refusals.append(
                    Finding(
                        Severity.REFUSE,
                        "odds_too_low",
                        "paytable.odds_too_low",
                        category,
                        {"category": category, "value": shown, "bound": _odds_text(MIN_ODDS)},
                    )
                )
            elif odds > bound:
                refusals.append(
                    Finding(
                        Severity.REFUSE,
                        "odds_too_high",
                        "paytable.odds_too_high",
                        category,
                        {"category": category, "value": shown, "bound": _odds_text(bound)},
                    )
                )
    winning = [
        v
        for _, v in paytable.lines
        if isinstance(v, Odds)
        and v.n > 0
        or isinstance(v, Percent | Cents)
        and not _pays_nothing(v)
    ]
    if not winning and paytable.kind is not TableKind.ENVY:
        refusals.append(
            Finding(
                Severity.REFUSE,
                "no_winning_line",
                "paytable.no_winning_line",
                None,
                {"table": paytable.kind.value},
            )
        )
    if refusals:
        return tuple(refusals)

    warnings: list[Finding] = []
    if paytable.kind is TableKind.TRIPS:
        edge = trips_math(paytable).house_edge
        if edge <= 0:
            warnings.append(_player_edge(edge))
    elif paytable.kind is TableKind.PROGRESSIVE and wager_cents and reset_cents is not None:
        at_reset = progressive_math(
            paytable, meter_cents=reset_cents, reset_cents=reset_cents, wager_cents=wager_cents
        ).expected_return
        if at_reset >= 1:
            warnings.append(_player_edge(1 - at_reset))
    warnings.extend(_far_findings(paytable, wager_cents))
    warnings.extend(_order_findings(paytable))
    return tuple(warnings)


def _pays_nothing(value: PayValue) -> bool:
    return isinstance(value, Cents) and value.amount == 0


def _player_edge(edge: Fraction) -> Finding:
    return Finding(
        Severity.WARN,
        "player_edge",
        "paytable.player_edge",
        None,
        {"edge": percent_text(-edge)},
        {"edge": -edge},
    )


def refusals(findings: tuple[Finding, ...]) -> tuple[Finding, ...]:
    return tuple(f for f in findings if f.severity is Severity.REFUSE)


def warnings(findings: tuple[Finding, ...]) -> tuple[Finding, ...]:
    return tuple(f for f in findings if f.severity is Severity.WARN)
