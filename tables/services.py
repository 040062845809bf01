"""Every change to tables, rule sets, paytables and dealer assignments goes through here.

Each service checks the actor's role and the change's legality first, then changes rows in
one transaction under `select_for_update`, and writes the audit log in that transaction.
Managers configure (tables, rule sets, paytables); supervisors open and close tables and
assign dealers. Everything else is refused.
"""

import datetime as dt
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max, Q
from django.utils import timezone

from casino.audit import audit
from casino.models import Staff
from casino.roles import Role, has_role, require_role
from tables.errors import (
    AssignmentRefused,
    ConfigurationRefused,
    IllegalTransition,
    NotFound,
)
from tables.models import (
    ENGINE_FIELDS,
    DealerAssignment,
    Paytable,
    RuleSet,
    Table,
    assignment_conflict,
)


class _Unset:
    def __repr__(self) -> str:
        return "UNSET"


UNSET: Any = _Unset()  # "leave as it is", so that None can mean "clear" (no bank, no cap)

TABLE_FIELDS = ("name", "pit_id", "seats", "min_bet_cents", "max_bet_cents", "bank_id")
RULESET_FIELDS = tuple(
    f"{name}_id" if name.endswith("paytable") else name for name in ENGINE_FIELDS
)


def _refused(exc: ValidationError) -> ConfigurationRefused:
    errors = exc.message_dict if hasattr(exc, "error_dict") else {"__all__": exc.messages}
    text = "; ".join(
        f"{field}: {msg}" if field != "__all__" else msg
        for field, msgs in errors.items()
        for msg in msgs
    )
    return ConfigurationRefused(text, errors=errors)


def _validate(obj, *, exclude: list[str] | None = None) -> None:
    try:
        obj.full_clean(exclude=exclude)
    except ValidationError as exc:
        raise _refused(exc) from exc


def _get_locked(model, pk, what: str):
    try:
        return model.objects.select_for_update().get(pk=pk)
    except model.DoesNotExist:
        raise NotFound(f"no {what} #{pk}") from None


def _values(obj, fields) -> dict:
    return {f: getattr(obj, f) for f in fields}


# Tables -------------------------------------------------------------------------------------


def table_create(
    *,
    manager: Staff,
    name: str,
    pit_id: int,
    min_bet_cents: int,
    max_bet_cents: int,
    ruleset_id: int,
    seats: int = 7,
    bank_id: int | None = None,
) -> Table:
    """A new table, closed until a supervisor opens it."""
    require_role(manager, Role.MANAGER)
    with transaction.atomic():
        table = Table(
            name=name,
            pit_id=pit_id,
            seats=seats,
            min_bet_cents=min_bet_cents,
            max_bet_cents=max_bet_cents,
            ruleset_id=ruleset_id,
            bank_id=bank_id,
        )
        _validate(table)
        table.save()
        audit(
            actor=manager,
            code="tables.table.created",
            subject=table,
            data=_values(table, (*TABLE_FIELDS, "ruleset_id")),
        )
    return table


# The players at an open table play by the rules posted when it opened, and a round in
# progress must contribute to the bank it started with.
FROZEN_WHILE_OPEN = {"ruleset_id": "rule set", "bank_id": "progressive bank"}


def table_configure(
    *,
    table_id: int,
    manager: Staff,
    name: str = UNSET,
    pit_id: int = UNSET,
    seats: int = UNSET,
    min_bet_cents: int = UNSET,
    max_bet_cents: int = UNSET,
    bank_id: int | None = UNSET,
    ruleset_id: int = UNSET,
) -> Table:
    """Change a table's name, pit, seats, limits, bank or rule set version.

    The rule set and the bank change only while the table is closed (see FROZEN_WHILE_OPEN)."""
    require_role(manager, Role.MANAGER)
    changes = {
        k: v
        for k, v in {
            "name": name,
            "pit_id": pit_id,
            "seats": seats,
            "min_bet_cents": min_bet_cents,
            "max_bet_cents": max_bet_cents,
            "bank_id": bank_id,
            "ruleset_id": ruleset_id,
        }.items()
        if v is not UNSET
    }
    with transaction.atomic():
        table = _get_locked(Table, table_id, "table")
        before = _values(table, changes)
        frozen = [f for f in FROZEN_WHILE_OPEN if f in changes and changes[f] != before[f]]
        if frozen and table.is_open:
            raise IllegalTransition(
                f"{table} is open: close it before changing its "
                + " or ".join(FROZEN_WHILE_OPEN[f] for f in frozen)
            )
        for field, value in changes.items():
            setattr(table, field, value)
        _validate(table)
        table.save()
        audit(
            actor=manager,
            code="tables.table.configured",
            subject=table,
            data={"before": before, "after": _values(table, changes)},
        )
    return table


