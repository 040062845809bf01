"""What the pit boss's screen reads: the floor's tables with their shift figures, the banks,
and the queue of what waits for a supervisor or a second manager.

Everything is read in a fixed number of queries, whatever the number of tables (the budget
test in tests/tables/pit/test_floor.py holds it), because every open dashboard reads it again
when a round moves.
"""

import datetime as dt
from dataclasses import dataclass

from django.db.models import Count, Max, OuterRef, Q, Subquery, Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.clock import current_property, stamp
from casino.roles import Role, has_role
from jackpot.feed import bank_levels, localize
from jackpot.models import Bank, Hit, ParameterChange
from tables.models import DealerAssignment, Round, RoundEvent, SettlementLine, Table
from tables.selectors import with_current_assignment
from tables.tablet.words import tablet_words

#: Who opens the dashboard: supervisors and managers act, auditors (surveillance) only read.
PIT_READERS = (Role.SUPERVISOR, Role.MANAGER, Role.AUDITOR)
PIT_ACTORS = (Role.SUPERVISOR, Role.MANAGER)


@dataclass(frozen=True)
class Powers:
    """Which of the pit's actions this person may take; the page offers only those."""

    open_close: bool  # table_open / table_close: a supervisor
    assign: bool  # dealer_rotate / assignment_end: a supervisor or a manager
    configure: bool  # a closed table to another rule set version: a manager
    approve: bool  # hits, voids: a supervisor
    correct: bool  # a correction's second approval: a supervisor or a manager
    parameters: bool  # a jackpot parameter change: a manager
    acknowledge: bool  # alerts: a supervisor or a manager


def powers_of(staff) -> Powers:
    supervisor = has_role(staff, Role.SUPERVISOR)
    manager = has_role(staff, Role.MANAGER)
    return Powers(
        open_close=supervisor,
        assign=supervisor or manager,
        configure=manager,
        approve=supervisor,
        correct=supervisor or manager,
        parameters=manager,
        acknowledge=supervisor or manager,
    )


def _seats_in_play(state: dict) -> int:
    return sum(1 for seat in state.get("seats", ()) if seat.get("ante"))


def table_cards(*, table_ids=None, pit_id=None, at: dt.datetime | None = None) -> list[dict]:
    """One card per table, pit by pit: status, dealer and since when, the round in progress
    and its stage, rounds this hour and this shift, seats in play, the shift's handle and
    computed win (from the settlement lines: what the house took and paid, as the engine
    settled it, corrections included), the last activity. Five queries."""
    at = at or timezone.now()
    gaming_date, shift = stamp(at)
    latest = Round.objects.filter(table=OuterRef("pk")).order_by("-opened_at", "-pk")
    tables = with_current_assignment(
        Table.objects.select_related("pit__property", "ruleset", "bank").annotate(
            latest_round_id=Subquery(latest.values("pk")[:1])
        ),
        at,
    ).order_by("pit__name", "name")
    if table_ids is not None:
        tables = tables.filter(pk__in=table_ids)
    if pit_id is not None:
        tables = tables.filter(pit_id=pit_id)
    tables = list(tables)
    ids = [t.pk for t in tables]

    latest_rounds = {
        r.pk: r
        for r in Round.objects.filter(
            pk__in=[t.latest_round_id for t in tables if t.latest_round_id]
        )
        .annotate(last_event_at=Max("events__at"))
        .only("pk", "number", "stage", "state", "opened_at", "seq", "table_id")
    }
    this_shift = Q(gaming_date=gaming_date, shift=shift)
    counts = {
        row["table_id"]: row
        for row in Round.objects.filter(this_shift, table_id__in=ids)
        .values("table_id")
        .annotate(
            shift_rounds=Count("pk", filter=Q(stage=Round.Stage.SETTLED)),
            hour_rounds=Count(
                "pk",
                filter=Q(stage=Round.Stage.SETTLED, settled_at__gte=at - dt.timedelta(hours=1)),
            ),
            voids=Count("pk", filter=Q(stage=Round.Stage.VOID)),
        )
    }
    money = {
        row["round__table_id"]: row
        for row in SettlementLine.objects.filter(
            round__gaming_date=gaming_date, round__shift=shift, round__table_id__in=ids
        )
        .values("round__table_id")
        .annotate(
            handle=Sum("stake_cents", filter=Q(correction__isnull=True) & ~Q(bet="cap")),
            players_net=Sum("net_cents", filter=Q(paid_from=SettlementLine.PaidFrom.HOUSE)),
        )
    }

    cards = []
    for table in tables:
        assignment = table.current_assignments[0] if table.current_assignments else None
        round_ = latest_rounds.get(table.latest_round_id)
        last = (round_.last_event_at or round_.opened_at) if round_ else None
        running = round_ if round_ is not None and round_.in_progress else None
        count = counts.get(table.pk, {})
        cash = money.get(table.pk, {})
        cards.append(
            {
                "id": table.pk,
                "name": table.name,
                "pit": {"id": table.pit_id, "name": table.pit.name},
                "status": table.status,
                "status_label": str(table.get_status_display()),
                "ruleset": str(table.ruleset),
                "ruleset_id": table.ruleset_id,
                "ruleset_approved": table.ruleset_approved,
                "bank": str(table.bank) if table.bank else None,
                "dealer": (
                    {
                        "id": assignment.dealer_id,
                        "name": str(assignment.dealer),
                        "since": assignment.starts_at,
                        "until": assignment.ends_at,
                    }
                    if assignment
                    else None
                ),
                "round": (
                    {
                        "id": running.pk,
                        "number": running.number,
                        "stage": running.stage,
                        "stage_label": str(Round.Stage(running.stage).label),
                        "seats_in_play": _seats_in_play(running.state),
                        "pending_void": running.state.get("pending_void"),
                        "seq": running.seq,
                    }
                    if running
                    else None
                ),
                "rounds_hour": count.get("hour_rounds", 0),
                "rounds_shift": count.get("shift_rounds", 0),
                "voids_shift": count.get("voids", 0),
                "handle_cents": cash.get("handle") or 0,
                # The house's win is what the players lost, on the lines the house pays.
                "win_cents": -(cash.get("players_net") or 0),
                "last_activity": last,
                # "04:38:00" alone reads as today's: another day's is shown with its date.
                "last_activity_today": last is None
                or table.pit.property.local(last).date() == table.pit.property.local(at).date(),
            }
        )
    return cards


