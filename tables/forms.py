"""The paytable editor: one row per hand category, the presets, the engine's findings.

A manager types odds as N : M (Blind, Trips, a progressive odds tier), a share of the meter as
a percentage (progressive) or an amount in the property's currency (Envy); the form turns the
rows into the paytable's lines and asks the engine (`tables.forms_math`) what it refuses and
what it warns of. Every refusal is shown at once, on its row; warnings need the "confirm" box
ticked, and the service writes the confirmation in the audit log.

The `lines` JSON of the old form is still read when no row is posted (scripts and the tests
that post it), so the same checks apply to it.
"""

from __future__ import annotations

from decimal import Decimal

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.utils.translation import gettext_lazy as _

from casino.money import money, parse_cents
from tables import forms_math
from tables.engine_text import engine_message, rules_path
from tables.models import Paytable
from tables.rules.paytables import CATEGORIES, Cents, Odds, Percent, TableKind, paytable_errors

#: Best hand first, as a paytable is read.
ROWS = tuple(reversed(CATEGORIES))


def parse_money(text: str) -> int:
    """An amount as people write it in French or English (`1 000,50 €`, `€1,000.50`, `12`)
    in integer cents; ValueError when it is not one."""
    return parse_cents(text, groups=",.")


def _percent_text(value: Decimal) -> str:
    text = format(value.normalize(), "f")
    return f"{text}%"


