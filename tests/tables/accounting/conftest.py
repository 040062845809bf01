"""The accounting floor: the round tests' felt (an open table on a progressive bank, its
dealer assigned), the property's chip set, and a clock the tests can set."""

import datetime as dt

import pytest
from django.utils import timezone

from casino.clock import current_property
from casino.roles import Role
from tables.accounting.models import ChipDenomination
from tests.factories import make_staff
from tests.tables.rounds.conftest import (  # noqa: F401 - fixtures
    SUPERVISOR_PIN,
    Felt,
    felt,
    progressive,
    supervisor,
    table,
)

DEALER_PIN = "1234"  # make_staff's default
CHIPS = (100_000, 10_000, 2_500, 500, 100)


@pytest.fixture
def chip_set(casino_property):
    for value in CHIPS:
        ChipDenomination.objects.create(property=casino_property, value_cents=value)
    return CHIPS


@pytest.fixture
def other_supervisor(db):
    return make_staff(Role.SUPERVISOR, username="other_supervisor", pin="8642")


def pin(staff, code=None) -> dict:
    return {
        "employee_number": staff.employee_number,
        "pin": code or (SUPERVISOR_PIN if staff.username == "supervisor" else DEALER_PIN),
    }


@pytest.fixture
def clock(monkeypatch):
    """`clock.set(local wall time)` moves the server's "now" (in the property's zone)."""

    class Clock:
        def set(self, local: dt.datetime, fold: int = 0) -> dt.datetime:
            zone = current_property().zone
            at = local.replace(tzinfo=zone, fold=fold).astimezone(dt.UTC)
            monkeypatch.setattr(timezone, "now", lambda: at)
            return at

    return Clock()
