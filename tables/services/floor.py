"""Tables and dealer assignments: opening and closing, configuring, who deals where.

Each service checks the actor's role and the change's legality first, then changes rows in
one transaction under `select_for_update`, and writes the audit log in that transaction.
Managers configure tables; supervisors open and close them and assign dealers.
"""

import datetime as dt

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from casino.audit import audit
from casino.models import Staff
from casino.roles import Role, has_role
from casino.transitions import TransitionRefused, move
from tables import events, live
from tables.errors import AssignmentRefused, IllegalTransition
from tables.models import DealerAssignment, Round, Table, assignment_conflict
from tables.models.floor import floor_time
from tables.services._base import UNSET, get_locked, require_role, validate, values

TABLE_FIELDS = (
    "name",
    "pit_id",
    "seats",
    "min_bet_cents",
    "max_bet_cents",
    "trips_min_cents",
    "trips_max_cents",
    "bank_id",
)


# Tables -------------------------------------------------------------------------------------


def table_create(
    *,
    manager: Staff,
    name: str,
    pit_id: int,
    min_bet_cents: int,
    max_bet_cents: int,
    trips_min_cents: int | None = None,
    trips_max_cents: int | None = None,
    ruleset_id: int,
    seats: int = 7,
    bank_id: int | None = None,
    reason: str = "",
) -> Table:
    """A new table, closed. Its first rule set is a deployment a second manager approves
    (issue 23, 2; `reason` is the request's): until then the table cannot open
    (`ruleset_not_approved`)."""
    # Imported here: the configuration services import this module.
    from tables.services.configuration import ruleset_deployment_request

    require_role(manager, Role.MANAGER)
    with transaction.atomic():
        table = _table_new(
            manager,
            ruleset_approved=False,
            name=name,
            pit_id=pit_id,
            seats=seats,
            min_bet_cents=min_bet_cents,
            max_bet_cents=max_bet_cents,
            trips_min_cents=trips_min_cents,
            trips_max_cents=trips_max_cents,
            ruleset_id=ruleset_id,
            bank_id=bank_id,
        )
        ruleset_deployment_request(
            table_id=table.pk, ruleset_id=ruleset_id, manager=manager, reason=reason
        )
    return table


def table_create_as_approved(
    *,
    manager: Staff,
    name: str,
    pit_id: int,
    min_bet_cents: int,
    max_bet_cents: int,
    trips_min_cents: int | None = None,
    trips_max_cents: int | None = None,
    ruleset_id: int,
    seats: int = 7,
    bank_id: int | None = None,
) -> Table:
    """A new table, closed until a supervisor opens it, playing its rule set without a
    second manager's approval: the console's own floor (the demo loader, the simulator, the
    tests' factories), never a manager's request (that is `table_create`)."""
    require_role(manager, Role.MANAGER)
    return _table_new(
        manager,
        ruleset_approved=True,
        name=name,
        pit_id=pit_id,
        seats=seats,
        min_bet_cents=min_bet_cents,
        max_bet_cents=max_bet_cents,
        trips_min_cents=trips_min_cents,
        trips_max_cents=trips_max_cents,
        ruleset_id=ruleset_id,
        bank_id=bank_id,
    )


def _table_new(manager: Staff, *, ruleset_approved: bool, **fields) -> Table:
    with transaction.atomic():
        table = Table(ruleset_approved=ruleset_approved, **fields)
        validate(table)
        table.save()
        audit(
            actor=manager,
            code="tables.table.created",
            subject=table,
            data=values(table, (*TABLE_FIELDS, "ruleset_id")),
        )
    return table


# The players at an open table play by the rules posted when it opened, and a round in
# progress must contribute to the bank it started with.
FROZEN_WHILE_OPEN = {
    "ruleset_id": gettext_lazy("rule set"),
    "bank_id": gettext_lazy("progressive bank"),
}


def table_configure(
    *,
    table_id: int,
    manager: Staff,
    name: str = UNSET,
    pit_id: int = UNSET,
    seats: int = UNSET,
    min_bet_cents: int = UNSET,
    max_bet_cents: int = UNSET,
    trips_min_cents: int | None = UNSET,
    trips_max_cents: int | None = UNSET,
    bank_id: int | None = UNSET,
    ruleset_id: int = UNSET,
) -> Table:
    """Change a table's name, pit, seats, limits or bank.

    The bank changes only while the table is closed (see FROZEN_WHILE_OPEN). Another rule set
    version is deployed with a second manager's approval (ruleset_deployment_request then
    ruleset_deployment_approve, issue 23, 2): `ruleset_id` here may only name the one the
    table plays."""
    require_role(manager, Role.MANAGER)
    changes = {
        k: v
        for k, v in {
            "name": name,
            "pit_id": pit_id,
            "seats": seats,
            "min_bet_cents": min_bet_cents,
            "max_bet_cents": max_bet_cents,
            "trips_min_cents": trips_min_cents,
            "trips_max_cents": trips_max_cents,
            "bank_id": bank_id,
            "ruleset_id": ruleset_id,
        }.items()
        if v is not UNSET
    }
    return table_configure_as_approved(
        table_id=table_id, manager=manager, changes=changes, deployment=False
    )


