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

And two theoretical wins: at optimal play (each bet's handle times its edge,
tables.accounting.theoretical) and at the play actually seen (plus what the players'
decisions cost them, tables.accounting.decisions).

A table's day (or shift) whose drop is not counted yet has a computed win and no counted one:
it is "not counted yet", and stays out of the counted win, the variance and its alert until
its drop is entered (else today's play shows as a false variance on the month to date).
"""

import datetime as dt
import math
import re
from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction

from django.conf import settings
from django.db.models import Count, F, Max, Q, Sum
from django.db.models.functions import Coalesce
from django.utils.translation import get_language, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from casino.clock import current_property
from casino.models import Pit, Property, Staff
from tables.accounting.models import (
    ChipSlip,
    Drop,
    Inventory,
    LineSummary,
    RoundSummary,
    SeatDecisionCost,
    SummarizedDay,
    WagerSummary,
)
from tables.accounting.summary import (
    ORIGINAL,
    hour_buckets,
    hour_expression,
    line_sums,
    seat_wagers,
)
from tables.accounting.theoretical import (
    Edges,
    SeatPricing,
    edges,
    seat_pricing,
    theoretical_fraction,
    win_variance,
    withholding_bound,
)
from tables.models import Round, RuleSet, SettlementLine, Table
from tables.parsheet import base_game_key
from tables.rules.ruleset import parse_rules
from tables.selectors import computed_base_edges, computed_sheet_folds, computed_sheet_outcomes

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


# The published sources of the base game's edge (the engine names them in English), in the
# reader's words.
SOURCE_WORDS = {
    "golden-nugget-casino-tukwila.com (UTH Progressive page)": _(
        "golden-nugget-casino-tukwila.com (UTH Progressive page)"
    ),
    "edgevegas.com, quoting wizardofodds.com": _("edgevegas.com, quoting wizardofodds.com"),
    "gambatria.com (2015): no hand prefers a 3x Play to 4x": _(
        "gambatria.com (2015): no hand prefers a 3x Play to 4x"
    ),
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
    # The win's variance in cents² (theoretical.win_variance); `spread_unknown` when a rule set
    # played has no computed par sheet (no base-game variance): no deviation is shown then.
    win_variance: Fraction = Fraction(0)
    spread_unknown: bool = False
    counted_applies: bool = True
    # What the days (or shifts) whose drop is not counted yet hold: the computed win of their
    # lines and their chips' (closer - opener + credits - fills), both left out of the
    # variance, and the gaming dates they fall on.
    uncounted_win: int = 0
    uncounted_chips: int = 0
    uncounted_days: set = field(default_factory=set)
    # What the players' decisions cost them against optimal play (tables.accounting.decisions),
    # summed over the seat-rounds priced: those whose par sheet was computed.
    decision_cost: int = 0
    priced_seats: int = 0
    # What a payout unit or a cap may withhold beyond the uncapped theoretical, at most
    # (theoretical.withholding_bound); None when no rule set played has either.
    withholding_bound: int | None = None
    # Its theoretical prices a payout unit or a cap exactly (SeatPricing): no bound to show;
    # `cap_withheld`: what they withhold in it beyond the uncapped edges.
    cap_exact: bool = False
    cap_withheld: int = 0

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
        chips = (self.closer - self.opener) + self.credits - self.fills - self.uncounted_chips
        return self.drop + chips

    @property
    def counted_computed_win(self) -> int:
        """The computed win of the counted days only: what the counted win is set against."""
        return self.computed_win - self.uncounted_win

    @property
    def not_counted_yet(self) -> list[dt.date]:
        """The gaming dates with play or chips and no drop counted yet, in order."""
        return sorted(self.uncounted_days) if self.counted_applies else []

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
        return None if win is None else win - self.counted_computed_win

    @property
    def win_sd(self) -> int | None:
        """The standard deviation of the win, in cents (display only: a square root)."""
        if self.spread_unknown or not self.rounds:
            return None
        return round(math.sqrt(self.win_variance))

    @property
    def band(self) -> tuple[int, int] | None:
        """The 95 % band of the win around the theoretical (± 1.96 standard deviations, the
        normal approximation of a sum of many hands)."""
        sd = self.win_sd
        if sd is None:
            return None
        half = round(1.96 * math.sqrt(self.win_variance))
        return self.theoretical - half, self.theoretical + half

    @property
    def theoretical_seen(self) -> int | None:
        """The theoretical at the play actually seen: at optimal play plus what the decisions
        priced cost the players; None when no seat-round is priced."""
        if not self.priced_seats:
            return None
        return self.theoretical + self.decision_cost

    @property
    def theoretical_high(self) -> int | None:
        """The house's theoretical at most, with a payout unit or a cap (the theoretical being
        the uncapped edges', the least)."""
        if self.withholding_bound is None:
            return None
        return self.theoretical + self.withholding_bound

    @property
    def unpriced_seats(self) -> int:
        """Seat-rounds whose decisions are not priced (no par sheet yet): the play seen leaves
        them at optimal play."""
        return max(self.seats - self.priced_seats, 0)

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
        self.uncounted_win += other.uncounted_win
        self.uncounted_chips += other.uncounted_chips
        self.uncounted_days |= other.uncounted_days
        self.theoretical += other.theoretical
        self.decision_cost += other.decision_cost
        self.cap_exact = self.cap_exact or other.cap_exact
        self.cap_withheld += other.cap_withheld
        if other.withholding_bound is not None:
            self.withholding_bound = (self.withholding_bound or 0) + other.withholding_bound
        self.priced_seats += other.priced_seats
        self.theoretical_partial = self.theoretical_partial or other.theoretical_partial
        self.win_variance += other.win_variance
        self.spread_unknown = self.spread_unknown or other.spread_unknown
        self.counted_applies = self.counted_applies and other.counted_applies


@dataclass
class HourFigures:
    hour: int
    starts: dt.datetime  # local
    win: int
    rounds: int
    label: str = ""


@dataclass
class DayFigures:
    """One gaming day of a month's or a year's trend."""

    day: dt.date
    win: int  # computed
    theoretical: int
    hold: float | None  # counted win / drop, None until the day's drop is counted
    # The theoretical at the play seen (plus the day's decision costs); None when none of the
    # day's seat-rounds is priced.
    theoretical_seen: int | None = None


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
    days: list[DayFigures] | None = None
    base_computed: bool = False  # some rule set's base edge is its computed par sheet's
    uncapped: bool = False  # a rule set played has a payout unit or a cap its edges leave out
    # a rule set played has a payout unit or a cap, priced exactly from its par sheet
    cap_exact: bool = False
    trips_lost_on_fold: bool = False  # a rule set played loses Trips on a fold
    # ...and some such rule set has no par sheet counting its folds: Trips priced as staying
    trips_fold_unpriced: bool = False

    @property
    def trend_seen(self) -> bool:
        """The trend has a theoretical at the play seen (some day's decisions are priced)."""
        return any(d.theoretical_seen is not None for d in self.days or ())


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
                    if k in ("lines", "seats", "rounds", "stake", "net", "rivals", "squares")
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
                    **{
                        k: r[k]
                        for k in ("lines", "seats", "rounds", "stake", "net", "rivals", "squares")
                    },
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
                rivals=Sum("rivals"),
                squares=Sum("stake_squares"),
            )
            .order_by()
        ):
            groups.append(
                {
                    "key": r[summary_field],
                    "ruleset": r["ruleset_id"],
                    "bet": r["bet"],
                    "paid_from": r["paid_from"],
                    **{
                        k: r[k]
                        for k in ("lines", "seats", "rounds", "stake", "net", "rivals", "squares")
                    },
                }
            )
    return groups


