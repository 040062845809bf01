"""The progressive's parameters as a manager writes them: amounts in the property's currency,
rates as percentages, a bank's levels as rows. The models keep cents, parts per million and
a list of tiers; these fields translate both ways and say every mistake of a form at once."""

import re
from decimal import Decimal, InvalidOperation

from django import forms
from django.core.exceptions import ValidationError
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from casino.forms import AmountField
from casino.money import money, property_currency
from jackpot.models import PARAMETER_FIELDS, PPM, Bank

# The hands a progressive level can be won on, best first, as the level's key names them.
# The jackpot knows no poker (ARCHITECTURE.md): these are its levels' names, nothing more.
LEVEL_NAMES = {
    "royal_flush": _("royal flush"),
    "straight_flush": _("straight flush"),
    "four_of_a_kind": _("four of a kind"),
    "full_house": _("full house"),
    "flush": _("flush"),
    "straight": _("straight"),
    "three_of_a_kind": _("three of a kind"),
}
LEVEL_CATEGORIES = tuple(LEVEL_NAMES)
LEVEL_ROWS = len(LEVEL_CATEGORIES)
ROW_FIELDS = 4  # hand, percent of the meter, French label, English label
_SPACES = re.compile(r"[\s\u00a0\u202f%]")


def _french() -> bool:
    return (translation.get_language() or "fr").startswith("fr")


