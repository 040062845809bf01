"""The roll-up of closed gaming days (LineSummary): one GROUP BY per day, done by the database.

A day is rolled up once it is over (its gaming date is before today's): no line can be written
on it any more, since every line carries the gaming date of the moment it is written. The
reports read a rolled-up day from here and any other day from the lines themselves.
"""

import datetime as dt

from django.db import transaction
from django.db.models import Case, Count, F, IntegerField, OuterRef, Q, Subquery, Sum, Value, When
from django.db.models.functions import Coalesce
from django.utils import timezone

from casino.clock import current_property
from casino.models import Property
from tables.accounting.models import LineSummary, RoundSummary, SummarizedDay, WagerSummary
from tables.models import Round, SettlementLine

ORIGINAL = Q(correction__isnull=True)
PROGRESSIVE = SettlementLine.Bet.PROGRESSIVE


def hour_buckets(prop: Property, gaming_date: dt.date) -> list[dt.datetime]:
    """The UTC start of each hour of the gaming day: 23 on the spring day, 25 in autumn."""
    start, end = prop.gaming_day_bounds(gaming_date)
    starts = []
    at = start
    while at < end:
        starts.append(at)
        at += dt.timedelta(hours=1)
    return starts


def hour_expression(prop: Property, gaming_date: dt.date, field: str = "at"):
    """The line's hour of the gaming day (0 for its first hour), counted in elapsed hours
    from the day's start, so that the hour that happens twice in October stays two hours."""
    starts = hour_buckets(prop, gaming_date)
    whens = [
        When(**{f"{field}__lt": s + dt.timedelta(hours=1)}, then=Value(i))
        for i, s in enumerate(starts)
    ]
    return Case(*whens, default=Value(len(starts) - 1), output_field=IntegerField())


def line_sums():
    """What every report adds up from lines, by group."""
    return {
        "lines": Count("id"),
        "seats": Count("id", filter=ORIGINAL),
        "rounds": Count("round", distinct=True, filter=ORIGINAL),
        "stake": Coalesce(Sum("stake_cents", filter=ORIGINAL), 0),
        "net": Coalesce(Sum("net_cents"), 0),
        # Σ stake² of each bet: a bet's variance is its variance per unit² times it.
        "squares": Coalesce(Sum(F("stake_cents") * F("stake_cents"), filter=ORIGINAL), 0),
        "rivals": Coalesce(Sum(_rivals(), filter=ORIGINAL & Q(bet=PROGRESSIVE)), 0),
    }


def seat_wagers(lines):
    """The seat-rounds of these lines' Ante lines (original ones) with their Trips stake, to
    be grouped by the Ante's stake and it: `trips` is the same seat's original Trips line's
    stake in the round (0 without one)."""
    trips = SettlementLine.objects.filter(
        round=OuterRef("round"), seat=OuterRef("seat"), bet="trips", correction=None
    ).values("stake_cents")[:1]
    return lines.filter(ORIGINAL, bet="ante").annotate(
        trips=Coalesce(Subquery(trips, output_field=IntegerField()), 0)
    )


def _rivals():
    """Per original progressive line, the other seats of its round with a progressive wager:
    only they can win this seat Envy, so the theoretical charges Envy per rival, summed."""
    others = (
        SettlementLine.objects.filter(round=OuterRef("round"), bet=PROGRESSIVE, correction=None)
        .exclude(pk=OuterRef("pk"))
        .values("round")
        .annotate(n=Count("id"))
        .values("n")
    )
    return Coalesce(Subquery(others, output_field=IntegerField()), 0)


