"""Tablets bound to a table: a device credential kept by the tablet's browser.

Only the SHA-256 of the credential is stored; the credential itself is set once, as a cookie,
on the tablet that was bound. A revoked binding stays as the record of who bound and revoked
the tablet, and when.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from tables.models.floor import Table


class DeviceBinding(models.Model):
    """A tablet that opens only `table`, from `bound_at` until `revoked_at`."""

    class State(models.TextChoices):  # kept as `revoked_at` (see `state`)
        ACTIVE = "active", pgettext_lazy("a tablet's binding", "active")
        REVOKED = "revoked", pgettext_lazy("a tablet's binding", "revoked")

    ALLOWED = {State.ACTIVE: {State.REVOKED}}  # casino.transitions

    table = models.ForeignKey(
        Table, verbose_name=_("table"), on_delete=models.PROTECT, related_name="device_bindings"
    )
    name = models.CharField(_("device name"), max_length=80)
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    bound_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("bound by"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    bound_at = models.DateTimeField(_("bound at"))
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("revoked by"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)
    last_seen_at = models.DateTimeField(_("last seen"), null=True, blank=True)

    class Meta:
        verbose_name = _("tablet binding")
        verbose_name_plural = _("tablet bindings")
        ordering = ["table__name", "-bound_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(revoked_at__isnull=True, revoked_by__isnull=True)
                | Q(revoked_at__isnull=False, revoked_by__isnull=False),
                name="device_binding_revoked_by_whom_and_when",
            ),
            # Two tablets in use under one name could not be told apart on the list.
            models.UniqueConstraint(
                fields=["name"],
                condition=Q(revoked_at__isnull=True),
                name="device_binding_one_active_per_name",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} @ {self.table}"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None

    @property
    def state(self) -> str:
        return self.State.ACTIVE if self.revoked_at is None else self.State.REVOKED
