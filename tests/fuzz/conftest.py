"""The fuzz tests' felt: an open table with its dealer, a supervisor of the pit, a round open
(the fixtures of tests/tables, imported: this directory is not under it)."""

from tests.tables.accounting.conftest import chip_set  # noqa: F401
from tests.tables.conftest import blind_a, pit, standard_rules, trips_c  # noqa: F401
from tests.tables.rounds.conftest import progressive, supervisor, table  # noqa: F401
