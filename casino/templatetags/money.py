"""`{% load money %}` then `{{ cents|money }}` or `{{ cents|money:"USD" }}`."""

from django import template

from casino.money import money as format_cents

register = template.Library()


@register.filter(name="money")
def money(cents, currency=None):
    if cents is None or cents == "":
        return ""
    if isinstance(cents, str) and cents.lstrip("-").isdigit():
        cents = int(cents)
    # Anything but integer cents (a float, a Decimal) is a bug upstream: fail loudly.
    return format_cents(cents, currency or None)