def table_configure_as_approved(*, table_id: int, manager: Staff, changes: dict, deployment):
    """table_configure's change; `deployment`: a rule set deployment a second manager has
    approved (tables.services.configuration), the only way a table's rule set changes."""
    with transaction.atomic():
        table = get_locked(Table, table_id)
        before = values(table, changes)
        if not deployment and changes.get("ruleset_id", before.get("ruleset_id")) != before.get(
            "ruleset_id"
        ):
            raise IllegalTransition(
                _(
                    "A rule set is deployed on a table with a second manager's approval: ask "
                    "for it on the table's page in the pit."
                ),
                code="second_manager_required",
            )
        frozen = [f for f in FROZEN_WHILE_OPEN if f in changes and changes[f] != before[f]]
        if frozen and table.is_open:
            raise IllegalTransition(
                _("%(table)s is open: close it before changing its %(what)s.")
                % {
                    "table": table,
                    "what": _(" or ").join(str(FROZEN_WHILE_OPEN[f]) for f in frozen),
                }
            )
        for field, value in changes.items():
            setattr(table, field, value)
        validate(table)
        table.save()
        audit(
            actor=manager,
            code="tables.table.configured",
            subject=table,
            data={"before": before, "after": values(table, changes)},
        )
    return table


def _table_set_status(*, table_id: int, supervisor: Staff, to: str, code: str) -> Table:
    require_role(supervisor, Role.SUPERVISOR)
    with transaction.atomic():
        table = get_locked(Table, table_id)
        try:
            changed = move(table, to, field="status", status_changed_at=timezone.now())
        except TransitionRefused:
            raise IllegalTransition(
                _("%(table)s is already %(status)s.")
                % {"table": table, "status": table.get_status_display()}
            ) from None
        if to == Table.Status.OPEN and not table.ruleset_approved:
            raise IllegalTransition(
                _(
                    "%(table)s's rule set waits for a second manager's approval in the pit's "
                    "queue: the table opens once it is approved."
                )
                % {"table": table},
                code="ruleset_not_approved",
            )
        if to == Table.Status.CLOSED:
            running = table.rounds.exclude(stage__in=Round.FINISHED).first()
            if running is not None:
                raise IllegalTransition(
                    _("Round %(number)s is in progress at %(table)s: finish or void it first.")
                    % {"number": running.number, "table": table},
                    code="round_in_progress",
                )
        table.save(update_fields=changed)
        audit(actor=supervisor, code=code, subject=table, data={"status": to})
        if to == Table.Status.CLOSED:
            events.table_closing.send(sender=Table, table_id=table.pk, staff=supervisor)
        live.announce_table(table.pk)
    return table


def table_open(*, table_id: int, supervisor: Staff) -> Table:
    return _table_set_status(
        table_id=table_id, supervisor=supervisor, to=Table.Status.OPEN, code="tables.table.opened"
    )


def table_close(*, table_id: int, supervisor: Staff) -> Table:
    return _table_set_status(
        table_id=table_id,
        supervisor=supervisor,
        to=Table.Status.CLOSED,
        code="tables.table.closed",
    )


# Dealer assignments --------------------------------------------------------------------------

# The floor supervisor runs the rotations; the games manager may plan them too (in the admin).
ASSIGNING_ROLES = (Role.SUPERVISOR, Role.MANAGER)


def _check_free(*, table, dealer, starts_at, ends_at, ignore: tuple[int, ...] = ()) -> None:
    problem = assignment_conflict(
        dealer=dealer, table=table, starts_at=starts_at, ends_at=ends_at, ignore=ignore
    )
    if problem:
        raise AssignmentRefused(str(problem))


def _save_assignment(assignment: DealerAssignment) -> None:
    try:
        with transaction.atomic():
            assignment.save()
    except IntegrityError as exc:  # a concurrent rotation won the race
        raise AssignmentRefused(
            _("%(dealer)s or %(table)s was just assigned by someone else: look again.")
            % {"dealer": assignment.dealer, "table": assignment.table}
        ) from exc


