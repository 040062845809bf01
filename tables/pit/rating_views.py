"""The pit's rating actions on a table's seat map: thin views over tables.ratings' services
(open, pause, resume, buy-in, move, close) and the player file's link of an anonymous player
to a card. A supervisor writes; each returns to the table's page with what happened."""

import uuid

from django.contrib import messages
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from casino.access import role_required
from casino.ids import db_id
from casino.money import parse_cents
from casino.roles import Role
from tables.models import Table
from tables.pit.views import _act, _back
from tables.ratings import services
from tables.ratings.models import BuyIn, Rating
from tables.ratings.players import player_link


def _key(request) -> str:
    # The form's key makes a double submission one write; a form without one still writes once.
    return request.POST.get("key", "") or uuid.uuid4().hex


def _rating(rating_id: int) -> Rating:
    return get_object_or_404(Rating.objects.select_related("player", "table"), pk=rating_id)


def _table_page(table_id: int) -> str:
    return f"/pit/tables/{table_id}/"


def _amount(request, field: str, *, required: bool):
    """Cents typed in the property's currency; None when empty (or not given); ValueError."""
    text = request.POST.get(field, "").strip()
    if not text:
        if required:
            raise ValueError
        return None
    return parse_cents(text)


@role_required(Role.SUPERVISOR)
@require_POST
def rating_open(request, table_id: int):
    table = get_object_or_404(Table, pk=table_id)
    seat = db_id(request.POST.get("seat", ""))
    card = request.POST.get("card", "").strip()
    description = request.POST.get("anonymous", "").strip()
    if bool(card) == bool(description):
        messages.error(
            request,
            _("Choose a player from the list, or describe an anonymous player (one of the two)."),
        )
        return _back(request, _table_page(table.pk))
    player = {"card": card} if card else {"anonymous": description}
    return _act(
        request,
        _table_page(table.pk),
        lambda: services.rating_open(
            staff=request.user, key=_key(request), table=table.pk, seat=seat, player=player
        ),
        _("A rating is open at %(table)s, seat %(seat)s.") % {"table": table, "seat": seat},
        refusals={"bad_seat": _("Choose a seat of this table.")},
    )


@role_required(Role.SUPERVISOR)
@require_POST
def rating_pause(request, rating_id: int):
    rating = _rating(rating_id)
    return _act(
        request,
        _table_page(rating.table_id),
        lambda: services.rating_pause(rating_id=rating.pk, staff=request.user, key=_key(request)),
        _("The rating of %(alias)s is paused.") % {"alias": rating.player.alias},
    )


@role_required(Role.SUPERVISOR)
@require_POST
def rating_resume(request, rating_id: int):
    rating = _rating(rating_id)
    return _act(
        request,
        _table_page(rating.table_id),
        lambda: services.rating_resume(rating_id=rating.pk, staff=request.user, key=_key(request)),
        _("The rating of %(alias)s goes on.") % {"alias": rating.player.alias},
    )


@role_required(Role.SUPERVISOR)
@require_POST
def rating_buy_in(request, rating_id: int):
    rating = _rating(rating_id)
    page = _table_page(rating.table_id)
    try:
        amount = _amount(request, "amount", required=True)
    except ValueError:
        messages.error(request, _("Type the buy-in as an amount, such as 500 or 1234.56."))
        return _back(request, page)
    instrument = request.POST.get("instrument", "")
    names = dict(BuyIn.INSTRUMENTS)
    return _act(
        request,
        page,
        lambda: services.rating_buy_in(
            rating_id=rating.pk,
            staff=request.user,
            key=_key(request),
            amount_cents=amount,
            instrument=instrument,
        ),
        _("Buy-in recorded for %(alias)s (%(instrument)s).")
        % {"alias": rating.player.alias, "instrument": names.get(instrument, instrument)},
        refusals={
            "bad_amount": _("Type the buy-in as an amount, such as 500 or 1234.56."),
            "bad_instrument": _("Choose cash, chips or marker."),
        },
    )


@role_required(Role.SUPERVISOR)
@require_POST
def rating_move(request, rating_id: int):
    rating = _rating(rating_id)
    target = db_id(request.POST.get("table", ""))
    seat = db_id(request.POST.get("seat", ""))
    found = Table.objects.filter(pk=target).first() if target is not None else None
    if found is None:
        messages.error(request, _("Choose the table the player moves to."))
        return _back(request, _table_page(rating.table_id))
    return _act(
        request,
        _table_page(rating.table_id),
        lambda: services.rating_move(
            rating_id=rating.pk, staff=request.user, key=_key(request), table=found.pk, seat=seat
        ),
        _("%(alias)s moves to %(table)s, seat %(seat)s: the rating follows.")
        % {"alias": rating.player.alias, "table": found, "seat": seat},
        refusals={"bad_seat": _("Choose a seat of the table the player moves to.")},
    )


@role_required(Role.SUPERVISOR)
@require_POST
def rating_close(request, rating_id: int):
    rating = _rating(rating_id)
    page = _table_page(rating.table_id)
    try:
        walk_with = _amount(request, "walk_with", required=False)
    except ValueError:
        messages.error(request, _("Type the walk-with as an amount, such as 500 or 1234.56."))
        return _back(request, page)
    return _act(
        request,
        page,
        lambda: services.rating_close(
            rating_id=rating.pk, staff=request.user, key=_key(request), walk_with_cents=walk_with
        ),
        _("The rating of %(alias)s is closed.") % {"alias": rating.player.alias},
        refusals={"bad_amount": _("Type the walk-with as an amount, such as 500 or 1234.56.")},
    )


@role_required(Role.SUPERVISOR)
@require_POST
def player_link_view(request, rating_id: int):
    """The anonymous player of a rating shows a card: the player file's link (audited)."""
    rating = _rating(rating_id)
    return _act(
        request,
        _table_page(rating.table_id),
        lambda: player_link(
            supervisor=request.user,
            player_id=rating.player_id,
            card=request.POST.get("card", ""),
        ),
        _("%(alias)s now holds card %(card)s.")
        % {"alias": rating.player.alias, "card": request.POST.get("card", "").strip()},
    )
