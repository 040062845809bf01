"""A supervisor's correction of a rating's open or close time, from the player's ratings page
(the pit's seat map links to it): the times typed as the pit's clock shows them, in the
property's time zone, and a reason. Thin: parse, call the one service
(corrections.rating_time_correct), say what happened; a bad input changes nothing."""

import datetime as dt
import uuid

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from casino.access import role_required
from casino.clock import current_property
from casino.errors import CasinoError
from casino.roles import Role
from tables.ratings.corrections import rating_time_correct
from tables.ratings.models import Rating

#: How the form shows a time (the value of an <input type="datetime-local" step="1">).
FORM_FORMAT = "%Y-%m-%dT%H:%M:%S"


class NoSuchTime(ValueError):
    """A local time the clocks jumped over (spring forward)."""


def form_value(prop, at: dt.datetime | None) -> str:
    return "" if at is None else prop.local(at).strftime(FORM_FORMAT)


def local_instant(prop, text: str, near: dt.datetime | None) -> dt.datetime:
    """The instant a wall-clock time typed in the property's time zone means. A time that
    happens twice (clocks going back) is the one nearer `near`, the time it corrects; one the
    clocks jumped over is refused (NoSuchTime). ValueError when it is no time at all."""
    wall = dt.datetime.fromisoformat(text.strip())
    if wall.tzinfo is not None:
        return wall
    zone = prop.zone
    found = {wall.replace(tzinfo=zone, fold=fold).astimezone(dt.UTC) for fold in (0, 1)}
    # A time in a gap does not come back to itself once made an instant and read again.
    real = sorted(at for at in found if at.astimezone(zone).replace(tzinfo=None) == wall)
    if not real:
        raise NoSuchTime
    if near is None:
        return real[0]
    return min(real, key=lambda at: abs(at - near))


def _typed(prop, text: str, current: dt.datetime | None) -> dt.datetime | None:
    """None when the field is empty or still says the rating's time (to the second: the form
    shows no fraction, and a browser leaves out ":00" seconds)."""
    text = (text or "").strip()
    if not text:
        return None
    at = local_instant(prop, text, current)
    if current is not None and at == current.replace(microsecond=0):
        return None
    return at


@role_required(Role.SUPERVISOR)
@require_POST
def time_correct(request, player_id: int, rating_id: int):
    rating = get_object_or_404(Rating, pk=rating_id, player_id=player_id)
    page = reverse("players:ratings", args=[player_id]) + f"#rating-{rating.pk}"
    # After a refusal the row's form stays unfolded, to be typed again.
    again = (
        reverse("players:ratings", args=[player_id]) + f"?correct={rating.pk}#rating-{rating.pk}"
    )
    prop = current_property()
    try:
        opened = _typed(prop, request.POST.get("opened_at", ""), rating.opened_at)
        closed = _typed(prop, request.POST.get("closed_at", ""), rating.closed_at)
    except NoSuchTime:
        messages.error(
            request,
            _(
                "That time does not exist in %(zone)s: the clocks jumped over it that night. "
                "Type the time the clock showed."
            )
            % {"zone": prop.time_zone},
        )
        return redirect(again)
    except ValueError:
        messages.error(request, _("Type a date and a time, such as 2026-12-05 21:30."))
        return redirect(again)
    try:
        rating_time_correct(
            rating_id=rating.pk,
            staff=request.user,
            # The form's key makes a double submission one write.
            key=request.POST.get("key", "") or uuid.uuid4().hex,
            reason=request.POST.get("reason", ""),
            opened_at=opened,
            closed_at=closed,
        )
    except CasinoError as exc:
        if getattr(exc, "code", "") == "nothing_to_correct":
            messages.error(request, _("Change the open or the close time, or both."))
        else:
            messages.error(request, exc.message)
        return redirect(again)
    else:
        messages.success(
            request,
            _("The rating's time is corrected; surveillance sees the correction."),
        )
    return redirect(page)