def assignment_create(
    *,
    table_id: int,
    dealer_id: int,
    supervisor: Staff,
    starts_at: dt.datetime | None = None,
    ends_at: dt.datetime | None = None,
) -> DealerAssignment:
    """Assign a dealer to a table for a period (open-ended when `ends_at` is None)."""
    require_role(supervisor, *ASSIGNING_ROLES)
    starts_at = starts_at or timezone.now()
    with transaction.atomic():
        # Lock order, everywhere: table, then dealer.
        table = get_locked(Table, table_id)
        dealer = get_locked(Staff, dealer_id)
        _check_free(table=table, dealer=dealer, starts_at=starts_at, ends_at=ends_at)
        assignment = DealerAssignment(
            dealer=dealer,
            table=table,
            starts_at=starts_at,
            ends_at=ends_at,
            assigned_by=supervisor,
        )
        _save_assignment(assignment)
        audit(
            actor=supervisor,
            code="tables.assignment.created",
            subject=assignment,
            data={"table": table.pk, "dealer": dealer.pk, "from": starts_at, "until": ends_at},
        )
        live.announce_table(table.pk)
    return assignment


def _end(assignment: DealerAssignment, at: dt.datetime) -> None:
    if at <= assignment.starts_at:
        raise AssignmentRefused(
            _("%(assignment)s starts at %(start)s: it cannot end before then.")
            % {"assignment": assignment, "start": floor_time(assignment.starts_at)}
        )
    assignment.ends_at = at
    assignment.save(update_fields=["ends_at"])


def assignment_end(
    *, assignment_id: int, supervisor: Staff, at: dt.datetime | None = None
) -> DealerAssignment:
    """The dealer leaves the table (a break, the end of the shift)."""
    require_role(supervisor, *ASSIGNING_ROLES)
    at = at or timezone.now()
    with transaction.atomic():
        assignment = get_locked(DealerAssignment, assignment_id)
        if assignment.ends_at is not None and assignment.ends_at <= at:
            raise IllegalTransition(
                _("%(assignment)s has already ended.") % {"assignment": assignment}
            )
        _end(assignment, at)
        audit(
            actor=supervisor,
            code="tables.assignment.ended",
            subject=assignment,
            data={"table": assignment.table_id, "dealer": assignment.dealer_id, "at": at},
        )
        live.announce_table(assignment.table_id)
    return assignment


def dealer_rotate(
    *, table_id: int, dealer_id: int, supervisor: Staff, at: dt.datetime | None = None
) -> DealerAssignment:
    """A rotation: `dealer` takes over the table at `at` (default now). The outgoing dealer's
    assignment ends then; if the incoming dealer was dealing another table, that assignment
    ends too (the table they leave waits for its own relief)."""
    require_role(supervisor, *ASSIGNING_ROLES)
    with transaction.atomic():
        table = get_locked(Table, table_id)
        dealer = get_locked(Staff, dealer_id)
        # "Now" is read under the table's lock, so that two rotations racing for one table
        # take it in the order they got the lock, never with a start before the other's.
        at = at or timezone.now()
        outgoing = (
            DealerAssignment.objects.select_for_update(no_key=True)
            .covering(at)
            .filter(table=table)
            .first()
        )
        if not has_role(dealer, Role.DEALER):
            raise AssignmentRefused(
                _("%(dealer)s does not hold the dealer role and cannot deal.") % {"dealer": dealer}
            )
        if outgoing is not None and outgoing.dealer_id == dealer.pk:
            raise AssignmentRefused(
                _("%(dealer)s is already dealing %(table)s.") % {"dealer": dealer, "table": table}
            )
        left = (
            DealerAssignment.objects.select_for_update(no_key=True)
            .covering(at)
            .filter(dealer=dealer)
            .first()
        )
        ended = [a for a in (outgoing, left) if a is not None]
        for assignment in ended:
            _end(assignment, at)
        _check_free(table=table, dealer=dealer, starts_at=at, ends_at=None)
        incoming = DealerAssignment(
            dealer=dealer, table=table, starts_at=at, assigned_by=supervisor
        )
        _save_assignment(incoming)
        audit(
            actor=supervisor,
            code="tables.dealer.rotated",
            subject=incoming,
            data={
                "table": table.pk,
                "at": at,
                "incoming": dealer.pk,
                "outgoing": outgoing.dealer_id if outgoing else None,
                "left_table": left.table_id if left else None,
            },
        )
        for table_id in {table.pk, left.table_id if left else table.pk}:
            live.announce_table(table_id)
    return incoming
