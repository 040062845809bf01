"""Players, as the casino knows them: a card and an alias for the floor, an identity for
compliance only (the fact that a document was checked, never a copy of it)."""

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class Player(models.Model):
    """A carded player, or an anonymous one ("man, red jacket") a supervisor may later link
    to a card."""

    ACTIVE, BARRED, SELF_EXCLUDED = "active", "barred", "self_excluded"
    STATUS_CHOICES = [
        (ACTIVE, _("active")),
        (BARRED, _("barred")),
        (SELF_EXCLUDED, _("self-excluded")),
    ]
    # Compliance moves a player between any two of them (casino.transitions).
    ALLOWED = {
        ACTIVE: {BARRED, SELF_EXCLUDED},
        BARRED: {ACTIVE, SELF_EXCLUDED},
        SELF_EXCLUDED: {ACTIVE, BARRED},
    }

    property = models.ForeignKey(
        "casino.Property",
        verbose_name=_("property"),
        on_delete=models.PROTECT,
        related_name="players",
    )
    # The loyalty card number; NULL (not "") for an anonymous player, so that the unique
    # constraint lets any number of them be.
    card = models.CharField(_("card number"), max_length=32, null=True, blank=True)  # noqa: DJ001
    alias = models.CharField(_("alias"), max_length=60)
    status = models.CharField(_("status"), max_length=16, choices=STATUS_CHOICES, default=ACTIVE)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("created by"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    # The start of the player's last visit (their last rating's open, or their creation): the
    # marketing retention counts from it (tables.ratings.privacy).
    last_visit_at = models.DateTimeField(_("last visit"), null=True, blank=True)
    # Set by an erasure (a request, or the retention rule): the alias is then a pseudonym and
    # the card is gone; what anti-money-laundering rules keep stays under the player's id.
    erased_at = models.DateTimeField(_("erased at"), null=True, blank=True)
    # A member of staff who plays (off duty, where the house allows it): never the one who
    # opens, moves or closes their own rating.
    staff = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("member of staff"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="player",
    )

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.UniqueConstraint(fields=["property", "card"], name="player_card_unique"),
            models.CheckConstraint(
                condition=Q(status__in=["active", "barred", "self_excluded"]),
                name="player_status_known",
            ),
        ]

    def __str__(self) -> str:
        return self.alias


