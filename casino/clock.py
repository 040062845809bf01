"""The server is the single time authority: gaming date and shift are computed here, at commit."""

import datetime as dt

from django.db.models import F
from django.utils import timezone

from casino.models import Property, Shift


def _property_and_shifts() -> tuple[Property | None, list[Shift]]:
    """The property and its shifts in order, in one query (a row per shift): every audit
    entry and settlement line is stamped with them."""
    rows = list(
        Property.objects.order_by("pk", "shifts__starts_at").annotate(
            shift_code=F("shifts__code"), shift_starts_at=F("shifts__starts_at")
        )
    )
    if not rows:
        return None, []
    prop = rows[0]
    shifts = [
        Shift(property=prop, code=row.shift_code, starts_at=row.shift_starts_at)
        for row in rows
        if row.pk == prop.pk and row.shift_code is not None
    ]
    return prop, shifts


def current_property() -> Property | None:
    return Property.objects.order_by("pk").first()


def _shift_code(prop: Property, shifts: list[Shift], at: dt.datetime | None) -> str:
    if not shifts:
        return ""
    now_local = prop.local(at).time()
    current = shifts[-1]  # before the first start of the day we are still in the last shift
    for shift in shifts:
        if shift.starts_at <= now_local:
            current = shift
    return current.code


def shift_at(prop: Property, at: dt.datetime | None = None) -> str:
    """The shift whose start is the latest local wall-clock time not after `at`, wrapping midnight."""
    shifts = list(Shift.objects.filter(property=prop).order_by("starts_at"))
    return _shift_code(prop, shifts, at)


def stamp(at: dt.datetime | None = None) -> tuple[dt.date | None, str]:
    """(gaming_date, shift code) for a record made at `at` (default: now)."""
    at = at or timezone.now()
    prop, shifts = _property_and_shifts()
    if prop is None:
        return None, ""
    return prop.gaming_date(at), _shift_code(prop, shifts, at)
