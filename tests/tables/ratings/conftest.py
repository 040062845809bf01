import pytest

from casino.roles import Role
from tables.ratings.players import player_create
from tests.factories import make_staff


@pytest.fixture
def supervisor(db):
    return make_staff(Role.SUPERVISOR, Role.DEALER, username="supervisor")


@pytest.fixture
def officer(db):
    return make_staff(Role.COMPLIANCE, username="officer")


@pytest.fixture
def carded(casino_property, supervisor):
    return player_create(supervisor=supervisor, alias="Marie D.", card="400123")


@pytest.fixture
def anonymous(casino_property, supervisor):
    return player_create(supervisor=supervisor, alias="man, red jacket")