def bank_meters(language: str) -> list[dict]:
    """Every open or closed bank's meter, as its displays show it, in `language`."""
    return [
        {
            "id": bank.pk,
            "slug": bank.slug,
            "name": bank.name_in(language),
            "status": bank.status,
            "status_label": str(bank.get_status_display()),
            "levels": localize({"levels": bank_levels(bank)}, language)["levels"],
        }
        for bank in Bank.objects.order_by("name")
    ]


def _asker(staff) -> str:
    return str(staff) if staff is not None else _("the system")


def approvals() -> list[dict]:
    """What waits for someone, oldest first, each with who asked and when: progressive hits to
    verify then to pay, voids declared at a table, jackpot parameter changes waiting for a
    second manager, then corrections, rule set deployments and meter adjustments waiting for
    a second person. Eight queries."""
    items: list[dict] = []
    for hit in Hit.objects.filter(state__in=[Hit.State.PENDING, Hit.State.VERIFIED]).select_related(
        "bank", "recorded_by", "verified_by"
    ):
        pending = hit.state == Hit.State.PENDING
        items.append(
            {
                "kind": "hit_verify" if pending else "hit_pay",
                "id": hit.pk,
                "at": hit.recorded_at if pending else hit.verified_at,
                "asked_by": _asker(hit.recorded_by if pending else hit.verified_by),
                "asked_by_id": hit.recorded_by_id if pending else hit.verified_by_id,
                "hit": hit,
            }
        )
    running = Round.objects.exclude(stage__in=Round.FINISHED).select_related("table", "dealer")
    waiting = [r for r in running if r.state.get("pending_void")]
    declared = {}
    if waiting:
        events = (
            RoundEvent.objects.filter(round__in=waiting, kind="irregularity_declared")
            .select_related("actor")
            .order_by("round_id", "seq")
        )
        declared = {event.round_id: event for event in events}  # the last declaration wins
    irregularity_words = tablet_words() if waiting else {}
    for round_ in waiting:
        event = declared.get(round_.pk)
        items.append(
            {
                "kind": "void",
                "id": round_.pk,
                "at": event.at if event else round_.opened_at,
                "asked_by": _asker(event.actor if event else round_.dealer),
                "asked_by_id": event.actor_id if event else round_.dealer_id,
                "round": round_,
                "reason": round_.state["pending_void"],
                "reason_label": irregularity_words.get(f"irr.{round_.state['pending_void']}"),
                "seq": round_.seq,
            }
        )
    for change in ParameterChange.objects.filter(
        state=ParameterChange.State.REQUESTED
    ).select_related("bank", "requested_by"):
        items.append(
            {
                "kind": "parameters",
                "id": change.pk,
                "at": change.requested_at,
                "asked_by": _asker(change.requested_by),
                "asked_by_id": change.requested_by_id,
                "change": change,
            }
        )
    items += _second_approvals()
    items.sort(key=lambda item: item["at"])
    return items


