import datetime as dt
from zoneinfo import ZoneInfo

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils import timezone

from casino.roles import Role


class Property(models.Model):
    """The casino. One gaming day common to the whole property (31 CFR 1021.100)."""

    name = models.CharField(max_length=120)
    time_zone = models.CharField(max_length=64, default="Europe/Paris")
    gaming_day_start_hour = models.PositiveSmallIntegerField(default=6)
    currency = models.CharField(max_length=3, default="EUR")
    language = models.CharField(
        max_length=8, default="fr", choices=[("fr", "Français"), ("en", "English")]
    )

    class Meta:
        verbose_name_plural = "properties"

    def __str__(self) -> str:
        return self.name

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.time_zone)

    def local(self, at: dt.datetime | None = None) -> dt.datetime:
        return (at or timezone.now()).astimezone(self.zone)

    def gaming_date(self, at: dt.datetime | None = None) -> dt.date:
        # Wall-clock arithmetic in the property's zone, so a DST change never moves the boundary.
        local = self.local(at)
        if local.hour < self.gaming_day_start_hour:
            return local.date() - dt.timedelta(days=1)
        return local.date()


class Pit(models.Model):
    property = models.ForeignKey(Property, on_delete=models.PROTECT, related_name="pits")
    name = models.CharField(max_length=80)

    class Meta:
        unique_together = [("property", "name")]

    def __str__(self) -> str:
        return self.name


class Shift(models.Model):
    """A shift starts at a local wall-clock time and lasts until the next shift starts."""

    class Code(models.TextChoices):
        DAY = "day", "day"
        SWING = "swing", "swing"
        GRAVE = "grave", "grave"

    property = models.ForeignKey(Property, on_delete=models.CASCADE, related_name="shifts")
    code = models.CharField(max_length=8, choices=Code.choices)
    starts_at = models.TimeField()

    class Meta:
        unique_together = [("property", "code")]
        ordering = ["starts_at"]

    def __str__(self) -> str:
        return f"{self.code} ({self.starts_at:%H:%M})"


class Staff(AbstractUser):
    """A person on the floor; roles are groups (see casino.roles.Role)."""

    employee_number = models.CharField(max_length=16, unique=True, null=True, blank=True)
    pin_hash = models.CharField(max_length=128, blank=True)
    language = models.CharField(
        max_length=8, blank=True, choices=[("fr", "Français"), ("en", "English")]
    )
    failed_pin_attempts = models.PositiveSmallIntegerField(default=0)
    pin_locked_until = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = "staff member"
        verbose_name_plural = "staff"

    def __str__(self) -> str:
        return self.get_full_name() or self.username


class AuditEntry(models.Model):
    """Append-only; each entry carries the hash of the previous one (see casino.audit)."""

    created_at = models.DateTimeField()
    actor = models.ForeignKey(
        Staff, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    code = models.CharField(max_length=64, db_index=True)
    subject_type = models.CharField(max_length=64, blank=True)
    subject_id = models.CharField(max_length=64, blank=True)
    data = models.JSONField(default=dict, blank=True)
    gaming_date = models.DateField(null=True, blank=True)
    shift = models.CharField(max_length=8, blank=True)
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64, unique=True)

    class Meta:
        ordering = ["id"]
        verbose_name_plural = "audit entries"

    def __str__(self) -> str:
        return f"#{self.pk} {self.code}"


__all__ = ["Property", "Pit", "Shift", "Staff", "AuditEntry", "Role"]
