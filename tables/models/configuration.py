"""Rule sets and paytables, versioned.

Rule sets and paytables are versioned records: a family (`name`) has versions 1, 2, 3...
Once a round has used a version (`used_at` is set by `services.ruleset_mark_used`), or while a
table plays it (a rule set a table points at, a paytable of such a rule set), its row is never
updated: a disputed round can always be settled again with the exact rules it was dealt under,
and the rules posted at a table never change under the players. A change makes the next
version of the family instead, which reaches tables only through `services.ruleset_deploy`.

The rules themselves live in the engine (`tables.rules`): these records only hold the values
and ask `parse_rules` whether it accepts them.
"""

from django.conf import settings
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import models
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from tables.engine_text import engine_message, engine_rule
from tables.errors import VersionLocked


def engine_check(rules: dict) -> None:
    """Ask the engine whether it accepts `rules`; raise ValidationError with every fault it
    finds at once, in the reader's language, each on the field it names and naming only what
    lies below that field (`rules.trips_paytable.flush` lands on `trips_paytable` as "flush:
    ..."); a fault no field holds goes to the form's errors, naming its input in words."""
    from tables.rules.ruleset import rules_errors

    errors: dict[str, list[ValidationError]] = {}
    for exc in rules_errors(rules):
        rule = engine_rule(exc)
        field = _field_of(rule)
        under = None if field == NON_FIELD_ERRORS else f"rules.{rule}"
        errors.setdefault(field, []).append(
            ValidationError(engine_message(exc, under=under), code=exc.code)
        )
    if errors:
        raise ValidationError(errors)


# The engine names keys of the rules object; some of ours are named differently.
_FIELD_OF_KEY = {"envy": "envy_paytable"}


def _field_of(rule: str | None) -> str:
    """The RuleSet field of a rule of the engine, or the form's non-field errors."""
    field = _FIELD_OF_KEY.get(rule or "", rule or "")
    return field if field in ENGINE_FIELDS else NON_FIELD_ERRORS


class VersionedRecord(models.Model):
    """A version of a family of records; frozen for good once a round used it, and frozen
    while a table plays it."""

    USED, DEPLOYED = "used", "deployed"  # why a version is frozen

    # The family's name (its versions share it), shown on the French pages.
    name = models.CharField(_("name (French)"), max_length=80)
    # Shown on the English pages; empty: the French name is shown everywhere.
    name_en = models.CharField(_("name (English)"), max_length=80, blank=True)
    version = models.PositiveIntegerField(_("version"), default=1, editable=False)
    used_at = models.DateTimeField(_("first used"), null=True, blank=True, editable=False)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        editable=False,
    )

    class Meta:
        abstract = True

    def __str__(self) -> str:
        return f"{self.name_in(get_language())} v{self.version}"

    def save(self, *args, **kwargs):
        # The guard reads the database, not this instance: a stale copy loaded before the
        # first round, or before the first table took it, must not slip a change through.
        because = self.frozen_because()
        if because == self.USED:
            raise VersionLocked(
                _("%(version)s was used by a round and cannot be changed: make a new version.")
                % {"version": self}
            )
        if because == self.DEPLOYED:
            raise VersionLocked(
                _(
                    "%(version)s is deployed on tables and cannot be changed: make a new "
                    "version, then move the tables to it."
                )
                % {"version": self}
            )
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        if self.frozen_because() is not None:
            raise VersionLocked(
                _("%(version)s was used by a round or is deployed on tables: it is kept.")
                % {"version": self}
            )
        return super().delete(*args, **kwargs)

    def name_in(self, language: str | None) -> str:
        """The name a page in `language` shows (as a progressive bank's)."""
        if (language or "").startswith("en") and self.name_en:
            return self.name_en
        return self.name

    def clean(self) -> None:
        if self.pk is None and self.version == 1 and self.name:
            if type(self)._default_manager.filter(name=self.name).exists():
                raise ValidationError(
                    {
                        "name": _(
                            "This name is taken: to change it, make a new version of it instead."
                        )
                    }
                )

    @property
    def is_used(self) -> bool:
        return self.used_at is not None

    def frozen_because(self) -> str | None:
        """Why this version no longer changes in place, as the database has it: USED (a round
        dealt under it) or DEPLOYED (a table plays it); None while it may still change."""
        if self.pk is None:
            return None
        if type(self)._default_manager.filter(pk=self.pk, used_at__isnull=False).exists():
            return self.USED
        if self.deployed_on().exists():  # each kind of record says which tables play it
            return self.DEPLOYED
        return None