class PaytableEditorForm(forms.ModelForm):
    """The admin's paytable form: the rows, the preset, the confirmation of warnings."""

    preset = forms.ChoiceField(
        label=_("engine preset"),
        required=False,
        choices=[("", _("none: the lines below")), *((p, p) for p in "ABCD")],
        help_text=_("A paytable of the rules engine (Blind A/B, Trips A-D), listed beside."),
    )
    lines = forms.JSONField(required=False, widget=forms.HiddenInput)
    confirm = forms.BooleanField(
        label=_("I have read the warnings and confirm this paytable"), required=False
    )
    #: Set by the admin on a version that can no longer change: the rows are shown, not edited.
    rows_disabled = False

    class Meta:
        model = Paytable
        fields = ["name", "name_en", "kind", "preset"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.findings: list[forms_math.PaytableFinding] = []
        self.math: dict | None = None
        self.table = None
        for category in ROWS:
            # The bounds are checked here, with the editor's own words on the row (a browser's
            # own bubble would speak its language and vanish): no `min` on the inputs.
            self.fields[f"{category}_n"] = forms.IntegerField(
                min_value=0,
                required=False,
                label=_("pays"),
                error_messages={
                    "min_value": _("A line cannot pay a negative amount: N is 0 or more.")
                },
            )
            self.fields[f"{category}_m"] = forms.IntegerField(
                min_value=1,
                required=False,
                label=_("for"),
                error_messages={
                    "min_value": _("M is 1 or more: odds N : 0 would pay for nothing staked.")
                },
            )
            for suffix in ("n", "m"):
                self.fields[f"{category}_{suffix}"].widget.attrs.pop("min", None)
            self.fields[f"{category}_percent"] = forms.DecimalField(
                min_value=Decimal("0.0001"),
                max_value=Decimal(100),
                decimal_places=4,
                required=False,
                localize=True,
                label=_("share of the meter, in percent"),
            )
            self.fields[f"{category}_amount"] = forms.CharField(
                required=False, label=_("amount"), max_length=40
            )
            if self.rows_disabled:
                for suffix in ("n", "m", "percent", "amount"):
                    self.fields[f"{category}_{suffix}"].disabled = True
        self._initial_rows()
        if self.instance.pk is None and not self.is_bound:
            self.math = None
        elif not self.is_bound:
            self.table = forms_math.engine_table(
                self.instance.kind, self.instance.preset, self.instance.lines
            )
            self.math = forms_math.math_panel(self.instance.kind, self.table)

    # --- rows <-> lines ------------------------------------------------------------------

    def _initial_rows(self) -> None:
        if self.instance.pk is None:
            return
        table = forms_math.engine_table(
            self.instance.kind, self.instance.preset, self.instance.lines
        )
        if table is None:
            return
        for category, value in table.lines:
            if isinstance(value, Odds):
                self.initial[f"{category}_n"] = value.n
                self.initial[f"{category}_m"] = value.m
            elif isinstance(value, Percent):
                self.initial[f"{category}_percent"] = Decimal(value.ppm) / 10_000
            elif isinstance(value, Cents):
                self.initial[f"{category}_amount"] = money(value.amount)

    def rows(self):
        """The editor's rows, best hand first: (category, its name, its four fields)."""
        return [
            {
                "category": c,
                "name": forms_math.category_name(c),
                "n": self[f"{c}_n"],
                "m": self[f"{c}_m"],
                "percent": self[f"{c}_percent"],
                "amount": self[f"{c}_amount"],
            }
            for c in ROWS
        ]

    def _rows_posted(self) -> bool:
        return any(
            f"{self.add_prefix(f'{c}_{s}')}" in self.data
            for c in ROWS
            for s in ("n", "m", "percent", "amount")
        )

    def _lines_from_rows(self, kind: str) -> dict:
        lines: dict = {}
        for c in ROWS:
            if self.has_error(f"{c}_n") or self.has_error(f"{c}_m"):
                continue  # its own message is on the row; never read "3 : 0" as "3 : 1"
            n, m = self.cleaned_data.get(f"{c}_n"), self.cleaned_data.get(f"{c}_m")
            share = self.cleaned_data.get(f"{c}_percent")
            amount_text = (self.cleaned_data.get(f"{c}_amount") or "").strip()
            if kind == "envy":
                if amount_text:
                    try:
                        lines[c] = parse_money(amount_text)
                    except ValueError:
                        self.add_error(
                            f"{c}_amount",
                            ValidationError(
                                _("%(value)s is not an amount: write it like 1 000,00 or 1000."),
                                code="not_amount",
                                params={"value": amount_text},
                            ),
                        )
                continue
            if share is not None and kind != "progressive":
                self.add_error(
                    f"{c}_percent",
                    ValidationError(
                        _("Only a progressive paytable pays a share of the meter."),
                        code="percent_not_progressive",
                    ),
                )
                continue
            if share is not None and (n is not None or m is not None):
                self.add_error(
                    f"{c}_percent",
                    ValidationError(
                        _("Give odds or a share of the meter, not both."), code="odds_and_percent"
                    ),
                )
                continue
            if share is not None:
                lines[c] = _percent_text(share)
            elif n is not None:
                lines[c] = f"{n}:{m or 1}"
            elif m is not None:
                self.add_error(
                    f"{c}_n",
                    ValidationError(_("Give what the line pays (N of N : M)."), code="odds_n"),
                )
        return lines

    # --- validation ----------------------------------------------------------------------

    def _field_of(self, kind: str, category: str | None, lines: dict) -> str | None:
        if category is None:
            return None
        if kind == "envy":
            return f"{category}_amount"
        value = lines.get(category)
        if isinstance(value, str) and value.endswith("%"):
            return f"{category}_percent"
        return f"{category}_n"

    def clean(self):
        cleaned = super().clean()
        kind = cleaned.get("kind") or self.instance.kind
        preset = cleaned.get("preset") or ""
        if not kind:
            return cleaned
        presets = forms_math.presets_of(kind)
        if preset and preset not in presets:
            self.add_error(
                "preset",
                ValidationError(
                    _("No such engine preset for this bet (available: %(names)s)."),
                    code="no_preset",
                    params={"names": ", ".join(presets) or "-"},
                ),
            )
            return cleaned
        if self.rows_disabled:
            lines = dict(self.instance.lines)
        elif self._rows_posted():
            lines = self._lines_from_rows(kind)
            if (
                preset
                and lines
                and lines != presets[preset].to_json()
                and not self._preset_chosen()
            ):
                # The version kept its preset and a row was edited: the rows are the manager's
                # now, so the paytable leaves the preset (the page says so), rather than the
                # preset's lines silently winning over what was typed.
                self.left_preset = preset
                preset = cleaned["preset"] = ""
            elif preset and lines and lines != presets[preset].to_json():
                self.add_error(
                    "preset",
                    ValidationError(
                        _(
                            "The lines differ from preset %(preset)s: choose “none” to keep"
                            " your own lines, or give the preset's."
                        ),
                        code="preset_and_lines",
                        params={"preset": preset},
                    ),
                )
        else:
            lines = cleaned.get("lines") or {}
            if preset and "preset" in self.changed_data and "lines" not in self.changed_data:
                lines = {}  # the new preset brings its own lines
        if preset:
            lines = presets[preset].to_json()
        self.instance.lines = lines
        self.table = forms_math.engine_table(kind, preset, lines)
        if self.table is None:
            if self._rows_posted():
                self._place_refusals(kind, lines)
            return cleaned  # otherwise the model's validation gives them all on `lines`
        self.math = forms_math.math_panel(kind, self.table)
        self.findings = forms_math.findings_for(kind, self.table)
        for finding in self.findings:
            if finding.refused:
                field = self._field_of(kind, finding.category, lines)
                self.add_error(field, ValidationError(finding.message, code=finding.code))
        warnings = self.warnings
        if warnings and not cleaned.get("confirm") and not self.refusals:
            self.add_error(
                "confirm",
                ValidationError(
                    _("Read the warnings and tick the box to confirm this paytable."),
                    code="confirm_warnings",
                ),
            )
        return cleaned

    #: The preset a version followed until a row was edited in this post ("" otherwise).
    left_preset = ""

    def _preset_chosen(self) -> bool:
        """The preset was picked in this very post (not kept from the version edited)."""
        return (self.instance.preset or "") != (self.cleaned_data.get("preset") or "")

    def _place_refusals(self, kind: str, lines: dict) -> None:
        """Every line the engine cannot read, on its row (the row is its name); the model's
        validation then says the same on `lines`, which `_update_errors` leaves out."""
        path = f"rules.{Paytable.RULE_KEY[kind]}"
        for exc in paytable_errors(TableKind(kind), lines, path):
            parts = rules_path(exc.path)
            category = parts.line if parts is not None else None
            if category in ROWS:
                field = self._field_of(kind, category, lines)
                message = engine_message(exc, under=exc.path)
            else:
                field, message = None, engine_message(exc, under=path)
            self.add_error(field, ValidationError(message, code=exc.code))
        self._refusals_placed = True

    def _update_errors(self, errors):
        if getattr(self, "_refusals_placed", False) and hasattr(errors, "error_dict"):
            errors.error_dict.pop("lines", None)
        super()._update_errors(errors)

    @property
    def refusals(self) -> list[forms_math.PaytableFinding]:
        return [f for f in self.findings if f.refused]

    @property
    def warnings(self) -> list[forms_math.PaytableFinding]:
        return [f for f in self.findings if not f.refused]

    def lines_errors(self):
        """The errors the rows cannot carry (the engine's words on the lines, whole-table)."""
        return [*self.errors.get("lines", []), *self.errors.get(NON_FIELD_ERRORS, [])]
