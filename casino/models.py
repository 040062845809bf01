import datetime as dt
from zoneinfo import ZoneInfo, available_timezones

from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, RegexValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from casino.roles import Role

LANGUAGE_CHOICES = [("fr", "Français"), ("en", "English")]


def validate_time_zone(value: str) -> None:
    if value not in available_timezones():
        raise ValidationError(_("%(zone)s is not a known time zone."), params={"zone": value})


class Property(models.Model):
    """The casino. One gaming day common to the whole property (31 CFR 1021.100)."""

    name = models.CharField(_("name"), max_length=120)
    time_zone = models.CharField(
        _("time zone"), max_length=64, default="Europe/Paris", validators=[validate_time_zone]
    )
    gaming_day_start_hour = models.PositiveSmallIntegerField(
        _("gaming day start hour"), default=6, validators=[MaxValueValidator(23)]
    )
    currency = models.CharField(
        _("currency"),
        max_length=3,
        default="EUR",
        validators=[RegexValidator(r"^[A-Z]{3}$", _("Use an ISO 4217 code such as EUR."))],
    )
    language = models.CharField(_("language"), max_length=8, default="fr", choices=LANGUAGE_CHOICES)
    # A correction moving at most this much (the sum of its lines, in cents) is made by the
    # table's supervisor alone; above it, or always when empty, a second person approves it.
    correction_threshold_cents = models.PositiveBigIntegerField(
        _("correction threshold (cents)"),
        null=True,
        blank=True,
        help_text=_(
            "Corrections that move more than this are approved by a second person. Empty: "
            "every correction is."
        ),
    )

    class Meta:
        verbose_name = _("property")
        verbose_name_plural = _("properties")

    def __str__(self) -> str:
        return self.name

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.time_zone)

    def local(self, at: dt.datetime | None = None) -> dt.datetime:
        return (at or timezone.now()).astimezone(self.zone)

    def gaming_date(self, at: dt.datetime | None = None) -> dt.date:
        # Compare the local wall-clock hour, never add a fixed offset to UTC: a DST change then
        # never moves the boundary, and an instant always has exactly one local time (a local
        # hour that does not exist or happens twice only exists on the way in, never out).
        local = self.local(at)
        if local.hour < self.gaming_day_start_hour:
            return local.date() - dt.timedelta(days=1)
        return local.date()

    def gaming_day_start(self, gaming_date: dt.date) -> dt.datetime:
        """The first instant (UTC) of `gaming_date`, even when its local start hour happens
        twice (fall back: the first time counts) or not at all (spring forward: the jump)."""
        wall = dt.datetime.combine(gaming_date, dt.time(self.gaming_day_start_hour))
        first, second = sorted(
            wall.replace(tzinfo=self.zone, fold=fold).astimezone(dt.UTC) for fold in (0, 1)
        )
        if self.gaming_date(first) == gaming_date:
            return first
        # The start hour fell in a gap: the day starts when the clock jumps over it.
        low, high = first, second
        while high - low > dt.timedelta(seconds=1):
            middle = low + (high - low) / 2
            if self.gaming_date(middle) == gaming_date:
                high = middle
            else:
                low = middle
        return high.replace(microsecond=0)

    def gaming_day_bounds(self, gaming_date: dt.date) -> tuple[dt.datetime, dt.datetime]:
        """[start, end) in UTC: 23 or 25 hours long on DST days, 24 otherwise."""
        return (
            self.gaming_day_start(gaming_date),
            self.gaming_day_start(gaming_date + dt.timedelta(days=1)),
        )


class Pit(models.Model):
    property = models.ForeignKey(
        Property, on_delete=models.PROTECT, related_name="pits", verbose_name=_("property")
    )
    name = models.CharField(_("name"), max_length=80)
    # Who may ask for a correction of this pit's rounds. Empty: every supervisor.
    supervisors = models.ManyToManyField(
        "Staff",
        blank=True,
        related_name="supervised_pits",
        verbose_name=_("supervisors"),
        help_text=_("Who may ask for a correction of this pit's rounds. Empty: every supervisor."),
    )

    class Meta:
        unique_together = [("property", "name")]
        verbose_name = _("pit")
        verbose_name_plural = _("pits")

    def __str__(self) -> str:
        return self.name


