"""The pit's alerts and the thresholds that raise them.

An alert stays until a supervisor or manager acknowledges it, with a note. It stores no
English: its kind and its params (names, numbers, amounts in cents) are worded by gettext
when it is shown, in the reader's language (tables/pit/alerts.py). Its `key` names the
condition it reports, so that a condition checked every 30 seconds raises one open alert.
"""

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

# When a property has no AlertSettings row yet, these apply.
DEFAULT_IDLE_MINUTES = 15
DEFAULT_ROTATION_MINUTES = 60
DEFAULT_MINUTES_PAST_ROTATION = 10
DEFAULT_VOIDS_PER_DEALER_SHIFT = 3
DEFAULT_BIG_WIN_CENTS = 500_000  # 5 000.00 in the property's currency


class Alert(models.Model):
    class Kind(models.TextChoices):
        BIG_WIN = "big_win", _("big win")
        PROGRESSIVE_HIT = "progressive_hit", _("progressive hit")
        VOID_REQUESTED = "void_requested", _("void requested")
        TABLE_IDLE = "table_idle", _("table idle")
        DEALER_OVERDUE = "dealer_overdue", _("dealer past rotation")
        DISPLAY_LINK_LOST = "display_link_lost", _("display link lost")
        RECONCILIATION = "reconciliation", _("meter reconciliation")
        PIN_LOCKED = "pin_locked", _("PIN locked")
        SIGNIN_THROTTLED = "signin_throttled", _("sign-in throttled")
        MANY_VOIDS = "many_voids", _("many voids")
        VARIANCE = "variance", _("win variance")
        EXCLUDED_PLAYER = "excluded_player", _("barred or self-excluded player")
        AML_IDENTITY = "aml_identity", _("cash threshold crossed without identity")
        GHOST_RATING = "ghost_rating", _("ghost rating")
        REPEATED_RATINGS = "repeated_ratings", _("repeated ratings")
        RATING_TIME_EDITED = "rating_time_edited", _("rating time edited")
        CHIPS_GAP = "chips_gap", _("chips and measured results differ")

    class Severity(models.TextChoices):
        INFO = "info", _("information")
        WARNING = "warning", _("warning")
        CRITICAL = "critical", _("critical")

    kind = models.CharField(_("kind"), max_length=24, choices=Kind.choices)
    severity = models.CharField(_("severity"), max_length=8, choices=Severity.choices)
    # The condition it reports ("big_win:812:3", "table_idle:4:2026-12-01T12:00:00+00:00"...).
    key = models.CharField(_("key"), max_length=160)
    table = models.ForeignKey(
        "tables.Table",
        verbose_name=_("table"),
        on_delete=models.PROTECT,
        related_name="alerts",
        null=True,
        blank=True,
    )
    # Any other subject, named as the audit log names one ("jackpot.hit", "12").
    subject_type = models.CharField(_("subject type"), max_length=64, blank=True)
    subject_id = models.CharField(_("subject id"), max_length=64, blank=True)
    # What the wording needs (numbers, names, cents): never words of a language.
    params = models.JSONField(_("details"), default=dict, blank=True)
    raised_at = models.DateTimeField(_("raised"))
    acknowledged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("acknowledged by"),
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
    )
    acknowledged_at = models.DateTimeField(_("acknowledged"), null=True, blank=True)
    note = models.TextField(_("note"), blank=True)

    class Meta:
        verbose_name = _("alert")
        verbose_name_plural = _("alerts")
        ordering = ["-raised_at", "-pk"]
        constraints = [
            # The database's backstop for two checks raising the same condition at once.
            models.UniqueConstraint(
                fields=["key"],
                condition=Q(acknowledged_at__isnull=True),
                name="one_open_alert_per_key",
            ),
            models.CheckConstraint(
                condition=Q(acknowledged_at__isnull=True)
                | (Q(acknowledged_by__isnull=False) & ~Q(note="")),
                name="alert_acknowledged_by_someone_with_a_note",
            ),
        ]
        indexes = [
            models.Index(fields=["key"]),
            models.Index(fields=["-raised_at"]),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.kind} {self.key}"

    @property
    def acknowledged(self) -> bool:
        return self.acknowledged_at is not None


class AlertSettings(models.Model):
    """The thresholds of one property, edited by a games manager in the admin."""

    property = models.OneToOneField(
        "casino.Property",
        verbose_name=_("property"),
        on_delete=models.CASCADE,
        related_name="alert_settings",
    )
    idle_minutes = models.PositiveIntegerField(
        _("open table idle after (minutes)"),
        default=DEFAULT_IDLE_MINUTES,
        validators=[MinValueValidator(1)],
    )
    # A dealer with no planned end is due for relief this long after taking the table.
    rotation_minutes = models.PositiveIntegerField(
        _("dealer rotation every (minutes)"),
        default=DEFAULT_ROTATION_MINUTES,
        validators=[MinValueValidator(1)],
    )
    minutes_past_rotation = models.PositiveIntegerField(
        _("dealer overdue after rotation time by (minutes)"),
        default=DEFAULT_MINUTES_PAST_ROTATION,
    )
    voids_per_dealer_shift = models.PositiveIntegerField(
        _("voids by one dealer in a shift before an alert"),
        default=DEFAULT_VOIDS_PER_DEALER_SHIFT,
        validators=[MinValueValidator(1)],
    )
    big_win_cents = models.BigIntegerField(
        _("big win on one seat from"),
        default=DEFAULT_BIG_WIN_CENTS,
        validators=[MinValueValidator(1)],
    )

    class Meta:
        verbose_name = _("alert thresholds")
        verbose_name_plural = _("alert thresholds")
        constraints = [
            models.CheckConstraint(condition=Q(big_win_cents__gt=0), name="alert_big_win_positive"),
        ]

    def __str__(self) -> str:
        return str(self.property) if self.property_id else str(_("default thresholds"))


class TableAlertThreshold(models.Model):
    """A table's own big-win threshold (a high-limit table alerts at a higher win)."""

    table = models.OneToOneField(
        "tables.Table",
        verbose_name=_("table"),
        on_delete=models.CASCADE,
        related_name="alert_threshold",
    )
    big_win_cents = models.BigIntegerField(
        _("big win on one seat from"), validators=[MinValueValidator(1)]
    )

    class Meta:
        verbose_name = _("table big-win threshold")
        verbose_name_plural = _("table big-win thresholds")
        ordering = ["table__name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(big_win_cents__gt=0), name="table_alert_big_win_positive"
            ),
        ]

    def __str__(self) -> str:
        return str(self.table)
