"""The reports and the chips pages: parse, call one selector or service, render.

Supervisors, games managers and auditors read every report. At the chips page a dealer or a
supervisor asks for a fill or a credit and records a tray count (both signatures by PIN), a
supervisor approves with their PIN, a supervisor or a manager voids a slip, and only a games
manager enters or imports the drop. Auditors read, and change nothing.
"""

import csv
import datetime as dt

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from casino.access import role_required
from casino.checkpoints import shift_checkpoint
from casino.clock import current_property
from casino.errors import CasinoError
from casino.ids import db_id
from casino.models import Shift
from casino.money import parse_cents
from casino.roles import Role, has_role
from tables.accounting import services
from tables.accounting.chart import hour_chart, trend_chart
from tables.accounting.models import ChipDenomination, ChipSlip, Drop, Inventory
from tables.accounting.reports import (
    BET_LABELS,
    BETS,
    GROUPINGS,
    PERIODS,
    Period,
    report,
    variance_alert_cents,
)
from tables.models import Table

READERS = (Role.SUPERVISOR, Role.MANAGER, Role.AUDITOR)


def _date(value: str | None, default: dt.date) -> dt.date:
    try:
        return dt.date.fromisoformat(value) if value else default
    except ValueError:
        return default


def _today() -> dt.date:
    prop = current_property()
    return prop.gaming_date() if prop else dt.date.today()


def _period(request) -> tuple[Period, str]:
    kind = request.GET.get("period", "day")
    kind = kind if kind in PERIODS else "day"
    anchor = _date(request.GET.get("date"), _today())
    shift = request.GET.get("shift", "")
    if kind == "shift" and shift not in Shift.Code.values:
        shift = Shift.Code.DAY
    by = request.GET.get("by", "table")
    return Period.of(kind, anchor, shift), by if by in GROUPINGS else "table"


@role_required(*READERS)
def report_page(request):
    period, by = _period(request)
    if request.GET.get("format") == "csv":
        return _csv(report(period, by=by, trend=False))
    data = report(period, by=by)
    query = request.GET.copy()
    query["format"] = "csv"
    shift_names = Shift.names()
    return render(
        request,
        "accounting/report.html",
        {
            "report": data,
            "periods": PERIODS,
            "groupings": GROUPINGS,
            "shifts": list(shift_names.items()),
            "shift_label": shift_names.get(period.shift, period.shift),
            "bets": [(b, BET_LABELS[b]) for b in BETS],
            "chart": hour_chart(data.hours),
            "trend": trend_chart(data.days),
            "csv_query": query.urlencode(),
            "alert_limit": variance_alert_cents(),
            "checkpoint": _closing_checkpoint(period),
        },
    )


def _closing_checkpoint(period: Period):
    """A shift's report shows the audit checkpoint written when the shift ended (the chain's
    head, and each bank's ledger head), so that a printed report keeps, outside the
    database, what the records said at that moment (docs/reference/audit-log.md,
    "Checkpoints outside the database"). None for other periods and for a shift not over
    yet."""
    if period.kind != "shift":
        return None
    found = shift_checkpoint(period.first, period.shift)
    if found is None:
        return None
    written = dt.datetime.fromisoformat(found.written_at)
    return {
        "checkpoint": found,
        "written_at": written,
        "ledger": found.heads.get("meter ledger", []),
    }


def _units(cents: int | None) -> str:
    """Cents as a plain decimal for spreadsheets ("-1234.50"), whatever the language."""
    if cents is None:
        return ""
    sign = "-" if cents < 0 else ""
    units, rest = divmod(abs(cents), 100)
    return f"{sign}{units}.{rest:02d}"


def _csv(data) -> HttpResponse:
    period = data.period
    name = f"report-{period.kind}-{period.last.isoformat()}{'-' + period.shift if period.shift else ''}-{data.by}.csv"
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    writer = csv.writer(response)
    currency = data.currency
    money_columns = [
        *(
            f"{BET_LABELS[b]} {what} ({currency})"
            for b in BETS
            for what in (_("handle"), _("computed win"))
        ),
        *(
            f"{label} ({currency})"
            for label in (
                _("handle"),
                _("computed win"),
                _("progressive contributions"),
                _("progressive hits"),
                _("drop"),
                _("markers"),
                _("opener"),
                _("closer"),
                _("fills"),
                _("credits"),
                _("counted win"),
                _("theoretical win"),
                _("variance"),
                _("decision cost"),
                _("theoretical at the play seen"),
            )
        ),
    ]
    writer.writerow(
        [
            str(GROUPINGS[data.by]),
            _("from"),
            _("to"),
            _("shift"),
            _("rounds"),
            _("seat-rounds"),
            *money_columns,
            _("progressive hits"),
            _("voids"),
            _("corrections"),
            _("hold %"),
            _("alert"),
            _("theoretical without the base game"),
            _("seat-rounds priced"),
            *(
                f"{label} ({currency})"
                for label in (
                    _("standard deviation of the win"),
                    _("95 % band, low"),
                    _("95 % band, high"),
                )
            ),
        ]
    )
    for row in [*data.rows, data.total]:
        writer.writerow(
            [
                row.label,
                period.first.isoformat(),
                period.last.isoformat(),
                period.shift,
                row.rounds,
                row.seats,
                *(_units(value) for b in BETS for value in (row.bets[b].handle, row.bets[b].win)),
                _units(row.handle),
                _units(row.computed_win),
                _units(row.progressive_contributions),
                _units(row.hits_cents),
                _units(row.drop),
                _units(row.markers),
                _units(row.opener),
                _units(row.closer),
                _units(row.fills),
                _units(row.credits),
                _units(row.counted_win),
                _units(row.theoretical),
                _units(row.variance),
                _units(row.decision_cost if row.priced_seats else None),
                _units(row.theoretical_seen),
                row.hits,
                row.voids,
                row.corrections,
                "" if row.hold is None else f"{row.hold:.2f}",
                "1" if row.alert else "",
                "1" if row.theoretical_partial else "",
                row.priced_seats,
                _units(row.win_sd),
                *(_units(v) for v in (row.band or (None, None))),
            ]
        )
    return response


