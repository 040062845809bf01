"""Table accounting, as data: the chip set, tray counts, fills and credits, the drop, and the
roll-up of settlement lines that keeps a year of reports fast.

Money is integer cents. A count by denomination is a JSON object from the chip's value in
cents (as text) to a number of chips, with its total kept beside it for the aggregates.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class ChipDenomination(models.Model):
    """One chip of the property's set, configured by a games manager in the admin."""

    property = models.ForeignKey(
        "casino.Property",
        verbose_name=_("property"),
        on_delete=models.PROTECT,
        related_name="chips",
    )
    value_cents = models.BigIntegerField(_("value (cents)"))
    colour = models.CharField(_("colour"), max_length=40, blank=True)
    active = models.BooleanField(_("in use"), default=True)

    class Meta:
        verbose_name = _("chip denomination")
        verbose_name_plural = _("chip set")
        ordering = ["-value_cents"]
        constraints = [
            models.UniqueConstraint(fields=["property", "value_cents"], name="chip_value_unique"),
            models.CheckConstraint(condition=Q(value_cents__gt=0), name="chip_value_positive"),
        ]

    def __str__(self) -> str:
        from casino.money import money

        return money(self.value_cents)


class Inventory(models.Model):
    """A count of the table's chip tray: the opener when it opens, the closer when it closes,
    signed by the dealer and a supervisor (PIN). An opener that differs from the table's
    previous closer is flagged: chips moved while the tray was locked."""

    class Kind(models.TextChoices):
        OPENER = "opener", _("opener")
        CLOSER = "closer", _("closer")

    table = models.ForeignKey(
        "tables.Table", verbose_name=_("table"), on_delete=models.PROTECT, related_name="+"
    )
    kind = models.CharField(_("count"), max_length=8, choices=Kind.choices)
    counts = models.JSONField(_("chips by denomination"))
    total_cents = models.BigIntegerField(_("total (cents)"))
    gaming_date = models.DateField(_("gaming date"))
    shift = models.CharField(_("shift"), max_length=8, blank=True)
    counted_at = models.DateTimeField(_("counted at"))
    dealer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("dealer"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    supervisor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("supervisor"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("recorded by"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    # The closer this opener was compared with, and what differed (opener minus closer).
    previous = models.ForeignKey(
        "self",
        verbose_name=_("previous closer"),
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
    )
    discrepancy_cents = models.BigIntegerField(_("discrepancy (cents)"), default=0)
    discrepancy = models.JSONField(_("differences by denomination"), default=dict, blank=True)

    class Meta:
        verbose_name = _("table inventory")
        verbose_name_plural = _("table inventories")
        ordering = ["-counted_at", "-pk"]
        indexes = [models.Index(fields=["table", "gaming_date"])]

    def __str__(self) -> str:
        return f"{self.table} {self.get_kind_display()} {self.gaming_date}"

    @property
    def flagged(self) -> bool:
        return bool(self.discrepancy)


class SlipSeries(models.Model):
    """The last number given to a fill or credit slip in a gaming year: one continuous series
    of the two kinds together, locked while a number is taken, never given twice."""

    gaming_year = models.PositiveSmallIntegerField(_("gaming year"), unique=True)
    last_number = models.PositiveIntegerField(_("last number"), default=0)

    class Meta:
        verbose_name = _("slip series")
        verbose_name_plural = _("slip series")

    def __str__(self) -> str:
        return f"{self.gaming_year}: {self.last_number}"


class ChipSlip(models.Model):
    """A fill (chips brought to the table) or a credit (chips taken from it to the cage),
    requested at the table or from the pit and approved by a supervisor. A wrong slip is
    voided and keeps its number."""

    class Kind(models.TextChoices):
        FILL = "fill", _("fill")
        CREDIT = "credit", _("credit")

    class State(models.TextChoices):
        REQUESTED = "requested", pgettext_lazy("slip", "requested")
        APPROVED = "approved", pgettext_lazy("slip", "approved")
        VOID = "void", pgettext_lazy("slip", "void")

    ALLOWED = {State.REQUESTED: {State.APPROVED, State.VOID}, State.APPROVED: {State.VOID}}

    kind = models.CharField(_("slip"), max_length=8, choices=Kind.choices)
    gaming_year = models.PositiveSmallIntegerField(_("gaming year"))
    number = models.PositiveIntegerField(_("number"))
    table = models.ForeignKey(
        "tables.Table", verbose_name=_("table"), on_delete=models.PROTECT, related_name="+"
    )
    counts = models.JSONField(_("chips by denomination"))
    total_cents = models.BigIntegerField(_("total (cents)"))
    gaming_date = models.DateField(_("gaming date"))
    shift = models.CharField(_("shift"), max_length=8, blank=True)
    state = models.CharField(
        _("state"), max_length=10, choices=State.choices, default=State.REQUESTED
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("requested by"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    requested_at = models.DateTimeField(_("requested at"))
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("approved by"),
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
    )
    approved_at = models.DateTimeField(_("approved at"), null=True, blank=True)
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("voided by"),
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
    )
    voided_at = models.DateTimeField(_("voided at"), null=True, blank=True)
    void_reason = models.CharField(_("reason for the void"), max_length=200, blank=True)

    class Meta:
        verbose_name = _("fill or credit slip")
        verbose_name_plural = _("fill and credit slips")
        ordering = ["-gaming_year", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["gaming_year", "number"], name="slip_number_unique"),
            models.CheckConstraint(condition=Q(total_cents__gt=0), name="slip_total_positive"),
        ]
        indexes = [models.Index(fields=["table", "gaming_date"])]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.gaming_year}-{self.number:06d}"

    @property
    def reference(self) -> str:
        return f"{self.gaming_year}-{self.number:06d}"


class Drop(models.Model):
    """The count room's figure for a table's drop box: per gaming day (shift empty) or per
    shift, entered by a games manager or imported from the count room's CSV. Markers are the
    credit instruments dropped, when the property uses them."""

    class Source(models.TextChoices):
        ENTERED = "entered", _("entered")
        IMPORTED = "imported", _("imported")

    table = models.ForeignKey(
        "tables.Table", verbose_name=_("table"), on_delete=models.PROTECT, related_name="+"
    )
    gaming_date = models.DateField(_("gaming date"))
    shift = models.CharField(_("shift"), max_length=8, blank=True)
    cash_cents = models.BigIntegerField(_("cash (cents)"))
    markers_cents = models.BigIntegerField(_("markers (cents)"), default=0)
    source = models.CharField(_("source"), max_length=8, choices=Source.choices)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("entered by"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    entered_at = models.DateTimeField(_("entered at"))

    class Meta:
        verbose_name = _("drop")
        verbose_name_plural = _("drops")
        ordering = ["-gaming_date", "table"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "gaming_date", "shift"], name="drop_per_table_day_shift"
            ),
            models.CheckConstraint(
                condition=Q(cash_cents__gte=0, markers_cents__gte=0), name="drop_not_negative"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} {self.gaming_date} {self.shift}".strip()

    @property
    def total_cents(self) -> int:
        return self.cash_cents + self.markers_cents


class LineSummary(models.Model):
    """The settlement lines of a closed gaming day, added up once by table, shift, dealer,
    rule set, bet and payer. Lines are append-only and a correction's
    lines carry the gaming date they were written on, so a closed day's sums never change:
    the month and year reports read these rows instead of millions of lines."""

    gaming_date = models.DateField(_("gaming date"))
    shift = models.CharField(_("shift"), max_length=8, blank=True)
    table = models.ForeignKey(
        "tables.Table", verbose_name=_("table"), on_delete=models.PROTECT, related_name="+"
    )
    dealer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("dealer"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    ruleset = models.ForeignKey(
        "tables.RuleSet", verbose_name=_("rule set"), on_delete=models.PROTECT, related_name="+"
    )
    bet = models.CharField(_("bet"), max_length=12)
    paid_from = models.CharField(_("paid by"), max_length=6)
    corrected = models.BooleanField(_("correction"))
    lines = models.PositiveIntegerField(_("lines"))
    seats = models.PositiveIntegerField(_("seat-rounds"))
    rounds = models.PositiveIntegerField(_("rounds"))
    stake_cents = models.BigIntegerField(_("stake (cents)"))
    net_cents = models.BigIntegerField(_("net (cents)"))
    # Progressive lines only: Σ over the wagers of the other seats of the round with a
    # progressive wager (the Envy each could be paid). Rows rolled up before it was kept say
    # 0 until `accounting_summarize --rebuild`.
    rivals = models.PositiveIntegerField(_("progressive rivals"), default=0)
    # Σ stake² of the original lines (the win's variance is each bet's per unit² times it);
    # 0 on rows rolled up before it was kept, until `accounting_summarize --rebuild`.
    stake_squares = models.BigIntegerField(_("stakes squared (cents²)"), default=0)

    class Meta:
        verbose_name = _("settlement summary")
        verbose_name_plural = _("settlement summaries")
        indexes = [models.Index(fields=["gaming_date", "shift"])]

    def __str__(self) -> str:
        return f"{self.gaming_date} {self.table_id} {self.bet}"


class RoundSummary(models.Model):
    """A closed gaming day's voids (by the round's gaming date) and corrections (by the gaming
    date their lines were written on), by table, shift, dealer and rule set."""

    gaming_date = models.DateField(_("gaming date"))
    shift = models.CharField(_("shift"), max_length=8, blank=True)
    table = models.ForeignKey(
        "tables.Table", verbose_name=_("table"), on_delete=models.PROTECT, related_name="+"
    )
    dealer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("dealer"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    ruleset = models.ForeignKey(
        "tables.RuleSet", verbose_name=_("rule set"), on_delete=models.PROTECT, related_name="+"
    )
    voids = models.PositiveIntegerField(_("voids"), default=0)
    corrections = models.PositiveIntegerField(_("corrections"), default=0)

    class Meta:
        verbose_name = _("round summary")
        verbose_name_plural = _("round summaries")
        indexes = [models.Index(fields=["gaming_date", "shift"])]

    def __str__(self) -> str:
        return f"{self.gaming_date} {self.table_id}"


class WagerSummary(models.Model):
    """A closed gaming day's seat-rounds counted by their Ante and Trips stakes (the original
    lines), by table, shift, dealer and rule set: what prices a payout unit or a cap exactly
    (`theoretical.SeatPricing`: each wager charged for its own amount) without reading a
    year's lines. Days rolled up before it was kept have none until
    `accounting_summarize --rebuild`."""

    gaming_date = models.DateField(_("gaming date"))
    shift = models.CharField(_("shift"), max_length=8, blank=True)
    table = models.ForeignKey(
        "tables.Table", verbose_name=_("table"), on_delete=models.PROTECT, related_name="+"
    )
    dealer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("dealer"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    ruleset = models.ForeignKey(
        "tables.RuleSet", verbose_name=_("rule set"), on_delete=models.PROTECT, related_name="+"
    )
    ante_cents = models.BigIntegerField(_("Ante (cents)"))
    trips_cents = models.BigIntegerField(_("Trips (cents)"))
    seats = models.PositiveIntegerField(_("seat-rounds"))

    class Meta:
        verbose_name = _("wager summary")
        verbose_name_plural = _("wager summaries")
        indexes = [models.Index(fields=["gaming_date", "shift"])]

    def __str__(self) -> str:
        return f"{self.gaming_date} {self.table_id} {self.ante_cents}/{self.trips_cents}"


class SummarizedDay(models.Model):
    """A gaming day whose lines are in LineSummary."""

    gaming_date = models.DateField(_("gaming date"), unique=True)
    lines = models.PositiveIntegerField(_("lines"))
    built_at = models.DateTimeField(_("built at"))

    class Meta:
        verbose_name = _("summarized gaming day")
        verbose_name_plural = _("summarized gaming days")
        ordering = ["-gaming_date"]

    def __str__(self) -> str:
        return str(self.gaming_date)


class SeatDecisionCost(models.Model):
    """What one seat's decisions in a settled round cost it in expectation, against optimal
    play (`tables.parsheet.decisions`), priced from its rule set's computed par sheet after
    the round settled (again after a correction, removed when the round is voided).

    `decisions`: per decision point, in order, the street, the option chosen and the best
    one, and their expected values in cents (the dealer's cards unknown to the player)."""

    round = models.ForeignKey(
        "tables.Round", verbose_name=_("round"), on_delete=models.CASCADE, related_name="+"
    )
    seat = models.PositiveSmallIntegerField(_("seat"))
    ante_cents = models.BigIntegerField(_("Ante (cents)"))
    cost_cents = models.BigIntegerField(_("decision cost (cents)"))
    decisions = models.JSONField(_("decisions"))
    correction = models.PositiveIntegerField(_("correction priced"), default=0)  # 0: original
    computed_at = models.DateTimeField(_("computed at"), auto_now=True)

    class Meta:
        verbose_name = _("decision cost")
        verbose_name_plural = _("decision costs")
        constraints = [
            models.UniqueConstraint(fields=["round", "seat"], name="decision_cost_seat_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.round_id}/{self.seat}: {self.cost_cents}"
