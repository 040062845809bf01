"""The floor: tables and who deals them, when."""

import datetime as dt

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist, ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from tables.models.configuration import RuleSet

MAX_SEATS = 7  # arrêté du 14 mai 2007, art. 55-20: at most seven seated players


def limit_ratios() -> tuple[int, ...]:
    """Allowed maximum/minimum ratios, e.g. (10, 20, 30) under the French decree (art. 55-20);
    empty (the default) only asks that the maximum be at least the minimum."""
    return tuple(settings.TABLES_MAX_TO_MIN_RATIOS)


def floor_time(at: dt.datetime) -> str:
    """`at` as the floor reads it: the wall clock of the property's time zone."""
    from casino.clock import current_property

    prop = current_property()
    zone = prop.zone if prop is not None else timezone.get_current_timezone()
    return f"{timezone.localtime(at, zone):%Y-%m-%d %H:%M}"


class Table(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", pgettext_lazy("table", "open")
        CLOSED = "closed", pgettext_lazy("table", "closed")

    ALLOWED = {Status.CLOSED: {Status.OPEN}, Status.OPEN: {Status.CLOSED}}  # casino.transitions

    name = models.CharField(_("name"), max_length=60, unique=True)
    pit = models.ForeignKey(
        "casino.Pit", verbose_name=_("pit"), on_delete=models.PROTECT, related_name="tables"
    )
    seats = models.PositiveSmallIntegerField(
        _("seats"),
        default=MAX_SEATS,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_SEATS)],
    )
    min_bet_cents = models.BigIntegerField(_("table minimum (cents)"))
    max_bet_cents = models.BigIntegerField(_("table maximum (cents)"))
    # Trips has limits of its own; empty: the table's minimum and maximum.
    trips_min_cents = models.BigIntegerField(_("Trips minimum (cents)"), null=True, blank=True)
    trips_max_cents = models.BigIntegerField(_("Trips maximum (cents)"), null=True, blank=True)
    status = models.CharField(
        _("status"), max_length=8, choices=Status.choices, default=Status.CLOSED, editable=False
    )
    status_changed_at = models.DateTimeField(null=True, blank=True, editable=False)
    # A table belongs to at most one progressive bank.
    bank = models.ForeignKey(
        "jackpot.Bank",
        verbose_name=_("progressive bank"),
        on_delete=models.PROTECT,
        related_name="tables",
        null=True,
        blank=True,
    )
    ruleset = models.ForeignKey(
        RuleSet, verbose_name=_("rule set"), on_delete=models.PROTECT, related_name="tables"
    )
    # A table a manager creates waits for a second manager to approve its first rule set
    # (issue 23, 2: a RulesetDeployment without `previous`) and cannot open until then.
    # True by default: tables set up by the console (the demo loader) need no approval.
    ruleset_approved = models.BooleanField(_("rule set approved"), default=True)

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["pit__name", "name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(seats__gte=1, seats__lte=MAX_SEATS), name="table_seats_1_to_7"
            ),
            models.CheckConstraint(condition=Q(min_bet_cents__gt=0), name="table_min_positive"),
            models.CheckConstraint(
                condition=Q(max_bet_cents__gte=F("min_bet_cents")), name="table_max_at_least_min"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN

    @property
    def trips_limits(self) -> tuple[int, int]:
        low = self.min_bet_cents if self.trips_min_cents is None else self.trips_min_cents
        high = self.max_bet_cents if self.trips_max_cents is None else self.trips_max_cents
        return low, high

    def _related_exist(self) -> bool:
        try:
            self.ruleset  # noqa: B018 - fetched here so that a wrong id is clean_fields' error
            self.bank  # noqa: B018
        except ObjectDoesNotExist:
            return False
        return True

    def clean(self) -> None:
        errors: dict[str, object] = {}
        low, high = self.min_bet_cents, self.max_bet_cents
        if low is not None and low <= 0:
            errors["min_bet_cents"] = _("The table minimum must be more than zero.")
        if low is not None and high is not None and low > 0:
            ratios = limit_ratios()
            if high < low:
                errors["max_bet_cents"] = _("The table maximum must be at least the table minimum.")
            elif ratios and (high % low or high // low not in ratios):
                errors["max_bet_cents"] = _(
                    "The table maximum must be %(ratios)s times the table minimum."
                ) % {"ratios": ", ".join(str(r) for r in ratios)}
        trips_low, trips_high = self.trips_min_cents, self.trips_max_cents
        if trips_low is not None and trips_low <= 0:
            errors["trips_min_cents"] = _("The Trips minimum must be more than zero.")
        elif trips_low is not None and trips_high is not None and trips_high < trips_low:
            errors["trips_max_cents"] = _("The Trips maximum must be at least the Trips minimum.")
        if self._related_exist() and self.ruleset_id is not None and self.bank_id is not None:
            wager = self.ruleset.progressive_wager_cents
            if self.bank.wager_cents != wager:
                # The engine refuses any progressive wager but the rule set's one, so a table
                # whose bank expects another amount could never take a progressive bet.
                errors["bank"] = _(
                    "This bank takes a progressive wager of %(bank)s cents but the rule set "
                    "allows %(rules)s cents."
                ) % {"bank": self.bank.wager_cents, "rules": wager}
        if errors:
            raise ValidationError(errors)


class AssignmentQuerySet(models.QuerySet):
    def covering(self, at: dt.datetime) -> "AssignmentQuerySet":
        """The assignments in force at `at`: the one definition of "the dealer assigned at
        time t" (from `starts_at` included to `ends_at` excluded; no end: still dealing)."""
        return self.filter(Q(starts_at__lte=at) & (Q(ends_at__isnull=True) | Q(ends_at__gt=at)))

    def overlapping(self, starts_at: dt.datetime, ends_at: dt.datetime | None):
        """The assignments sharing any instant with [starts_at, ends_at) (None: open-ended)."""
        qs = self.filter(Q(ends_at__isnull=True) | Q(ends_at__gt=starts_at))
        return qs if ends_at is None else qs.filter(starts_at__lt=ends_at)


class DealerAssignment(models.Model):
    """Who deals which table, from when to when (`ends_at` empty: still dealing)."""

    dealer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("dealer"),
        on_delete=models.PROTECT,
        related_name="dealer_assignments",
    )
    table = models.ForeignKey(
        Table, verbose_name=_("table"), on_delete=models.PROTECT, related_name="assignments"
    )
    starts_at = models.DateTimeField(_("from"))
    ends_at = models.DateTimeField(_("until"), null=True, blank=True)
    assigned_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        editable=False,
    )

    objects = AssignmentQuerySet.as_manager()

    class Meta:
        verbose_name = _("dealer assignment")
        verbose_name_plural = _("dealer assignments")
        ordering = ["-starts_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_at__isnull=True) | Q(ends_at__gt=F("starts_at")),
                name="assignment_ends_after_start",
            ),
            # The database's own backstop against two concurrent rotations; the services
            # check every overlap, these catch the race on the open-ended one.
            models.UniqueConstraint(
                fields=["dealer"], condition=Q(ends_at__isnull=True), name="one_open_per_dealer"
            ),
            models.UniqueConstraint(
                fields=["table"], condition=Q(ends_at__isnull=True), name="one_open_per_table"
            ),
        ]
        indexes = [models.Index(fields=["table", "starts_at"])]

    def __str__(self) -> str:
        return f"{self.dealer} @ {self.table}"

    def clean(self) -> None:
        if self.dealer_id is None or self.table_id is None or self.starts_at is None:
            return  # the required-field errors say it already
        problem = assignment_conflict(
            dealer=self.dealer,
            table=self.table,
            starts_at=self.starts_at,
            ends_at=self.ends_at,
            ignore=(self.pk,) if self.pk else (),
        )
        if problem:
            raise ValidationError(problem)


