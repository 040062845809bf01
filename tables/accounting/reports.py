"""Win and hold reports, every figure added up by the database (GROUP BY), a few small
queries per report whatever the period: the lines of days not rolled up yet, the roll-up of
the others (tables.accounting.summary), voids, corrections, drops, tray counts and slips.

Two wins, side by side:
- the counted win, from the chips: Win = Drop + (Closer - Opener) + Credits - Fills, summed
  over each of the table's open-to-close sessions in the period, and hold % = Win / Drop;
- the computed win, from the settlement lines as the engine settled them: minus the players'
  net on every line the house paid. A progressive hit paid by the meter (a jackpot slip from
  the cage) is not the tray's money, so it stays out of both.
Their difference, the variance, is a mispay, a missing slip or chips walking away.
"""

import datetime as dt
import re
from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction

from django.conf import settings
from django.db.models import Count, Q, Sum
from django.db.models.functions import Coalesce
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from casino.clock import current_property
from casino.models import Pit, Property, Staff
from tables.accounting.models import (
    ChipSlip,
    Drop,
    Inventory,
    LineSummary,
    RoundSummary,
    SummarizedDay,
)
from tables.accounting.summary import ORIGINAL, hour_buckets, hour_expression, line_sums
from tables.accounting.theoretical import Edges, edges, theoretical_fraction
from tables.models import Round, RuleSet, SettlementLine, Table
from tables.parsheet import base_game_key
from tables.rules.ruleset import parse_rules
from tables.selectors import computed_base_edges

BETS = ("ante", "blind", "play", "trips", "progressive", "envy", "cap")
BET_LABELS = dict(SettlementLine.Bet.choices)
HOUSE, METER = SettlementLine.PaidFrom.HOUSE, SettlementLine.PaidFrom.METER

PERIODS = {
    "shift": _("shift"),
    "day": _("gaming day"),
    "month": _("month to date"),
    "year": _("year to date"),
}
GROUPINGS = {
    "table": _("table"),
    "pit": _("pit"),
    "dealer": _("dealer"),
    "game": pgettext_lazy("report", "game"),
}
# (lines, roll-up, rounds, counted figures: drop, counts and slips)
DIMENSIONS = {
    "table": ("round__table_id", "table_id", "table_id", "table_id"),
    "pit": ("round__table__pit_id", "table__pit_id", "table__pit_id", "table__pit_id"),
    "dealer": ("round__dealer_id", "dealer_id", "dealer_id", None),
    "game": ("round__ruleset__name", "ruleset__name", "ruleset__name", "table__ruleset__name"),
}


def variance_alert_cents() -> int:
    """A variance beyond this many cents, either way, is flagged (ACCOUNTING_VARIANCE_ALERT_CENTS)."""
    return int(getattr(settings, "ACCOUNTING_VARIANCE_ALERT_CENTS", 10_000))


@dataclass(frozen=True)
class Period:
    kind: str
    first: dt.date
    last: dt.date
    shift: str = ""

    @classmethod
    def of(cls, kind: str, anchor: dt.date, shift: str = "") -> "Period":
        if kind == "month":
            return cls(kind, anchor.replace(day=1), anchor)
        if kind == "year":
            return cls(kind, anchor.replace(month=1, day=1), anchor)
        return cls(kind, anchor, anchor, shift if kind == "shift" else "")

    @property
    def days(self) -> list[dt.date]:
        return [self.first + dt.timedelta(days=i) for i in range((self.last - self.first).days + 1)]

    def lines(self, qs, date_field: str = "gaming_date"):
        qs = qs.filter(**{f"{date_field}__range": (self.first, self.last)})
        return qs.filter(shift=self.shift) if self.shift else qs


@dataclass
class BetFigures:
    handle: int = 0  # stakes of the original lines
    win: int = 0  # the house's: minus the players' net on the lines the house paid
    lines: int = 0