def percent_text(ppm: int) -> str:
    """Parts per million as a percentage typed back: 250000 -> "25", 12345 -> "1,2345"."""
    text = format(Decimal(ppm) / Decimal(10_000), "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text.replace(".", ",") if _french() else text


def percent_shown(ppm: int) -> str:
    """A rate for reading: "25 %" in French, "25%" in English."""
    return f"{percent_text(ppm)}\u00a0%" if _french() else f"{percent_text(ppm)}%"


class PercentField(forms.CharField):
    """A rate typed as a percentage ("25", "0,5 %"), cleaned to parts per million."""

    def __init__(self, *args, **kwargs):
        kwargs.pop("max_length", None)
        kwargs.pop("min_value", None)
        kwargs.setdefault("widget", forms.TextInput(attrs={"inputmode": "decimal", "size": 8}))
        super().__init__(*args, **kwargs)

    def prepare_value(self, value):
        if isinstance(value, int) and not isinstance(value, bool):
            return percent_text(value)
        return value

    def to_python(self, value):
        value = super().to_python(value)
        if value in self.empty_values:
            return None
        text = _SPACES.sub("", str(value)).replace(",", ".")
        try:
            number = Decimal(text)
        except InvalidOperation:
            number = None
        if number is None or not number.is_finite() or not 0 <= number <= 100:
            raise ValidationError(
                _("Enter a percentage from 0 to 100, such as %(example)s.")
                % {"example": "2,5" if _french() else "2.5"},
                code="invalid",
            )
        ppm = number * 10_000
        if ppm != ppm.to_integral_value():
            raise ValidationError(_("Four decimals at most."), code="invalid")
        return int(ppm)


class LevelsWidget(forms.MultiWidget):
    template_name = "jackpot/admin/levels_widget.html"

    def __init__(self, attrs=None):
        choices = [("", "—")] + [(c, LEVEL_NAMES[c]) for c in LEVEL_CATEGORIES]
        widgets = []
        for _index in range(LEVEL_ROWS):
            widgets += [
                forms.Select(choices=choices),
                forms.TextInput(attrs={"inputmode": "numeric", "size": 4}),
                forms.TextInput(attrs={"size": 24}),
                forms.TextInput(attrs={"size": 24}),
            ]
        super().__init__(widgets, attrs)

    def get_context(self, name, value, attrs):
        if isinstance(value, list | tuple) and any(isinstance(v, dict) for v in value):
            value = self.decompress(value)  # the tiers themselves, not the posted cells
        context = super().get_context(name, value, attrs)
        subwidgets = context["widget"]["subwidgets"]
        rows = [subwidgets[i : i + ROW_FIELDS] for i in range(0, len(subwidgets), ROW_FIELDS)]
        titles = (_("hand"), _("% of the meter"), _("label in French"), _("label in English"))
        for number, row in enumerate(rows, start=1):
            for cell, title in zip(row, titles, strict=True):
                cell["attrs"]["aria-label"] = f"{title} ({number})"
        context["widget"]["rows"] = rows
        context["widget"]["titles"] = titles
        return context

    def decompress(self, value):
        tiers = list(value or [])[:LEVEL_ROWS]
        flat = []
        for tier in tiers:
            flat += [tier.get("level", ""), tier.get("percent", ""), tier.get("label_fr", "")]
            flat += [tier.get("label_en", "")]
        return flat + [""] * (LEVEL_ROWS * ROW_FIELDS - len(flat))


class LevelsField(forms.MultiValueField):
    """A bank's levels, one row each: the hand, the share of the meter it wins, its labels."""

    widget = LevelsWidget

    def __init__(self, **kwargs):
        kwargs.pop("encoder", None)
        kwargs.pop("decoder", None)
        kwargs.pop("max_length", None)
        fields = []
        for _index in range(LEVEL_ROWS):
            fields += [forms.CharField(required=False) for _cell in range(ROW_FIELDS)]
        kwargs.setdefault(
            "help_text",
            _(
                "One row per hand that wins a share of the meter; exactly one, the top hand, "
                "wins 100 %. The labels are what the screens show in each language."
            ),
        )
        super().__init__(fields, require_all_fields=False, required=False, **kwargs)

    def clean(self, value):
        if not isinstance(value, list | tuple):
            value = self.widget.decompress(value)
        return self.compress(list(value))

    def compress(self, data_list):
        data = list(data_list or []) + [""] * (LEVEL_ROWS * ROW_FIELDS)
        tiers, errors, seen = [], [], set()
        for row in range(LEVEL_ROWS):
            level, percent, label_fr, label_en = (
                str(v or "").strip() for v in data[row * ROW_FIELDS : (row + 1) * ROW_FIELDS]
            )
            if not level:
                if percent or label_fr or label_en:
                    errors.append(_("Row %(row)s: choose its hand.") % {"row": row + 1})
                continue
            if level not in LEVEL_CATEGORIES:
                errors.append(_("Row %(row)s: choose its hand.") % {"row": row + 1})
                continue
            name = str(LEVEL_NAMES[level])
            if level in seen:
                errors.append(_("%(hand)s is on two rows.") % {"hand": name})
            seen.add(level)
            try:
                share = int(_SPACES.sub("", percent))
            except ValueError:
                share = 0
            if not 1 <= share <= 100:
                errors.append(
                    _("%(hand)s: its share of the meter is a whole percentage from 1 to 100.")
                    % {"hand": name}
                )
            tiers.append(
                {
                    "level": level,
                    "percent": share,
                    "label_fr": label_fr or name,
                    "label_en": label_en or label_fr or name,
                }
            )
        if not tiers:
            errors.append(_("A bank needs at least one level."))
        elif not errors and sum(1 for t in tiers if t["percent"] == 100) != 1:
            errors.append(_("Exactly one level, the top hand, wins 100 % of the meter."))
        if errors:
            raise ValidationError(errors)
        return sorted(tiers, key=lambda t: -t["percent"])


def _cap_label():
    return _("Meter cap (%(currency)s)")


class ParametersFormMixin:
    """The six parameters as a manager writes them, checked together (every mistake at once)."""

    def _parameter_fields(self, *, required: bool) -> None:
        currency = property_currency()
        self.fields["wager_cents"] = AmountField(
            label=_("Progressive wager (%(currency)s)") % {"currency": currency},
            required=required,
        )
        self.fields["reset_cents"] = AmountField(
            label=_("Reset amount (%(currency)s)") % {"currency": currency},
            required=required,
            help_text=_("The meter starts again from this amount after its top hand is won."),
        )
        self.fields["increment_rate_ppm"] = PercentField(
            label=_("Meter increment (% of each wager)"), required=required
        )
        self.fields["hidden_rate_ppm"] = PercentField(
            label=_("Reserve for the next reset (% of each wager)"), required=False
        )
        self.fields["cap_cents"] = AmountField(
            label=_cap_label() % {"currency": currency},
            required=False,
            help_text=_("Empty: no cap. Above the cap, contributions go to the overflow."),
        )
        self.fields["levels"] = LevelsField(label=_("Levels"))

    def _check_parameters(self, cleaned: dict) -> None:
        wager, reset, cap = (cleaned.get(n) for n in ("wager_cents", "reset_cents", "cap_cents"))
        if wager is not None and wager < 1 and "wager_cents" not in self.errors:
            self.add_error("wager_cents", _("The progressive wager is more than zero."))
        if reset is not None and reset < 1 and "reset_cents" not in self.errors:
            self.add_error("reset_cents", _("The reset amount is more than zero."))
        if cap is not None and reset is not None and cap < reset:
            self.add_error(
                "cap_cents",
                _("The cap (%(cap)s) cannot be below the reset amount (%(reset)s).")
                % {"cap": money(cap), "reset": money(reset)},
            )
        rates = [cleaned.get(n) or 0 for n in ("increment_rate_ppm", "hidden_rate_ppm")]
        if sum(rates) > PPM:
            self.add_error(
                "hidden_rate_ppm",
                _("The increment and the reserve together take at most 100 % of a wager."),
            )


def parameters_shown(params: dict) -> list[tuple[str, str]]:
    """A parameter set as (label, value) lines, for reading (a change's before and after)."""
    lines = []
    labels = {name: Bank._meta.get_field(name).verbose_name for name in PARAMETER_FIELDS}
    for name in PARAMETER_FIELDS:
        if name not in params:
            continue
        value = params[name]
        if name.endswith("_cents"):
            text = money(value) if value is not None else str(_("none"))
        elif name.endswith("_ppm"):
            text = percent_shown(value or 0)
        else:
            text = levels_text(value)
        lines.append((str(labels[name]), text))
    return lines


def levels_text(levels) -> str:
    english = (translation.get_language() or "fr").startswith("en")
    parts = []
    for tier in levels or []:
        label = tier.get("label_en" if english else "label_fr") or tier.get("level", "")
        parts.append(
            f"{label} {tier.get('percent')}\u00a0%"
            if not english
            else f"{label} {tier.get('percent')}%"
        )
    return ", ".join(parts) or "—"