def assignment_conflict(*, dealer, table, starts_at, ends_at, ignore=()) -> str | None:
    """Why this assignment cannot be made, or None: a dealer deals one table at a time and a
    table has one dealer at a time."""
    from casino.roles import Role, has_role

    if not has_role(dealer, Role.DEALER):
        return _("%(dealer)s does not hold the dealer role and cannot deal.") % {"dealer": dealer}
    if ends_at is not None and ends_at <= starts_at:
        return _("An assignment must end after it starts.")
    base = DealerAssignment.objects.exclude(pk__in=ignore).select_related("dealer", "table")
    clash = base.filter(dealer=dealer).overlapping(starts_at, ends_at).first()
    if clash is not None:
        return _("%(dealer)s already deals %(table)s from %(start)s.") % {
            "dealer": dealer,
            "table": clash.table,
            "start": floor_time(clash.starts_at),
        }
    clash = base.filter(table=table).overlapping(starts_at, ends_at).first()
    if clash is not None:
        return _("%(table)s is already dealt by %(dealer)s from %(start)s.") % {
            "table": table,
            "dealer": clash.dealer,
            "start": floor_time(clash.starts_at),
        }
    return None


class RulesetDeployment(models.Model):
    """A rule set version asked for a table by one manager and approved by a second one,
    independent of the first (issue 23, 2: a paytable that pays more was deployed by one
    manager alone). Approved, the table plays it (it must be closed then). Without `previous`,
    it is a new table's first rule set: the table opens once it is approved."""

    class State(models.TextChoices):
        REQUESTED = "requested", _("waiting for a second manager")
        APPROVED = "approved", _("approved")
        REJECTED = "rejected", _("rejected")

    ALLOWED = {State.REQUESTED: {State.APPROVED, State.REJECTED}}  # casino.transitions

    table = models.ForeignKey(
        Table, verbose_name=_("table"), on_delete=models.PROTECT, related_name="deployments"
    )
    ruleset = models.ForeignKey(
        "tables.RuleSet", verbose_name=_("rule set"), on_delete=models.PROTECT, related_name="+"
    )
    previous = models.ForeignKey(  # empty: the first rule set of a new table
        "tables.RuleSet",
        verbose_name=_("rule set before"),
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
    )
    state = models.CharField(
        _("state"), max_length=10, choices=State.choices, default=State.REQUESTED
    )
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("requested by"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    requested_at = models.DateTimeField(_("requested at"))
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        verbose_name=_("decided by"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)

    class Meta:
        verbose_name = _("rule set deployment")
        verbose_name_plural = _("rule set deployments")
        ordering = ["requested_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["table"],
                condition=models.Q(state="requested"),
                name="one_deployment_waiting_per_table",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table}: {self.ruleset}"
