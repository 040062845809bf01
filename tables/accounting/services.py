"""Every change to table accounting: tray counts, fill and credit slips, the drop.

Each service checks the actor's role and the change's legality first (PINs and two-person
checks before its own transaction, as casino.pins asks), then changes rows in one
transaction under `select_for_update`, with the audit entry in that transaction.

Who does what: the dealer and a supervisor sign each tray count; a dealer or a supervisor
asks for a fill or a credit, a supervisor approves it with their PIN; a supervisor or a games
manager voids a wrong slip; only a games manager enters or imports the count room's drop (the
pit does not count its own boxes); auditors read.
"""

import csv
import datetime as dt
import io

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.audit import audit
from casino.clock import current_property, stamp
from casino.duties import require_independent
from casino.live import after_commit
from casino.models import Shift, Staff
from casino.money import MAX_CENTS, money
from casino.pins import pin_verify
from casino.roles import Role
from casino.transitions import TransitionRefused, move
from tables.accounting import events
from tables.accounting.errors import AccountingRefused
from tables.accounting.models import ChipDenomination, ChipSlip, Drop, Inventory, SlipSeries
from tables.models import Table
from tables.services._base import get_locked, require_role

SLIP_REQUESTERS = (Role.DEALER, Role.SUPERVISOR)
SLIP_VOIDERS = (Role.SUPERVISOR, Role.MANAGER)
INVENTORY_RECORDERS = (Role.DEALER, Role.SUPERVISOR)


def whole_number(text: str) -> int | None:
    """A count or an amount as typed or imported: ASCII digits only (Python's int() also reads
    other scripts' digits, spaces and underscores), at most 15 of them; None otherwise."""
    text = (text or "").strip()
    if text.isascii() and text.isdigit() and len(text) <= 15:
        return int(text)
    return None


def _counted_win_changed(table_id: int, gaming_date) -> None:
    after_commit(
        lambda: events.counted_win_changed.send(
            sender=Table, table_id=table_id, gaming_date=gaming_date
        )
    )


def _count(counts: dict) -> tuple[dict[str, int], int]:
    """`counts` ({value in cents: chips}) checked against the property's chip set: the
    non-empty quantities keyed by the value as text, and their total in cents."""
    prop = current_property()
    chips = set(
        ChipDenomination.objects.filter(property=prop, active=True).values_list(
            "value_cents", flat=True
        )
    )
    if not chips:
        raise AccountingRefused(
            _("The property has no chip set yet: a games manager configures it first."),
            code="no_chip_set",
        )
    clean: dict[str, int] = {}
    for key, quantity in (counts or {}).items():
        value = key if isinstance(key, int) else whole_number(key) if isinstance(key, str) else None
        if value not in chips:
            raise AccountingRefused(
                _("%(value)s is not a chip of this property.") % {"value": key},
                code="unknown_chip",
            )
        if isinstance(quantity, bool) or not isinstance(quantity, int) or quantity < 0:
            raise AccountingRefused(
                _("The number of chips must be a whole number, zero or more."), code="bad_count"
            )
        if quantity:
            clean[str(value)] = quantity
    total = sum(int(v) * q for v, q in clean.items())
    if total > MAX_CENTS:  # a bigint column would refuse it (a DataError, a 500)
        raise AccountingRefused(
            _("These counts come to more than %(max)s: check them.") % {"max": money(MAX_CENTS)},
            code="bad_count",
        )
    return dict(sorted(clean.items(), key=lambda kv: -int(kv[0]))), total


def _differences(counted: dict[str, int], expected: dict[str, int]) -> dict[str, int]:
    """Per denomination, chips counted minus chips expected, where they differ."""
    keys = set(counted) | set(expected)
    return {
        k: counted.get(k, 0) - expected.get(k, 0)
        for k in sorted(keys, key=lambda k: -int(k))
        if counted.get(k, 0) != expected.get(k, 0)
    }


# Tray counts -------------------------------------------------------------------------------


