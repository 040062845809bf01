"""The anti-money-laundering log read from the ratings' cash buy-ins: a player's gaming day
(what the pit's alert checks after each cash buy-in) and every player's for a gaming day (the
compliance page). Cash is aggregated per player per gaming day across ratings and tables;
the thresholds are tables.ratings.aml's."""

import datetime as dt
from dataclasses import dataclass

from django.db.models import Sum

from tables.ratings.aml import (
    IDENTITY,
    NEEDS_IDENTITY,
    TRANSACTION_REPORT,
    GamingDayCheck,
    Thresholds,
    thresholds_crossed,
)
from tables.ratings.compliance import settings_for
from tables.ratings.models import BuyIn, Player, PlayerIdentity


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


def _checked(player: Player, pairs, thresholds: Thresholds, on_file: bool) -> PlayerDay | None:
    checks = thresholds_crossed(
        pairs, prop=player.property, thresholds=thresholds, identity_on_file=on_file
    )
    if not checks:
        return None
    (day,) = checks
    return PlayerDay(player, day, on_file, _identity_threshold(thresholds, day.crossed))


def player_day_check(*, player_id: int, at: dt.datetime) -> PlayerDay | None:
    """The player's cash in on the gaming day of `at`, against the thresholds."""
    player = Player.objects.select_related("property").filter(pk=player_id).first()
    if player is None:
        return None
    prop = player.property
    bounds = prop.gaming_day_bounds(prop.gaming_date(at))
    pairs = list(_day_cash([player.pk], bounds).values_list("amount_cents", "at"))
    on_file = _identity_on_file([player.pk])
    return _checked(player, pairs, Thresholds.of(settings_for(prop)), player.pk in on_file)


def _identity_on_file(player_ids) -> set[int]:
    return set(
        PlayerIdentity.objects.filter(
            player_id__in=player_ids, checked_at__isnull=False
        ).values_list("player_id", flat=True)
    )


def aml_log(prop, gaming_date: dt.date) -> list[PlayerDay]:
    """Every player with cash in on `gaming_date` (23, 24 or 25 hours long), the most cash
    first: amounts, thresholds crossed, identity on file or not."""
    bounds = prop.gaming_day_bounds(gaming_date)
    start = bounds[0]
    totals = (
        _day_cash(Player.objects.filter(property=prop).values("pk"), bounds)
        .values("rating__player_id")
        .annotate(total=Sum("amount_cents"))
    )
    by_player = {row["rating__player_id"]: row["total"] for row in totals}
    players = Player.objects.select_related("property").in_bulk(list(by_player))
    on_file = _identity_on_file(list(by_player))
    thresholds = Thresholds.of(settings_for(prop))
    rows = []
    for player_id, total in by_player.items():
        # One pair at the day's start: the total is what the thresholds compare.
        found = _checked(players[player_id], [(total, start)], thresholds, player_id in on_file)
        if found is not None:
            rows.append(found)
    rows.sort(key=lambda r: (-r.day.cash_in_cents, r.player.alias, r.player.pk))
    return rows


def needs_identity(row: PlayerDay) -> bool:
    return bool(NEEDS_IDENTITY.intersection(row.day.crossed))
