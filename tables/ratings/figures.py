"""A rating's figures (spec/ratings.md, "The rating"), computed on read from the settlement
lines of the rounds it counts: nothing is added up when a round is dealt, so the dealer's taps
cost nothing more, and a correction after the close changes the figures by itself.

A counted round is a settled round of the rating's table in which the rated seat has lines,
whose bets were locked (its `bets_locked` event) while the rating was open and not paused.
Stakes are the confirmed lines' (the accounting's handle); results add every line, the
corrections' included. The edges are the accounting's (`tables.accounting.theoretical`) for
each round's rule set version, written as decimal strings; theo is computed from exactly
those strings, rounded half to even once, at the end.
"""

import dataclasses
import datetime as dt
import functools
import json
from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction

from django.db.models import Q, Sum

from tables.accounting.theoretical import Edges, edges, theoretical_fraction
from tables.models import Round, RuleSet, SettlementLine
from tables.parsheet import base_game_key
from tables.rules.ruleset import parse_rules
from tables.selectors import computed_base_edges

WAGERED = ("ante", "blind", "play", "trips", "progressive")
EDGES = ("ante", "trips", "progressive")
#: Decimal places of an edge as the rating states and uses it (far below a cent on any theo).
EDGE_PLACES = Decimal("0.000000000001")
ORIGINAL = Q(correction__isnull=True)


@dataclasses.dataclass(frozen=True)
class Figures:
    hands: int
    wagered: dict[str, int]
    player_result_cents: int
    edges: dict[str, str | None]
    theo_cents: int
    seconds_played: int
    counted: list[int]  # the counted rounds' ids, oldest first
    decision_cost_cents: int | None

    @property
    def total_wagered_cents(self) -> int:
        return sum(self.wagered.values())

    @property
    def average_ante_cents(self) -> int:
        if not self.hands:
            return 0
        return round(Fraction(self.wagered["ante"], self.hands))  # half to even


def edge_text(edge: Fraction | None) -> str | None:
    if edge is None:
        return None
    exact = Decimal(edge.numerator) / Decimal(edge.denominator)
    return str(exact.quantize(EDGE_PLACES, rounding=ROUND_HALF_EVEN))


def stated_edges(found: Edges) -> dict[str, str | None]:
    return {bet: edge_text(found.of(bet)) for bet in EDGES}


def _as_stated(found: Edges) -> Edges:
    """The accounting's edges as the rating states them (the decimal strings, exactly)."""
    text = stated_edges(found)

    def back(bet):
        return None if text[bet] is None else Fraction(Decimal(text[bet]))

    return dataclasses.replace(
        found, base=back("ante"), trips=back("trips"), progressive=back("progressive")
    )


@functools.lru_cache(maxsize=256)
def _base_game_key(rules_text: str) -> str:
    return base_game_key(parse_rules(json.loads(rules_text)))


def ruleset_edges(ruleset_ids) -> dict[int, Edges]:
    """The edges the accounting's theoretical win uses for each rule set version (two
    queries): the engine's, with the computed par sheet's base-game edge when there is one,
    read as the accounting reads them (tables.accounting.reports)."""
    rulesets = RuleSet.objects.filter(pk__in=set(ruleset_ids)).select_related(
        "blind_paytable", "trips_paytable", "progressive_paytable", "envy_paytable"
    )
    rules = {rs.pk: rs.engine_rules() for rs in rulesets}
    computed = computed_base_edges(rules.values()) if rules else {}
    found = {}
    for pk, r in rules.items():
        key = _base_game_key(json.dumps(r, sort_keys=True))
        base, variance = computed.get(key, (None, None))
        found[pk] = edges(r, computed_base=base, computed_variance=variance)
    return found


def seat_lines(rating):
    """The rated seat's lines per round and bet over the rounds whose bets were locked while
    the rating was open (one query; the pauses are taken out by `figures`)."""
    # One filter() call: the event's conditions hold on one and the same event row.
    bounds = {
        "round__table_id": rating.table_id,
        "seat": rating.seat,
        "round__stage": Round.Stage.SETTLED,
        "round__settled_at__gte": rating.opened_at,
        "round__events__kind": "bets_locked",
        "round__events__at__gte": rating.opened_at,
    }
    if rating.closed_at is not None:
        bounds["round__opened_at__lte"] = rating.closed_at
        bounds["round__events__at__lt"] = rating.closed_at
    lines = SettlementLine.objects.filter(**bounds)
    return (
        lines.values("round_id", "round__ruleset_id", "round__events__at", "bet")
        .annotate(stake=Sum("stake_cents", filter=ORIGINAL, default=0), net=Sum("net_cents"))
        .order_by("round__events__at", "round_id")
    )


def _paused(at: dt.datetime, pauses) -> bool:
    return any(p.started_at <= at and (p.ended_at is None or at < p.ended_at) for p in pauses)


def seconds_played(rating, pauses, *, now: dt.datetime) -> int:
    end = rating.closed_at or now
    paused = sum(((p.ended_at or end) - p.started_at for p in pauses), start=dt.timedelta())
    return max(0, int((end - rating.opened_at - paused).total_seconds()))


def decision_cost_cents(counted: list[int], seat: int) -> int | None:
    """The player's decision cost over the counted rounds: the place for the par sheet's
    `seat_decision_cost(round_id, seat)` (issue 27) once it lands. None until then."""
    return None


def figures(rating, pauses, *, now: dt.datetime, rows=None, edges_by_ruleset=None) -> Figures:
    """The rating's figures; `pauses` its pauses (a list), `rows` its `seat_lines` when the
    caller fetched them already."""
    rows = list(seat_lines(rating) if rows is None else rows)
    wagered = dict.fromkeys(WAGERED, 0)
    handles: dict[int, dict[str, int]] = {}
    result, counted, last_ruleset = 0, [], None
    for row in rows:
        if _paused(row["round__events__at"], pauses):
            continue
        if not counted or counted[-1] != row["round_id"]:
            counted.append(row["round_id"])
        ruleset = row["round__ruleset_id"]
        last_ruleset = ruleset
        bet, stake = row["bet"], row["stake"] or 0
        if bet in wagered:
            wagered[bet] += stake
            by_bet = handles.setdefault(ruleset, {})
            by_bet[bet] = by_bet.get(bet, 0) + stake
        result += row["net"] or 0
    wanted = set(handles) | {last_ruleset or rating.table.ruleset_id}
    found = edges_by_ruleset if edges_by_ruleset is not None else ruleset_edges(wanted)
    theo = Fraction(0)
    for ruleset, by_bet in handles.items():
        # Envy is not charged to a rating: it depends on the other seats' play (the spec's
        # theo is each bet's stake times its edge).
        theo += theoretical_fraction(by_bet, _as_stated(found[ruleset]))
    shown = found.get(last_ruleset or rating.table.ruleset_id)
    return Figures(
        hands=len(counted),
        wagered=wagered,
        player_result_cents=result,
        edges=stated_edges(shown) if shown else dict.fromkeys(EDGES),
        theo_cents=round(theo),
        seconds_played=seconds_played(rating, pauses, now=now),
        counted=counted,
        decision_cost_cents=decision_cost_cents(counted, rating.seat),
    )
