"""The ratings floor: the round tests' felt (an open table, its dealer assigned, a
supervisor with a PIN), carded players, and a supervisor's rating writes with fresh keys."""

import itertools

import pytest

from casino.clock import current_property
from casino.roles import Role
from tables.models import SettlementLine
from tables.ratings import services
from tables.ratings.models import Player
from tables.ratings.players import player_create
from tests.factories import make_staff
from tests.tables.rounds.conftest import (  # noqa: F401 - fixtures
    SUPERVISOR_PIN,
    Felt,
    dealing_supervisor,
    felt,
    progressive,
    supervisor,
    table,
)

_keys = itertools.count(1)


def key() -> str:
    return f"r{next(_keys)}"


@pytest.fixture
def marie(casino_property):
    return Player.objects.create(property=casino_property, card="400123", alias="Marie D.")


@pytest.fixture
def paul(casino_property):
    return Player.objects.create(property=casino_property, card="400124", alias="Paul V.")


def rate(staff, at, seat, **player):
    """Open a rating (a card: `card="..."`, else `anonymous="..."`); its body."""
    return services.rating_open(staff=staff, key=key(), table=at.pk, seat=seat, player=player).body


def do(action, staff, rating, **fields):
    """pause, resume, buy_in, move, close: the rating written's body."""
    service = getattr(services, f"rating_{action}")
    return service(rating_id=rating["id"], staff=staff, key=key(), **fields).body


def seat_lines(round_ids, seat) -> dict:
    """Σ stake (confirmed lines) per bet and Σ net (every line) of a seat over rounds."""
    stakes, net = {}, 0
    for line in SettlementLine.objects.filter(round_id__in=round_ids, seat=seat):
        if line.correction_id is None:
            stakes[line.bet] = stakes.get(line.bet, 0) + line.stake_cents
        net += line.net_cents
    return {"stakes": stakes, "net": net}


__all__ = ["current_property", "SUPERVISOR_PIN", "Felt"]


@pytest.fixture
def uth9(manager, supervisor, pit, standard_rules):  # noqa: F811
    """Another open table (no dealer needed to rate a seat there)."""
    from tables import services as floor
    from tests.tables.factories import make_table

    other = make_table(manager, pit=pit, ruleset=standard_rules, name="UTH 9")
    floor.table_open(table_id=other.pk, supervisor=supervisor)
    other.refresh_from_db()
    return other


@pytest.fixture
def officer(db):
    return make_staff(Role.COMPLIANCE, username="officer")


@pytest.fixture
def carded(casino_property, supervisor):  # noqa: F811
    return player_create(supervisor=supervisor, alias="Marie D.", card="400123")


@pytest.fixture
def anonymous(casino_property, supervisor):  # noqa: F811
    return player_create(supervisor=supervisor, alias="man, red jacket")
