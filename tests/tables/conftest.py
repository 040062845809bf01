import pytest

from tables import services
from tables.models import Paytable
from tests.factories import PitFactory
from tests.tables.factories import make_bank, make_paytable, make_ruleset, make_table


@pytest.fixture
def pit(casino_property):
    return PitFactory(property=casino_property, name="Pit 1")


@pytest.fixture
def blind_a(manager):
    return make_paytable(manager, kind=Paytable.Kind.BLIND, name="Blind A", preset="A")


@pytest.fixture
def trips_c(manager):
    return make_paytable(manager, kind=Paytable.Kind.TRIPS, name="Trips C", preset="C")


@pytest.fixture
def standard_rules(manager, blind_a, trips_c):
    return make_ruleset(manager, name="Standard 3x/4x", blind=blind_a, trips=trips_c)


@pytest.fixture
def closed_table(manager, pit, standard_rules):
    return make_table(manager, pit=pit, ruleset=standard_rules, name="UTH 1")


@pytest.fixture
def open_table(closed_table, supervisor):
    return services.table_open(table_id=closed_table.pk, supervisor=supervisor)


@pytest.fixture
def other_table(manager, pit, standard_rules):
    return make_table(manager, pit=pit, ruleset=standard_rules, name="UTH 2")


@pytest.fixture
def bank(db):
    return make_bank()
