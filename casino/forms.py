"""Form fields the whole house shares: an amount in the property's currency, typed as the
reader's language writes it and kept in integer cents."""

from django import forms
from django.core.exceptions import ValidationError
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from casino.money import parse_cents, property_currency


def _is_french(language: str | None) -> bool:
    return (language or translation.get_language() or "fr").startswith("fr")


def parse_amount(text: str, currency: str, language: str | None = None) -> int:
    """Cents from an amount typed as the reader's language writes it: "5 000,00" or "5000"
    in French, "5,000.00" in English; the currency's symbol or code may be typed too. Two
    decimals at most, thousands grouped by three: "12,345" is refused in French (three
    decimals), read 12 345 in English."""
    decimal, group = (",", ".") if _is_french(language) else (".", ",")
    try:
        return parse_cents(text, decimals=decimal, groups=group, currency=currency)
    except ValueError:
        raise ValidationError(
            _("Enter an amount such as %(example)s.")
            % {"example": "5 000,00" if decimal == "," else "5,000.00"},
            code="invalid",
        ) from None


def amount_text(cents: int) -> str:
    """Cents as typed back into the form: no symbol, no grouping, the language's decimals."""
    units, rest = divmod(abs(cents), 100)
    separator = "," if _is_french(None) else "."
    return f"{'-' if cents < 0 else ''}{units}{separator}{rest:02d}"


class AmountField(forms.CharField):
    """An amount in the property's currency, cleaned to integer cents."""

    def __init__(self, *args, **kwargs):
        kwargs.pop("max_length", None)
        kwargs.setdefault("widget", forms.TextInput(attrs={"inputmode": "decimal"}))
        super().__init__(*args, **kwargs)

    def prepare_value(self, value):
        if isinstance(value, int) and not isinstance(value, bool):
            return amount_text(value)
        return value

    def to_python(self, value):
        value = super().to_python(value)
        if value in self.empty_values:
            return None
        return parse_amount(value, property_currency())
