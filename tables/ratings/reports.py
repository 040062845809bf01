"""The ratings' reports (issue 28, item 9): a player's visits and ratings with theo against
result per gaming day, the top players by theo over a period, the rating accuracy report, and
a gaming day's ratings as CSV. Closed ratings are read from their kept summaries
(tables.ratings.summaries; a stale one is computed again first), open ones from their lines."""

import dataclasses
import datetime as dt
from fractions import Fraction

from django.db.models import Count, Sum
from django.utils import timezone

from tables.ratings import summaries
from tables.ratings.models import Rating, RatingPause

#: Most rows a top-players report lists.
TOP_LIMIT = 50
#: Visits and ratings a player's page lists (the latest); its totals and chart cover them all.
SHOWN = 100


def hours_minutes(seconds: int) -> str:
    return f"{seconds // 3600}:{seconds % 3600 // 60:02d}"


@dataclasses.dataclass
class Row:
    """A rating with the figures the reports show."""

    rating: Rating
    gaming_date: dt.date
    hands: int
    ante_cents: int
    total_wagered_cents: int
    player_result_cents: int
    theo_cents: int
    seconds_played: int

    @property
    def average_ante_cents(self) -> int:
        return round(Fraction(self.ante_cents, self.hands)) if self.hands else 0

    @property
    def time_played(self) -> str:
        return hours_minutes(self.seconds_played)


@dataclasses.dataclass
class Visit:
    """A chain of ratings linked by `previous` (a move closes one and opens the next)."""

    rows: list

    def _sum(self, field: str) -> int:
        return sum(getattr(r, field) for r in self.rows)

    @property
    def opened_at(self):
        return self.rows[0].rating.opened_at

    @property
    def closed_at(self):
        return self.rows[-1].rating.closed_at

    @property
    def gaming_date(self):
        return self.rows[0].gaming_date

    hands = property(lambda self: self._sum("hands"))
    total_wagered_cents = property(lambda self: self._sum("total_wagered_cents"))
    player_result_cents = property(lambda self: self._sum("player_result_cents"))
    theo_cents = property(lambda self: self._sum("theo_cents"))
    seconds_played = property(lambda self: self._sum("seconds_played"))
    time_played = property(lambda self: hours_minutes(self.seconds_played))


@dataclasses.dataclass
class Day:
    """One gaming day of the player's, as the accounting's trend chart draws it: the house's
    result against the player as `win`, the theo as `theoretical`; no hold."""

    day: dt.date
    win: int
    theoretical: int
    hold: None = None


def rows_of(ratings, prop, *, now: dt.datetime | None = None) -> list[Row]:
    """The figures of `ratings` (a queryset): summaries for the closed, lines for the open."""
    now = now or timezone.now()
    summaries.refresh_stale(ratings)
    found = list(ratings.select_related("table", "summary", "player"))
    open_ = [r for r in found if r.closed_at is None]
    pauses: dict[int, list] = {}
    for p in RatingPause.objects.filter(rating__in=open_).order_by("started_at", "pk"):
        pauses.setdefault(p.rating_id, []).append(p)
    rows = []
    for r in found:
        s = getattr(r, "summary", None) if r.closed_at is not None else None
        if s is None:
            s = summaries.summary_of(r, pauses.get(r.pk, []), now=now)
        rows.append(
            Row(
                rating=r,
                gaming_date=prop.gaming_date(r.opened_at),
                hands=s.hands,
                ante_cents=s.ante_cents,
                total_wagered_cents=s.total_wagered_cents,
                player_result_cents=s.player_result_cents,
                theo_cents=s.theo_cents,
                seconds_played=s.seconds_played,
            )
        )
    return rows


def visits_of(rows: list[Row]) -> list[Visit]:
    """Chains of ratings by `previous`, newest visit first, each in play order."""
    by_id = {r.rating.pk: r for r in rows}
    chains: dict[int, list] = {}
    for row in rows:
        first = row.rating
        while first.previous_id in by_id:
            first = by_id[first.previous_id].rating
        chains.setdefault(first.pk, []).append(row)
    visits = [
        Visit(sorted(chain, key=lambda r: (r.rating.opened_at, r.rating.pk)))
        for chain in chains.values()
    ]
    return sorted(visits, key=lambda v: v.opened_at, reverse=True)