def _counted(period: Period, by: str, done: set) -> dict:
    """Drop, tray counts and approved slips by key, and what is not counted yet.

    A table's gaming day, or one of its shifts, is counted once its drop is entered (a drop
    for the whole day counts every shift of it). The chips and the computed win of the
    others are kept apart: `uncounted_chips`, `uncounted_win` and `uncounted_days`."""
    field_ = DIMENSIONS[by][3]
    found: dict = defaultdict(lambda: {"uncounted_chips": 0, "uncounted_win": 0, "days": set()})
    # The counted days' drop and chips by gaming date, for the trend's hold.
    by_day: dict = defaultdict(lambda: {"drop": 0, "chips": 0})
    found["by day"] = by_day
    if field_ is None:
        return found
    unit = ("table_id", "gaming_date", "shift")
    drops = list(
        period.lines(Drop.objects.all())
        .values(field_, *unit)
        .annotate(cash=Sum("cash_cents"), markers=Sum("markers_cents"))
        .order_by()
    )
    covered = {(r["table_id"], r["gaming_date"], r["shift"]) for r in drops}

    def counted(table_id, day, shift) -> bool:
        return (table_id, day, "") in covered or (table_id, day, shift) in covered

    for r in drops:
        by_day[r["gaming_date"]]["drop"] += r["cash"] + r["markers"]
        cash, markers = found[r[field_]].get("drop", (0, 0))
        found[r[field_]]["drop"] = (cash + r["cash"], markers + r["markers"])
    chips = [
        (r, 1 if r["kind"] == Inventory.Kind.CLOSER else -1)
        for r in period.lines(Inventory.objects.all())
        .values(field_, "kind", *unit)
        .annotate(total=Sum("total_cents"))
        .order_by()
    ]
    chips += [
        (r, 1 if r["kind"] == ChipSlip.Kind.CREDIT else -1)
        for r in period.lines(ChipSlip.objects.filter(state=ChipSlip.State.APPROVED))
        .values(field_, "kind", *unit)
        .annotate(total=Sum("total_cents"))
        .order_by()
    ]
    for r, sign in chips:
        figures = found[r[field_]]
        figures[r["kind"]] = figures.get(r["kind"], 0) + r["total"]
        if not counted(r["table_id"], r["gaming_date"], r["shift"]):
            figures["uncounted_chips"] += sign * r["total"]
            figures["days"].add(r["gaming_date"])
        else:
            by_day[r["gaming_date"]]["chips"] += sign * r["total"]
    for key, table_id, day, shift, win in _unit_wins(period, by, done):
        if not counted(table_id, day, shift):
            found[key]["uncounted_win"] += win
            found[key]["days"].add(day)
    return found