@dataclass
class ReportRow:
    key: object
    label: str
    rounds: int = 0
    seats: int = 0
    bets: dict[str, BetFigures] = field(default_factory=lambda: {b: BetFigures() for b in BETS})
    hits: int = 0
    hits_cents: int = 0
    voids: int = 0
    corrections: int = 0
    drop: int | None = None
    markers: int = 0
    opener: int = 0
    closer: int = 0
    fills: int = 0
    credits: int = 0
    theoretical: int = 0
    # True when a rule set played has no published base-game edge: the theoretical then
    # leaves its Ante, Blind and Play out.
    theoretical_partial: bool = False
    counted_applies: bool = True

    @property
    def handle(self) -> int:
        return sum(b.handle for b in self.bets.values())

    @property
    def computed_win(self) -> int:
        return sum(b.win for b in self.bets.values())

    @property
    def progressive_contributions(self) -> int:
        return self.bets["progressive"].handle

    @property
    def counted_win(self) -> int | None:
        if self.drop is None or not self.counted_applies:
            return None
        return self.drop + (self.closer - self.opener) + self.credits - self.fills

    @property
    def hold(self) -> float | None:
        """Win / drop, as a percentage for display only (the money stays in cents)."""
        win = self.counted_win
        if win is None or not self.drop:
            return None
        return 100 * win / self.drop

    @property
    def variance(self) -> int | None:
        win = self.counted_win
        return None if win is None else win - self.computed_win

    @property
    def alert(self) -> bool:
        variance = self.variance
        return variance is not None and abs(variance) > variance_alert_cents()

    def add(self, other: "ReportRow") -> None:
        self.rounds += other.rounds
        self.seats += other.seats
        for bet, figures in other.bets.items():
            mine = self.bets[bet]
            mine.handle += figures.handle
            mine.win += figures.win
            mine.lines += figures.lines
        self.hits += other.hits
        self.hits_cents += other.hits_cents
        self.voids += other.voids
        self.corrections += other.corrections
        if other.drop is not None:
            self.drop = (self.drop or 0) + other.drop
        for name in ("markers", "opener", "closer", "fills", "credits"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.theoretical += other.theoretical
        self.theoretical_partial = self.theoretical_partial or other.theoretical_partial
        self.counted_applies = self.counted_applies and other.counted_applies


@dataclass
class HourFigures:
    hour: int
    starts: dt.datetime  # local
    win: int
    rounds: int
    label: str = ""


@dataclass
class Report:
    period: Period
    by: str
    rows: list[ReportRow]
    total: ReportRow
    currency: str
    zone: str
    hours: list[HourFigures] | None
    base_source: str
    summarized_days: int
    base_computed: bool = False  # some rule set's base edge is its computed par sheet's


# --- the queries -----------------------------------------------------------------------------


def _line_groups(period: Period, by: str, done: set) -> list[dict]:
    """Aggregated lines by (key, rule set, bet, payer): the roll-up for the rolled-up days
    (`done`), the lines for the others."""
    raw_field, summary_field, _r, _c = DIMENSIONS[by]
    groups = []
    open_days = [d for d in period.days if d not in done]
    if open_days:
        lines = SettlementLine.objects.filter(gaming_date__in=open_days)
        if period.shift:
            lines = lines.filter(shift=period.shift)
        for r in (
            lines.values(raw_field, "round__ruleset_id", "bet", "paid_from")
            .annotate(
                **{
                    k: v
                    for k, v in line_sums().items()
                    if k in ("lines", "seats", "rounds", "stake", "net")
                }
            )
            .order_by()
        ):
            groups.append(
                {
                    "key": r[raw_field],
                    "ruleset": r["round__ruleset_id"],
                    "bet": r["bet"],
                    "paid_from": r["paid_from"],
                    **{k: r[k] for k in ("lines", "seats", "rounds", "stake", "net")},
                }
            )
    if done:
        # Only rolled-up days have roll-up rows: the range is enough (a long IN list is not).
        summaries = period.lines(LineSummary.objects.all())
        for r in (
            summaries.values(summary_field, "ruleset_id", "bet", "paid_from")
            .annotate(
                lines=Sum("lines"),
                seats=Sum("seats"),
                rounds=Sum("rounds"),
                stake=Sum("stake_cents"),
                net=Sum("net_cents"),
            )
            .order_by()
        ):
            groups.append(
                {
                    "key": r[summary_field],
                    "ruleset": r["ruleset_id"],
                    "bet": r["bet"],
                    "paid_from": r["paid_from"],
                    **{k: r[k] for k in ("lines", "seats", "rounds", "stake", "net")},
                }
            )
    return groups


def _counted(period: Period, by: str) -> dict:
    """Drop, tray counts and approved slips by key."""
    field_ = DIMENSIONS[by][3]
    found: dict = defaultdict(dict)
    if field_ is None:
        return found
    for r in (
        period.lines(Drop.objects.all())
        .values(field_)
        .annotate(cash=Sum("cash_cents"), markers=Sum("markers_cents"))
        .order_by()
    ):
        found[r[field_]]["drop"] = (r["cash"], r["markers"])
    for r in (
        period.lines(Inventory.objects.all())
        .values(field_, "kind")
        .annotate(total=Sum("total_cents"))
        .order_by()
    ):
        found[r[field_]][r["kind"]] = r["total"]
    for r in (
        period.lines(ChipSlip.objects.filter(state=ChipSlip.State.APPROVED))
        .values(field_, "kind")
        .annotate(total=Sum("total_cents"))
        .order_by()
    ):
        found[r[field_]][r["kind"]] = r["total"]
    return found


def _round_counts(period: Period, by: str, done: set) -> tuple[dict, dict]:
    """Voids and corrections by key: the roll-up for the rolled-up days, the rounds and the
    correction lines for the others."""
    raw_field, summary_field, round_field, _c = DIMENSIONS[by]
    voids: dict = defaultdict(int)
    corrections: dict = defaultdict(int)
    open_days = [d for d in period.days if d not in done]
    if open_days:
        rounds = Round.objects.filter(stage=Round.Stage.VOID, gaming_date__in=open_days)
        lines = SettlementLine.objects.filter(correction__isnull=False, gaming_date__in=open_days)
        if period.shift:
            rounds, lines = rounds.filter(shift=period.shift), lines.filter(shift=period.shift)
        for r in rounds.values(round_field).annotate(n=Count("id")).order_by():
            voids[r[round_field]] += r["n"]
        for r in lines.values(raw_field).annotate(n=Count("correction", distinct=True)).order_by():
            corrections[r[raw_field]] += r["n"]
    if done:
        summaries = period.lines(RoundSummary.objects.all())
        for r in (
            summaries.values(summary_field)
            .annotate(v=Sum("voids"), c=Sum("corrections"))
            .order_by()
        ):
            voids[r[summary_field]] += r["v"]
            corrections[r[summary_field]] += r["c"]
    return voids, corrections


def _labels(by: str, keys) -> dict:
    keys = [k for k in keys if k is not None]
    if by == "table":
        return dict(Table.objects.filter(pk__in=keys).values_list("pk", "name"))
    if by == "pit":
        return dict(Pit.objects.filter(pk__in=keys).values_list("pk", "name"))
    if by == "dealer":
        return {s.pk: str(s) for s in Staff.objects.filter(pk__in=keys)}
    return {k: k for k in keys}


def _edges(ruleset_ids) -> dict[int, Edges]:
    """The house edges of each rule set version seen (one query, the engine's math cached)."""
    from jackpot.models import Bank

    reset = Bank.objects.order_by("pk").values_list("reset_cents", flat=True).first() or 0
    rulesets = RuleSet.objects.filter(pk__in=ruleset_ids).select_related(
        "blind_paytable", "trips_paytable", "progressive_paytable", "envy_paytable"
    )
    rules = {rs.pk: rs.engine_rules() for rs in rulesets}
    computed = computed_base_edges(rules.values())
    return {
        pk: edges(
            r, reset_cents=int(reset), computed_base=computed.get(base_game_key(parse_rules(r)))
        )
        for pk, r in rules.items()
    }


def hourly(prop: Property, gaming_date: dt.date, shift: str = "") -> list[HourFigures]:
    """Computed win and rounds per hour of one gaming day (the lines of that day: a day's
    index range, whether or not it is rolled up)."""
    lines = SettlementLine.objects.filter(gaming_date=gaming_date)
    if shift:
        lines = lines.filter(shift=shift)
    found = {
        r["hour"]: r
        for r in lines.annotate(hour=hour_expression(prop, gaming_date))
        .values("hour")
        .annotate(
            net=Coalesce(Sum("net_cents", filter=Q(paid_from=HOUSE)), 0),
            rounds=Count("round", distinct=True, filter=ORIGINAL),
        )
        .order_by()
    }
    figures = [
        HourFigures(
            hour=i,
            starts=start.astimezone(prop.zone),
            win=-found[i]["net"] if i in found else 0,
            rounds=found[i]["rounds"] if i in found else 0,
        )
        for i, start in enumerate(hour_buckets(prop, gaming_date))
    ]
    plain = [f"{h.starts:%H:%M}" for h in figures]
    for h, label in zip(figures, plain, strict=True):
        # The hour the clocks repeat in autumn is named twice: say which is which.
        h.label = f"{h.starts:%H:%M %Z}" if plain.count(label) > 1 else label
    return figures


def _natural(label: str) -> list:
    """Natural order: SIM 2 before SIM 10."""
    return [int(part) if part.isdigit() else part.lower() for part in re.split(r"(\d+)", label)]


def report(period: Period, *, by: str = "table") -> Report:
    if by not in DIMENSIONS:
        raise ValueError(by)
    prop = current_property()
    done = set(
        SummarizedDay.objects.filter(gaming_date__range=(period.first, period.last)).values_list(
            "gaming_date", flat=True
        )
    )
    groups = _line_groups(period, by, done)
    counted = _counted(period, by)
    voids, corrections = _round_counts(period, by, done)
    summarized = len(done)
    keys = {g["key"] for g in groups} | set(counted) | set(voids) | set(corrections)
    labels = _labels(by, keys)
    rule_edges = _edges({g["ruleset"] for g in groups})

    rows: dict = {}
    handles: dict = defaultdict(lambda: defaultdict(int))  # (key, ruleset) -> bet -> handle

    def row(key) -> ReportRow:
        if key not in rows:
            rows[key] = ReportRow(key=key, label=str(labels.get(key, key)))
            rows[key].counted_applies = DIMENSIONS[by][3] is not None
        return rows[key]

    for g in groups:
        r = row(g["key"])
        figures = r.bets[g["bet"]]
        figures.handle += g["stake"]
        figures.lines += g["lines"]
        if g["paid_from"] == HOUSE:
            figures.win -= g["net"]
        else:
            r.hits += g["seats"]
            r.hits_cents += g["net"]
        if g["bet"] == "ante" and g["paid_from"] == HOUSE:
            r.rounds += g["rounds"]
            r.seats += g["seats"]
        handles[(g["key"], g["ruleset"])][g["bet"]] += g["stake"]
    theoretical: dict = defaultdict(Fraction)
    for (key, ruleset), by_bet in handles.items():
        r = row(key)
        other_seats = Fraction(r.seats, r.rounds) - 1 if r.rounds else Fraction(0)
        ruleset_edges = rule_edges.get(ruleset)
        if ruleset_edges is None or ruleset_edges.base is None:
            r.theoretical_partial = True
        if ruleset_edges is not None:
            theoretical[key] += theoretical_fraction(by_bet, ruleset_edges, other_seats=other_seats)
    for key, r in rows.items():
        r.theoretical = round(theoretical.get(key, Fraction(0)))
    for key, figures in counted.items():
        r = row(key)
        if "drop" in figures:
            r.drop, r.markers = figures["drop"][0] + figures["drop"][1], figures["drop"][1]
        r.opener = figures.get(Inventory.Kind.OPENER, 0)
        r.closer = figures.get(Inventory.Kind.CLOSER, 0)
        r.fills = figures.get(ChipSlip.Kind.FILL, 0)
        r.credits = figures.get(ChipSlip.Kind.CREDIT, 0)
    for key, n in voids.items():
        row(key).voids = n
    for key, n in corrections.items():
        row(key).corrections = n

    ordered = sorted(rows.values(), key=lambda r: _natural(r.label))
    total = ReportRow(key=None, label=str(_("Total")))
    total.counted_applies = DIMENSIONS[by][3] is not None
    for r in ordered:
        total.add(r)
    sources = {e.base_source for e in rule_edges.values() if e.base_source}
    return Report(
        period=period,
        by=by,
        rows=ordered,
        total=total,
        currency=prop.currency if prop else "EUR",
        zone=prop.time_zone if prop else "UTC",
        hours=hourly(prop, period.first, period.shift)
        if prop and period.kind in ("day", "shift")
        else None,
        base_source="; ".join(sorted(sources)),
        summarized_days=summarized,
        base_computed=any(e.base_computed for e in rule_edges.values()),
    )
