"""Read-only questions about the floor: who deals where, what each table plays."""

import datetime as dt
from dataclasses import dataclass

from django.db.models import Prefetch
from django.utils import timezone

from casino.models import Staff
from tables.models import DealerAssignment, RuleSet, Table


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