def _unit_wins(period: Period, by: str, done: set):
    """The computed win by (key, table, gaming date, shift): from the lines for the days not
    rolled up, from the roll-up for the others."""
    raw_field, summary_field, _r, _c = DIMENSIONS[by]
    house = Q(paid_from=HOUSE)
    open_days = [d for d in period.days if d not in done]
    if open_days:
        lines = SettlementLine.objects.filter(gaming_date__in=open_days)
        if period.shift:
            lines = lines.filter(shift=period.shift)
        fields = dict.fromkeys([raw_field, "round__table_id", "gaming_date", "shift"])
        for r in (
            lines.values(*fields)
            .annotate(net=Coalesce(Sum("net_cents", filter=house), 0))
            .order_by()
        ):
            yield r[raw_field], r["round__table_id"], r["gaming_date"], r["shift"], -r["net"]
    if done:
        fields = dict.fromkeys([summary_field, "table_id", "gaming_date", "shift"])
        for r in (
            period.lines(LineSummary.objects.all())
            .values(*fields)
            .annotate(net=Coalesce(Sum("net_cents", filter=house), 0))
            .order_by()
        ):
            yield r[summary_field], r["table_id"], r["gaming_date"], r["shift"], -r["net"]


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


def _decision_costs(period: Period, by: str) -> tuple[dict, dict]:
    """{key: (Σ decision cost, seat-rounds priced)} and {gaming date: the same} of the
    period's settled rounds (one query; a voided round's costs are removed, a corrected one's
    are of its corrected facts)."""
    raw_field = DIMENSIONS[by][0]
    costs = SeatDecisionCost.objects.filter(round__gaming_date__range=(period.first, period.last))
    if period.shift:
        costs = costs.filter(round__shift=period.shift)
    by_key: dict = defaultdict(lambda: (0, 0))
    by_day: dict = defaultdict(lambda: (0, 0))
    for r in (
        costs.values(raw_field, "round__gaming_date")
        .annotate(cost=Sum("cost_cents"), n=Count("id"))
        .order_by()
    ):
        for found, key in ((by_key, r[raw_field]), (by_day, r["round__gaming_date"])):
            cost, n = found[key]
            found[key] = (cost + r["cost"], n + r["n"])
    return dict(by_key), dict(by_day)


