"""Trips has limits of its own on a table; empty, they are the table's minimum and maximum."""

import pytest

from tables import services
from tables.errors import ConfigurationRefused
from tests.tables.factories import make_table


def test_trips_limits_default_to_the_tables_and_can_be_set(manager, pit, standard_rules):
    table = make_table(manager, pit=pit, ruleset=standard_rules, low=1_000, high=20_000)
    assert table.trips_limits == (1_000, 20_000)
    table = services.table_configure(
        table_id=table.pk, manager=manager, trips_min_cents=500, trips_max_cents=10_000
    )
    assert table.trips_limits == (500, 10_000)


@pytest.mark.parametrize(
    "low, high, field", [(0, None, "trips_min_cents"), (2_000, 1_000, "trips_max_cents")]
)
def test_impossible_trips_limits_are_refused(manager, pit, standard_rules, low, high, field):
    table = make_table(manager, pit=pit, ruleset=standard_rules)
    with pytest.raises(ConfigurationRefused) as refused:
        services.table_configure(
            table_id=table.pk, manager=manager, trips_min_cents=low, trips_max_cents=high
        )
    assert field in refused.value.errors
    table.refresh_from_db()
    assert table.trips_min_cents is None