class Paytable(VersionedRecord):
    """A Blind, Trips, progressive or Envy paytable: an engine preset or explicit lines."""

    class Kind(models.TextChoices):
        BLIND = "blind", _("Blind")
        TRIPS = "trips", _("Trips")
        PROGRESSIVE = "progressive", _("progressive jackpot")
        ENVY = "envy", _("Envy bonus")

    # The key of the engine's rules object each kind of table is given under.
    RULE_KEY = {
        Kind.BLIND: "blind_paytable",
        Kind.TRIPS: "trips_paytable",
        Kind.PROGRESSIVE: "progressive_paytable",
        Kind.ENVY: "envy",
    }

    kind = models.CharField(_("bet"), max_length=12, choices=Kind.choices)
    preset = models.CharField(
        _("engine preset"),
        max_length=2,
        blank=True,
        help_text=_(
            "A to D: a paytable of the rules engine (Blind A/B, Trips A-D). Empty: use the lines."
        ),
    )
    lines = models.JSONField(
        _("lines"),
        default=dict,
        blank=True,
        help_text=_(
            'From hand category to value: odds "N:M", a share of the meter "P%" '
            "(progressive only) or cents (Envy only)."
        ),
    )

    class Meta:
        verbose_name = _("paytable")
        verbose_name_plural = _("paytables")
        ordering = ["kind", "name", "version"]
        constraints = [
            models.UniqueConstraint(fields=["name", "version"], name="paytable_version_unique"),
        ]

    def engine_value(self) -> str | dict:
        return self.preset or dict(self.lines)

    @property
    def ruleset_field(self) -> str:
        """The RuleSet field that points at a paytable of this kind."""
        return f"{self.kind}_paytable"

    def deployed_on(self) -> models.QuerySet:
        """The tables whose rule set pays with this version."""
        from tables.models.floor import Table

        return Table.objects.filter(**{f"ruleset__{self.ruleset_field}": self.pk})

    def clean(self) -> None:
        from tables.rules.paytables import BLIND_PRESETS, TRIPS_PRESETS

        super().clean()

        presets = {self.Kind.BLIND: BLIND_PRESETS, self.Kind.TRIPS: TRIPS_PRESETS}.get(self.kind)
        if self.preset:
            if presets is None or self.preset not in presets:
                names = ", ".join(presets) if presets else ""
                raise ValidationError(
                    {
                        "preset": _("No such engine preset for this bet (available: %(names)s).")
                        % {"names": names or "-"}
                    }
                )
            # The lines of a preset are the engine's, shown for reading, never typed in.
            engine_lines = presets[self.preset].to_json()
            if self.lines and self.lines != engine_lines:
                raise ValidationError(
                    {
                        "lines": _(
                            "These lines differ from the engine's preset %(preset)s: clear "
                            "the preset to give your own lines, or clear the lines."
                        )
                        % {"preset": self.preset}
                    }
                )
            self.lines = engine_lines
        key = self.RULE_KEY.get(self.kind)
        if key is None:
            return
        try:
            engine_check({key: self.engine_value()})
        except ValidationError as exc:
            raise ValidationError({"lines": exc.messages}) from exc


def default_preflop_multiples() -> list[int]:
    return [3, 4]