class Shift(models.Model):
    """A shift starts at a local wall-clock time and lasts until the next shift starts."""

    class Code(models.TextChoices):
        DAY = "day", _("day")
        SWING = "swing", _("swing")
        GRAVE = "grave", _("graveyard")

    property = models.ForeignKey(
        Property, on_delete=models.CASCADE, related_name="shifts", verbose_name=_("property")
    )
    code = models.CharField(_("shift"), max_length=8, choices=Code.choices)
    starts_at = models.TimeField(_("starts at"))
    # The names the property gives its shifts, as a bank's: empty, the code's own words.
    name = models.CharField(_("name (French)"), max_length=40, blank=True)
    name_en = models.CharField(_("name (English)"), max_length=40, blank=True)

    class Meta:
        unique_together = [("property", "code")]
        ordering = ["starts_at"]
        verbose_name = _("shift")
        verbose_name_plural = _("shifts")

    def __str__(self) -> str:
        return f"{self.name_in(get_language())} ({self.starts_at:%H:%M})"

    def name_in(self, language: str | None) -> str:
        """The shift's name on a page in `language`: the property's, else the code's words."""
        if (language or "").startswith("en") and self.name_en:
            return self.name_en
        if not (language or "").startswith("en") and self.name:
            return self.name
        return str(self.Code(self.code).label) if self.code in self.Code.values else self.code

    @classmethod
    def names(cls) -> dict[str, str]:
        """Each shift code and its name in the active language (one query)."""
        names = {code: str(label) for code, label in cls.Code.choices}
        for shift in cls.objects.all():
            names[shift.code] = shift.name_in(get_language())
        return names


class Staff(AbstractUser):
    """A person on the floor; roles are groups (see casino.roles.Role)."""

    # `is_active`: deactivated and reactivated by a staff administrator (casino.transitions).
    ALLOWED = {True: {False}, False: {True}}

    employee_number = models.CharField(
        _("employee number"), max_length=16, unique=True, null=True, blank=True
    )
    pin_hash = models.CharField(_("PIN (hashed)"), max_length=128, blank=True)
    language = models.CharField(_("language"), max_length=8, blank=True, choices=LANGUAGE_CHOICES)
    failed_pin_attempts = models.PositiveSmallIntegerField(_("wrong PINs in a row"), default=0)
    pin_locked_until = models.DateTimeField(_("PIN locked until"), null=True, blank=True)
    # Set by a staff administrator, who therefore knows it: both sign-ins ask for a new one
    # before anything else (casino.middleware), and a temporary PIN approves nothing.
    password_is_temporary = models.BooleanField(_("temporary password"), default=False)
    pin_is_temporary = models.BooleanField(_("temporary PIN"), default=False)
    # Who last set a password or PIN for this person, and when (casino.duties): they could
    # sign in as them, and the own password or PIN chosen next is chosen in a session their
    # temporary one opened. Choosing one's own does not clear it; SEPARATION_DAYS do.
    credentials_set_by = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("credentials set by"),
    )
    credentials_set_at = models.DateTimeField(_("credentials set at"), null=True, blank=True)

    class Meta:
        verbose_name = _("staff member")
        verbose_name_plural = _("staff")

    def __str__(self) -> str:
        return self.get_full_name() or self.username

    def pin_locked(self, at: dt.datetime | None = None) -> bool:
        return self.pin_locked_until is not None and self.pin_locked_until > (at or timezone.now())

    @property
    def must_change_secrets(self) -> bool:
        return self.password_is_temporary or self.pin_is_temporary


class RoleGrant(models.Model):
    """A role given to a staff member. A privileged role (casino.roles.PRIVILEGED_ROLES) waits
    for a second staff administrator's approval; a dealer's role is granted at once."""

    class State(models.TextChoices):
        REQUESTED = "requested", _("requested")
        GRANTED = "granted", _("granted")
        REJECTED = "rejected", _("rejected")

    ALLOWED = {State.REQUESTED: {State.GRANTED, State.REJECTED}}  # casino.transitions

    staff = models.ForeignKey(
        Staff, on_delete=models.PROTECT, related_name="role_grants", verbose_name=_("staff member")
    )
    role = models.CharField(_("role"), max_length=16, choices=Role.choices)
    state = models.CharField(
        _("state"), max_length=16, choices=State.choices, default=State.REQUESTED
    )
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    requested_by = models.ForeignKey(
        Staff,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("requested by"),
    )
    requested_at = models.DateTimeField(_("requested at"))
    decided_by = models.ForeignKey(
        Staff,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("decided by"),
    )
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)

    class Meta:
        ordering = ["-requested_at", "-pk"]
        verbose_name = _("role grant")
        verbose_name_plural = _("role grants")
        constraints = [
            models.UniqueConstraint(
                fields=["staff", "role"],
                condition=models.Q(state="requested"),
                name="one_open_grant_per_staff_and_role",
            )
        ]

    def __str__(self) -> str:
        return f"{self.staff}: {self.get_role_display()} ({self.get_state_display()})"


