"""Players, as the casino knows them: a card and an alias for the floor, an identity for
compliance only (the fact that a document was checked, never a copy of it)."""

from django.conf import settings
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

    property = models.ForeignKey(
        "casino.Property",
        verbose_name=_("property"),
        on_delete=models.PROTECT,
        related_name="players",
    )
    # The loyalty card number; none for an anonymous player.
    card = models.CharField(_("card number"), max_length=32, null=True, blank=True)
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
