"""Theoretical win: each bet's handle times that bet's house edge, the edges asked of the
engine (`tables.rules.paymath`), never worked out here.

The Trips edge and the progressive's return are computed by the engine from the exact 5- and
7-card category counts; the base game's edge (Ante, Blind and Play together, per unit of
Ante) is a published figure with its sources, shown as such (a variant with no published figure
has no base-game theoretical: its theoretical covers the side bets only, and says so,
rather than guess).

Two simplifications, both stated on the report: the progressive's return is taken at the
bank's reset amount (the meter at each wager is not kept on the lines; at reset the return is
lowest, so this theoretical is the house's highest), and Envy is priced per progressive wager
times the period's average number of other seats at the table.
"""

import json
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from tables.rules import paymath
from tables.rules.ruleset import parse_rules


@dataclass(frozen=True)
class Edges:
    """House edges of one rule set version, as fractions of each bet's handle."""

    base: Fraction | None  # per unit of Ante handle: published
    base_source: str
    trips: Fraction | None  # computed by the engine
    progressive: Fraction | None  # computed by the engine, at the bank's reset amount
    envy: Fraction | None  # the Envy the house pays, per unit of progressive handle

    def of(self, bet: str) -> Fraction | None:
        return {"ante": self.base, "trips": self.trips, "progressive": self.progressive}.get(bet)


@lru_cache(maxsize=256)
def _edges_of(rules_key: str, reset_cents: int) -> Edges:
    rules = parse_rules(json.loads(rules_key))
    published = paymath.base_game_edge(rules)
    trips = paymath.trips_math(rules.trips_paytable).house_edge
    wager = rules.progressive_wager_cents
    progressive = (
        1
        - paymath.progressive_math(
            rules.progressive_paytable,
            meter_cents=reset_cents,
            reset_cents=reset_cents,
            wager_cents=wager,
        ).expected_return
    )
    envy = paymath.envy_cost(
        rules.envy, wager_cents=wager, min_wager_cents=rules.envy_min_wager_cents
    ).cost_per_wager
    return Edges(
        base=None if published is None else published.house_edge,
        base_source="" if published is None else "; ".join(published.sources),
        trips=trips,
        progressive=progressive,
        envy=envy,
    )


def edges(rules_json: dict, *, reset_cents: int = 0) -> Edges:
    """The edges of a rule set version's engine rules (a version never changes once used)."""
    return _edges_of(json.dumps(rules_json, sort_keys=True), reset_cents)


def theoretical_fraction(
    handles: dict[str, int], e: Edges, *, other_seats: Fraction = Fraction(0)
) -> Fraction:
    """Σ handle x edge over the bets that have one, minus the Envy expected on the
    progressive wagers (`other_seats`: the average number of other seats at the table).
    Without a published base-game edge the Ante, Blind and Play are left out (`e.base` None:
    the caller says the figure is partial)."""
    total = Fraction(0)
    for bet, handle in handles.items():
        edge = e.of(bet)
        if edge is not None:
            total += handle * edge
    return total - handles.get("progressive", 0) * e.envy * other_seats