def summarize_day(gaming_date: dt.date, *, prop: Property | None = None) -> int:
    """Roll up one gaming day (again, if it was); the number of lines it holds."""
    prop = prop or current_property()
    rows = (
        SettlementLine.objects.filter(gaming_date=gaming_date)
        .annotate(
            corrected=Case(When(ORIGINAL, then=Value(False)), default=Value(True)),
        )
        .values(
            "shift",
            "round__table_id",
            "round__dealer_id",
            "round__ruleset_id",
            "bet",
            "paid_from",
            "corrected",
        )
        .annotate(**line_sums())
        .order_by()
    )
    summaries = [
        LineSummary(
            gaming_date=gaming_date,
            shift=r["shift"],
            table_id=r["round__table_id"],
            dealer_id=r["round__dealer_id"],
            ruleset_id=r["round__ruleset_id"],
            bet=r["bet"],
            paid_from=r["paid_from"],
            corrected=bool(r["corrected"]),
            lines=r["lines"],
            seats=r["seats"],
            rounds=r["rounds"],
            stake_cents=r["stake"],
            net_cents=r["net"],
            rivals=r["rivals"],
            stake_squares=r["squares"],
        )
        for r in rows
    ]
    counts: dict = {}
    for r in (
        Round.objects.filter(gaming_date=gaming_date, stage=Round.Stage.VOID)
        .values("shift", "table_id", "dealer_id", "ruleset_id")
        .annotate(n=Count("id"))
        .order_by()
    ):
        key = (r["shift"], r["table_id"], r["dealer_id"], r["ruleset_id"])
        counts.setdefault(key, [0, 0])[0] = r["n"]
    for r in (
        SettlementLine.objects.filter(gaming_date=gaming_date, correction__isnull=False)
        .values("shift", "round__table_id", "round__dealer_id", "round__ruleset_id")
        .annotate(n=Count("correction", distinct=True))
        .order_by()
    ):
        key = (r["shift"], r["round__table_id"], r["round__dealer_id"], r["round__ruleset_id"])
        counts.setdefault(key, [0, 0])[1] = r["n"]
    round_rows = [
        RoundSummary(
            gaming_date=gaming_date,
            shift=shift,
            table_id=table,
            dealer_id=dealer,
            ruleset_id=ruleset,
            voids=voids,
            corrections=corrections,
        )
        for (shift, table, dealer, ruleset), (voids, corrections) in counts.items()
    ]
    wagers = [
        WagerSummary(
            gaming_date=gaming_date,
            shift=r["shift"],
            table_id=r["round__table_id"],
            dealer_id=r["round__dealer_id"],
            ruleset_id=r["round__ruleset_id"],
            ante_cents=r["stake_cents"],
            trips_cents=r["trips"],
            seats=r["n"],
        )
        for r in seat_wagers(SettlementLine.objects.filter(gaming_date=gaming_date))
        .values(
            "shift",
            "round__table_id",
            "round__dealer_id",
            "round__ruleset_id",
            "stake_cents",
            "trips",
        )
        .annotate(n=Count("id"))
        .order_by()
    ]
    with transaction.atomic():
        LineSummary.objects.filter(gaming_date=gaming_date).delete()
        WagerSummary.objects.filter(gaming_date=gaming_date).delete()
        RoundSummary.objects.filter(gaming_date=gaming_date).delete()
        SummarizedDay.objects.filter(gaming_date=gaming_date).delete()
        LineSummary.objects.bulk_create(summaries, batch_size=2000)
        RoundSummary.objects.bulk_create(round_rows)
        WagerSummary.objects.bulk_create(wagers, batch_size=2000)
        lines = sum(s.lines for s in summaries)
        SummarizedDay.objects.create(gaming_date=gaming_date, lines=lines, built_at=timezone.now())
    return lines


def summarize_closed_days(*, prop: Property | None = None) -> list[dt.date]:
    """Roll up every gaming day before today's that is not rolled up yet."""
    prop = prop or current_property()
    if prop is None:
        return []
    today = prop.gaming_date()
    done = set(SummarizedDay.objects.values_list("gaming_date", flat=True))
    days = (
        SettlementLine.objects.filter(gaming_date__lt=today)
        .values_list("gaming_date", flat=True)
        .distinct()
        .order_by("gaming_date")
    )
    todo = [d for d in days if d not in done]
    for day in todo:
        summarize_day(day, prop=prop)
    return todo