class PlayerIdentity(models.Model):
    """Who the player is, for compliance: seen by compliance and auditors only, every view
    audited."""

    player = models.OneToOneField(
        Player, verbose_name=_("player"), on_delete=models.CASCADE, related_name="identity"
    )
    family_name = models.CharField(_("family name"), max_length=120)
    given_names = models.CharField(_("given names"), max_length=120, blank=True)
    birth_date = models.DateField(_("date of birth"), null=True, blank=True)
    # The kind of document seen (passport, identity card...), never its number or a copy.
    document_kind = models.CharField(_("identity document"), max_length=40, blank=True)
    checked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("identity checked by"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    checked_at = models.DateTimeField(_("identity checked at"), null=True, blank=True)

    class Meta:
        verbose_name = _("player identity")
        verbose_name_plural = _("player identities")

    def __str__(self) -> str:
        return f"{self.given_names} {self.family_name}".strip()


class ComplianceSettings(models.Model):
    """The property's anti-money-laundering thresholds and data retention, with the defaults
    of its country (tables.ratings.compliance.country_defaults). Amounts in the property's
    currency, integer cents; an empty threshold does not apply."""

    FRANCE, UNITED_STATES = "FR", "US"
    COUNTRY_CHOICES = [(FRANCE, _("France")), (UNITED_STATES, _("United States"))]

    property = models.OneToOneField(
        "casino.Property",
        verbose_name=_("property"),
        on_delete=models.PROTECT,
        related_name="compliance_settings",
    )
    country = models.CharField(_("country"), max_length=2, choices=COUNTRY_CHOICES)
    # France (CMF L.561-13): identity recorded for exchanges or winnings above this per session.
    identity_threshold_cents = models.PositiveBigIntegerField(
        _("identity required above (cents)"), null=True, blank=True
    )
    # United States (31 CFR 1021): the multiple-transaction log and the currency transaction
    # report, cash aggregated per gaming day.
    transaction_log_threshold_cents = models.PositiveBigIntegerField(
        _("multiple-transaction log above (cents)"), null=True, blank=True
    )
    transaction_report_threshold_cents = models.PositiveBigIntegerField(
        _("currency transaction report above (cents)"), null=True, blank=True
    )
    marketing_retention_years = models.PositiveSmallIntegerField(
        _("marketing data kept (years after the last visit)"), default=3
    )
    aml_retention_years = models.PositiveSmallIntegerField(
        _("anti-money-laundering records kept (years)"), default=5
    )

    class Meta:
        verbose_name = _("compliance settings")
        verbose_name_plural = _("compliance settings")

    def __str__(self) -> str:
        return str(self.property)


class Rating(models.Model):
    """One player's play at one seat of one table, from its open to its close. Its figures are
    not stored: they follow from the settlement lines of the rounds it counts (figures.py)."""

    CLOSED, MOVED, TABLE_CLOSED = "closed", "moved", "table_closed"
    CLOSED_REASONS = [
        (CLOSED, _("closed")),
        (MOVED, _("moved to another seat")),
        (TABLE_CLOSED, _("table closed")),
    ]

    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.PROTECT, related_name="ratings"
    )
    table = models.ForeignKey(
        "tables.Table", verbose_name=_("table"), on_delete=models.PROTECT, related_name="+"
    )
    seat = models.PositiveSmallIntegerField(_("seat"))
    opened_at = models.DateTimeField(_("opened at"))
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("opened by"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("closed by"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    closed_reason = models.CharField(
        _("closed because"), max_length=16, choices=CLOSED_REASONS, blank=True
    )
    # A move closes this rating and opens the next one: a player's visit is the chain.
    previous = models.OneToOneField(
        "self",
        verbose_name=_("previous rating"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="next",
    )
    # The chips the player left with, said at the close (the chips-estimated result's end).
    walk_with_cents = models.BigIntegerField(_("walk-with (cents)"), null=True, blank=True)
    # The average Ante a supervisor saw, for a seat the tablet does not see (where the
    # property's rating settings allow it): the accuracy report sets it beside the measured one.
    entered_average_ante_cents = models.PositiveBigIntegerField(
        _("entered average Ante (cents)"), null=True, blank=True
    )

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        ordering = ["-opened_at", "-pk"]
        constraints = [
            # One open rating per seat and per player, in the database too (two supervisors
            # rating at once end here).
            models.UniqueConstraint(
                fields=["table", "seat"],
                condition=Q(closed_at__isnull=True),
                name="one_open_rating_per_seat",
            ),
            models.UniqueConstraint(
                fields=["player"],
                condition=Q(closed_at__isnull=True),
                name="one_open_rating_per_player",
            ),
            models.CheckConstraint(
                condition=Q(seat__gte=1, seat__lte=7), name="rating_seat_1_to_7"
            ),
            models.CheckConstraint(
                condition=Q(closed_at__isnull=True, closed_reason="")
                | Q(closed_at__isnull=False, closed_reason__in=["closed", "moved", "table_closed"]),
                name="rating_closed_with_reason",
            ),
            models.CheckConstraint(
                condition=Q(walk_with_cents__isnull=True) | Q(walk_with_cents__gte=0),
                name="rating_walk_with_not_negative",
            ),
        ]
        indexes = [
            models.Index(fields=["table", "seat", "-opened_at"]),
            models.Index(fields=["closed_at", "id"]),  # the feed, in close order
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.table_id}/{self.seat}"


class RatingPause(models.Model):
    """A spell in which the rated player sat out: rounds locked then are not counted."""

    rating = models.ForeignKey(
        Rating, verbose_name=_("rating"), on_delete=models.PROTECT, related_name="pauses"
    )
    started_at = models.DateTimeField(_("paused at"))
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("paused by"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    ended_at = models.DateTimeField(_("resumed at"), null=True, blank=True)
    ended_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("resumed by"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        verbose_name = _("rating pause")
        verbose_name_plural = _("rating pauses")
        ordering = ["rating", "started_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["rating"], condition=Q(ended_at__isnull=True), name="one_pause_at_a_time"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.rating} {self.started_at:%H:%M}"


class BuyIn(models.Model):
    """Money or chips the player brought to the table during the rating."""

    CASH, CHIPS, MARKER = "cash", "chips", "marker"
    INSTRUMENTS = [(CASH, _("cash")), (CHIPS, _("chips")), (MARKER, _("marker"))]

    rating = models.ForeignKey(
        Rating, verbose_name=_("rating"), on_delete=models.PROTECT, related_name="buy_ins"
    )
    amount_cents = models.BigIntegerField(_("amount (cents)"))
    instrument = models.CharField(_("instrument"), max_length=8, choices=INSTRUMENTS)
    at = models.DateTimeField(_("time"))
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("recorded by"),
        on_delete=models.PROTECT,
        related_name="+",
    )

    class Meta:
        verbose_name = _("buy-in")
        verbose_name_plural = _("buy-ins")
        ordering = ["rating", "at", "pk"]
        constraints = [
            models.CheckConstraint(condition=Q(amount_cents__gt=0), name="buy_in_positive"),
            models.CheckConstraint(
                condition=Q(instrument__in=["cash", "chips", "marker"]),
                name="buy_in_instrument_known",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.rating} {self.instrument} {self.amount_cents}"


class FeedToken(models.Model):
    """A player-tracking system's credential for the ratings feed. Only the SHA-256 of the
    token is stored (as for a jackpot display's)."""

    name = models.CharField(_("system name"), max_length=80, unique=True)
    token_hash = models.CharField(_("token fingerprint"), max_length=64, unique=True)
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("issued by"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    issued_at = models.DateTimeField(_("issued at"))
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("revoked by"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)
    last_seen_at = models.DateTimeField(_("last seen at"), null=True, blank=True)

    class Meta:
        verbose_name = _("ratings feed token")
        verbose_name_plural = _("ratings feed tokens")

    def __str__(self) -> str:
        return self.name


class CompSettings(models.Model):
    """The property's comp policy: a rating's budget as a share of its theo, and how much a
    supervisor or a host grants alone (above it, a second person approves)."""

    property = models.OneToOneField(
        "casino.Property",
        verbose_name=_("property"),
        on_delete=models.PROTECT,
        related_name="comp_settings",
    )
    budget_percent = models.PositiveSmallIntegerField(
        _("comp budget (percent of the rating's theo)"), default=30
    )
    supervisor_limit_cents = models.PositiveBigIntegerField(
        _("a supervisor grants alone up to (cents)"), default=10_000
    )
    host_limit_cents = models.PositiveBigIntegerField(
        _("a host grants alone up to (cents)"), default=50_000
    )

    class Meta:
        verbose_name = _("comp settings")
        verbose_name_plural = _("comp settings")
        constraints = [
            models.CheckConstraint(
                condition=Q(budget_percent__lte=100), name="comp_budget_percent_at_most_100"
            ),
        ]

    def __str__(self) -> str:
        return str(self.property)


class Comp(models.Model):
    """A complimentary (a meal, a room, a show) granted on a rating, within its budget.
    Above the issuer's limit it waits for a second person's approval."""

    GRANTED, AWAITING, DECLINED = "granted", "awaiting", "declined"
    STATUSES = [
        (GRANTED, _("granted")),
        (AWAITING, _("awaiting approval")),
        (DECLINED, _("declined")),
    ]
    # Issued granted (within the issuer's limit) or awaiting; only an awaiting one is decided.
    ALLOWED = {AWAITING: {GRANTED, DECLINED}}  # casino.transitions

    rating = models.ForeignKey(
        Rating, verbose_name=_("rating"), on_delete=models.PROTECT, related_name="comps"
    )
    amount_cents = models.BigIntegerField(_("value (cents)"))
    description = models.CharField(_("what"), max_length=120)
    status = models.CharField(_("status"), max_length=10, choices=STATUSES)
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("issued by"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    issued_at = models.DateTimeField(_("issued at"))
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("approved or declined by"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    decided_at = models.DateTimeField(_("approved or declined at"), null=True, blank=True)
    decision_note = models.CharField(_("reason"), max_length=200, blank=True)

    class Meta:
        verbose_name = _("comp")
        verbose_name_plural = _("comps")
        ordering = ["-issued_at", "-pk"]
        constraints = [
            models.CheckConstraint(condition=Q(amount_cents__gt=0), name="comp_positive"),
            models.CheckConstraint(
                condition=Q(status__in=["granted", "awaiting", "declined"]),
                name="comp_status_known",
            ),
            # Nobody approves their own comp, in the database too.
            models.CheckConstraint(
                condition=Q(decided_by__isnull=True) | ~Q(decided_by=models.F("issued_by")),
                name="comp_decided_by_another",
            ),
        ]
        indexes = [models.Index(fields=["issued_at", "id"])]

    def __str__(self) -> str:
        return f"{self.rating_id} {self.description} {self.amount_cents}"


# The fraud signals' thresholds when a property has set none (tables.ratings.signals).
DEFAULT_GHOST_ROUNDS = 5
DEFAULT_REPEAT_COUNT = 3
DEFAULT_REPEAT_DAYS = 7
DEFAULT_CHIPS_GAP_CENTS = 50_000  # 500.00 in the property's currency


class RatingSignalSettings(models.Model):
    """When a rating looks wrong enough for surveillance: the property's thresholds for the
    fraud signals (tables.ratings.signals), edited by a games manager in the admin."""

    property = models.OneToOneField(
        "casino.Property",
        verbose_name=_("property"),
        on_delete=models.CASCADE,
        related_name="rating_signal_settings",
    )
    # A ghost rating: open over a seat that placed no wager in this many rounds in a row.
    ghost_rounds = models.PositiveSmallIntegerField(
        _("ghost rating after rounds without a wager"),
        default=DEFAULT_GHOST_ROUNDS,
        validators=[MinValueValidator(1)],
    )
    repeat_count = models.PositiveSmallIntegerField(
        _("ratings opened or edited by one supervisor for one player, alert from"),
        default=DEFAULT_REPEAT_COUNT,
        validators=[MinValueValidator(2)],
    )
    repeat_days = models.PositiveSmallIntegerField(
        _("within (days)"), default=DEFAULT_REPEAT_DAYS, validators=[MinValueValidator(1)]
    )
    chips_gap_cents = models.PositiveBigIntegerField(
        _("chips-estimated and measured results differ by (cents)"),
        default=DEFAULT_CHIPS_GAP_CENTS,
        validators=[MinValueValidator(1)],
    )

    class Meta:
        verbose_name = _("rating fraud signal thresholds")
        verbose_name_plural = _("rating fraud signal thresholds")
        constraints = [
            models.CheckConstraint(condition=Q(ghost_rounds__gte=1), name="signal_ghost_rounds_1"),
            models.CheckConstraint(condition=Q(repeat_count__gte=2), name="signal_repeat_count_2"),
            models.CheckConstraint(condition=Q(repeat_days__gte=1), name="signal_repeat_days_1"),
            models.CheckConstraint(condition=Q(chips_gap_cents__gte=1), name="signal_chips_gap_1"),
        ]

    def __str__(self) -> str:
        return str(self.property)


class RatingTimeCorrection(models.Model):
    """A supervisor changed a rating's open or close time after the fact, with a reason: kept
    for ever, and a signal for surveillance (the time decides which rounds the rating
    counts)."""

    OPENED_AT, CLOSED_AT = "opened_at", "closed_at"
    FIELDS = [(OPENED_AT, _("opened at")), (CLOSED_AT, _("closed at"))]

    rating = models.ForeignKey(
        Rating,
        verbose_name=_("rating"),
        on_delete=models.PROTECT,
        related_name="time_corrections",
    )
    field = models.CharField(_("time corrected"), max_length=10, choices=FIELDS)
    before = models.DateTimeField(_("before"))
    after = models.DateTimeField(_("after"))
    reason = models.CharField(_("reason"), max_length=300)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("corrected by"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    at = models.DateTimeField(_("corrected at"))

    class Meta:
        verbose_name = _("rating time correction")
        verbose_name_plural = _("rating time corrections")
        ordering = ["rating", "at", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(field__in=["opened_at", "closed_at"]), name="time_correction_field"
            ),
            models.CheckConstraint(condition=~Q(reason=""), name="time_correction_has_reason"),
        ]
        indexes = [models.Index(fields=["by", "at"])]

    def __str__(self) -> str:
        return f"{self.rating} {self.field} {self.after:%H:%M}"


class RatingSettings(models.Model):
    """The property's choices for ratings that are not compliance's."""

    property = models.OneToOneField(
        "casino.Property",
        verbose_name=_("property"),
        on_delete=models.PROTECT,
        related_name="rating_settings",
    )
    # Off by default: the measured figures are the point; an entered average is a guess.
    average_ante_entry = models.BooleanField(
        _("supervisors may enter an average Ante for seats the tablet does not see"),
        default=False,
    )

    class Meta:
        verbose_name = _("rating settings")
        verbose_name_plural = _("rating settings")

    def __str__(self) -> str:
        return str(self.property)


class RatingSummary(models.Model):
    """A rating's figures as they were last computed from its lines (figures.py), kept for
    the reports over a year: refreshed after commit when a round it counts settles, is
    corrected or voided, and when the rating changes. The figures on read stay the truth;
    a summary older than the rating's close is computed again before it is used."""

    rating = models.OneToOneField(
        Rating,
        verbose_name=_("rating"),
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="summary",
    )
    hands = models.PositiveIntegerField(_("hands"))
    ante_cents = models.BigIntegerField(_("Ante wagered (cents)"))
    total_wagered_cents = models.BigIntegerField(_("total wagered (cents)"))
    player_result_cents = models.BigIntegerField(_("player's result (cents)"))
    theo_cents = models.BigIntegerField(_("theo (cents)"))
    seconds_played = models.PositiveIntegerField(_("seconds played"))
    refreshed_at = models.DateTimeField(_("refreshed at"))

    class Meta:
        verbose_name = _("rating summary")
        verbose_name_plural = _("rating summaries")

    def __str__(self) -> str:
        return str(self.rating)
