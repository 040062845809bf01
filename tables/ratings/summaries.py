"""Each rating's figures kept for the reports over a year (RatingSummary): computed by
figures.py from the lines, exactly as a read computes them, and refreshed after commit when
a round the rating counts settles, is corrected or voided, or when the rating changes. A
report computes again, before using it, any summary missing or older than its rating's close;
an open rating is always read from its lines."""

import datetime as dt

from django.db.models import F, Q
from django.utils import timezone

from tables.models import Round
from tables.ratings.figures import figures
from tables.ratings.models import Rating, RatingPause, RatingSummary


def _pauses(ratings) -> dict[int, list]:
    found: dict[int, list] = {}
    for p in RatingPause.objects.filter(rating__in=ratings).order_by("started_at", "pk"):
        found.setdefault(p.rating_id, []).append(p)
    return found


def summary_of(rating: Rating, pauses, *, now: dt.datetime) -> RatingSummary:
    f = figures(rating, pauses, now=now)
    return RatingSummary(
        rating=rating,
        hands=f.hands,
        ante_cents=f.wagered["ante"],
        total_wagered_cents=f.total_wagered_cents,
        player_result_cents=f.player_result_cents,
        theo_cents=f.theo_cents,
        seconds_played=f.seconds_played,
        refreshed_at=now,
    )


def refresh(ratings) -> list[RatingSummary]:
    """Compute and keep the summaries of `ratings` (a queryset or a list)."""
    ratings = list(ratings)
    if not ratings:
        return []
    now = timezone.now()
    pauses = _pauses(ratings)
    done = [summary_of(r, pauses.get(r.pk, []), now=now) for r in ratings]
    RatingSummary.objects.bulk_create(
        done,
        update_conflicts=True,
        unique_fields=["rating"],
        update_fields=[
            "hands",
            "ante_cents",
            "total_wagered_cents",
            "player_result_cents",
            "theo_cents",
            "seconds_played",
            "refreshed_at",
        ],
    )
    return done


def stale(ratings):
    """The closed ratings of `ratings` whose summary is missing or older than their close."""
    return ratings.filter(closed_at__isnull=False).filter(
        Q(summary__isnull=True) | Q(summary__refreshed_at__lt=F("closed_at"))
    )


def refresh_stale(ratings) -> int:
    found = list(stale(ratings).select_related("table"))
    refresh(found)
    return len(found)


def ratings_over_round(round_id: int):
    """The ratings that may count the round: its table's, open when it was played."""
    round_ = Round.objects.filter(pk=round_id).values("table_id", "opened_at", "settled_at").first()
    if round_ is None:
        return Rating.objects.none()
    found = Rating.objects.filter(table_id=round_["table_id"])
    if round_["settled_at"] is not None:
        found = found.filter(opened_at__lte=round_["settled_at"])
    return found.filter(Q(closed_at__isnull=True) | Q(closed_at__gte=round_["opened_at"]))


def refresh_for_round(round_id: int) -> int:
    """A round settled, corrected or voided: the closed ratings that may count it (an open
    one is read from its lines, so a settled round usually costs two small queries)."""
    found = list(
        ratings_over_round(round_id).filter(closed_at__isnull=False).select_related("table")
    )
    refresh(found)
    return len(found)


def refresh_for_table(table_id: int) -> int:
    """After a rating changed at the table (a close): the stale closed ratings there."""
    return refresh_stale(Rating.objects.filter(table_id=table_id))