def _table_set_status(*, table_id: int, supervisor: Staff, to: str, code: str) -> Table:
    require_role(supervisor, Role.SUPERVISOR)
    with transaction.atomic():
        table = _get_locked(Table, table_id, "table")
        if table.status == to:
            raise IllegalTransition(f"{table} is already {table.get_status_display()}")
        table.status = to
        table.status_changed_at = timezone.now()
        table.save(update_fields=["status", "status_changed_at"])
        audit(actor=supervisor, code=code, subject=table, data={"status": to})
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


# Paytables and rule sets (versioned) ----------------------------------------------------------


def _next_version(model, name: str) -> int:
    return (model.objects.filter(name=name).aggregate(top=Max("version"))["top"] or 0) + 1


def paytable_create(
    *, manager: Staff, kind: str, name: str, preset: str = "", lines: dict | None = None
) -> Paytable:
    """Version 1 of a new paytable: an engine preset ("A".."D") or explicit lines."""
    require_role(manager, Role.MANAGER)
    with transaction.atomic():
        paytable = Paytable(
            kind=kind, name=name, preset=preset, lines=lines or {}, created_by=manager
        )
        _validate(paytable)
        paytable.save()
        audit(
            actor=manager,
            code="tables.paytable.created",
            subject=paytable,
            data={"name": name, "version": 1, "kind": kind, "value": paytable.engine_value()},
        )
    return paytable


def paytable_revise(
    *,
    paytable_id: int,
    manager: Staff,
    preset: str = UNSET,
    lines: dict = UNSET,
    new_version: bool = False,
) -> Paytable:
    """Change a paytable. A version a round used is never touched: the change becomes the
    family's next version (returned); an unused one is changed in place unless
    `new_version` asks for a new one anyway."""
    require_role(manager, Role.MANAGER)
    with transaction.atomic():
        current = _get_locked(Paytable, paytable_id, "paytable")
        before = {"preset": current.preset, "lines": current.lines}
        if current.is_used or new_version:
            target = Paytable(
                kind=current.kind,
                name=current.name,
                version=_next_version(Paytable, current.name),
                preset=current.preset,
                lines=dict(current.lines),
                created_by=manager,
            )
        else:
            target = current
        if preset is not UNSET:
            target.preset = preset
            target.lines = {}  # a preset brings its own lines (see Paytable.clean)
        if lines is not UNSET:
            target.lines = lines
        _validate(target)
        target.save()
        audit(
            actor=manager,
            code="tables.paytable.versioned"
            if target is not current
            else "tables.paytable.revised",
            subject=target,
            data={
                "name": target.name,
                "from_version": current.version,
                "version": target.version,
                "before": before,
                "after": {"preset": target.preset, "lines": target.lines},
            },
        )
    return target


def ruleset_create(*, manager: Staff, name: str, **rules: Any) -> RuleSet:
    """Version 1 of a new rule set. `rules` are RuleSet fields (`blind_paytable_id`, ...)."""
    require_role(manager, Role.MANAGER)
    unknown = set(rules) - set(RULESET_FIELDS)
    if unknown:
        raise ConfigurationRefused(f"unknown rule set fields: {', '.join(sorted(unknown))}")
    with transaction.atomic():
        ruleset = RuleSet(name=name, created_by=manager, **rules)
        _validate(ruleset)
        ruleset.save()
        audit(
            actor=manager,
            code="tables.ruleset.created",
            subject=ruleset,
            data={"name": name, "version": 1, "rules": ruleset.engine_rules()},
        )
    return ruleset


def ruleset_revise(
    *, ruleset_id: int, manager: Staff, new_version: bool = False, **changes: Any
) -> RuleSet:
    """Change a rule set. A version a round used is never touched: the change becomes the
    family's next version (returned), to which tables are then moved with `table_configure`;
    an unused version is changed in place unless `new_version` asks for a new one."""
    require_role(manager, Role.MANAGER)
    unknown = set(changes) - set(RULESET_FIELDS)
    if unknown:
        raise ConfigurationRefused(f"unknown rule set fields: {', '.join(sorted(unknown))}")
    with transaction.atomic():
        current = _get_locked(RuleSet, ruleset_id, "rule set")
        before = current.engine_rules()
        if current.is_used or new_version:
            target = RuleSet(
                name=current.name,
                version=_next_version(RuleSet, current.name),
                created_by=manager,
                **_values(current, RULESET_FIELDS),
            )
        else:
            target = current
        for field, value in changes.items():
            setattr(target, field, value)
        _validate(target)
        target.save()
        audit(
            actor=manager,
            code="tables.ruleset.versioned" if target is not current else "tables.ruleset.revised",
            subject=target,
            data={
                "name": target.name,
                "from_version": current.version,
                "version": target.version,
                "before": before,
                "after": target.engine_rules(),
            },
        )
    return target


