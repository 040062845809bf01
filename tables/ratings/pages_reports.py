"""The ratings' report pages: a player's ratings (visits, theo against result), the top
players by theo, the rating accuracy report, a gaming day's ratings as CSV, and a
supervisor's entered average Ante. Thin: parse, call one service or report, render."""

import datetime as dt
import uuid

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from casino.access import role_required
from casino.clock import current_property
from casino.errors import CasinoError
from casino.ids import db_id
from casino.money import parse_cents
from casino.roles import Role, has_role
from tables.accounting.chart import trend_chart
from tables.ratings import day_export, entered_average, pages_time, players, reports
from tables.ratings.models import Player

#: Who sees theo (issue 28: "hosts see theo and comps"; managers and auditors read it all).
THEO_READERS = (Role.HOST, Role.MANAGER, Role.AUDITOR)
ACCURACY_READERS = (Role.MANAGER, Role.AUDITOR)


def _day(text: str | None, default: dt.date) -> dt.date:
    try:
        return dt.date.fromisoformat((text or "").strip())
    except ValueError:
        return default


def _period(request, prop) -> tuple[dt.date, dt.date]:
    today = prop.gaming_date()
    last = _day(request.GET.get("to"), today)
    first = _day(request.GET.get("from"), last - dt.timedelta(days=29))
    if first > last:
        first, last = last, first
    return first, last


@role_required(*players.FILE_READERS)
@require_GET
@never_cache
def player_ratings(request, player_id: int):
    player = get_object_or_404(Player, pk=player_id)
    prop = current_property()
    report = reports.player_report(player, prop)
    theo = has_role(request.user, *THEO_READERS)
    chart = ""
    if theo:
        chart = trend_chart(
            report["days"],
            title=_("The house's result against the player, and the theo, per gaming day"),
            with_hold=False,
        )
    return render(
        request,
        "ratings/players/ratings.html",
        {
            "player": player,
            "report": report,
            "theo": theo,
            "chart": chart,
            "enter": has_role(request.user, Role.SUPERVISOR)
            and entered_average.entry_allowed(prop),
            **_time_forms(request, prop, report),
        },
    )


def _time_forms(request, prop, report) -> dict:
    """A supervisor corrects a rating's times from its row (pages_time): each row's times as
    the form shows them, and the rating the seat map's link asked for, unfolded."""
    if not has_role(request.user, Role.SUPERVISOR):
        return {"correct": False}
    for row in report["shown_rows"]:
        rating = row.rating
        rating.opened_form = pages_time.form_value(prop, rating.opened_at)
        rating.closed_form = pages_time.form_value(prop, rating.closed_at)
    return {
        "correct": True,
        "key": uuid.uuid4().hex,
        "time_zone": prop.time_zone,
        "open_rating": db_id(request.GET.get("correct", "")),
    }


@role_required(Role.SUPERVISOR)
@require_POST
def average_enter(request, player_id: int, rating_id: int):
    text = request.POST.get("average_ante", "").strip()
    try:
        cents = parse_cents(text) if text else None
        entered_average.rating_average_enter(
            supervisor=request.user, rating_id=rating_id, cents=cents
        )
    except (CasinoError, ValueError) as exc:
        messages.error(request, getattr(exc, "message", _("Type an amount, such as 25 or 12.50.")))
    else:
        messages.success(request, _("Average Ante recorded."))
    return redirect("players:ratings", player_id=player_id)


@role_required(*THEO_READERS)
@require_GET
@never_cache
def top_players(request):
    prop = current_property()
    first, last = _period(request, prop)
    return render(
        request,
        "ratings/players/top.html",
        {"first": first, "last": last, "top": reports.top_players(prop, first, last)},
    )


@role_required(*ACCURACY_READERS)
@require_GET
@never_cache
def accuracy(request):
    prop = current_property()
    first, last = _period(request, prop)
    return render(
        request,
        "ratings/players/accuracy.html",
        {
            "first": first,
            "last": last,
            "rows": reports.accuracy(prop, first, last),
            "allowed": entered_average.entry_allowed(prop),
        },
    )


@role_required(*day_export.EXPORTERS)
@require_GET
@never_cache
def day_csv(request):
    """The download itself is audited (who took which day's ratings)."""
    prop = current_property()
    day = _day(request.GET.get("day"), prop.gaming_date())
    text, _count = day_export.ratings_day_csv(staff=request.user, gaming_date=day)
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="ratings-{day.isoformat()}.csv"'
    return response