class AuditLogIsAppendOnly(Exception):
    """Raised when code tries to rewrite or erase history through the ORM."""


class AuditEntryQuerySet(models.QuerySet):
    # Entries are written only by casino.audit (audit(), audit_many()) in one INSERT, and
    # sealed once by its sealer (position, previous hash, hash: `_seal`); nothing else ever
    # updates a row, and PostgreSQL refuses it too (migration 0007).
    def update(self, **kwargs):
        raise AuditLogIsAppendOnly("the audit log is append-only: entries cannot be changed")

    def delete(self):
        raise AuditLogIsAppendOnly("the audit log is append-only: entries cannot be deleted")

    def bulk_create(self, objs, *args, _chained: bool = False, **kwargs):
        if not _chained:
            raise AuditLogIsAppendOnly("audit entries are written by casino.audit only")
        return super().bulk_create(objs, *args, **kwargs)

    def bulk_update(self, objs, fields, batch_size=None):
        raise AuditLogIsAppendOnly("the audit log is append-only: entries cannot be changed")

    def update_or_create(self, *args, **kwargs):
        raise AuditLogIsAppendOnly("the audit log is append-only: entries cannot be changed")

    def _seal(self, objs) -> None:
        """For casino.audit's sealer only: give unsealed entries their place in the chain.
        A plain QuerySet, since this one refuses every update."""
        models.QuerySet(model=self.model, using=self.db).bulk_update(
            objs, ["position", "prev_hash", "hash"]
        )

    _seal.queryset_only = False  # on the manager too, though private


class AuditEntry(models.Model):
    """Append-only; each entry carries the hash of the previous one (see casino.audit)."""

    created_at = models.DateTimeField(_("time"))
    actor = models.ForeignKey(
        "casino.Staff",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("actor"),
    )
    code = models.CharField(_("code"), max_length=64, db_index=True)
    subject_type = models.CharField(_("subject type"), max_length=64, blank=True)
    subject_id = models.CharField(_("subject id"), max_length=64, blank=True)
    data = models.JSONField(_("data"), default=dict, blank=True)
    gaming_date = models.DateField(_("gaming date"), null=True, blank=True)
    shift = models.CharField(_("shift"), max_length=8, blank=True)
    # The entry's own MAC (its id and content, not its place in the chain), made by the writer:
    # the sealer seals only entries whose MAC holds, so a row inserted without the key is
    # never sealed (casino.audit). Empty on entries written before sealing existed.
    entry_mac = models.CharField(
        _("entry MAC"), max_length=64, blank=True, default="", db_default=""
    )
    # The digest of the money record the entry is about, as it stood when the entry was
    # written (casino.audit_records.register_record), or empty: audit_verify recomputes it.
    record_digest = models.CharField(
        _("record digest"), max_length=64, blank=True, default="", db_default=""
    )
    # Given by the sealer, after the entry's commit (null until then): 1, 2, 3... with no gap;
    # a missing number is a deleted entry (casino.audit.find_break).
    position = models.PositiveBigIntegerField(_("position"), unique=True, null=True, blank=True)
    # Which key made the MACs (casino.audit_keys: a fingerprint, never the key itself).
    key_id = models.CharField(_("key id"), max_length=32, blank=True, default="")
    prev_hash = models.CharField(_("previous hash"), max_length=64, blank=True, default="")
    hash = models.CharField(_("hash"), max_length=64, unique=True, null=True, blank=True)

    objects = AuditEntryQuerySet.as_manager()

    class Meta:
        ordering = ["id"]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit entries")

    def __str__(self) -> str:
        return f"#{self.pk} {self.code}"

    def save(self, *args, **kwargs):
        if self.pk is not None or kwargs.get("force_update"):
            raise AuditLogIsAppendOnly("the audit log is append-only: entries cannot be changed")
        kwargs["force_insert"] = True
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise AuditLogIsAppendOnly("the audit log is append-only: entries cannot be deleted")


__all__ = ["Property", "Pit", "Shift", "Staff", "RoleGrant", "AuditEntry", "Role"]