def days_of(rows: list[Row]) -> list[Day]:
    """Theo and result per gaming day the player played, oldest first."""
    days: dict[dt.date, Day] = {}
    for row in rows:
        day = days.setdefault(row.gaming_date, Day(row.gaming_date, 0, 0))
        day.win -= row.player_result_cents
        day.theoretical += row.theo_cents
    return [days[d] for d in sorted(days)]


def player_report(player, prop, *, since: dt.date | None = None) -> dict:
    ratings = Rating.objects.filter(player=player)
    if since is not None:
        ratings = ratings.filter(opened_at__gte=prop.gaming_day_start(since))
    rows = rows_of(ratings.order_by("-opened_at", "-pk"), prop)
    visits = visits_of(rows)
    return {
        "rows": rows,
        "visits": visits,
        # A year is hundreds of rows: the page lists the latest (rendering is its cost).
        "shown_rows": rows[:SHOWN],
        "shown_visits": visits[:SHOWN],
        "more": len(rows) > SHOWN or len(visits) > SHOWN,
        "days": days_of(rows),
        "theo_cents": sum(r.theo_cents for r in rows),
        "player_result_cents": sum(r.player_result_cents for r in rows),
        "hands": sum(r.hands for r in rows),
    }


def _in_period(prop, first: dt.date, last: dt.date):
    start = prop.gaming_day_start(first)
    end = prop.gaming_day_start(last + dt.timedelta(days=1))
    return Rating.objects.filter(opened_at__gte=start, opened_at__lt=end)


@dataclasses.dataclass
class TopPlayer:
    player_id: int
    alias: str
    card: str | None
    ratings: int
    hands: int
    total_wagered_cents: int
    player_result_cents: int
    theo_cents: int
    seconds_played: int


def top_players(prop, first: dt.date, last: dt.date, *, limit: int = TOP_LIMIT) -> list:
    """The players with the most theo over the gaming days `first` to `last`: one aggregate
    of the closed ratings' summaries, plus the open ratings read from their lines."""
    ratings = _in_period(prop, first, last)
    summaries.refresh_stale(ratings)
    totals: dict[int, TopPlayer] = {}
    closed = (
        ratings.filter(closed_at__isnull=False)
        .values("player_id", "player__alias", "player__card")
        .annotate(
            ratings=Count("pk"),
            hands=Sum("summary__hands"),
            wagered=Sum("summary__total_wagered_cents"),
            result=Sum("summary__player_result_cents"),
            theo=Sum("summary__theo_cents"),
            seconds=Sum("summary__seconds_played"),
        )
        .order_by()
    )
    for t in closed:
        totals[t["player_id"]] = TopPlayer(
            t["player_id"],
            t["player__alias"],
            t["player__card"],
            t["ratings"],
            t["hands"] or 0,
            t["wagered"] or 0,
            t["result"] or 0,
            t["theo"] or 0,
            t["seconds"] or 0,
        )
    for row in rows_of(ratings.filter(closed_at__isnull=True), prop):
        p = row.rating.player
        top = totals.setdefault(p.pk, TopPlayer(p.pk, p.alias, p.card, 0, 0, 0, 0, 0, 0))
        top.ratings += 1
        top.hands += row.hands
        top.total_wagered_cents += row.total_wagered_cents
        top.player_result_cents += row.player_result_cents
        top.theo_cents += row.theo_cents
        top.seconds_played += row.seconds_played
    return sorted(totals.values(), key=lambda t: (-t.theo_cents, t.alias, t.player_id))[:limit]


def accuracy(prop, first: dt.date, last: dt.date) -> list[dict]:
    """The ratings of the period with an average Ante entered by a supervisor, beside the one
    measured, the largest differences first."""
    ratings = _in_period(prop, first, last).filter(entered_average_ante_cents__isnull=False)
    found = []
    for row in rows_of(ratings.select_related("opened_by"), prop):
        entered = row.rating.entered_average_ante_cents
        measured = row.average_ante_cents
        found.append(
            {
                "row": row,
                "entered": entered,
                "measured": measured,
                "difference": entered - measured,
                # None with no hand measured: any entered average is then a guess of nothing.
                "percent": round(100 * (entered - measured) / measured, 1) if measured else None,
            }
        )
    return sorted(found, key=lambda a: (-abs(a["difference"]), a["row"].rating.pk))
