"""The player file's pages: the pit sees alias and status, supervisors add and link players,
compliance records identity and status and answers the players' privacy requests, auditors
read. Thin: each parses, calls one service and renders or redirects."""

import datetime as dt
import json

from django.contrib import messages
from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from casino.access import role_required
from casino.errors import CasinoError
from casino.roles import Role, has_role
from tables.ratings import identity as identity_services
from tables.ratings import players, privacy
from tables.ratings.models import Player

FILE_READERS = players.FILE_READERS
IDENTITY_READERS = players.IDENTITY_READERS
LIST_LIMIT = 200


def _powers(user) -> dict:
    return {
        "add": has_role(user, Role.SUPERVISOR),
        "comply": has_role(user, Role.COMPLIANCE),
        "identity": has_role(user, *IDENTITY_READERS),
        # The reports (pages_reports): theo for hosts, managers and auditors.
        "reports": has_role(user, Role.HOST, Role.MANAGER, Role.AUDITOR),
        "accuracy": has_role(user, Role.MANAGER, Role.AUDITOR),
    }


def _back(player_id: int):
    return redirect("players:detail", player_id=player_id)


@role_required(*FILE_READERS)
@require_GET
@never_cache
def player_list(request):
    query = request.GET.get("q", "").strip()
    rows = Player.objects.order_by("alias", "pk")
    if query:
        rows = rows.filter(alias__icontains=query) | rows.filter(card=query)
    return render(
        request,
        "ratings/players/list.html",
        {"players": rows[:LIST_LIMIT], "query": query, "powers": _powers(request.user)},
    )


@role_required(Role.SUPERVISOR)
@require_POST
def player_add(request):
    try:
        player = players.player_create(
            supervisor=request.user,
            alias=request.POST.get("alias", ""),
            card=request.POST.get("card", ""),
        )
    except CasinoError as exc:
        messages.error(request, exc.message)
        return redirect("players:list")
    messages.success(request, _("Player %(alias)s added.") % {"alias": player.alias})
    return _back(player.pk)


@role_required(*FILE_READERS)
@require_GET
@never_cache
def player_detail(request, player_id: int):
    player = get_object_or_404(Player, pk=player_id)
    return render(
        request,
        "ratings/players/detail.html",
        {
            "player": player,
            "powers": _powers(request.user),
            "statuses": Player.STATUS_CHOICES,
        },
    )


@role_required(Role.SUPERVISOR)
@require_POST
def player_link(request, player_id: int):
    try:
        players.player_link(
            supervisor=request.user, player_id=player_id, card=request.POST.get("card", "")
        )
    except CasinoError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("The player is linked to the card."))
    return _back(player_id)


@role_required(*IDENTITY_READERS)
@require_GET
@never_cache
def identity_page(request, player_id: int):
    """Every opening of this page is in the audit log, with who read it."""
    player = get_object_or_404(Player, pk=player_id)
    identity = identity_services.identity_view(reader=request.user, player_id=player_id)
    return render(
        request,
        "ratings/players/identity.html",
        {
            "player": player,
            "identity": identity,
            "powers": _powers(request.user),
            "documents": list(identity_services.DOCUMENT_KINDS.items()),
        },
    )


def _date(text: str) -> dt.date | None:
    text = text.strip()
    return dt.date.fromisoformat(text) if text else None


@role_required(Role.COMPLIANCE)
@require_POST
def identity_record(request, player_id: int):
    try:
        birth_date = _date(request.POST.get("birth_date", ""))
    except ValueError:
        messages.error(request, _("Type the date of birth as YYYY-MM-DD."))
        return redirect("players:identity", player_id=player_id)
    try:
        identity_services.identity_record(
            officer=request.user,
            player_id=player_id,
            family_name=request.POST.get("family_name", ""),
            given_names=request.POST.get("given_names", ""),
            birth_date=birth_date,
            document_kind=request.POST.get("document_kind", ""),
        )
    except CasinoError as exc:
        messages.error(request, exc.message)
        return redirect("players:identity", player_id=player_id)
    messages.success(request, _("Identity recorded."))
    return _back(player_id)


@role_required(Role.COMPLIANCE)
@require_POST
def status_set(request, player_id: int):
    try:
        identity_services.player_status_set(
            officer=request.user,
            player_id=player_id,
            status=request.POST.get("status", ""),
            reason=request.POST.get("reason", ""),
        )
    except CasinoError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Status changed."))
    return _back(player_id)


@role_required(Role.COMPLIANCE)
@require_POST
def data_export(request, player_id: int):
    """An access request's answer: one JSON file, downloaded (and audited)."""
    try:
        document = privacy.player_data_export(officer=request.user, player_id=player_id)
    except CasinoError as exc:
        messages.error(request, exc.message)
        return _back(player_id)
    body = json.dumps(document, cls=DjangoJSONEncoder, indent=2, ensure_ascii=False)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="player-{player_id}.json"'
    return response


@role_required(Role.COMPLIANCE)
@require_POST
def player_erase(request, player_id: int):
    try:
        outcome = privacy.player_erase(
            officer=request.user, player_id=player_id, reason=request.POST.get("reason", "")
        )
    except CasinoError as exc:
        messages.error(request, exc.message)
        return _back(player_id)
    if outcome["identity"] == "kept":
        messages.success(
            request,
            _(
                "The player is erased; their identity is kept until the anti-money-laundering "
                "period ends."
            ),
        )
    else:
        messages.success(request, _("The player is erased."))
    return _back(player_id)
