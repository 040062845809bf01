"""The seat map of a table on the pit's screen: who sits where, rated or not (by alias), for
how long, paused or not. Read from the open ratings (tables.ratings), one query each."""

from dataclasses import dataclass

from django.db.models import Exists, OuterRef
from django.utils import timezone

from tables.models import Table
from tables.ratings.models import Player, Rating, RatingPause


@dataclass(frozen=True)
class Seat:
    number: int
    rating: Rating | None = None
    paused: bool = False
    minutes: int = 0

    @property
    def anonymous(self) -> bool:
        return self.rating is not None and not self.rating.player.card


def seat_map(table: Table) -> list[Seat]:
    """Every seat of the table, with its open rating if it has one."""
    in_pause = Exists(RatingPause.objects.filter(rating=OuterRef("pk"), ended_at__isnull=True))
    open_ratings = (
        Rating.objects.filter(table=table, closed_at__isnull=True)
        .select_related("player")
        .annotate(in_pause=in_pause)
    )
    by_seat = {r.seat: r for r in open_ratings}
    now = timezone.now()
    seats = []
    for n in range(1, table.seats + 1):
        rating = by_seat.get(n)
        if rating is None:
            seats.append(Seat(n))
        else:
            minutes = int((now - rating.opened_at).total_seconds() // 60)
            seats.append(Seat(n, rating, rating.in_pause, minutes))
    return seats


def carded_players():
    """The player list a rating is opened from: every carded player still on file (a barred
    or self-excluded one is listed with their status, and refused by the service)."""
    return Player.objects.filter(card__isnull=False, erased_at__isnull=True).order_by("alias", "pk")


def open_tables():
    """Where a rating may be moved to."""
    return Table.objects.filter(status=Table.Status.OPEN).order_by("name")
