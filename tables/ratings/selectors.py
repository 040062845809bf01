"""Ratings as the API answers them (spec/ratings.md, "The rating"), and the reads the tablet,
the lists and the feed need."""

import base64
import binascii
import datetime as dt

from django.db.models import Exists, OuterRef, Prefetch
from django.utils import timezone

from tables.ratings.figures import figures
from tables.ratings.models import BuyIn, Rating, RatingPause
from tables.snapshots import iso, staff_ref

#: The feed lists ratings closed at least this long ago: a close committed a moment after a
#: later one (a lock wait) is not skipped by a reader already past it.
FEED_SETTLE = dt.timedelta(seconds=10)


def ratings_read():
    return Rating.objects.select_related(
        "player", "table", "opened_by", "closed_by"
    ).prefetch_related(
        Prefetch("pauses", queryset=RatingPause.objects.order_by("started_at", "pk")),
        Prefetch("buy_ins", queryset=BuyIn.objects.select_related("by").order_by("at", "pk")),
    )


def rating_status(rating: Rating, pauses) -> str:
    if rating.closed_at is not None:
        return "closed"
    return "paused" if any(p.ended_at is None for p in pauses) else "open"


def rating_json(rating: Rating, *, now: dt.datetime | None = None) -> dict:
    """The rating with its figures, read from the lines now (a read from `ratings_read` costs
    one query more for the lines and two for the edges)."""
    now = now or timezone.now()
    pauses = list(rating.pauses.all())
    buy_ins = list(rating.buy_ins.all())
    f = figures(rating, pauses, now=now)
    status = rating_status(rating, pauses)
    player = rating.player
    return {
        "id": rating.pk,
        "player": {"id": player.pk, "card": player.card, "alias": player.alias},
        "table": rating.table_id,
        "seat": rating.seat,
        "status": status,
        "opened_at": iso(rating.opened_at),
        "closed_at": iso(rating.closed_at),
        "closed_reason": rating.closed_reason or None,
        "previous": rating.previous_id,
        "seconds_played": f.seconds_played,
        "paused": status == "paused",
        "pauses": [{"from": iso(p.started_at), "to": iso(p.ended_at)} for p in pauses],
        "hands": f.hands,
        "wagered": f.wagered,
        "total_wagered_cents": f.total_wagered_cents,
        "average_ante_cents": f.average_ante_cents,
        "player_result_cents": f.player_result_cents,
        "edges": f.edges,
        "theo_cents": f.theo_cents,
        # From the par sheet (issue 27), null until it is computed for these rounds.
        "decision_cost_cents": f.decision_cost_cents,
        "buy_ins": [
            {
                "amount_cents": b.amount_cents,
                "instrument": b.instrument,
                "at": iso(b.at),
                "by": staff_ref(b.by),
            }
            for b in buy_ins
        ],
        "cash_in_cents": sum(b.amount_cents for b in buy_ins if b.instrument == BuyIn.CASH),
        "walk_with_cents": rating.walk_with_cents,
        # Walk-with less every buy-in: a large gap from the measured result is for
        # surveillance to look at.
        "chips_estimated_result_cents": None
        if rating.walk_with_cents is None
        else rating.walk_with_cents - sum(b.amount_cents for b in buy_ins),
        "opened_by": staff_ref(rating.opened_by),
        "closed_by": staff_ref(rating.closed_by),
    }


def rating_detail(rating_id) -> dict | None:
    rating = ratings_read().filter(pk=rating_id).first()
    return None if rating is None else rating_json(rating)


def ratings_list(*, table_id=None, status=None, limit: int = 50) -> list[dict]:
    """The ratings asked for, newest first."""
    found = ratings_read()
    if table_id is not None:
        found = found.filter(table_id=table_id)
    if status == "closed":
        found = found.filter(closed_at__isnull=False)
    elif status in ("open", "paused"):
        in_pause = Exists(RatingPause.objects.filter(rating=OuterRef("pk"), ended_at__isnull=True))
        found = found.filter(closed_at__isnull=True)
        found = found.filter(in_pause) if status == "paused" else found.exclude(in_pause)
    now = timezone.now()
    return [rating_json(r, now=now) for r in found.order_by("-opened_at", "-pk")[:limit]]


def seat_aliases(table_id: int) -> dict[int, str]:
    """Who is rated at each seat of a table, by alias alone (what a dealer may see)."""
    return dict(
        Rating.objects.filter(table_id=table_id, closed_at__isnull=True).values_list(
            "seat", "player__alias"
        )
    )


# --- the feed ------------------------------------------------------------------------------


def feed_cursor(rating: Rating) -> str:
    text = f"{rating.closed_at.astimezone(dt.UTC).isoformat()}|{rating.pk}"
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def read_cursor(cursor: str) -> tuple[dt.datetime, int] | None:
    """The cursor's (closed_at, id), or None when it is not one of ours."""
    try:
        text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        at, pk = text.split("|")
        closed_at = dt.datetime.fromisoformat(at)
        if closed_at.tzinfo is None:
            return None
        return closed_at, int(pk)
    except (ValueError, UnicodeDecodeError, binascii.Error):
        return None


def feed_page(
    *, after: tuple[dt.datetime, int] | None, limit: int
) -> tuple[list[dict], str | None]:
    """Closed ratings in the order they closed, after the cursor; the next cursor (the same
    one when nothing new has closed)."""
    from django.db.models import Q

    now = timezone.now()
    found = ratings_read().filter(closed_at__lte=now - FEED_SETTLE)
    if after is not None:
        at, pk = after
        found = found.filter(Q(closed_at__gt=at) | Q(closed_at=at, pk__gt=pk))
    page = list(found.order_by("closed_at", "pk")[:limit])
    rows = [rating_json(r, now=now) for r in page]
    if page:
        return rows, feed_cursor(page[-1])
    return rows, None