def ruleset_deploy(*, ruleset_id: int, manager: Staff) -> tuple[list[Table], list[Table]]:
    """Move the family's tables from its other versions to this one: every closed table
    moves now; open tables stay where they are (returned second) until they close."""
    require_role(manager, Role.MANAGER)
    with transaction.atomic():
        ruleset = _get_locked(RuleSet, ruleset_id, "rule set")
        others = (
            Table.objects.filter(ruleset__name=ruleset.name)
            .exclude(ruleset=ruleset)
            .order_by("name")
        )
        moved, still_open = [], []
        for table in others:
            if table.is_open:
                still_open.append(table)
                continue
            moved.append(table_configure(table_id=table.pk, manager=manager, ruleset_id=ruleset.pk))
    return moved, still_open


def ruleset_mark_used(*, ruleset_id: int, at: dt.datetime | None = None) -> RuleSet:
    """Called by the round that first deals under a rule set version, inside its transaction:
    from then on the version and its paytables are frozen (a change makes a new version)."""
    at = at or timezone.now()
    # Every round calls this: once the version is used, answer without taking the row lock,
    # so that the tables sharing a rule set never wait on each other.
    already = RuleSet.objects.filter(pk=ruleset_id, used_at__isnull=False).first()
    if already is not None:
        return already
    with transaction.atomic():
        ruleset = _get_locked(RuleSet, ruleset_id, "rule set")
        if ruleset.is_used:
            return ruleset
        paytable_ids = [
            pk
            for pk in (
                ruleset.blind_paytable_id,
                ruleset.trips_paytable_id,
                ruleset.progressive_paytable_id,
                ruleset.envy_paytable_id,
            )
            if pk is not None
        ]
        # update() on purpose: the model's save() refuses to touch a used row, and these
        # rows only go from unused to used here.
        Paytable.objects.filter(pk__in=paytable_ids, used_at__isnull=True).update(used_at=at)
        RuleSet.objects.filter(pk=ruleset.pk).update(used_at=at)
        ruleset.used_at = at
        audit(
            actor=None,
            code="tables.ruleset.used",
            subject=ruleset,
            data={"name": ruleset.name, "version": ruleset.version, "paytables": paytable_ids},
        )
    return ruleset


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
            f"{assignment.dealer} or {assignment.table} was just assigned by someone else"
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
        table = _get_locked(Table, table_id, "table")
        dealer = _get_locked(Staff, dealer_id, "staff member")
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
    return assignment


def _end(assignment: DealerAssignment, at: dt.datetime) -> None:
    if at <= assignment.starts_at:
        raise AssignmentRefused(
            f"{assignment} starts at {assignment.starts_at:%Y-%m-%d %H:%M}: it cannot end before"
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
        assignment = _get_locked(DealerAssignment, assignment_id, "assignment")
        if assignment.ends_at is not None and assignment.ends_at <= at:
            raise IllegalTransition(f"{assignment} already ended")
        _end(assignment, at)
        audit(
            actor=supervisor,
            code="tables.assignment.ended",
            subject=assignment,
            data={"table": assignment.table_id, "dealer": assignment.dealer_id, "at": at},
        )
    return assignment


def dealer_rotate(
    *, table_id: int, dealer_id: int, supervisor: Staff, at: dt.datetime | None = None
) -> DealerAssignment:
    """A rotation: `dealer` takes over the table at `at` (default now). The outgoing dealer's
    assignment ends then; if the incoming dealer was dealing another table, that assignment
    ends too (the table they leave waits for its own relief)."""
    require_role(supervisor, *ASSIGNING_ROLES)
    with transaction.atomic():
        table = _get_locked(Table, table_id, "table")
        dealer = _get_locked(Staff, dealer_id, "staff member")
        # "Now" is read under the table's lock, so that two rotations racing for one table
        # take it in the order they got the lock, never with a start before the other's.
        at = at or timezone.now()
        outgoing = (
            DealerAssignment.objects.select_for_update()
            .filter(table=table, starts_at__lte=at)
            .filter(Q(ends_at__isnull=True) | Q(ends_at__gt=at))
            .first()
        )
        if not has_role(dealer, Role.DEALER):
            raise AssignmentRefused(f"{dealer} does not hold the dealer role and cannot deal")
        if outgoing is not None and outgoing.dealer_id == dealer.pk:
            raise AssignmentRefused(f"{dealer} is already dealing {table}")
        left = (
            DealerAssignment.objects.select_for_update()
            .filter(dealer=dealer, starts_at__lte=at)
            .filter(Q(ends_at__isnull=True) | Q(ends_at__gt=at))
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
    return incoming