def _bet_label(bet: str) -> str:
    return str(SettlementLine.Bet(bet).label) if bet in SettlementLine.Bet.values else bet


def _second_approvals() -> list[dict]:
    """Corrections, rule set deployments and meter adjustments waiting for a second person
    (issue 23, 2 and 7). Three queries."""
    from jackpot.models import AdjustmentRequest
    from tables.models import CorrectionRequest, RulesetDeployment

    items = []
    for asked in CorrectionRequest.objects.filter(
        state=CorrectionRequest.State.REQUESTED
    ).select_related("round__table", "requested_by"):
        items.append(
            {
                "kind": "correction",
                "id": asked.pk,
                "at": asked.requested_at,
                "asked_by": _asker(asked.requested_by),
                "asked_by_id": asked.requested_by_id,
                "correction": asked,
                "lines": [
                    {"seat": seat, "bet": _bet_label(bet), "net": net}
                    for seat, bet, net in asked.lines
                ],
            }
        )
    for deployment in RulesetDeployment.objects.filter(
        state=RulesetDeployment.State.REQUESTED
    ).select_related("table", "ruleset", "previous", "requested_by"):
        items.append(
            {
                "kind": "ruleset",
                "id": deployment.pk,
                "at": deployment.requested_at,
                "asked_by": _asker(deployment.requested_by),
                "asked_by_id": deployment.requested_by_id,
                "deployment": deployment,
            }
        )
    for adjustment in AdjustmentRequest.objects.filter(
        state=AdjustmentRequest.State.REQUESTED
    ).select_related("bank", "requested_by"):
        items.append(
            {
                "kind": "adjustment",
                "id": adjustment.pk,
                "at": adjustment.requested_at,
                "asked_by": _asker(adjustment.requested_by),
                "asked_by_id": adjustment.requested_by_id,
                "adjustment": adjustment,
            }
        )
    return items


def dealers_to_assign() -> list:
    """Active dealers, for the rotation form."""
    from casino.models import Staff

    return list(
        Staff.objects.filter(is_active=True, groups__name=Role.DEALER)
        .order_by("first_name", "last_name", "username")
        .distinct()
    )


def ruleset_versions(table: Table) -> list:
    """The other versions of the table's rule set family, newest first; every version while
    no second manager has approved its first rule set (it may be asked for again)."""
    from tables.models import RuleSet

    versions = RuleSet.objects.filter(name=table.ruleset.name)
    if table.ruleset_approved:
        versions = versions.exclude(pk=table.ruleset_id)
    return list(versions.order_by("-version"))


def time_zone() -> str:
    prop = current_property()
    return prop.time_zone if prop else "UTC"


def current_assignment_of(table_id: int) -> DealerAssignment | None:
    return (
        DealerAssignment.objects.covering(timezone.now())
        .filter(table_id=table_id)
        .select_related("dealer")
        .first()
    )


def recall(table_id: int, *, limit: int = 10) -> list[dict]:
    """The game recall (tables.selectors.table_recall, the round API's own shape) with what
    the page shows beside it: times as datetimes, the stage in words."""
    from tables.pit.recall import event_words
    from tables.selectors import table_recall

    rows = []
    for round_ in table_recall(table_id, limit=limit):
        events = [
            {**event, "kind": event["event"].get("kind"), "at_dt": _parse(event["at"])}
            for event in round_["events"]
        ]
        rows.append(
            {
                **round_,
                "events": event_words(events),
                "opened_at_dt": _parse(round_["opened_at"]),
                "stage_label": str(Round.Stage(round_["stage"]).label),
                # The export is the settlement's input and output: none before it exists
                # (the API answers 400 for a round in progress).
                "exportable": round_["settlement"] is not None,
            }
        )
    return rows


def _parse(text: str | None) -> dt.datetime | None:
    return dt.datetime.fromisoformat(text.replace("Z", "+00:00")) if text else None


def last_tray_count(table_id: int):
    """The table's last opener or closer (table accounting), or None: the pit shows whether
    the tray was counted before opening and after closing."""
    from tables.accounting.models import Inventory

    return (
        Inventory.objects.filter(table_id=table_id)
        .select_related("dealer", "supervisor")
        .order_by("-counted_at", "-pk")
        .first()
    )