def _labels(by: str, keys) -> dict:
    keys = [k for k in keys if k is not None]
    if by == "table":
        return dict(Table.objects.filter(pk__in=keys).values_list("pk", "name"))
    if by == "pit":
        return dict(Pit.objects.filter(pk__in=keys).values_list("pk", "name"))
    if by == "dealer":
        return {s.pk: str(s) for s in Staff.objects.filter(pk__in=keys)}
    # A game is a rule set's family, by its French name: the page shows the reader's.
    english = dict(
        RuleSet.objects.filter(name__in=keys).exclude(name_en="").values_list("name", "name_en")
    )
    return {k: english.get(k, k) if get_language().startswith("en") else k for k in keys}


def rules_by_ruleset(ruleset_ids) -> dict[int, dict]:
    rulesets = RuleSet.objects.filter(pk__in=ruleset_ids).select_related(
        "blind_paytable", "trips_paytable", "progressive_paytable", "envy_paytable"
    )
    return {rs.pk: rs.engine_rules() for rs in rulesets}


def edges_by_ruleset(ruleset_ids, rules: dict[int, dict] | None = None) -> dict[int, Edges]:
    """The house edges of each rule set version seen (one query, the engine's math cached);
    `rules`: their engine rules, when already read."""
    rules = rules_by_ruleset(ruleset_ids) if rules is None else rules
    computed = computed_base_edges(rules.values())
    trips_on_fold = [r for r in rules.values() if r.get("trips_on_fold") == "lost"]
    folds = computed_sheet_folds(trips_on_fold) if trips_on_fold else {}
    found = {}
    for pk, r in rules.items():
        key = base_game_key(parse_rules(r))
        base, variance = computed.get(key, (None, None))
        folded, deals = folds.get(key, (None, 0))
        found[pk] = edges(
            r, computed_base=base, computed_variance=variance, folds=folded, deals=deals
        )
    return found


def pricings_by_ruleset(
    rules: dict[int, dict], rule_edges: dict[int, Edges]
) -> dict[int, SeatPricing]:
    """{rule set: its SeatPricing} for the rule sets with a payout unit or a cap whose par
    sheet is computed (one query, only when some rule set has either)."""
    uncapped = {pk: r for pk, r in rules.items() if rule_edges[pk].uncapped}
    if not uncapped:
        return {}
    sheets = computed_sheet_outcomes(uncapped.values())
    found = {}
    for pk, r in uncapped.items():
        sheet = sheets.get(base_game_key(parse_rules(r)))
        if sheet is not None and sheet["outcomes"]:
            found[pk] = seat_pricing(r, sheet)
    return found