def inventory_record(
    *,
    table_id: int,
    kind: str,
    counts: dict,
    recorded_by: Staff,
    dealer_pin: dict,
    supervisor_pin: dict,
) -> Inventory:
    """The opener or the closer of a table, signed by its dealer and a supervisor (each with
    their employee number and PIN). An opener is compared with the table's previous closer,
    denomination by denomination; what differs is kept and flagged."""
    require_role(recorded_by, *INVENTORY_RECORDERS)
    if kind not in Inventory.Kind.values:
        raise AccountingRefused(_("A tray count is an opener or a closer."), code="bad_kind")
    clean, total = _count(counts)
    dealer = pin_verify(**dealer_pin, role=Role.DEALER)
    supervisor = pin_verify(**supervisor_pin, role=Role.SUPERVISOR)
    require_independent(
        approver=supervisor, asker=dealer, action=_("signing a tray count"), by_pin=True
    )
    with transaction.atomic():
        table = get_locked(Table, table_id)
        last = Inventory.objects.filter(table=table).order_by("-counted_at", "-pk").first()
        if kind == Inventory.Kind.CLOSER and (last is None or last.kind != Inventory.Kind.OPENER):
            raise AccountingRefused(
                _("%(table)s has no opener to close: count its opener first.") % {"table": table},
                code="no_opener",
            )
        if kind == Inventory.Kind.OPENER and last is not None and last.kind == kind:
            raise AccountingRefused(
                _("%(table)s already has an opener: count its closer first.") % {"table": table},
                code="opener_twice",
            )
        at = timezone.now()
        gaming_date, shift = stamp(at)
        inventory = Inventory(
            table=table,
            kind=kind,
            counts=clean,
            total_cents=total,
            gaming_date=gaming_date,
            shift=shift,
            counted_at=at,
            dealer=dealer,
            supervisor=supervisor,
            recorded_by=recorded_by,
        )
        if kind == Inventory.Kind.OPENER and last is not None:
            inventory.previous = last
            inventory.discrepancy = _differences(clean, last.counts)
            inventory.discrepancy_cents = total - last.total_cents
        inventory.save()
        audit(
            actor=recorded_by,
            code=f"accounting.inventory.{kind}",
            subject=inventory,
            data={
                "table": table.pk,
                "counts": clean,
                "total_cents": total,
                "dealer": dealer.pk,
                "supervisor": supervisor.pk,
                "discrepancy": inventory.discrepancy,
                "discrepancy_cents": inventory.discrepancy_cents,
            },
        )
        _counted_win_changed(inventory.table_id, inventory.gaming_date)
    return inventory


# Fills and credits -------------------------------------------------------------------------


def _next_number(gaming_year: int) -> int:
    """The next slip number of the year, under the series' lock (a rolled-back request
    leaves no hole, since the number is taken in the request's transaction)."""
    try:
        with transaction.atomic():
            SlipSeries.objects.get_or_create(gaming_year=gaming_year)
    except IntegrityError:  # created meanwhile by another request
        pass
    series = SlipSeries.objects.select_for_update(no_key=True).get(gaming_year=gaming_year)
    series.last_number += 1
    series.save(update_fields=["last_number"])
    return series.last_number


def slip_request(*, kind: str, table_id: int, counts: dict, requested_by: Staff) -> ChipSlip:
    """A fill or a credit asked for at the table or from the pit, numbered at once in the
    gaming year's one series; it moves no chips until a supervisor approves it."""
    require_role(requested_by, *SLIP_REQUESTERS)
    if kind not in ChipSlip.Kind.values:
        raise AccountingRefused(_("A slip is a fill or a credit."), code="bad_kind")
    clean, total = _count(counts)
    if not total:
        raise AccountingRefused(_("A slip moves at least one chip."), code="empty_slip")
    with transaction.atomic():
        table = get_locked(Table, table_id)
        at = timezone.now()
        gaming_date, shift = stamp(at)
        slip = ChipSlip.objects.create(
            kind=kind,
            gaming_year=gaming_date.year,
            number=_next_number(gaming_date.year),
            table=table,
            counts=clean,
            total_cents=total,
            gaming_date=gaming_date,
            shift=shift,
            requested_by=requested_by,
            requested_at=at,
        )
        audit(
            actor=requested_by,
            code=f"accounting.{kind}.requested",
            subject=slip,
            data={"number": slip.reference, "table": table.pk, "counts": clean, "total": total},
        )
    return slip


def _move(slip: ChipSlip, to: str, **stamps) -> list[str]:
    try:
        return move(slip, to, **stamps)
    except TransitionRefused:
        raise AccountingRefused(
            _("Slip %(slip)s is %(state)s: it cannot be %(to)s.")
            % {
                "slip": slip.reference,
                "state": slip.get_state_display(),
                "to": ChipSlip.State(to).label,
            },
            code="illegal_transition",
        ) from None


def slip_approve(*, slip_id: int, actor: Staff, supervisor_pin: dict) -> ChipSlip:
    """A supervisor approves a requested slip with their PIN; never the person who asked."""
    supervisor = pin_verify(**supervisor_pin, role=Role.SUPERVISOR)
    asker = ChipSlip.objects.filter(pk=slip_id).values_list("requested_by", flat=True).first()
    if asker is not None:
        require_independent(
            approver=supervisor,
            asker=Staff.objects.get(pk=asker),
            action=_("approving a fill or a credit"),
            by_pin=True,
        )
    with transaction.atomic():
        slip = get_locked(ChipSlip, slip_id)
        changed = _move(
            slip, ChipSlip.State.APPROVED, approved_by=supervisor, approved_at=timezone.now()
        )
        slip.save(update_fields=changed)
        audit(
            actor=supervisor,
            code=f"accounting.{slip.kind}.approved",
            subject=slip,
            data={"number": slip.reference, "recorded_by": actor.pk},
        )
        _counted_win_changed(slip.table_id, slip.gaming_date)
    return slip