class RuleSet(VersionedRecord):
    """The options of the game at a table, as the engine's rules object (see spec/settle.md)."""

    class TripsOnFold(models.TextChoices):
        STAYS = "stays", _("stays in action")
        LOST = "lost", _("lost")

    class AnteWhenDealerNotQualified(models.TextChoices):
        PUSH = "push", _("returned")
        PUSH_UNLESS_DEALER_WINS = "push_unless_dealer_wins", _("returned unless the dealer wins")

    preflop_multiples = models.JSONField(
        _("pre-flop Play multiples"),
        default=default_preflop_multiples,
        help_text=_("[3, 4] for 3x or 4x, [4] on a 4x-only table."),
    )
    blind_paytable = models.ForeignKey(
        Paytable,
        verbose_name=_("Blind paytable"),
        on_delete=models.PROTECT,
        related_name="+",
        limit_choices_to={"kind": Paytable.Kind.BLIND},
    )
    trips_paytable = models.ForeignKey(
        Paytable,
        verbose_name=_("Trips paytable"),
        on_delete=models.PROTECT,
        related_name="+",
        limit_choices_to={"kind": Paytable.Kind.TRIPS},
    )
    progressive_paytable = models.ForeignKey(
        Paytable,
        verbose_name=_("progressive paytable"),
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
        limit_choices_to={"kind": Paytable.Kind.PROGRESSIVE},
        help_text=_("Empty: the engine's default progressive paytable."),
    )
    envy_paytable = models.ForeignKey(
        Paytable,
        verbose_name=_("Envy bonus paytable"),
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
        limit_choices_to={"kind": Paytable.Kind.ENVY},
        help_text=_("Empty: the engine's default Envy amounts."),
    )
    trips_on_fold = models.CharField(
        _("Trips when the player folds"),
        max_length=8,
        choices=TripsOnFold.choices,
        default=TripsOnFold.STAYS,
    )
    ante_when_dealer_not_qualified = models.CharField(
        _("Ante when the dealer does not qualify"),
        max_length=24,
        choices=AnteWhenDealerNotQualified.choices,
        default=AnteWhenDealerNotQualified.PUSH,
    )
    envy_min_wager_cents = models.BigIntegerField(
        _("smallest progressive wager collecting Envy (cents)"), default=0
    )
    progressive_wager_cents = models.BigIntegerField(_("progressive wager (cents)"), default=100)
    payout_unit_cents = models.BigIntegerField(
        _("payout unit (cents)"),
        default=1,
        help_text=_("Each bet's winnings are rounded down to a multiple of this unit."),
    )
    max_payout_cents = models.BigIntegerField(
        _("maximum payout per seat and round (cents)"),
        null=True,
        blank=True,
        help_text=_("Empty: no cap."),
    )

    class Meta:
        verbose_name = _("rule set")
        verbose_name_plural = _("rule sets")
        ordering = ["name", "version"]
        constraints = [
            models.UniqueConstraint(fields=["name", "version"], name="ruleset_version_unique"),
        ]

    def engine_rules(self) -> dict:
        """The engine's rules object (spec/settle.md) for this version."""
        rules = {
            "preflop_multiples": self.preflop_multiples,
            "blind_paytable": self.blind_paytable.engine_value(),
            "trips_paytable": self.trips_paytable.engine_value(),
            "trips_on_fold": self.trips_on_fold,
            "ante_when_dealer_not_qualified": self.ante_when_dealer_not_qualified,
            "envy_min_wager_cents": self.envy_min_wager_cents,
            "progressive_wager_cents": self.progressive_wager_cents,
            "payout_unit_cents": self.payout_unit_cents,
            "max_payout_cents": self.max_payout_cents,
        }
        if self.progressive_paytable_id is not None:
            rules["progressive_paytable"] = self.progressive_paytable.engine_value()
        if self.envy_paytable_id is not None:
            rules["envy"] = self.envy_paytable.engine_value()
        return rules

    def clean(self) -> None:
        # Every fault at once, each on its field: a manager fixes the form in one go.
        errors: dict = {}
        try:
            super().clean()
        except ValidationError as exc:
            errors = exc.update_error_dict(errors)
        try:
            self._clean_rules()
        except ValidationError as exc:
            errors = exc.update_error_dict(errors)
        except Paytable.DoesNotExist:
            pass  # clean_fields() already names the missing paytable
        if errors:
            raise ValidationError(errors)

    def _clean_rules(self) -> None:
        pairs = [
            ("blind_paytable", Paytable.Kind.BLIND),
            ("trips_paytable", Paytable.Kind.TRIPS),
            ("progressive_paytable", Paytable.Kind.PROGRESSIVE),
            ("envy_paytable", Paytable.Kind.ENVY),
        ]
        wrong = {}
        for field, kind in pairs:
            paytable = getattr(self, field) if getattr(self, f"{field}_id") else None
            if paytable is not None and paytable.kind != kind:
                wrong[field] = _("%(paytable)s is not a %(kind)s paytable.") % {
                    "paytable": paytable,
                    "kind": kind.label,
                }
        if self.blind_paytable_id is None or self.trips_paytable_id is None:
            if wrong:
                raise ValidationError(wrong)
            return  # the required-field errors say it already
        try:
            engine_check(self.engine_rules())
        except ValidationError as exc:
            # A paytable of the wrong bet is said once, as that, not again in the engine's words.
            engine = {f: e for f, e in exc.error_dict.items() if f not in wrong}
            raise ValidationError({**wrong, **engine}) from exc
        if wrong:
            raise ValidationError(wrong)

    def deployed_on(self) -> models.QuerySet:
        """The tables that play this version."""
        return self.tables.all()

    @property
    def is_four_x_only(self) -> bool:
        return list(self.preflop_multiples) == [4]


# The fields of RuleSet that the engine validates (and that a new version may change).
ENGINE_FIELDS = (
    "preflop_multiples",
    "blind_paytable",
    "trips_paytable",
    "progressive_paytable",
    "envy_paytable",
    "trips_on_fold",
    "ante_when_dealer_not_qualified",
    "envy_min_wager_cents",
    "progressive_wager_cents",
    "payout_unit_cents",
    "max_payout_cents",
)
