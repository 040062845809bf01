"""The par sheet of each base game the floor's rule sets play, computed once by a Celery task.

A par sheet depends only on the base-game rules (`tables.parsheet.base_game_key`: the pre-flop
multiples, the Blind paytable, the Ante against a non-qualifying dealer), so rule set versions
that differ only in their side bets share one. The row follows the computation (queued,
running with its progress, done or failed) and then keeps the exact figures and the whole
sheet (`ParSheet.to_json()`: outcomes, strategy) for good.
"""

from fractions import Fraction

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class BaseGameSheet(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        RUNNING = "running", _("being computed")
        DONE = "done", _("computed")
        FAILED = "failed", _("failed")

    # A failed sheet is queued again when asked; a computed one when it lacks the flop's
    # values; a running one whose worker was lost (tables.services.parsheets).
    ALLOWED = {  # casino.transitions
        Status.QUEUED: {Status.RUNNING},
        Status.RUNNING: {Status.DONE, Status.FAILED, Status.QUEUED},
        Status.FAILED: {Status.QUEUED},
        Status.DONE: {Status.QUEUED},
    }

    rules_key = models.CharField(_("base-game rules"), max_length=2000, unique=True)
    status = models.CharField(
        _("status"), max_length=8, choices=Status.choices, default=Status.QUEUED
    )
    status_since = models.DateTimeField(_("status since"), null=True, blank=True)
    progress_permille = models.PositiveSmallIntegerField(_("progress (‰)"), default=0)
    house_edge = models.CharField(_("house edge per Ante (exact)"), max_length=200, blank=True)
    element_of_risk = models.CharField(_("element of risk (exact)"), max_length=200, blank=True)
    sheet = models.JSONField(_("par sheet"), null=True, blank=True)
    seconds = models.FloatField(_("computing time (s)"), null=True, blank=True)
    error = models.TextField(_("error"), blank=True)
    requested_at = models.DateTimeField(_("requested"), auto_now_add=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("requested by"),
    )
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        verbose_name = _("base-game par sheet")
        verbose_name_plural = _("base-game par sheets")

    def __str__(self) -> str:
        return self.rules_key

    @property
    def edge(self) -> Fraction | None:
        """The exact house edge per Ante, once computed."""
        return Fraction(self.house_edge) if self.status == self.Status.DONE else None


class BaseGameValues(models.Model):
    """The flop's values of a computed sheet (`tables.parsheet.sheet.FlopValues.to_bytes`: for
    each flop up to suit symmetry and each holding, a Play 2x against checking on, exact):
    what prices a flop decision played. Apart from the sheet's row so that reading a sheet
    never loads them (about 10 MB for the 52 cards)."""

    sheet = models.OneToOneField(
        BaseGameSheet,
        primary_key=True,
        on_delete=models.CASCADE,
        related_name="values",
        verbose_name=_("par sheet"),
    )
    flop = models.BinaryField(_("flop values"))
    size_bytes = models.PositiveIntegerField(_("size (bytes)"))

    class Meta:
        verbose_name = _("par sheet values")
        verbose_name_plural = _("par sheet values")

    def __str__(self) -> str:
        return f"{self.sheet_id}: {self.size_bytes} bytes"