def _seat_charges(
    period: Period, by: str, done: set, pricings: dict[int, SeatPricing]
) -> tuple[dict, dict, dict]:
    """The exact theoretical of the Ante, Blind, Play and Trips of the rule sets with a
    payout unit or a cap priced from their par sheet, by (key, rule set) and by (gaming date,
    rule set): each seat-round charged for its own Ante and Trips (`SeatPricing.charge`); and
    by key, what the unit and the cap withhold of it beyond the uncapped edges (the most a
    player who plays around them could take back). The seat-rounds counted by (key, day,
    rule set, Ante, Trips): from the lines for the days not rolled up, from the roll-up
    (WagerSummary) for the others; each distinct wager priced once."""
    by_key: dict = defaultdict(Fraction)
    by_day: dict = defaultdict(Fraction)
    withheld: dict = defaultdict(Fraction)
    if not pricings:
        return by_key, by_day, withheld
    raw_field, summary_field, _r, _c = DIMENSIONS[by]
    rows = []
    open_days = [d for d in period.days if d not in done]
    if open_days:
        lines = SettlementLine.objects.filter(
            gaming_date__in=open_days, round__ruleset_id__in=pricings
        )
        if period.shift:
            lines = lines.filter(shift=period.shift)
        for r in (
            seat_wagers(lines)
            .values(raw_field, "gaming_date", "round__ruleset_id", "stake_cents", "trips")
            .annotate(n=Count("id"))
            .order_by()
        ):
            rows.append(
                (r[raw_field], r["gaming_date"], r["round__ruleset_id"])
                + (r["stake_cents"], r["trips"], r["n"])
            )
    if done:
        summaries = period.lines(WagerSummary.objects.filter(ruleset_id__in=pricings))
        for r in (
            summaries.values(
                summary_field, "gaming_date", "ruleset_id", "ante_cents", "trips_cents"
            )
            .annotate(n=Sum("seats"))
            .order_by()
        ):
            rows.append(
                (r[summary_field], r["gaming_date"], r["ruleset_id"])
                + (r["ante_cents"], r["trips_cents"], r["n"])
            )
    found: dict = {}
    for key, day, ruleset, ante, trips_stake, n in rows:
        wager = (ruleset, ante, trips_stake)
        if wager not in found:
            pricing = pricings[ruleset]
            charge = pricing.charge(ante, trips_stake)
            found[wager] = (charge, pricing.withheld(ante, trips_stake, charge=charge))
        charge, kept = found[wager]
        by_key[(key, ruleset)] += n * charge
        by_day[(day, ruleset)] += n * charge
        withheld[key] += n * kept
    return by_key, by_day, withheld


def _side(by_bet: dict[str, int]) -> dict[str, int]:
    """The handles of the bets a seat charge (`SeatPricing.charge`) leaves out."""
    return {bet: handle for bet, handle in by_bet.items() if bet not in ("ante", "trips")}


def _largest_stakes(period: Period, ruleset_ids) -> dict:
    """{ruleset: {bet: the largest Ante or Trips staked}} in the period, for the rule sets
    with a maximum payout (what bounds the cap's withholding): one query, only when some."""
    if not ruleset_ids:
        return {}
    lines = SettlementLine.objects.filter(
        gaming_date__range=(period.first, period.last),
        round__ruleset_id__in=ruleset_ids,
        bet__in=("ante", "trips"),
        correction__isnull=True,
    )
    if period.shift:
        lines = lines.filter(shift=period.shift)
    found: dict = defaultdict(dict)
    for r in (
        lines.values("round__ruleset_id", "bet").annotate(largest=Max("stake_cents")).order_by()
    ):
        found[r["round__ruleset_id"]][r["bet"]] = r["largest"]
    return found


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


