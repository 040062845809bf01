"""Read-only questions about the floor: who deals where, what each table plays."""

import datetime as dt
from dataclasses import dataclass
from fractions import Fraction

from django.db.models import Prefetch
from django.utils import timezone

from casino.ids import db_id
from casino.models import Staff
from tables.models import BaseGameSheet, DealerAssignment, RuleSet, Table


def current_assignment(table: Table, at: dt.datetime | None = None) -> DealerAssignment | None:
    at = at or timezone.now()
    return (
        DealerAssignment.objects.covering(at).filter(table=table).select_related("dealer").first()
    )


def current_dealer(table: Table, at: dt.datetime | None = None) -> Staff | None:
    """The dealer dealing `table` at `at` (default now), or None."""
    assignment = current_assignment(table, at)
    return assignment.dealer if assignment else None


def dealer_current_table(dealer, at: dt.datetime | None = None) -> Table | None:
    """The table `dealer` deals at `at` (default now), or None."""
    if dealer is None or getattr(dealer, "pk", None) is None:
        return None
    at = at or timezone.now()
    assignment = (
        DealerAssignment.objects.covering(at).filter(dealer=dealer).select_related("table").first()
    )
    return assignment.table if assignment else None


@dataclass(frozen=True)
class RuleSummary:
    four_x_only: bool
    multiples: tuple[int, ...]
    blind: str
    trips: str
    trips_lost_on_fold: bool
    payout_unit_cents: int
    max_payout_cents: int | None


def rule_summary(ruleset: RuleSet) -> RuleSummary:
    return RuleSummary(
        four_x_only=ruleset.is_four_x_only,
        multiples=tuple(ruleset.preflop_multiples),
        blind=ruleset.blind_paytable.name,
        trips=ruleset.trips_paytable.name,
        trips_lost_on_fold=ruleset.trips_on_fold == RuleSet.TripsOnFold.LOST,
        payout_unit_cents=ruleset.payout_unit_cents,
        max_payout_cents=ruleset.max_payout_cents,
    )


@dataclass(frozen=True)
class FloorTable:
    table: Table
    rules: RuleSummary
    dealer: Staff | None
    is_mine: bool


def with_current_assignment(tables, at: dt.datetime | None = None):
    """`tables` with `current_assignments` (a list of at most one) fetched in one query."""
    current = DealerAssignment.objects.covering(at or timezone.now()).select_related("dealer")
    return tables.prefetch_related(
        Prefetch("assignments", queryset=current, to_attr="current_assignments")
    )


def floor_tables(*, viewer=None, at: dt.datetime | None = None) -> list[FloorTable]:
    """Every table of the floor with its rules and current dealer, in three queries."""
    tables = with_current_assignment(
        Table.objects.select_related(
            "pit", "bank", "ruleset__blind_paytable", "ruleset__trips_paytable"
        ),
        at,
    )
    viewer_pk = getattr(viewer, "pk", None)
    rows = []
    for table in tables:
        dealer = table.current_assignments[0].dealer if table.current_assignments else None
        rows.append(
            FloorTable(
                table=table,
                rules=rule_summary(table.ruleset),
                dealer=dealer,
                is_mine=dealer is not None and dealer.pk == viewer_pk,
            )
        )
    return rows


# The round API's reads (spec/round-api.md) --------------------------------------------------


def _api_tables():
    from tables.models import Round

    in_progress = Round.objects.exclude(stage__in=Round.FINISHED)
    return with_current_assignment(
        Table.objects.select_related(
            "bank",
            "ruleset__blind_paytable",
            "ruleset__trips_paytable",
            "ruleset__progressive_paytable",
            "ruleset__envy_paytable",
        ).prefetch_related(Prefetch("rounds", queryset=in_progress, to_attr="rounds_in_progress"))
    )


def _table_json(table: Table) -> dict:
    from tables.rules.ruleset import parse_rules
    from tables.snapshots import table_snapshot

    dealer = table.current_assignments[0].dealer if table.current_assignments else None
    running = table.rounds_in_progress[0] if table.rounds_in_progress else None
    rules = parse_rules(table.ruleset.engine_rules()).to_json()
    return table_snapshot(table, dealer=dealer, round_in_progress=running, rules=rules)


def table_detail(table_id) -> dict | None:
    """`GET /api/tables/<id>/`, or None when there is no such table."""
    table_id = db_id(table_id)
    table = _api_tables().filter(pk=table_id).first() if table_id is not None else None
    return None if table is None else _table_json(table)


def tables_for(staff) -> list[dict]:
    """`GET /api/tables/`: every table, the ones `staff` deals now first (`"mine": true`)."""
    rows = []
    for table in _api_tables().order_by("pit__name", "name"):
        body = _table_json(table)
        body["mine"] = body["dealer"] is not None and body["dealer"]["id"] == staff.pk
        rows.append(body)
    return sorted(rows, key=lambda row: not row["mine"])


