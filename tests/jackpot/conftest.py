"""Fixtures of the progressive: banks open on the floor, and a closed one."""

import pytest

from tests.jackpot.factories import make_bank


@pytest.fixture
def bank(db, manager):
    """Open, meter at its 100.00 reset, 1.00 wager: 20 % to the meter, 5 % to the reserve."""
    return make_bank(manager=manager)


@pytest.fixture
def closed_bank(db, manager):
    return make_bank(manager=manager, opened=False)