def _daily(
    period: Period,
    done: set,
    rule_edges: dict,
    counted_by_day: dict,
    *,
    counts: bool,
    charges: dict | None = None,
    decision_costs: dict | None = None,
):
    """A month's or a year's trend, day by day: computed win, theoretical win (at optimal
    play, the exact `charges` by (day, rule set) of a rule set with a payout unit or a cap
    standing for its Ante, Blind, Play and Trips; and at the
    play seen, plus the day's `decision_costs`), and hold (the hold only of days whose drop is
    counted, and only when the grouping has counted figures).
    Two queries: the lines of the days not rolled up, the roll-up of the others."""
    sums = {
        "stake": Coalesce(Sum("stake_cents", filter=ORIGINAL), 0),
        "net": Coalesce(Sum("net_cents"), 0),
        "rivals": line_sums()["rivals"],
    }
    groups = []
    open_days = [d for d in period.days if d not in done]
    if open_days:
        groups += list(
            SettlementLine.objects.filter(gaming_date__in=open_days)
            .values("gaming_date", "bet", "paid_from", rules=F("round__ruleset_id"))
            .annotate(**sums)
            .order_by()
        )
    if done:
        groups += list(
            period.lines(LineSummary.objects.all())
            .values("gaming_date", "bet", "paid_from", rules=F("ruleset_id"))
            .annotate(
                stake=Sum("stake_cents"),
                net=Sum("net_cents"),
                rivals=Sum("rivals"),
            )
            .order_by()
        )
    win: dict = defaultdict(int)
    handles: dict = defaultdict(lambda: defaultdict(int))  # (day, ruleset) -> bet -> handle
    rivals: dict = defaultdict(int)  # (day, ruleset) -> Envy rivals of its progressive wagers
    for g in groups:
        day, ruleset = g["gaming_date"], g["rules"]
        if g["paid_from"] == HOUSE:
            win[day] -= g["net"]
        handles[(day, ruleset)][g["bet"]] += g["stake"]
        rivals[(day, ruleset)] += int(g["rivals"] or 0)
    theoretical: dict = defaultdict(Fraction)
    charges = charges or {}
    for (day, ruleset), by_bet in handles.items():
        if (day, ruleset) in charges:
            theoretical[day] += charges[(day, ruleset)] + theoretical_fraction(
                _side(by_bet), rule_edges[ruleset], rivals=rivals[(day, ruleset)]
            )
        elif rule_edges.get(ruleset) is not None:
            theoretical[day] += theoretical_fraction(
                by_bet, rule_edges[ruleset], rivals=rivals[(day, ruleset)]
            )
    costs = decision_costs or {}
    figures = []
    for day in period.days:
        counted = counted_by_day.get(day)
        hold = None
        if counts and counted and counted["drop"]:
            hold = 100 * (counted["drop"] + counted["chips"]) / counted["drop"]
        optimal = round(theoretical.get(day, 0))
        cost, priced = costs.get(day, (0, 0))
        seen = optimal + cost if priced else None
        figures.append(DayFigures(day, win.get(day, 0), optimal, hold, seen))
    return figures


def _natural(label: str) -> list:
    """Natural order: SIM 2 before SIM 10."""
    return [int(part) if part.isdigit() else part.lower() for part in re.split(r"(\d+)", label)]


