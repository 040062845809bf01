"""The fraud signals a measured rating shows and a guessed one cannot (issue 28 item 7): a
ghost rating, ratings repeated by one supervisor for one player, times corrected after the
fact, a chips-estimated result far from the measured one. Each function finds its condition
and answers what the pit's alert says of it (tables.pit.alerts raises it), or None.
"""

import datetime as dt

from django.db.models import Subquery
from django.utils import timezone

from casino.clock import current_property
from tables.models import Round, SettlementLine
from tables.ratings.figures import figures
from tables.ratings.models import (
    DEFAULT_CHIPS_GAP_CENTS,
    DEFAULT_GHOST_ROUNDS,
    DEFAULT_REPEAT_COUNT,
    DEFAULT_REPEAT_DAYS,
    Rating,
    RatingSignalSettings,
    RatingTimeCorrection,
)


def signal_settings() -> RatingSignalSettings:
    """The property's thresholds; the defaults, unsaved, until a manager sets them."""
    prop = current_property()
    found = RatingSignalSettings.objects.filter(property=prop).first() if prop else None
    return found or RatingSignalSettings(
        ghost_rounds=DEFAULT_GHOST_ROUNDS,
        repeat_count=DEFAULT_REPEAT_COUNT,
        repeat_days=DEFAULT_REPEAT_DAYS,
        chips_gap_cents=DEFAULT_CHIPS_GAP_CENTS,
    )


def ghost_ratings(*, round_id: int, thresholds=None) -> list[dict]:
    """The open, unpaused ratings of the round's table whose seat placed no wager in the
    table's last N settled rounds, all opened since the rating opened (or last resumed). One
    query when the table has no open rating (the check runs after every round)."""
    table_of_round = Round.objects.filter(pk=round_id).values("table_id")[:1]
    open_ratings = list(
        Rating.objects.filter(table_id=Subquery(table_of_round), closed_at__isnull=True)
        .select_related("player", "table")
        .prefetch_related("pauses")
    )
    if not open_ratings:
        return []
    n = (thresholds or signal_settings()).ghost_rounds
    found = []
    for rating in open_ratings:
        pauses = list(rating.pauses.all())
        if any(p.ended_at is None for p in pauses):
            continue  # sitting out: no wager is expected
        since = max([rating.opened_at, *(p.ended_at for p in pauses)])
        last = list(
            Round.objects.filter(
                table_id=rating.table_id, stage=Round.Stage.SETTLED, opened_at__gte=since
            )
            .order_by("-settled_at", "-pk")
            .values_list("pk", flat=True)[:n]
        )
        if len(last) < n:
            continue
        if SettlementLine.objects.filter(round_id__in=last, seat=rating.seat).exists():
            continue
        found.append({"rating": rating, "rounds": n})
    return found


def repeated_ratings(*, rating_id: int, staff_id: int, thresholds=None) -> dict | None:
    """How often `staff` opened (a move's next rating included) or corrected a rating of this
    rating's player in the last D days, when it reaches K."""
    thresholds = thresholds or signal_settings()
    rating = Rating.objects.select_related("player").filter(pk=rating_id).first()
    if rating is None:
        return None
    since = timezone.now() - dt.timedelta(days=thresholds.repeat_days)
    opened = Rating.objects.filter(
        player_id=rating.player_id, opened_by_id=staff_id, opened_at__gte=since
    ).count()
    corrected = RatingTimeCorrection.objects.filter(
        rating__player_id=rating.player_id, by_id=staff_id, at__gte=since
    ).count()
    if opened + corrected < thresholds.repeat_count:
        return None
    return {
        "rating": rating,
        "opened": opened,
        "corrected": corrected,
        "count": opened + corrected,
        "limit": thresholds.repeat_count,
        "days": thresholds.repeat_days,
    }


def chips_gap(*, rating_id: int, thresholds=None) -> dict | None:
    """A closed rating whose chips-estimated result (walk-with less every buy-in) is at least
    the threshold away from the result measured from its rounds."""
    thresholds = thresholds or signal_settings()
    rating = (
        Rating.objects.select_related("player", "table")
        .prefetch_related("pauses", "buy_ins")
        .filter(pk=rating_id)
        .first()
    )
    if rating is None or rating.closed_at is None or rating.walk_with_cents is None:
        return None
    estimated = rating.walk_with_cents - sum(b.amount_cents for b in rating.buy_ins.all())
    measured = figures(rating, list(rating.pauses.all()), now=rating.closed_at).player_result_cents
    if abs(estimated - measured) < thresholds.chips_gap_cents:
        return None
    return {
        "rating": rating,
        "estimated_cents": estimated,
        "measured_cents": measured,
        "gap_cents": abs(estimated - measured),
        "threshold_cents": thresholds.chips_gap_cents,
    }


def time_corrected(*, correction_id: int) -> RatingTimeCorrection | None:
    return (
        RatingTimeCorrection.objects.select_related("rating__player", "rating__table", "by")
        .filter(pk=correction_id)
        .first()
    )