# --- the chips: counts, slips, drop ---------------------------------------------------------


@role_required(Role.DEALER, *READERS)
def chips_page(request):
    gaming_date = _date(request.GET.get("date"), _today())
    prop = current_property()
    user = request.user
    return render(
        request,
        "accounting/chips.html",
        {
            "gaming_date": gaming_date,
            "tables": Table.objects.order_by("name"),
            "chips": ChipDenomination.objects.filter(property=prop, active=True),
            "inventories": Inventory.objects.filter(gaming_date=gaming_date).select_related(
                "table", "dealer", "supervisor"
            ),
            "slips": ChipSlip.objects.filter(gaming_date=gaming_date).select_related(
                "table", "requested_by", "approved_by", "voided_by"
            ),
            "drops": Drop.objects.filter(gaming_date=gaming_date).select_related(
                "table", "entered_by"
            ),
            "can_request": has_role(user, *services.SLIP_REQUESTERS),
            "can_approve": has_role(user, Role.SUPERVISOR),
            "can_void": has_role(user, *services.SLIP_VOIDERS),
            "can_drop": has_role(user, Role.MANAGER),
        },
    )


def _counts_from(post) -> dict:
    """{chip value: count} as typed; a count that is not a whole number stays text, which the
    service refuses with its message."""
    counts = {}
    for key, value in post.items():
        if key.startswith("chip_") and value.strip():
            number = services.whole_number(value)
            counts[key.removeprefix("chip_")] = value if number is None else number
    return counts


def _table_id(post) -> int:
    """The table chosen in the form: an id, or a refusal (never int()'s ValueError, a 500)."""
    number = db_id(post.get("table", "").strip())
    if number is None:
        raise services.AccountingRefused(_("Choose a table from the list."), code="bad_table")
    return number


def _cents(value: str) -> int:
    """An amount typed as "1234,50" or "1234.50" (currency units), in cents."""
    try:
        return parse_cents(value or "")
    except ValueError:
        raise services.AccountingRefused(
            _("Type an amount such as 1234.50."), code="bad_amount"
        ) from None


def _back(request):
    date = request.POST.get("date", "")
    return redirect(reverse("accounting:chips") + (f"?date={date}" if date else ""))


def _attempt(request, action) -> None:
    try:
        message = action()
    except CasinoError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, message)


def _pin(post, prefix: str) -> dict:
    return {
        "employee_number": post.get(f"{prefix}_number", ""),
        "pin": post.get(f"{prefix}_pin", ""),
    }


@role_required(*services.INVENTORY_RECORDERS)
@require_POST
def inventory_record(request):
    post = request.POST

    def act():
        inventory = services.inventory_record(
            table_id=_table_id(post),
            kind=post.get("kind", ""),
            counts=_counts_from(post),
            recorded_by=request.user,
            dealer_pin=_pin(post, "dealer"),
            supervisor_pin=_pin(post, "supervisor"),
        )
        if inventory.flagged:
            return _("%(count)s recorded: it differs from the previous closer.") % {
                "count": inventory
            }
        return _("%(count)s recorded.") % {"count": inventory}

    _attempt(request, act)
    return _back(request)


@role_required(*services.SLIP_REQUESTERS)
@require_POST
def slip_request(request):
    post = request.POST

    def act():
        slip = services.slip_request(
            kind=post.get("kind", ""),
            table_id=_table_id(post),
            counts=_counts_from(post),
            requested_by=request.user,
        )
        return _("%(slip)s requested.") % {"slip": slip}

    _attempt(request, act)
    return _back(request)


@role_required(Role.SUPERVISOR)
@require_POST
def slip_approve(request, slip_id: int):
    def act():
        slip = services.slip_approve(
            slip_id=slip_id, actor=request.user, supervisor_pin=_pin(request.POST, "supervisor")
        )
        return _("%(slip)s approved.") % {"slip": slip}

    _attempt(request, act)
    return _back(request)


@role_required(*services.SLIP_VOIDERS)
@require_POST
def slip_void(request, slip_id: int):
    def act():
        slip = services.slip_void(
            slip_id=slip_id, voided_by=request.user, reason=request.POST.get("reason", "")
        )
        return _("%(slip)s voided.") % {"slip": slip}

    _attempt(request, act)
    return _back(request)


@role_required(Role.MANAGER)
@require_POST
def drop_record(request):
    post = request.POST

    def act():
        drop = services.drop_record(
            manager=request.user,
            table_id=_table_id(post),
            gaming_date=_date(post.get("date"), _today()),
            shift=post.get("shift", ""),
            cash_cents=_cents(post.get("cash", "")),
            markers_cents=_cents(post.get("markers") or "0"),
        )
        return _("Drop of %(drop)s recorded.") % {"drop": drop}

    _attempt(request, act)
    return _back(request)


@role_required(Role.MANAGER)
@require_POST
def drop_import(request):
    upload = request.FILES.get("file")

    def act():
        if upload is None:
            raise services.AccountingRefused(_("Choose the count room's CSV file."))
        drops = services.drop_import(
            manager=request.user, text=upload.read().decode("utf-8-sig", errors="replace")
        )
        return _("%(count)s drops imported.") % {"count": len(drops)}

    _attempt(request, act)
    return _back(request)
