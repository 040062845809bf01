"""The server is the single time authority: gaming date and shift are computed here, at commit."""

import datetime as dt

from django.utils import timezone

from casino.models import Property, Shift


def _property_and_shifts() -> tuple[Property | None, list[Shift]]:
    prop = Property.objects.order_by("pk").first()
    shifts = list(Shift.objects.filter(property=prop).order_by("starts_at")) if prop else []
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
