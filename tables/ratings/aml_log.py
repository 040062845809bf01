"""The anti-money-laundering log read from the ratings: a player's gaming day (what the pit's
alert checks after each cash buy-in and each round counted into a rating) and every player's
for a gaming day (the compliance page). Cash is aggregated per player per gaming day across
ratings and tables; so are the winnings, where a threshold applies to them (France's, per
séance: the gaming day): the player's result measured from the lines of the rounds their
ratings count (tables.ratings.figures), those whose gaming date is the day, added up across
ratings and tables, counted when positive. The thresholds are tables.ratings.aml's."""

import datetime as dt
from dataclasses import dataclass

from django.db.models import Q, Subquery, Sum

from tables.models import Round
from tables.ratings.aml import (
    IDENTITY,
    NEEDS_IDENTITY,
    TRANSACTION_REPORT,
    GamingDayCheck,
    Thresholds,
    thresholds_crossed,
)
from tables.ratings.compliance import settings_for
from tables.ratings.figures import counted_lines
from tables.ratings.models import BuyIn, Player, PlayerIdentity, Rating, RatingPause


@dataclass(frozen=True)
class PlayerDay:
    player: Player
    day: GamingDayCheck
    identity_on_file: bool
    # The lowest crossed threshold that needs identity (what the alert names), if any.
    threshold_cents: int | None


def _identity_threshold(thresholds: Thresholds, crossed) -> int | None:
    found = []
    if IDENTITY in crossed:
        found.append(thresholds.identity_cents)
    if TRANSACTION_REPORT in crossed:
        found.append(thresholds.transaction_report_cents)
    found = [t for t in found if t is not None]
    return min(found) if found else None


def _day_cash(player_ids, bounds):
    start, end = bounds
    return BuyIn.objects.filter(
        instrument=BuyIn.CASH, at__gte=start, at__lt=end, rating__player_id__in=player_ids
    )


def _day_results(player_ids, prop, gaming_date: dt.date) -> dict[int, int]:
    """{player: their measured result over the gaming day} for the players rated then: each
    rating over the day, its counted lines of that gaming date (one query a rating)."""
    start, end = prop.gaming_day_bounds(gaming_date)
    ratings = list(
        Rating.objects.filter(player_id__in=player_ids, opened_at__lt=end).filter(
            Q(closed_at__isnull=True) | Q(closed_at__gte=start)
        )
    )
    pauses: dict[int, list] = {}
    for p in RatingPause.objects.filter(rating__in=ratings).order_by("started_at", "pk"):
        pauses.setdefault(p.rating_id, []).append(p)
    results: dict[int, int] = {}
    for rating in ratings:
        net = (
            counted_lines(rating, pauses.get(rating.pk, []))
            .filter(gaming_date=gaming_date)
            .aggregate(net=Sum("net_cents", default=0))["net"]
        )
        results[rating.player_id] = results.get(rating.player_id, 0) + net
    return results


def _winnings(result: int | None, start: dt.datetime) -> list[tuple[int, dt.datetime]]:
    # A loss over the day is no winnings; one pair at the day's start: the day's total.
    return [(result, start)] if result and result > 0 else []


def _checked(
    player: Player, pairs, thresholds: Thresholds, on_file: bool, winnings=()
) -> PlayerDay | None:
    checks = thresholds_crossed(
        pairs,
        prop=player.property,
        thresholds=thresholds,
        identity_on_file=on_file,
        winnings=winnings,
    )
    if not checks:
        return None
    (day,) = checks
    return PlayerDay(player, day, on_file, _identity_threshold(thresholds, day.crossed))


def player_day_check(*, player_id: int, at: dt.datetime) -> PlayerDay | None:
    """The player's cash in and winnings on the gaming day of `at`, against the thresholds
    (the winnings measured only where a threshold applies to them)."""
    player = Player.objects.select_related("property").filter(pk=player_id).first()
    if player is None:
        return None
    prop = player.property
    gaming_date = prop.gaming_date(at)
    bounds = prop.gaming_day_bounds(gaming_date)
    pairs = list(_day_cash([player.pk], bounds).values_list("amount_cents", "at"))
    thresholds = Thresholds.of(settings_for(prop))
    winnings = []
    if thresholds.identity_cents is not None:
        result = _day_results([player.pk], prop, gaming_date).get(player.pk)
        winnings = _winnings(result, bounds[0])
    on_file = _identity_on_file([player.pk])
    return _checked(player, pairs, thresholds, player.pk in on_file, winnings)


def rated_in_round(round_id: int) -> list[tuple[int, int, dt.datetime]]:
    """(player, table, settled at) of the ratings that count the settled round: whose
    winnings it may have taken over a threshold (the pit checks them off the request path).
    One query when no rating was open over the round."""
    settled = Round.objects.filter(pk=round_id, stage=Round.Stage.SETTLED)
    over = Rating.objects.filter(
        table_id=Subquery(settled.values("table_id")[:1]),
        opened_at__lte=Subquery(settled.values("settled_at")[:1]),
    ).filter(
        Q(closed_at__isnull=True) | Q(closed_at__gte=Subquery(settled.values("opened_at")[:1]))
    )
    found = list(over.prefetch_related("pauses"))
    if not found:
        return []
    settled_at = settled.values_list("settled_at", flat=True).first()
    return [
        (r.player_id, r.table_id, settled_at)
        for r in found
        if counted_lines(r, list(r.pauses.all())).filter(round_id=round_id).exists()
    ]


def _identity_on_file(player_ids) -> set[int]:
    return set(
        PlayerIdentity.objects.filter(
            player_id__in=player_ids, checked_at__isnull=False
        ).values_list("player_id", flat=True)
    )


def aml_log(prop, gaming_date: dt.date) -> list[PlayerDay]:
    """Every player with cash in or (where a threshold applies to them) winnings on
    `gaming_date` (23, 24 or 25 hours long), the most cash then the most winnings first:
    amounts, thresholds crossed, identity on file or not."""
    bounds = prop.gaming_day_bounds(gaming_date)
    start = bounds[0]
    of_property = Player.objects.filter(property=prop).values("pk")
    totals = (
        _day_cash(of_property, bounds)
        .values("rating__player_id")
        .annotate(total=Sum("amount_cents"))
    )
    by_player = {row["rating__player_id"]: row["total"] for row in totals}
    thresholds = Thresholds.of(settings_for(prop))
    results = {}
    if thresholds.identity_cents is not None:
        results = _day_results(of_property, prop, gaming_date)
    won = {pk: result for pk, result in results.items() if result > 0}
    players = Player.objects.select_related("property").in_bulk([*by_player, *won])
    on_file = _identity_on_file(list(players))
    rows = []
    for player_id in players:
        # One pair at the day's start: the total is what the thresholds compare.
        cash = [(by_player[player_id], start)] if player_id in by_player else []
        found = _checked(
            players[player_id],
            cash,
            thresholds,
            player_id in on_file,
            _winnings(won.get(player_id), start),
        )
        if found is not None:
            rows.append(found)
    rows.sort(
        key=lambda r: (-r.day.cash_in_cents, -r.day.winnings_cents, r.player.alias, r.player.pk)
    )
    return rows


def needs_identity(row: PlayerDay) -> bool:
    return bool(NEEDS_IDENTITY.intersection(row.day.crossed))
