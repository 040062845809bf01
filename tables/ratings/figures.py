"""A rating's figures (spec/ratings.md, "The rating"), computed on read from the settlement
lines of the rounds it counts: nothing is added up when a round is dealt, so the dealer's taps
cost nothing more, and a correction after the close changes the figures by itself.

A counted round is a settled round of the rating's table in which the rated seat has lines,
whose bets were locked (its `bets_locked` event) while the rating was open and not paused.
Stakes are the confirmed lines' (the accounting's handle); results add every line, the
corrections' included. The edges are the accounting's (`tables.accounting.theoretical`) for
each round's rule set version, written as decimal strings; theo is computed from exactly
those strings, plus, at a rule set with a payout unit or a maximum payout whose par sheet is
computed, what the unit and the cap withhold from each counted round's own Ante and Trips (the
accounting's exact charge, `theoretical.SeatPricing.withheld`), rounded half to even once, at
the end.
"""

import dataclasses
import datetime as dt
from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction

from django.db.models import Count, Max, Q, Sum

from tables.accounting.models import SeatDecisionCost
from tables.accounting.reports import edges_by_ruleset, pricings_by_ruleset, rules_by_ruleset
from tables.accounting.summary import seat_wagers
from tables.accounting.theoretical import Edges, theoretical_fraction
from tables.models import Round, SettlementLine

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


def ruleset_edges(ruleset_ids, *, pinned: dict[int, dict] | None = None) -> dict[int, Edges]:
    """The edges the accounting's theoretical win uses for each rule set version: the
    engine's, with the computed par sheet's base-game edge when there is one, read as the
    accounting reads them (tables.accounting.reports). `pinned`: the engine rules a round of
    the version pinned (the same rules, read without rebuilding them from the paytables)."""
    rules = dict(pinned or {})
    missing = set(ruleset_ids) - set(rules)
    if missing:
        rules.update(rules_by_ruleset(missing))
    return edges_by_ruleset(rules.keys(), rules)


def pinned_rules(round_ids_by_ruleset: dict[int, int]) -> dict[int, dict]:
    """{rule set version: the engine rules one of its rounds pinned} (one query)."""
    if not round_ids_by_ruleset:
        return {}
    rows = Round.objects.filter(pk__in=round_ids_by_ruleset.values()).values_list(
        "ruleset_id", "rules"
    )
    return dict(rows)


def counted_lines(rating, pauses):
    """The rated seat's lines in the rounds the rating counts (a queryset): its table's
    settled rounds whose `bets_locked` event came while the rating was open and not in one of
    its pauses (a round has one `bets_locked` event)."""
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
    during = Q(**bounds)
    for p in pauses:  # locked before the pause, or after it
        outside = Q(round__events__at__lt=p.started_at)
        if p.ended_at is not None:
            outside |= Q(round__events__at__gte=p.ended_at)
        during &= outside
    return SettlementLine.objects.filter(during)


def seat_sums(lines):
    """Per rule set version and bet: stake (confirmed lines), net (every line), the rounds,
    the last lock and one round's id (one query, a few rows whatever the hands)."""
    return (
        lines.values_list("round__ruleset_id", "bet")
        .annotate(
            stake=Sum("stake_cents", filter=ORIGINAL, default=0),
            net=Sum("net_cents"),
            rounds=Count("round_id", distinct=True),
            last=Max("round__events__at"),
            some_round=Max("round_id"),
        )
        .order_by()
    )


def seconds_played(rating, pauses, *, now: dt.datetime) -> int:
    end = rating.closed_at or now
    paused = sum(((p.ended_at or end) - p.started_at for p in pauses), start=dt.timedelta())
    return max(0, int((end - rating.opened_at - paused).total_seconds()))


def cap_withheld(lines, rules: dict[int, dict], found: dict[int, Edges]) -> Fraction:
    """What a payout unit or a maximum payout withholds in expectation from the counted
    rounds' own Ante and Trips beyond the stated edges, at the rule sets that have either and
    a computed par sheet (the accounting's exact charge); nothing elsewhere. Two queries, only
    at such a rule set: the par sheets, the rounds counted by (rule set, Ante, Trips)."""
    pricings = pricings_by_ruleset({pk: r for pk, r in rules.items() if pk in found}, found)
    if not pricings:
        return Fraction(0)
    withheld = Fraction(0)
    for r in (
        seat_wagers(lines.filter(round__ruleset_id__in=pricings))
        .values("round__ruleset_id", "stake_cents", "trips")
        .annotate(n=Count("id"))
        .order_by()
    ):
        pricing = pricings[r["round__ruleset_id"]]
        withheld += r["n"] * pricing.withheld(r["stake_cents"], r["trips"])
    return withheld


def decision_cost_cents(lines, seat: int) -> int | None:
    """What the player's decisions cost over the counted rounds (`lines`: their lines), from
    the par sheet's pricing of each settled round (tables.accounting.decisions); None while
    none of them is priced (a rule set whose par sheet is not computed yet)."""
    priced = SeatDecisionCost.objects.filter(
        round_id__in=lines.values("round_id"), seat=seat
    ).aggregate(total=Sum("cost_cents"), count=Count("pk"))
    return priced["total"] if priced["count"] else None


def figures(rating, pauses, *, now: dt.datetime) -> Figures:
    """The rating's figures; `pauses` its pauses (a list). Two queries for the lines and one
    or two for the edges."""
    lines = counted_lines(rating, pauses)
    wagered = dict.fromkeys(WAGERED, 0)
    handles: dict[int, dict[str, int]] = {}
    rounds: dict[int, int] = {}
    result, last, some_round = 0, {}, {}
    for ruleset, bet, stake, net, count, locked, round_id in seat_sums(lines):
        # Every counted round has an Ante line (a seat that placed wagers staked one).
        rounds[ruleset] = max(rounds.get(ruleset, 0), count)
        last[ruleset] = max(last.get(ruleset, locked), locked)
        some_round[ruleset] = round_id
        if bet in wagered:
            wagered[bet] += stake or 0
            handles.setdefault(ruleset, {})[bet] = stake or 0
        result += net or 0
    latest = max(last, key=last.get) if last else rating.table.ruleset_id
    pinned = pinned_rules(some_round)
    found = ruleset_edges(set(handles) | {latest}, pinned=pinned)
    theo = cap_withheld(lines, pinned, found)
    for ruleset, by_bet in handles.items():
        # Envy is not charged to a rating: it depends on the other seats' play (the spec's
        # theo is each bet's stake times its edge).
        theo += theoretical_fraction(by_bet, _as_stated(found[ruleset]))
    shown = found.get(latest)
    return Figures(
        hands=sum(rounds.values()),
        wagered=wagered,
        player_result_cents=result,
        edges=stated_edges(shown) if shown else dict.fromkeys(EDGES),
        theo_cents=round(theo),
        seconds_played=seconds_played(rating, pauses, now=now),
        decision_cost_cents=decision_cost_cents(lines, rating.seat),
    )
