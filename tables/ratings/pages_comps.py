"""Comp pages: hosts and supervisors issue comps on a rating, managers approve or decline
those above the issuer's limit, an auditor prepares the monthly report; compliance reads the
anti-money-laundering log per gaming day. Thin: each parses, calls one service and renders
or redirects."""

import datetime as dt

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from casino.access import role_required
from casino.audit import audit
from casino.clock import current_property
from casino.errors import CasinoError
from casino.forms import parse_amount
from casino.money import property_currency
from casino.roles import Role, has_role
from tables.ratings import aml_log, comp_export, comps
from tables.ratings.models import Comp, Rating

RECENT = 50


def _powers(user) -> dict:
    return {
        "issue": has_role(user, *comps.ISSUERS),
        "approve": has_role(user, *comps.APPROVERS),
        "report": comps.may_prepare_report(user),
    }


@role_required(*comps.READERS)
@require_GET
@never_cache
def comps_home(request):
    rows = Comp.objects.select_related("rating__player", "rating__table", "issued_by")
    open_ratings = (
        Rating.objects.filter(closed_at__isnull=True)
        .select_related("player", "table")
        .order_by("table__name", "seat")
    )
    return render(
        request,
        "ratings/comps/home.html",
        {
            "awaiting": rows.filter(status=Comp.AWAITING).order_by("issued_at", "pk"),
            "recent": rows.order_by("-issued_at", "-pk")[:RECENT],
            "open_ratings": open_ratings,
            "powers": _powers(request.user),
        },
    )


@role_required(*comps.READERS)
@require_GET
@never_cache
def rating_comps(request, rating_id: int):
    rating = get_object_or_404(Rating.objects.select_related("player", "table"), pk=rating_id)
    settings = comps.comp_settings_for(current_property())
    budget = comps.budget_cents(rating, settings)
    used = comps.committed_cents(rating)
    return render(
        request,
        "ratings/comps/rating.html",
        {
            "rating": rating,
            "theo_cents": comps.rating_theo_cents(rating),
            "budget_cents": budget,
            "used_cents": used,
            "left_cents": max(0, budget - used),
            "settings": settings,
            "limit_cents": comps.issuer_limit_cents(request.user, settings),
            "comps": rating.comps.select_related("issued_by", "decided_by"),
            "powers": _powers(request.user),
        },
    )


@role_required(*comps.ISSUERS)
@require_POST
def comp_issue(request, rating_id: int):
    try:
        amount = parse_amount(request.POST.get("amount", ""), property_currency())
        comp = comps.comp_issue(
            staff=request.user,
            rating_id=rating_id,
            amount_cents=amount,
            description=request.POST.get("description", ""),
        )
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    except CasinoError as exc:
        messages.error(request, exc.message)
    else:
        if comp.status == Comp.GRANTED:
            messages.success(request, _("Comp granted."))
        else:
            messages.success(request, _("Above your limit: the comp awaits a manager's approval."))
    return redirect("comps:rating", rating_id=rating_id)


def _decided(request, comp_id: int, *, approve: bool):
    comp = get_object_or_404(Comp, pk=comp_id)
    service = comps.comp_approve if approve else comps.comp_decline
    try:
        service(staff=request.user, comp_id=comp_id, note=request.POST.get("note", ""))
    except CasinoError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Comp approved.") if approve else _("Comp declined."))
    return redirect("comps:rating", rating_id=comp.rating_id)


@role_required(*comps.APPROVERS)
@require_POST
def comp_approve(request, comp_id: int):
    return _decided(request, comp_id, approve=True)


@role_required(*comps.APPROVERS)
@require_POST
def comp_decline(request, comp_id: int):
    return _decided(request, comp_id, approve=False)


def _month(text: str, today: dt.date) -> tuple[int, int]:
    try:
        year, month = (int(part) for part in text.split("-"))
        dt.date(year, month, 1)
    except ValueError:
        first = today.replace(day=1) - dt.timedelta(days=1)  # last month by default
        return first.year, first.month
    return year, month


@role_required(*comps.REPORTERS)
@require_GET
@never_cache
def comp_report(request):
    """The month's comps, for an auditor who neither grants nor receives them (audited)."""
    prop = current_property()
    year, month = _month(request.GET.get("month", ""), prop.gaming_date())
    try:
        report = comps.comp_report(staff=request.user, prop=prop, year=year, month=month)
    except CasinoError as exc:
        return render(request, "ratings/comps/report.html", {"refused": exc.message}, status=403)
    return render(
        request,
        "ratings/comps/report.html",
        {"report": report, "month": f"{year:04d}-{month:02d}"},
    )


@role_required(*comps.REPORTERS)
@require_GET
@never_cache
def comp_report_csv(request):
    """The month's report as CSV, for the same auditor; each download is audited."""
    prop = current_property()
    year, month = _month(request.GET.get("month", ""), prop.gaming_date())
    try:
        text = comp_export.comp_report_csv(staff=request.user, prop=prop, year=year, month=month)
    except CasinoError as exc:
        return render(request, "ratings/comps/report.html", {"refused": exc.message}, status=403)
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="comps-{year:04d}-{month:02d}.csv"'
    return response


AML_READERS = (Role.COMPLIANCE, Role.AUDITOR)


@role_required(*AML_READERS)
@require_GET
@never_cache
def aml_day(request):
    """The anti-money-laundering log of a gaming day (today's by default); each reading is
    audited, as the identity's are."""
    prop = current_property()
    try:
        gaming_date = dt.date.fromisoformat(request.GET.get("date", "").strip())
    except ValueError:
        gaming_date = prop.gaming_date()
    rows = aml_log.aml_log(prop, gaming_date)
    start, end = prop.gaming_day_bounds(gaming_date)
    with transaction.atomic():
        audit(
            actor=request.user,
            code="ratings.aml_log.viewed",
            data={"gaming_date": gaming_date.isoformat(), "players": len(rows)},
        )
    return render(
        request,
        "ratings/compliance/aml_day.html",
        {
            "gaming_date": gaming_date,
            "rows": rows,
            "hours": round((end - start).total_seconds() / 3600),
            "previous": gaming_date - dt.timedelta(days=1),
            "next": gaming_date + dt.timedelta(days=1),
        },
    )