def round_for_api(round_id):
    from tables.models import Round

    round_id = db_id(round_id)
    if round_id is None:
        return None
    return Round.objects.select_related("dealer", "table").filter(pk=round_id).first()


def table_recall(table_id, *, limit: int = 10) -> list[dict]:
    """The last `limit` rounds of a table, newest first, each with every event."""
    from tables.models import Round, RoundEvent
    from tables.snapshots import event_snapshot, round_snapshot

    events = RoundEvent.objects.select_related("actor", "supervisor").order_by("seq")
    rounds = (
        Round.objects.filter(table_id=table_id)
        .select_related("dealer")
        .prefetch_related(Prefetch("events", queryset=events, to_attr="event_list"))
        .order_by("-opened_at", "-pk")[:limit]
    )
    return [
        {**round_snapshot(r), "events": [event_snapshot(e) for e in r.event_list]} for r in rounds
    ]


def table_watch(staff, table_id: int) -> bool | None:
    """May `staff` watch the table's live channel? None: no such table. A dealer who holds
    no other role watches only the table they deal now."""
    from casino.roles import Role, has_role

    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return None
    if has_role(staff, Role.SUPERVISOR, Role.MANAGER, Role.AUDITOR):
        return True
    dealer = current_dealer(table)
    return dealer is not None and dealer.pk == staff.pk


def table_watch_snapshot(table_id: int) -> tuple[dict | None, dict | None]:
    """What a socket gets on connect: the table, and its current round (in progress, else
    the last one played, else None)."""
    from tables.models import Round
    from tables.snapshots import round_snapshot

    latest = (
        Round.objects.filter(table_id=table_id)
        .select_related("dealer")
        .order_by("-opened_at", "-pk")
        .first()
    )
    return table_detail(table_id), None if latest is None else round_snapshot(latest)


def base_game_sheet(engine_rules: dict) -> BaseGameSheet | None:
    """The par sheet (computed, under way or failed) of a rule set's base game, or None
    when nobody asked for it yet."""
    from tables.parsheet import base_game_key
    from tables.rules.ruleset import parse_rules

    key = base_game_key(parse_rules(engine_rules))
    return BaseGameSheet.objects.filter(rules_key=key).first()


def computed_base_edges(engine_rules) -> dict[str, tuple[Fraction, Fraction | None]]:
    """The exact base-game edge and variance (per Ante, per Ante²) of each computed par sheet
    among these rule sets' base games, by `base_game_key` (only the variance is read of the
    sheet's JSON, not the whole sheet)."""
    from tables.parsheet import base_game_key
    from tables.rules.ruleset import parse_rules

    keys = {base_game_key(parse_rules(r)) for r in engine_rules}
    done = BaseGameSheet.objects.filter(rules_key__in=keys, status=BaseGameSheet.Status.DONE)
    return {
        key: (Fraction(edge), Fraction(variance["exact"]) if variance else None)
        for key, edge, variance in done.values_list("rules_key", "house_edge", "sheet__variance")
    }


def computed_sheet_folds(engine_rules) -> dict[str, tuple[dict[str, int] | None, int]]:
    """Each computed par sheet's folds by the final hand's category and its deals (what prices
    Trips lost on a fold), by `base_game_key`; the folds None for a sheet computed before
    they were counted."""
    from tables.parsheet import base_game_key
    from tables.rules.ruleset import parse_rules

    keys = {base_game_key(parse_rules(r)) for r in engine_rules}
    done = BaseGameSheet.objects.filter(rules_key__in=keys, status=BaseGameSheet.Status.DONE)
    return {
        key: (folds, int(deals or 0))
        for key, folds, deals in done.values_list(
            "rules_key", "sheet__folds_by_category", "sheet__ordered_deals"
        )
    }


def computed_sheet_outcomes(engine_rules) -> dict[str, dict]:
    """Each computed par sheet's final outcomes, deals, folds by category and deck (what
    prices a wager under a payout unit or a cap, `theoretical.seat_pricing`), by
    `base_game_key`: one query, the sheet's strategy not read."""
    from tables.parsheet import base_game_key
    from tables.rules.ruleset import parse_rules

    keys = {base_game_key(parse_rules(r)) for r in engine_rules}
    done = BaseGameSheet.objects.filter(rules_key__in=keys, status=BaseGameSheet.Status.DONE)
    fields = ("outcomes", "ordered_deals", "folds_by_category", "deck")
    return {
        key: dict(zip(fields, values, strict=True))
        for key, *values in done.values_list("rules_key", *(f"sheet__{f}" for f in fields))
    }