def slip_void(*, slip_id: int, voided_by: Staff, reason: str) -> ChipSlip:
    """A wrong slip is voided with the reason; it keeps its number, which is never given
    again."""
    require_role(voided_by, *SLIP_VOIDERS)
    reason = (reason or "").strip()
    if not reason:
        raise AccountingRefused(_("Say why the slip is voided."), code="reason_required")
    with transaction.atomic():
        slip = get_locked(ChipSlip, slip_id)
        was = slip.state
        changed = _move(
            slip,
            ChipSlip.State.VOID,
            voided_by=voided_by,
            voided_at=timezone.now(),
            void_reason=reason[:200],
        )
        slip.save(update_fields=changed)
        audit(
            actor=voided_by,
            code=f"accounting.{slip.kind}.voided",
            subject=slip,
            data={"number": slip.reference, "was": was, "reason": slip.void_reason},
        )
        _counted_win_changed(slip.table_id, slip.gaming_date)
    return slip


# The drop ----------------------------------------------------------------------------------


def _drop_save(
    *, manager, table: Table, gaming_date, shift, cash_cents, markers_cents, source
) -> Drop:
    for value in (cash_cents, markers_cents):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_CENTS:
            raise AccountingRefused(
                _("The drop is an amount from zero to %(max)s.") % {"max": money(MAX_CENTS)},
                code="bad_amount",
            )
    if shift not in ("", *Shift.Code.values):
        raise AccountingRefused(
            _("The shift is empty (the whole gaming day) or one of: %(shifts)s.")
            % {"shifts": ", ".join(Shift.Code.values)},
            code="bad_shift",
        )
    drop = (
        Drop.objects.select_for_update(no_key=True)
        .filter(table=table, gaming_date=gaming_date, shift=shift)
        .first()
    )
    before = None if drop is None else {"cash": drop.cash_cents, "markers": drop.markers_cents}
    if drop is None:
        drop = Drop(table=table, gaming_date=gaming_date, shift=shift)
    drop.cash_cents, drop.markers_cents, drop.source = cash_cents, markers_cents, source
    drop.entered_by, drop.entered_at = manager, timezone.now()
    drop.save()
    audit(
        actor=manager,
        code=f"accounting.drop.{source}",
        subject=drop,
        data={
            "table": table.pk,
            "gaming_date": gaming_date.isoformat(),
            "shift": shift,
            "before": before,
            "after": {"cash": cash_cents, "markers": markers_cents},
        },
    )
    _counted_win_changed(table.pk, gaming_date)
    return drop


def drop_record(
    *,
    manager: Staff,
    table_id: int,
    gaming_date: dt.date,
    cash_cents: int,
    markers_cents: int = 0,
    shift: str = "",
) -> Drop:
    """The count room's figure for one table's box; entering it again replaces it (the
    audit log keeps the figure before)."""
    require_role(manager, Role.MANAGER)
    with transaction.atomic():
        table = get_locked(Table, table_id)
        return _drop_save(
            manager=manager,
            table=table,
            gaming_date=gaming_date,
            shift=shift,
            cash_cents=cash_cents,
            markers_cents=markers_cents,
            source=Drop.Source.ENTERED,
        )


DROP_COLUMNS = ("table", "gaming_date", "shift", "cash_cents", "markers_cents")


def drop_import(*, manager: Staff, text: str) -> list[Drop]:
    """The count room's CSV (columns DROP_COLUMNS; shift and markers may be empty): every
    row or none, a refusal naming the line at fault."""
    require_role(manager, Role.MANAGER)
    if "\x00" in text:  # no text column holds it; a count room's CSV never has one
        raise AccountingRefused(
            _("The file holds a NUL byte: it is not the count room's CSV."), code="bad_csv"
        )
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
    missing = [
        c for c in ("table", "gaming_date", "cash_cents") if c not in (reader.fieldnames or [])
    ]
    if missing:
        raise AccountingRefused(
            _("The CSV needs the columns %(columns)s.") % {"columns": ", ".join(DROP_COLUMNS)},
            code="bad_csv",
        )
    tables = {t.name: t for t in Table.objects.all()}
    saved = []
    with transaction.atomic():
        for line, row in enumerate(reader, start=2):
            try:
                table = tables[(row.get("table") or "").strip()]
                gaming_date = dt.date.fromisoformat((row.get("gaming_date") or "").strip())
                cash = whole_number(row.get("cash_cents") or "")
                markers = whole_number((row.get("markers_cents") or "").strip() or "0")
                if cash is None or markers is None:
                    raise ValueError
            except (KeyError, ValueError):
                raise AccountingRefused(
                    _("Line %(line)s of the CSV: unknown table, date or amount.") % {"line": line},
                    code="bad_csv",
                ) from None
            try:
                saved.append(
                    _drop_save(
                        manager=manager,
                        table=table,
                        gaming_date=gaming_date,
                        shift=(row.get("shift") or "").strip(),
                        cash_cents=cash,
                        markers_cents=markers,
                        source=Drop.Source.IMPORTED,
                    )
                )
            except AccountingRefused as exc:
                raise AccountingRefused(
                    _("Line %(line)s of the CSV: %(problem)s") % {"line": line, "problem": exc},
                    code="bad_csv",
                ) from None
    return saved