def report(period: Period, *, by: str = "table", trend: bool = True) -> Report:
    """The period's report by `by`; `trend`: with a month's or a year's figures per gaming
    day (the page draws them, the CSV has no use for them)."""
    if by not in DIMENSIONS:
        raise ValueError(by)
    prop = current_property()
    done = set(
        SummarizedDay.objects.filter(gaming_date__range=(period.first, period.last)).values_list(
            "gaming_date", flat=True
        )
    )
    groups = _line_groups(period, by, done)
    counted = _counted(period, by, done)
    counted_by_day = counted.pop("by day", {})
    voids, corrections = _round_counts(period, by, done)
    decision_costs, costs_by_day = _decision_costs(period, by)
    summarized = len(done)
    keys = {g["key"] for g in groups} | set(counted) | set(voids) | set(corrections)
    labels = _labels(by, keys)
    engine_rules = rules_by_ruleset({g["ruleset"] for g in groups})
    rule_edges = edges_by_ruleset(set(engine_rules), engine_rules)
    pricings = pricings_by_ruleset(engine_rules, rule_edges)
    charges, charges_by_day, cap_withheld = _seat_charges(period, by, done, pricings)

    rows: dict = {}
    handles: dict = defaultdict(lambda: defaultdict(int))  # (key, ruleset) -> bet -> handle
    rivals: dict = defaultdict(int)  # (key, ruleset) -> Envy rivals of its progressive wagers
    squares: dict = defaultdict(lambda: defaultdict(int))  # (key, ruleset) -> bet -> Σ stake²
    line_counts: dict = defaultdict(lambda: defaultdict(int))  # (key, ruleset) -> bet -> lines

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
        line_counts[(g["key"], g["ruleset"])][g["bet"]] += g["lines"]
        rivals[(g["key"], g["ruleset"])] += int(g["rivals"] or 0)
        squares[(g["key"], g["ruleset"])][g["bet"]] += int(
            g["squares"] or 0
        )  # numeric on PostgreSQL
    theoretical: dict = defaultdict(Fraction)
    withheld: dict = {}
    largest = _largest_stakes(
        period,
        [
            pk
            for pk, e in rule_edges.items()
            if e.max_payout_cents is not None and pk not in pricings
        ],
    )
    for (key, ruleset), by_bet in handles.items():
        r = row(key)
        ruleset_edges = rule_edges.get(ruleset)
        if ruleset in pricings:
            r.cap_exact = True
        elif ruleset_edges is not None and ruleset_edges.uncapped:
            withheld[key] = withheld.get(key, Fraction(0)) + withholding_bound(
                ruleset_edges, by_bet, line_counts[(key, ruleset)], largest.get(ruleset, {})
            )
        spread = None
        if ruleset_edges is not None:
            spread = win_variance(squares[(key, ruleset)], ruleset_edges)
        if spread is None:
            r.spread_unknown = True
        else:
            r.win_variance += spread
        if ruleset_edges is None or ruleset_edges.base is None:
            r.theoretical_partial = True
        if ruleset in pricings:
            # Exact: each seat-round's Ante, Blind, Play and Trips charged for its own wager,
            # rounded and capped; the progressive and Envy at their edges.
            theoretical[key] += charges.get((key, ruleset), Fraction(0)) + theoretical_fraction(
                _side(by_bet), ruleset_edges, rivals=rivals[(key, ruleset)]
            )
        elif ruleset_edges is not None:
            theoretical[key] += theoretical_fraction(
                by_bet, ruleset_edges, rivals=rivals[(key, ruleset)]
            )
    for key, r in rows.items():
        r.theoretical = round(theoretical.get(key, Fraction(0)))
        if key in withheld:
            r.withholding_bound = math.ceil(withheld[key])
        if key in cap_withheld:
            r.cap_withheld = round(cap_withheld[key])
    for key, figures in counted.items():
        r = row(key)
        if "drop" in figures:
            r.drop, r.markers = figures["drop"][0] + figures["drop"][1], figures["drop"][1]
        r.opener = figures.get(Inventory.Kind.OPENER, 0)
        r.closer = figures.get(Inventory.Kind.CLOSER, 0)
        r.fills = figures.get(ChipSlip.Kind.FILL, 0)
        r.credits = figures.get(ChipSlip.Kind.CREDIT, 0)
        r.uncounted_chips = figures["uncounted_chips"]
        r.uncounted_win = figures["uncounted_win"]
        r.uncounted_days = figures["days"]
    for key, n in voids.items():
        row(key).voids = n
    for key, n in corrections.items():
        row(key).corrections = n
    for key, (cost, n) in decision_costs.items():
        row(key).decision_cost, row(key).priced_seats = cost, n

    ordered = sorted(rows.values(), key=lambda r: _natural(r.label))
    total = ReportRow(key=None, label=str(_("Total")))
    total.counted_applies = DIMENSIONS[by][3] is not None
    for r in ordered:
        total.add(r)
    sources = {
        str(SOURCE_WORDS.get(part, part))
        for e in rule_edges.values()
        if e.base_source
        for part in e.base_source.split("; ")
    }
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
        days=_daily(
            period,
            done,
            rule_edges,
            counted_by_day,
            counts=total.counted_applies,
            charges=charges_by_day,
            decision_costs=costs_by_day,
        )
        if trend and period.kind in ("month", "year")
        else None,
        base_computed=any(e.base_computed for e in rule_edges.values()),
        uncapped=any(e.uncapped for pk, e in rule_edges.items() if pk not in pricings),
        cap_exact=bool(pricings),
        trips_lost_on_fold=any(e.trips_lost_on_fold for e in rule_edges.values()),
        trips_fold_unpriced=any(
            e.trips_lost_on_fold and not e.trips_fold_priced for e in rule_edges.values()
        ),
    )
