"""The server is the single time authority: gaming date and shift are computed here, at commit.

`stamp()` runs in every audit entry and every progressive contribution, so the property and
its shifts are kept in memory for at most CACHE_SECONDS. Staleness bound: a saved or deleted
Property or Shift clears the cache of the process that saved it at once (and again when its
transaction commits); other processes see the change within CACHE_SECONDS. While a
transaction that changed them is still open, its own connection reads them afresh.
"""

import datetime as dt
import threading
import time

from django.db import connection
from django.db.models.signals import post_delete, post_migrate, post_save
from django.utils import timezone

from casino.models import Property, Shift

CACHE_SECONDS = 30.0

_lock = threading.Lock()
_cached: tuple[float, Property | None, list[Shift]] | None = None


def forget() -> None:
    """Drop the cached property and shifts (the next stamp reads them again)."""
    global _cached
    with _lock:
        _cached = None


def _changed(sender, **kwargs) -> None:
    forget()
    if connection.in_atomic_block:
        # Not committed yet: this connection bypasses the cache until its transaction ends
        # (it may roll back, which sends no signal), and the commit clears it once more.
        connection.casino_clock_dirty = connection.atomic_blocks[0]
        connection.on_commit(forget)


for _model in (Property, Shift):
    post_save.connect(_changed, sender=_model, dispatch_uid=f"casino.clock.{_model.__name__}.save")
    post_delete.connect(
        _changed, sender=_model, dispatch_uid=f"casino.clock.{_model.__name__}.delete"
    )
# A flush (tests, `manage.py flush`) empties the tables without per-row signals.
post_migrate.connect(lambda **kwargs: forget(), dispatch_uid="casino.clock.flush", weak=False)


def _read() -> tuple[Property | None, list[Shift]]:
    prop = Property.objects.order_by("pk").first()
    shifts = list(Shift.objects.filter(property=prop).order_by("starts_at")) if prop else []
    return prop, shifts


def _property_and_shifts() -> tuple[Property | None, list[Shift]]:
    global _cached
    dirty = getattr(connection, "casino_clock_dirty", None)
    if dirty is not None:
        if connection.atomic_blocks and connection.atomic_blocks[0] is dirty:
            return _read()  # our own uncommitted change: never cached
        connection.casino_clock_dirty = None  # that transaction ended (commit or rollback)
        forget()
    now = time.monotonic()
    cached = _cached
    if cached is not None and now - cached[0] < CACHE_SECONDS:
        return cached[1], cached[2]
    prop, shifts = _read()
    with _lock:
        _cached = (now, prop, shifts)
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
